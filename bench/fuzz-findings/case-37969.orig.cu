#include <cuda_fp16.h>
typedef struct {
    unsigned int m0[4];
} k37969_S0;
typedef struct {
    signed char m0;
    int m1[2];
    unsigned char m2;
} k37969_S1;
#define k37969_M4(a, b) ((a) < (b) ? (a) : (b))
#define k37969_C6 ((signed char)1)
__device__ char k37969_f2i_f32_c8(float x) {
    double v = x;
    return (v > -0x1.02p7 && v < 0x1p7) ? (char)v : (v != v ? (char)0 : (v > 0.0 ? (char)127 : (char)-128));
}
__device__ unsigned int k37969_f2i_f32_u32(float x) {
    double v = x;
    return (v > -1.0 && v < 0x1p32) ? (unsigned int)v : (v != v ? (unsigned int)0 : (v > 0.0 ? (unsigned int)4294967295u : (unsigned int)0));
}
__device__ unsigned int k37969_f2i_f64_u32(double x) {
    double v = x;
    return (v > -1.0 && v < 0x1p32) ? (unsigned int)v : (v != v ? (unsigned int)0 : (v > 0.0 ? (unsigned int)4294967295u : (unsigned int)0));
}
__device__ int k37969_mod_i32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == -1)) ? a : a % b; }
__device__ int k37969_f2i_f32_i32(float x) {
    double v = x;
    return (v > -0x1.00000002p31 && v < 0x1p31) ? (int)v : (v != v ? (int)0 : (v > 0.0 ? (int)2147483647 : (int)-2147483648));
}
__device__ unsigned char k37969_f2i_f32_u8(float x) {
    double v = x;
    return (v > -1.0 && v < 0x1p8) ? (unsigned char)v : (v != v ? (unsigned char)0 : (v > 0.0 ? (unsigned char)255u : (unsigned char)0));
}
__device__ unsigned long long k37969_f2i_f32_u64(float x) {
    double v = x;
    return (v > -1.0 && v < 0x1p64) ? (unsigned long long)v : (v != v ? (unsigned long long)0 : (v > 0.0 ? (unsigned long long)18446744073709551615ull : (unsigned long long)0));
}
__device__ unsigned long long k37969_mix(unsigned long long h, unsigned long long v) {
    h = (h ^ v) * 0x100000001b3ull;
    return h ^ (h >> 29);
}
__device__ double k37969_dcan(double x) { return x != x ? __longlong_as_double(0x7ff8000000000000ll) : x; }
__device__ int k37969_addw_i32(int a, int b) { return (int)((unsigned int)a + (unsigned int)b); }
__device__ long long k37969_subc_i64(long long a, long long b) {
    return ((b < 0 && a > 9223372036854775807LL + b) || (b > 0 && a < (-9223372036854775807LL - 1) + b)) ? a : a - b;
}
__device__ int k37969_div_i32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == -1)) ? a : a / b; }
__device__ bool k37969_f2i_f32_b(float x) { return x != 0.0f; }
__device__ int k37969_subc_i32(int a, int b) {
    return ((b < 0 && a > 2147483647 + b) || (b > 0 && a < (-2147483647 - 1) + b)) ? a : a - b;
}
__device__ unsigned long long k37969_div_u64(unsigned long long a, unsigned long long b) { return (b == 0) ? a : a / b; }
__device__ k37969_S0 k37969_mk2(short prm0, float prm1) {
    k37969_S0 r = {{4294967295u, ((unsigned int)__rhadd((short)(-6479), 4294967294u)), static_cast<unsigned int>(((prm0 == k37969_f2i_f32_c8(prm1)) ? ((long long)prm0) : 0x8000000U)), ((unsigned int)((true < false) || ((((0120ll == (unsigned short)16383) && (2498311064044892906L != true)) && ((signed char)31 == (signed char)(-126))) && (0x10000L < 4L))))}};
    k37969_S0 a3 = {{(k37969_M4(k37969_f2i_f32_u32(prm1), (-1)) - ((unsigned short)((1.1754944E-38f && 2147483646) ? (unsigned short)65488 : static_cast<unsigned long long>(prm0)))), k37969_f2i_f64_u32(0.0), k37969_f2i_f32_u32(prm1), static_cast<unsigned int>((static_cast<unsigned short>(k37969_mod_i32((short)2631, (-1))) == static_cast<unsigned short>(max(r.m0[(((unsigned int)prm0)) & 3u], k37969_f2i_f32_u32(prm1)))))}};
    r.m0[((3368451208u, 2147483647)) & 3u] -= ((long)((~((int)r.m0[(16777216u) & 3u])) * ((long long)(1.7976931348623157E308 > 0x1.a76173f1af774p10))));
    return r;
}
__device__ k37969_S1 k37969_mk5(float prm0) {
    k37969_S1 r = {k37969_C6, {((int)((unsigned short)0 / 4294967273u)), ((1 < k37969_f2i_f32_i32(prm0)) ? (-24048303) : ((unsigned char)0 >> ((short)11 & 31)))}, k37969_f2i_f32_u8(__half2float(__float2half(prm0)))};
    int v7 = ((int)(false >= k37969_f2i_f32_u64(prm0)));
    return r;
}
extern "C" __global__ void k37969_kernel(const float* in0, unsigned long long* out_h, double* out_d, double* math_d, unsigned short* scr, unsigned long long* atom_u64, unsigned long long s0, unsigned int s1, short s2) {
    const unsigned int tid = threadIdx.x;
    const unsigned int bid = blockIdx.x;
    const unsigned int gid = bid * 96u + tid;
    const unsigned int lane = tid & 31u;
    const unsigned int wid = tid >> 5;
    unsigned long long h = 12576060905774897424llu;
    __shared__ long long sh8[96];
    sh8[tid] = ((long long)((s1 != k37969_f2i_f32_u32(in0[(4294967240U) & 63u])) || (true != static_cast<bool>(tid))));
    s2++;
    sh8[tid] = ((long long)__reduce_add_sync(0xffffffffu, lane));
    __syncthreads();
    h = k37969_mix(h, (unsigned long long)(sh8[(unsigned int)((-29)) % 96u]));
    __syncthreads();
    math_d[gid * 4u + 1u] = k37969_dcan(cosh(((((int)tid) == ((int)wid)) ? (-0.5) : ((-1.0) - (-0.0)))));
    if ((((unsigned int)(!(((signed char)sh8[tid]) == 0.0023482759f))) < (2048 * (tid * 0U)))) {
        const long long v9 = 0LL;
    }
    {
        unsigned int w10 = 0x0u;
        while (w10++ < 5U) {
            sh8[tid] = k37969_subc_i64(sh8[tid], ((long long)k37969_addw_i32(((char)(-((char())))), __shfl_xor_sync(0xffffffffu, ((int)(tid - 2147483646)), (~(-1))))));
            atomicAdd(&atom_u64[0], ((unsigned int)__all_sync(0xffffffffu, ((unsigned char)k37969_div_i32(((unsigned char)s2), k37969_f2i_f32_u8(in0[(static_cast<int>(scr[gid * 8u + ((((int)tid)) & 7u)])) & 63u]))))));
            if ((((1.6777216E7f * ((float)wid)) < (static_cast<double>(w10) ? ((float)wid) : static_cast<float>(w10))) && ((((float)s0) + ((float)s0)) < in0[(((int)s2)) & 63u]))) {
                math_d[gid * 4u + 0u] = k37969_dcan(sinpi(double(tid)));
                if (gid == 0u) {
                    h = k37969_mix(h, (unsigned long long)printf("t\n"));
                }
                __half v11 = __hneg((((1.0 != static_cast<signed char>(s1)) || (long(gid) < float(wid))) ? __hmul(__float2half(13.75f), __float2half((-3.75f))) : __float2half(float(gid))));
            }
            if ((static_cast<short>(bid) < 31U)) {
                continue;
            }
        }
    }
    s0 = ((int)__usad((char)15, ((unsigned char)(((unsigned char)s1) * (unsigned char)222)), k37969_f2i_f32_b(in0[(s1) & 63u])));
    for (int i12 = 0; i12 < 4; i12 += 2) {
        const float v13 = ((float)s0);
        if (gid == 0u) {
            h = k37969_mix(h, (unsigned long long)printf("t %a %llX %u\n", ((double)((short)lane)), ((unsigned long long)(wid >> (9223372036854775807ll & 31))), (4294967295u & ((unsigned int)h))));
        }
    }
    math_d[gid * 4u + 3u] = k37969_dcan(log1p(((in0[((-2147483647 - 1)) & 63u] * ((double)gid)) / static_cast<float>(s0))));
    scr[gid * 8u + ((static_cast<unsigned int>(__shfl_sync(0xffffffffu, ((long long)bid), (0ul) & 31))) & 7u)] = ((unsigned short)((((short)(-32766) <= ((short)gid)) && (double(s2) > (-4091.508304540832))) || (in0[(((int)tid)) & 63u] >= 0ull)));
    if ((k37969_subc_i32(static_cast<int>(k37969_f2i_f32_u32(in0[(k37969_f2i_f32_u32(in0[(s1) & 63u])) & 63u])), ((int)(__syncwarp(), __activemask()))) >= ((int)(static_cast<unsigned long long>(k37969_f2i_f32_b(in0[(int(s1)) & 63u])) >= 0ULL)))) {
        if ((((unsigned long long)bid) != ((((float)bid) / static_cast<float>(s2)), (~38ULL)))) {
            out_d[gid * 4u + 3u] = k37969_dcan(__int2double_rn(k37969_div_i32(((signed char)h), static_cast<int>((-18446744073709551615ul)))));
            float v14 = ((float)fabs((-1.0)));
            v14 -= ((int)(!k37969_div_u64(((unsigned char)wid), 18446744073709551572llu)));
        } else {
        }
    }
    h = k37969_mix(h, (unsigned long long)(s0));
    h = k37969_mix(h, (unsigned long long)(s1));
    h = k37969_mix(h, (unsigned long long)(s2));
    out_h[gid] = h;
}
