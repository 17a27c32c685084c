package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadsTest {
    private static final long SEED = 20_240_607L;
    private static final Distribution HUNDRED = Distribution.constant(100);
    private static final Distribution EXP = Distribution.exponential(1_000);

    private static int[] parents(Workload w, int t) {
        List<Integer> found = new ArrayList<>();
        for (int p = 0; p < t; p++) {
            for (int c = 0; c < w.childCount(p); c++) {
                if (w.child(p, c) == t) {
                    found.add(p);
                }
            }
        }
        return found.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int[] inputs(Workload w, int t) {
        int[] in = new int[w.inputCount(t)];
        Arrays.setAll(in, i -> w.input(t, i));
        return in;
    }

    private static long[] workByOwner(Workload w, int owners) {
        long[] work = new long[owners];
        for (int t = 0; t < w.tasks(); t++) {
            work[w.owner(t)] += w.durationNanos(t);
        }
        return work;
    }

    private static double spread(long[] work) {
        long max = Arrays.stream(work).max().orElseThrow();
        long min = Arrays.stream(work).min().orElseThrow();
        return (double) max / min;
    }

    /** Same seed, same workload: owners, kernels, durations, outputs, inputs and children, task by task. */
    private static void assertSame(Workload a, Workload b) {
        assertEquals(a.tasks(), b.tasks());
        assertEquals(a.arrays(), b.arrays());
        for (int t = 0; t < a.tasks(); t++) {
            assertEquals(a.owner(t), b.owner(t));
            assertEquals(a.kernel(t), b.kernel(t));
            assertEquals(a.durationNanos(t), b.durationNanos(t));
            assertEquals(a.outputBytes(t), b.outputBytes(t));
            assertArrayEquals(inputs(a, t), inputs(b, t));
            assertEquals(a.childCount(t), b.childCount(t));
        }
    }

    @Test
    void aTinyBlockSparseGemmIsChainsOfTileProducts() {
        // 2 × 2 tiles, A dense: B(k,j) is array 2k + j, row 0 of A arrays 4, 5 and row 1 arrays 6, 7.
        Workload w = Workloads.blockSparseGemm(2, 1.0, 0, 2, HUNDRED, 64, SEED);
        assertEquals(8, w.tasks());
        assertEquals(8, w.arrays());
        int[][] reads = {{4, 0}, {5, 2}, {4, 1}, {5, 3}, {6, 0}, {7, 2}, {6, 1}, {7, 3}};
        for (int t = 0; t < 8; t++) {
            assertArrayEquals(reads[t], inputs(w, t), "task " + t);
            assertArrayEquals(t % 2 == 0 ? new int[0] : new int[] {t - 1}, parents(w, t), "task " + t);
            assertEquals(t < 4 ? 0 : 1, w.owner(t), "row 0 to member 0, row 1 to member 1");
            assertEquals(64, w.outputBytes(t));
            assertEquals(128, w.inputBytes(t));
            assertEquals("gemm", w.kernelName(w.kernel(t)));
        }
        assertEquals(800, w.totalWorkNanos());
        assertEquals(200, w.criticalPathNanos(), "one chain of two products");
    }

    @Test
    void blockSparseTilesIsOneIndependentTaskPerCTile() {
        // 3 × 3 tiles, A dense: every row has 3 products of 100 ns; 2 owners by row blocks, row i to
        // floor(2i / 3): rows 0 and 1 to member 0, row 2 to member 1.
        Workload w = Workloads.blockSparseTiles(3, 1.0, 0, 2, HUNDRED, 64, SEED);
        assertEquals(9, w.tasks());
        for (int t = 0; t < 9; t++) {
            assertEquals(0, w.parentCount(t), "independent");
            assertEquals(300, w.durationNanos(t), "3 products of 100 ns");
            assertEquals(64, w.outputBytes(t));
            assertEquals(2 * 3 * 64, w.inputBytes(t), "A's packed row and the 3 tiles of B it needs");
            assertEquals(t / 3 == 2 ? 1 : 0, w.owner(t), "row " + t / 3);
        }
        assertEquals(w.input(0, 0), w.input(1, 0), "the row's tasks share A's packed row");
        assertNotEquals(w.input(0, 1), w.input(1, 1), "each task has its own tiles of B");
        // Skewed rows: the rows' task durations differ, and more tasks than before never change the count rule.
        Workload skewed = Workloads.blockSparseTiles(40, 0.25, 1.0, 4, HUNDRED, 64, SEED);
        assertEquals(1600, skewed.tasks());
        long least = Long.MAX_VALUE;
        long most = 0;
        for (int t = 0; t < skewed.tasks(); t++) {
            least = Math.min(least, skewed.durationNanos(t));
            most = Math.max(most, skewed.durationNanos(t));
        }
        assertTrue(most >= 4 * least, "rows differ: " + least + " .. " + most);
    }

    @Test
    void blockSparseTaskCountsFollowTheDensity() {
        double[][] table = {
            // tiles, density, skew
            {20, 0.25, 0.7}, {20, 0.01, 0.0}, {17, 0.5, 1.2}, {30, 1.0, 0.3}, {9, 0.333, 0.0},
        };
        for (double[] row : table) {
            int tiles = (int) row[0];
            long nonzeros = Math.max(tiles, Math.min((long) tiles * tiles, Math.round(row[1] * tiles * tiles)));
            Workload w = Workloads.blockSparseGemm(tiles, row[1], row[2], 3, EXP, 8, SEED);
            assertEquals(tiles * nonzeros, w.tasks(), Arrays.toString(row));
            assertEquals((long) tiles * tiles + nonzeros, w.arrays(), "B dense plus A's nonzeros");
            int chains = 0;
            for (int t = 0; t < w.tasks(); t++) {
                int parentCount = w.parentCount(t);
                assertTrue(parentCount == 0 || parentCount == 1 && w.childCount(t - 1) == 1 && w.child(t - 1, 0) == t,
                        "a chain, in order");
                chains += parentCount == 0 ? 1 : 0;
            }
            assertEquals(tiles * tiles, chains, "one chain per C tile: every row has a nonzero");
        }
    }

    @Test
    void withoutSkewRowsHaveEqualCountsAndOwnersEqualWork() {
        int tiles = 40;
        int[] counts = Workloads.rowCounts(tiles, 400, 0, Workloads.random(SEED));
        assertTrue(Arrays.stream(counts).allMatch(c -> c == 10), Arrays.toString(counts));
        int[] uneven = Workloads.rowCounts(tiles, 410, 0, Workloads.random(SEED));
        assertEquals(410, Arrays.stream(uneven).sum());
        assertTrue(Arrays.stream(uneven).allMatch(c -> c == 10 || c == 11), Arrays.toString(uneven));

        Workload w = Workloads.blockSparseGemm(tiles, 0.25, 0, 8, HUNDRED, 8, SEED);
        long[] work = workByOwner(w, 8);
        assertTrue(Arrays.stream(work).allMatch(x -> x == work[0]), Arrays.toString(work));
    }

    @Test
    void skewedRowsSumToTheTargetWithinBounds() {
        for (double skew : new double[] {0.3, 0.8, 1.5, 4}) {
            int[] counts = Workloads.rowCounts(50, 600, skew, Workloads.random(SEED));
            assertEquals(600, Arrays.stream(counts).sum(), "skew " + skew);
            assertTrue(Arrays.stream(counts).allMatch(c -> c >= 1 && c <= 50), Arrays.toString(counts));
            int max = Arrays.stream(counts).max().orElseThrow();
            assertTrue(max >= 2 * 12, "skew " + skew + ": the heaviest row has at least twice the mean 12, "
                    + Arrays.toString(counts));
        }
    }

    /**
     * The point of the two GEMMs: dense GEMM spreads work evenly (each of 4 owners sums 8,192 exponential
     * durations, whose total has a relative standard deviation of 1/√8192 ≈ 1.1 %, so 5 % is over 4 of them),
     * while skewed rows in row blocks leave some owners with several times the work of others.
     */
    @Test
    void denseGemmIsBalancedAndSkewedBlockSparseIsNot() {
        Workload dense = Workloads.denseGemm(32, 4, EXP, 8, SEED);
        assertTrue(spread(workByOwner(dense, 4)) < 1.05, Arrays.toString(workByOwner(dense, 4)));

        Workload sparse = Workloads.blockSparseGemm(64, 0.1, 0.8, 8, EXP, 8, SEED);
        long[] work = workByOwner(sparse, 8);
        assertTrue(spread(work) > 2, "seed " + SEED + ": " + Arrays.toString(work));
    }

    @Test
    void sameSeedSameWorkloadOtherSeedAnother() {
        assertSame(Workloads.blockSparseGemm(24, 0.2, 0.9, 5, EXP, 8, SEED),
                Workloads.blockSparseGemm(24, 0.2, 0.9, 5, EXP, 8, SEED));
        assertSame(Workloads.denseGemm(8, 6, EXP, 8, SEED), Workloads.denseGemm(8, 6, EXP, 8, SEED));
        assertSame(Workloads.cholesky(9, 6, EXP, 8, SEED), Workloads.cholesky(9, 6, EXP, 8, SEED));
        assertNotEquals(Workloads.blockSparseGemm(24, 0.2, 0.9, 5, EXP, 8, SEED).totalWorkNanos(),
                Workloads.blockSparseGemm(24, 0.2, 0.9, 5, EXP, 8, SEED + 1).totalWorkNanos());
        assertNotEquals(Workloads.cholesky(9, 6, EXP, 8, SEED).totalWorkNanos(),
                Workloads.cholesky(9, 6, EXP, 8, SEED + 1).totalWorkNanos());
    }

    @Test
    void moreOwnersThanRowsCutCInRowMajorBlocksAndAllGetWork() {
        Workload w = Workloads.blockSparseGemm(10, 0.3, 0.5, 37, EXP, 8, SEED);
        boolean[] seen = new boolean[37];
        for (int t = 0; t < w.tasks(); t++) {
            seen[w.owner(t)] = true;
        }
        for (int o = 0; o < 37; o++) {
            assertTrue(seen[o], "owner " + o);
        }
        assertEquals(37, w.owners());
        assertThrows(IllegalArgumentException.class,
                () -> Workloads.blockSparseGemm(6, 0.3, 0.5, 37, EXP, 8, SEED), "more owners than C tiles");
    }

    @Test
    void aMillionTaskBlockSparseGemm() {
        Workload w = Workloads.blockSparseGemm(200, 0.125, 0.5, 1024, Distribution.lognormal(1e6, 0.5), 1 << 20,
                SEED);
        assertEquals(1_000_000, w.tasks());
        assertEquals(1024, w.owners());
    }

    @Test
    void denseGemmDealsCTilesBlockCyclically() {
        int tiles = 7;
        Workload w = Workloads.denseGemm(tiles, 6, HUNDRED, 16, SEED); // a 2 × 3 grid of owners
        assertEquals(tiles * tiles * tiles, w.tasks());
        assertEquals(2 * tiles * tiles, w.arrays());
        for (int i = 0; i < tiles; i++) {
            for (int j = 0; j < tiles; j++) {
                for (int k = 0; k < tiles; k++) {
                    int t = (i * tiles + j) * tiles + k;
                    assertEquals((i % 2) * 3 + j % 3, w.owner(t));
                    assertArrayEquals(new int[] {i * tiles + k, tiles * tiles + k * tiles + j}, inputs(w, t));
                    assertArrayEquals(k == 0 ? new int[0] : new int[] {t - 1}, parents(w, t));
                }
            }
        }
        assertEquals(tiles * 100L, w.criticalPathNanos());
        assertEquals(tiles * tiles * tiles * 100L, w.totalWorkNanos());
    }

    @Test
    void gridsAreNearSquare() {
        int[][] table = {{1, 1}, {2, 1}, {4, 2}, {6, 2}, {7, 1}, {12, 3}, {16, 4}, {1024, 32}, {1000, 25}};
        for (int[] row : table) {
            assertEquals(row[1], Workloads.gridRows(row[0]), "owners " + row[0]);
        }
    }

    @Test
    void choleskyCountsAndKernels() {
        for (int tiles : new int[] {1, 2, 5, 12}) {
            long expected = 0;
            for (int k = 0; k < tiles; k++) {
                expected++; // POTRF
                for (int m = k + 1; m < tiles; m++) {
                    expected += 2; // TRSM, SYRK
                    expected += m - k - 1; // GEMMs
                }
            }
            Workload w = Workloads.cholesky(tiles, 4, EXP, 8, SEED);
            assertEquals(expected, w.tasks(), "tiles " + tiles);
            assertEquals(tiles * (tiles + 1) / 2, w.arrays());
        }
        Workload two = Workloads.cholesky(2, 1, Distribution.constant(600), 8, SEED);
        assertEquals(List.of("potrf", "trsm", "syrk", "potrf"),
                List.of(0, 1, 2, 3).stream().map(t -> two.kernelName(two.kernel(t))).toList());
        // Tiles (0,0), (1,0), (1,1) are arrays 0, 1, 2.
        assertArrayEquals(new int[] {0}, inputs(two, 0));
        assertArrayEquals(new int[] {1, 0}, inputs(two, 1));
        assertArrayEquals(new int[] {2, 1}, inputs(two, 2));
        assertArrayEquals(new int[] {2}, inputs(two, 3));
        for (int t = 1; t < 4; t++) {
            assertArrayEquals(new int[] {t - 1}, parents(two, t));
        }
        assertEquals(200 + 300 + 300 + 200, two.criticalPathNanos());
    }

    /**
     * Three tiles, constant GEMM time 600 ns (POTRF 200, TRSM and SYRK 300): the longest chain is POTRF(0) →
     * TRSM(1,0) → GEMM(2,1,0) → TRSM(2,1) → SYRK(2,1) → POTRF(2) = 200 + 300 + 600 + 300 + 300 + 200 = 1,900
     * (the other way into TRSM(2,1), through SYRK(1,0) and POTRF(1), is ready at 1,000, before GEMM's 1,100).
     */
    @Test
    void theCriticalPathOfASmallCholesky() {
        Workload w = Workloads.cholesky(3, 1, Distribution.constant(600), 8, SEED);
        assertEquals(10, w.tasks());
        assertEquals(1900, w.criticalPathNanos());
        assertEquals(3 * 200 + 3 * 300 + 3 * 300 + 600, w.totalWorkNanos());
        // Submission order: POTRF0, TRSM(1,0), TRSM(2,0), SYRK(1,0), SYRK(2,0), GEMM(2,1,0), POTRF1, TRSM(2,1),
        // SYRK(2,1), POTRF2.
        int[][] expectedParents = {{}, {0}, {0}, {1}, {2}, {2, 1}, {3}, {5, 6}, {4, 7}, {8}};
        for (int t = 0; t < 10; t++) {
            int[] found = parents(w, t);
            int[] expected = expectedParents[t].clone();
            Arrays.sort(found);
            Arrays.sort(expected);
            assertArrayEquals(expected, found, "task " + t);
        }
    }

    @Test
    void choleskyOwnersAreBlockCyclicByTheTileWritten() {
        Workload w = Workloads.cholesky(6, 4, HUNDRED, 8, SEED); // a 2 × 2 grid
        boolean[] seen = new boolean[4];
        for (int t = 0; t < w.tasks(); t++) {
            seen[w.owner(t)] = true;
        }
        assertArrayEquals(new boolean[] {true, true, true, true}, seen);
        assertEquals(0, w.owner(0), "POTRF(0) writes (0,0)");
        assertEquals(2, w.owner(1), "TRSM(1,0) writes (1,0): grid row 1, column 0");
    }

    @Test
    void badArgumentsAreNamed() {
        assertThrows(IllegalArgumentException.class, () -> Workloads.denseGemm(0, 1, EXP, 8, SEED));
        assertThrows(IllegalArgumentException.class, () -> Workloads.denseGemm(4, 0, EXP, 8, SEED));
        assertThrows(IllegalArgumentException.class, () -> Workloads.denseGemm(4, 1, EXP, -1, SEED));
        assertThrows(NullPointerException.class, () -> Workloads.cholesky(4, 1, null, 8, SEED));
        IllegalArgumentException density = assertThrows(IllegalArgumentException.class,
                () -> Workloads.blockSparseGemm(4, 1.5, 0, 1, EXP, 8, SEED));
        assertTrue(density.getMessage().contains("density"), density.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Workloads.blockSparseGemm(4, 0.5, -1, 1, EXP, 8, SEED));
        IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
                () -> Workloads.denseGemm(300, 1, EXP, 8, SEED));
        assertTrue(many.getMessage().contains("27000000 tasks"), many.getMessage());
    }

    @Test
    void heavyTailedSamplesAreCapped() {
        assertEquals(Workloads.MAX_TASK_NANOS, Workloads.nanos(1e300));
        assertEquals(3, Workloads.nanos(2.6));
    }
}
