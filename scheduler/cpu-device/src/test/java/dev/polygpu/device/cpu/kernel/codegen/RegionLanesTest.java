package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.ANY_NAN;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.doubleScalar;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.randomDoubles;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.specialFloats;
import static dev.polygpu.device.cpu.kernel.codegen.NamedKernels.named;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.exec.LaneRange;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleTests;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Barrier regions whose threads run a vector's worth at a time ({@link RegionLanes}, {@link RegionLaneEmitter}):
 * tiled SGEMM with tiles of 16, 32 and 12 (whose rows hold one whole vector and a rest) and matrices that are not a
 * multiple of the tile, and a tile loop in double with a local, a broadcast global element and a consecutive
 * global row, against nvcc's PTX of the same source on the PTX interpreter; a group whose elements leave their
 * buffer runs thread by thread and faults where the scalar loop does, and so does a row checked at once whose
 * elements leave it part way.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RegionLanesTest {
    private static final long SEED = 0x7e91L;

    /** The benchmarks' tiled SGEMM ({@code bench/.../Kernels.sgemm}). */
    private static String sgemm(int tile) {
        return "#define TILE " + tile + "\n" + """
                extern "C" __global__ void NAME(const float *A, const float *B, float *C, int n) {
                    __shared__ float As[TILE][TILE];
                    __shared__ float Bs[TILE][TILE];
                    int tx = threadIdx.x;
                    int ty = threadIdx.y;
                    int row = blockIdx.y * TILE + ty;
                    int col = blockIdx.x * TILE + tx;
                    float acc = 0.0f;
                    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
                        int aCol = t * TILE + tx;
                        int bRow = t * TILE + ty;
                        As[ty][tx] = (row < n && aCol < n) ? A[row * n + aCol] : 0.0f;
                        Bs[ty][tx] = (bRow < n && col < n) ? B[bRow * n + col] : 0.0f;
                        __syncthreads();
                        for (int k = 0; k < TILE; ++k) {
                            acc += As[ty][k] * Bs[k][tx];
                        }
                        __syncthreads();
                    }
                    if (row < n && col < n) {
                        C[row * n + col] = acc;
                    }
                }
                """;
    }

    /**
     * A tile loop in double: a local, a subtraction and a division, one global element every lane reads
     * ({@code w[k]}) and a consecutive global row ({@code x[k * m + col]}) beside a shared one.
     */
    private static final String ROWS = """
            extern "C" __global__ void NAME(double *out, const double *x, const double *w, int m, int steps) {
                __shared__ double s[64];
                int col = blockIdx.x * blockDim.x + threadIdx.x;
                s[threadIdx.x] = x[col] * 0.5;
                double a = 1.0;
                double b = 0.0;
                __syncthreads();
                for (int k = 0; k < steps; k++) {
                    double v = x[k * m + col] - s[threadIdx.x] * w[k];
                    a = a * 0.75 + v / (w[k] + 3.0);
                    b -= v;
                }
                __syncthreads();
                out[col] = a + b;
            }
            """;

    /** The benchmarks' tree reduction ({@code bench/.../reduce.cu}, "reduce-naive") with a fixed shared array. */
    private static final String TREE = """
            extern "C" __global__ void NAME(const float *in, float *partial, int n) {
                __shared__ float sdata[256];
                unsigned int tid = threadIdx.x;
                unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
                float sum = (i < n) ? in[i] : 0.0f;
                if (i + blockDim.x < n) {
                    sum += in[i + blockDim.x];
                }
                sdata[tid] = sum;
                __syncthreads();
                for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
                    if (tid < s) {
                        sdata[tid] += sdata[tid + s];
                    }
                    __syncthreads();
                }
                if (tid == 0) {
                    partial[blockIdx.x] = sdata[0];
                }
            }
            """;
    /**
     * A condition that splits a group of lanes ({@code t < k}), and stores that lanes must leave to the thread loop:
     * each thread adds the element its left neighbour stored in the same region (thread t reads s[t - 1] after
     * thread t - 1 stored it), and an element every thread reads that one of them stores.
     */
    private static final String NEIGHBOURS = """
            extern "C" __global__ void NAME(float *out, const float *x, int k) {
                __shared__ float s[128];
                int t = threadIdx.x;
                s[t] = (t < k) ? x[t] : -x[t];
                __syncthreads();
                out[t] = s[t];
                __syncthreads();
                if (t > 0) {
                    s[t] = s[t - 1] + x[t];
                }
                __syncthreads();
                out[128 + t] = s[t];
                __syncthreads();
                s[t] = s[k] * 2.0f;
                __syncthreads();
                out[256 + t] = s[t];
            }
            """;

    /** A loop-free region whose row of threads reads one element each: its groups check the row once. */
    private static final String SCALE = """
            extern "C" __global__ void NAME(float *out, const float *x) {
                __shared__ float s[64];
                int t = threadIdx.x;
                int i = blockIdx.x * blockDim.x + t;
                s[t] = x[i] * 2.0f;
                __syncthreads();
                out[i] = s[t] + 1.0f;
            }
            """;

    @BeforeAll
    static void lanesAreThere() {
        LaneFormTest.lanesAreThere();
    }

    @Test
    void tiledMatrixProductsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        // {tile, n}: whole tiles, a matrix that ends inside a tile, a tile whose rows are one vector and a rest
        int[][] shapes = {{16, 48}, {16, 37}, {32, 64}, {12, 30}, {8, 19}};
        for (int[] sh : shapes) {
            int tile = sh[0];
            int n = sh[1];
            int grid = (n + tile - 1) / tile;
            String name = "mm" + cases.size();
            cases.add(new OracleCase(name, named(sgemm(tile), name), name,
                    new LaunchConfig(new dev.polygpu.device.Dim3(grid, grid, 1), new dev.polygpu.device.Dim3(tile,
                            tile, 1), 0),
                    List.of(specialFloats("A", r, n * n), specialFloats("B", r, n * n), specialFloats("C", r, n * n),
                            OracleTests.intScalar(n))));
        }
        for (int[] sh : new int[][] {{2, 64, 5}, {3, 40, 7}, {1, 20, 3}}) {
            int blocks = sh[0];
            int block = sh[1];
            int m = blocks * block;
            int steps = sh[2];
            String name = "rows" + cases.size();
            cases.add(new OracleCase(name, named(ROWS, name), name, LaunchConfig.of(blocks, block),
                    List.of(randomDoubles("out", r, m), randomDoubles("x", r, m * steps), randomDoubles("w", r, steps),
                            OracleTests.intScalar(m), OracleTests.intScalar(steps))));
        }
        long before = LaneRange.threadsRun();
        OracleTests.assertAllEqual(cases, seed, ANY_NAN);
        assertTrue(LaneRange.threadsRun() > before, "no thread ran as a lane");
    }

    @Test
    void treeReductionsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED + 1;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        // {grid, block, n}: whole blocks, a last block the data ends in (its conditions split a group), a block
        // whose width is not a multiple of the lanes, n below one block
        int[][] shapes = {{4, 256, 2048}, {3, 128, 700}, {2, 96, 333}, {1, 64, 50}, {5, 32, 317}};
        for (int[] sh : shapes) {
            String name = "tree" + cases.size();
            cases.add(new OracleCase(name, named(TREE, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(specialFloats("in", r, sh[2]), specialFloats("partial", r, sh[0]),
                            OracleTests.intScalar(sh[2]))));
        }
        // an array longer than n, of finite values: its elements past n, inside the array, stay out of the sums by
        // the conditions alone (a special value among them would hide one that was taken: NaN in, NaN out)
        String longer = "tree" + cases.size();
        cases.add(new OracleCase(longer, named(TREE, longer), longer, LaunchConfig.of(3, 128),
                List.of(OracleTests.randomFloats("in", r, 1024), specialFloats("partial", r, 3),
                        OracleTests.intScalar(600))));
        for (int k : new int[] {0, 5, 77, 127}) {
            String name = "nb" + cases.size();
            cases.add(new OracleCase(name, named(NEIGHBOURS, name), name, LaunchConfig.of(1, 128),
                    List.of(specialFloats("out", r, 384), specialFloats("x", r, 128), OracleTests.intScalar(k))));
        }
        // finite values, so that the threads after the one that stores s[k] show whether they read its new value
        // (in x's special values, a NaN early in the running sums makes every later value NaN)
        String finite = "nb" + cases.size();
        cases.add(new OracleCase(finite, named(NEIGHBOURS, finite), finite, LaunchConfig.of(1, 128),
                List.of(specialFloats("out", r, 384), OracleTests.randomFloats("x", r, 128),
                        OracleTests.intScalar(77))));
        long before = LaneRange.threadsRun();
        OracleTests.assertAllEqual(cases, seed, ANY_NAN);
        assertTrue(LaneRange.threadsRun() > before, "no thread ran as a lane");
    }

    @Test
    void aTreeReductionOfSmallIntegersIsExact() {
        int n = 100_000;
        int block = 256;
        int grid = (n + 2 * block - 1) / (2 * block);
        float[] in = new float[n];
        double want = 0;
        for (int i = 0; i < n; i++) {
            in[i] = (i * 13) % 7;
            want += in[i];
        }
        try (CpuDevice dev = new CpuDevice(2)) {
            UnifiedBuffer inB = floats(dev, in);
            UnifiedBuffer partial = floats(dev, new float[grid]);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            s.launch(dev.compile(named(TREE, "tree"), "t.cu").function("tree"), LaunchConfig.of(grid, block),
                    KernelArgs.builder().pointer(inB).pointer(partial).i32(n).build());
            s.synchronize();
            double got = 0;
            for (float p : readFloats(partial, grid)) {
                got += p;
            }
            assertEquals(want, got);
            assertTrue(LaneRange.threadsRun() - before >= (long) (grid - 1) * block,
                    "the first region's lanes did not run");
        }
    }

    @Test
    void aProductOfSmallIntegersIsExact() {
        // Small integers: every product and sum is exact in float, so Java's own triple loop is the expected value.
        int n = 40;
        int tile = 16;
        float[] a = new float[n * n];
        float[] b = new float[n * n];
        for (int i = 0; i < n * n; i++) {
            a[i] = (i * 7) % 11 - 5;
            b[i] = (i * 3) % 13 - 6;
        }
        float[] want = new float[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                float acc = 0;
                for (int k = 0; k < n; k++) {
                    acc += a[i * n + k] * b[k * n + j];
                }
                want[i * n + j] = acc;
            }
        }
        try (CpuDevice dev = new CpuDevice(2)) {
            UnifiedBuffer ab = floats(dev, a);
            UnifiedBuffer bb = floats(dev, b);
            UnifiedBuffer cb = floats(dev, new float[n * n]);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            int grid = (n + tile - 1) / tile;
            s.launch(dev.compile(named(sgemm(tile), "mm"), "m.cu").function("mm"),
                    new LaunchConfig(new dev.polygpu.device.Dim3(grid, grid, 1),
                            new dev.polygpu.device.Dim3(tile, tile, 1), 0),
                    KernelArgs.builder().pointer(ab).pointer(bb).pointer(cb).i32(n).build());
            s.synchronize();
            assertArrayEquals(want, readFloats(cb, n * n));
            // every thread of the 9 blocks, at each of the 3 tile steps
            assertEquals(9L * tile * tile * 3, LaneRange.threadsRun() - before);
        }
    }

    @Test
    void aRowThatLeavesItsBufferPartWayRunsGroupByGroupAndFaultsWhereTheScalarLoopDoes() {
        try (CpuDevice dev = new CpuDevice(1)) {
            int block = 64;
            // x holds 84 floats: block 0's row lies inside it, so do block 1's first two groups; its thread 20
            // reads x[84] first
            float[] xs = new float[84];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = i;
            }
            UnifiedBuffer x = floats(dev, xs);
            UnifiedBuffer out = floats(dev, new float[2 * block]);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            s.launch(dev.compile(named(SCALE, "scale"), "s.cu").function("scale"), LaunchConfig.of(2, block),
                    KernelArgs.builder().pointer(out).pointer(x).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertContains("blockIdx (1,0,0) threadIdx (20,0,0)", e.getMessage());
            assertContains("out-of-bounds read of 4 bytes at index 84 of argument 'x'", e.getMessage());
            // block 0 ran its two regions as lanes; block 1 its whole groups below thread 20 (whose elements lie
            // inside x), then threads 16 to 19 one by one before thread 20 faulted
            int lanes = VectorApi.lanes(CType.Prim.FLOAT);
            assertEquals(2L * block + 20 - 20 % lanes, LaneRange.threadsRun() - before);
            float[] got = readFloats(out, block);
            for (int i = 0; i < block; i++) {
                assertEquals(2.0f * i + 1.0f, got[i], "out[" + i + "]");
            }
        }
    }

    @Test
    void aGroupWhoseRowLeavesItsBufferFaultsWhereTheScalarLoopDoes() {
        try (CpuDevice dev = new CpuDevice(1)) {
            int m = 64;
            int steps = 3;
            UnifiedBuffer out = floats(dev, new float[2 * m]);
            // x holds two rows and 20 elements of the third: thread 20 of the block reads x[2 * 64 + 20] first
            UnifiedBuffer x = dev.allocate(8L * (2 * m + 20));
            UnifiedBuffer w = dev.allocate(8L * steps);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            s.launch(dev.compile(named(ROWS, "past"), "r.cu").function("past"), LaunchConfig.of(1, m),
                    KernelArgs.builder().pointer(out).pointer(x).pointer(w).i32(m).i32(steps).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertContains("blockIdx (0,0,0) threadIdx (20,0,0)", e.getMessage());
            assertContains("out-of-bounds read of 8 bytes at index 148 of argument 'x'", e.getMessage());
            // the whole groups below thread 20 ran as lanes (their elements lie inside x); the group holding thread
            // 20 reaches past x at its third step, so its threads ran one by one, and thread 20 faulted as in the
            // scalar loop
            int lanes = VectorApi.lanes(CType.Prim.DOUBLE);
            assertEquals(20 - 20 % lanes, LaneRange.threadsRun() - before);
        }
    }
}
