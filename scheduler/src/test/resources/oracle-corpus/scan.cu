// Prefix sums. scan_block: the work-efficient (up-sweep / down-sweep) exclusive scan of 2 * blockDim.x
// floats per block in shared memory, with each block's total written out for a later pass. scan_chained: an
// inclusive scan of a whole array in one launch: blocks take chunks in the order they start (a ticket from
// an atomic counter), scan their chunk, then wait for the running total of the chunk before theirs, add it
// and publish their own (a chained scan: each block looks back at its predecessor only).

extern "C" __global__ void scan_block(const float* in, float* out, float* blockSums, int n)
{
    extern __shared__ float buf[];
    int tid = threadIdx.x;
    int m = 2 * blockDim.x;
    int base = blockIdx.x * m;
    buf[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0.0f;
    buf[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0.0f;
    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            buf[bi] += buf[ai];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        blockSums[blockIdx.x] = buf[m - 1];
        buf[m - 1] = 0.0f;
    }
    for (int d = 1; d < m; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            float t = buf[ai];
            buf[ai] = buf[bi];
            buf[bi] += t;
        }
    }
    __syncthreads();
    if (base + 2 * tid < n) {
        out[base + 2 * tid] = buf[2 * tid];
    }
    if (base + 2 * tid + 1 < n) {
        out[base + 2 * tid + 1] = buf[2 * tid + 1];
    }
}

#define SC_THREADS 128

extern "C" __global__ void scan_chained(const float* in, float* out, int n, unsigned int* ticketCounter,
                                        int* ready, float* runningTotal)
{
    __shared__ float s[SC_THREADS];
    __shared__ unsigned int chunk;
    __shared__ float carry;
    int tid = threadIdx.x;
    if (tid == 0) {
        chunk = atomicAdd(ticketCounter, 1u);
    }
    __syncthreads();
    int i = chunk * SC_THREADS + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    // Hillis-Steele inclusive scan of the chunk
    for (int off = 1; off < SC_THREADS; off <<= 1) {
        float add = tid >= off ? s[tid - off] : 0.0f;
        __syncthreads();
        s[tid] += add;
        __syncthreads();
    }
    if (tid == 0) {
        float before = 0.0f;
        if (chunk > 0) {
            volatile int* flags = ready;
            while (flags[chunk - 1] == 0) {
            }
            __threadfence();
            before = ((volatile float*) runningTotal)[chunk - 1];
        }
        runningTotal[chunk] = before + s[SC_THREADS - 1];
        __threadfence();
        atomicExch(&ready[chunk], 1);
        carry = before;
    }
    __syncthreads();
    if (i < n) {
        out[i] = carry + s[tid];
    }
}

#undef SC_THREADS
