#include <climits>

// Reductions with warp shuffles. Each thread first accumulates a grid-stride slice, each warp then reduces
// with a shuffle tree, warp results meet in shared memory and the first warp reduces those. Floating-point
// sums are written per block (their order is fixed); the integer maximum goes to one global value with an
// atomic (the order of atomicMax calls does not matter).

__device__ __forceinline__ float red_warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

__device__ __forceinline__ double red_warp_sum_d(double v)
{
    for (int mask = 16; mask > 0; mask >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, mask);
    }
    return v;
}

__device__ __forceinline__ int red_warp_max(int v)
{
    for (int mask = 1; mask < 32; mask <<= 1) {
        v = max(v, __shfl_xor_sync(0xffffffffu, v, mask));
    }
    return v;
}

extern "C" __global__ void reduce_sum_f32(const float* in, float* blockSums, int n)
{
    __shared__ float warpSums[32];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        v += in[i];
    }
    v = red_warp_sum(v);
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    if (lane == 0) {
        warpSums[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        int warps = (blockDim.x + 31) >> 5;
        v = lane < warps ? warpSums[lane] : 0.0f;
        v = red_warp_sum(v);
        if (lane == 0) {
            blockSums[blockIdx.x] = v;
        }
    }
}

extern "C" __global__ void reduce_sum_f64(const double* in, double* blockSums, int n)
{
    __shared__ double warpSums[32];
    double v = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        v += in[i] * in[i];
    }
    v = red_warp_sum_d(v);
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    if (lane == 0) {
        warpSums[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        int warps = (blockDim.x + 31) >> 5;
        v = lane < warps ? warpSums[lane] : 0.0;
        v = red_warp_sum_d(v);
        if (lane == 0) {
            blockSums[blockIdx.x] = v;
        }
    }
}

extern "C" __global__ void reduce_max_i32(const int* in, int* result, int n)
{
    __shared__ int warpMax[32];
    int v = INT_MIN;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        v = max(v, in[i]);
    }
    v = red_warp_max(v);
    int lane = threadIdx.x & 31;
    if (lane == 0) {
        warpMax[threadIdx.x >> 5] = v;
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        int warps = (blockDim.x + 31) >> 5;
        v = lane < warps ? warpMax[lane] : INT_MIN;
        v = red_warp_max(v);
        if (lane == 0) {
            atomicMax(result, v);
        }
    }
}
