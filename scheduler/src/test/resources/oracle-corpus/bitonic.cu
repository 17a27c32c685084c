// Bitonic sort. bitonic_sort_shared sorts each block's 2 * blockDim.x keys in shared memory (ascending), the
// classic first pass of a GPU sort; bitonic_merge_step is one compare-and-swap step (j, k) over the whole
// array in global memory, the pass that merges sorted blocks.

extern "C" __global__ void bitonic_sort_shared(float* keys, unsigned int* values)
{
    extern __shared__ float sk[];
    unsigned int* sv = (unsigned int*) &sk[2 * blockDim.x];
    unsigned int n = 2 * blockDim.x;
    unsigned int base = blockIdx.x * n;
    unsigned int t = threadIdx.x;
    sk[t] = keys[base + t];
    sk[t + blockDim.x] = keys[base + t + blockDim.x];
    sv[t] = values[base + t];
    sv[t + blockDim.x] = values[base + t + blockDim.x];
    for (unsigned int size = 2; size <= n; size <<= 1) {
        for (unsigned int stride = size >> 1; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned int pos = 2 * t - (t & (stride - 1));
            bool ascending = ((pos & size) == 0) || size == n;
            float a = sk[pos];
            float b = sk[pos + stride];
            if ((a > b) == ascending) {
                sk[pos] = b;
                sk[pos + stride] = a;
                unsigned int va = sv[pos];
                sv[pos] = sv[pos + stride];
                sv[pos + stride] = va;
            }
        }
    }
    __syncthreads();
    keys[base + t] = sk[t];
    keys[base + t + blockDim.x] = sk[t + blockDim.x];
    values[base + t] = sv[t];
    values[base + t + blockDim.x] = sv[t + blockDim.x];
}

extern "C" __global__ void bitonic_merge_step(unsigned int* keys, int j, int k)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int partner = i ^ j;
    if (partner > i) {
        unsigned int a = keys[i];
        unsigned int b = keys[partner];
        bool up = (i & k) == 0;
        if ((up && a > b) || (!up && a < b)) {
            keys[i] = b;
            keys[partner] = a;
        }
    }
}
