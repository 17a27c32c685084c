// Kernels for the PTX interpreter's tests (PtxKernelsTest). Each runs both from the committed PTX
// (kernels_sm75.ptx, kernels_sm90.ptx) and from this source through the CPU device's CUDA C engine.
#include <cstdint>

extern "C" __global__ void saxpy(float *y, const float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void grid_stride_add(double *out, const double *a, const double *b, long n) {
    for (long i = blockIdx.x * (long) blockDim.x + threadIdx.x; i < n; i += (long) blockDim.x * gridDim.x) {
        out[i] = a[i] + b[i] * 0.5;
    }
}

extern "C" __global__ void matmul(const float *a, const float *b, float *c, int m, int k, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int i = 0; i < k; i++) acc += a[row * k + i] * b[i * n + col];
        c[row * n + col] = acc;
    }
}

extern "C" __global__ void block_sum(const int *in, int *out, int n) {
    __shared__ int buf[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}

extern "C" __global__ void reverse_dyn(float *data, int n) {
    extern __shared__ float tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) tile[t] = data[i];
    __syncthreads();
    int j = blockDim.x - 1 - t;
    int src = blockIdx.x * blockDim.x + j;
    if (i < n && src < n) data[i] = tile[j];
}

extern "C" __global__ void atomics(int *icount, float *fsum, double *dsum, unsigned *umax, int *cas, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(icount, 1);
        atomicAdd(fsum, 0.5f);
        atomicAdd(dsum, (double) i);
        atomicMax(umax, (unsigned) (i * 7 % 1000));
        int old = *cas, assumed;
        do {
            assumed = old;
            old = atomicCAS(cas, assumed, assumed + 3);
        } while (old != assumed);
    }
}

extern "C" __global__ void warp_reduce(const int *in, int *sums, unsigned *ballots, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    unsigned b = __ballot_sync(0xffffffffu, v % 2 != 0);
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) {
        int w = i / 32;
        sums[w] = v;
        ballots[w] = b;
    }
}

extern "C" __global__ void math_f(const float *x, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[5 * i + 0] = sqrtf(v);
        out[5 * i + 1] = expf(v * 0.25f);
        out[5 * i + 2] = sinf(v);
        out[5 * i + 3] = powf(v, 1.5f);
        out[5 * i + 4] = fmaf(v, 2.0f, 1.0f);
    }
}

extern "C" __global__ void math_d(const double *x, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = x[i];
        out[3 * i + 0] = sqrt(v);
        out[3 * i + 1] = v / (v + 1.0);
        out[3 * i + 2] = fma(v, v, -1.0);
    }
}

extern "C" __global__ void ints(int64_t *out, unsigned *uout, const int64_t *a, unsigned u, char c, short s,
                                int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] * 3 + c - s + a[i] / 7 - (a[i] % 5);
        uout[i] = (u >> (i % 7)) ^ (unsigned) i;
    }
}

template <typename T>
__global__ void scale(T *p, T f, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * f;
}
template __global__ void scale<float>(float *, float, int);
template __global__ void scale<double>(double *, double, int);

__device__ __noinline__ int collatz_steps(int v) {
    int steps = 0;
    while (v != 1 && steps < 1000) {
        v = (v % 2 == 0) ? v / 2 : 3 * v + 1;
        steps++;
    }
    return steps;
}

extern "C" __global__ void collatz(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = collatz_steps(in[i]);
}
