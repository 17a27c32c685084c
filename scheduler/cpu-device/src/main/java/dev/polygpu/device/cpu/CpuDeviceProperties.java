package dev.polygpu.device.cpu;

import dev.polygpu.device.DeviceAttribute;
import dev.polygpu.device.DeviceProperties;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link DeviceProperties} the CPU device reports: the limits of a compute capability 7.0 GPU, so that
 * code written for a GPU runs unchanged, and the host's threads, memory, clock and L2 cache where a GPU has its
 * own. Every other {@link DeviceAttribute} says what the CPU device does: a worker thread is a multiprocessor
 * that runs one block at a time; memory is the host's, shared with it (integrated, unified, managed, accessed by
 * the host directly); there are no textures, surfaces, PCI location, ECC or driver model to report (0).
 */
final class CpuDeviceProperties {
    private static final System.Logger LOG = System.getLogger(CpuDeviceProperties.class.getName());
    private static final Path CPUINFO = Path.of("/proc/cpuinfo");

    private CpuDeviceProperties() {
    }

    private static final Path L2_SIZE = Path.of("/sys/devices/system/cpu/cpu0/cache/index2/size");

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
                true,
                others());
    }

    /** The attributes beyond the components; those not listed here are 0 (no textures, surfaces, PCI, ECC). */
    private static Map<DeviceAttribute, Integer> others() {
        Map<DeviceAttribute, Integer> m = new EnumMap<>(DeviceAttribute.class);
        for (DeviceAttribute a : DeviceAttribute.values()) {
            if (!DeviceProperties.COMPONENT_ATTRIBUTES.contains(a)) {
                m.put(a, 0);
            }
        }
        // the CUDA limits of compute capability 7.0, which kernels written for a GPU may rely on
        m.put(DeviceAttribute.TOTAL_CONSTANT_MEMORY, 65536);
        m.put(DeviceAttribute.MAX_REGISTERS_PER_BLOCK, 65536);
        m.put(DeviceAttribute.MAX_REGISTERS_PER_MULTIPROCESSOR, 65536);
        m.put(DeviceAttribute.MAX_PITCH, Integer.MAX_VALUE);
        // a worker thread runs one block at a time, with the block's shared memory
        m.put(DeviceAttribute.MAX_THREADS_PER_MULTI_PROCESSOR, 1024);
        m.put(DeviceAttribute.MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 49152);
        m.put(DeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 49152);
        m.put(DeviceAttribute.MAX_BLOCKS_PER_MULTIPROCESSOR, 1);
        m.put(DeviceAttribute.L2_CACHE_SIZE, l2CacheBytes());
        // memory is the host's: integrated, one address space, managed, used by both sides at once
        for (DeviceAttribute a : List.of(DeviceAttribute.INTEGRATED, DeviceAttribute.CAN_MAP_HOST_MEMORY,
                DeviceAttribute.UNIFIED_ADDRESSING, DeviceAttribute.CONCURRENT_MANAGED_ACCESS,
                DeviceAttribute.DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, DeviceAttribute.HOST_NATIVE_ATOMIC_SUPPORTED,
                DeviceAttribute.GLOBAL_L1_CACHE_SUPPORTED, DeviceAttribute.LOCAL_L1_CACHE_SUPPORTED)) {
            m.put(a, 1);
        }
        // copies and kernels of different streams run at once; streams have priorities; no run-time limit
        m.put(DeviceAttribute.GPU_OVERLAP, 1);
        m.put(DeviceAttribute.ASYNC_ENGINE_COUNT, 1);
        m.put(DeviceAttribute.STREAM_PRIORITIES_SUPPORTED, 1);
        m.put(DeviceAttribute.COMPUTE_PREEMPTION_SUPPORTED, 1);
        // scalar float and double arithmetic on a CPU core run at the same rate
        m.put(DeviceAttribute.SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, 1);
        return m;
    }

    /** The L2 cache of the first core in bytes, from sysfs ({@code 1024K}), or 0 where the platform does not tell. */
    private static int l2CacheBytes() {
        if (!Files.isReadable(L2_SIZE)) {
            return 0;
        }
        try {
            return parseCacheSize(Files.readString(L2_SIZE));
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot read the L2 cache size from " + L2_SIZE, e);
            return 0;
        }
    }

    /** {@code 2048K} or {@code 2M} or {@code 524288} as bytes. */
    static int parseCacheSize(String text) {
        String t = text.strip();
        long scale = 1;
        if (t.endsWith("K")) {
            scale = 1024;
        } else if (t.endsWith("M")) {
            scale = 1024 * 1024;
        }
        long n = Long.parseLong(scale == 1 ? t : t.substring(0, t.length() - 1)) * scale;
        return (int) Math.min(n, Integer.MAX_VALUE);
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
