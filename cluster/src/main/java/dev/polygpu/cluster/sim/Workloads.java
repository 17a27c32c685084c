package dev.polygpu.cluster.sim;

import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * Synthetic workloads for the simulator: tiled linear algebra in the shapes PaRSEC's stealing was measured on.
 * A balanced one ({@link #denseGemm}), an imbalanced one ({@link #blockSparseGemm}) and one with a narrowing
 * front of parallelism ({@link #cholesky}).
 *
 * <p>Every factory is deterministic: the same arguments and {@code seed} give the same workload, drawn from an
 * {@code L64X128MixRandom} generator seeded with {@code seed}. Tasks are written straight into the
 * {@link Workload.Builder}'s flat arrays, with no object per task, so 10<sup>6</sup> tasks take under a second
 * and about 50 bytes a task once built (the builder holds up to twice that while it grows). Owners are member indices {@code 0 … owners - 1}; each factory says when every one of them
 * gets a task.
 *
 * <p>Durations are {@code tileTime} samples in nanoseconds (times a kernel's relative cost), rounded to whole
 * nanoseconds and capped at {@link #MAX_TASK_NANOS}. Each tile is one array of {@code tileBytes}, declared
 * once and shared by every task that reads it; a task's output is one tile.
 */
public final class Workloads {
    /**
     * The longest task, in nanoseconds: 2<sup>39</sup> (about 9 minutes). A heavy-tailed sample is capped here
     * so that the sums of {@link #MAX_TASKS} durations cannot overflow a {@code long}.
     */
    public static final long MAX_TASK_NANOS = 1L << 39;
    /** The most tasks a factory makes (2<sup>24</sup>, about 16.8 million); more is refused. */
    public static final long MAX_TASKS = 1L << 24;
    /** The random generator algorithm of every factory. */
    public static final String RANDOM_ALGORITHM = "L64X128MixRandom";
    /** A POTRF's duration as a fraction of a GEMM's: it does 1/6 of the flops, at lower efficiency. */
    public static final double POTRF_COST = 1.0 / 3;
    /** A TRSM's duration as a fraction of a GEMM's: half the flops. */
    public static final double TRSM_COST = 0.5;
    /** A SYRK's duration as a fraction of a GEMM's: half the flops. */
    public static final double SYRK_COST = 0.5;

    private static final int[] NO_PARENTS = {};

    private Workloads() {
    }

    /**
     * The tasks of a block-sparse C = A·B (PaRSEC's BSpGEMM), whose owners' work differs strongly: the
     * imbalanced workload that stealing must even out.
     *
     * <p>A, B and C are {@code tiles × tiles} grids of tiles. B is dense; row {@code i} of A has
     * {@code nnz_i} nonzero tiles at distinct random columns, with {@code sum(nnz_i) =
     * clamp(round(density · tiles²), tiles, tiles²)}. How the rows share that total is set by {@code skew}: row
     * weights are drawn from a Pareto law of tail index {@code 1 / skew} (all equal for skew 0), and
     * {@code nnz_i} is the row's share of the total in proportion to its weight, clamped to
     * {@code 1 … tiles} (with skew 0 rows differ by at most one, where {@code density · tiles} is not whole).
     * Useful skews are 0 to about 1: at 0.5 the heaviest rows have several times the mean, at 1 some are full.
     *
     * <p>One task per {@code (i, j, k)} with A(i,k) nonzero, kernel {@code gemm}: it reads arrays A(i,k) and
     * B(k,j) and writes C(i,j) ({@code tileBytes}); the tasks of one C(i,j) form a chain in increasing
     * {@code k}, each after the previous, as an accumulation does. So there are
     * {@code tiles · sum(nnz_i)} tasks: {@code tiles = 200}, {@code density = 0.125} gives
     * 200 · 5,000 = 10<sup>6</sup>. Tasks are submitted row by row of C.
     *
     * <p>Owners: all tasks of C(i,j) belong to one member, by rows in contiguous blocks: row {@code i} to
     * {@code floor(i · owners / tiles)}. With more owners than rows, C's tiles are cut in row-major order
     * instead: C(i,j) to {@code floor((i · tiles + j) · owners / tiles²)}. Either way every owner gets tasks,
     * and with skewed rows their work differs in proportion to their rows' weights.
     *
     * @param tiles the grid's side; at least 1
     * @param density the mean fraction of A's tiles that are nonzero; in (0, 1]
     * @param skew how much rows differ; finite, at least 0
     * @param owners how many members own tasks; 1 to {@code tiles²}
     * @param tileTime the duration of one tile product, in nanoseconds
     * @param tileBytes the size of one tile; at least 0
     * @param seed the seed of the random choices
     * @return the workload
     * @throws IllegalArgumentException naming the bad argument, or if there would be more than
     *         {@link #MAX_TASKS} tasks
     */
    public static Workload blockSparseGemm(int tiles, double density, double skew, int owners,
            Distribution tileTime, long tileBytes, long seed) {
        checkCommon(tiles, owners, tileTime, tileBytes);
        checkSparse(tiles, density, skew, owners);
        long nonzeros = sparseNonzeros(tiles, density);
        checkTaskCount(nonzeros * tiles);
        RandomGenerator rnd = random(seed);
        int[] rowCounts = rowCounts(tiles, nonzeros, skew, rnd);
        Workload.Builder b = Workload.builder("bspgemm(tiles=" + tiles + ", density=" + density + ", skew=" + skew
                + ", owners=" + owners + ", " + tileTime + ", " + tileBytes + " B, seed=" + seed + ")");
        int gemm = b.kernel("gemm");
        declareTiles(b, tiles * tiles, tileBytes); // B(k,j) is array k · tiles + j
        int[] columns = new int[tiles];
        Arrays.setAll(columns, k -> k);
        int[] rowColumns = new int[tiles];
        int[] rowArrays = new int[tiles];
        int[] reads = new int[2];
        int[] parent = new int[1];
        for (int i = 0; i < tiles; i++) {
            int nnz = rowCounts[i];
            // A partial Fisher–Yates shuffle picks nnz distinct columns uniformly, whatever order columns is in.
            for (int q = 0; q < nnz; q++) {
                int pick = q + rnd.nextInt(tiles - q);
                int c = columns[pick];
                columns[pick] = columns[q];
                columns[q] = c;
            }
            System.arraycopy(columns, 0, rowColumns, 0, nnz);
            Arrays.sort(rowColumns, 0, nnz);
            for (int q = 0; q < nnz; q++) {
                rowArrays[q] = b.array(tileBytes);
            }
            for (int j = 0; j < tiles; j++) {
                int owner = rowBlockOwner(i, j, tiles, owners);
                int previous = -1;
                for (int q = 0; q < nnz; q++) {
                    reads[0] = rowArrays[q];
                    reads[1] = rowColumns[q] * tiles + j;
                    long duration = nanos(tileTime.sample(rnd));
                    parent[0] = previous;
                    previous = b.task(owner, gemm, duration, tileBytes, reads, previous < 0 ? NO_PARENTS : parent);
                }
            }
        }
        return b.build();
    }

    /** The checks both block-sparse workloads make of their own arguments. */
    private static void checkSparse(int tiles, double density, double skew, int owners) {
        if (!(density > 0 && density <= 1)) {
            throw new IllegalArgumentException("density must be in (0, 1], was " + density);
        }
        if (!(skew >= 0 && Double.isFinite(skew))) {
            throw new IllegalArgumentException("skew must be finite and >= 0, was " + skew);
        }
        if (owners > (long) tiles * tiles) {
            throw new IllegalArgumentException("owners must be at most tiles² = " + (long) tiles * tiles
                    + " (one C tile each at least), was " + owners);
        }
    }

    /**
     * The owner of C(i,j) when rows go to owners in contiguous blocks: row {@code i} to
     * {@code floor(i · owners / tiles)}, or, with more owners than rows, C's tiles in row-major order to
     * {@code floor((i · tiles + j) · owners / tiles²)}.
     */
    static int rowBlockOwner(int i, int j, int tiles, int owners) {
        return owners <= tiles
                ? (int) ((long) i * owners / tiles)
                : (int) (((long) i * tiles + j) * owners / ((long) tiles * tiles));
    }

    /**
     * The tasks of a block-sparse C = A·B with one kernel per C tile, the shape of the cluster benchmark
     * ({@code bench/cluster}): independent tasks whose durations differ with their row of A, the imbalanced
     * workload of independent tasks that stealing must even out.
     *
     * <p>A's rows have {@code nnz_i} nonzero tiles, drawn as for {@link #blockSparseGemm} (density and skew).
     * The task of C(i,j) (kernel {@code bspgemm_tile}) multiplies row {@code i}'s nonzero tiles of A with the
     * matching tiles of B's column {@code j}: its duration is the sum of {@code nnz_i} draws of
     * {@code productTime}, it reads A's packed row {@code i} ({@code nnz_i · tileBytes}, one array shared by
     * the row's tasks) and the {@code nnz_i} tiles of B it needs ({@code nnz_i · tileBytes}, an array of its
     * own), and writes C(i,j) ({@code tileBytes}). There are {@code tiles²} tasks, submitted row by row;
     * {@code tiles = 1000} gives 10<sup>6</sup>. Owners as {@link #blockSparseGemm}: rows in contiguous
     * blocks (C's tiles in row-major blocks when there are more owners than rows).
     *
     * @param tiles the grid's side; at least 1
     * @param density the mean fraction of A's tiles that are nonzero; in (0, 1]
     * @param skew how much rows differ; finite, at least 0
     * @param owners how many members own tasks; 1 to {@code tiles²}
     * @param productTime the duration of one tile product, in nanoseconds
     * @param tileBytes the size of one tile; at least 0
     * @param seed the seed of the random choices
     * @return the workload
     * @throws IllegalArgumentException naming the bad argument, or if there would be more than
     *         {@link #MAX_TASKS} tasks
     */
    public static Workload blockSparseTiles(int tiles, double density, double skew, int owners,
            Distribution productTime, long tileBytes, long seed) {
        checkCommon(tiles, owners, productTime, tileBytes);
        checkSparse(tiles, density, skew, owners);
        checkTaskCount((long) tiles * tiles);
        RandomGenerator rnd = random(seed);
        int[] rowCounts = rowCounts(tiles, sparseNonzeros(tiles, density), skew, rnd);
        Workload.Builder b = Workload.builder("bspgemm(tiles=" + tiles + ", density=" + density + ", skew=" + skew
                + ", owners=" + owners + ", product " + productTime + ", tile " + tileBytes + " B, seed=" + seed
                + ")");
        int kernel = b.kernel("bspgemm_tile");
        int[] reads = new int[2];
        for (int i = 0; i < tiles; i++) {
            int nnz = rowCounts[i];
            reads[0] = b.array(nnz * tileBytes);
            for (int j = 0; j < tiles; j++) {
                long duration = 0;
                for (int q = 0; q < nnz; q++) {
                    duration = Math.min(MAX_TASK_NANOS, duration + nanos(productTime.sample(rnd)));
                }
                reads[1] = b.array(nnz * tileBytes);
                b.task(rowBlockOwner(i, j, tiles, owners), kernel, duration, tileBytes, reads);
            }
        }
        return b.build();
    }

    /**
     * The number of nonzero tiles of a block-sparse A: {@code clamp(round(density · tiles²), tiles, tiles²)}
     * (every row has at least one).
     */
    static long sparseNonzeros(int tiles, double density) {
        long all = (long) tiles * tiles;
        return Math.clamp(Math.round(density * all), tiles, all);
    }

    /**
     * How many nonzero tiles each row of a block-sparse A has: {@code total} shared in proportion to Pareto
     * weights of tail index {@code 1 / skew}, each row clamped to {@code 1 … tiles}, summing to {@code total}
     * exactly.
     */
    static int[] rowCounts(int tiles, long total, double skew, RandomGenerator rnd) {
        double[] weight = new double[tiles];
        double least = Double.MAX_VALUE;
        for (int i = 0; i < tiles; i++) {
            weight[i] = skew == 0 ? 1 : Math.min(Math.pow(1 - rnd.nextDouble(), -skew), 1e300);
            least = Math.min(least, weight[i]);
        }
        // The scale s with sum(clamp(w_i · s, 1, tiles)) = total: the sum grows with s, so bisect, keeping the
        // low end, where the sum is at most total.
        double low = 0;
        double high = tiles / least;
        for (int step = 0; step < 200 && low < high; step++) {
            double mid = (low + high) / 2;
            if (clampedSum(weight, mid, tiles) <= total) {
                low = mid;
            } else {
                high = mid;
            }
        }
        int[] counts = new int[tiles];
        double[] fraction = new double[tiles];
        long missing = total;
        for (int i = 0; i < tiles; i++) {
            double share = Math.clamp(weight[i] * low, 1, tiles);
            counts[i] = (int) share;
            fraction[i] = share - counts[i];
            missing -= counts[i];
        }
        // Hand out what flooring dropped: largest fractions first, ties in random order.
        double[] tieBreak = new double[tiles];
        for (int i = 0; i < tiles; i++) {
            tieBreak[i] = rnd.nextDouble();
        }
        Integer[] order = new Integer[tiles];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, (x, y) -> fraction[x] != fraction[y] ? Double.compare(fraction[y], fraction[x])
                : Double.compare(tieBreak[x], tieBreak[y]));
        while (missing > 0) {
            for (int r = 0; r < tiles && missing > 0; r++) {
                if (counts[order[r]] < tiles) {
                    counts[order[r]]++;
                    missing--;
                }
            }
        }
        return counts;
    }

    private static double clampedSum(double[] weight, double scale, int tiles) {
        double sum = 0;
        for (double w : weight) {
            sum += Math.clamp(w * scale, 1, tiles);
        }
        return sum;
    }

    /**
     * The tasks of a dense C = A·B on {@code tiles × tiles} grids: the balanced workload, where stealing has
     * little to gain.
     *
     * <p>One task per {@code (i, j, k)}, kernel {@code gemm}: it reads arrays A(i,k) and B(k,j) and writes
     * C(i,j) ({@code tileBytes}); the tasks of one C(i,j) form a chain in increasing {@code k}. So there are
     * {@code tiles³} tasks: {@code tiles = 100} gives 10<sup>6</sup>. Tasks are submitted row by row of C.
     *
     * <p>Owners: C's tiles are dealt 2D block-cyclically (as ScaLAPACK does) over a {@code P × Q} grid of
     * members, {@code P} the largest divisor of {@code owners} at most its square root and
     * {@code Q = owners / P}: C(i,j) belongs to {@code (i mod P) · Q + (j mod Q)}. Every owner gets tasks when
     * {@code tiles >= Q}, and the same number of C tiles (so nearly the same work) when {@code P} and {@code Q}
     * divide {@code tiles}. A prime number of owners makes the grid one row ({@code P = 1}).
     *
     * @param tiles the grid's side; at least 1
     * @param owners how many members own tasks; at least 1
     * @param tileTime the duration of one tile product, in nanoseconds
     * @param tileBytes the size of one tile; at least 0
     * @param seed the seed of the durations
     * @return the workload
     * @throws IllegalArgumentException naming the bad argument, or if there would be more than
     *         {@link #MAX_TASKS} tasks
     */
    public static Workload denseGemm(int tiles, int owners, Distribution tileTime, long tileBytes, long seed) {
        checkCommon(tiles, owners, tileTime, tileBytes);
        checkTaskCount((long) tiles * tiles * tiles);
        RandomGenerator rnd = random(seed);
        int gridRows = gridRows(owners);
        int gridColumns = owners / gridRows;
        Workload.Builder b = Workload.builder("gemm(tiles=" + tiles + ", owners=" + owners + ", " + tileTime
                + ", " + tileBytes + " B, seed=" + seed + ")");
        int gemm = b.kernel("gemm");
        int tileCount = tiles * tiles;
        declareTiles(b, 2 * tileCount, tileBytes); // A(i,k) is array i · tiles + k, B(k,j) tiles² + k · tiles + j
        int[] reads = new int[2];
        int[] parent = new int[1];
        for (int i = 0; i < tiles; i++) {
            for (int j = 0; j < tiles; j++) {
                int owner = (i % gridRows) * gridColumns + j % gridColumns;
                int previous = -1;
                for (int k = 0; k < tiles; k++) {
                    reads[0] = i * tiles + k;
                    reads[1] = tileCount + k * tiles + j;
                    long duration = nanos(tileTime.sample(rnd));
                    parent[0] = previous;
                    previous = b.task(owner, gemm, duration, tileBytes, reads, previous < 0 ? NO_PARENTS : parent);
                }
            }
        }
        return b.build();
    }

    /**
     * The tasks of a tiled right-looking Cholesky factorization of a symmetric {@code tiles × tiles} matrix
     * (its lower triangle): parallelism that is wide at first and narrows to one task at the end.
     *
     * <p>For each {@code k} in order: POTRF(k) factors tile (k,k); TRSM(m,k) for {@code m > k} solves tile
     * (m,k) with (k,k); then for each {@code m > k}, SYRK(m,k) updates (m,m) with (m,k), and GEMM(m,n,k) for
     * {@code k < n < m} updates (m,n) with (m,k) and (n,k). Kernels {@code potrf}, {@code trsm}, {@code syrk},
     * {@code gemm}. There are {@code sum over j = 0 … tiles-1 of (1 + 2j + j(j-1)/2)} tasks, about
     * {@code tiles³/6}: {@code tiles = 182} gives 1,004,731.
     *
     * <p>Each tile of the lower triangle is one array, (m,n) being array {@code m(m+1)/2 + n}. A task reads
     * every tile it uses (the one it updates too) and writes the tile it updates ({@code tileBytes}); it
     * depends on the last task that wrote each tile it uses, which gives the standard DAG (no tile is read
     * after it is overwritten, so no other hazards arise). Durations are a {@code tileTime} sample times the
     * kernel's relative cost: GEMM 1, SYRK {@link #SYRK_COST}, TRSM {@link #TRSM_COST}, POTRF
     * {@link #POTRF_COST}.
     *
     * <p>Owners: by the tile written, 2D block-cyclically as in {@link #denseGemm}: tile (m,n) belongs to
     * {@code (m mod P) · Q + (n mod Q)}. Every owner gets tasks when {@code tiles >= P + Q - 1}.
     *
     * @param tiles the matrix's side in tiles; at least 1
     * @param owners how many members own tasks; at least 1
     * @param tileTime the duration of one GEMM on tiles, in nanoseconds
     * @param tileBytes the size of one tile; at least 0
     * @param seed the seed of the durations
     * @return the workload
     * @throws IllegalArgumentException naming the bad argument, or if there would be more than
     *         {@link #MAX_TASKS} tasks
     */
    public static Workload cholesky(int tiles, int owners, Distribution tileTime, long tileBytes, long seed) {
        checkCommon(tiles, owners, tileTime, tileBytes);
        checkTaskCount(choleskyTasks(tiles));
        RandomGenerator rnd = random(seed);
        int gridRows = gridRows(owners);
        int gridColumns = owners / gridRows;
        Workload.Builder b = Workload.builder("cholesky(tiles=" + tiles + ", owners=" + owners + ", " + tileTime
                + ", " + tileBytes + " B, seed=" + seed + ")");
        TileTasks tasks = new TileTasks(b, tiles, tileBytes, rnd, tileTime);
        int potrf = b.kernel("potrf");
        int trsm = b.kernel("trsm");
        int syrk = b.kernel("syrk");
        int gemm = b.kernel("gemm");
        for (int k = 0; k < tiles; k++) {
            tasks.add(potrf, POTRF_COST, owner(k, k, gridRows, gridColumns), k, k);
            for (int m = k + 1; m < tiles; m++) {
                tasks.add(trsm, TRSM_COST, owner(m, k, gridRows, gridColumns), m, k, k, k);
            }
            for (int m = k + 1; m < tiles; m++) {
                tasks.add(syrk, SYRK_COST, owner(m, m, gridRows, gridColumns), m, m, m, k);
                for (int n = k + 1; n < m; n++) {
                    tasks.add(gemm, 1, owner(m, n, gridRows, gridColumns), m, n, m, k, n, k);
                }
            }
        }
        return b.build();
    }

    /** The tasks of a Cholesky on {@code tiles × tiles}: per step, 1 POTRF, j TRSMs, j SYRKs, j(j-1)/2 GEMMs. */
    private static long choleskyTasks(int tiles) {
        long tasks = 0;
        for (long j = 0; j < tiles; j++) {
            tasks += 1 + 2 * j + j * (j - 1) / 2;
        }
        return tasks;
    }

    /**
     * Adds tasks that each update one tile of a lower triangle, reading others, with a dependency on the last
     * writer of every tile used.
     */
    private static final class TileTasks {
        private final Workload.Builder b;
        private final long tileBytes;
        private final RandomGenerator rnd;
        private final Distribution tileTime;
        private final int[] lastWriter;
        /** Scratch arrays by length, so that adding a task allocates nothing. */
        private final int[][] reads = {new int[0], new int[1], new int[2], new int[3]};
        private final int[][] parents = {new int[0], new int[1], new int[2], new int[3]};

        TileTasks(Workload.Builder b, int tiles, long tileBytes, RandomGenerator rnd, Distribution tileTime) {
            this.b = b;
            this.tileBytes = tileBytes;
            this.rnd = rnd;
            this.tileTime = tileTime;
            int count = tiles * (tiles + 1) / 2;
            this.lastWriter = new int[count];
            Arrays.fill(lastWriter, -1);
            declareTiles(b, count, tileBytes);
        }

        /**
         * Adds a task of {@code kernel} costing {@code cost} tile times that updates tile
         * ({@code rowCols[0]}, {@code rowCols[1]}) and reads it and the tiles named by the further pairs.
         */
        void add(int kernel, double cost, int owner, int... rowCols) {
            int tileCount = rowCols.length / 2;
            int[] read = reads[tileCount];
            int parentCount = 0;
            int[] found = parents[3];
            for (int p = 0; p < tileCount; p++) {
                int m = rowCols[2 * p];
                int tile = m * (m + 1) / 2 + rowCols[2 * p + 1];
                read[p] = tile;
                int writer = lastWriter[tile];
                if (writer >= 0 && !contains(found, parentCount, writer)) {
                    found[parentCount++] = writer;
                }
            }
            int[] taskParents = parents[parentCount];
            if (taskParents != found) {
                System.arraycopy(found, 0, taskParents, 0, parentCount);
            }
            long duration = nanos(cost * tileTime.sample(rnd));
            lastWriter[read[0]] = b.task(owner, kernel, duration, tileBytes, read, taskParents);
        }

        private static boolean contains(int[] values, int count, int value) {
            for (int i = 0; i < count; i++) {
                if (values[i] == value) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The owner of tile (m,n) dealt block-cyclically over a {@code rows × columns} grid of members. */
    private static int owner(int m, int n, int rows, int columns) {
        return (m % rows) * columns + n % columns;
    }

    /** The rows of a near-square grid of {@code owners} members: the largest divisor at most its square root. */
    static int gridRows(int owners) {
        int rows = (int) Math.sqrt(owners);
        while (owners % rows != 0) {
            rows--;
        }
        return rows;
    }

    /** {@return the generator the factories draw from, seeded with {@code seed}} */
    static RandomGenerator random(long seed) {
        return RandomGeneratorFactory.of(RANDOM_ALGORITHM).create(seed);
    }

    /** A sampled duration as whole nanoseconds, capped at {@link #MAX_TASK_NANOS}. */
    static long nanos(double sample) {
        return (long) Math.min(Math.rint(sample), MAX_TASK_NANOS);
    }

    private static void declareTiles(Workload.Builder b, int count, long tileBytes) {
        for (int a = 0; a < count; a++) {
            b.array(tileBytes);
        }
    }

    private static void checkCommon(int tiles, int owners, Distribution tileTime, long tileBytes) {
        if (tiles < 1) {
            throw new IllegalArgumentException("tiles must be >= 1, was " + tiles);
        }
        if (owners < 1) {
            throw new IllegalArgumentException("owners must be >= 1, was " + owners);
        }
        Objects.requireNonNull(tileTime, "tileTime");
        if (tileBytes < 0) {
            throw new IllegalArgumentException("tileBytes must be >= 0, was " + tileBytes);
        }
    }

    private static void checkTaskCount(long tasks) {
        if (tasks > MAX_TASKS) {
            throw new IllegalArgumentException("these parameters give " + tasks + " tasks, more than the "
                    + MAX_TASKS + " a workload may have; use fewer tiles");
        }
    }
}
