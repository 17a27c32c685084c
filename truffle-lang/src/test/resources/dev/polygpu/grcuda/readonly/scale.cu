// Kernels that write through a parameter a signature may declare read-only. scale_sm75.ptx is
// `nvcc -ptx -arch=compute_75 -o scale_sm75.ptx scale.cu` (nvcc 13.0): bound from PTX, there is no source to
// analyze, so only the CPU device's run-time check can catch the write.
extern "C" __global__ void scale(float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = 3.0f * x[i];
        x[i] = 7.0f;
    }
}

extern "C" __global__ void poke(const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        ((float*) x)[i] = 1.0f;
    }
}
