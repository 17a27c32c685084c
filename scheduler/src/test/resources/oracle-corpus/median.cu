// 3 x 3 median filter on an 8-bit image: each thread gathers its neighbourhood into a local array (edges
// clamp to the border) and sorts it by insertion.

extern "C" __global__ void median3x3(const unsigned char* src, unsigned char* dst, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) {
        return;
    }
    unsigned char window[9];
    int count = 0;
    for (int dy = -1; dy <= 1; dy++) {
        int yy = min(max(y + dy, 0), height - 1);
        for (int dx = -1; dx <= 1; dx++) {
            int xx = min(max(x + dx, 0), width - 1);
            window[count++] = src[yy * width + xx];
        }
    }
    for (int i = 1; i < 9; i++) {
        unsigned char v = window[i];
        int j = i - 1;
        while (j >= 0 && window[j] > v) {
            window[j + 1] = window[j];
            j--;
        }
        window[j + 1] = v;
    }
    dst[y * width + x] = window[4];
}
