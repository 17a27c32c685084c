// A GrCUDA-style image pipeline, one kernel per stage, on row-major single-channel images: bytes to floats,
// Gaussian blur with the weights staged in shared memory, Sobel edge magnitude, extrema with integer atomics
// on the bits of non-negative floats (their order is that of the integers), contrast stretch, unsharp mask,
// blend through a mask, and back to bytes.

extern "C" __global__ void img_to_float(const unsigned char* src, float* dst, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        dst[i] = (float) src[i] / 255.0f;
    }
}

extern "C" __global__ void img_gaussian_blur(const float* img, float* out, int rows, int cols,
                                             const float* weights, int diameter)
{
    extern __shared__ float w[];
    int local = threadIdx.y * blockDim.x + threadIdx.x;
    for (int k = local; k < diameter * diameter; k += blockDim.x * blockDim.y) {
        w[k] = weights[k];
    }
    __syncthreads();
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows || c >= cols) {
        return;
    }
    int radius = diameter / 2;
    float sum = 0.0f;
    float norm = 0.0f;
    for (int dy = -radius; dy <= radius; dy++) {
        for (int dx = -radius; dx <= radius; dx++) {
            int rr = r + dy;
            int cc = c + dx;
            if (rr >= 0 && rr < rows && cc >= 0 && cc < cols) {
                float k = w[(dy + radius) * diameter + dx + radius];
                sum += k * img[rr * cols + cc];
                norm += k;
            }
        }
    }
    out[r * cols + c] = sum / norm;
}

extern "C" __global__ void img_sobel(const float* img, float* out, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows || c >= cols) {
        return;
    }
    if (r == 0 || c == 0 || r == rows - 1 || c == cols - 1) {
        out[r * cols + c] = 0.0f;
        return;
    }
    const float* p = img + r * cols + c;
    float gx = (p[-cols + 1] + 2.0f * p[1] + p[cols + 1]) - (p[-cols - 1] + 2.0f * p[-1] + p[cols - 1]);
    float gy = (p[cols - 1] + 2.0f * p[cols] + p[cols + 1]) - (p[-cols - 1] + 2.0f * p[-cols] + p[-cols + 1]);
    out[r * cols + c] = sqrtf(gx * gx + gy * gy);
}

extern "C" __global__ void img_extrema(const float* img, int n, int* maxBits, int* minBits)
{
    int hi = 0;
    int lo = 0x7f800000;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = __float_as_int(img[i]);
        hi = max(hi, b);
        lo = min(lo, b);
    }
    atomicMax(maxBits, hi);
    atomicMin(minBits, lo);
}

extern "C" __global__ void img_extend(float* img, int n, float lo, float hi)
{
    float scale = 1.0f / (hi - lo);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = (img[i] - lo) * scale;
        img[i] = fminf(fmaxf(v, 0.0f), 1.0f);
    }
}

extern "C" __global__ void img_unsharpen(const float* img, const float* blurred, float* out, int n, float amount)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = img[i] * (1.0f + amount) - blurred[i] * amount;
    }
}

extern "C" __global__ void img_combine(const float* a, const float* b, const float* mask, float* out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = a[i] * mask[i] + b[i] * (1.0f - mask[i]);
    }
}

extern "C" __global__ void img_to_bytes(const float* src, unsigned char* dst, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = fminf(fmaxf(src[i], 0.0f), 1.0f);
        dst[i] = (unsigned char) (v * 255.0f + 0.5f);
    }
}
