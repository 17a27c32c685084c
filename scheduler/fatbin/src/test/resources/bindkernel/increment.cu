// Kernels of the bindkernel fixtures (increment.ptx, increment.cubin): see README.md for how they are built.

// C linkage: the entry is named as in the source.
extern "C" __global__ void c_inc(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] += 1;
    }
}

namespace aa {
namespace bb {
// C++ linkage in a namespace: the entry is _ZN2aa2bb10inc_kernelEPii.
__global__ void inc_kernel(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] += 2;
    }
}
}  // namespace bb
}  // namespace aa

// A template, instantiated below for float and int only.
template <typename T>
__global__ void scale(T *a, T factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] *= factor;
    }
}

template __global__ void scale<float>(float *, float, int);
template __global__ void scale<int>(int *, int, int);

struct Triple {
    int x;
    int y;
    int z;
};

// One parameter of each size; the C layout places them at offsets 0, 2, 4, 8, 16, 24 and 40 (bytes 1, 2, 4, 8,
// 8, 12 and 8): 48 bytes in all.
extern "C" __global__ void mixed(char c, short s, int i, double d, long long *out, Triple t, double *sum) {
    out[0] = c + s + i + t.x + t.y + t.z;
    sum[0] = d;
}
