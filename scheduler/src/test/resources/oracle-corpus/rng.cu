// Counter-based random numbers as Monte Carlo kernels make them: each thread hashes (seed, index) with a
// 64-bit mix, steps a xorshift generator, and turns 24 random bits into a float in [0, 1); then estimates pi
// by counting samples inside the unit circle (integer atomics).

__device__ __forceinline__ unsigned long long rng_mix64(unsigned long long z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

__device__ __forceinline__ unsigned int rng_xorshift32(unsigned int* state)
{
    unsigned int x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

extern "C" __global__ void rng_uniform(float* out, unsigned int* raw, int n, unsigned long long seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned long long h = rng_mix64(seed + (unsigned long long) i * 0x9e3779b97f4a7c15ULL);
    unsigned int state = (unsigned int) (h >> 32) | 1u;
    unsigned int r = rng_xorshift32(&state);
    r = rng_xorshift32(&state) ^ __umulhi(r, 2654435761u);
    raw[i] = r;
    out[i] = (r >> 8) * (1.0f / 16777216.0f);
}

extern "C" __global__ void rng_pi(unsigned long long* inside, int samplesPerThread, unsigned int seed)
{
    unsigned int state = seed ^ (blockIdx.x * blockDim.x + threadIdx.x) * 747796405u;
    state = state == 0 ? 1u : state;
    unsigned long long hits = 0;
    for (int s = 0; s < samplesPerThread; s++) {
        float x = (rng_xorshift32(&state) >> 8) * (1.0f / 16777216.0f);
        float y = (rng_xorshift32(&state) >> 8) * (1.0f / 16777216.0f);
        if (x * x + y * y <= 1.0f) {
            hits++;
        }
    }
    atomicAdd(inside, hits);
}
