package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.codegen.NamedKernels.compile;
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
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleOptions;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Element-wise kernels whose threads run as SIMD lanes ({@link LaneForm}, {@link LaneEmitter}): which kernels take
 * the form, and their results against nvcc's PTX of the same source on the PTX interpreter for blocks the lanes
 * cover whole, in part (a block size or a bound that is not a multiple of the lanes) or not at all, special values
 * (NaN, infinities, signed zeros, subnormals) and random element-wise kernels; arrays that alias, a fault and a
 * store through a read-only parameter behave as in the scalar thread loop.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LaneFormTest {
    private static final long SEED = 0x1a4e5L;
    /**
     * NaN inputs meet in operations whose operands nvcc may order otherwise than the source, and which NaN an
     * operation of two passes on is the implementation's (scheduler/README.md, "Known differences from a GPU").
     */
    static final OracleOptions ANY_NAN = OracleOptions.DEFAULTS.withNans(OracleOptions.NanComparison.ANY);

    static final String SAXPY = """
            extern "C" __global__ void NAME(float *y, const float *x, float a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    y[i] = a * x[i] + y[i];
                }
            }
            """;

    /** The early-return guard, the index written the other way round, locals and compound assignments. */
    static final String LOCALS = """
            extern "C" __global__ void NAME(float *out, const float *p, const float *q, float s, int n, int k) {
                const int i = threadIdx.x + blockDim.x * blockIdx.x;
                if (i >= n) return;
                float t = p[i] * s - q[i];
                float u = -t / (q[i] + 0.5f);
                t += u * (float) k;
                u = +t;
                out[i] = t;
                out[i] *= u - (float) (k * 3 + 1) / 7.0f;
            }
            """;

    /** Doubles, without a guard (every thread of the grid writes), two outputs. */
    static final String DOUBLES = """
            extern "C" __global__ void NAME(double *a, double *b, const double *c, double w) {
                int stride = blockDim.x;
                int i = blockIdx.x * stride + threadIdx.x;
                double m = a[i] * w + c[i];
                b[i] = m / c[i];
                a[i] = m - b[i] * 2.0;
            }
            """;

    /** SAXPY as a grid-stride loop, as GrCUDA's benchmarks write their kernels. */
    static final String SAXPY_GS = """
            extern "C" __global__ void NAME(float *y, const float *x, float a, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    float t = a * x[i];
                    y[i] = t + y[i];
                }
            }
            """;

    /** A grid-stride loop whose step is a parameter: below the block's width the block runs thread by thread. */
    static final String STEP = """
            extern "C" __global__ void NAME(double *y, const double *x, int n, int step) {
                const int w = 3;
                for (int i = threadIdx.x + blockIdx.x * blockDim.x * w; i < n; i += step) {
                    y[i] -= x[i] / 3.0;
                }
            }
            """;

    /** GrCUDA's image pipeline: clamping with conditional expressions. */
    static final String UNSHARPEN = """
            extern "C" __global__ void NAME(float *x, float *y, float *res, float amount, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    float res_tmp = x[i] * (1 + amount) - y[i] * amount;
                    res_tmp = res_tmp > 1 ? 1 : res_tmp;
                    res[i] = res_tmp < 0 ? 0 : res_tmp;
                }
            }
            """;

    /** GrCUDA's CNN: two halves of one output, a shift apart; and a stencil read of neighbours. */
    static final String SHIFTS = """
            extern "C" __global__ void NAME(float *z, const float *x, const float *y, int n, int k, int m) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    z[i] = x[i];
                    z[i + n] = y[i] + x[i + 1] * 0.5f - x[i - k] + (x[i + 2] != x[i + 2] ? -1.0f : 1.0f);
                    z[m + i] += (y[i] <= x[i] ? y[i] : x[i]) / (y[m + i] == 0.0f ? 1.0f : 3.0f);
                }
            }
            """;

    /** GrCUDA's image pipeline: one element every thread reads, through {@code *p} and {@code p[k]}. */
    static final String EXTEND = """
            extern "C" __global__ void NAME(float *x, const float *minimum, const float *maximum, const float *w,
                    int n, int k) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    float res_tmp = 5 * (x[i] - *minimum) / (*maximum - *minimum);
                    x[i] = (res_tmp > 1 ? 1 : res_tmp) * w[k] - w[k + 1];
                }
            }
            """;

    /** Double constants and widened floats, one operation each, narrowed back to float (GrCUDA's {@code addtwo}). */
    static final String WIDENED = """
            extern "C" __global__ void NAME(float *a, float *b, const float *c, int n) {
                int idx = blockIdx.x * blockDim.x + threadIdx.x;
                if (idx < n) {
                    b[idx] = a[idx] + 2.0;
                    a[idx] = 0.5 * c[idx];
                    b[idx] -= (float) ((double) a[idx] / (double) c[idx]);
                    a[idx] = c[idx] - 3.0;
                }
            }
            """;

    /** Integers: the lanes wrap as the scalar loop does. */
    static final String INTS = """
            extern "C" __global__ void NAME(int *a, const int *b, int k, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    a[i] = (a[i] * k + b[i]) ^ (b[i] & 255) | -a[i];
                }
            }
            """;

    @BeforeAll
    static void lanesAreThere() {
        assertTrue(VectorApi.lanes(CType.Prim.FLOAT) >= 2, "the tests' JVM runs without the Vector API: the build"
                + " adds --add-modules jdk.incubator.vector to it (pom.xml, test.argLine)");
    }

    @Test
    void elementWiseKernelsRunAsLanes() {
        int floatLanes = VectorApi.lanes(CType.Prim.FLOAT);
        assertEquals(floatLanes, KernelCompiler.lanes(compile(SAXPY, "k")));
        assertEquals(floatLanes, KernelCompiler.lanes(compile(LOCALS, "k")));
        assertEquals(VectorApi.lanes(CType.Prim.DOUBLE), KernelCompiler.lanes(compile(DOUBLES, "k")));
        assertEquals(floatLanes, KernelCompiler.lanes(compile(SAXPY_GS, "k")));
        assertEquals(VectorApi.lanes(CType.Prim.DOUBLE), KernelCompiler.lanes(compile(STEP, "k")));
        assertEquals(floatLanes, KernelCompiler.lanes(compile(UNSHARPEN, "k")));
        assertEquals(floatLanes, KernelCompiler.lanes(compile(SHIFTS, "k")));
        assertEquals(floatLanes, KernelCompiler.lanes(compile(EXTEND, "k")));
        assertEquals(floatLanes, KernelCompiler.lanes(compile(WIDENED, "k")));
        assertEquals(VectorApi.lanes(CType.Prim.INT), KernelCompiler.lanes(compile(INTS, "k")));
    }

    /** Random {@code int} element-wise kernels: {@code + - * & | ^}, negation and conditionals; they wrap as Java's. */
    @Test
    void intLanesAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED + 4;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        for (int c = 0; c < 24; c++) {
            String name = "ints" + c;
            String src = "extern \"C\" __global__ void " + name + "(int *o, int *p, const int *q, int s, int n) {\n"
                    + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    + "    if (i < n) {\n"
                    + "        int t = " + intExpression(r, 3) + ";\n"
                    + "        o[i] " + new String[] {"=", "+=", "-=", "*=", "&=", "|=", "^="}[r.nextInt(7)] + " "
                    + intExpression(r, 2) + ";\n"
                    + "        p[i] = t " + new String[] {"+", "-", "*", "&", "|", "^"}[r.nextInt(6)] + " o[i];\n"
                    + "    }\n}\n";
            assertEquals(VectorApi.lanes(CType.Prim.INT), KernelCompiler.lanes(KernelCompiler.compile(
                    dev.polygpu.device.cpu.kernel.front.FrontEnd.compile(src, "t.cu").kernel(name))), src);
            int block = new int[] {64, 100, 256}[r.nextInt(3)];
            int grid = 1 + r.nextInt(3);
            int total = grid * block;
            cases.add(new OracleCase(name, src, name, LaunchConfig.of(grid, block), List.of(
                    OracleTests.randomInts("o", r, total), OracleTests.randomInts("p", r, total),
                    OracleTests.randomInts("q", r, total), OracleTests.intScalar(r.nextInt(2001) - 1000),
                    OracleTests.intScalar(1 + r.nextInt(total)))));
        }
        long before = LaneRange.threadsRun();
        OracleTests.assertAllEqual(cases, seed);
        assertTrue(LaneRange.threadsRun() > before, "no thread ran as a lane");
    }

    private static String intExpression(Random r, int depth) {
        String[] leaves = {"p[i]", "q[i]", "o[i]", "s", "7", "(s * 3 - 1)"};
        if (depth == 0 || r.nextInt(4) == 0) {
            return leaves[r.nextInt(leaves.length)];
        }
        return switch (r.nextInt(6)) {
            case 0 -> "-(" + intExpression(r, depth - 1) + ")";
            case 1 -> "(" + intExpression(r, depth - 1) + " < " + intExpression(r, depth - 1) + " ? "
                    + intExpression(r, depth - 1) + " : " + intExpression(r, depth - 1) + ")";
            default -> "(" + intExpression(r, depth - 1) + ' '
                    + new String[] {"+", "-", "*", "&", "|", "^"}[r.nextInt(6)] + ' ' + intExpression(r, depth - 1)
                    + ")";
        };
    }

    @Test
    void conditionalsAndShiftsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED + 3;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        int[][] shapes = {{3, 64, 2000}, {2, 100, 1234}, {5, 7, 333}, {4, 256, 100}};
        for (int[] sh : shapes) {
            int n = sh[2];
            String name = "unsharpen" + cases.size();
            cases.add(new OracleCase(name, named(UNSHARPEN, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(specialFloats("x", r, n), specialFloats("y", r, n), OracleTests.randomFloats("res", r, n),
                            floatScalar(0.5f), OracleTests.intScalar(n))));
            // x read a little and far ahead (i - k for negative k), z written in three parts no thread shares
            int total = sh[0] * sh[1];
            int e = Math.min(n, total);
            for (int k : new int[] {-3, -e}) {
                int m = 2 * e + 5;
                name = "shifts" + cases.size();
                cases.add(new OracleCase(name, named(SHIFTS, name), name, LaunchConfig.of(sh[0], sh[1]),
                        List.of(specialFloats("z", r, m + e), specialFloats("x", r, e - k + 3),
                                specialFloats("y", r, m + e), OracleTests.intScalar(e), OracleTests.intScalar(k),
                                OracleTests.intScalar(m))));
            }
        }
        for (int[] sh : shapes) {
            int n = sh[2];
            String name = "widened" + cases.size();
            cases.add(new OracleCase(name, named(WIDENED, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(specialFloats("a", r, n), specialFloats("b", r, n), specialFloats("c", r, n),
                            OracleTests.intScalar(n))));
        }
        for (int[] sh : shapes) {
            int n = sh[2];
            String name = "extend" + cases.size();
            cases.add(new OracleCase(name, named(EXTEND, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(specialFloats("x", r, n), specialFloats("minimum", r, 1), specialFloats("maximum", r, 1),
                            specialFloats("w", r, 8), OracleTests.intScalar(n), OracleTests.intScalar(5))));
        }
        long before = LaneRange.threadsRun();
        OracleTests.assertAllEqual(cases, seed, ANY_NAN);
        assertTrue(LaneRange.threadsRun() > before, "no thread ran as a lane");
    }

    /**
     * An element every thread reads that one of the block's threads stores: the threads after it must read the new
     * value, so that block runs thread by thread; the next block, which does not store it, runs as lanes.
     */
    @Test
    void anElementAThreadOfTheBlockStoresIsReadThreadByThread() {
        String src = """
                extern "C" __global__ void div0(float *y, const float *x, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        y[i] = x[i] / y[0] + 1.0f;
                    }
                }
                """;
        try (CpuDevice dev = new CpuDevice(1)) {
            float[] x = new float[512];
            float[] y = new float[512];
            for (int k = 0; k < x.length; k++) {
                x[k] = k + 1;
                y[k] = 2f;
            }
            UnifiedBuffer yb = floats(dev, y);
            UnifiedBuffer xb = floats(dev, x);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            // one worker: block 0 runs before block 1, which reads what block 0 left in y[0]
            s.launch(dev.compile(src, "d.cu").function("div0"), LaunchConfig.of(2, 256),
                    KernelArgs.builder().pointer(yb).pointer(xb).i32(512).build());
            s.synchronize();
            assertEquals(256, LaneRange.threadsRun() - before);
            float[] want = y.clone();
            for (int t = 0; t < 512; t++) {
                want[t] = x[t] / want[0] + 1.0f;
            }
            assertArrayEquals(want, readFloats(yb, 512));
        }
    }

    @Test
    void gridStrideLoopsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED + 2;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        // {grid, block, n}: many iterations per thread, a last one that covers part of a block, blocks that are not
        // a multiple of the lanes, a bound inside the first iteration, a grid larger than the data
        int[][] shapes = {{3, 64, 2000}, {2, 100, 1234}, {5, 7, 333}, {4, 256, 100}, {8, 128, 500}};
        for (int[] sh : shapes) {
            int n = sh[2];
            String name = "gs" + cases.size();
            cases.add(new OracleCase(name, named(SAXPY_GS, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(specialFloats("y", r, n), specialFloats("x", r, n), floatScalar(-0.75f),
                            OracleTests.intScalar(n))));
            // steps of three grid widths and past the data, and of the block's width and below it (thread by
            // thread) in a grid of one block: no element is any other block's, as CUDA requires of a kernel whose
            // threads read and write it
            int m = 3 * sh[0] * sh[1] + n;
            int[][] steps = {{sh[0], sh[0] * sh[1] * 3}, {sh[0], 5 * m}, {1, sh[1]}, {1, sh[1] - 1}};
            for (int[] gs : steps) {
                name = "step" + cases.size();
                int step = gs[1];
                cases.add(new OracleCase(name, named(STEP, name), name, LaunchConfig.of(gs[0], sh[1]),
                        List.of(randomDoubles("y", r, m), randomDoubles("x", r, m), OracleTests.intScalar(m),
                                OracleTests.intScalar(Math.max(1, step)))));
            }
        }
        long before = LaneRange.threadsRun();
        OracleTests.assertAllEqual(cases, seed, ANY_NAN);
        assertTrue(LaneRange.threadsRun() > before, "no thread ran as a lane");
    }

    @Test
    void aGridStrideLoopPastItsBufferFaultsInTheThreadLoop() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer y = floats(dev, new float[1000]);
            UnifiedBuffer x = floats(dev, new float[900]);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            s.launch(dev.compile(named(SAXPY_GS, "gsOob"), "s.cu").function("gsOob"), LaunchConfig.of(2, 128),
                    KernelArgs.builder().pointer(y).pointer(x).f32(1f).i32(1000).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            // thread 4 of block 1 reaches x[900] at its fourth iteration (132 + 3 * 256)
            assertContains("blockIdx (1,0,0) threadIdx (4,0,0)", e.getMessage());
            assertContains("out-of-bounds read of 4 bytes at index 900 of argument 'x'", e.getMessage());
            assertEquals(0, LaneRange.threadsRun() - before);
        }
    }

    @Test
    void otherKernelsKeepTheScalarLoop() {
        String head = "extern \"C\" __global__ void k(float *y, const float *x, const int *m, double *d, int n) {\n"
                + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n";
        String[] bodies = {
            "if (i < n) y[i] = x[2 * i];",                 // not a unit stride
            "if (i < n) y[i] = x[i + (int) y[0]];",        // a shift read from memory
            "if (i < n) y[i] = x[i] > 0.0f && x[i] < 1.0f ? 1.0f : 0.0f;", // a condition of two comparisons
            "if (i < n) y[i] = (float) m[i];",             // a conversion of a per-thread value
            "if (i < n) y[i] = sqrtf(x[i]);",              // a call
            "if (i < n) { if (x[i] > 0.0f) y[i] = 1.0f; }", // control flow in the body
            "if (i < n) d[i] = x[i];",                     // two lane types
            "if (i < n) y[0] = x[i];",                     // not the thread's own element
            "if (i < n) y[i] = x[i] * (float) i;",         // the index as a value
            "if (i <= n) y[i] = x[i];",                    // another guard
            "i += 1; y[i] = x[i];",                        // the index assigned
            "for (int k = 0; k < 2; k++) y[i] += x[i];",   // a loop
            "if (i < n) atomicAdd(&y[i], x[i]);",          // an atomic
            "if (i < n) { y[i] = x[i]; __syncthreads(); }", // a barrier
            "if (i < n) m[i] = m[i] / 3;",                 // an integer division (can fault)
            "if (i < n) m[i] = m[i] >> 1;",                // a shift
            "if (i < n) y[i] = x[i] * 0.1;",               // a double constant that is no float
            "if (i < n) y[i] = x[i] * 2.0 + 1.0;",         // two operations in double
        };
        for (String body : bodies) {
            String src = head + "    " + body + "\n}\n";
            assertEquals(0, KernelCompiler.lanes(KernelCompiler.compile(
                    dev.polygpu.device.cpu.kernel.front.FrontEnd.compile(src, "t.cu").kernel("k"))), src);
        }
        String twoD = "extern \"C\" __global__ void k(float *y, const float *x) {\n"
                + "    int i = blockIdx.x * blockDim.x + threadIdx.y;\n    y[i] = x[i];\n}\n";
        assertEquals(0, KernelCompiler.lanes(KernelCompiler.compile(
                dev.polygpu.device.cpu.kernel.front.FrontEnd.compile(twoD, "t.cu").kernel("k"))));
    }

    @Test
    void lanesAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        Random r = new Random(SEED);
        List<OracleCase> cases = new ArrayList<>();
        // {grid, block, n}: whole blocks; a bound inside a block that is not a multiple of the lanes; a block size
        // that is not one; blocks smaller than a vector; a bound before the grid's first block ends; a 2D block.
        int[][] shapes = {{4, 256, 1024}, {5, 256, 1003}, {3, 100, 300}, {9, 7, 60}, {4, 64, 5}, {2, 32, 64}};
        for (int[] sh : shapes) {
            int grid = sh[0];
            int block = sh[1];
            addStraightCases(cases, r, grid, block, sh[2]);
        }
        long before = LaneRange.threadsRun();
        cases.add(new OracleCase("twoD", named(SAXPY, "twoD"), "twoD",
                new LaunchConfig(dev.polygpu.device.Dim3.of(2), new dev.polygpu.device.Dim3(16, 4, 1), 0),
                List.of(specialFloats("y", r, 128), specialFloats("x", r, 128), floatScalar(3f),
                        OracleTests.intScalar(100))));
        OracleTests.assertAllEqual(cases, SEED, ANY_NAN);
        assertTrue(LaneRange.threadsRun() > before, "no thread ran as a lane");
    }

    /** {@link #SAXPY}, {@link #LOCALS} and {@link #DOUBLES} on {@code grid} blocks of {@code block}, bound {@code n}. */
    static void addStraightCases(List<OracleCase> cases, Random r, int grid, int block, int n) {
        int total = grid * block;
        LaunchConfig cfg = LaunchConfig.of(grid, block);
        String name = "saxpy" + cases.size();
        cases.add(new OracleCase(name, named(SAXPY, name), name, cfg,
                List.of(specialFloats("y", r, total), specialFloats("x", r, total), floatScalar(2.5f),
                        OracleTests.intScalar(n))));
        name = "locals" + cases.size();
        cases.add(new OracleCase(name, named(LOCALS, name), name, cfg,
                List.of(specialFloats("out", r, total), specialFloats("p", r, total), specialFloats("q", r, total),
                        floatScalar(-1.75f), OracleTests.intScalar(n), OracleTests.intScalar(3))));
        name = "doubles" + cases.size();
        cases.add(new OracleCase(name, named(DOUBLES, name), name, cfg,
                List.of(randomDoubles("a", r, total), randomDoubles("b", r, total), randomDoubles("c", r, total),
                        new OracleArg.Scalar(OracleType.F64, Double.doubleToRawLongBits(0.3)))));
    }

    /**
     * Random element-wise kernels: expression trees over three arrays (one also read a neighbour ahead), two scalars
     * and locals, with conditional expressions, in float and double.
     */
    @Test
    void randomElementWiseKernelsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED + 1;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        for (int c = 0; c < 40; c++) {
            boolean dbl = c % 3 == 2;
            String t = dbl ? "double" : "float";
            String name = "rnd" + c;
            StringBuilder body = new StringBuilder();
            List<String> vars = new ArrayList<>(List.of("p[i]", "q[i]", "o[i]", "s", "k", "q[i + 1]", "q[1 + i]"));
            int statements = 1 + r.nextInt(4);
            for (int s = 0; s < statements; s++) {
                String e = expression(r, vars, 3);
                if (r.nextInt(3) == 0) {
                    String v = "v" + s;
                    body.append("        ").append(t).append(' ').append(v).append(" = ").append(e).append(";\n");
                    vars.add(v);
                } else {
                    String[] ops = {"=", "+=", "-=", "*=", "/="};
                    String target = r.nextBoolean() ? "o[i]" : "p[i]";
                    body.append("        ").append(target).append(' ').append(ops[r.nextInt(ops.length)]).append(' ')
                            .append(e).append(";\n");
                }
            }
            body.append("        o[i] = ").append(expression(r, vars, 2)).append(";\n");
            String src = "extern \"C\" __global__ void " + name + "(" + t + " *o, " + t + " *p, const " + t + " *q, "
                    + t + " s, " + t + " k, int n) {\n"
                    + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    + "    if (i < n) {\n" + body + "    }\n}\n";
            assertTrue(KernelCompiler.lanes(KernelCompiler.compile(dev.polygpu.device.cpu.kernel.front.FrontEnd
                    .compile(src, "t.cu").kernel(name))) > 0, "seed " + seed + ": " + src);
            int block = new int[] {64, 96, 100, 256}[r.nextInt(4)];
            int grid = 1 + r.nextInt(4);
            int n = 1 + r.nextInt(grid * block);
            int total = grid * block;
            cases.add(new OracleCase(name, src, name, LaunchConfig.of(grid, block), List.of(
                    dbl ? randomDoubles("o", r, total) : specialFloats("o", r, total),
                    dbl ? randomDoubles("p", r, total) : specialFloats("p", r, total),
                    dbl ? randomDoubles("q", r, total + 1) : specialFloats("q", r, total + 1),
                    dbl ? doubleScalar(r.nextGaussian()) : floatScalar((float) r.nextGaussian()),
                    dbl ? doubleScalar(-1.5) : floatScalar(0.25f),
                    OracleTests.intScalar(n))));
        }
        OracleTests.assertAllEqual(cases, seed, ANY_NAN);
    }

    static String expression(Random r, List<String> vars, int depth) {
        if (depth == 0 || r.nextInt(4) == 0) {
            return switch (r.nextInt(6)) {
                case 0 -> "1.5f";
                case 1 -> "(s * k - 2.0f)";
                default -> vars.get(r.nextInt(vars.size()));
            };
        }
        if (r.nextInt(6) == 0) {
            return "-(" + expression(r, vars, depth - 1) + ")";
        }
        if (r.nextInt(6) == 0) {
            String[] cmp = {"<", "<=", ">", ">=", "==", "!="};
            return "(" + expression(r, vars, depth - 1) + ' ' + cmp[r.nextInt(cmp.length)] + ' '
                    + expression(r, vars, depth - 1) + " ? " + expression(r, vars, depth - 1) + " : "
                    + expression(r, vars, depth - 1) + ")";
        }
        String[] ops = {"+", "-", "*", "/"};
        return "(" + expression(r, vars, depth - 1) + ' ' + ops[r.nextInt(4)] + ' ' + expression(r, vars, depth - 1)
                + ")";
    }

    @Test
    void arraysThatAreTheSameBufferGiveEachThreadItsOwnElement() {
        try (CpuDevice dev = new CpuDevice(1)) {
            float[] v = new float[1000];
            for (int k = 0; k < v.length; k++) {
                v[k] = k * 0.5f - 100f;
            }
            UnifiedBuffer y = floats(dev, v);
            var s = dev.defaultStream();
            long before = LaneRange.threadsRun();
            s.launch(dev.compile(named(SAXPY, "sx"), "s.cu").function("sx"), LaunchConfig.of(4, 256),
                    KernelArgs.builder().pointer(y).pointer(y).f32(3f).i32(1000).build());
            s.synchronize();
            int lanes = VectorApi.lanes(CType.Prim.FLOAT);
            // three whole blocks, and of the last one's 232 threads below the bound as many as fill vectors
            assertEquals(3 * 256 + 232 / lanes * lanes, LaneRange.threadsRun() - before);
            float[] want = new float[v.length];
            for (int k = 0; k < v.length; k++) {
                want[k] = 3f * v[k] + v[k];
            }
            assertArrayEquals(want, readFloats(y, v.length));
        }
    }

    /**
     * Arrays that overlap a few elements apart: the lanes would let a thread read what a later one of its group
     * stores (or the other way round), so the block runs thread by thread, in the scalar loop's order.
     */
    @Test
    void arraysThatOverlapRunThreadByThread() {
        try (CpuDevice dev = new CpuDevice(1)) {
            for (int shift : new int[] {-3, 3}) {
                float[] v = new float[300];
                for (int k = 0; k < v.length; k++) {
                    v[k] = k + 1;
                }
                UnifiedBuffer buf = floats(dev, v);
                long yAt = shift < 0 ? 4L * -shift : 0;
                long xAt = shift < 0 ? 0 : 4L * shift;
                var s = dev.defaultStream();
                long before = LaneRange.threadsRun();
                s.launch(dev.compile(named(SAXPY, "ov"), "s.cu").function("ov"), LaunchConfig.of(1, 256),
                        KernelArgs.builder().pointer(buf, yAt).pointer(buf, xAt).f32(2f).i32(256).build());
                s.synchronize();
                assertEquals(0, LaneRange.threadsRun() - before);
                float[] want = v.clone();
                for (int t = 0; t < 256; t++) {
                    int yi = (int) (yAt / 4) + t;
                    int xi = (int) (xAt / 4) + t;
                    want[yi] = 2f * want[xi] + want[yi];
                }
                assertArrayEquals(want, readFloats(buf, v.length), "shift " + shift);
            }
        }
    }

    @Test
    void aFaultNamesTheFirstThreadPastTheBuffer() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer y = floats(dev, new float[512]);
            UnifiedBuffer x = floats(dev, new float[300]);
            var s = dev.defaultStream();
            s.launch(dev.compile(named(SAXPY, "oob"), "s.cu").function("oob"), LaunchConfig.of(2, 256),
                    KernelArgs.builder().pointer(y).pointer(x).f32(1f).i32(512).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertContains("blockIdx (1,0,0) threadIdx (44,0,0)", e.getMessage());
            assertContains("out-of-bounds read of 4 bytes at index 300 of argument 'x'", e.getMessage());
        }
    }

    @Test
    void anElementEveryThreadReadsPastItsBufferFaultsInTheFirstThread() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer x = floats(dev, new float[256]);
            UnifiedBuffer lo = floats(dev, new float[] {0f});
            UnifiedBuffer hi = floats(dev, new float[] {1f});
            UnifiedBuffer w = floats(dev, new float[5]);
            var s = dev.defaultStream();
            s.launch(dev.compile(named(EXTEND, "ext"), "e.cu").function("ext"), LaunchConfig.of(1, 256),
                    KernelArgs.builder().pointer(x).pointer(lo).pointer(hi).pointer(w).i32(256).i32(4).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertContains("blockIdx (0,0,0) threadIdx (0,0,0)", e.getMessage());
            assertContains("out-of-bounds read of 4 bytes at index 5 of argument 'w'", e.getMessage());
        }
    }

    @Test
    void aStoreThroughAReadOnlyParameterFaultsAsBefore() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer y = floats(dev, new float[256]);
            UnifiedBuffer x = floats(dev, new float[256]);
            var s = dev.defaultStream();
            s.launch(dev.compile(named(SAXPY, "ro"), "s.cu").function("ro"), LaunchConfig.of(1, 256),
                    KernelArgs.builder().readOnlyPointer(y).pointer(x).f32(1f).i32(256).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertContains("threadIdx (0,0,0)", e.getMessage());
            assertContains("'y'", e.getMessage());
        }
    }

    static OracleArg.Buffer specialFloats(String name, Random r, int n) {
        return OracleTests.edgeValues(name, OracleType.F32, r, n);
    }

    static OracleArg.Buffer randomDoubles(String name, Random r, int n) {
        return OracleTests.edgeValues(name, OracleType.F64, r, n);
    }

    static OracleArg.Scalar floatScalar(float v) {
        return new OracleArg.Scalar(OracleType.F32, Float.floatToRawIntBits(v));
    }

    static OracleArg.Scalar doubleScalar(double v) {
        return new OracleArg.Scalar(OracleType.F64, Double.doubleToRawLongBits(v));
    }
}
