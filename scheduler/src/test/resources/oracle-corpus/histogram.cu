// 256-bin byte histogram: each block counts into a shared histogram with shared-memory atomics, then adds
// its counts to the global one. Integer additions, so the order of the atomics does not matter.

extern "C" __global__ void hist256_shared(const unsigned char* data, int n, unsigned int* hist)
{
    __shared__ unsigned int local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        unsigned int c = local[b];
        if (c != 0) {
            atomicAdd(&hist[b], c);
        }
    }
}
