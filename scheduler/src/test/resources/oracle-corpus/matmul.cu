// Tiled single-precision matrix multiply C = A * B (A is M x K, B is K x N, row-major), the textbook
// shared-memory version: each block computes one TILE x TILE tile of C, walking K tile by tile. Sizes need not
// be multiples of the tile: out-of-range loads read zero, out-of-range threads store nothing.

template <int TILE>
__device__ void mm_tiled_body(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    int tiles = (K + TILE - 1) / TILE;
    for (int t = 0; t < tiles; ++t) {
        int ka = t * TILE + threadIdx.x;
        int kb = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    if (row < M && col < N) {
        C[row * N + col] = acc;
    }
}

extern "C" __global__ void mm_tiled16(const float* A, const float* B, float* C, int M, int N, int K)
{
    mm_tiled_body<16>(A, B, C, M, N, K);
}

extern "C" __global__ void mm_tiled32(const float* A, const float* B, float* C, int M, int N, int K)
{
    mm_tiled_body<32>(A, B, C, M, N, K);
}
