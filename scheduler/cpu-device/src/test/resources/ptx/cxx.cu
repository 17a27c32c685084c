// C++ kernels for PtxKernelsTest that the CPU device's CUDA C engine does not compile (namespaces, a struct
// passed by value): their PTX results are checked against Java only.

namespace aa { namespace bb {
__global__ void inc_kernel(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}
} }

struct Affine { float a; float b; int n; };
extern "C" __global__ void affine(float *p, Affine t) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < t.n) p[i] = t.a * p[i] + t.b;
}

