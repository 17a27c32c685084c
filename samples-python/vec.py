"""VEC: square two vectors in parallel, then reduce sum(x*x - y*y) with warp shuffles and atomicAdd.

The two squares do not depend on each other, so polygpu runs them concurrently; the reduction waits for both.
Run: ./polygpu samples-python/vec.py [-n N | --size large]
"""
import sys
import time
import polyglot

SQUARE = """
__global__ void square(const float *x, float *y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = x[i] * x[i];
    }
}
"""

DIFF_SUM = """
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
"""


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


def main():
    n = size(200_000, 20_000_000)
    blocks, threads = 64, 256
    cu = polyglot.eval(language="grcuda", string="CU")
    if hasattr(cu, "polygpu_device_info"):
        print("device:", cu.polygpu_device_info())

    square = cu.buildkernel(SQUARE, "square(x: in pointer float, y: out pointer float, n: sint32)")
    diff_sum = cu.buildkernel(DIFF_SUM, "diff_sum(x: in pointer float, y: in pointer float, z: inout pointer float, n: sint32)")

    x = cu.DeviceArray("float", n)
    y = cu.DeviceArray("float", n)
    x2 = cu.DeviceArray("float", n)
    y2 = cu.DeviceArray("float", n)
    z = cu.DeviceArray("float", 1)
    rnd = uniform(42)
    hx = [next(rnd) for _ in range(n)]
    hy = [next(rnd) for _ in range(n)]
    for i in range(n):
        x[i] = hx[i]
        y[i] = hy[i]

    start = time.perf_counter()
    z[0] = 0.0
    square(blocks, threads)(x, x2, n)
    square(blocks, threads)(y, y2, n)
    diff_sum(blocks, threads)(x2, y2, z, n)
    result = z[0]
    elapsed = time.perf_counter() - start

    # host reference, with the inputs rounded to float as the device stores them
    expected = 0.0
    magnitude = 0.0
    for i in range(n):
        a, b = x[i], y[i]
        expected += a * a - b * b
        magnitude += a * a + b * b
    error = abs(result - expected)
    tolerance = 1e-6 * magnitude + 1e-6
    print(f"VEC: n={n}, sum(x^2 - y^2) = {result:.6f} (host {expected:.6f})")
    print(f"time: {elapsed * 1000:.1f} ms")
    for a in (x, y, x2, y2, z):
        a.free()
    if error <= tolerance:
        print(f"check: OK (max abs error {error:.1e})")
    else:
        print(f"check: FAILED (abs error {error:.1e} > tolerance {tolerance:.1e})")
        sys.exit(1)


main()
