package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The device selection heuristics on hand-made states: arrays with sizes and the locations holding them (bit d for
 * device d, bit N for the host), devices' loads, link bandwidths. Each expected device is worked out by hand in the
 * comment beside it from GrCUDA's definitions of the policies.
 */
class DevicePlacementTest {
    private static final int D0 = 1;
    private static final int D1 = 2;
    private static final int D2 = 4;
    /** The host with three devices. */
    private static final int HOST3 = 8;

    private static DevicePlacement placement(DeviceSelectionPolicy p, double threshold, double[][] bw, int devices) {
        return new DevicePlacement(new MultiDeviceConfig(p, threshold, bw), devices);
    }

    @Test
    void roundRobinTakesTheDevicesInTurn() {
        DevicePlacement p = placement(DeviceSelectionPolicy.ROUND_ROBIN, 0.1, null, 3);
        long[] none = new long[0];
        int[] got = new int[7];
        for (int i = 0; i < got.length; i++) {
            got[i] = p.choose(none, none, new long[3]);
        }
        assertEquals("[0, 1, 2, 0, 1, 2, 0]", java.util.Arrays.toString(got));
    }

    @Test
    void singleGpuPlacesEverythingOnTheCurrentDevice() {
        DevicePlacement p = placement(DeviceSelectionPolicy.SINGLE_GPU, 0.1, null, 3);
        long[] bytes = {100};
        assertEquals(0, p.choose(bytes, new long[] {D1}, new long[] {5, 0, 0}));
        p.setCurrent(2);
        assertEquals(2, p.choose(bytes, new long[] {D1}, new long[] {0, 0, 9}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.setCurrent(3));
        assertEquals("there is no device 3; devices are 0 to 2", e.getMessage());
    }

    @Test
    void streamAwareTakesTheLeastLoadedDeviceAndTheLowestOfEquals() {
        DevicePlacement p = placement(DeviceSelectionPolicy.STREAM_AWARE, 0.1, null, 3);
        long[] none = new long[0];
        assertEquals(1, p.choose(none, none, new long[] {3, 1, 1}));
        assertEquals(2, p.choose(none, none, new long[] {3, 2, 0}));
        assertEquals(0, p.choose(none, none, new long[] {0, 0, 0}));
    }

    @Test
    void minTransferSizeTakesTheDeviceHoldingMostBytes() {
        DevicePlacement p = placement(DeviceSelectionPolicy.MIN_TRANSFER_SIZE, 0.1, null, 3);
        // A: 100 B on device 1; B: 300 B on device 2 and the host; C: 100 B on the host only. Of 500 B, device 0
        // holds 0, device 1 100 (0.2), device 2 300 (0.6): device 2.
        long[] bytes = {100, 300, 100};
        long[] valid = {D1, D2 | HOST3, HOST3};
        assertEquals(2, p.choose(bytes, valid, new long[3]));
    }

    @Test
    void minTransferSizeFallsBackToRoundRobinBelowTheThreshold() {
        // The same arrays with threshold 0.7: no device holds more than 70 %, so round-robin: 0, then 1.
        DevicePlacement p = placement(DeviceSelectionPolicy.MIN_TRANSFER_SIZE, 0.7, null, 3);
        long[] bytes = {100, 300, 100};
        long[] valid = {D1, D2 | HOST3, HOST3};
        assertEquals(0, p.choose(bytes, valid, new long[3]));
        assertEquals(1, p.choose(bytes, valid, new long[3]));
        // Exactly the threshold is not more than it: 50 of 500 B is 0.1, not above 0.1, so round-robin again (2).
        DevicePlacement q = placement(DeviceSelectionPolicy.MIN_TRANSFER_SIZE, 0.1, null, 3);
        assertEquals(0, q.choose(new long[] {50, 450}, new long[] {D1, HOST3}, new long[3]));
        // An element with no arrays is placed round-robin too.
        assertEquals(1, q.choose(new long[0], new long[0], new long[3]));
    }

    /**
     * Three devices and the host; array A (1000 B) on device 0 and the host, B (1000 B) on device 1. Devices 0 and 1
     * each hold half the bytes (above 0.1), device 2 none. Links: 1→0 10 GB/s, 0→1 5, host→1 20. On device 0, B
     * comes from device 1: 1000 / 10. On device 1, A comes from device 0 or the host: minmin takes the fastest
     * (20): 1000 / 20 = 50 < 100, so device 1; minmax the slowest (5): 1000 / 5 = 200 > 100, so device 0.
     */
    private static double[][] links() {
        double[][] bw = new double[4][4];
        for (double[] row : bw) {
            java.util.Arrays.fill(row, 1);
        }
        bw[1][0] = 10;
        bw[0][1] = 5;
        bw[3][1] = 20;
        return bw;
    }

    @Test
    void minminAssumesTheFastestSourceAndMinmaxTheSlowest() {
        long[] bytes = {1000, 1000};
        long[] valid = {D0 | HOST3, D1};
        assertEquals(1, placement(DeviceSelectionPolicy.MINMIN_TRANSFER_TIME, 0.1, links(), 3)
                .choose(bytes, valid, new long[3]));
        assertEquals(0, placement(DeviceSelectionPolicy.MINMAX_TRANSFER_TIME, 0.1, links(), 3)
                .choose(bytes, valid, new long[3]));
        DevicePlacement p = placement(DeviceSelectionPolicy.MINMIN_TRANSFER_TIME, 0.1, links(), 3);
        // 1000 B / (20e9 B/s) = 5e-8 s, by hand
        assertEquals(5e-8, p.transferTime(bytes, valid, 1, true), 1e-20);
    }

    @Test
    void transferTimePoliciesFallBackToRoundRobinWhenNoDeviceHoldsData() {
        DevicePlacement p = placement(DeviceSelectionPolicy.MINMAX_TRANSFER_TIME, 0.1, links(), 3);
        long[] bytes = {1000, 1000};
        long[] onHost = {HOST3, HOST3};
        assertEquals(0, p.choose(bytes, onHost, new long[3]));
        assertEquals(1, p.choose(bytes, onHost, new long[3]));
        assertEquals(2, p.choose(bytes, onHost, new long[3]));
    }

    @Test
    void aTransferComesOverTheFastestLinkAndTheLowestLocationOfEquals() {
        DevicePlacement p = placement(DeviceSelectionPolicy.ROUND_ROBIN, 0.1, links(), 3);
        // To device 1 from device 0 (5 GB/s) or the host (20): the host, location 3.
        assertEquals(3, p.source(D0 | HOST3, 1));
        // Uniform links: the lowest location.
        assertEquals(1, placement(DeviceSelectionPolicy.ROUND_ROBIN, 0.1, null, 3).source(D1 | D2 | HOST3, 0));
        assertThrows(IllegalStateException.class, () -> p.source(0, 1));
    }

    /**
     * multigpu-disjoint's restricted choice (GrCUDA's {@code retrieve(vertex, devices)}): round-robin takes, of the
     * allowed devices in index order, the one at the counter modulo their number, and advances the counter over all
     * devices. Counter 0: all three → 0 (counter 1); {0, 2} → position 1 % 2 = 1 → 2 (counter 2); {1} → 1 (counter 0);
     * {1, 2} → position 0 → 1 (counter 1); all three → 1.
     */
    @Test
    void roundRobinAmongSomeDevicesTakesThemInTurnWithTheCounterOverAll() {
        DevicePlacement p = placement(DeviceSelectionPolicy.ROUND_ROBIN, 0.1, null, 3);
        long[] none = new long[0];
        long[] load = new long[3];
        assertEquals(0, p.choose(none, none, load));
        assertEquals(2, p.choose(none, none, load, D0 | D2));
        assertEquals(1, p.choose(none, none, load, D1));
        assertEquals(1, p.choose(none, none, load, D1 | D2));
        assertEquals(1, p.choose(none, none, load));
    }

    @Test
    void theLoadAndDataPoliciesChooseAmongTheAllowedDevicesOnly() {
        long[] none = new long[0];
        DevicePlacement aware = placement(DeviceSelectionPolicy.STREAM_AWARE, 0.1, null, 3);
        // Device 0 is idle but not allowed: of 1 (5) and 2 (3), device 2; of equals, the lower.
        assertEquals(2, aware.choose(none, none, new long[] {0, 5, 3}, D1 | D2));
        assertEquals(1, aware.choose(none, none, new long[] {0, 3, 3}, D1 | D2));
        // As minTransferSizeTakesTheDeviceHoldingMostBytes: device 2 holds most (0.6) but is not allowed; device 1
        // holds 0.2 > 0.1.
        long[] bytes = {100, 300, 100};
        long[] valid = {D1, D2 | HOST3, HOST3};
        DevicePlacement most = placement(DeviceSelectionPolicy.MIN_TRANSFER_SIZE, 0.1, null, 3);
        assertEquals(1, most.choose(bytes, valid, new long[3], D0 | D1));
        // Of device 0 alone, holding nothing: round-robin among {0}.
        assertEquals(0, most.choose(bytes, valid, new long[3], D0));
        // As minminAssumesTheFastestSourceAndMinmaxTheSlowest: minmin would take device 1 of all; of 0 and 2 only
        // device 0 holds enough. minmax would take device 0; of 1 and 2, only device 1 holds enough.
        long[] two = {1000, 1000};
        long[] held = {D0 | HOST3, D1};
        assertEquals(0, placement(DeviceSelectionPolicy.MINMIN_TRANSFER_TIME, 0.1, links(), 3)
                .choose(two, held, new long[3], D0 | D2));
        assertEquals(1, placement(DeviceSelectionPolicy.MINMAX_TRANSFER_TIME, 0.1, links(), 3)
                .choose(two, held, new long[3], D1 | D2));
    }

    @Test
    void singleGpuKeepsTheCurrentDeviceWhateverIsAllowedAndNoDevicesIsAnError() {
        DevicePlacement p = placement(DeviceSelectionPolicy.SINGLE_GPU, 0.1, null, 3);
        assertEquals(0, p.choose(new long[0], new long[0], new long[3], D1 | D2));
        assertThrows(IllegalArgumentException.class, () -> p.choose(new long[0], new long[0], new long[3], 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> p.choose(new long[0], new long[0], new long[3], HOST3));
        assertEquals("devices to choose from must be some of 0 to 2, got bits 1000", e.getMessage());
    }

    @Test
    void badConfigurationsSayWhatIsWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceSelectionPolicy.parse("fastest"));
        assertEquals("unknown device selection policy \"fastest\"; valid: single-gpu, round-robin, stream-aware, "
                + "min-transfer-size, minmin-transfer-time, minmax-transfer-time", e.getMessage());
        assertEquals(DeviceSelectionPolicy.MINMAX_TRANSFER_TIME, DeviceSelectionPolicy.parse("MinMax-Transfer-Time"));
        e = assertThrows(IllegalArgumentException.class,
                () -> MultiDeviceConfig.DEFAULT.withDataThreshold(1.5));
        assertTrue(e.getMessage().contains("dataThreshold must be from 0 to 1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> MultiDeviceConfig.DEFAULT.withBandwidth(new double[][] {{0, 1}, {1}}));
        assertTrue(e.getMessage().contains("must be square"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> MultiDeviceConfig.DEFAULT.withBandwidth(new double[][] {{0, -1}, {1, 0}}));
        assertTrue(e.getMessage().contains("bandwidth[0][1] must be positive"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> placement(DeviceSelectionPolicy.ROUND_ROBIN, 0.1,
                new double[][] {{0, 1}, {1, 0}}, 3));
        assertTrue(e.getMessage().contains("2x2 but the scheduler has 3 devices"), e.getMessage());
    }
}
