package dev.polygpu.bench.async;

import java.util.Map;

/**
 * IMG: an image pipeline. Three Gaussian blurs of one image (3x3, 5x5, 7x7, weights in dynamic shared memory),
 * Sobel edges of the small and large blurs, the large edges stretched to [0, 1] by their minimum and maximum
 * (atomicCAS-based float min/max with warp shuffles), an unsharp mask, and two combines that blend the branches
 * by the edge masks. 2-D blocks of 16x16 threads for the image kernels.
 *
 * <pre>
 * blur3(image → s)        blur7(image → l)            blur5(image → u)
 * sobel(s → es)           sobel(l → el)               unsharpen(image, u → sharp)
 *   |                     max(el → hi)  min(el → lo)    |
 *   |                     extend(el, lo, hi)            |
 *   |                       combine(sharp, l, el → c) --+
 *   +-------------------- combine(c, s, es → result)
 * </pre>
 *
 * Width 4 under with-const: {sobel(s), max, min, unsharpen} (after the three blurs, 3 at once). Under
 * no-const every reader of {@code image} is ordered (blur3, blur7, blur5, unsharpen) and so are max and min
 * (both read {@code el}): width 3, e.g. {sobel(s), sobel(l), blur5}.
 */
final class ImgDag extends DagCase {
    static final String KERNELS = """
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

            __device__ float atomic_max_float(float *address, float value) {
                int *bits = (int *) address;
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

            __device__ float atomic_min_float(float *address, float value) {
                int *bits = (int *) address;
                int old = *bits;
                while (__int_as_float(old) > value) {
                    int assumed = old;
                    old = atomicCAS(bits, assumed, __float_as_int(value));
                    if (old == assumed) {
                        break;
                    }
                }
                return __int_as_float(old);
            }

            __global__ void maximum(const float *x, float *result, int n) {
                float m = x[0];
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    m = fmaxf(m, x[i]);
                }
                for (int offset = warpSize / 2; offset > 0; offset /= 2) {
                    m = fmaxf(m, __shfl_down_sync(0xffffffff, m, offset));
                }
                if ((threadIdx.x & (warpSize - 1)) == 0) {
                    atomic_max_float(result, m);
                }
            }

            __global__ void minimum(const float *x, float *result, int n) {
                float m = x[0];
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    m = fminf(m, x[i]);
                }
                for (int offset = warpSize / 2; offset > 0; offset /= 2) {
                    m = fminf(m, __shfl_down_sync(0xffffffff, m, offset));
                }
                if ((threadIdx.x & (warpSize - 1)) == 0) {
                    atomic_min_float(result, m);
                }
            }

            __global__ void extend(float *x, const float *lo, const float *hi, int n) {
                float low = lo[0];
                float range = hi[0] - low;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    x[i] = range > 0.0f ? (x[i] - low) / range : 0.0f;
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
            """;
    private static final float AMOUNT = 0.5f;
    private static final int THREADS = 256;
    private static final int[] BLOCK_2D = {16, 16};
    private static final int SMALL = 3;
    private static final int UNSHARPEN = 5;
    private static final int LARGE = 7;

    private final int side;
    private final float[] image;

    ImgDag(boolean quick, int blocks) {
        super(quick, blocks);
        this.side = quick ? 128 : 512;
        Lcg rnd = new Lcg(3);
        image = new float[side * side];
        for (int i = 0; i < image.length; i++) {
            double v = 0.5 + 0.3 * Math.sin(i / side / 9.0) * Math.cos(i % side / 7.0) + 0.2 * (rnd.next() - 0.5);
            image[i] = (float) Math.min(1, Math.max(0, v));
        }
    }

    @Override
    String name() {
        return "IMG";
    }

    @Override
    String size() {
        return String.format("%dx%d image", side, side);
    }

    @Override
    int width(boolean withConst) {
        return withConst ? 4 : 3;
    }

    @Override
    boolean sharesReadOnlyArrays() {
        return true;
    }

    @Override
    Program program(Session s) {
        Kernel blur = s.kernel(KERNELS, "gaussian_blur(image: in pointer float, result: out pointer float,"
                + " rows: sint32, cols: sint32, weights: in pointer float, diameter: sint32)");
        Kernel sobel = s.kernel(KERNELS, "sobel(image: in pointer float, result: out pointer float, rows: sint32,"
                + " cols: sint32)");
        Kernel maximum = s.kernel(KERNELS, "maximum(x: in pointer float, result: inout pointer float, n: sint32)");
        Kernel minimum = s.kernel(KERNELS, "minimum(x: in pointer float, result: inout pointer float, n: sint32)");
        Kernel extend = s.kernel(KERNELS, "extend(x: inout pointer float, lo: in pointer float,"
                + " hi: in pointer float, n: sint32)");
        Kernel unsharpen = s.kernel(KERNELS, "unsharpen(image: in pointer float, blurred: in pointer float,"
                + " result: out pointer float, amount: float, n: sint32)");
        Kernel combine = s.kernel(KERNELS, "combine(x: in pointer float, y: in pointer float,"
                + " mask: in pointer float, result: out pointer float, n: sint32)");
        int n = side * side;
        DevArray img = s.array("image", image);
        DevArray w3 = s.array("weights3", gaussian(SMALL));
        DevArray w5 = s.array("weights5", gaussian(UNSHARPEN));
        DevArray w7 = s.array("weights7", gaussian(LARGE));
        DevArray small = s.array("blurred_small", "float", n);
        DevArray large = s.array("blurred_large", "float", n);
        DevArray unsharp = s.array("blurred_unsharpen", "float", n);
        DevArray edgesSmall = s.array("edges_small", "float", n);
        DevArray edgesLarge = s.array("edges_large", "float", n);
        DevArray hi = s.array("max", "float", 1);
        DevArray lo = s.array("min", "float", 1);
        DevArray sharpened = s.array("sharpened", "float", n);
        DevArray combined = s.array("combined", "float", n);
        DevArray result = s.array("result", "float", n);
        int[] grid2 = {blocks, 1};
        return new Program(s) {
            @Override
            void run() {
                s.set(hi, 0, 0.0f);
                s.set(lo, 0, 1.0f);
                blur.launchShared(grid2, BLOCK_2D, 4 * SMALL * SMALL, img, small, side, side, w3, SMALL);
                blur.launchShared(grid2, BLOCK_2D, 4 * LARGE * LARGE, img, large, side, side, w7, LARGE);
                blur.launchShared(grid2, BLOCK_2D, 4 * UNSHARPEN * UNSHARPEN, img, unsharp, side, side, w5, UNSHARPEN);
                sobel.launch(grid2, BLOCK_2D, small, edgesSmall, side, side);
                sobel.launch(grid2, BLOCK_2D, large, edgesLarge, side, side);
                maximum.launch(blocks, THREADS, edgesLarge, hi, n);
                minimum.launch(blocks, THREADS, edgesLarge, lo, n);
                extend.launch(blocks, THREADS, edgesLarge, lo, hi, n);
                unsharpen.launch(blocks, THREADS, img, unsharp, sharpened, AMOUNT, n);
                combine.launch(blocks, THREADS, sharpened, large, edgesLarge, combined, n);
                combine.launch(blocks, THREADS, combined, small, edgesSmall, result, n);
            }

            @Override
            Map<String, Object> results() {
                return copy(edgesLarge, result);
            }
        };
    }

    @Override
    String check(Map<String, Object> results) {
        float[] s = blur(gaussian(SMALL), SMALL);
        float[] l = blur(gaussian(LARGE), LARGE);
        float[] u = blur(gaussian(UNSHARPEN), UNSHARPEN);
        float[] es = sobel(s);
        float[] el = sobel(l);
        float hi = 0;
        float lo = 1;
        for (float v : el) {
            hi = Math.max(hi, v);
            lo = Math.min(lo, v);
        }
        float[] deviceEdges = (float[]) results.get("edges_large");
        float[] result = (float[]) results.get("result");
        Errors edges = new Errors("stretched edges", 1e-4);
        Errors out = new Errors("result", 1e-4);
        for (int i = 0; i < image.length; i++) {
            double e = hi > lo ? (el[i] - lo) / (hi - lo) : 0;
            edges.add("edges_large[" + i + "]", deviceEdges[i], e, 1);
            double sharp = Math.min(1, Math.max(0, image[i] * (1 + AMOUNT) - u[i] * AMOUNT));
            double c = sharp * e + l[i] * (1 - e);
            out.add("result[" + i + "]", result[i], c * es[i] + s[i] * (1 - es[i]), 1);
        }
        return edges.verdict() + ", " + out.verdict();
    }

    private static float[] gaussian(int diameter) {
        double sigma = diameter / 4.0;
        int radius = diameter / 2;
        double[] w = new double[diameter * diameter];
        double total = 0;
        for (int a = 0; a < diameter; a++) {
            for (int b = 0; b < diameter; b++) {
                w[a * diameter + b] = Math.exp(-((a - radius) * (a - radius) + (b - radius) * (b - radius))
                        / (2 * sigma * sigma));
                total += w[a * diameter + b];
            }
        }
        float[] f = new float[w.length];
        for (int i = 0; i < w.length; i++) {
            f[i] = (float) (w[i] / total);
        }
        return f;
    }

    private float[] blur(float[] w, int d) {
        int r = d / 2;
        float[] out = new float[image.length];
        for (int i = 0; i < side; i++) {
            for (int j = 0; j < side; j++) {
                double sum = 0;
                for (int a = -r; a <= r; a++) {
                    int row = Math.min(Math.max(i + a, 0), side - 1) * side;
                    for (int b = -r; b <= r; b++) {
                        sum += w[(a + r) * d + b + r] * image[row + Math.min(Math.max(j + b, 0), side - 1)];
                    }
                }
                out[i * side + j] = (float) sum;
            }
        }
        return out;
    }

    private float[] sobel(float[] p) {
        float[] out = new float[p.length];
        for (int i = 1; i < side - 1; i++) {
            for (int j = 1; j < side - 1; j++) {
                int k = i * side + j;
                double gx = -p[k - side - 1] - 2.0 * p[k - 1] - p[k + side - 1] + p[k - side + 1] + 2.0 * p[k + 1]
                        + p[k + side + 1];
                double gy = -p[k - side - 1] - 2.0 * p[k - side] - p[k - side + 1] + p[k + side - 1]
                        + 2.0 * p[k + side] + p[k + side + 1];
                out[k] = (float) Math.min(1, Math.sqrt(gx * gx + gy * gy));
            }
        }
        return out;
    }
}
