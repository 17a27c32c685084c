"""IMG: an image pipeline — three Gaussian blurs, Sobel edge detection on two of them, unsharpen, and two
combine steps that blend the branches by the edge masks.

The three branches are independent until the combines join them; kernels use 2-D grids and dynamic shared
memory (the blur weights). Run: ./polygpu samples-python/image_pipeline.py [-n SIDE | --size large]
"""
import math
import sys
import time
import polyglot

KERNELS = """
__global__ void gaussian_blur(const float *image, float *result, int rows, int cols,
                              const float *weights, int diameter) {
    extern __shared__ float local_weights[];
    for (int a = threadIdx.x; a < diameter; a += blockDim.x) {
        for (int b = threadIdx.y; b < diameter; b += blockDim.y) {
            local_weights[a * diameter + b] = weights[a * diameter + b];
        }
    }
    __syncthreads();
    int radius = diameter / 2;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += blockDim.x * gridDim.x) {
        for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < cols; j += blockDim.y * gridDim.y) {
            float sum = 0.0f;
            for (int a = -radius; a <= radius; a++) {
                int r = min(max(i + a, 0), rows - 1);
                for (int b = -radius; b <= radius; b++) {
                    int c = min(max(j + b, 0), cols - 1);
                    sum += local_weights[(a + radius) * diameter + (b + radius)] * image[r * cols + c];
                }
            }
            result[i * cols + j] = sum;
        }
    }
}

__global__ void sobel(const float *image, float *result, int rows, int cols) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += blockDim.x * gridDim.x) {
        for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < cols; j += blockDim.y * gridDim.y) {
            if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1) {
                result[i * cols + j] = 0.0f;
                continue;
            }
            const float *p = image + i * cols + j;
            float gx = -p[-cols - 1] - 2.0f * p[-1] - p[cols - 1] + p[-cols + 1] + 2.0f * p[1] + p[cols + 1];
            float gy = -p[-cols - 1] - 2.0f * p[-cols] - p[-cols + 1] + p[cols - 1] + 2.0f * p[cols] + p[cols + 1];
            result[i * cols + j] = fminf(1.0f, sqrtf(gx * gx + gy * gy));
        }
    }
}

__global__ void unsharpen(const float *image, const float *blurred, float *result, float amount, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        result[i] = fminf(1.0f, fmaxf(0.0f, image[i] * (1.0f + amount) - blurred[i] * amount));
    }
}

__global__ void combine(const float *x, const float *y, const float *mask, float *result, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        result[i] = x[i] * mask[i] + y[i] * (1.0f - mask[i]);
    }
}
"""

AMOUNT = 0.5


def size(default, large):
    args = sys.argv[1:]
    if not args:
        return default
    if args == ["--size", "large"]:
        return large
    if len(args) == 2 and args[0] == "-n" and args[1].isdigit() and int(args[1]) > 0:
        return int(args[1])
    # print, then exit 2 (a usage error, as for polygpu's own): sys.exit("...") prints the message but exits 1
    print(f"{sys.argv[0]}: expected no arguments, -n N (a positive integer) or --size large; got: {' '.join(args)}",
          file=sys.stderr)
    sys.exit(2)


def uniform(seed):
    """The same 32-bit LCG as the JavaScript samples, so both see the same inputs."""
    state = seed
    while True:
        state = (state * 1664525 + 1013904223) & 0xFFFFFFFF
        yield state / 4294967296.0


def gaussian(diameter):
    sigma = diameter / 4.0
    radius = diameter // 2
    w = [math.exp(-((a - radius) ** 2 + (b - radius) ** 2) / (2 * sigma * sigma))
         for a in range(diameter) for b in range(diameter)]
    total = sum(w)
    return [v / total for v in w]


def host_blur(img, rows, cols, w, d):
    r = d // 2
    out = [0.0] * (rows * cols)
    for i in range(rows):
        for j in range(cols):
            s = 0.0
            for a in range(-r, r + 1):
                row = min(max(i + a, 0), rows - 1) * cols
                for b in range(-r, r + 1):
                    s += w[(a + r) * d + b + r] * img[row + min(max(j + b, 0), cols - 1)]
            out[i * cols + j] = s
    return out


def host_sobel(p, rows, cols):
    out = [0.0] * (rows * cols)
    for i in range(1, rows - 1):
        for j in range(1, cols - 1):
            k = i * cols + j
            gx = -p[k - cols - 1] - 2 * p[k - 1] - p[k + cols - 1] + p[k - cols + 1] + 2 * p[k + 1] + p[k + cols + 1]
            gy = -p[k - cols - 1] - 2 * p[k - cols] - p[k - cols + 1] + p[k + cols - 1] + 2 * p[k + cols] + p[k + cols + 1]
            out[k] = min(1.0, math.sqrt(gx * gx + gy * gy))
    return out


def main():
    side = size(128, 1024)
    rows = cols = side
    n = rows * cols
    grid2, block2, blocks, threads = (8, 8), (16, 16), 64, 256
    cu = polyglot.eval(language="grcuda", string="CU")
    if hasattr(cu, "polygpu_device_info"):
        print("device:", cu.polygpu_device_info())
    blur = cu.buildkernel(KERNELS, "gaussian_blur(image: in pointer float, result: out pointer float, rows: sint32, cols: sint32, weights: in pointer float, diameter: sint32)")
    sobel = cu.buildkernel(KERNELS, "sobel(image: in pointer float, result: out pointer float, rows: sint32, cols: sint32)")
    unsharpen = cu.buildkernel(KERNELS, "unsharpen(image: in pointer float, blurred: in pointer float, result: out pointer float, amount: float, n: sint32)")
    combine = cu.buildkernel(KERNELS, "combine(x: in pointer float, y: in pointer float, mask: in pointer float, result: out pointer float, n: sint32)")

    rnd = uniform(3)
    host_image = [min(1.0, max(0.0, 0.5 + 0.3 * math.sin((i // cols) / 9.0) * math.cos((i % cols) / 7.0)
                                + 0.2 * (next(rnd) - 0.5))) for i in range(n)]
    image = cu.DeviceArray("float", n)
    for i in range(n):
        image[i] = host_image[i]
    host_image = [image[i] for i in range(n)]  # as the device stores it (float)
    diameters = {"small": 3, "unsharpen": 5, "large": 7}
    weights = {}
    for name, d in diameters.items():
        w = cu.DeviceArray("float", d * d)
        for k, v in enumerate(gaussian(d)):
            w[k] = v
        weights[name] = w
    blurred = {name: cu.DeviceArray("float", n) for name in diameters}
    edges_small, edges_large = cu.DeviceArray("float", n), cu.DeviceArray("float", n)
    sharpened, combined, result = (cu.DeviceArray("float", n) for _ in range(3))

    start = time.perf_counter()
    for name, d in diameters.items():
        blur(grid2, block2, 4 * d * d)(image, blurred[name], rows, cols, weights[name], d)
    sobel(grid2, block2)(blurred["small"], edges_small, rows, cols)
    sobel(grid2, block2)(blurred["large"], edges_large, rows, cols)
    unsharpen(blocks, threads)(image, blurred["unsharpen"], sharpened, AMOUNT, n)
    combine(blocks, threads)(sharpened, blurred["large"], edges_large, combined, n)
    combine(blocks, threads)(combined, blurred["small"], edges_small, result, n)
    first = result[0]
    elapsed = time.perf_counter() - start

    hb = {name: host_blur(host_image, rows, cols, [weights[name][k] for k in range(d * d)], d)
          for name, d in diameters.items()}
    he_small, he_large = host_sobel(hb["small"], rows, cols), host_sobel(hb["large"], rows, cols)
    error = 0.0
    for i in range(n):
        s = min(1.0, max(0.0, host_image[i] * (1 + AMOUNT) - hb["unsharpen"][i] * AMOUNT))
        c = s * he_large[i] + hb["large"][i] * (1 - he_large[i])
        expected = c * he_small[i] + hb["small"][i] * (1 - he_small[i])
        error = max(error, abs(result[i] - expected))
    print(f"IMG: {rows}x{cols} image, result[0] = {first:.6f}")
    print(f"time: {elapsed * 1000:.1f} ms")
    if error <= 1e-4:
        print(f"check: OK (max abs error {error:.1e})")
    else:
        print(f"check: FAILED (max abs error {error:.1e} > 1e-4)")
        sys.exit(1)


main()
