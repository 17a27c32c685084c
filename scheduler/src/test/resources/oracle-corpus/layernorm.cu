// Layer normalization of each row (one block per row, a power-of-two block): mean and variance by shared-memory
// tree reductions in a fixed order, then (x - mean) * rsqrtf(variance + eps) * gamma + beta.

extern "C" __global__ void layernorm_rows(const float* x, const float* gamma, const float* beta, float* y,
                                          float* rowInvStd, int cols, float eps)
{
    extern __shared__ float red[];
    const float* row = x + blockIdx.x * cols;
    int t = threadIdx.x;
    float sum = 0.0f;
    for (int c = t; c < cols; c += blockDim.x) {
        sum += row[c];
    }
    red[t] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            red[t] += red[t + s];
        }
        __syncthreads();
    }
    float mean = red[0] / cols;
    __syncthreads();
    float sq = 0.0f;
    for (int c = t; c < cols; c += blockDim.x) {
        float d = row[c] - mean;
        sq += d * d;
    }
    red[t] = sq;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            red[t] += red[t + s];
        }
        __syncthreads();
    }
    float inv = rsqrtf(red[0] / cols + eps);
    if (t == 0) {
        rowInvStd[blockIdx.x] = inv;
    }
    for (int c = t; c < cols; c += blockDim.x) {
        y[blockIdx.x * cols + c] = (row[c] - mean) * inv * gamma[c] + beta[c];
    }
}
