// One pass of a least-significant-digit radix sort, split by one bit: within each block the keys whose bit is
// 0 go first and those whose bit is 1 after them, both in their original order (a stable partition), using
// warp ballots and population counts for the ranks. Also writes each block's count of zeros for the pass
// that would place the blocks.

extern "C" __global__ void radix_split_bit(const unsigned int* keys, unsigned int* out, int* zerosPerBlock,
                                           int bit)
{
    __shared__ int warpZeros[32];
    __shared__ int warpBase[33];
    unsigned int key = keys[blockIdx.x * blockDim.x + threadIdx.x];
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    bool one = (key >> bit) & 1u;
    unsigned int zeros = __ballot_sync(0xffffffffu, !one);
    unsigned int below = (1u << lane) - 1u;
    int zeroRank = __popc(zeros & below);
    int oneRank = __popc(~zeros & below);
    if (lane == 0) {
        warpZeros[warp] = __popc(zeros);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        int warps = blockDim.x >> 5;
        for (int w = 0; w < warps; w++) {
            warpBase[w] = total;
            total += warpZeros[w];
        }
        warpBase[32] = total;
        zerosPerBlock[blockIdx.x] = total;
    }
    __syncthreads();
    int totalZeros = warpBase[32];
    int pos;
    if (!one) {
        pos = warpBase[warp] + zeroRank;
    } else {
        int onesBefore = warp * 32 - warpBase[warp];
        pos = totalZeros + onesBefore + oneRank;
    }
    out[blockIdx.x * blockDim.x + pos] = key;
}
