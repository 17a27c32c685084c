// HITS: hub and authority scores of a generated graph, 5 iterations of two CSR sparse matrix-vector products
// (A for hubs, its transpose for authorities) with normalisation; the host resets the norms each iteration.
//
// Run: ./polygpu samples-js/hits.js [-n VERTICES | --size large]

const KERNELS = `
__global__ void spmv(const int *ptr, const int *idx, const float *val, const float *vec, float *res, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float sum = 0.0f;
        for (int j = ptr[i]; j < ptr[i + 1]; j++) {
            sum += val[j] * vec[idx[j]];
        }
        res[i] = sum;
    }
}

__inline__ __device__ float warp_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;
}

__global__ void sum(const float *x, float *total, int n) {
    float partial = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        partial += x[i];
    }
    partial = warp_sum(partial);
    if ((threadIdx.x & (warpSize - 1)) == 0) {
        atomicAdd(total, partial);
    }
}

__global__ void divide(const float *x, float *y, const float *total, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = x[i] / total[0];
    }
}
`;

const ITERATIONS = 5;

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

// CSR rows of the (source -> target) edge list, with unit weights.
function csr(n, sources, targets) {
    const counts = new Array(n + 1).fill(0);
    for (const s of sources) counts[s + 1]++;
    for (let i = 0; i < n; i++) counts[i + 1] += counts[i];
    const fill = counts.slice(0, n);
    const idx = new Array(sources.length).fill(0);
    for (let e = 0; e < sources.length; e++) {
        idx[fill[sources[e]]] = targets[e];
        fill[sources[e]]++;
    }
    return [counts, idx];
}

function toDevice(cu, kind, values) {
    const a = cu.DeviceArray(kind, values.length);
    for (let i = 0; i < values.length; i++) a[i] = values[i];
    return a;
}

function hostSpmv(ptr, idx, vec) {
    const out = new Array(ptr.length - 1);
    for (let i = 0; i < ptr.length - 1; i++) {
        let s = 0;
        for (let j = ptr[i]; j < ptr[i + 1]; j++) s += vec[idx[j]];
        out[i] = s;
    }
    return out;
}

function total(values) {
    let s = 0;
    for (const v of values) s += v;
    return s;
}

function largestOf(values) {
    let m = -Infinity;
    for (const v of values) m = Math.max(m, v);
    return m;
}

function main() {
    const n = size(20000, 2000000);
    const blocks = 64, threads = 256;
    const cu = Polyglot.eval("grcuda", "CU");
    if (typeof cu.polygpu_device_info === "function") {
        console.log("device: " + cu.polygpu_device_info());
    }
    const spmv = cu.buildkernel(KERNELS, "spmv(ptr: in pointer sint32, idx: in pointer sint32, val: in pointer float, vec: in pointer float, res: out pointer float, n: sint32)");
    const sum = cu.buildkernel(KERNELS, "sum(x: in pointer float, total: inout pointer float, n: sint32)");
    const divide = cu.buildkernel(KERNELS, "divide(x: in pointer float, y: out pointer float, total: in pointer float, n: sint32)");

    const rnd = uniform(5);
    const sources = [], targets = [];
    for (let s = 0; s < n; s++) {
        const degree = 1 + Math.floor(rnd() * 8);
        for (let d = 0; d < degree; d++) {
            sources.push(s);
            targets.push(Math.floor(rnd() * n));
        }
    }
    const [ptr, idx] = csr(n, sources, targets);
    const [ptrT, idxT] = csr(n, targets, sources);
    const e = sources.length;
    const dPtr = toDevice(cu, "int", ptr), dIdx = toDevice(cu, "int", idx);
    const dPtrT = toDevice(cu, "int", ptrT), dIdxT = toDevice(cu, "int", idxT);
    const ones = toDevice(cu, "float", new Array(e).fill(1.0));
    const hub = toDevice(cu, "float", new Array(n).fill(1.0)), auth = toDevice(cu, "float", new Array(n).fill(1.0));
    const hubNext = cu.DeviceArray("float", n), authNext = cu.DeviceArray("float", n);
    const hubNorm = cu.DeviceArray("float", 1), authNorm = cu.DeviceArray("float", 1);

    const start = Date.now();
    for (let it = 0; it < ITERATIONS; it++) {
        spmv(blocks, threads)(dPtrT, dIdxT, ones, hub, authNext, n);
        spmv(blocks, threads)(dPtr, dIdx, ones, auth, hubNext, n);
        authNorm[0] = 0.0;
        hubNorm[0] = 0.0;
        sum(blocks, threads)(authNext, authNorm, n);
        sum(blocks, threads)(hubNext, hubNorm, n);
        divide(blocks, threads)(authNext, auth, authNorm, n);
        divide(blocks, threads)(hubNext, hub, hubNorm, n);
    }
    const first = [hub[0], auth[0]];
    const elapsed = Date.now() - start;

    let h = new Array(n).fill(1.0), a = new Array(n).fill(1.0);
    for (let it = 0; it < ITERATIONS; it++) {
        const aNext = hostSpmv(ptrT, idxT, h), hNext = hostSpmv(ptr, idx, a);
        const sa = total(aNext), sh = total(hNext);
        a = aNext.map(v => v / sa);
        h = hNext.map(v => v / sh);
    }
    const largest = Math.max(largestOf(h), largestOf(a));
    let error = 0;
    for (let i = 0; i < n; i++) {
        error = Math.max(error, Math.abs(hub[i] - h[i]), Math.abs(auth[i] - a[i]));
    }
    console.log(`HITS: ${n} vertices, ${e} edges, ${ITERATIONS} iterations, hub[0] = ${first[0].toExponential(3)}, auth[0] = ${first[1].toExponential(3)}`);
    console.log(`time: ${elapsed.toFixed(1)} ms`);
    if (error <= 1e-4 * largest) {
        console.log(`check: OK (max abs error ${error.toExponential(1)})`);
    } else {
        console.log(`check: FAILED (max abs error ${error.toExponential(1)} > ${(1e-4 * largest).toExponential(1)})`);
        quit(1);
    }
}

main();
