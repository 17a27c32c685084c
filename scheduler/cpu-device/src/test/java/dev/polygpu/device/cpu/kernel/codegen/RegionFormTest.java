package dev.polygpu.device.cpu.kernel.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.CompiledKernel.Form;
import dev.polygpu.device.cpu.kernel.KernelEngine;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.stream.Stream;

/**
 * Which kernels the engine compiles to the barrier-region form and which stay cooperative (a state machine): the
 * region form needs every {@code __syncthreads()} in block-uniform control flow and every warp intrinsic in control
 * flow that is uniform or, at most one thread-dependent {@code if} deep, uniform within that {@code if}'s side, and
 * no sleep or clock. BarrierRegionsTest, InterchangedLoopsTest and WarpRegionsTest check that the kernels that take
 * it run right.
 */
class RegionFormTest {

    private static CompiledKernel compile(String body) {
        String src = "__global__ void k(float *x, const float *in, int n, int k2) {\n"
                + "    __shared__ float s[1024];\n    int tid = threadIdx.x;\n" + body + "\n}";
        return KernelCompiler.compile(FrontEnd.compile(src, "t.cu").kernel("k"));
    }

    private static Form form(String body) {
        return compile(body).form();
    }

    static Stream<Arguments> kernels() {
        return Stream.of(
                Arguments.of("no barrier", Form.THREAD_LOOP, "x[tid] = 1;"),
                Arguments.of("barrier at top level", Form.BARRIER_REGIONS,
                        "s[tid] = in[tid]; __syncthreads(); x[tid] = s[blockDim.x - 1 - tid];"),
                Arguments.of("tree reduction in a uniform halving loop", Form.BARRIER_REGIONS, """
                        s[tid] = in[blockIdx.x * blockDim.x + tid]; __syncthreads();
                        for (unsigned int h = blockDim.x / 2; h > 0; h >>= 1) {
                            if (tid < h) s[tid] += s[tid + h];
                            __syncthreads();
                        }
                        if (tid == 0) x[blockIdx.x] = s[0];"""),
                Arguments.of("early return before a barrier", Form.BARRIER_REGIONS,
                        "if (tid >= n) return; s[tid] = in[tid]; __syncthreads(); x[tid] = s[n - 1 - tid];"),
                Arguments.of("barrier in a uniform if", Form.BARRIER_REGIONS,
                        "s[tid] = 1; if (blockIdx.x % 2 == 0) { __syncthreads(); x[tid] = s[0]; }"),
                Arguments.of("uniform while and do loops", Form.BARRIER_REGIONS, """
                        int r = n; while (r > 0) { s[tid] = r; __syncthreads(); r--; }
                        int q = 0; do { __syncthreads(); q++; } while (q < 3);"""),
                Arguments.of("loop bound from a variable assigned twice alike", Form.BARRIER_REGIONS,
                        "int m = n; m = m + 1; for (int i = 0; i < m; i++) { __syncthreads(); }"),
                Arguments.of("loop bound from a variable declared once", Form.BARRIER_REGIONS,
                        "const int tiles = (n + 15) / 16; for (int t = 0; t < tiles; t++) { __syncthreads(); }"),
                Arguments.of("barrier under threadIdx", Form.COOPERATIVE,
                        "if (tid < 16) { __syncthreads(); } x[tid] = 1;"),
                Arguments.of("loop with a thread-dependent trip count", Form.COOPERATIVE,
                        "for (int i = 0; i < tid; i++) { __syncthreads(); }"),
                Arguments.of("loop bound loaded from memory", Form.COOPERATIVE,
                        "for (int i = 0; i < (int) in[0]; i++) { __syncthreads(); }"),
                Arguments.of("loop bound divided by a parameter", Form.COOPERATIVE,
                        "for (int i = 0; i < n / k2; i++) { __syncthreads(); }"),
                Arguments.of("thread-dependent break out of a loop with a barrier", Form.COOPERATIVE,
                        "for (int i = 0; i < n; i++) { if (tid == i) break; __syncthreads(); }"),
                Arguments.of("loop variable assigned in a region", Form.COOPERATIVE,
                        "for (int i = 0; i < n; i++) { __syncthreads(); if (tid == 0) i++; }"),
                Arguments.of("loop bound from a variable assigned under threadIdx", Form.COOPERATIVE,
                        "int m = n; if (tid == 0) m = 3; for (int i = 0; i < m; i++) { __syncthreads(); }"),
                Arguments.of("__syncthreads_count/_and/_or", Form.BARRIER_REGIONS,
                        "int c = __syncthreads_count(tid & 1); x[tid] = c + __syncthreads_and(tid) * 2"
                                + " + __syncthreads_or(in[tid] > 0.0f) * 4;"),
                Arguments.of("uniform control on a barrier's result", Form.BARRIER_REGIONS,
                        "int c = __syncthreads_count(tid < n); for (int i = 0; i < c; i++) { __syncthreads(); }"),
                Arguments.of("__syncthreads_or in a loop condition", Form.COOPERATIVE,
                        "int i = 0; while (__syncthreads_or(i < tid)) { i++; }"),
                Arguments.of("a shuffle beside a barrier", Form.BARRIER_REGIONS,
                        "float v = __shfl_down_sync(0xffffffff, in[tid], 1); __syncthreads(); x[tid] = v;"),
                Arguments.of("shuffles in a uniform loop", Form.BARRIER_REGIONS,
                        "float v = in[tid]; for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);"
                                + " x[tid] = v;"),
                Arguments.of("votes on both sides of a thread-dependent if", Form.BARRIER_REGIONS,
                        "int v = 0; if (tid % 2) { v = __ballot_sync(0x55555555u, in[tid] > 0); }"
                                + " else { v = __any_sync(0xaaaaaaaau, in[tid] > 0); } x[tid] = v;"),
                Arguments.of("__syncwarp and __activemask", Form.BARRIER_REGIONS,
                        "s[tid] = in[tid]; __syncwarp(); x[tid] = s[tid ^ 1] + __activemask();"),
                Arguments.of("a loop bound from min() of uniform values", Form.BARRIER_REGIONS,
                        "for (int k = 0; k < min(n, 8); k++) { s[tid] += 1; __syncthreads(); } x[tid] = s[tid];"),
                Arguments.of("a loop bound from min() with threadIdx", Form.COOPERATIVE,
                        "for (int k = 0; k < min(n, tid); k++) { s[tid] += 1; __syncthreads(); } x[tid] = s[tid];"),
                Arguments.of("a shuffle in a thread-dependent loop", Form.COOPERATIVE,
                        "float v = 0; for (int i = 0; i < tid; i++) v += __shfl_xor_sync(0xffffffff, v, 1);"
                                + " x[tid] = v;"),
                Arguments.of("a shuffle in an if nested in a thread-dependent if", Form.COOPERATIVE,
                        "float v = 0; if (tid < 16) { if (tid < 8) v = __shfl_sync(0xff, in[tid], 0); } x[tid] = v;"),
                Arguments.of("a barrier in a thread-dependent if with a shuffle", Form.COOPERATIVE,
                        "float v = 0; if (tid < 16) { v = __shfl_sync(0xffff, in[tid], 0); __syncthreads(); }"
                                + " x[tid] = v;"),
                Arguments.of("printf beside a shuffle in a thread-dependent if", Form.COOPERATIVE,
                        "float v = 0; if (tid < 16) { v = __shfl_sync(0xffff, in[tid], 0); }"
                                + " printf(\"%f\\n\", v);"),
                Arguments.of("printf beside a shuffle in uniform code", Form.BARRIER_REGIONS,
                        "float v = __shfl_sync(0xffffffff, in[tid], 0); printf(\"%f\\n\", v);"),
                Arguments.of("a parameter whose address is taken", Form.COOPERATIVE,
                        "int *pn = &n; *pn += 1; __syncthreads(); x[tid] = n;"),
                Arguments.of("__nanosleep beside a barrier", Form.COOPERATIVE,
                        "__nanosleep(100); __syncthreads(); x[tid] = 1;"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kernels")
    void kernelsGetTheFormTheirBarriersAllow(String what, Form expected, String body) {
        assertEquals(expected, form(body), what);
    }

    /** The grid-stride sum that precedes the barrier in each case below, with {@code LOOP} for its loop. */
    private static final String SUM = "float sum = 0; LOOP __syncthreads(); x[tid] = s[0] + sum;";

    static Stream<Arguments> loops() {
        String gid = "int i = blockIdx.x * blockDim.x + tid";
        return Stream.of(
                Arguments.of("grid-stride for", 1,
                        "for (" + gid + "; i < n; i += blockDim.x * gridDim.x) sum += in[i];"),
                Arguments.of("block-stride while", 1, "int i = tid; while (i < n) { sum += in[i]; i += blockDim.x; }"),
                Arguments.of("downward by a parameter", 1, "for (int i = n - tid; i >= 0; i -= k2) sum += in[i];"),
                Arguments.of("a large constant step", 1, "for (int i = tid; i < n; i += 256) sum += in[i];"),
                Arguments.of("a loop nested in the body", 1, "for (" + gid + "; i < n; i += blockDim.x * gridDim.x)"
                        + " { for (int k = 0; k < 4; k++) sum += in[i] * k; }"),
                Arguments.of("a break out of a nested loop", 1, "for (int i = tid; i < n; i += blockDim.x)"
                        + " { for (int k = 0; k < 4; k++) { if (in[k] < 0) break; sum += in[i]; } }"),
                Arguments.of("a small constant step", 0, "for (int i = tid * 8; i < n; i += 4) sum += in[i];"),
                Arguments.of("a unit step", 0, "for (int i = tid * 16; i < tid * 16 + 16; i++) sum += in[i];"),
                Arguments.of("a thread-dependent step", 0, "for (int i = tid; i < n; i += tid + 1) sum += in[i];"),
                Arguments.of("a uniform index", 0, "for (int i = blockIdx.x; i < n; i += gridDim.x) sum += in[i];"),
                Arguments.of("no access by the index", 0,
                        "for (int i = tid; i < n; i += blockDim.x) sum += in[tid];"),
                Arguments.of("an atomic in the body", 0,
                        "for (int i = tid; i < n; i += blockDim.x) atomicAdd(&x[0], in[i]);"),
                Arguments.of("printf in the body", 0,
                        "for (int i = tid; i < n; i += blockDim.x) { sum += in[i]; printf(\"%d\\n\", i); }"),
                Arguments.of("a break out of the loop", 0,
                        "for (int i = tid; i < n; i += blockDim.x) { if (in[i] < 0) break; sum += in[i]; }"),
                Arguments.of("a continue", 0,
                        "for (int i = tid; i < n; i += blockDim.x) { if (in[i] < 0) continue; sum += in[i]; }"),
                Arguments.of("a return in the body", 0,
                        "for (int i = tid; i < n; i += blockDim.x) { if (in[i] < 0) return; sum += in[i]; }"),
                Arguments.of("inside a thread-dependent if", 0,
                        "if (tid < 5) { for (int i = tid; i < n; i += blockDim.x) sum += in[i]; }"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("loops")
    void stridedLoopsOfARegionRunIterationMajor(String what, int expected, String loop) {
        CompiledKernel k = compile(SUM.replace("LOOP", loop));
        assertEquals(Form.BARRIER_REGIONS, k.form(), what);
        assertEquals(expected, KernelCompiler.interchangedLoops(k), what);
    }

    private static Form helperForm(String helper, String call) {
        return KernelCompiler.compile(FrontEnd.compile(helper + "\n__global__ void k(float *x) {"
                + " __shared__ float s[64]; s[threadIdx.x] = 1; float v = s[threadIdx.x]; " + call
                + " x[threadIdx.x] = v + s[0]; }", "t.cu").kernel("k")).form();
    }

    @org.junit.jupiter.api.Test
    void helpersWithBarriersOrWarpIntrinsicsAreWrittenOutWhereTheyAreCalled() {
        assertEquals(Form.BARRIER_REGIONS, helperForm("__device__ void sync() { __syncthreads(); }", "sync();"));
        assertEquals(Form.BARRIER_REGIONS, helperForm("__device__ float sum(float v) { for (int o = 16; o > 0;"
                + " o /= 2) v += __shfl_xor_sync(0xffffffff, v, o); return v; }", "v = sum(v);"));
        assertEquals(Form.BARRIER_REGIONS, helperForm("__device__ float pair(float v) {"
                + " return v + __shfl_xor_sync(0xffffffff, v, 1); }", "v = pair(v);"));
        assertEquals(Form.BARRIER_REGIONS, helperForm("__device__ int twice(int v) { return 2 * v; }"
                + " __device__ double outer(float v) { __syncthreads(); return twice(v); }", "v = outer(v) + 1;"));
    }

    private static Form boundForm(String helper) {
        return KernelEngine.compile(helper + "\n__global__ void k(float *x, const float *in, int n) {"
                + " __shared__ float s[64]; s[threadIdx.x] = 0;"
                + " for (int k = 0; k < bound(n); k++) { s[threadIdx.x] += k; __syncthreads(); }"
                + " x[threadIdx.x] = s[threadIdx.x]; }", "t.cu").kernel("k").form();
    }

    @org.junit.jupiter.api.Test
    void aLoopBoundFromAPureHelperIsUniform() {
        assertEquals(Form.BARRIER_REGIONS, boundForm("__device__ int bound(int n) { int b = n;"
                + " for (int i = 0; i < 3; i++) { b = max(b / 2, 1); } return b; }"));
        assertEquals(Form.COOPERATIVE, boundForm("__device__ int bound(int n) { return n + threadIdx.x; }"));
        assertEquals(Form.COOPERATIVE, boundForm("__device__ int g; __device__ int bound(int n) { return n + g; }"));
        assertEquals(Form.COOPERATIVE, boundForm("__device__ int bound(int n) { return 64 / n; }"));
        assertEquals(Form.COOPERATIVE, boundForm("__device__ int bound(int n) { int a[2] = {n, 1}; return a[0]; }"));
    }

    @org.junit.jupiter.api.Test
    void helpersThatCannotBeWrittenOutKeepTheKernelCooperative() {
        assertEquals(Form.COOPERATIVE, helperForm("__device__ float early(float v) { if (v > 0) return v;"
                + " __syncthreads(); return -v; }", "v = early(v);"));
        assertEquals(Form.COOPERATIVE, helperForm("__device__ void nap() { __nanosleep(10); __syncthreads(); }",
                "nap();"));
    }
}
