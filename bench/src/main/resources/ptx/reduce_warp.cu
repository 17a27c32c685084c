__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

extern "C" __global__ void reduce_warp(const float *in, float *partial, int n)
{
    __shared__ float warpSums[32];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += in[i];
    }
    sum = warp_sum(sum);
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    if (lane == 0) {
        warpSums[warp] = sum;
    }
    __syncthreads();
    if (warp == 0) {
        sum = lane < (blockDim.x >> 5) ? warpSums[lane] : 0.0f;
        sum = warp_sum(sum);
        if (lane == 0) {
            partial[blockIdx.x] = sum;
        }
    }
}
