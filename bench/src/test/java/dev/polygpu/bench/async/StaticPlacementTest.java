package dev.polygpu.bench.async;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.bench.async.Trace.Mode;
import dev.polygpu.bench.async.Trace.Use;
import dev.polygpu.device.cpu.CpuLink;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link StaticPlacement} on hand-made DAGs whose best placement is worked out by hand (in each test's comment), and
 * its search against plain enumeration of every placement on small random DAGs.
 */
class StaticPlacementTest {
    private static final long MS = 1_000_000;
    /** 1 GB/s and no latency: 10^6 bytes take 1 ms. */
    private static final CpuLink ONE_GB = new CpuLink(1, 0);
    private static final long MB = 1_000_000;

    private static Use use(int array, Mode mode) {
        return new Use(array, mode);
    }

    private static long[] sizes(int count, long each) {
        long[] b = new long[count];
        java.util.Arrays.fill(b, each);
        return b;
    }

    @Test
    void twoIndependentKernelsSplitWhenTheCopyCostsLessThanAKernel() {
        // On one device: 10 + 10 = 20 ms. Split: device 0 runs its kernel at 0-10 (the host's copies are device 0's),
        // device 1 waits 1 ms for its array, 1-11: 11 ms.
        Trace t = new Trace();
        t.kernel("k0", List.of(use(0, Mode.READ_WRITE)), 10 * MS);
        t.kernel("k1", List.of(use(1, Mode.READ_WRITE)), 10 * MS);
        StaticPlacement.Best best = new StaticPlacement(t.nodes(), sizes(2, MB), 2, ONE_GB, false).search(1000);
        assertEquals(11, best.makespanMs(), 1e-9);
        assertNotEquals(best.devices()[0], best.devices()[1]);
        assertTrue(best.exact());
        // the array to device 1 only: device 0 gets the other from the host's memory, counted but free
        assertEquals(2, best.transfers());
    }

    @Test
    void twoIndependentKernelsStayTogetherWhenTheCopyCostsMore() {
        // 15 ms copies: split gives 15 + 10 = 25 ms (or 15 + 10 on device 1 for either), one device 20 ms.
        Trace t = new Trace();
        t.kernel("k0", List.of(use(0, Mode.READ_WRITE)), 10 * MS);
        t.kernel("k1", List.of(use(1, Mode.READ_WRITE)), 10 * MS);
        StaticPlacement.Best best = new StaticPlacement(t.nodes(), sizes(2, 15 * MB), 2, ONE_GB, false).search(1000);
        assertEquals(20, best.makespanMs(), 1e-9);
        assertArrayEquals(new int[] {0, 0}, best.devices());
    }

    /** k0 writes a; k1 reads a, writes b; k2 reads a, writes c; k3 reads b and c, writes d; 1 MB each. */
    private static Trace forkJoin() {
        Trace t = new Trace();
        t.kernel("k0", List.of(use(0, Mode.WRITE)), 5 * MS);
        t.kernel("k1", List.of(use(0, Mode.READ), use(1, Mode.WRITE)), 10 * MS);
        t.kernel("k2", List.of(use(0, Mode.READ), use(2, Mode.WRITE)), 10 * MS);
        t.kernel("k3", List.of(use(1, Mode.READ), use(2, Mode.READ), use(3, Mode.WRITE)), 5 * MS);
        return t;
    }

    @Test
    void forkJoinUnderWithConstPaysOneCopyOnItsCriticalPath() {
        // k0 on device 0 at 0-5; k1 on device 0 at 5-15; k2 on device 1 once a arrives (6) and c came from the host
        // (1): 6-16; k3 on device 1 once b arrives from device 0 (16): 16-21. The critical path alone is 20, and
        // whichever device runs k3 lacks one branch's result, which ends at 15 at the earliest: 21 is the best.
        StaticPlacement p = new StaticPlacement(forkJoin().nodes(), sizes(4, MB), 2, ONE_GB, true);
        assertEquals(21, p.makespan(new int[] {0, 0, 1, 1}), 1e-9);
        assertEquals(22, p.makespan(new int[] {0, 0, 1, 0}), 1e-9);
        assertEquals(30, p.makespan(new int[] {0, 0, 0, 0}), 1e-9);
        StaticPlacement.Best best = p.search(10_000);
        assertEquals(21, best.makespanMs(), 1e-9);
        assertTrue(best.exact());
    }

    @Test
    void forkJoinUnderNoConstIsAChainAndStaysOnOneDevice() {
        // no-const orders k1 and k2 (both use a): 5 + 10 + 10 + 5 = 30 on device 0; any move adds a copy.
        StaticPlacement.Best best = new StaticPlacement(forkJoin().nodes(), sizes(4, MB), 2, ONE_GB, false)
                .search(10_000);
        assertEquals(30, best.makespanMs(), 1e-9);
        assertArrayEquals(new int[] {0, 0, 0, 0}, best.devices());
        assertEquals(4, best.transfers());
        assertEquals(4 * MB, best.bytes());
    }

    @Test
    void aHostReadWaitsForTheCopyHomeAndHoldsBackLaterKernels() {
        // k0 writes a (10 ms); the host reads a; k1, independent, is submitted after the read. k0 on device 0: the
        // read at 10 costs nothing, k1 at 10-20 on either device (device 1's array arrives at 1). k0 on device 1:
        // a arrives at 1, k0 1-11, home at 12, k1 12-22.
        Trace t = new Trace();
        t.kernel("k0", List.of(use(0, Mode.WRITE)), 10 * MS);
        t.host("read a", use(0, Mode.READ));
        t.kernel("k1", List.of(use(1, Mode.WRITE)), 10 * MS);
        StaticPlacement p = new StaticPlacement(t.nodes(), sizes(2, MB), 2, ONE_GB, false);
        assertEquals(22, p.makespan(new int[] {1, 0}), 1e-9);
        assertEquals(20, p.makespan(new int[] {0, 1}), 1e-9);
        StaticPlacement.Best best = p.search(1000);
        assertEquals(20, best.makespanMs(), 1e-9);
        assertEquals(0, best.devices()[0]);
    }

    @Test
    void oneDeviceRunsEverythingInTurnWithoutCopies() {
        StaticPlacement.Best best = new StaticPlacement(forkJoin().nodes(), sizes(4, MB), 1, ONE_GB, true)
                .search(1000);
        assertEquals(30, best.makespanMs(), 1e-9);
        assertEquals(0, best.transfers());
    }

    @Test
    void searchFindsWhatEnumeratingEveryPlacementFinds() {
        long seed = 20261129L;
        Random rnd = new Random(seed);
        for (int round = 0; round < 12; round++) {
            int devices = 2 + round % 3;
            int kernels = devices == 4 ? 6 : 8;
            Trace t = randomTrace(rnd, kernels, 5);
            long[] bytes = new long[5];
            for (int a = 0; a < bytes.length; a++) {
                bytes[a] = (1 + rnd.nextInt(8)) * MB;
            }
            boolean withConst = rnd.nextBoolean();
            StaticPlacement p = new StaticPlacement(t.nodes(), bytes, devices, new CpuLink(2, 300), withConst);
            double enumerated = enumerate(p, devices);
            StaticPlacement.Best best = p.search(10_000_000);
            String where = "seed " + seed + ", round " + round;
            assertTrue(best.exact(), where);
            assertEquals(enumerated, best.makespanMs(), 1e-9, where);
            assertEquals(best.makespanMs(), p.makespan(best.devices()), 1e-9, where);
        }
    }

    @Test
    void aSearchCutShortSaysSoAndBoundsTheOptimumFromBelow() {
        long seed = 7L;
        Random rnd = new Random(seed);
        Trace t = randomTrace(rnd, 8, 4);
        StaticPlacement p = new StaticPlacement(t.nodes(), sizes(4, MB), 3, ONE_GB, true);
        double optimum = enumerate(p, 3);
        StaticPlacement.Best cut = p.search(3);
        assertFalse(cut.exact(), "seed " + seed);
        assertTrue(cut.lowerBoundMs() <= optimum + 1e-9, "seed " + seed);
        assertTrue(cut.makespanMs() >= optimum - 1e-9, "seed " + seed);
    }

    /** Kernels of 1–20 ms, each using 1–3 of {@code arrays} arrays with random modes, and a host read now and then. */
    private static Trace randomTrace(Random rnd, int kernels, int arrays) {
        Trace t = new Trace();
        Mode[] modes = Mode.values();
        for (int k = 0; k < kernels; k++) {
            List<Use> uses = new ArrayList<>();
            int count = 1 + rnd.nextInt(3);
            List<Integer> picked = new ArrayList<>();
            while (picked.size() < count) {
                int a = rnd.nextInt(arrays);
                if (!picked.contains(a)) {
                    picked.add(a);
                    uses.add(use(a, modes[rnd.nextInt(modes.length)]));
                }
            }
            t.kernel("k" + k, uses, (1 + rnd.nextInt(20)) * MS);
            if (rnd.nextInt(6) == 0) {
                t.host("read", use(rnd.nextInt(arrays), Mode.READ));
            }
        }
        return t;
    }

    /** The least makespan over all devices^kernels placements, without symmetry or pruning. */
    private static double enumerate(StaticPlacement p, int devices) {
        int k = p.kernels();
        int[] assignment = new int[k];
        double best = Double.POSITIVE_INFINITY;
        long total = (long) Math.pow(devices, k);
        for (long code = 0; code < total; code++) {
            long c = code;
            for (int i = 0; i < k; i++) {
                assignment[i] = (int) (c % devices);
                c /= devices;
            }
            best = Math.min(best, p.makespan(assignment));
        }
        return best;
    }
}
