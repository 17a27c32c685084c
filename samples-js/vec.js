// VEC: square two vectors in parallel, then reduce sum(x*x - y*y) with warp shuffles and atomicAdd.
//
// The two squares do not depend on each other, so polygpu runs them concurrently; the reduction waits for both.
// Run: ./polygpu samples-js/vec.js [-n N | --size large]

const SQUARE = `
__global__ void square(const float *x, float *y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = x[i] * x[i];
    }
}
`;

const DIFF_SUM = `
__inline__ __device__ float warp_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;
}

__global__ void diff_sum(const float *x, const float *y, float *z, int n) {
    float partial = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        partial += x[i] - y[i];
    }
    partial = warp_sum(partial);
    if ((threadIdx.x & (warpSize - 1)) == 0) {
        atomicAdd(z, partial);
    }
}
`;

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

function main() {
    const n = size(200000, 20000000);
    const blocks = 64, threads = 256;
    const cu = Polyglot.eval("grcuda", "CU");
    if (typeof cu.polygpu_device_info === "function") {
        console.log("device: " + cu.polygpu_device_info());
    }

    const square = cu.buildkernel(SQUARE, "square(x: in pointer float, y: out pointer float, n: sint32)");
    const diffSum = cu.buildkernel(DIFF_SUM, "diff_sum(x: in pointer float, y: in pointer float, z: inout pointer float, n: sint32)");

    const x = cu.DeviceArray("float", n);
    const y = cu.DeviceArray("float", n);
    const x2 = cu.DeviceArray("float", n);
    const y2 = cu.DeviceArray("float", n);
    const z = cu.DeviceArray("float", 1);
    const rnd = uniform(42);
    const hx = new Array(n), hy = new Array(n);
    for (let i = 0; i < n; i++) hx[i] = rnd();
    for (let i = 0; i < n; i++) hy[i] = rnd();
    for (let i = 0; i < n; i++) {
        x[i] = hx[i];
        y[i] = hy[i];
    }

    const start = Date.now();
    z[0] = 0.0;
    square(blocks, threads)(x, x2, n);
    square(blocks, threads)(y, y2, n);
    diffSum(blocks, threads)(x2, y2, z, n);
    const result = z[0];
    const elapsed = Date.now() - start;

    // host reference, with the inputs rounded to float as the device stores them
    let expected = 0, magnitude = 0;
    for (let i = 0; i < n; i++) {
        const a = x[i], b = y[i];
        expected += a * a - b * b;
        magnitude += a * a + b * b;
    }
    const error = Math.abs(result - expected);
    const tolerance = 1e-6 * magnitude + 1e-6;
    console.log(`VEC: n=${n}, sum(x^2 - y^2) = ${result.toFixed(6)} (host ${expected.toFixed(6)})`);
    console.log(`time: ${elapsed.toFixed(1)} ms`);
    for (const a of [x, y, x2, y2, z]) a.free();
    if (error <= tolerance) {
        console.log(`check: OK (max abs error ${error.toExponential(1)})`);
    } else {
        console.log(`check: FAILED (abs error ${error.toExponential(1)} > tolerance ${tolerance.toExponential(1)})`);
        quit(1);
    }
}

main();
