// Warp votes: per warp, the ballot of lanes holding a value above a threshold, whether any or all do; and
// the warp-aggregated counter: the lanes that pass elect a leader among those active, which adds their count
// with one atomic (the total does not depend on how the lanes are grouped).

extern "C" __global__ void warp_votes(const float* x, float threshold, int n, unsigned int* ballots,
                                      int* anyAll, int* total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warpId = i >> 5;
    bool above = i < n && x[i] > threshold;
    unsigned int b = __ballot_sync(0xffffffffu, above);
    int anyAbove = __any_sync(0xffffffffu, above);
    int allAbove = __all_sync(0xffffffffu, above);
    if (lane == 0) {
        ballots[warpId] = b;
        anyAll[2 * warpId] = anyAbove;
        anyAll[2 * warpId + 1] = allAbove;
    }
    if (above) {
        unsigned int active = __activemask();
        int leader = __ffs(active) - 1;
        if (lane == leader) {
            atomicAdd(total, __popc(active));
        }
    }
}
