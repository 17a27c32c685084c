package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.codegen.NamedKernels.compile;
import static dev.polygpu.device.cpu.kernel.codegen.NamedKernels.named;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.KernelTestSupport;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Loops of a barrier region that run iteration-major ({@link Interchange}), checked against nvcc's PTX of the same
 * source on the PTX interpreter: per-thread trip counts that differ (none for some threads, many for others),
 * loops nested in the body, variables live after the loop and across barriers, threads that returned before a
 * sweep, 2D blocks, local arrays and assigned parameters, and random loops of one shape; a fault in a sweep names
 * its thread, and a sweep that never ends is stopped.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InterchangedLoopsTest {
    private static final long SEED = 0x1c4a46eL;

    /** A grid-stride loop whose bound each thread loads, with an inner loop; its results live past a barrier. */
    private static final String TRIPS = """
            extern "C" __global__ void NAME(const float *in, float *out, const int *trip, int n) {
                __shared__ float s[256];
                int tid = threadIdx.x;
                int gid = blockIdx.x * blockDim.x + tid;
                float sum = 0.0f;
                int count = 0;
                int lim = min(n, trip[gid]);
                for (int i = gid; i < lim; i += blockDim.x * gridDim.x) {
                    float t = in[i];
                    for (int k = 0; k < (i & 3); k++) {
                        t = t * 0.5f + (float) k;
                    }
                    sum += t;
                    count++;
                }
                s[tid] = sum + (float) count;
                __syncthreads();
                out[gid] = s[(tid + 1) % blockDim.x] + (float) count;
            }
            """;

    /** A block-stride while loop in a 2D block, after some threads returned, between two barriers. */
    private static final String WHILE_2D = """
            extern "C" __global__ void NAME(const int *in, int *out, int n) {
                __shared__ int s[128];
                int t = threadIdx.y * blockDim.x + threadIdx.x;
                int nt = blockDim.x * blockDim.y;
                s[t] = -1;
                __syncthreads();
                if (t % 7 == 6) {
                    return;
                }
                int acc = threadIdx.y;
                int i = blockIdx.x * nt + t;
                while (i < n) {
                    acc += in[i] * (int) (threadIdx.x + 1);
                    i += nt * gridDim.x;
                }
                s[t] = acc;
                __syncthreads();
                out[blockIdx.x * nt + t] = s[(t + 1) % nt] * 3 + acc + i;
            }
            """;

    /** Two sweeps in one region, the second reading what the first left, in a uniform loop with a barrier. */
    private static final String TWO = """
            extern "C" __global__ void NAME(const int *in, int *out, int n, int rounds) {
                __shared__ int s[64];
                int tid = threadIdx.x;
                int acc = 0;
                for (int r = 0; r < rounds; r++) {
                    int lo = 0x7fffffff;
                    for (int i = tid + r; i < n; i += blockDim.x) {
                        lo = min(lo, in[i] ^ r);
                    }
                    int hi = lo;
                    for (int i = n - 1 - tid; i >= 0; i -= 2 * blockDim.x) {
                        hi = max(hi, in[i] + lo);
                    }
                    s[tid] = hi;
                    __syncthreads();
                    acc += s[(tid + r) % blockDim.x];
                    __syncthreads();
                }
                out[blockIdx.x * blockDim.x + tid] = acc;
            }
            """;

    /** A local array, an assigned parameter and an unsigned index, all used in the loop and live after it. */
    private static final String LOCALS = """
            extern "C" __global__ void NAME(const int *in, int *out, int n, int k) {
                __shared__ int s[64];
                int tid = threadIdx.x;
                int hist[4] = {0, 0, 0, 0};
                for (unsigned int i = tid; i < (unsigned int) n; i += blockDim.x) {
                    hist[in[i] & 3] += 1;
                    k ^= in[i] << (i & 7);
                }
                s[tid] = hist[0] + 2 * hist[1] + 3 * hist[2] + 4 * hist[3];
                __syncthreads();
                out[blockIdx.x * blockDim.x + tid] = s[(tid + 5) % blockDim.x] * 10 + hist[tid & 3] + k;
            }
            """;

    @Test
    void theLoopsHereRunIterationMajor() {
        assertEquals(1, KernelCompiler.interchangedLoops(compile(TRIPS, "k")));
        assertEquals(1, KernelCompiler.interchangedLoops(compile(WHILE_2D, "k")));
        assertEquals(2, KernelCompiler.interchangedLoops(compile(TWO, "k")));
        assertEquals(1, KernelCompiler.interchangedLoops(compile(LOCALS, "k")));
    }

    @Test
    void interchangedLoopsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        Random r = new Random(SEED);
        List<OracleCase> cases = new ArrayList<>();
        int[][] shapes = {{64, 3, 1000}, {256, 2, 5000}, {32, 1, 7}};
        for (int[] sh : shapes) {
            int block = sh[0];
            int grid = sh[1];
            int n = sh[2];
            int[] trip = new int[block * grid];
            for (int t = 0; t < trip.length; t++) {
                // none for some threads, a few, or the whole input for others
                trip[t] = switch (r.nextInt(3)) {
                    case 0 -> 0;
                    case 1 -> r.nextInt(n + 1);
                    default -> n;
                };
            }
            String name = "trips" + block;
            cases.add(new OracleCase(name, named(TRIPS, name), name, LaunchConfig.of(grid, block),
                    List.of(OracleTests.randomFloats("in", r, n), OracleTests.randomFloats("out", r, block * grid),
                            new OracleArg.Buffer("trip", OracleType.I32, KernelTestSupport.littleEndianInts(trip), 0),
                            scalar(n))));
        }
        cases.add(new OracleCase("while2d", named(WHILE_2D, "while2d"), "while2d",
                new LaunchConfig(Dim3.of(3), new Dim3(16, 4, 1), 0),
                List.of(intBuffer("in", r, 900), intBuffer("out", r, 3 * 64), scalar(900))));
        cases.add(new OracleCase("two", named(TWO, "two"), "two", LaunchConfig.of(2, 64),
                List.of(intBuffer("in", r, 700), intBuffer("out", r, 128), scalar(700), scalar(3))));
        cases.add(new OracleCase("locals", named(LOCALS, "locals"), "locals", LaunchConfig.of(2, 64),
                List.of(intBuffer("in", r, 1000), intBuffer("out", r, 128), scalar(1000), scalar(0x5a5a))));
        OracleTests.assertAllEqual(cases, SEED);
    }

    /**
     * Random kernels of one shape, a strided loop between two barriers, with its start, bound, step and body
     * drawn from small menus: threads that return before the loop, bounds that differ per thread, loops nested in
     * the body, writes to the thread's own output slot.
     */
    @Test
    void randomStridedLoopsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED + 1;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        for (int c = 0; c < 16; c++) {
            String name = "rnd" + c;
            String src = randomKernel(r, name);
            assertEquals(1, KernelCompiler.interchangedLoops(KernelCompiler.compile(
                    FrontEnd.compile(src, "t.cu").kernel(name))), "seed " + seed + ": " + src);
            int block = r.nextBoolean() ? 64 : 96;
            int grid = 1 + r.nextInt(3);
            int n = 50 + r.nextInt(1500);
            cases.add(new OracleCase(name, src, name, LaunchConfig.of(grid, block),
                    List.of(intBuffer("in", r, n), intBuffer("out", r, block * grid), scalar(n),
                            scalar(1 + r.nextInt(100)))));
        }
        OracleTests.assertAllEqual(cases, seed);
    }

    private static String randomKernel(Random r, String name) {
        String[] starts = {"gid", "tid", "tid * 3", "(n - 1 - gid) & 511"};
        String[] bounds = {"n", "n - tid * 5", "(int) ((unsigned int) in[gid % n] & 1023u)", "(tid % 3) * 200",
            "min(n, 300)"};
        String[] steps = {"blockDim.x", "blockDim.x * gridDim.x", "st", "2 * blockDim.x + 1"};
        String[] bodies = {
            "acc += (unsigned int) in[i];",
            "acc ^= (unsigned int) in[i] << (i & 7);",
            "if (in[i] & 1) { acc += (unsigned int) i; } else { acc -= 1u; }",
            "for (int k = 0; k < (i & 3); k++) { acc = acc * 3u + (unsigned int) in[(i + k) % n]; }",
            "out[gid] += in[i] & 255;",
            "int j = i; while (j > i - 3 && j > 0) { acc += (unsigned int) in[j] + (unsigned int) in[i]; j--; }",
        };
        StringBuilder body = new StringBuilder();
        int m = 1 + r.nextInt(3);
        for (int k = 0; k < m; k++) {
            body.append("        { ").append(bodies[r.nextInt(bodies.length)]).append(" }\n");
        }
        String start = starts[r.nextInt(starts.length)];
        String bound = bounds[r.nextInt(bounds.length)];
        String step = steps[r.nextInt(steps.length)];
        String loop = r.nextBoolean()
                ? "int i = " + start + ";\n    while (i < lim) {\n" + body + "        i += " + step + ";\n    }"
                : "for (int i = " + start + "; i < lim; i += " + step + ") {\n" + body + "    }";
        String exit = r.nextBoolean() ? "if (tid % 9 == 8) { return; }" : "";
        return "extern \"C\" __global__ void " + name + "(const int *in, int *out, int n, int st) {\n"
                + "    __shared__ unsigned int s[96];\n"
                + "    int tid = threadIdx.x;\n"
                + "    int gid = blockIdx.x * blockDim.x + tid;\n"
                + "    s[tid] = 7u;\n"
                + "    __syncthreads();\n"
                + "    " + exit + "\n"
                + "    unsigned int acc = (unsigned int) gid;\n"
                + "    int lim = min(n, " + bound + ");\n"
                + "    " + loop + "\n"
                + "    s[tid] = acc;\n"
                + "    __syncthreads();\n"
                + "    out[gid] = (int) (s[(tid + 1) % blockDim.x] + acc);\n"
                + "}\n";
    }

    @Test
    void aFaultInAnInterchangedLoopNamesTheThreadThatMadeIt() {
        // Thread 37 of block 1 reads past the input at its second iteration (i = 101); no other thread does.
        String src = """
                __global__ void oob(const int *in, int *x, int n) {
                    __shared__ int s[64];
                    int acc = 0;
                    for (int i = threadIdx.x; i < n; i += blockDim.x) {
                        acc += in[i + (blockIdx.x == 1 && threadIdx.x == 37 && i > 100 ? n : 0)];
                    }
                    s[threadIdx.x] = acc;
                    __syncthreads();
                    x[threadIdx.x] = s[0];
                }
                """;
        assertEquals(1, KernelCompiler.interchangedLoops(
                KernelCompiler.compile(FrontEnd.compile(src, "t.cu").kernel("oob"))));
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer in = ints(dev, new int[192]);
            UnifiedBuffer x = ints(dev, new int[64]);
            var s = dev.defaultStream();
            s.launch(dev.compile(src, "oob.cu").function("oob"), LaunchConfig.of(2, 64),
                    KernelArgs.builder().pointer(in).pointer(x).i32(192).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertContains("blockIdx (1,0,0) threadIdx (37,0,0)", e.getMessage());
            assertContains("(line 5, column", e.getMessage());
            assertContains("out-of-bounds read of 4 bytes at index 293 of argument 'in'", e.getMessage());
        }
    }

    @Test
    void anInterchangedLoopThatNeverEndsIsStopped() {
        // With a grid of 3 blocks the step gridDim.x - 3 is zero: every thread's loop runs forever.
        String src = """
                __global__ void spinSweep(int *flag) {
                    __shared__ int s[64];
                    flag[0] = 1;
                    for (int i = threadIdx.x; i < 64; i += gridDim.x - 3) {
                        s[i] += i;
                    }
                    __syncthreads();
                    flag[1] = s[threadIdx.x];
                }
                """;
        assertEquals(1, KernelCompiler.interchangedLoops(
                KernelCompiler.compile(FrontEnd.compile(src, "t.cu").kernel("spinSweep"))));
        try (CpuDevice dev = new CpuDevice(2)) {
            dev.setKernelTimeout(Duration.ofMillis(200));
            UnifiedBuffer flag = ints(dev, new int[2]);
            var s = dev.defaultStream();
            s.launch(dev.compile(src, "spin.cu").function("spinSweep"), LaunchConfig.of(3, 64),
                    KernelArgs.builder().pointer(flag).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertEquals(CudaError.LAUNCH_TIMEOUT, e.error(), e.getMessage());
            assertContains("kernel 'spinSweep'", e.getMessage());
        }
    }

    private static OracleArg.Buffer intBuffer(String name, Random r, int n) {
        return OracleTests.randomInts(name, r, n);
    }

    private static OracleArg.Scalar scalar(int v) {
        return OracleTests.intScalar(v);
    }
}
