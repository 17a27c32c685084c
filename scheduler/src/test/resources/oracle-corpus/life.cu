// One generation of Conway's Game of Life on a torus: neighbours wrap around the edges (with the modulo of
// a sum that stays non-negative), cells are bytes.

extern "C" __global__ void life_step(const unsigned char* cells, unsigned char* next, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) {
        return;
    }
    int alive = 0;
    for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
            if (dx != 0 || dy != 0) {
                int xx = (x + dx + width) % width;
                int yy = (y + dy + height) % height;
                alive += cells[yy * width + xx];
            }
        }
    }
    unsigned char me = cells[y * width + x];
    next[y * width + x] = (alive == 3 || (alive == 2 && me)) ? 1 : 0;
}
