// IMG: an image pipeline — three Gaussian blurs, Sobel edge detection on two of them, unsharpen, and two
// combine steps that blend the branches by the edge masks.
//
// The three branches are independent until the combines join them; kernels use 2-D grids and dynamic shared
// memory (the blur weights). Run: ./polygpu samples-js/image_pipeline.js [-n SIDE | --size large]

const KERNELS = `
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
`;

const AMOUNT = 0.5;

function size(defaultSize, large) {
    const args = Array.from(globalThis.arguments || []);
    if (args.length === 0) return defaultSize;
    if (args.length === 2 && args[0] === "--size" && args[1] === "large") return large;
    if (args.length === 2 && args[0] === "-n" && /^[0-9]+$/.test(args[1]) && Number(args[1]) > 0) return Number(args[1]);
    console.error("expected no arguments, -n N (a positive integer) or --size large; got: " + args.join(" "));
    quit(2);
}

// The same 32-bit LCG as the Python samples, so both see the same inputs.
function uniform(seed) {
    let state = seed >>> 0;
    return () => {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        return state / 4294967296;
    };
}

function gaussian(diameter) {
    const sigma = diameter / 4.0;
    const radius = Math.floor(diameter / 2);
    const w = [];
    for (let a = 0; a < diameter; a++) {
        for (let b = 0; b < diameter; b++) {
            w.push(Math.exp(-((a - radius) ** 2 + (b - radius) ** 2) / (2 * sigma * sigma)));
        }
    }
    let total = 0;
    for (const v of w) total += v;
    return w.map(v => v / total);
}

function hostBlur(img, rows, cols, w, d) {
    const r = Math.floor(d / 2);
    const out = new Array(rows * cols).fill(0.0);
    for (let i = 0; i < rows; i++) {
        for (let j = 0; j < cols; j++) {
            let s = 0.0;
            for (let a = -r; a <= r; a++) {
                const row = Math.min(Math.max(i + a, 0), rows - 1) * cols;
                for (let b = -r; b <= r; b++) {
                    s += w[(a + r) * d + b + r] * img[row + Math.min(Math.max(j + b, 0), cols - 1)];
                }
            }
            out[i * cols + j] = s;
        }
    }
    return out;
}

function hostSobel(p, rows, cols) {
    const out = new Array(rows * cols).fill(0.0);
    for (let i = 1; i < rows - 1; i++) {
        for (let j = 1; j < cols - 1; j++) {
            const k = i * cols + j;
            const gx = -p[k - cols - 1] - 2 * p[k - 1] - p[k + cols - 1] + p[k - cols + 1] + 2 * p[k + 1] + p[k + cols + 1];
            const gy = -p[k - cols - 1] - 2 * p[k - cols] - p[k - cols + 1] + p[k + cols - 1] + 2 * p[k + cols] + p[k + cols + 1];
            out[k] = Math.min(1.0, Math.sqrt(gx * gx + gy * gy));
        }
    }
    return out;
}

function main() {
    const side = size(128, 1024);
    const rows = side, cols = side;
    const n = rows * cols;
    const grid2 = [8, 8], block2 = [16, 16], blocks = 64, threads = 256;
    const cu = Polyglot.eval("grcuda", "CU");
    if (typeof cu.polygpu_device_info === "function") {
        console.log("device: " + cu.polygpu_device_info());
    }
    const blur = cu.buildkernel(KERNELS, "gaussian_blur(image: in pointer float, result: out pointer float, rows: sint32, cols: sint32, weights: in pointer float, diameter: sint32)");
    const sobel = cu.buildkernel(KERNELS, "sobel(image: in pointer float, result: out pointer float, rows: sint32, cols: sint32)");
    const unsharpen = cu.buildkernel(KERNELS, "unsharpen(image: in pointer float, blurred: in pointer float, result: out pointer float, amount: float, n: sint32)");
    const combine = cu.buildkernel(KERNELS, "combine(x: in pointer float, y: in pointer float, mask: in pointer float, result: out pointer float, n: sint32)");

    const rnd = uniform(3);
    let hostImage = new Array(n);
    for (let i = 0; i < n; i++) {
        hostImage[i] = Math.min(1.0, Math.max(0.0, 0.5 + 0.3 * Math.sin(Math.floor(i / cols) / 9.0) * Math.cos((i % cols) / 7.0)
            + 0.2 * (rnd() - 0.5)));
    }
    const image = cu.DeviceArray("float", n);
    for (let i = 0; i < n; i++) image[i] = hostImage[i];
    hostImage = new Array(n);
    for (let i = 0; i < n; i++) hostImage[i] = image[i];  // as the device stores it (float)
    const diameters = {small: 3, unsharpen: 5, large: 7};
    const names = Object.keys(diameters);
    const weights = {};
    for (const name of names) {
        const d = diameters[name];
        const w = cu.DeviceArray("float", d * d);
        gaussian(d).forEach((v, k) => { w[k] = v; });
        weights[name] = w;
    }
    const blurred = {};
    for (const name of names) blurred[name] = cu.DeviceArray("float", n);
    const edgesSmall = cu.DeviceArray("float", n), edgesLarge = cu.DeviceArray("float", n);
    const sharpened = cu.DeviceArray("float", n), combined = cu.DeviceArray("float", n), result = cu.DeviceArray("float", n);

    const start = Date.now();
    for (const name of names) {
        const d = diameters[name];
        blur(grid2, block2, 4 * d * d)(image, blurred[name], rows, cols, weights[name], d);
    }
    sobel(grid2, block2)(blurred.small, edgesSmall, rows, cols);
    sobel(grid2, block2)(blurred.large, edgesLarge, rows, cols);
    unsharpen(blocks, threads)(image, blurred.unsharpen, sharpened, AMOUNT, n);
    combine(blocks, threads)(sharpened, blurred.large, edgesLarge, combined, n);
    combine(blocks, threads)(combined, blurred.small, edgesSmall, result, n);
    const first = result[0];
    const elapsed = Date.now() - start;

    const hb = {};
    for (const name of names) {
        const d = diameters[name];
        const w = [];
        for (let k = 0; k < d * d; k++) w.push(weights[name][k]);
        hb[name] = hostBlur(hostImage, rows, cols, w, d);
    }
    const heSmall = hostSobel(hb.small, rows, cols), heLarge = hostSobel(hb.large, rows, cols);
    let error = 0.0;
    for (let i = 0; i < n; i++) {
        const s = Math.min(1.0, Math.max(0.0, hostImage[i] * (1 + AMOUNT) - hb.unsharpen[i] * AMOUNT));
        const c = s * heLarge[i] + hb.large[i] * (1 - heLarge[i]);
        const expected = c * heSmall[i] + hb.small[i] * (1 - heSmall[i]);
        error = Math.max(error, Math.abs(result[i] - expected));
    }
    console.log(`IMG: ${rows}x${cols} image, result[0] = ${first.toFixed(6)}`);
    console.log(`time: ${elapsed.toFixed(1)} ms`);
    if (error <= 1e-4) {
        console.log(`check: OK (max abs error ${error.toExponential(1)})`);
    } else {
        console.log(`check: FAILED (max abs error ${error.toExponential(1)} > 1e-4)`);
        quit(1);
    }
}

main();
