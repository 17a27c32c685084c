package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.ANY_NAN;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.doubleScalar;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.floatScalar;
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
import dev.polygpu.device.cpu.kernel.exec.LaneRange;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A barrier region's grid-stride accumulation run as SIMD lanes ({@link LaneForm#sweep}, {@link LaneSweepEmitter}):
 * against nvcc's PTX of the same source on the PTX interpreter — the reduction of the benchmarks, accumulations in
 * {@code double} with conditionals and a shifted read and in {@code int} (wrapping), random accumulations in
 * {@code float} and {@code double} over special values, and the shapes the lanes leave to the thread loop (a step
 * below the vector's width, indices that are not consecutive, a block whose size is not a multiple of the lanes, a
 * bound inside the first iteration); a loop past its buffer faults in the thread it did before.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LaneSweepTest {
    private static final long SEED = 0x5eeb1L;

    /** The benchmarks' grid-stride reduction ({@code bench/.../reduce_gs.cu}) with a fixed shared array. */
    private static final String REDUCE = """
            extern "C" __global__ void NAME(const float *in, float *partial, int n) {
                __shared__ float sdata[256];
                unsigned int tid = threadIdx.x;
                float sum = 0.0f;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    sum += in[i];
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
    /** Two accumulators, a local, a conditional, a shifted read and a uniform factor, in double. */
    private static final String TWO_SUMS = """
            extern "C" __global__ void NAME(double *out, const double *x, const double *y, double w, int n, int k) {
                __shared__ double sd[256];
                int tid = threadIdx.x;
                double s = 0.0, q = 1.0;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    double v = x[i] * w + y[i + k];
                    s += v;
                    q = q * 0.5 + (v < 0.0 ? -v : v);
                }
                sd[tid] = s - q;
                __syncthreads();
                out[blockIdx.x * blockDim.x + tid] = sd[(tid + 1) % blockDim.x];
            }
            """;
    /** Wrapping int arithmetic and bit operations; the index, declared before the loop, read after it. */
    private static final String INTS = """
            extern "C" __global__ void NAME(int *out, const int *p, int k, int n) {
                __shared__ int sd[256];
                int a = 0;
                int b = 7;
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                for (; i < n; i += blockDim.x * gridDim.x) {
                    a = (a * 3) ^ (p[i] + k);
                    b = b - (p[i] & a);
                }
                sd[threadIdx.x] = a + b + 1000 * i;
                __syncthreads();
                out[blockIdx.x * blockDim.x + threadIdx.x] = sd[blockDim.x - 1 - threadIdx.x];
            }
            """;
    /** Every second element per thread: indices two apart, which no vector load covers. */
    private static final String EVERY_SECOND = """
            extern "C" __global__ void NAME(const float *in, float *out, int n) {
                __shared__ float sd[256];
                float sum = 0.0f;
                for (int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x); i < n; i += 2 * blockDim.x * gridDim.x) {
                    sum += in[i];
                }
                sd[threadIdx.x] = sum;
                __syncthreads();
                out[blockIdx.x * blockDim.x + threadIdx.x] = sd[0] + sum;
            }
            """;

    /** No barrier: the engine's swept form (chosen per launch) holds the accumulation, as lanes too. */
    private static final String NO_BARRIER = """
            extern "C" __global__ void NAME(const float *in, float *out, float w, int n) {
                float sum = 0.0f, sq = 0.0f;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    float v = in[i] * w;
                    sum += v;
                    sq += v * v;
                }
                out[blockIdx.x * blockDim.x + threadIdx.x] = sum - sq;
            }
            """;

    @BeforeAll
    static void lanesAreThere() {
        LaneFormTest.lanesAreThere();
    }

    @Test
    void reductionsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        // {grid, block, n}: many iterations per thread with a last one covering part of the grid, a block that is
        // not a multiple of the lanes, a bound inside the first iteration, one vector's worth of threads, a step
        // of 4 (below the vector's width: thread by thread)
        int[][] shapes = {{4, 64, 5000}, {3, 100, 777}, {2, 256, 100}, {5, 32, 1601}, {1, 8, 1000}, {1, 4, 99}};
        for (int[] sh : shapes) {
            int n = sh[2];
            String name = "red" + cases.size();
            cases.add(new OracleCase(name, named(REDUCE, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(specialFloats("in", r, n), specialFloats("partial", r, sh[0]),
                            OracleTests.intScalar(n))));
            int threads = sh[0] * sh[1];
            name = "two" + cases.size();
            cases.add(new OracleCase(name, named(TWO_SUMS, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(randomDoubles("out", r, threads), randomDoubles("x", r, n), randomDoubles("y", r, n + 3),
                            doubleScalar(r.nextGaussian()), OracleTests.intScalar(n), OracleTests.intScalar(3))));
            name = "ints" + cases.size();
            cases.add(new OracleCase(name, named(INTS, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(OracleTests.edgeValues("out", OracleType.I32, r, threads),
                            OracleTests.edgeValues("p", OracleType.I32, r, n), OracleTests.intScalar(r.nextInt()),
                            OracleTests.intScalar(n))));
            name = "nob" + cases.size();
            cases.add(new OracleCase(name, named(NO_BARRIER, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(specialFloats("in", r, n), specialFloats("out", r, threads),
                            floatScalar((float) r.nextGaussian()), OracleTests.intScalar(n))));
            name = "second" + cases.size();
            cases.add(new OracleCase(name, named(EVERY_SECOND, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(specialFloats("in", r, n), specialFloats("out", r, threads), OracleTests.intScalar(n))));
        }
        long before = LaneRange.threadsRun();
        OracleTests.assertAllEqual(cases, seed, ANY_NAN);
        assertTrue(LaneRange.threadsRun() > before, "no thread ran as a lane");
    }

    /**
     * Random accumulations: one to three statements a pass, each assigning ({@code =}, {@code +=}, {@code -=},
     * {@code *=}, {@code /=}) one of two accumulators or declaring a local, from the elements {@code x[i]},
     * {@code y[i + 1]}, the accumulators, a uniform scalar and conditionals, in float and double.
     */
    @Test
    void randomAccumulationsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED + 1;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        long lanesBefore = LaneRange.threadsRun();
        for (int c = 0; c < 24; c++) {
            boolean dbl = c % 3 == 2;
            String t = dbl ? "double" : "float";
            String name = "acc" + c;
            List<String> vars = new ArrayList<>(List.of("x[i]", "y[i + 1]", "a", "b", "s", "k"));
            StringBuilder body = new StringBuilder();
            int statements = 1 + r.nextInt(3);
            for (int st = 0; st < statements; st++) {
                String e = LaneFormTest.expression(r, vars, 3);
                if (r.nextInt(4) == 0) {
                    String v = "v" + st;
                    body.append("        ").append(t).append(' ').append(v).append(" = ").append(e).append(";\n");
                    vars.add(v);
                } else {
                    String[] ops = {"=", "+=", "-=", "*=", "/="};
                    body.append("        ").append(r.nextBoolean() ? "a" : "b").append(' ')
                            .append(ops[r.nextInt(ops.length)]).append(' ').append(e).append(";\n");
                }
            }
            String src = "extern \"C\" __global__ void " + name + "(" + t + " *out, const " + t + " *x, const " + t
                    + " *y, " + t + " s, " + t + " k, int n) {\n"
                    + "    __shared__ " + t + " sd[256];\n"
                    + "    " + t + " a = s, b = 0;\n"
                    + "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {\n"
                    + body
                    + "    }\n"
                    + "    sd[threadIdx.x] = a;\n"
                    + "    __syncthreads();\n"
                    + "    out[blockIdx.x * blockDim.x + threadIdx.x] = sd[(threadIdx.x + 3) % blockDim.x] - b;\n"
                    + "}\n";
            int block = new int[] {64, 96, 100, 256}[r.nextInt(4)];
            int grid = 1 + r.nextInt(4);
            int threads = grid * block;
            int n = 1 + r.nextInt(threads * 6);
            cases.add(new OracleCase(name, src, name, LaunchConfig.of(grid, block), List.of(
                    dbl ? randomDoubles("out", r, threads) : specialFloats("out", r, threads),
                    dbl ? randomDoubles("x", r, n) : specialFloats("x", r, n),
                    dbl ? randomDoubles("y", r, n + 1) : specialFloats("y", r, n + 1),
                    dbl ? doubleScalar(r.nextGaussian()) : floatScalar((float) r.nextGaussian()),
                    dbl ? doubleScalar(-1.5) : floatScalar(0.25f),
                    OracleTests.intScalar(n))));
        }
        OracleTests.assertAllEqual(cases, seed, ANY_NAN);
        assertTrue(LaneRange.threadsRun() > lanesBefore, "no thread ran as a lane");
    }

    @Test
    void aReductionPastItsBufferFaultsInTheThreadItDidBefore() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer in = floats(dev, new float[900]);
            UnifiedBuffer partial = floats(dev, new float[2]);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            s.launch(dev.compile(named(REDUCE, "past"), "r.cu").function("past"), LaunchConfig.of(2, 128),
                    KernelArgs.builder().pointer(in).pointer(partial).i32(1000).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            // Every group's elements reach the bound, past the buffer: the passes run them all, and thread 4 of
            // block 1 is the first to reach in[900] (128 + 4 + 3 * 256); block 0's threads stop below it.
            assertContains("blockIdx (1,0,0) threadIdx (4,0,0)", e.getMessage());
            assertContains("out-of-bounds read of 4 bytes at index 900 of argument 'in'", e.getMessage());
            // None in the loop; block 0's later regions ran as lanes (RegionLanes): its store of the sums (128
            // threads) and the tree's steps of 64, 32, 16 and 8 threads (those below a vector's width run scalar).
            assertEquals(128 + 120, LaneRange.threadsRun() - before);
        }
    }

    @Test
    void aKernelWithoutBarriersAccumulatesAsLanes() {
        // Small integers: every sum and square is exact in float, so Java's own loop is the expected value.
        int n = 50_000;
        int grid = 3;
        int block = 64;
        float[] in = new float[n];
        for (int i = 0; i < n; i++) {
            in[i] = (i * 37) % 100;
        }
        float[] want = new float[grid * block];
        for (int t = 0; t < want.length; t++) {
            float sum = 0;
            float sq = 0;
            for (int i = t; i < n; i += want.length) {
                sum += in[i];
                sq += in[i] * in[i];
            }
            want[t] = sum - sq;
        }
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer inB = floats(dev, in);
            UnifiedBuffer out = floats(dev, new float[want.length]);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            var k = dev.compile(named(NO_BARRIER, "nob"), "n.cu").function("nob");
            for (int launch = 0; launch < 3; launch++) {
                s.launch(k, LaunchConfig.of(grid, block), KernelArgs.builder().pointer(inB).pointer(out).f32(1f)
                        .i32(n).build());
            }
            s.synchronize();
            assertArrayEquals(want, readFloats(out, want.length));
            assertTrue(LaneRange.threadsRun() - before >= 2L * grid * block, "the swept form's lanes did not run");
        }
    }

    @Test
    void aSumOfOnesCountsEveryElementOnce() {
        // An independent check beside the oracle: with 1.0f in every element, each thread's sum is the number of
        // its elements and the block partials add up to n exactly (all small integers in float). The tree needs a
        // block of a power of two.
        int n = 100_003;
        float[] ones = new float[n];
        java.util.Arrays.fill(ones, 1f);
        try (CpuDevice dev = new CpuDevice(2)) {
            UnifiedBuffer in = floats(dev, ones);
            UnifiedBuffer partial = floats(dev, new float[7]);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            s.launch(dev.compile(named(REDUCE, "ones"), "r.cu").function("ones"), LaunchConfig.of(7, 128),
                    KernelArgs.builder().pointer(in).pointer(partial).i32(n).build());
            s.synchronize();
            float[] got = readFloats(partial, 7);
            double total = 0;
            for (float p : got) {
                total += p;
            }
            assertEquals(n, total);
            // per block: the loop (128 threads), the store of the sums (128) and the tree's steps of 64 to 8 (120)
            assertEquals(7 * (128 + 128 + 120), LaneRange.threadsRun() - before);
        }
    }
}
