"""B&S: Black-Scholes call prices for 10 independent vectors of stock prices (double precision).

Ten kernels with no dependencies between them: polygpu runs them on separate streams at once.
Run: ./polygpu samples-python/black_scholes.py [-n N | --size large]
"""
import math
import sys
import time
import polyglot

BLACK_SCHOLES = """
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
"""

R, V, T, K = 0.08, 0.3, 1.0, 60.0
VECTORS = 10


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


def cnd(d):
    k = 1.0 / (1.0 + 0.2316419 * abs(d))
    c = 0.39894228040143267794 * math.exp(-0.5 * d * d) * (
        k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))))
    return 1.0 - c if d > 0 else c


def black_scholes(s):
    sqrt_t = math.sqrt(T)
    d1 = (math.log(s / K) + (R + 0.5 * V * V) * T) / (V * sqrt_t)
    d2 = d1 - V * sqrt_t
    return s * cnd(d1) - K * math.exp(-R * T) * cnd(d2)


def main():
    n = size(20_000, 2_000_000)
    blocks, threads = 64, 256
    cu = polyglot.eval(language="grcuda", string="CU")
    if hasattr(cu, "polygpu_device_info"):
        print("device:", cu.polygpu_device_info())
    bs = cu.buildkernel(BLACK_SCHOLES,
                        "bs(s: in pointer double, call: out pointer double, n: sint32, r: double, v: double, t: double, strike: double)")

    rnd = uniform(7)
    prices = [cu.DeviceArray("double", n) for _ in range(VECTORS)]
    calls = [cu.DeviceArray("double", n) for _ in range(VECTORS)]
    host = []
    for p in prices:
        values = [30.0 + 60.0 * next(rnd) for _ in range(n)]
        host.append(values)
        for i in range(n):
            p[i] = values[i]

    start = time.perf_counter()
    for p, c in zip(prices, calls):
        bs(blocks, threads)(p, c, n, R, V, T, K)
    first = [c[0] for c in calls]  # waits for each vector's kernel only
    elapsed = time.perf_counter() - start

    error = 0.0
    for values, c in zip(host, calls):
        for i in range(n):
            error = max(error, abs(c[i] - black_scholes(values[i])))
    print(f"B&S: {VECTORS} vectors of n={n}, first prices {first[0]:.4f} {first[1]:.4f} {first[2]:.4f}")
    print(f"time: {elapsed * 1000:.1f} ms")
    for a in prices + calls:
        a.free()
    if error <= 1e-9:
        print(f"check: OK (max abs error {error:.1e})")
    else:
        print(f"check: FAILED (max abs error {error:.1e} > 1e-9)")
        sys.exit(1)


main()
