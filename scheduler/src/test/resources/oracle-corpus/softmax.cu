#include <cmath>

// Row-wise softmax, one block per row: the row's maximum and then the sum of exp(x - max) are reduced in
// shared memory (a fixed tree), and every element is divided by the sum. The block size is a power of two.

extern "C" __global__ void softmax_rows(const float* in, float* out, int cols)
{
    extern __shared__ float red[];
    const float* x = in + (size_t) blockIdx.x * cols;
    float* y = out + (size_t) blockIdx.x * cols;
    int t = threadIdx.x;
    float m = -INFINITY;
    for (int c = t; c < cols; c += blockDim.x) {
        m = fmaxf(m, x[c]);
    }
    red[t] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            red[t] = fmaxf(red[t], red[t + s]);
        }
        __syncthreads();
    }
    float rowMax = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = t; c < cols; c += blockDim.x) {
        float e = expf(x[c] - rowMax);
        y[c] = e;
        sum += e;
    }
    red[t] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            red[t] += red[t + s];
        }
        __syncthreads();
    }
    float total = red[0];
    for (int c = t; c < cols; c += blockDim.x) {
        y[c] = y[c] / total;
    }
}
