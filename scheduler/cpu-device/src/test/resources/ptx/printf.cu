#include <cstdio>
#include <cassert>

// printf and assert as nvcc lowers them (vprintf, __assertfail); see PtxPrintfTest.
extern "C" __global__ void show(const int* v, const double* d, int* r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long big = (long long) v[i] * 1000000007LL;
        r[i] = printf("i=%d v=%+05d x=%#x big=%lld d=%.3e f=%g c=%c s=%s%%\n", i, v[i], v[i], big, d[i], (float) d[i] * 2.0f,
               'A' + i % 26, "ok");
    }
    if (i == 0) {
        r[n] = printf("no arguments\n");
    }
}

extern "C" __global__ void check(const int* v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(v[i] >= 0);
    }
}
