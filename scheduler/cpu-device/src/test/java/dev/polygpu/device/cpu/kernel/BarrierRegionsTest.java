package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.codegen.KernelCompiler;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Kernels that the engine compiles to the barrier-region form (each stretch between {@code __syncthreads()} one
 * loop over the block's threads), checked against nvcc's PTX of the same source on the PTX interpreter: tree
 * reductions, tiled SGEMM, threads that return before a barrier, a shared-memory transpose, barriers in uniform
 * {@code if}s and {@code while}/{@code do} loops, {@code __syncthreads_count/_and/_or}, 2D and 3D blocks, blocks of
 * 1 and 1024 threads, and variables of every kind live across several barriers; and a fault inside a region, which
 * names the thread that made it.
 */
class BarrierRegionsTest {
    private static final long SEED = 0x5eed32L;

    private static final String REDUCE = """
            extern "C" __global__ void NAME(const float *in, float *out, int n) {
                extern __shared__ float sdata[];
                unsigned int tid = threadIdx.x;
                unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
                sdata[tid] = i < n ? in[i] : 0.0f;
                __syncthreads();
                for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
                    if (tid < s) {
                        sdata[tid] += sdata[tid + s];
                    }
                    __syncthreads();
                }
                if (tid == 0) {
                    out[blockIdx.x] = sdata[0];
                }
            }
            """;

    private static final String SGEMM = """
            #define TILE 16
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

    /** Threads past n return before the first barrier, and every seventh of the rest before the third. */
    private static final String EARLY = """
            extern "C" __global__ void NAME(const int *in, int *out, int n) {
                __shared__ int s[128];
                int tid = threadIdx.x;
                int i = blockIdx.x * blockDim.x + tid;
                if (i >= n) return;
                s[tid] = in[i] * 3;
                __syncthreads();
                int live = min(n - (int) (blockIdx.x * blockDim.x), (int) blockDim.x);
                out[i] = s[live - 1 - tid] + tid;
                __syncthreads();
                if (tid % 7 == 3) return;
                s[tid] = out[i];
                __syncthreads();
                out[i] = s[live - 1 - tid] * 2 + live;
            }
            """;

    private static final String TRANSPOSE = """
            #define TD 8
            extern "C" __global__ void NAME(const float *in, float *out, int w, int h) {
                __shared__ float tile[TD][TD + 1];
                int x = blockIdx.x * TD + threadIdx.x;
                int y = blockIdx.y * TD + threadIdx.y;
                if (x < w && y < h) {
                    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
                }
                __syncthreads();
                x = blockIdx.y * TD + threadIdx.x;
                y = blockIdx.x * TD + threadIdx.y;
                if (x < h && y < w) {
                    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
                }
            }
            """;

    /** A 3D block; barriers in a uniform while loop, a uniform if and a do loop. */
    private static final String CUBE = """
            extern "C" __global__ void NAME(int *out, int rounds) {
                __shared__ int s[64];
                int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
                int nt = blockDim.x * blockDim.y * blockDim.z;
                s[t] = t * 10 + threadIdx.z;
                int acc = 0;
                int r = rounds;
                while (r > 0) {
                    __syncthreads();
                    acc += s[(t + r) % nt];
                    __syncthreads();
                    s[t] = acc + r;
                    r--;
                }
                if (blockIdx.x % 2 == 1) {
                    __syncthreads();
                    acc += s[nt - 1 - t];
                }
                int q = 0;
                do {
                    __syncthreads();
                    acc ^= s[(t * 7 + q) % nt];
                    __syncthreads();
                    s[t] = acc;
                    q++;
                } while (q < 3);
                out[blockIdx.x * nt + t] = acc;
            }
            """;

    /** A scalar, a vector, a pointer, a local array and an assigned parameter, each live across barriers. */
    private static final String LIVE = """
            extern "C" __global__ void NAME(const float *in, float *out, int n) {
                __shared__ float s[128];
                int tid = threadIdx.x;
                int gid = blockIdx.x * blockDim.x + tid;
                float a = in[gid];
                float2 v = make_float2(a, a * 2.0f);
                float *p = out;
                if (a < 0.0f) {
                    p = out + gid;
                } else {
                    p = p + gid;
                }
                float loc[4];
                for (int k = 0; k < 4; k++) {
                    loc[k] = a + k;
                }
                n = n + tid;
                s[tid] = a;
                __syncthreads();
                float b = s[(tid + 1) % blockDim.x];
                v.x += b;
                __syncthreads();
                s[tid] = v.y;
                __syncthreads();
                loc[tid % 4] += s[(tid + 3) % blockDim.x];
                __syncthreads();
                *p += v.x + v.y + loc[0] + loc[1] * 2.0f + loc[2] * 3.0f + loc[3] * 4.0f + (float) n;
            }
            """;

    /**
     * Predicated barriers, with threads that returned before them, at top level and in a uniform loop, and a loop
     * with a barrier whose trip count is a barrier's result.
     */
    private static final String PREDICATES = """
            extern "C" __global__ void NAME(const int *in, int *out, int n) {
                int tid = threadIdx.x;
                int i = blockIdx.x * blockDim.x + tid;
                if (i >= n) return;
                int v = in[i];
                int c = __syncthreads_count(v > 0);
                int all = __syncthreads_and(v > -900);
                int any = __syncthreads_or(v > 990);
                int acc = c * 4 + all * 2 + any;
                for (int k = 0; k < 3; k++) {
                    acc += __syncthreads_count((v + k) % 3 == 0) << (k + 4);
                }
                for (int j = 0; j < c % 5; j++) {
                    __syncthreads();
                    acc += j << 12;
                }
                out[i] = acc;
            }
            """;

    private static String named(String source, String name) {
        return source.replace("NAME", name);
    }

    private static CompiledKernel.Form form(String source) {
        String s = named(source, "k");
        return KernelCompiler.compile(FrontEnd.compile(s, "t.cu").kernel("k")).form();
    }

    @Test
    void everyKernelHereTakesTheRegionForm() {
        for (String s : List.of(REDUCE, SGEMM, EARLY, TRANSPOSE, CUBE, LIVE, PREDICATES)) {
            assertEquals(CompiledKernel.Form.BARRIER_REGIONS, form(s), s);
        }
    }

    @Test
    void theRegionFormAgreesWithNvccsPtx() {
        OracleTests.assumeNvcc();
        Random r = new Random(SEED);
        List<OracleCase> cases = new ArrayList<>();
        int[][] reduceShapes = {{256, 5, 1200}, {1, 3, 3}, {1024, 2, 2000}, {64, 4, 200}};
        for (int[] sh : reduceShapes) {
            int block = sh[0];
            int grid = sh[1];
            int n = sh[2];
            cases.add(new OracleCase("reduce" + block, named(REDUCE, "reduce" + block), "reduce" + block,
                    new LaunchConfig(Dim3.of(grid), Dim3.of(block), block * 4),
                    List.of(buffer("in", floats(r, n)), buffer("out", floats(r, grid)), scalar(n))));
        }
        int n = 40;
        cases.add(new OracleCase("sgemm", named(SGEMM, "sgemm"), "sgemm",
                new LaunchConfig(new Dim3(3, 3, 1), new Dim3(16, 16, 1), 0),
                List.of(buffer("A", floats(r, n * n)), buffer("B", floats(r, n * n)), buffer("C", floats(r, n * n)),
                        scalar(n))));
        cases.add(new OracleCase("early", named(EARLY, "early"), "early", LaunchConfig.of(8, 128),
                List.of(intBuffer("in", r, 1000), intBuffer("out", r, 1024), scalar(1000))));
        int w = 20;
        int h = 13;
        cases.add(new OracleCase("transpose", named(TRANSPOSE, "transpose"), "transpose",
                new LaunchConfig(new Dim3(3, 2, 1), new Dim3(8, 8, 1), 0),
                List.of(buffer("in", floats(r, w * h)), buffer("out", floats(r, w * h)), scalar(w), scalar(h))));
        cases.add(new OracleCase("cube", named(CUBE, "cube"), "cube",
                new LaunchConfig(Dim3.of(4), new Dim3(4, 3, 2), 0),
                List.of(intBuffer("out", r, 4 * 24), scalar(5))));
        cases.add(new OracleCase("live", named(LIVE, "live"), "live", LaunchConfig.of(2, 128),
                List.of(buffer("in", floats(r, 256)), buffer("out", floats(r, 256)), scalar(5))));
        cases.add(new OracleCase("predicates", named(PREDICATES, "predicates"), "predicates", LaunchConfig.of(4, 96),
                List.of(intBuffer("in", r, 384), intBuffer("out", r, 384), scalar(300))));
        try (DifferentialOracle oracle = DifferentialOracle.create()) {
            List<OracleResult> results = oracle.checkAll(cases);
            for (OracleResult res : results) {
                assertInstanceOf(OracleResult.Equal.class, res, "seed " + SEED + ": " + res);
            }
        }
    }

    @Test
    void aFaultInARegionNamesTheThreadThatMadeIt() {
        String src = """
                __global__ void oob(int *x, int n) {
                    __shared__ int s[64];
                    s[threadIdx.x] = threadIdx.x;
                    __syncthreads();
                    if (blockIdx.x == 1 && threadIdx.x == 37) {
                        x[n] = s[0];
                    }
                }
                """;
        assertEquals(CompiledKernel.Form.BARRIER_REGIONS,
                KernelCompiler.compile(FrontEnd.compile(src, "t.cu").kernel("oob")).form());
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer x = ints(dev, new int[64]);
            var s = dev.defaultStream();
            s.launch(dev.compile(src, "oob.cu").function("oob"), LaunchConfig.of(2, 64),
                    KernelArgs.builder().pointer(x).i32(64).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertContains("blockIdx (1,0,0) threadIdx (37,0,0)", e.getMessage());
            assertContains("(line 6, column", e.getMessage());
            assertContains("out-of-bounds write of 4 bytes at index 64 of argument 'x'", e.getMessage());
        }
    }

    private static OracleArg.Buffer buffer(String name, float[] v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            b.putFloat(f);
        }
        return new OracleArg.Buffer(name, OracleType.F32, b.array(), 0);
    }

    private static OracleArg.Buffer intBuffer(String name, Random r, int n) {
        return OracleTests.randomInts(name, r, n);
    }

    private static OracleArg.Scalar scalar(int v) {
        return OracleTests.intScalar(v);
    }

    private static float[] floats(Random r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (r.nextGaussian() * 4);
        }
        return v;
    }
}
