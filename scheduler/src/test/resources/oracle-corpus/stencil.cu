// One Jacobi sweep of a 5-point stencil on a 2-D grid, through a shared-memory tile with a one-cell halo.
// Border cells of the grid keep their value.

#define ST_BX 16
#define ST_BY 16

extern "C" __global__ void stencil2d_5pt(const float* __restrict__ in, float* __restrict__ out,
                                         int width, int height, float c0, float c1)
{
    __shared__ float tile[ST_BY + 2][ST_BX + 2];
    int x = blockIdx.x * ST_BX + threadIdx.x;
    int y = blockIdx.y * ST_BY + threadIdx.y;
    int tx = threadIdx.x + 1;
    int ty = threadIdx.y + 1;
    bool inside = x < width && y < height;
    tile[ty][tx] = inside ? in[y * width + x] : 0.0f;
    if (threadIdx.x == 0) {
        tile[ty][0] = (x > 0 && y < height) ? in[y * width + x - 1] : 0.0f;
    }
    if (threadIdx.x == ST_BX - 1 || x == width - 1) {
        tile[ty][tx + 1] = (x + 1 < width && y < height) ? in[y * width + x + 1] : 0.0f;
    }
    if (threadIdx.y == 0) {
        tile[0][tx] = (y > 0 && x < width) ? in[(y - 1) * width + x] : 0.0f;
    }
    if (threadIdx.y == ST_BY - 1 || y == height - 1) {
        tile[ty + 1][tx] = (y + 1 < height && x < width) ? in[(y + 1) * width + x] : 0.0f;
    }
    __syncthreads();
    if (!inside) {
        return;
    }
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[y * width + x] = tile[ty][tx];
        return;
    }
    float sum = tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1];
    out[y * width + x] = c0 * tile[ty][tx] + c1 * sum;
}

#undef ST_BX
#undef ST_BY
