// Kernels that write through a pointer their launch may pass read-only (PtxReadOnlyParamTest).

// y[i] = 2 * x[i], then x[i] = y[i]: a store through x.
extern "C" __global__ void twice_both(float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = 2.0f * x[i];
        y[i] = v;
        x[i] = v;
    }
}

// y[i] = 2 * x[i]: reads x only.
extern "C" __global__ void twice(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = 2.0f * x[i];
    }
}

// Adds 1 to the four floats at x + 4 * i with one vector store.
extern "C" __global__ void bump4(float4 *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = x[i];
        x[i] = make_float4(v.x + 1.0f, v.y + 1.0f, v.z + 1.0f, v.w + 1.0f);
    }
}

// Counts the threads into x[0].
extern "C" __global__ void count(int *x)
{
    atomicAdd(x, 1);
}
