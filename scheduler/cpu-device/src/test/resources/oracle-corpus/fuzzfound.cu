// Kernels reduced from what bench/fuzz found (docs/fuzzing.md, "What it has found"), one per bug, kept in the
// corpus so that each stays fixed on both sides. Every thread writes only its own slots.

// A call of a function in a later argument of a call of the same function, directly or through another one.
__device__ long long m(long long a, long long b) { return a * b + 1; }
__device__ long long via(long long x) { return m(x, 5); }

extern "C" __global__ void nested_same_call(const int* in, long long* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long x = in[i];
    out[4 * i] = m(2, m(3, 5));
    out[4 * i + 1] = m(x, via(x + 1));
    out[4 * i + 2] = m(m(x, 2), m(3, x));
    out[4 * i + 3] = m(via(x), m(x, via(2)));
}

// Shuffle lanes, deltas and lane masks of 32 and more: PTX's shfl uses their low 5 bits.
extern "C" __global__ void wide_lane_args(const unsigned int* in, unsigned int* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x & 31u;
    unsigned int v = in[t];
    const unsigned int full = 0xffffffffu;
    out[8 * t] = __shfl_down_sync(full, v, 33u);
    out[8 * t + 1] = __shfl_up_sync(full, v, 0xffffffffu);
    out[8 * t + 2] = __shfl_xor_sync(full, v, 37);
    out[8 * t + 3] = __shfl_sync(full, v, lane + 40u);
    out[8 * t + 4] = __shfl_down_sync(full, v, 34u, 8);
    out[8 * t + 5] = __shfl_up_sync(full, v, 65u, 16);
    out[8 * t + 6] = __shfl_xor_sync(full, v, 48, 16);
    out[8 * t + 7] = __shfl_sync(full, v, -1, 8);
}

// '?:' with both operands of one type has that type (no promotion), and explicit template arguments are not
// deduced again from the call's arguments.
template <typename T> __device__ T dist(T a, T b) { return a > b ? a - b : b - a; }
template <typename T> __device__ T add(T a, T b) { return (T)(a + b); }
template <typename A, typename B> __device__ B mix(A a, B b) { return (B)(a * 10 + b); }

extern "C" __global__ void conditional_and_template_types(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int c = in[i];
    short s = (short)(c >> 4);
    unsigned char u = (unsigned char)c;
    out[8 * i] = sizeof(c > 0 ? (short)5 : s);
    out[8 * i + 1] = dist(c > 0 ? (short)5 : s, s);
    out[8 * i + 2] = sizeof(c & 1 ? (unsigned char)1 : u) + 10 * sizeof(c & 1 ? (short)1 : 2);
    out[8 * i + 3] = (c & 2 ? (unsigned char)200 : u) + (unsigned char)100;
    out[8 * i + 4] = add<unsigned char>(u, 3);
    out[8 * i + 5] = add<short>(s, 70000);
    out[8 * i + 6] = mix<int>(2.5f, (short)c);
    out[8 * i + 7] = sizeof(add<unsigned char>(u, 3)) + 10 * sizeof(mix<int>(1.5f, u));
}

// erfcinv of subnormal arguments and of arguments just above 1 (CUDA's bound: 6 ulp).
extern "C" __global__ void erfcinv_edges(const double* in, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = erfcinv(in[i]);
}

// __syncthreads_count/_and/_or (PTX's bar.red), also as a block-uniform loop condition.
extern "C" __global__ void syncthreads_votes(const int* in, int* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    out[4 * t] = __syncthreads_count(v > 0);
    out[4 * t + 1] = __syncthreads_and(v > -900);
    out[4 * t + 2] = __syncthreads_or(v > 990);
    int rounds = 0;
    while (__syncthreads_or(v > 0)) {
        v -= 300;
        rounds++;
    }
    out[4 * t + 3] = rounds;
}
