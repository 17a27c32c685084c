// B&S: Black-Scholes call prices for 10 independent vectors of stock prices (double precision).
//
// Ten kernels with no dependencies between them: polygpu runs them on separate streams at once.
// Run: ./polygpu samples-js/black_scholes.js [-n N | --size large]

const BLACK_SCHOLES = `
__device__ inline double cnd(double d) {
    const double A1 = 0.31938153;
    const double A2 = -0.356563782;
    const double A3 = 1.781477937;
    const double A4 = -1.821255978;
    const double A5 = 1.330274429;
    const double RSQRT2PI = 0.39894228040143267794;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = RSQRT2PI * exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0 ? 1.0 - c : c;
}

__global__ void bs(const double *s, double *call, int n, double r, double v, double t, double strike) {
    double sqrt_t = 1.0 / rsqrt(t);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        double d1 = (log(s[i] / strike) + (r + 0.5 * v * v) * t) / (v * sqrt_t);
        double d2 = d1 - v * sqrt_t;
        call[i] = s[i] * cnd(d1) - strike * exp(-r * t) * cnd(d2);
    }
}
`;

const R = 0.08, V = 0.3, T = 1.0, K = 60.0;
const VECTORS = 10;

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

function cnd(d) {
    const k = 1.0 / (1.0 + 0.2316419 * Math.abs(d));
    const c = 0.39894228040143267794 * Math.exp(-0.5 * d * d) *
        (k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))));
    return d > 0 ? 1.0 - c : c;
}

function blackScholes(s) {
    const sqrtT = Math.sqrt(T);
    const d1 = (Math.log(s / K) + (R + 0.5 * V * V) * T) / (V * sqrtT);
    const d2 = d1 - V * sqrtT;
    return s * cnd(d1) - K * Math.exp(-R * T) * cnd(d2);
}

function main() {
    const n = size(20000, 2000000);
    const blocks = 64, threads = 256;
    const cu = Polyglot.eval("grcuda", "CU");
    if (typeof cu.polygpu_device_info === "function") {
        console.log("device: " + cu.polygpu_device_info());
    }
    const bs = cu.buildkernel(BLACK_SCHOLES,
        "bs(s: in pointer double, call: out pointer double, n: sint32, r: double, v: double, t: double, strike: double)");

    const rnd = uniform(7);
    const prices = [], calls = [], host = [];
    for (let v = 0; v < VECTORS; v++) {
        prices.push(cu.DeviceArray("double", n));
        calls.push(cu.DeviceArray("double", n));
    }
    for (const p of prices) {
        const values = new Array(n);
        for (let i = 0; i < n; i++) values[i] = 30.0 + 60.0 * rnd();
        host.push(values);
        for (let i = 0; i < n; i++) p[i] = values[i];
    }

    const start = Date.now();
    for (let v = 0; v < VECTORS; v++) {
        bs(blocks, threads)(prices[v], calls[v], n, R, V, T, K);
    }
    const first = calls.map(c => c[0]);  // waits for each vector's kernel only
    const elapsed = Date.now() - start;

    let error = 0;
    for (let v = 0; v < VECTORS; v++) {
        for (let i = 0; i < n; i++) {
            error = Math.max(error, Math.abs(calls[v][i] - blackScholes(host[v][i])));
        }
    }
    console.log(`B&S: ${VECTORS} vectors of n=${n}, first prices ${first[0].toFixed(4)} ${first[1].toFixed(4)} ${first[2].toFixed(4)}`);
    console.log(`time: ${elapsed.toFixed(1)} ms`);
    for (const a of prices.concat(calls)) a.free();
    if (error <= 1e-9) {
        console.log(`check: OK (max abs error ${error.toExponential(1)})`);
    } else {
        console.log(`check: FAILED (max abs error ${error.toExponential(1)} > 1e-9)`);
        quit(1);
    }
}

main();
