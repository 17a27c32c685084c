// Double-precision matrix-vector product y = alpha * A x + beta * y, one warp per row: lanes take every 32nd
// column, a butterfly of __shfl_xor_sync leaves the row's sum in every lane; and the float atomic maximum
// through atomicCAS on the bits, as codes without a float atomicMax write it (the maximum does not depend on
// the order of the attempts).

extern "C" __global__ void gemv_warp_f64(const double* A, const double* x, double* y, int rows, int cols,
                                         double alpha, double beta)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row >= rows) {
        return;
    }
    double sum = 0.0;
    for (int c = lane; c < cols; c += 32) {
        sum += A[(size_t) row * cols + c] * x[c];
    }
    for (int mask = 16; mask > 0; mask >>= 1) {
        sum += __shfl_xor_sync(0xffffffffu, sum, mask);
    }
    if (lane == 0) {
        y[row] = alpha * sum + beta * y[row];
    }
}

__device__ float gemv_atomic_max_float(float* address, float value)
{
    int* bits = (int*) address;
    int old = *bits;
    while (__int_as_float(old) < value) {
        int assumed = old;
        old = atomicCAS(bits, assumed, __float_as_int(value));
        if (old == assumed) {
            break;
        }
    }
    return __int_as_float(old);
}

extern "C" __global__ void max_abs_f32(const float* x, float* result, int n)
{
    float m = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        m = fmaxf(m, fabsf(x[i]));
    }
    gemv_atomic_max_float(result, m);
}
