package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertClose;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.bytes;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readDoubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Whole CUDA C kernels, as people write them, compiled by the kernel engine and run on the CPU device; each
 * result is checked against a plain-Java computation of the same thing. Inputs are random with a fixed seed,
 * which every assertion message names.
 */
@Timeout(30)
class KernelEndToEndTest {
    private static final long SEED = 0x5EEDL;
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

    private static Random random(int salt) {
        return new Random(SEED * 31 + salt);
    }

    private static String ctx(String what, int i) {
        return what + " [seed " + SEED + ", index " + i + "]";
    }

    private static float uniform(Random r, float lo, float hi) {
        return lo + r.nextFloat() * (hi - lo);
    }

    static final String SAXPY = """
            __global__ void saxpy(float* y, const float* x, float a, int n)
            {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    y[i] = a * x[i] + y[i];
                }
            }
            """;

    @Test
    void gridStrideSaxpy() {
        int n = 600_007;
        Random r = random(1);
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = uniform(r, -10, 10);
            y[i] = uniform(r, -10, 10);
        }
        float a = 2.5f + r.nextFloat();
        UnifiedBuffer bx = floats(dev, x);
        UnifiedBuffer by = floats(dev, y);
        KernelFunction k = kernel(dev, SAXPY, "saxpy.cu", "saxpy");
        // 64 blocks of 256 threads: far fewer threads than elements, so every thread strides.
        run(dev, k, 64, 256, KernelArgs.builder().pointer(by).pointer(bx).f32(a).i32(n).build());
        float[] got = readFloats(by, n);
        for (int i = 0; i < n; i++) {
            float expected = a * x[i] + y[i];
            if (got[i] != expected) {
                assertClose(expected, got[i], 1e-6, Math.abs(a * x[i]) + Math.abs(y[i]), ctx("saxpy", i));
            }
        }
        assertEquals(x[n - 1], readFloats(bx, n)[n - 1], "x must be unchanged [seed " + SEED + "]");
    }

    @Test
    void sincosStoresSineAndCosineThroughItsPointers() {
        String src = """
                __global__ void k(const float* x, float* s, float* c, double* ds, double* dc, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i >= n) return;
                    float sv, cv;
                    sincosf(x[i], &sv, &cv);
                    s[i] = sv;
                    __sincosf(x[i] * 2.0f, &c[i], &sv);
                    c[i] = cv + 10.0f * sv;
                    sincos((double) x[i], ds + i, &dc[i]);
                }
                """;
        int n = 300;
        Random r = random(12);
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = uniform(r, -20, 20);
        }
        UnifiedBuffer s = floats(dev, new float[n]);
        UnifiedBuffer c = floats(dev, new float[n]);
        UnifiedBuffer ds = doubles(dev, new double[n]);
        UnifiedBuffer dc = doubles(dev, new double[n]);
        run(dev, kernel(dev, src, "sincos.cu", "k"), 3, 128, KernelArgs.builder().pointer(floats(dev, x))
                .pointer(s).pointer(c).pointer(ds).pointer(dc).i32(n).build());
        float[] gs = readFloats(s, n);
        float[] gc = readFloats(c, n);
        double[] gds = readDoubles(ds, n);
        double[] gdc = readDoubles(dc, n);
        for (int i = 0; i < n; i++) {
            assertClose(Math.sin(x[i]), gs[i], 1e-6, 1, ctx("sinf", i));
            double expectedC = Math.cos(x[i]) + 10.0 * (float) Math.cos(x[i] * 2.0f);
            assertClose(expectedC, gc[i], 1e-5, 11, ctx("cosf + 10 cos(2x)", i));
            assertClose(Math.sin(x[i]), gds[i], 1e-15, 1, ctx("sin", i));
            assertClose(Math.cos(x[i]), gdc[i], 1e-15, 1, ctx("cos", i));
        }
    }

    @Test
    void fileScopeEnumsAsConstantsAndTypes() {
        // Enumerators are int constants (implicit ones count on from the previous), usable as array sizes and
        // switch cases; the enum's name is a type.
        String src = """
                enum { BLOCK = 64, HALF = BLOCK / 2 };
                enum Op { ADD, SUB = 5, MUL, NEG = -2, ABS };
                __device__ int apply(enum Op op, int a, int b) {
                    switch (op) {
                        case ADD: return a + b;
                        case SUB: return a - b;
                        case MUL: return a * b;
                        case NEG: return -a;
                        default: return a < 0 ? -a : a;
                    }
                }
                __global__ void k(const int* ops, const int* x, int* out) {
                    __shared__ int s[BLOCK];
                    int t = threadIdx.x;
                    s[t] = x[t];
                    __syncthreads();
                    Op op = (Op) ops[t];
                    out[t] = apply(op, s[t], s[(t + HALF) % BLOCK]) * 1000 + MUL * 100 + ABS;
                }
                """;
        int[] codes = {0, 5, 6, -2, -1};
        Random r = random(11);
        int[] ops = new int[64];
        int[] x = new int[64];
        for (int i = 0; i < 64; i++) {
            ops[i] = codes[r.nextInt(codes.length)];
            x[i] = r.nextInt(200) - 100;
        }
        UnifiedBuffer out = ints(dev, new int[64]);
        run(dev, kernel(dev, src, "enums.cu", "k"), 1, 64,
                KernelArgs.builder().pointer(ints(dev, ops)).pointer(ints(dev, x)).pointer(out).build());
        int[] got = readInts(out, 64);
        for (int i = 0; i < 64; i++) {
            int a = x[i];
            int b = x[(i + 32) % 64];
            int v = switch (ops[i]) {
                case 0 -> a + b;
                case 5 -> a - b;
                case 6 -> a * b;
                case -2 -> -a;
                default -> Math.abs(a);
            };
            assertEquals(v * 1000 + 6 * 100 - 1, got[i], ctx("enum op " + ops[i], i));
        }
    }

    static final String SHFL_REDUCE = """
            __global__ void reduceShfl(const float* in, float* out, int n)
            {
                float v = 0.0f;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    v += in[i];
                }
                for (int offset = 16; offset > 0; offset /= 2) {
                    v += __shfl_down_sync(0xffffffff, v, offset);
                }
                if ((threadIdx.x & 31) == 0) {
                    atomicAdd(out, v);
                }
            }
            """;

    @Test
    void warpShuffleReduction() {
        int n = 1 << 20;
        Random r = random(2);
        float[] in = new float[n];
        double expected = 0;
        for (int i = 0; i < n; i++) {
            in[i] = r.nextFloat();
            expected += in[i];
        }
        UnifiedBuffer bin = floats(dev, in);
        UnifiedBuffer out = dev.allocate(4);
        KernelFunction k = kernel(dev, SHFL_REDUCE, "shfl.cu", "reduceShfl");
        run(dev, k, 120, 256, KernelArgs.builder().pointer(bin).pointer(out).i32(n).build());
        assertClose(expected, out.getFloat(0), 1e-4, expected, "shuffle reduction of " + n + " floats [seed " + SEED + "]");
    }

    static final String SHARED_REDUCE = """
            extern "C" __global__ void reduceShared(const float* in, float* partial, int n)
            {
                extern __shared__ float sdata[];
                unsigned int tid = threadIdx.x;
                float v = 0.0f;
                for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
                    v += in[i];
                }
                sdata[tid] = v;
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

    @Test
    void sharedMemoryTreeReduction() {
        int n = 777_777;
        int blocks = 97;
        int threads = 128;
        Random r = random(3);
        float[] in = new float[n];
        double[] expectedPartial = new double[blocks];
        double expected = 0;
        for (int i = 0; i < n; i++) {
            in[i] = uniform(r, 0.5f, 2f);
            expected += in[i];
            expectedPartial[(i / threads) % blocks] += in[i];
        }
        UnifiedBuffer bin = floats(dev, in);
        UnifiedBuffer partial = dev.allocate(blocks * 4L);
        KernelFunction k = kernel(dev, SHARED_REDUCE, "reduce.cu", "reduceShared");
        run(dev, k, Dim3.of(blocks), Dim3.of(threads), threads * 4,
                KernelArgs.builder().pointer(bin).pointer(partial).i32(n).build());
        float[] got = readFloats(partial, blocks);
        double sum = 0;
        for (int b = 0; b < blocks; b++) {
            assertClose(expectedPartial[b], got[b], 1e-4, expectedPartial[b], ctx("partial sum of block", b));
            sum += got[b];
        }
        assertClose(expected, sum, 1e-4, expected, "tree reduction total [seed " + SEED + "]");
    }

    static final String BLACK_SCHOLES = """
            #define A1 0.31938153
            #define A2 -0.356563782
            #define A3 1.781477937
            #define A4 -1.821255978
            #define A5 1.330274429
            #define RSQRT2PI 0.39894228040143267793994605993438

            __device__ double cnd(double d)
            {
                double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
                double c = RSQRT2PI * exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
                if (d > 0) {
                    c = 1.0 - c;
                }
                return c;
            }

            __global__ void blackScholes(double* call, double* put, const double* price, const double* strike,
                                         const double* years, double r, double v, int n)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    double s = price[i];
                    double x = strike[i];
                    double t = years[i];
                    double sqrtT = sqrt(t);
                    double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrtT);
                    double d2 = d1 - v * sqrtT;
                    double cndD1 = cnd(d1);
                    double cndD2 = cnd(d2);
                    double expRT = exp(-r * t);
                    call[i] = s * cndD1 - x * expRT * cndD2;
                    put[i] = x * expRT * (1.0 - cndD2) - s * (1.0 - cndD1);
                }
            }
            """;

    private static double cnd(double d) {
        double k = 1.0 / (1.0 + 0.2316419 * Math.abs(d));
        double c = 0.39894228040143267793994605993438 * Math.exp(-0.5 * d * d)
                * (k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))));
        return d > 0 ? 1.0 - c : c;
    }

    @Test
    void blackScholesInDouble() {
        int n = 10_000;
        double rate = 0.02;
        double vol = 0.30;
        Random r = random(4);
        double[] s = new double[n];
        double[] x = new double[n];
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = 5 + 25 * r.nextDouble();
            x[i] = 1 + 99 * r.nextDouble();
            t[i] = 0.25 + 9.75 * r.nextDouble();
        }
        UnifiedBuffer call = dev.allocate(n * 8L);
        UnifiedBuffer put = dev.allocate(n * 8L);
        KernelFunction k = kernel(dev, BLACK_SCHOLES, "blackscholes.cu", "blackScholes");
        run(dev, k, (n + 127) / 128, 128, KernelArgs.builder().pointer(call).pointer(put)
                .pointer(doubles(dev, s)).pointer(doubles(dev, x)).pointer(doubles(dev, t))
                .f64(rate).f64(vol).i32(n).build());
        double[] gotCall = readDoubles(call, n);
        double[] gotPut = readDoubles(put, n);
        for (int i = 0; i < n; i++) {
            double sqrtT = Math.sqrt(t[i]);
            double d1 = (Math.log(s[i] / x[i]) + (rate + 0.5 * vol * vol) * t[i]) / (vol * sqrtT);
            double d2 = d1 - vol * sqrtT;
            double c1 = cnd(d1);
            double c2 = cnd(d2);
            double expRT = Math.exp(-rate * t[i]);
            double ec = s[i] * c1 - x[i] * expRT * c2;
            double ep = x[i] * expRT * (1.0 - c2) - s[i] * (1.0 - c1);
            // Relative to the size of the terms: a deep out-of-the-money price is a difference of near-equal terms.
            assertClose(ec, gotCall[i], 1e-9, Math.abs(ec) + s[i], ctx("call price", i));
            assertClose(ep, gotPut[i], 1e-9, Math.abs(ep) + x[i], ctx("put price", i));
        }
    }

    static final String BLUR = """
            #define R 2
            #define TILE 16

            __global__ void blur(const float* in, float* out, const float* w, int width, int height)
            {
                extern __shared__ float tile[];
                const int tw = TILE + 2 * R;
                int x0 = blockIdx.x * TILE - R;
                int y0 = blockIdx.y * TILE - R;
                for (int ty = threadIdx.y; ty < tw; ty += blockDim.y) {
                    for (int tx = threadIdx.x; tx < tw; tx += blockDim.x) {
                        int gx = min(max(x0 + tx, 0), width - 1);
                        int gy = min(max(y0 + ty, 0), height - 1);
                        tile[ty * tw + tx] = in[gy * width + gx];
                    }
                }
                __syncthreads();
                int x = blockIdx.x * TILE + threadIdx.x;
                int y = blockIdx.y * TILE + threadIdx.y;
                if (x < width && y < height) {
                    float acc = 0.0f;
                    for (int dy = -R; dy <= R; ++dy) {
                        for (int dx = -R; dx <= R; ++dx) {
                            acc += w[(dy + R) * (2 * R + 1) + (dx + R)]
                                 * tile[(threadIdx.y + R + dy) * tw + (threadIdx.x + R + dx)];
                        }
                    }
                    out[y * width + x] = acc;
                }
            }
            """;

    @Test
    void gaussianBlur2dWithSharedTile() {
        int width = 203;
        int height = 157;
        Random r = random(5);
        float[] img = new float[width * height];
        for (int i = 0; i < img.length; i++) {
            img[i] = uniform(r, 0, 255);
        }
        int[] binom = {1, 4, 6, 4, 1};
        float[] w = new float[25];
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 5; j++) {
                w[i * 5 + j] = binom[i] * binom[j] / 256f;
            }
        }
        UnifiedBuffer out = dev.allocate(img.length * 4L);
        KernelFunction k = kernel(dev, BLUR, "blur.cu", "blur");
        int tw = 16 + 4;
        run(dev, k, new Dim3((width + 15) / 16, (height + 15) / 16, 1), new Dim3(16, 16, 1), tw * tw * 4,
                KernelArgs.builder().pointer(floats(dev, img)).pointer(out).pointer(floats(dev, w))
                        .i32(width).i32(height).build());
        float[] got = readFloats(out, img.length);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                double acc = 0;
                double mag = 0;
                for (int dy = -2; dy <= 2; dy++) {
                    for (int dx = -2; dx <= 2; dx++) {
                        int gx = Math.min(Math.max(x + dx, 0), width - 1);
                        int gy = Math.min(Math.max(y + dy, 0), height - 1);
                        double term = (double) w[(dy + 2) * 5 + dx + 2] * img[gy * width + gx];
                        acc += term;
                        mag += Math.abs(term);
                    }
                }
                assertClose(acc, got[y * width + x], 1e-5, mag, "blur at (" + x + ", " + y + ") [seed " + SEED + "]");
            }
        }
    }

    static final String SPMV = """
            __global__ void spmv(const int* rowPtr, const int* cols, const float* vals, const float* x, float* y, int rows)
            {
                int row = blockIdx.x * blockDim.x + threadIdx.x;
                if (row < rows) {
                    float sum = 0.0f;
                    for (int j = rowPtr[row]; j < rowPtr[row + 1]; j++) {
                        sum += vals[j] * x[cols[j]];
                    }
                    y[row] = sum;
                }
            }
            """;

    @Test
    void csrSparseMatrixVectorProduct() {
        int rows = 5000;
        int colsN = 4000;
        Random r = random(6);
        int[] rowPtr = new int[rows + 1];
        for (int i = 0; i < rows; i++) {
            int len = i % 97 == 0 ? 0 : r.nextInt(i % 5 == 0 ? 60 : 12);
            rowPtr[i + 1] = rowPtr[i] + len;
        }
        int nnz = rowPtr[rows];
        int[] cols = new int[nnz];
        float[] vals = new float[nnz];
        for (int j = 0; j < nnz; j++) {
            cols[j] = r.nextInt(colsN);
            vals[j] = uniform(r, -2, 2);
        }
        float[] x = new float[colsN];
        for (int i = 0; i < colsN; i++) {
            x[i] = uniform(r, -1, 1);
        }
        UnifiedBuffer y = dev.allocate(rows * 4L);
        KernelFunction k = kernel(dev, SPMV, "spmv.cu", "spmv");
        run(dev, k, (rows + 255) / 256, 256, KernelArgs.builder().pointer(ints(dev, rowPtr)).pointer(ints(dev, cols))
                .pointer(floats(dev, vals)).pointer(floats(dev, x)).pointer(y).i32(rows).build());
        float[] got = readFloats(y, rows);
        for (int i = 0; i < rows; i++) {
            double acc = 0;
            double mag = 0;
            for (int j = rowPtr[i]; j < rowPtr[i + 1]; j++) {
                acc += (double) vals[j] * x[cols[j]];
                mag += Math.abs((double) vals[j] * x[cols[j]]);
            }
            assertClose(acc, got[i], 1e-5, mag, ctx("row of y", i));
        }
    }

    static final String HISTOGRAM = """
            __global__ void histogram(const unsigned char* data, unsigned int* bins, int n)
            {
                __shared__ unsigned int local[256];
                for (int i = threadIdx.x; i < 256; i += blockDim.x) {
                    local[i] = 0;
                }
                __syncthreads();
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    atomicAdd(&local[data[i]], 1u);
                }
                __syncthreads();
                for (int i = threadIdx.x; i < 256; i += blockDim.x) {
                    if (local[i] != 0) {
                        atomicAdd(&bins[i], local[i]);
                    }
                }
            }
            """;

    @Test
    void histogramWithSharedAtomics() {
        int n = 400_000;
        Random r = random(7);
        byte[] data = new byte[n];
        long[] expected = new long[256];
        for (int i = 0; i < n; i++) {
            // Skewed: bins 200..209 are hot, so many threads hit the same shared counter at once.
            int v = r.nextInt(4) == 0 ? 200 + r.nextInt(10) : r.nextInt(256);
            data[i] = (byte) v;
            expected[v]++;
        }
        UnifiedBuffer bins = dev.allocate(256 * 4L);
        KernelFunction k = kernel(dev, HISTOGRAM, "histogram.cu", "histogram");
        run(dev, k, 48, 192, KernelArgs.builder().pointer(bytes(dev, data)).pointer(bins).i32(n).build());
        int[] got = readInts(bins, 256);
        for (int b = 0; b < 256; b++) {
            assertEquals(expected[b], Integer.toUnsignedLong(got[b]), ctx("histogram bin", b));
        }
    }

    static final String FLOAT_MAX = """
            __device__ float atomicMaxFloat(float* address, float val)
            {
                int* addr = (int*) address;
                int old = *addr;
                int assumed;
                do {
                    assumed = old;
                    if (__int_as_float(assumed) >= val) {
                        break;
                    }
                    old = atomicCAS(addr, assumed, __float_as_int(val));
                } while (assumed != old);
                return __int_as_float(old);
            }

            __global__ void maxReduce(const float* in, float* out, int n)
            {
                float m = -3.402823466e+38f;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    m = fmaxf(m, in[i]);
                }
                atomicMaxFloat(out, m);
            }
            """;

    @Test
    void atomicCasFloatMax() {
        KernelFunction k = kernel(dev, FLOAT_MAX, "fmax.cu", "maxReduce");
        int n = 300_000;
        for (float hi : new float[] {50f, -1f}) {
            Random r = random(8 + (int) hi);
            float[] in = new float[n];
            float expected = -Float.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                in[i] = uniform(r, -1000f, hi);
                expected = Math.max(expected, in[i]);
            }
            UnifiedBuffer out = floats(dev, new float[] {-Float.MAX_VALUE});
            run(dev, k, 40, 256, KernelArgs.builder().pointer(floats(dev, in)).pointer(out).i32(n).build());
            assertEquals(expected, out.getFloat(0), "max of floats in [-1000, " + hi + ") [seed " + SEED + "]");
        }
    }

    static final String SGEMM = """
            #define TILE 16

            __global__ void sgemm(const float* A, const float* B, float* C, int M, int N, int K)
            {
                __shared__ float As[TILE][TILE];
                __shared__ float Bs[TILE][TILE];
                int row = blockIdx.y * TILE + threadIdx.y;
                int col = blockIdx.x * TILE + threadIdx.x;
                float acc = 0.0f;
                for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
                    int ak = t * TILE + threadIdx.x;
                    int bk = t * TILE + threadIdx.y;
                    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
                    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
                    __syncthreads();
                    for (int k = 0; k < TILE; ++k) {
                        acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
                    }
                    __syncthreads();
                }
                if (row < M && col < N) {
                    C[row * N + col] = acc;
                }
            }
            """;

    @Test
    void tiledSgemmWithRaggedEdges() {
        int m = 100;
        int kk = 70;
        int n = 90;
        Random r = random(9);
        float[] a = new float[m * kk];
        float[] b = new float[kk * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = uniform(r, -1, 1);
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = uniform(r, -1, 1);
        }
        UnifiedBuffer c = dev.allocate((long) m * n * 4);
        KernelFunction k = kernel(dev, SGEMM, "sgemm.cu", "sgemm");
        assertEquals(2 * 16 * 16 * 4, k.staticSharedBytes(), "static shared bytes of As and Bs");
        run(dev, k, new Dim3((n + 15) / 16, (m + 15) / 16, 1), new Dim3(16, 16, 1), 0,
                KernelArgs.builder().pointer(floats(dev, a)).pointer(floats(dev, b)).pointer(c)
                        .i32(m).i32(n).i32(kk).build());
        float[] got = readFloats(c, m * n);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double acc = 0;
                double mag = 0;
                for (int q = 0; q < kk; q++) {
                    acc += (double) a[i * kk + q] * b[q * n + j];
                    mag += Math.abs((double) a[i * kk + q] * b[q * n + j]);
                }
                assertClose(acc, got[i * n + j], 1e-5, mag, "C[" + i + "][" + j + "] [seed " + SEED + "]");
            }
        }
    }

    static final String SCALE = """
            template<typename T>
            __global__ void scale(T* x, T a, int n)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    x[i] = x[i] * a;
                }
            }
            """;

    @Test
    void templatedKernelInstantiatedForFloatAndDouble() {
        int n = 10_000;
        Random r = random(10);
        Module m = dev.compile(SCALE, "scale.cu");
        float[] xf = new float[n];
        double[] xd = new double[n];
        for (int i = 0; i < n; i++) {
            xf[i] = uniform(r, -100, 100);
            xd[i] = r.nextDouble() * 200 - 100;
        }
        UnifiedBuffer bf = floats(dev, xf);
        UnifiedBuffer bd = doubles(dev, xd);
        KernelFunction kf = m.function("scale<float>");
        KernelFunction kd = m.function("scale<double>");
        assertTrue(kf.name().contains("float"), "name of the float instantiation: " + kf.name());
        run(dev, kf, (n + 255) / 256, 256, KernelArgs.builder().pointer(bf).f32(1.75f).i32(n).build());
        run(dev, kd, (n + 255) / 256, 256, KernelArgs.builder().pointer(bd).f64(-0.3).i32(n).build());
        float[] gf = readFloats(bf, n);
        double[] gd = readDoubles(bd, n);
        for (int i = 0; i < n; i++) {
            assertEquals(xf[i] * 1.75f, gf[i], ctx("scale<float>", i));
            assertEquals(xd[i] * -0.3, gd[i], ctx("scale<double>", i));
        }
    }
}
