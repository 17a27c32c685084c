// ML: an ensemble classifier — a ridge regression branch (standardize, dot products, intercept) and a naive
// Bayes branch (log-likelihoods, row max, log-sum-exp, exp), a softmax on each, then the argmax of their sum.
//
// The two branches share only the read-only input, so they run concurrently.
// Run: ./polygpu samples-js/ml_ensemble.js [-n ROWS | --size large]

const KERNELS = `
__global__ void nb_1(const float *x, const float *feature_log_prob, const float *class_log_prior,
                     float *ret, int n, int features, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        for (int c = 0; c < classes; c++) {
            float s = class_log_prior[c];
            for (int f = 0; f < features; f++) {
                s += x[i * features + f] * feature_log_prob[c * features + f];
            }
            ret[i * classes + c] = s;
        }
    }
}

__global__ void nb_2(const float *ret, float *row_max, int n, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float m = ret[i * classes];
        for (int c = 1; c < classes; c++) {
            m = fmaxf(m, ret[i * classes + c]);
        }
        row_max[i] = m;
    }
}

__global__ void nb_3(const float *ret, const float *row_max, float *lse, int n, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float s = 0.0f;
        for (int c = 0; c < classes; c++) {
            s += expf(ret[i * classes + c] - row_max[i]);
        }
        lse[i] = logf(s) + row_max[i];
    }
}

__global__ void nb_4(float *ret, const float *lse, int n, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        for (int c = 0; c < classes; c++) {
            ret[i * classes + c] = expf(ret[i * classes + c] - lse[i]);
        }
    }
}

__global__ void rr_1(const float *x, float *z, const float *mean, const float *stdev, int n, int features) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n * features; i += blockDim.x * gridDim.x) {
        int f = i % features;
        z[i] = (x[i] - mean[f]) / stdev[f];
    }
}

__global__ void rr_2(const float *z, const float *coef, float *ret, int n, int features, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        for (int c = 0; c < classes; c++) {
            float s = 0.0f;
            for (int f = 0; f < features; f++) {
                s += z[i * features + f] * coef[c * features + f];
            }
            ret[i * classes + c] = s;
        }
    }
}

__global__ void rr_3(float *ret, const float *intercept, int n, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n * classes; i += blockDim.x * gridDim.x) {
        ret[i] += intercept[i % classes];
    }
}

__global__ void softmax(float *ret, int n, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float m = ret[i * classes];
        for (int c = 1; c < classes; c++) {
            m = fmaxf(m, ret[i * classes + c]);
        }
        float s = 0.0f;
        for (int c = 0; c < classes; c++) {
            s += expf(ret[i * classes + c] - m);
        }
        for (int c = 0; c < classes; c++) {
            ret[i * classes + c] = expf(ret[i * classes + c] - m) / s;
        }
    }
}

__global__ void argmax(const float *a, const float *b, int *label, int n, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int best = 0;
        float best_score = a[i * classes] + b[i * classes];
        for (int c = 1; c < classes; c++) {
            float score = a[i * classes + c] + b[i * classes + c];
            if (score > best_score) {
                best = c;
                best_score = score;
            }
        }
        label[i] = best;
    }
}
`;

const SIGNATURES = [
    "nb_1(x: in pointer float, feature_log_prob: in pointer float, class_log_prior: in pointer float, ret: out pointer float, n: sint32, features: sint32, classes: sint32)",
    "nb_2(ret: in pointer float, row_max: out pointer float, n: sint32, classes: sint32)",
    "nb_3(ret: in pointer float, row_max: in pointer float, lse: out pointer float, n: sint32, classes: sint32)",
    "nb_4(ret: inout pointer float, lse: in pointer float, n: sint32, classes: sint32)",
    "rr_1(x: in pointer float, z: out pointer float, mean: in pointer float, stdev: in pointer float, n: sint32, features: sint32)",
    "rr_2(z: in pointer float, coef: in pointer float, ret: out pointer float, n: sint32, features: sint32, classes: sint32)",
    "rr_3(ret: inout pointer float, intercept: in pointer float, n: sint32, classes: sint32)",
    "softmax(ret: inout pointer float, n: sint32, classes: sint32)",
    "argmax(a: in pointer float, b: in pointer float, label: out pointer sint32, n: sint32, classes: sint32)",
];
const FEATURES = 32, CLASSES = 8;

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

function deviceArray(cu, values) {
    const a = cu.DeviceArray("float", values.length);
    for (let i = 0; i < values.length; i++) a[i] = values[i];
    return a;
}

function fill(count, f) {
    const values = new Array(count);
    for (let i = 0; i < count; i++) values[i] = f();
    return values;
}

function hostSoftmax(row) {
    const m = Math.max(...row);
    const e = row.map(v => Math.exp(v - m));
    let s = 0;
    for (const v of e) s += v;
    return e.map(v => v / s);
}

function main() {
    const n = size(2000, 200000);
    const blocks = 64, threads = 256;
    const cu = Polyglot.eval("grcuda", "CU");
    if (typeof cu.polygpu_device_info === "function") {
        console.log("device: " + cu.polygpu_device_info());
    }
    const k = {};
    for (const sig of SIGNATURES) k[sig.split("(")[0]] = cu.buildkernel(KERNELS, sig);

    const rnd = uniform(11);
    const hx = fill(n * FEATURES, () => Math.floor(rnd() * 10));
    let hflp = fill(CLASSES * FEATURES, () => Math.log(0.02 + rnd()) - 2.0);
    let hprior = fill(CLASSES, () => Math.log(1.0 / CLASSES));
    let hmean = fill(FEATURES, () => 4.5 + 0.1 * rnd());
    let hstd = fill(FEATURES, () => 2.5 + 0.5 * rnd());
    let hcoef = fill(CLASSES * FEATURES, () => rnd() - 0.5);
    let hintercept = fill(CLASSES, () => rnd() - 0.5);
    const [x, flp, prior, mean, std, coef, intercept] =
        [hx, hflp, hprior, hmean, hstd, hcoef, hintercept].map(v => deviceArray(cu, v));
    // the host reference works on the values as the device stores them (float)
    [hflp, hprior, hmean, hstd, hcoef, hintercept] = [flp, prior, mean, std, coef, intercept].map(a => {
        const values = new Array(a.length);
        for (let i = 0; i < a.length; i++) values[i] = a[i];
        return values;
    });
    const z = cu.DeviceArray("float", n * FEATURES);
    const nb = cu.DeviceArray("float", n * CLASSES), rr = cu.DeviceArray("float", n * CLASSES);
    const rowMax = cu.DeviceArray("float", n), lse = cu.DeviceArray("float", n);
    const label = cu.DeviceArray("int", n);

    const start = Date.now();
    k.rr_1(blocks, threads)(x, z, mean, std, n, FEATURES);
    k.rr_2(blocks, threads)(z, coef, rr, n, FEATURES, CLASSES);
    k.rr_3(blocks, threads)(rr, intercept, n, CLASSES);
    k.nb_1(blocks, threads)(x, flp, prior, nb, n, FEATURES, CLASSES);
    k.nb_2(blocks, threads)(nb, rowMax, n, CLASSES);
    k.nb_3(blocks, threads)(nb, rowMax, lse, n, CLASSES);
    k.nb_4(blocks, threads)(nb, lse, n, CLASSES);
    k.softmax(blocks, threads)(rr, n, CLASSES);
    k.softmax(blocks, threads)(nb, n, CLASSES);
    k.argmax(blocks, threads)(rr, nb, label, n, CLASSES);
    const first = label[0];
    const elapsed = Date.now() - start;

    let error = 0.0, mismatches = 0;
    for (let i = 0; i < n; i++) {
        const row = hx.slice(i * FEATURES, (i + 1) * FEATURES);
        const zr = row.map((v, f) => (v - hmean[f]) / hstd[f]);
        const rLogits = [], bLogits = [];
        for (let c = 0; c < CLASSES; c++) {
            let s = 0;
            for (let f = 0; f < FEATURES; f++) s += zr[f] * hcoef[c * FEATURES + f];
            rLogits.push(s + hintercept[c]);
            let t = 0;
            for (let f = 0; f < FEATURES; f++) t += row[f] * hflp[c * FEATURES + f];
            bLogits.push(hprior[c] + t);
        }
        const r = hostSoftmax(rLogits);
        const b = hostSoftmax(hostSoftmax(bLogits));
        const score = r.map((v, c) => v + b[c]);
        let best = 0;
        for (let c = 0; c < CLASSES; c++) {
            error = Math.max(error, Math.abs(rr[i * CLASSES + c] - r[c]), Math.abs(nb[i * CLASSES + c] - b[c]));
            if (score[c] > score[best]) best = c;
        }
        // a different label is a mistake unless the two scores tie to float precision
        const got = label[i];
        if (got !== best && Math.abs(score[got] - score[best]) > 1e-5) mismatches++;
    }
    console.log(`ML: ${n} rows x ${FEATURES} features, ${CLASSES} classes, label[0] = ${first}`);
    console.log(`time: ${elapsed.toFixed(1)} ms`);
    if (error <= 2e-4 && mismatches === 0) {
        console.log(`check: OK (max abs error ${error.toExponential(1)})`);
    } else {
        console.log(`check: FAILED (max abs error ${error.toExponential(1)}, ${mismatches} labels differ)`);
        quit(1);
    }
}

main();
