"""ML: an ensemble classifier — a ridge regression branch (standardize, dot products, intercept) and a naive
Bayes branch (log-likelihoods, row max, log-sum-exp, exp), a softmax on each, then the argmax of their sum.

The two branches share only the read-only input, so they run concurrently.
Run: ./polygpu samples-python/ml_ensemble.py [-n ROWS | --size large]
"""
import math
import sys
import time
import polyglot

KERNELS = """
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
"""

SIGNATURES = [
    "nb_1(x: in pointer float, feature_log_prob: in pointer float, class_log_prior: in pointer float, ret: out pointer float, n: sint32, features: sint32, classes: sint32)",
    "nb_2(ret: in pointer float, row_max: out pointer float, n: sint32, classes: sint32)",
    "nb_3(ret: in pointer float, row_max: in pointer float, lse: out pointer float, n: sint32, classes: sint32)",
    "nb_4(ret: inout pointer float, lse: in pointer float, n: sint32, classes: sint32)",
    "rr_1(x: in pointer float, z: out pointer float, mean: in pointer float, stdev: in pointer float, n: sint32, features: sint32)",
    "rr_2(z: in pointer float, coef: in pointer float, ret: out pointer float, n: sint32, features: sint32, classes: sint32)",
    "rr_3(ret: inout pointer float, intercept: in pointer float, n: sint32, classes: sint32)",
    "softmax(ret: inout pointer float, n: sint32, classes: sint32)",
    "argmax(a: in pointer float, b: in pointer float, label: out pointer sint32, n: sint32, classes: sint32)",
]
FEATURES, CLASSES = 32, 8


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


def device_array(cu, values):
    a = cu.DeviceArray("float", len(values))
    for i, v in enumerate(values):
        a[i] = v
    return a


def host_softmax(row):
    m = max(row)
    e = [math.exp(v - m) for v in row]
    s = sum(e)
    return [v / s for v in e]


def main():
    n = size(2_000, 200_000)
    blocks, threads = 64, 256
    cu = polyglot.eval(language="grcuda", string="CU")
    if hasattr(cu, "polygpu_device_info"):
        print("device:", cu.polygpu_device_info())
    k = {sig.split("(")[0]: cu.buildkernel(KERNELS, sig) for sig in SIGNATURES}

    rnd = uniform(11)
    hx = [float(int(next(rnd) * 10)) for _ in range(n * FEATURES)]
    hflp = [math.log(0.02 + next(rnd)) - 2.0 for _ in range(CLASSES * FEATURES)]
    hprior = [math.log(1.0 / CLASSES)] * CLASSES
    hmean = [4.5 + 0.1 * next(rnd) for _ in range(FEATURES)]
    hstd = [2.5 + 0.5 * next(rnd) for _ in range(FEATURES)]
    hcoef = [next(rnd) - 0.5 for _ in range(CLASSES * FEATURES)]
    hintercept = [next(rnd) - 0.5 for _ in range(CLASSES)]
    x, flp, prior, mean, std, coef, intercept = (device_array(cu, v) for v in
                                                   (hx, hflp, hprior, hmean, hstd, hcoef, hintercept))
    # the host reference works on the values as the device stores them (float)
    hflp, hprior, hmean, hstd, hcoef, hintercept = ([a[i] for i in range(len(a))] for a in
                                                    (flp, prior, mean, std, coef, intercept))
    z = cu.DeviceArray("float", n * FEATURES)
    nb, rr = cu.DeviceArray("float", n * CLASSES), cu.DeviceArray("float", n * CLASSES)
    row_max, lse = cu.DeviceArray("float", n), cu.DeviceArray("float", n)
    label = cu.DeviceArray("int", n)

    start = time.perf_counter()
    k["rr_1"](blocks, threads)(x, z, mean, std, n, FEATURES)
    k["rr_2"](blocks, threads)(z, coef, rr, n, FEATURES, CLASSES)
    k["rr_3"](blocks, threads)(rr, intercept, n, CLASSES)
    k["nb_1"](blocks, threads)(x, flp, prior, nb, n, FEATURES, CLASSES)
    k["nb_2"](blocks, threads)(nb, row_max, n, CLASSES)
    k["nb_3"](blocks, threads)(nb, row_max, lse, n, CLASSES)
    k["nb_4"](blocks, threads)(nb, lse, n, CLASSES)
    k["softmax"](blocks, threads)(rr, n, CLASSES)
    k["softmax"](blocks, threads)(nb, n, CLASSES)
    k["argmax"](blocks, threads)(rr, nb, label, n, CLASSES)
    first = label[0]
    elapsed = time.perf_counter() - start

    error, mismatches = 0.0, 0
    for i in range(n):
        row = hx[i * FEATURES:(i + 1) * FEATURES]
        zr = [(row[f] - hmean[f]) / hstd[f] for f in range(FEATURES)]
        r = host_softmax([sum(zr[f] * hcoef[c * FEATURES + f] for f in range(FEATURES)) + hintercept[c]
                          for c in range(CLASSES)])
        b = host_softmax(host_softmax([hprior[c] + sum(row[f] * hflp[c * FEATURES + f] for f in range(FEATURES))
                                       for c in range(CLASSES)]))
        score = [r[c] + b[c] for c in range(CLASSES)]
        for c in range(CLASSES):
            error = max(error, abs(rr[i * CLASSES + c] - r[c]), abs(nb[i * CLASSES + c] - b[c]))
        best = max(range(CLASSES), key=lambda c: score[c])
        # a different label is a mistake unless the two scores tie to float precision
        if label[i] != best and abs(score[label[i]] - score[best]) > 1e-5:
            mismatches += 1
    print(f"ML: {n} rows x {FEATURES} features, {CLASSES} classes, label[0] = {first}")
    print(f"time: {elapsed * 1000:.1f} ms")
    if error <= 2e-4 and mismatches == 0:
        print(f"check: OK (max abs error {error:.1e})")
    else:
        print(f"check: FAILED (max abs error {error:.1e}, {mismatches} labels differ)")
        sys.exit(1)


main()
