// Escape-time Mandelbrot set: iterations until |z| > 2 (at most maxIter) for each pixel of a window of the
// complex plane, as an int image.

extern "C" __global__ void mandelbrot(int* iterations, int width, int height, float x0, float y0, float step,
                                      int maxIter)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= width || py >= height) {
        return;
    }
    float cr = x0 + px * step;
    float ci = y0 + py * step;
    float zr = 0.0f;
    float zi = 0.0f;
    int it = 0;
    while (it < maxIter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    iterations[py * width + px] = it;
}
