package dev.polygpu.bench.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The cluster benchmark's workload: the sparsity generator, the packing, and the plain-Java reference product. */
class BlockSparseTest {
    private static final long SEED = 20261122;

    @Test
    void exactlyTheAskedShareOfATilesIsZero() {
        assertEquals(32, BlockSparse.random(8, 4, 0.5, SEED).zeroTiles());
        assertEquals(16, BlockSparse.random(8, 4, 0.25, SEED).zeroTiles());
        assertEquals(0, BlockSparse.random(8, 4, 0.0, SEED).zeroTiles());
    }

    @Test
    void theSeedFixesThePatternAndTheValues() {
        BlockSparse one = BlockSparse.random(8, 4, 0.5, SEED);
        BlockSparse again = BlockSparse.random(8, 4, 0.5, SEED);
        BlockSparse other = BlockSparse.random(8, 4, 0.5, SEED + 1);
        assertArrayEquals(one.a(), again.a(), "seed " + SEED);
        assertArrayEquals(one.b(), again.b(), "seed " + SEED);
        assertFalse(Arrays.equals(one.a(), other.a()), "seeds " + SEED + " and " + (SEED + 1));
    }

    @Test
    void theBenchmarksDefaultMatricesAreImbalanced() {
        BlockSparse m = BlockSparse.random(8, 32, 0.5, BenchOptions.DEFAULT_SEED);
        int min = Integer.MAX_VALUE;
        int max = 0;
        long total = 0;
        for (int i = 0; i < m.tiles(); i++) {
            min = Math.min(min, m.products(i));
            max = Math.max(max, m.products(i));
            total += (long) m.tiles() * m.products(i);
        }
        assertTrue(max > min, "rows differ in their products (seed " + BenchOptions.DEFAULT_SEED + ")");
        assertEquals(total, m.totalProducts());
        // Every nonzero tile of A is one product for each of the T tiles of C in its row.
        assertEquals((long) m.tiles() * (m.tiles() * m.tiles() - m.zeroTiles()), m.totalProducts());
    }

    @Test
    void nonzeroTilesHoldNoZeroAndZeroTilesOnlyZeros() {
        BlockSparse m = BlockSparse.random(6, 5, 0.5, SEED);
        float[] a = m.a();
        float[] b = m.b();
        int n = m.n();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                boolean nonzero = m.isNonzero(r / m.tileSize(), c / m.tileSize());
                assertEquals(nonzero, a[r * n + c] != 0, "A[" + r + "][" + c + "] (seed " + SEED + ")");
                assertNotEquals(0f, b[r * n + c], "B[" + r + "][" + c + "] (seed " + SEED + ")");
            }
        }
    }

    @Test
    void theReferenceProductOfSmallMatricesIsTheHandComputedOne() {
        // Tiles of one element: A = [[1, 2], [3, 4]], B = [[5, 6], [7, 8]]; by hand, A·B = [[19, 22], [43, 50]].
        BlockSparse dense = BlockSparse.of(2, 1, new float[] {1, 2, 3, 4}, new float[] {5, 6, 7, 8});
        assertArrayEquals(new float[] {19, 22, 43, 50}, dense.referenceProduct());
        assertEquals(0, dense.zeroTiles());
        // A = [[0, 2], [3, 0]]: two zero tiles; A·B = [[14, 16], [15, 18]].
        BlockSparse sparse = BlockSparse.of(2, 1, new float[] {0, 2, 3, 0}, new float[] {5, 6, 7, 8});
        assertArrayEquals(new float[] {14, 16, 15, 18}, sparse.referenceProduct());
        assertEquals(2, sparse.zeroTiles());
        assertArrayEquals(new int[] {1}, sparse.nonzeroColumns(0));
        assertArrayEquals(new int[] {0}, sparse.nonzeroColumns(1));
    }

    @Test
    void thePackedTilesGiveTheReferenceProductBitForBit() {
        BlockSparse m = BlockSparse.random(6, 4, 0.5, SEED);
        float[] reference = m.referenceProduct();
        float[] bWhole = m.tileMajorB();
        int ts = m.tileSize();
        int tile = m.tileFloats();
        for (int i = 0; i < m.tiles(); i++) {
            float[] packed = m.packedRow(i);
            int[] ks = m.nonzeroColumns(i);
            assertEquals(ks.length * tile, packed.length, "row " + i);
            for (int j = 0; j < m.tiles(); j++) {
                float[] bColumn = m.packedColumnB(j);
                float[] fromWhole = new float[tile];
                float[] fromColumn = new float[tile];
                // The kernel's loop, in Java: C(i, j) = Σ_p A(i, ks[p]) · B(ks[p], j).
                for (int r = 0; r < ts; r++) {
                    for (int c = 0; c < ts; c++) {
                        float whole = 0;
                        float column = 0;
                        for (int p = 0; p < ks.length; p++) {
                            for (int l = 0; l < ts; l++) {
                                float x = packed[p * tile + r * ts + l];
                                whole += x * bWhole[(ks[p] * m.tiles() + j) * tile + l * ts + c];
                                column += x * bColumn[ks[p] * tile + l * ts + c];
                            }
                        }
                        fromWhole[r * ts + c] = whole;
                        fromColumn[r * ts + c] = column;
                    }
                }
                float[] expected = m.tileOf(reference, i, j);
                assertArrayEquals(expected, fromWhole, "C(" + i + ", " + j + ") from all of B (seed " + SEED + ")");
                assertArrayEquals(expected, fromColumn, "C(" + i + ", " + j + ") from B's column (seed " + SEED + ")");
            }
        }
    }

    @Test
    void sizesWhoseSumsAFloatCannotHoldExactlyAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BlockSparse.random(1024, 1024, 0.5, SEED));
        assertTrue(e.getMessage().contains("exact"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BlockSparse.random(8, 4, 1.0, SEED));
        assertThrows(IllegalArgumentException.class, () -> BlockSparse.random(0, 4, 0.5, SEED));
    }

    @Test
    void balanceReferencePointsOfAHandMadeList() {
        double[] times = {3, 3, 2, 2, 2};
        // Σ = 12 on 2 slots.
        assertEquals(6.0, Balance.perfect(times, 2));
        assertEquals(6.0, Balance.lowerBound(times, 2));
        // Greedy in order: slot 1 runs 3, 2, 2 (ends at 7); slot 2 runs 3, 2 (ends at 5).
        assertEquals(7.0, Balance.listSchedule(times, 2));
        // One long kernel bounds every schedule: max(Σ / slots = 3.5, 5).
        assertEquals(5.0, Balance.lowerBound(new double[] {5, 1, 1}, 2));
        assertThrows(IllegalArgumentException.class, () -> Balance.perfect(times, 0));
    }
}
