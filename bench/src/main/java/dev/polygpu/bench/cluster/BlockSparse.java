package dev.polygpu.bench.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The matrices of the cluster benchmark: C = A·B with A and B split into a {@code tiles × tiles} grid of square
 * tiles of {@code tileSize × tileSize} floats, A block-sparse (a seeded random choice of exactly
 * {@code round(zeroFraction · tiles²)} of its tiles are zero) and B dense: the shape of PaRSEC's block-sparse
 * GEMM. The work of C tile (i, j) is one product per nonzero tile of A's row i, so rows with more nonzero tiles
 * cost more: that is the imbalance a scheduler has to spread.
 *
 * <p>Values are small nonzero integers ({@code ±1 … ±4}), so every product and sum is exact in float (the
 * generator checks that the largest possible sum stays below 2²⁴) and a result computed in another order must
 * be bit-identical. Immutable; the arrays handed out are copies.
 */
public final class BlockSparse {
    /** The largest integer every smaller integer of which a float represents exactly. */
    private static final long FLOAT_EXACT = 1L << 24;
    private static final int MAX_VALUE = 4;

    private final int tiles;
    private final int tileSize;
    /** Row-major over the grid: true where A's tile is nonzero. */
    private final boolean[] nonzero;
    /** Dense n × n, row-major (n = tiles · tileSize); zero tiles are zeros. */
    private final float[] a;
    private final float[] b;

    private BlockSparse(int tiles, int tileSize, boolean[] nonzero, float[] a, float[] b) {
        this.tiles = tiles;
        this.tileSize = tileSize;
        this.nonzero = nonzero;
        this.a = a;
        this.b = b;
    }

    /**
     * Random matrices: exactly {@code round(zeroFraction · tiles²)} zero tiles of A, chosen by {@code seed}, and
     * values {@code ±1 … ±4} everywhere else (B has no zero tile).
     *
     * @throws IllegalArgumentException if a size is not positive, the fraction is outside [0, 1), or sums could
     *     exceed what a float holds exactly
     */
    public static BlockSparse random(int tiles, int tileSize, double zeroFraction, long seed) {
        checkSizes(tiles, tileSize);
        if (!(zeroFraction >= 0 && zeroFraction < 1)) {
            throw new IllegalArgumentException("the zero fraction must be in [0, 1), got " + zeroFraction);
        }
        Random random = new Random(seed);
        int count = tiles * tiles;
        int zeros = (int) Math.round(zeroFraction * count);
        // A seeded shuffle of the tile positions; the first 'zeros' of them are the zero tiles.
        int[] order = new int[count];
        for (int t = 0; t < count; t++) {
            order[t] = t;
        }
        for (int t = count - 1; t > 0; t--) {
            int s = random.nextInt(t + 1);
            int x = order[t];
            order[t] = order[s];
            order[s] = x;
        }
        boolean[] mask = new boolean[count];
        Arrays.fill(mask, true);
        for (int t = 0; t < zeros; t++) {
            mask[order[t]] = false;
        }
        int n = tiles * tileSize;
        float[] a = new float[n * n];
        float[] b = new float[n * n];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                if (mask[(r / tileSize) * tiles + c / tileSize]) {
                    a[r * n + c] = value(random);
                }
                b[r * n + c] = value(random);
            }
        }
        return new BlockSparse(tiles, tileSize, mask, a, b);
    }

    /**
     * Matrices given in full ({@code n × n} row-major, n = tiles · tileSize); A's zero tiles are found from its
     * values. For tests.
     */
    public static BlockSparse of(int tiles, int tileSize, float[] a, float[] b) {
        checkSizes(tiles, tileSize);
        int n = tiles * tileSize;
        if (a.length != n * n || b.length != n * n) {
            throw new IllegalArgumentException("A and B must have " + n * n + " elements, got " + a.length + " and "
                    + b.length);
        }
        boolean[] mask = new boolean[tiles * tiles];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                if (a[r * n + c] != 0) {
                    mask[(r / tileSize) * tiles + c / tileSize] = true;
                }
            }
        }
        return new BlockSparse(tiles, tileSize, mask, a.clone(), b.clone());
    }

    private static void checkSizes(int tiles, int tileSize) {
        if (tiles <= 0 || tileSize <= 0) {
            throw new IllegalArgumentException("tiles and tile size must be positive, got " + tiles + " and "
                    + tileSize);
        }
        long n = (long) tiles * tileSize;
        if (n * MAX_VALUE * MAX_VALUE >= FLOAT_EXACT) {
            throw new IllegalArgumentException("a " + n + "x" + n + " product of values up to " + MAX_VALUE
                    + " may not be exact in float; use fewer or smaller tiles");
        }
    }

    private static float value(Random random) {
        int v = 1 + random.nextInt(MAX_VALUE);
        return random.nextBoolean() ? v : -v;
    }

    public int tiles() {
        return tiles;
    }

    public int tileSize() {
        return tileSize;
    }

    /** Floats per tile. */
    public int tileFloats() {
        return tileSize * tileSize;
    }

    /** The matrices' order, tiles · tileSize. */
    public int n() {
        return tiles * tileSize;
    }

    public boolean isNonzero(int i, int k) {
        return nonzero[i * tiles + k];
    }

    /** How many of A's tiles are zero. */
    public int zeroTiles() {
        int zeros = 0;
        for (boolean nz : nonzero) {
            if (!nz) {
                zeros++;
            }
        }
        return zeros;
    }

    /** The tile columns k of A's nonzero tiles in row i, ascending: the products each C tile of row i needs. */
    public int[] nonzeroColumns(int i) {
        List<Integer> ks = new ArrayList<>();
        for (int k = 0; k < tiles; k++) {
            if (isNonzero(i, k)) {
                ks.add(k);
            }
        }
        return ks.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The number of tile products of any C tile in row i. */
    public int products(int i) {
        return nonzeroColumns(i).length;
    }

    /** The tile products of the whole C: Σ over rows of tiles · products(row). */
    public long totalProducts() {
        long total = 0;
        for (int i = 0; i < tiles; i++) {
            total += (long) tiles * products(i);
        }
        return total;
    }

    /** A's nonzero tiles of row i, in the order of {@link #nonzeroColumns}, each tile row-major. */
    public float[] packedRow(int i) {
        int[] ks = nonzeroColumns(i);
        float[] out = new float[ks.length * tileFloats()];
        for (int p = 0; p < ks.length; p++) {
            copyTile(a, i, ks[p], out, p * tileFloats());
        }
        return out;
    }

    /** B tile by tile: tile (k, j) at offset {@code (k · tiles + j) · tileFloats}, each tile row-major. */
    public float[] tileMajorB() {
        float[] out = new float[b.length];
        for (int k = 0; k < tiles; k++) {
            for (int j = 0; j < tiles; j++) {
                copyTile(b, k, j, out, (k * tiles + j) * tileFloats());
            }
        }
        return out;
    }

    /** B's tile column j: tiles (k, j) for k = 0 … tiles − 1, each row-major. */
    public float[] packedColumnB(int j) {
        float[] out = new float[tiles * tileFloats()];
        for (int k = 0; k < tiles; k++) {
            copyTile(b, k, j, out, k * tileFloats());
        }
        return out;
    }

    private void copyTile(float[] dense, int ti, int tj, float[] out, int at) {
        int n = n();
        for (int r = 0; r < tileSize; r++) {
            System.arraycopy(dense, (ti * tileSize + r) * n + tj * tileSize, out, at + r * tileSize, tileSize);
        }
    }

    /** A in full, n × n row-major. */
    public float[] a() {
        return a.clone();
    }

    /** B in full, n × n row-major. */
    public float[] b() {
        return b.clone();
    }

    /**
     * C = A·B by the textbook triple loop over the full matrices, zeros included: nothing of the tiling, the
     * packing or the sparsity pattern is used, so it checks those independently. n × n, row-major.
     */
    public float[] referenceProduct() {
        int n = n();
        float[] c = new float[n * n];
        for (int r = 0; r < n; r++) {
            for (int l = 0; l < n; l++) {
                float x = a[r * n + l];
                for (int col = 0; col < n; col++) {
                    c[r * n + col] += x * b[l * n + col];
                }
            }
        }
        return c;
    }

    /** Tile (i, j) of a full n × n row-major matrix, row-major. */
    public float[] tileOf(float[] dense, int i, int j) {
        float[] out = new float[tileFloats()];
        copyTile(dense, i, j, out, 0);
        return out;
    }
}
