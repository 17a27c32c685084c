package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertClose;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.Device;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code __shared__} and {@code extern __shared__} variables declared at file scope, as CUDA allows: every
 * kernel (and {@code __device__} function) of the file that uses one sees it as its own block's shared memory;
 * all {@code extern} ones alias the launch's dynamic shared memory. Results are checked against Java.
 */
@Timeout(30)
class FileScopeSharedTest {
    private static final long SEED = 0x5A4EDL;
    private static Device dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice();
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    static final String REDUCE = """
            extern __shared__ float sdata[];

            __device__ void treeReduce(unsigned int tid) {
                for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
                    if (tid < s) {
                        sdata[tid] += sdata[tid + s];
                    }
                    __syncthreads();
                }
            }

            __global__ void blockSums(const float* in, float* partial, int n) {
                unsigned int tid = threadIdx.x;
                float v = 0.0f;
                for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
                    v += in[i];
                }
                sdata[tid] = v;
                __syncthreads();
                treeReduce(tid);
                if (tid == 0) {
                    partial[blockIdx.x] = sdata[0];
                }
            }

            __global__ void blockSquares(const float* in, float* partial, int n) {
                unsigned int tid = threadIdx.x;
                float v = 0.0f;
                for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
                    v += in[i] * in[i];
                }
                sdata[tid] = v;
                __syncthreads();
                treeReduce(tid);
                if (tid == 0) {
                    partial[blockIdx.x] = sdata[0];
                }
            }
            """;

    @Test
    void blockReductionThroughFileScopeExternShared() {
        int n = 100_003;
        int blocks = 37;
        int threads = 256;
        Random r = new Random(SEED);
        float[] in = new float[n];
        double[] sums = new double[blocks];
        double[] squares = new double[blocks];
        for (int i = 0; i < n; i++) {
            in[i] = 0.5f + r.nextFloat();
            // thread t of block b adds elements b * threads + t, then every blocks * threads further
            int block = (i / threads) % blocks;
            sums[block] += in[i];
            squares[block] += (double) in[i] * in[i];
        }
        Module m = dev.compile(REDUCE, "reduce.cu");
        UnifiedBuffer bin = floats(dev, in);
        UnifiedBuffer partial = dev.allocate(blocks * 4L);
        double[][] expected = {sums, squares};
        String[] names = {"blockSums", "blockSquares"};
        for (int k = 0; k < 2; k++) {
            run(dev, m.function(names[k]), Dim3.of(blocks), Dim3.of(threads), threads * 4,
                    KernelArgs.builder().pointer(bin).pointer(partial).i32(n).build());
            float[] got = readFloats(partial, blocks);
            for (int b = 0; b < blocks; b++) {
                assertClose(expected[k][b], got[b], 1e-5, expected[k][b],
                        names[k] + " of block " + b + " [seed " + SEED + "]");
            }
        }
    }

    @Test
    void severalExternDeclarationsAliasTheSameDynamicMemory() {
        String src = """
                extern __shared__ char smem[];
                extern __shared__ int words[];
                extern __shared__ float reals[];

                __global__ void reverse(const int* in, int* out, float* asFloat) {
                    unsigned int t = threadIdx.x;
                    unsigned int base = blockIdx.x * blockDim.x;
                    words[t] = in[base + t];
                    __syncthreads();
                    int* view = (int*) smem;
                    out[base + t] = view[blockDim.x - 1 - t];
                    asFloat[base + t] = reals[t];
                }

                template <int K>
                __global__ void rotate(const int* in, int* out, float* unused) {
                    unsigned int t = threadIdx.x;
                    unsigned int base = blockIdx.x * blockDim.x;
                    ((int*) smem)[t] = in[base + t];
                    __syncthreads();
                    out[base + t] = words[(t + K) % blockDim.x];
                }
                """;
        int blocks = 5;
        int threads = 64;
        Random r = new Random(SEED + 1);
        int[] in = new int[blocks * threads];
        for (int i = 0; i < in.length; i++) {
            in[i] = r.nextInt();
        }
        UnifiedBuffer out = dev.allocate(in.length * 4L);
        UnifiedBuffer asFloat = dev.allocate(in.length * 4L);
        Module m = dev.compile(src, "alias.cu");
        UnifiedBuffer bin = ints(dev, in);
        run(dev, m.function("rotate<3>"), Dim3.of(blocks), Dim3.of(threads), threads * 4,
                KernelArgs.builder().pointer(bin).pointer(out).pointer(asFloat).build());
        int[] rotated = readInts(out, in.length);
        run(dev, m.function("reverse"), Dim3.of(blocks), Dim3.of(threads), threads * 4,
                KernelArgs.builder().pointer(bin).pointer(out).pointer(asFloat).build());
        int[] got = readInts(out, in.length);
        float[] gotFloats = readFloats(asFloat, in.length);
        for (int b = 0; b < blocks; b++) {
            for (int t = 0; t < threads; t++) {
                int i = b * threads + t;
                assertEquals(in[b * threads + threads - 1 - t], got[i], "out[" + i + "] [seed " + (SEED + 1) + "]");
                assertEquals(Float.intBitsToFloat(in[i]), gotFloats[i], 0f, "asFloat[" + i + "]");
                assertEquals(in[b * threads + (t + 3) % threads], rotated[i], "rotate<3> out[" + i + "]");
            }
        }
    }

    @Test
    void fileScopeStaticSharedIsEachBlocksOwnAndApartFromTheDynamicMemory() {
        String src = """
                #define TILE 256
                __shared__ float tile[TILE], spare[3];
                extern __shared__ float dyn[];

                __global__ void flip(const float* in, float* out, float* echo) {
                    unsigned int t = threadIdx.x;
                    unsigned int base = blockIdx.x * TILE;
                    tile[t] = in[base + t];
                    dyn[t] = -1.0f;
                    if (t < 3) {
                        spare[t] = 0.5f;
                    }
                    __syncthreads();
                    out[base + t] = tile[TILE - 1 - t];
                    echo[base + t] = dyn[t];
                }
                """;
        int blocks = 24;
        int threads = 256;
        Random r = new Random(SEED + 2);
        float[] in = new float[blocks * threads];
        for (int i = 0; i < in.length; i++) {
            in[i] = r.nextFloat() * 100;
        }
        UnifiedBuffer out = dev.allocate(in.length * 4L);
        UnifiedBuffer echo = dev.allocate(in.length * 4L);
        KernelFunction k = kernel(dev, src, "tile.cu", "flip");
        assertEquals(1040, k.staticSharedBytes(), "tile (1024 bytes) and spare (12), rounded up to 16 bytes");
        run(dev, k, Dim3.of(blocks), Dim3.of(threads), threads * 4,
                KernelArgs.builder().pointer(floats(dev, in)).pointer(out).pointer(echo).build());
        float[] got = readFloats(out, in.length);
        float[] gotEcho = readFloats(echo, in.length);
        for (int b = 0; b < blocks; b++) {
            for (int t = 0; t < threads; t++) {
                int i = b * threads + t;
                assertEquals(in[b * threads + threads - 1 - t], got[i], 0f, "out[" + i + "] [seed " + (SEED + 2) + "]");
                assertEquals(-1.0f, gotEcho[i], 0f, "echo[" + i + "]");
            }
        }
    }
}
