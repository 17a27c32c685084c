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
import dev.polygpu.device.cpu.kernel.CompiledKernel.Form;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleTests;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Kernels with warp intrinsics in the barrier-region form (warp-level regions: {@link RegionForm.WarpOp},
 * {@link RegionForm.Masked}, {@link RegionForm.PerWarp}), checked against nvcc's PTX of the same source on the PTX
 * interpreter: both sides of thread-dependent {@code if}s meeting at shuffles, votes and reductions with the masks
 * of their own lanes, helpers written out where they are called, {@code __activemask} after some lanes returned,
 * {@code __syncwarp} exchanges through shared memory, 2D blocks whose warps span rows, a strided loop and the lock
 * step of {@code volatile} code inside a branch; faults name the lane a mask names wrongly, and a uniform loop
 * around a shuffle that never ends is stopped.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WarpRegionsTest {
    private static final long SEED = 0x3a7c_5e1dL;

    /** Warp-uniform and lane-divergent branches, each side meeting at its own warp intrinsics. */
    private static final String SIDES = """
            extern "C" __global__ void NAME(const int *in, int *out, int n) {
                int tid = threadIdx.x;
                int gid = blockIdx.x * blockDim.x + tid;
                int lane = tid & 31;
                int v = gid < n ? in[gid] : 0;
                if ((tid >> 5) % 2 == 0) {
                    for (int o = 16; o > 0; o >>= 1) {
                        v += __shfl_xor_sync(0xffffffffu, v, o);
                    }
                } else {
                    unsigned int b = __ballot_sync(0xffffffffu, v & 1);
                    v = __popc(b) * 1000 + __shfl_up_sync(0xffffffffu, v, 3);
                }
                if (lane < 16) {
                    v = __shfl_down_sync(0x0000ffffu, v, 2, 16) + __any_sync(0x0000ffffu, v > 40);
                } else {
                    v = __reduce_add_sync(0xffff0000u, v) - __all_sync(0xffff0000u, v > 0);
                }
                out[gid] = v;
            }
            """;

    /** The block reduction of GrCUDA-style code: a helper written out twice, the second time in warp 0 only. */
    private static final String REDUCE = """
            __device__ float warp_sum(float v) {
                for (int o = 16; o > 0; o /= 2) {
                    v += __shfl_down_sync(0xffffffffu, v, o);
                }
                return v;
            }
            extern "C" __global__ void NAME(const float *in, float *partial, int n) {
                __shared__ float sums[32];
                float v = 0.0f;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    v += in[i];
                }
                v = warp_sum(v);
                int lane = threadIdx.x % 32;
                int warp = threadIdx.x / 32;
                if (lane == 0) {
                    sums[warp] = v;
                }
                __syncthreads();
                if (warp == 0) {
                    v = lane < blockDim.x / 32 ? sums[lane] : 0.0f;
                    v = warp_sum(v);
                    if (lane == 0) {
                        partial[blockIdx.x] = v;
                    }
                }
            }
            """;

    /** Lanes past the end return; the others find each other with __activemask and read only those lanes. */
    private static final String ACTIVE = """
            extern "C" __global__ void NAME(const int *in, int *out, int n) {
                int gid = blockIdx.x * blockDim.x + threadIdx.x;
                int lane = threadIdx.x & 31;
                if (gid >= n) {
                    return;
                }
                unsigned int m = __activemask();
                int s = in[gid];
                for (int o = 1; o < 32; o <<= 1) {
                    int u = __shfl_xor_sync(m, s, o);
                    if ((m >> (lane ^ o)) & 1u) {
                        s += u;
                    }
                }
                out[gid] = s * 64 + __popc(m);
            }
            """;

    /** A 2D block whose warps span rows: a warp scan, warp totals through shared memory, a second scan in warp 0. */
    private static final String SCAN_2D = """
            extern "C" __global__ void NAME(const int *in, int *out) {
                __shared__ int totals[32];
                __shared__ int buf[256];
                int t = threadIdx.y * blockDim.x + threadIdx.x;
                int nt = blockDim.x * blockDim.y;
                int lane = t & 31;
                int warp = t >> 5;
                int v = in[blockIdx.x * nt + t];
                for (int d = 1; d < 32; d <<= 1) {
                    int up = __shfl_up_sync(0xffffffffu, v, d);
                    if (lane >= d) {
                        v += up;
                    }
                }
                buf[t] = v;
                __syncwarp();
                v += buf[t ^ 1] & 7;
                __syncwarp();
                if (lane == 31) {
                    totals[warp] = v;
                }
                __syncthreads();
                if (t < 32) {
                    int w = lane < nt / 32 ? totals[lane] : 0;
                    for (int d = 1; d < 32; d <<= 1) {
                        int up = __shfl_up_sync(0xffffffffu, w, d);
                        if (lane >= d) {
                            w += up;
                        }
                    }
                    totals[lane] = w;
                }
                __syncthreads();
                if (warp > 0) {
                    v += totals[warp - 1];
                }
                out[blockIdx.x * nt + t] = v;
            }
            """;

    /** In a branch: a block-stride loop (run iteration-major), then a shuffle among the branch's lanes. */
    private static final String LOOP_IN_BRANCH = """
            extern "C" __global__ void NAME(const int *in, int *out, int n) {
                int tid = threadIdx.x;
                int lane = tid & 31;
                int v = tid;
                if (lane < 8) {
                    int acc = 0;
                    for (int i = tid; i < n; i += blockDim.x) {
                        acc += in[i] ^ lane;
                    }
                    v = __shfl_sync(0x000000ffu, acc, (lane + 3) & 7, 8) + acc;
                } else {
                    v = __shfl_sync(0xffffff00u, v * 3, 8 + (lane & 3));
                }
                out[blockIdx.x * blockDim.x + tid] = v;
            }
            """;

    /** The lock step of volatile warp-synchronous code in the first warp, after a barrier. */
    private static final String VOLATILE = """
            extern "C" __global__ void NAME(const int *in, int *out) {
                volatile __shared__ int s[64];
                int tid = threadIdx.x;
                s[tid] = in[blockIdx.x * 64 + tid];
                __syncthreads();
                if (tid < 32) {
                    s[tid] += s[tid + 32];
                    s[tid] += s[tid + 16];
                    s[tid] += s[tid + 8];
                    s[tid] += s[tid + 4];
                    s[tid] += s[tid + 2];
                    s[tid] += s[tid + 1];
                }
                __syncthreads();
                out[blockIdx.x * 64 + tid] = s[0] * 100 + s[tid];
            }
            """;

    /**
     * Uniform loops bounded by pure intrinsics and a pure helper, around shuffles and a barrier; a helper that
     * returns a shuffle's value.
     */
    private static final String PURE_BOUNDS = """
            __device__ int rounds(int n) {
                int r = 0;
                while (n > 1) {
                    n >>= 1;
                    r++;
                }
                return r;
            }
            __device__ int pair_sum(int v) {
                return v + __shfl_xor_sync(0xffffffffu, v, 1);
            }
            extern "C" __global__ void NAME(const int *in, int *out, int n) {
                __shared__ int s[128];
                int tid = threadIdx.x;
                int v = pair_sum(in[blockIdx.x * blockDim.x + tid]);
                for (int k = 0; k < min(rounds(n), 5); k++) {
                    v += __shfl_xor_sync(0xffffffffu, v, 1 << k) * (k + 1);
                    s[tid] = v;
                    __syncthreads();
                    v ^= s[(tid + 33) % blockDim.x];
                    __syncthreads();
                }
                out[blockIdx.x * blockDim.x + tid] = v + __popc(max(n, 3));
            }
            """;

    @Test
    void theseKernelsTakeTheRegionForm() {
        for (String src : List.of(SIDES, REDUCE, ACTIVE, SCAN_2D, LOOP_IN_BRANCH, VOLATILE, PURE_BOUNDS)) {
            assertEquals(Form.BARRIER_REGIONS, compile(src, "k").form(), src);
        }
        assertEquals(1, KernelCompiler.interchangedLoops(compile(LOOP_IN_BRANCH, "k")));
    }

    @Test
    void warpRegionsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        Random r = new Random(SEED);
        List<OracleCase> cases = new ArrayList<>();
        cases.add(intCase("sides", SIDES, LaunchConfig.of(3, 128), r, 3 * 128 - 50, 3 * 128));
        cases.add(intCase("active", ACTIVE, LaunchConfig.of(2, 96), r, 150, 192));
        cases.add(intCase("loopInBranch", LOOP_IN_BRANCH, LaunchConfig.of(2, 64), r, 1000, 128));
        cases.add(new OracleCase("reduce", named(REDUCE, "reduce"), "reduce", LaunchConfig.of(4, 256),
                List.of(OracleTests.randomFloats("in", r, 5000), OracleTests.randomFloats("partial", r, 4),
                        OracleTests.intScalar(5000))));
        cases.add(new OracleCase("scan2d", named(SCAN_2D, "scan2d"), "scan2d",
                new LaunchConfig(Dim3.of(2), new Dim3(24, 8, 1), 0),
                List.of(OracleTests.randomInts("in", r, 2 * 192), OracleTests.randomInts("out", r, 2 * 192))));
        cases.add(new OracleCase("pureBounds", named(PURE_BOUNDS, "pureBounds"), "pureBounds",
                LaunchConfig.of(2, 128), List.of(OracleTests.randomInts("in", r, 256), OracleTests.randomInts("out", r,
                        256), OracleTests.intScalar(100))));
        cases.add(new OracleCase("vol", named(VOLATILE, "vol"), "vol", LaunchConfig.of(3, 64),
                List.of(OracleTests.randomInts("in", r, 3 * 64), OracleTests.randomInts("out", r, 3 * 64))));
        OracleTests.assertAllEqual(cases, SEED);
    }

    /**
     * Random kernels of one shape: a few steps drawn from a menu of warp-level code that every warp runs with full
     * participation (shuffle loops, votes and reductions on both sides of warp-uniform and lane-divergent
     * {@code if}s, a helper written out, {@code __syncwarp} and barrier exchanges through shared memory, a strided
     * loop in a branch, {@code __activemask} in a branch), each kernel required to take the region form.
     */
    @Test
    void randomWarpLevelKernelsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED + 1;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        for (int c = 0; c < 14; c++) {
            String name = "rw" + c;
            String src = randomKernel(r, name);
            assertEquals(Form.BARRIER_REGIONS, compile(src, name).form(), "seed " + seed + ": " + src);
            int block = 32 * (2 + r.nextInt(3));
            int grid = 1 + r.nextInt(3);
            int n = block * grid;
            cases.add(new OracleCase(name, src, name, LaunchConfig.of(grid, block),
                    List.of(OracleTests.randomInts("in", r, n), OracleTests.randomInts("out", r, n),
                            OracleTests.intScalar(n))));
        }
        OracleTests.assertAllEqual(cases, seed);
    }

    private static String randomKernel(Random r, String name) {
        String[] steps = {
            "for (int o = 16; o > 0; o >>= 1) { v += __shfl_xor_sync(0xffffffffu, v, o); }",
            "if (warp % 2 == 0) { v = __shfl_down_sync(0xffffffffu, v, 1) + 1; }"
                    + " else { v ^= (int) __ballot_sync(0xffffffffu, v & 1); }",
            "if (lane < 16) { v = __reduce_add_sync(0x0000ffffu, v) & 0xffff; }"
                    + " else { v = __shfl_up_sync(0xffff0000u, v, 2, 16) - lane; }",
            "v += __any_sync(0xffffffffu, v > 900) + 2 * __all_sync(0xffffffffu, v < 100000);",
            "s[tid] = v; __syncthreads(); v += s[(tid + 37) % blockDim.x] & 255; __syncthreads();",
            "s[tid] = v; __syncwarp(); v -= s[tid ^ 3]; __syncwarp();",
            "if (lane < 8) { int a = 0; for (int i = tid; i < n; i += blockDim.x) { a += in[i] & 15; } v += a; }",
            "if (warp == 0) { for (int o = 1; o < 32; o <<= 1) { int u = __shfl_up_sync(0xffffffffu, v, o);"
                    + " if (lane >= o) { v += u & 1023; } } }",
            "v = wsum(v & 4095);",
            "if (lane % 3 == 0) { unsigned int m = __activemask(); v += __popc(m) * 7; }",
            "v = (v & 0xfffff) + __shfl_sync(0xffffffffu, v, (lane * 5 + 1) & 31) % 97;",
        };
        StringBuilder body = new StringBuilder();
        int m = 3 + r.nextInt(3);
        for (int k = 0; k < m; k++) {
            body.append("    ").append(steps[r.nextInt(steps.length)]).append('\n');
        }
        return "__device__ int wsum(int x) {\n"
                + "    for (int o = 16; o > 0; o /= 2) { x += __shfl_down_sync(0xffffffffu, x, o); }\n"
                + "    return x;\n"
                + "}\n"
                + "extern \"C\" __global__ void " + name + "(const int *in, int *out, int n) {\n"
                + "    __shared__ int s[128];\n"
                + "    int tid = threadIdx.x;\n"
                + "    int lane = tid & 31;\n"
                + "    int warp = tid >> 5;\n"
                + "    int v = in[blockIdx.x * blockDim.x + tid];\n"
                + body
                + "    out[blockIdx.x * blockDim.x + tid] = v;\n"
                + "}\n";
    }

    private static OracleCase intCase(String name, String source, LaunchConfig config, Random r, int n, int out) {
        List<OracleArg> args = List.of(OracleTests.randomInts("in", r, Math.max(n, 1)),
                OracleTests.randomInts("out", r, out), OracleTests.intScalar(n));
        return new OracleCase(name, named(source, name), name, config, args);
    }

    @Test
    void aFullMaskAfterLanesReturnedNamesAnExitedLane() {
        String src = """
                __global__ void shflAfterReturn(const int *in, int *out) {
                    int lane = threadIdx.x & 31;
                    if (threadIdx.x >= 40) {
                        return;
                    }
                    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, in[threadIdx.x], 1);
                }
                """;
        assertEquals(Form.BARRIER_REGIONS, KernelCompiler.compile(FrontEnd.compile(src, "t.cu")
                .kernel("shflAfterReturn")).form());
        KernelFaultException e = launchFault(src, "shflAfterReturn", 64);
        assertEquals(CudaError.ILLEGAL_INSTRUCTION, e.error(), e.getMessage());
        assertContains("threadIdx (32,0,0)", e.getMessage());
        assertContains("__shfl_down_sync: mask 0xffffffff names lane 8 (threadIdx (40,0,0)), which has already exited",
                e.getMessage());
        assertContains("(line 6, column", e.getMessage());
    }

    @Test
    void aMaskNamingALaneOnTheOtherSideOfABranchIsAFault() {
        String src = """
                __global__ void otherSide(const int *in, int *out) {
                    int v = in[threadIdx.x];
                    if (threadIdx.x < 16) {
                        v = __shfl_xor_sync(0xffffffffu, v, 1);
                    }
                    out[threadIdx.x] = v;
                }
                """;
        assertEquals(Form.BARRIER_REGIONS, KernelCompiler.compile(FrontEnd.compile(src, "t.cu")
                .kernel("otherSide")).form());
        KernelFaultException e = launchFault(src, "otherSide", 32);
        assertContains("__shfl_xor_sync: mask 0xffffffff names lane 16 (threadIdx (16,0,0)), which does not take"
                + " part: it did not take the branch that holds this call", e.getMessage());
    }

    private static KernelFaultException launchFault(String src, String name, int block) {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer in = ints(dev, new int[block]);
            UnifiedBuffer out = ints(dev, new int[block]);
            var s = dev.defaultStream();
            s.launch(dev.compile(src, name + ".cu").function(name), LaunchConfig.of(1, block),
                    KernelArgs.builder().pointer(in).pointer(out).build());
            return assertThrows(KernelFaultException.class, s::synchronize);
        }
    }

    /**
     * A kernel that prints runs its warp-level stretches warp by warp, so its lines come in the cooperative
     * scheduler's order: the same kernel with a {@code __nanosleep(0)} at its start keeps the cooperative form and
     * must print the same lines in the same order (warp 0's before and after its shuffles, then warp 1's).
     */
    @Test
    void aKernelThatPrintsKeepsTheCooperativeOrderOfItsLines() {
        String body = """
                    int v = threadIdx.x * 3;
                    if (threadIdx.x % 8 == 0) {
                        printf("before %d %d\\n", threadIdx.x, v);
                    }
                    for (int o = 16; o > 0; o >>= 1) {
                        v += __shfl_xor_sync(0xffffffffu, v, o);
                    }
                    if (threadIdx.x % 8 == 1) {
                        printf("after %d %d\\n", threadIdx.x, v);
                    }
                    __syncthreads();
                    if (threadIdx.x % 16 == 2) {
                        printf("end %d\\n", threadIdx.x);
                    }
                }
                """;
        String regions = "__global__ void printing(int *x) {\n" + body;
        String cooperative = "__global__ void printing(int *x) {\n    __nanosleep(0);\n" + body;
        assertEquals(Form.BARRIER_REGIONS, KernelCompiler.compile(FrontEnd.compile(regions, "t.cu")
                .kernel("printing")).form());
        assertEquals(Form.COOPERATIVE, KernelCompiler.compile(FrontEnd.compile(cooperative, "t.cu")
                .kernel("printing")).form());
        String expected = printed(cooperative);
        assertContains("before 0 0\nbefore 8 24\nbefore 16 48\nbefore 24 72\nafter 1 1488\n", expected);
        assertEquals(expected, printed(regions));
    }

    private static String printed(String src) {
        java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
        try (CpuDevice dev = new CpuDevice(1)) {
            dev.setPrintfSink(sink);
            UnifiedBuffer x = ints(dev, new int[1]);
            var s = dev.defaultStream();
            s.launch(dev.compile(src, "p.cu").function("printing"), LaunchConfig.of(1, 64),
                    KernelArgs.builder().pointer(x).build());
            s.synchronize();
        }
        return sink.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    @Test
    void aUniformLoopAroundAShuffleThatNeverEndsIsStopped() {
        String src = """
                __global__ void spinShfl(int *flag, int k) {
                    int v = threadIdx.x;
                    flag[0] = 1;
                    for (int i = 0; i < 10; i += k) {
                        v = __shfl_xor_sync(0xffffffffu, v, 1) + 1;
                    }
                    flag[1] = v;
                }
                """;
        assertEquals(Form.BARRIER_REGIONS, KernelCompiler.compile(FrontEnd.compile(src, "t.cu")
                .kernel("spinShfl")).form());
        try (CpuDevice dev = new CpuDevice(2)) {
            dev.setKernelTimeout(Duration.ofMillis(200));
            UnifiedBuffer flag = ints(dev, new int[2]);
            var s = dev.defaultStream();
            s.launch(dev.compile(src, "spin.cu").function("spinShfl"), LaunchConfig.of(2, 64),
                    KernelArgs.builder().pointer(flag).i32(0).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertEquals(CudaError.LAUNCH_TIMEOUT, e.error(), e.getMessage());
        }
    }
}
