"""HITS: hub and authority scores of a generated graph, 5 iterations of two CSR sparse matrix-vector products
(A for hubs, its transpose for authorities) with normalisation; the host resets the norms each iteration.

Run: ./polygpu samples-python/hits.py [-n VERTICES | --size large]
"""
import sys
import time
import polyglot

KERNELS = """
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
"""

ITERATIONS = 5


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


def csr(n, edges):
    """CSR rows of the (source -> target) edge list, with unit weights."""
    counts = [0] * (n + 1)
    for s, _ in edges:
        counts[s + 1] += 1
    for i in range(n):
        counts[i + 1] += counts[i]
    fill = counts[:-1]
    idx = [0] * len(edges)
    for s, t in edges:
        idx[fill[s]] = t
        fill[s] += 1
    return counts, idx


def to_device(cu, kind, values):
    a = cu.DeviceArray(kind, len(values))
    for i, v in enumerate(values):
        a[i] = v
    return a


def host_spmv(ptr, idx, vec):
    return [sum(vec[idx[j]] for j in range(ptr[i], ptr[i + 1])) for i in range(len(ptr) - 1)]


def main():
    n = size(20_000, 2_000_000)
    blocks, threads = 64, 256
    cu = polyglot.eval(language="grcuda", string="CU")
    if hasattr(cu, "polygpu_device_info"):
        print("device:", cu.polygpu_device_info())
    spmv = cu.buildkernel(KERNELS, "spmv(ptr: in pointer sint32, idx: in pointer sint32, val: in pointer float, vec: in pointer float, res: out pointer float, n: sint32)")
    total = cu.buildkernel(KERNELS, "sum(x: in pointer float, total: inout pointer float, n: sint32)")
    divide = cu.buildkernel(KERNELS, "divide(x: in pointer float, y: out pointer float, total: in pointer float, n: sint32)")

    rnd = uniform(5)
    edges = []
    for s in range(n):
        for _ in range(1 + int(next(rnd) * 8)):
            edges.append((s, int(next(rnd) * n)))
    ptr, idx = csr(n, edges)
    ptr_t, idx_t = csr(n, [(t, s) for s, t in edges])
    e = len(edges)
    d_ptr, d_idx = to_device(cu, "int", ptr), to_device(cu, "int", idx)
    d_ptr_t, d_idx_t = to_device(cu, "int", ptr_t), to_device(cu, "int", idx_t)
    ones = to_device(cu, "float", [1.0] * e)
    hub, auth = to_device(cu, "float", [1.0] * n), to_device(cu, "float", [1.0] * n)
    hub_next, auth_next = cu.DeviceArray("float", n), cu.DeviceArray("float", n)
    hub_norm, auth_norm = cu.DeviceArray("float", 1), cu.DeviceArray("float", 1)

    start = time.perf_counter()
    for _ in range(ITERATIONS):
        spmv(blocks, threads)(d_ptr_t, d_idx_t, ones, hub, auth_next, n)
        spmv(blocks, threads)(d_ptr, d_idx, ones, auth, hub_next, n)
        auth_norm[0] = 0.0
        hub_norm[0] = 0.0
        total(blocks, threads)(auth_next, auth_norm, n)
        total(blocks, threads)(hub_next, hub_norm, n)
        divide(blocks, threads)(auth_next, auth, auth_norm, n)
        divide(blocks, threads)(hub_next, hub, hub_norm, n)
    first = hub[0], auth[0]
    elapsed = time.perf_counter() - start

    h, a = [1.0] * n, [1.0] * n
    for _ in range(ITERATIONS):
        a_next, h_next = host_spmv(ptr_t, idx_t, h), host_spmv(ptr, idx, a)
        sa, sh = sum(a_next), sum(h_next)
        a, h = [v / sa for v in a_next], [v / sh for v in h_next]
    largest = max(max(h), max(a))
    error = max(max(abs(hub[i] - h[i]), abs(auth[i] - a[i])) for i in range(n))
    print(f"HITS: {n} vertices, {e} edges, {ITERATIONS} iterations, hub[0] = {first[0]:.3e}, auth[0] = {first[1]:.3e}")
    print(f"time: {elapsed * 1000:.1f} ms")
    if error <= 1e-4 * largest:
        print(f"check: OK (max abs error {error:.1e})")
    else:
        print(f"check: FAILED (max abs error {error:.1e} > {1e-4 * largest:.1e})")
        sys.exit(1)


main()
