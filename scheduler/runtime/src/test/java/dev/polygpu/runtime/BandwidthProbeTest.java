package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.Device;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.CpuLink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The measured matrix of three CPU devices with simulated links of known bandwidth. Which link a copy crosses
 * follows from the CPU device's rule (a copy between two devices' buffers waits for the link of the device whose
 * stream runs it) and the probe's (the destination's stream, or for a copy to the host the source's; the host's
 * memory is on device 0). A link waits at least {@code bytes / bandwidth}, so no figure may exceed its link's
 * bandwidth; how far below it lands depends on the machine's load, so the lower side is checked as ratios between a
 * fast and a slow link, generously.
 */
class BandwidthProbeTest {
    /**
     * The links of devices 0, 1 and 2 in GB/s: 1 is the fast one, 2 the slow one (4 times slower). All are slow
     * beside a copy in memory, which the CPU device makes after the link's wait, so that its time (long on a busy
     * machine) adds little.
     */
    private static final double[] LINK = {0.02, 0.04, 0.01};
    private final List<Device> devices = new ArrayList<>();

    @BeforeEach
    void open() {
        for (int d = 0; d < LINK.length; d++) {
            CpuDevice c = new CpuDevice(d, 1, null);
            c.setLink(new CpuLink(LINK[d], 5));
            devices.add(c);
        }
    }

    @AfterEach
    void close() {
        devices.forEach(Device::close);
    }

    /** The link a copy from {@code from} to {@code to} crosses (3 is the host), or 0 for none (within device 0). */
    private static double linkOf(int from, int to) {
        int host = 3;
        int runsOn = to == host ? from : to;
        int other = runsOn == to ? from : to;
        boolean sameDevice = (other == host ? 0 : other) == runsOn;
        return sameDevice ? 0 : LINK[runsOn];
    }

    @Test
    void figuresFollowTheSimulatedLinks() {
        // A budget of 1 s, four times the default: copies of about 28 ms, beside which a late wake-up is small.
        BandwidthMeasurement m = new BandwidthProbe(devices, devices.get(0)::allocate).budget(Duration.ofSeconds(1))
                .measure();
        double[][] bw = m.gigabytesPerSecond();
        String all = Arrays.deepToString(bw) + " GB/s from " + Arrays.deepToString(m.bytes())
                + " bytes in " + Arrays.deepToString(m.millis()) + " ms";
        double fastest = 0;
        double slowestFast = Double.MAX_VALUE;
        double fastestSlow = 0;
        double fastestMiddle = 0;
        double slowestMiddle = Double.MAX_VALUE;
        for (int from = 0; from <= 3; from++) {
            for (int to = 0; to <= 3; to++) {
                if (from == to) {
                    continue;
                }
                double link = linkOf(from, to);
                String where = from + " -> " + to + ": " + bw[from][to] + " GB/s, link " + link + "; " + all;
                assertTrue(bw[from][to] > 0, where);
                assertTrue(m.bytes()[from][to] >= BandwidthProbe.FIRST_COPY_BYTES
                        && m.bytes()[from][to] <= BandwidthProbe.MAX_COPY_BYTES, where);
                if (link == 0) {
                    continue;
                }
                // The link waits latency + bytes / bandwidth before it copies: the rate cannot exceed it.
                assertTrue(bw[from][to] <= link * 1.02, where);
                fastest = Math.max(fastest, link);
                if (link == LINK[1]) {
                    slowestFast = Math.min(slowestFast, bw[from][to]);
                } else if (link == LINK[2]) {
                    fastestSlow = Math.max(fastestSlow, bw[from][to]);
                } else {
                    fastestMiddle = Math.max(fastestMiddle, bw[from][to]);
                    slowestMiddle = Math.min(slowestMiddle, bw[from][to]);
                }
            }
        }
        // Configured 4 and 2 times faster than the slow link, 2 times the middle one: measured at least 2, 1.25, 1.25.
        assertTrue(slowestFast >= 2 * fastestSlow, slowestFast + " vs " + fastestSlow + "; " + all);
        assertTrue(slowestMiddle >= 1.25 * fastestSlow, slowestMiddle + " vs " + fastestSlow + "; " + all);
        assertTrue(slowestFast >= 1.25 * fastestMiddle, slowestFast + " vs " + fastestMiddle + "; " + all);
        // Between the host and device 0 nothing is simulated: a copy in memory, far above every link.
        assertTrue(bw[3][0] > fastest && bw[0][3] > fastest, all);
        for (Device d : devices) {
            assertEquals(0, d.allocatedBytes(), "the probe frees what it allocated on " + d);
        }
    }

    @Test
    void oneDeviceHasTwoLinksAndProgressCountsThem() {
        List<int[]> seen = new ArrayList<>();
        BandwidthProbe probe = new BandwidthProbe(devices.subList(1, 2), devices.get(0)::allocate)
                .budget(Duration.ofMillis(40))
                .progress((done, total, nanos) -> seen.add(new int[] {done, total}));
        assertEquals(2, probe.links());
        double[][] bw = probe.measure().gigabytesPerSecond();
        // Device 1 with the host on device 0: both directions run on device 1's stream, over its link.
        assertTrue(bw[1][0] <= LINK[1] * 1.02 && bw[0][1] <= LINK[1] * 1.02, bw[1][0] + ", " + bw[0][1]);
        assertEquals(2, seen.size());
        assertEquals(1, seen.get(0)[0]);
        assertEquals(2, seen.get(1)[0]);
        assertEquals(2, seen.get(1)[1]);
    }
}
