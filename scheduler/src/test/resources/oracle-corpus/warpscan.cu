// Block-wide inclusive scan built from warp scans: each warp scans its 32 values with __shfl_up_sync, the
// warp totals meet in shared memory, the first warp scans them, and every thread adds its warp's offset.
// An integer and a float version; both write each block's total.

__device__ __forceinline__ int ws_warp_scan_i(int v, int lane)
{
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) {
            v += up;
        }
    }
    return v;
}

__device__ __forceinline__ float ws_warp_scan_f(float v, int lane)
{
    for (int d = 1; d < 32; d <<= 1) {
        float up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) {
            v += up;
        }
    }
    return v;
}

extern "C" __global__ void warp_scan_i32(const int* in, int* out, int* blockTotals, int n)
{
    __shared__ int warpTotals[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    int v = i < n ? in[i] : 0;
    v = ws_warp_scan_i(v, lane);
    if (lane == 31) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        int warps = blockDim.x >> 5;
        int t = lane < warps ? warpTotals[lane] : 0;
        t = ws_warp_scan_i(t, lane);
        warpTotals[lane] = t;
    }
    __syncthreads();
    if (warp > 0) {
        v += warpTotals[warp - 1];
    }
    if (i < n) {
        out[i] = v;
    }
    if (threadIdx.x == blockDim.x - 1) {
        blockTotals[blockIdx.x] = v;
    }
}

extern "C" __global__ void warp_scan_f32(const float* in, float* out, float* blockTotals, int n)
{
    __shared__ float warpTotals[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    float v = i < n ? in[i] : 0.0f;
    v = ws_warp_scan_f(v, lane);
    if (lane == 31) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        int warps = blockDim.x >> 5;
        float t = lane < warps ? warpTotals[lane] : 0.0f;
        t = ws_warp_scan_f(t, lane);
        warpTotals[lane] = t;
    }
    __syncthreads();
    if (warp > 0) {
        v += warpTotals[warp - 1];
    }
    if (i < n) {
        out[i] = v;
    }
    if (threadIdx.x == blockDim.x - 1) {
        blockTotals[blockIdx.x] = v;
    }
}
