// Kernels whose PTX uses sad and carry chains (PtxIntegerOpsTest): nvcc 13.0 writes sad.s32 for __sad,
// sad.u32 for __usad, and add.cc/addc.cc, sub.cc/subc.cc for 128-bit integer arithmetic.

extern "C" __global__ void sads(unsigned *out, const int *a, const int *b, const unsigned *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i] = __sad(a[i], b[i], c[i]);
        out[2 * i + 1] = __usad((unsigned) a[i], (unsigned) b[i], c[i]);
    }
}

// out[2i] = a[i] + b[i], out[2i + 1] = a[i] - b[i], on 128-bit unsigned integers (two 64-bit words each)
extern "C" __global__ void add_sub_128(unsigned __int128 *out, const unsigned __int128 *a,
                                       const unsigned __int128 *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i] = a[i] + b[i];
        out[2 * i + 1] = a[i] - b[i];
    }
}
