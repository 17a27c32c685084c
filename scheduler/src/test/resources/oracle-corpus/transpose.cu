// Matrix transpose through a 32 x 33 shared tile (the padding column keeps the column reads free of bank
// conflicts): blocks of 32 x 8 threads, each thread moving four elements. Any size; edges are guarded.

#define TR_TILE 32
#define TR_ROWS 8

extern "C" __global__ void transpose_padded(const float* in, float* out, int width, int height)
{
    __shared__ float tile[TR_TILE][TR_TILE + 1];
    int x = blockIdx.x * TR_TILE + threadIdx.x;
    int y = blockIdx.y * TR_TILE + threadIdx.y;
    for (int j = 0; j < TR_TILE; j += TR_ROWS) {
        if (x < width && y + j < height) {
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
        }
    }
    __syncthreads();
    x = blockIdx.y * TR_TILE + threadIdx.x;
    y = blockIdx.x * TR_TILE + threadIdx.y;
    for (int j = 0; j < TR_TILE; j += TR_ROWS) {
        if (x < height && y + j < width) {
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
        }
    }
}

#undef TR_TILE
#undef TR_ROWS
