// Sparse matrix (CSR) times dense vector. spmv_csr_scalar: one thread per row. spmv_csr_vector: one warp per
// row, lanes taking every 32nd non-zero, then a shuffle-down tree: the usual "vector" kernel for rows with
// many non-zeros.

extern "C" __global__ void spmv_csr_scalar(int rows, const int* rowStart, const int* colIndex,
                                           const float* values, const float* x, float* y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float dot = 0.0f;
        int end = rowStart[row + 1];
        for (int j = rowStart[row]; j < end; j++) {
            dot += values[j] * x[colIndex[j]];
        }
        y[row] = dot;
    }
}

extern "C" __global__ void spmv_csr_vector(int rows, const int* rowStart, const int* colIndex,
                                           const float* values, const float* x, float* y)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (warp >= rows) {
        return;
    }
    float sum = 0.0f;
    for (int j = rowStart[warp] + lane; j < rowStart[warp + 1]; j += 32) {
        sum += values[j] * x[colIndex[j]];
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    }
    if (lane == 0) {
        y[warp] = sum;
    }
}
