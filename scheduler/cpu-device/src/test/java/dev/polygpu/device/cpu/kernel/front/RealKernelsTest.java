package dev.polygpu.device.cpu.kernel.front;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.cpu.kernel.ast.Function;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Kernels as people write them: each compiles and its typed tree satisfies the AST invariants. */
class RealKernelsTest {
    private static final String SOURCE = """
            #include <cuda_runtime.h>
            #include <math.h>
            #define BLOCK_SIZE 256
            #define TILE 16

            extern "C" __global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    y[i] = a * x[i] + y[i];
                }
            }

            __inline__ __device__ float warpReduceSum(float val) {
                for (int offset = warpSize / 2; offset > 0; offset /= 2)
                    val += __shfl_down_sync(0xffffffff, val, offset);
                return val;
            }

            __global__ void warpReduce(const float* in, float* out, int n) {
                float sum = 0.0f;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
                    sum += in[i];
                sum = warpReduceSum(sum);
                if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(out, sum);
            }

            __global__ void reduceShared(const float* g_idata, float* g_odata, unsigned int n) {
                extern __shared__ float sdata[];
                unsigned int tid = threadIdx.x;
                unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
                float mySum = (i < n) ? g_idata[i] : 0;
                if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
                sdata[tid] = mySum;
                __syncthreads();
                for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
                    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
                    __syncthreads();
                }
                if (tid == 0) g_odata[blockIdx.x] = mySum;
            }

            __device__ inline float CND(float d) {
                const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f,
                            A4 = -1.821255978f, A5 = 1.330274429f;
                const float RSQRT2PI = 0.39894228040143267793994605993438f;
                float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
                float cnd = RSQRT2PI * __expf(-0.5f * d * d) *
                            (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
                if (d > 0) cnd = 1.0f - cnd;
                return cnd;
            }

            __global__ void blackScholes(float* call, float* put, const float* S, const float* X,
                                         const float* T, float R, float V, int opt_n) {
                const int tid = blockDim.x * blockIdx.x + threadIdx.x;
                const int THREAD_N = blockDim.x * gridDim.x;
                for (int opt = tid; opt < opt_n; opt += THREAD_N) {
                    float sqrtT = sqrtf(T[opt]);
                    float d1 = (logf(S[opt] / X[opt]) + (R + 0.5f * V * V) * T[opt]) / (V * sqrtT);
                    float d2 = d1 - V * sqrtT;
                    float CNDD1 = CND(d1), CNDD2 = CND(d2);
                    float expRT = expf(-R * T[opt]);
                    call[opt] = S[opt] * CNDD1 - X[opt] * expRT * CNDD2;
                    put[opt] = X[opt] * expRT * (1.0f - CNDD2) - S[opt] * (1.0f - CNDD1);
                }
            }

            __global__ void matmul(const float* A, const float* B, float* C, int N) {
                __shared__ float As[TILE][TILE];
                __shared__ float Bs[TILE][TILE];
                int row = blockIdx.y * TILE + threadIdx.y;
                int col = blockIdx.x * TILE + threadIdx.x;
                float acc = 0.0f;
                for (int t = 0; t < (N + TILE - 1) / TILE; ++t) {
                    As[threadIdx.y][threadIdx.x] = (row < N && t * TILE + threadIdx.x < N) ? A[row * N + t * TILE + threadIdx.x] : 0.0f;
                    Bs[threadIdx.y][threadIdx.x] = (col < N && t * TILE + threadIdx.y < N) ? B[(t * TILE + threadIdx.y) * N + col] : 0.0f;
                    __syncthreads();
                    #pragma unroll
                    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
                    __syncthreads();
                }
                if (row < N && col < N) C[row * N + col] = acc;
            }

            template <typename T, int BLOCK>
            __global__ void blockSum(const T* in, T* out, size_t n) {
                __shared__ T buf[BLOCK];
                size_t i = (size_t) blockIdx.x * BLOCK + threadIdx.x;
                buf[threadIdx.x] = i < n ? in[i] : (T) 0;
                __syncthreads();
                #pragma unroll
                for (int s = BLOCK / 2; s > 0; s >>= 1) {
                    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
                    __syncthreads();
                }
                if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
            }

            __global__ void spmvCsr(int num_rows, const int* __restrict__ ptr, const int* __restrict__ indices,
                                    const float* __restrict__ data, const float* __restrict__ x, float* y) {
                int row = blockDim.x * blockIdx.x + threadIdx.x;
                if (row < num_rows) {
                    float dot = 0;
                    int row_start = ptr[row];
                    int row_end = ptr[row + 1];
                    for (int jj = row_start; jj < row_end; jj++)
                        dot += data[jj] * __ldg(&x[indices[jj]]);
                    y[row] = dot;
                }
            }

            __global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
                __shared__ unsigned int local[256];
                for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
                __syncthreads();
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
                    atomicAdd(&local[data[i]], 1);
                __syncthreads();
                for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
            }

            __device__ float atomicMaxFloat(float* addr, float value) {
                int* addr_as_int = (int*) addr;
                int old = *addr_as_int, assumed;
                do {
                    assumed = old;
                    if (__int_as_float(assumed) >= value) break;
                    old = atomicCAS(addr_as_int, assumed, __float_as_int(value));
                } while (assumed != old);
                return __int_as_float(old);
            }

            __global__ void maxKernel(const float* in, float* result, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) atomicMaxFloat(result, in[i]);
            }

            __global__ void misc(int* out, const double* d, unsigned long long* bits, int n) {
                int lane = threadIdx.x % 32;
                unsigned mask = __ballot_sync(__activemask(), lane < n);
                int cnt = __popc(mask);
                long long v = __double_as_longlong(d[0]);
                bits[0] = (unsigned long long) v ^ 0x8000000000000000ULL;
                switch (lane & 3) {
                    case 0: out[0] = cnt; break;
                    case 1: out[1] = min(cnt, n); // fall through
                    default: out[2] = max(lane, 1);
                }
                int k2 = 0;
                while (k2 < 10) { if (k2 == 5) { k2 += 2; continue; } k2++; }
                do { k2--; } while (k2 > 0);
                out[3] = isnan(d[1]) ? -1 : (int) rint(d[1]);
                out[4] = __shfl_xor_sync(0xffffffff, out[4], 16, 32) + (sizeof(double) == 8 ? 1 : 0);
                bool flag = d != nullptr && n;
                out[5] = flag ? INT_MAX : INT_MIN;
                float *p = (float*) d, *q = p + 2;
                out[6] = (int) (q - p);
            }
            """;

    @Test
    void realKernelsAnalyzeAndSatisfyTheInvariants() {
        TranslationUnit tu = FrontEnd.compile(SOURCE, "real.cu");
        assertEquals(List.of("saxpy", "warpReduce", "reduceShared", "blackScholes", "matmul", "spmvCsr",
                "histogram", "maxKernel", "misc", "blockSum<…>"), tu.kernelNames());
        for (String name : List.of("saxpy", "warpReduce", "reduceShared", "blackScholes", "matmul", "spmvCsr",
                "histogram", "maxKernel", "misc", "blockSum<float, 256>", "blockSum<double,128>", "blockSum<int, 64>")) {
            Function f = tu.kernel(name);
            TreeChecker.check(f);
        }
        assertEquals("blockSum<double, 128>", tu.kernel("blockSum<double,128>").name);
    }
}
