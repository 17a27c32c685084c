// Separable convolution with a 9-tap filter in constant memory: a row pass and a column pass, each loading
// its block's pixels plus an apron of CONV_R pixels on either side into shared memory. Outside the image
// counts as zero (the usual "zero padding").

#define CONV_R 4
#define CONV_TILE 32

__constant__ float conv_weights[2 * CONV_R + 1] = {
    0.0162162f, 0.0540540f, 0.1216216f, 0.1945946f, 0.2270270f,
    0.1945946f, 0.1216216f, 0.0540540f, 0.0162162f
};

// block: CONV_TILE x 4 threads; each row of the block convolves CONV_TILE pixels of one image row
extern "C" __global__ void conv_rows(const float* src, float* dst, int width, int height)
{
    __shared__ float line[4][CONV_TILE + 2 * CONV_R];
    int x = blockIdx.x * CONV_TILE + threadIdx.x;
    int y = blockIdx.y * 4 + threadIdx.y;
    float* s = line[threadIdx.y];
    bool rowOk = y < height;
    s[threadIdx.x + CONV_R] = (rowOk && x < width) ? src[y * width + x] : 0.0f;
    if (threadIdx.x < CONV_R) {
        int left = x - CONV_R;
        int right = x + CONV_TILE;
        s[threadIdx.x] = (rowOk && left >= 0) ? src[y * width + left] : 0.0f;
        s[threadIdx.x + CONV_TILE + CONV_R] = (rowOk && right < width) ? src[y * width + right] : 0.0f;
    }
    __syncthreads();
    if (!rowOk || x >= width) {
        return;
    }
    float acc = 0.0f;
    for (int k = -CONV_R; k <= CONV_R; k++) {
        acc += conv_weights[CONV_R + k] * s[threadIdx.x + CONV_R + k];
    }
    dst[y * width + x] = acc;
}

// block: 16 x CONV_TILE/2 threads; each thread convolves two pixels of one column
extern "C" __global__ void conv_cols(const float* src, float* dst, int width, int height)
{
    __shared__ float col[CONV_TILE + 2 * CONV_R][16 + 1];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y0 = blockIdx.y * CONV_TILE;
    for (int i = threadIdx.y; i < CONV_TILE + 2 * CONV_R; i += blockDim.y) {
        int y = y0 + i - CONV_R;
        col[i][threadIdx.x] = (x < width && y >= 0 && y < height) ? src[y * width + x] : 0.0f;
    }
    __syncthreads();
    if (x >= width) {
        return;
    }
    for (int i = threadIdx.y; i < CONV_TILE; i += blockDim.y) {
        int y = y0 + i;
        if (y < height) {
            float acc = 0.0f;
            for (int k = -CONV_R; k <= CONV_R; k++) {
                acc += conv_weights[CONV_R + k] * col[i + CONV_R + k][threadIdx.x];
            }
            dst[y * width + x] = acc;
        }
    }
}

#undef CONV_R
#undef CONV_TILE
