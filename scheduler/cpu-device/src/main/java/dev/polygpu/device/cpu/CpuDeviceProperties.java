package dev.polygpu.device.cpu;

import dev.polygpu.device.DeviceProperties;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@link DeviceProperties} the CPU device reports: the limits of a compute capability 7.0 GPU, so that
 * code written for a GPU runs unchanged, and the host's threads, memory and clock where a GPU has its own.
 */
final class CpuDeviceProperties {
    private static final System.Logger LOG = System.getLogger(CpuDeviceProperties.class.getName());
    private static final Path CPUINFO = Path.of("/proc/cpuinfo");

    private CpuDeviceProperties() {
    }

    static DeviceProperties of(int workerThreads) {
        return new DeviceProperties(
                "polygpu CPU device (" + workerThreads + " threads)",
                7, 0,
                totalMemory(),
                workerThreads,
                32,
                1024,
                1024, 1024, 64,
                Integer.MAX_VALUE, 65535, 65535,
                49152,
                clockRateKHz(),
                true,
                true);
    }

    /** Physical memory, or the maximum heap where the platform does not tell. */
    private static long totalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long total = os.getTotalMemorySize();
            if (total > 0) {
                return total;
            }
        }
        return Runtime.getRuntime().maxMemory();
    }

    /** The first "cpu MHz" of /proc/cpuinfo in kHz, or 0 where there is none. */
    private static int clockRateKHz() {
        if (!Files.isReadable(CPUINFO)) {
            return 0;
        }
        try {
            return parseClockKHz(Files.readAllLines(CPUINFO));
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot read the clock rate from " + CPUINFO, e);
            return 0;
        }
    }

    static int parseClockKHz(List<String> cpuinfo) {
        for (String line : cpuinfo) {
            if (line.startsWith("cpu MHz")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    return (int) Math.round(Double.parseDouble(line.substring(colon + 1).trim()) * 1000);
                }
            }
        }
        return 0;
    }
}
