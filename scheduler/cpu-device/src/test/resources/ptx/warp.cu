// Warp-synchronous kernels: lanes exchange values through volatile __shared__ memory without __syncwarp, as
// code written for warps in lock step does (GrCUDA's CSR SpMV). PtxLockstepTest runs them.

// Lanes 0 and 1 of each warp write a slot each inside the if; every lane then reads both.
extern "C" __global__ void slots(const int *in, int *out) {
    __shared__ volatile int slot[8][2];
    int lane = threadIdx.x & 31;
    int w = threadIdx.x >> 5;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane < 2) {
        slot[w][lane] = in[g];
    }
    int a = slot[w][0];
    int b = slot[w][1];
    out[g] = a * 1000 + b + lane;
}

// y = A x for a CSR matrix, v (16 or 32) lanes per row: lanes 0 and 1 fetch the row's bounds into volatile slots,
// each lane sums every v-th product, and the lanes reduce through volatile shared memory.
extern "C" __global__ void spmv(const int *ptr, const int *cols, const int *vals, const int *x, int *y, int n,
                                int v) {
    __shared__ volatile int space[16][2];
    __shared__ volatile int red[256];
    int t = threadIdx.x;
    int lane = t % v;
    int vec = t / v;
    for (int row = blockIdx.x * (blockDim.x / v) + vec; row < n; row += gridDim.x * (blockDim.x / v)) {
        if (lane < 2) {
            space[vec][lane] = ptr[row + lane];
        }
        int start = space[vec][0];
        int end = space[vec][1];
        int sum = 0;
        for (int j = start + lane; j < end; j += v) {
            sum += vals[j] * x[cols[j]];
        }
        red[t] = sum;
        for (int off = v / 2; off > 0; off >>= 1) {
            if (lane < off) {
                red[t] = sum = sum + red[t + off];
            }
        }
        if (lane == 0) {
            y[row] = red[t];
        }
    }
}
