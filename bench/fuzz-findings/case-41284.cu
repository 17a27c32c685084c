#define k41284_C9 (0U)
__shared__ unsigned short k41284_sh16[64];
__shared__ unsigned long k41284_sh18[64];
#define k41284_C31 ((short)1)
__device__ double k41284_dcan(double x) { return x != x ? __longlong_as_double(0x7ff8000000000000ll) : x; }
__device__ unsigned int k41284_f2i_f32_u32(float x) {
    double v = x;
    return (v > -1.0 && v < 0x1p32) ? (unsigned int)v : (v != v ? (unsigned int)0 : (v > 0.0 ? (unsigned int)4294967295u : (unsigned int)0));
}
__device__ int k41284_f2i_f64_i32(double x) {
    double v = x;
    return (v > -0x1.00000002p31 && v < 0x1p31) ? (int)v : (v != v ? (int)0 : (v > 0.0 ? (int)2147483647 : (int)-2147483648));
}
__device__ unsigned int k41284_div_u32(unsigned int a, unsigned int b) { return (b == 0) ? a : a / b; }
__device__ unsigned int k41284_mod_u32(unsigned int a, unsigned int b) { return (b == 0) ? a : a % b; }
__device__ float k41284_fcan(float x) { return x != x ? __int_as_float(0x7fc00000) : x; }
__device__ unsigned int k41284_f2i_f64_u32(double x) {
    double v = x;
    return (v > -1.0 && v < 0x1p32) ? (unsigned int)v : (v != v ? (unsigned int)0 : (v > 0.0 ? (unsigned int)4294967295u : (unsigned int)0));
}
__device__ unsigned long long k41284_f2i_f32_u64(float x) {
    double v = x;
    return (v > -1.0 && v < 0x1p64) ? (unsigned long long)v : (v != v ? (unsigned long long)0 : (v > 0.0 ? (unsigned long long)18446744073709551615ull : (unsigned long long)0));
}
__device__ unsigned short k41284_f2i_f32_u16(float x) {
    double v = x;
    return (v > -1.0 && v < 0x1p16) ? (unsigned short)v : (v != v ? (unsigned short)0 : (v > 0.0 ? (unsigned short)65535u : (unsigned short)0));
}
__device__ unsigned long long k41284_mix(unsigned long long h, unsigned long long v) {
    h = (h ^ v) * 0x100000001b3ull;
    return h ^ (h >> 29);
}
__device__ int k41284_addc_i32(int a, int b) {
    return ((b > 0 && a > 2147483647 - b) || (b < 0 && a < (-2147483647 - 1) - b)) ? a : a + b;
}
__device__ long k41284_mod_l64(long a, long b) { return (b == 0 || (a == (-9223372036854775807L - 1) && b == -1)) ? a : a % b; }
__device__ int k41284_div_i32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == -1)) ? a : a / b; }
__device__ long long k41284_addc_i64(long long a, long long b) {
    return ((b > 0 && a > 9223372036854775807LL - b) || (b < 0 && a < (-9223372036854775807LL - 1) - b)) ? a : a + b;
}
__device__ int k41284_f2i_f32_i32(float x) {
    double v = x;
    return (v > -0x1.00000002p31 && v < 0x1p31) ? (int)v : (v != v ? (int)0 : (v > 0.0 ? (int)2147483647 : (int)-2147483648));
}
__device__ unsigned int k41284_fbits(float x) { return x != x ? 0x7fc00000u : __float_as_uint(x); }
__device__ inline int k41284_f0(float prm0, uint3 prm1) {
    return __mulhi((-22), static_cast<unsigned short>((k41284_f2i_f64_i32(1.7976931348623157E308) + 2u)));
}
__device__ inline void k41284_f7(float* prm0, const float* prm1, unsigned int prm2) {
    return;
}
__device__ inline float k41284_f13(ushort1 prm0) {
    return float{};
}
template <int N>
__device__ int k41284_tn15(int x) {
    return x & ((1 << (N & 15)) - 1);
}
extern "C" __global__ void k41284_kernel(const int* in0, const int* in1, const float* in2, unsigned long long* out_h, int* scr, long long* atom_i64) {
    const unsigned int tid = threadIdx.x;
    const unsigned int bid = blockIdx.x + gridDim.x * blockIdx.y;
    const unsigned int gid = bid * 64u + tid;
    const unsigned int lane = tid & 31u;
    const unsigned int wid = tid >> 5;
    unsigned long long h = 13360044558620387538ull;
    volatile unsigned long* vp19 = k41284_sh18;
    k41284_sh16[tid] = k41284_f2i_f32_u16(static_cast<float>(((double)bid)));
    k41284_sh16[tid] = static_cast<unsigned short>((((unsigned short)(2147483647 ? ((short)k41284_tn15<3>(((int)k41284_sh18[tid]))) : static_cast<unsigned short>((short)0))) * 0ULL));
    __syncthreads();
    h = k41284_mix(h, (unsigned long long)(k41284_sh16[(((signed char)__float_as_int(k41284_fcan(0.5f)))) & 63u]));
    __syncthreads();
    unsigned char a20[3] = {((unsigned char)(((short)k41284_sh16[tid]) + (short)7914)), static_cast<unsigned char>(vp19[tid])};
    k41284_sh16[tid] = k41284_f2i_f32_u16(k41284_f13(make_ushort1(static_cast<unsigned short>(__shfl_up_sync(0xffffffffu, int(wid), (bid) & 31, 4)))));
    __syncthreads();
    h = k41284_mix(h, (unsigned long long)(k41284_sh16[(((-1) ^ ((int)wid))) & 63u]));
    __syncthreads();
    unsigned long v21 = (((-1.0), 0x3alu) - ((short)__double_as_longlong(k41284_dcan(3561.0304874266367))));
    h = k41284_mix(h, (unsigned long long)(k41284_tn15<2>(((int)tid))));
    float a22[2];
    for (int q23 = 0; q23 < 2; q23++) {
        a22[q23] = (float)q23 + ((in2[(lane) & 255u] + static_cast<float>(lane)) + static_cast<float>(wid));
    }
    h = k41284_mix(h, (unsigned long long)(bool{}));
    int2 a24 = reinterpret_cast<const int2*>(in1)[(65535u) & 127u];
    int v25 = __shfl_sync(0xffffffffu, k41284_addc_i32(((int)__shfl_down_sync(0xffffffffu, tid, (((int)h)) & 31)), ((int)__shfl_down_sync(0xffffffffu, 2652352887u, (4294967295u) & 31))), (((unsigned int)k41284_mod_l64(((unsigned int)k41284_sh16[tid]), static_cast<long>(h)))) & 31);
    {
        unsigned int w28 = 0U;
        while (++w28 <= 3u) {
            float4 a29 = reinterpret_cast<const float4*>(in2)[((in1[(0xffffffffU) & 255u] | ((int)wid))) & 63u];
            {
                int w30 = 0;
                while (++w30 <= (((short)(((long)llmin(8191LL, static_cast<long long>(w28))) * k41284_C31)) & 7)) {
                    if ((((0x1.17p5f + ((unsigned long long)w28)) + ((float)static_cast<double>(w28))) <= k41284_f13(make_ushort1(((unsigned short)0U))))) {
                        {
                            int w32 = 0;
                            while (w32++ < 0x1) {
                                atomicMin(&atom_i64[0], ((int())));
                                double v33 = ((double)h);
                                h = k41284_mix(h, (unsigned long long)(k41284_tn15<2>(k41284_f2i_f32_i32(a22[((-1)) & 1u]))));
                            }
                        }
                        if (0U) {
                            continue;
                        }
                    }
                    float a34[2] = {((!(static_cast<unsigned long long>(gid) <= h)) ? (float(v25) + 1.4E-45f) : float(gid)), __shfl_sync(0xffffffffu, __fadd_rn(0.0f, in2[(4294967295u) & 255u]), (-2147483647 - 1))};
                    const float* p35 = (in2 + ((0u) & 127u));
                }
            }
        }
    }
    for (int e36 = 0; e36 < 3; e36++) {
        h = k41284_mix(h, (unsigned long long)(a20[e36]));
    }
}
