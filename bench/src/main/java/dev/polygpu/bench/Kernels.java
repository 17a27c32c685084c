package dev.polygpu.bench;

/**
 * The CUDA C sources the benchmark runs on the CPU device, written as people write them for a GPU: no
 * changes to suit the CPU device.
 */
final class Kernels {

    private Kernels() {
    }

    /**
     * The CUDA C of a kernel kept as a file ({@code src/main/resources/ptx/}) because nvcc also compiles it to the
     * PTX that {@link PtxBench} runs: one source for both.
     */
    static String source(String name) {
        try (java.io.InputStream in = Kernels.class.getResourceAsStream("/ptx/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the bench's resource /ptx/" + name + " is missing");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One element per thread; launched with 256-thread blocks. */
    static final String SAXPY = source("saxpy.cu");

    /** SAXPY as a grid-stride loop; launched with the grid capped at 1024 blocks of 256. */
    static final String SAXPY_GRID_STRIDE = source("saxpy_gs.cu");

    /**
     * The reduction as throughput-minded CUDA code writes it: each thread first accumulates a grid-stride
     * slice of the input in a register, then the block combines the threads' sums with the shared-memory
     * tree; thread 0 writes the block's partial sum, which the host adds up. Launched with the grid capped
     * at 1024 blocks.
     */
    static final String REDUCE_GRID_STRIDE = source("reduce_gs.cu");

    /**
     * The classic shared-memory tree reduction: each thread adds two elements while loading, then the block
     * halves the active threads each step; thread 0 writes the block's partial sum, which the host adds up.
     */
    static final String REDUCE = source("reduce.cu");

    /**
     * The grid-stride accumulation of {@link #REDUCE_GRID_STRIDE}, then the block's sum by warp shuffles: each
     * warp reduces its 32 sums with {@code __shfl_down_sync}, warp 0 reduces the warps' sums the same way.
     */
    static final String REDUCE_WARP = source("reduce_warp.cu");

    /** Black-Scholes in double precision, the cumulative normal from Abramowitz and Stegun (26.2.17). */
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
                double c = RSQRT2PI * exp(-0.5 * d * d)
                        * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
                if (d > 0) {
                    c = 1.0 - c;
                }
                return c;
            }

            extern "C" __global__ void blackScholes(double *call, double *put, const double *price,
                                                    const double *strike, const double *years,
                                                    double r, double v, int n)
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

    /**
     * Tiled SGEMM C = A * B (row-major, n x n): each block loads a TILE x TILE tile of A and of B into shared
     * memory per step, with a barrier after the loads and one after the products.
     */
    static String sgemm(int tile) {
        return "#define TILE " + tile + "\n" + """
                extern "C" __global__ void sgemm(const float *A, const float *B, float *C, int n)
                {
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
}
