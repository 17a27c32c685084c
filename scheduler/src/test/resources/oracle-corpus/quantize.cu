// Quantization as inference code does it: symmetric int8 quantization of a tensor with a per-row scale
// (round to nearest even, saturate to [-127, 127]), the int8 dot products of two quantized rows accumulated in
// int32, and dequantization back to float; plus the float-to-integer conversions and roundings such code leans
// on, each written to its own column.

extern "C" __global__ void quantize_rows(const float* x, signed char* q, float* scales, int cols)
{
    __shared__ float absMax[128];
    const float* row = x + blockIdx.x * cols;
    float m = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        m = fmaxf(m, fabsf(row[c]));
    }
    absMax[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            absMax[threadIdx.x] = fmaxf(absMax[threadIdx.x], absMax[threadIdx.x + s]);
        }
        __syncthreads();
    }
    float scale = absMax[0] / 127.0f;
    float inv = scale > 0.0f ? 1.0f / scale : 0.0f;
    if (threadIdx.x == 0) {
        scales[blockIdx.x] = scale;
    }
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        int v = __float2int_rn(row[c] * inv);
        v = max(-127, min(127, v));
        q[blockIdx.x * cols + c] = (signed char) v;
    }
}

extern "C" __global__ void int8_dot_dequant(const signed char* a, const signed char* b, const float* scaleA,
                                            const float* scaleB, int* dots, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) {
        return;
    }
    int acc = 0;
    for (int c = 0; c < cols; c++) {
        acc += (int) a[r * cols + c] * (int) b[r * cols + c];
    }
    dots[r] = acc;
    out[r] = (float) acc * scaleA[r] * scaleB[r];
}

extern "C" __global__ void float_conversions(const float* x, int* ints, unsigned int* uints, float* rounded,
                                             double* widened, long long* wide, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float v = x[i];
    ints[8 * i + 0] = (int) v;
    ints[8 * i + 1] = __float2int_rn(v);
    ints[8 * i + 2] = __float2int_rd(v);
    ints[8 * i + 3] = __float2int_ru(v);
    ints[8 * i + 4] = (int) rintf(v);
    ints[8 * i + 5] = lrintf(v);
    ints[8 * i + 6] = (int) lroundf(v);
    ints[8 * i + 7] = __float_as_int(v) >> 3;
    uints[2 * i + 0] = __float2uint_rz(fabsf(v));
    uints[2 * i + 1] = (unsigned int) (fabsf(v) * 1000.0f);
    rounded[6 * i + 0] = roundf(v);
    rounded[6 * i + 1] = truncf(v);
    rounded[6 * i + 2] = floorf(v);
    rounded[6 * i + 3] = ceilf(v);
    rounded[6 * i + 4] = __saturatef(v);
    rounded[6 * i + 5] = (float) (double) v * 0.1f;
    widened[i] = (double) v * 0.1;
    wide[i] = (long long) ((double) v * 1e12);
}
