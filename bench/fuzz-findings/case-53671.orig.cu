#include <cuda_fp16.h>
struct k53671_S0 {
    float m0[2];
    double m1;
    signed char m2;
    unsigned long m3;
};
#define k53671_C7 ((char)1)
extern __shared__ unsigned char k53671_sh12[];
#define k53671_M21(a, b) ((a) & (b))
__device__ signed char k53671_f2i_f32_s8(float x) {
    double v = x;
    return (v > -0x1.02p7 && v < 0x1p7) ? (signed char)v : (v != v ? (signed char)0 : (v > 0.0 ? (signed char)127 : (signed char)-128));
}
__device__ unsigned long long k53671_f2i_f64_u64(double x) {
    double v = x;
    return (v > -1.0 && v < 0x1p64) ? (unsigned long long)v : (v != v ? (unsigned long long)0 : (v > 0.0 ? (unsigned long long)18446744073709551615ull : (unsigned long long)0));
}
__device__ bool k53671_f2i_f64_b(double x) { return x != 0.0f; }
__device__ int k53671_div_i32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == -1)) ? a : a / b; }
__device__ unsigned long k53671_f2i_f64_ul64(double x) {
    double v = x;
    return (v > -1.0 && v < 0x1p64) ? (unsigned long)v : (v != v ? (unsigned long)0 : (v > 0.0 ? (unsigned long)18446744073709551615ull : (unsigned long)0));
}
__device__ int k53671_subc_i32(int a, int b) {
    return ((b < 0 && a > 2147483647 + b) || (b > 0 && a < (-2147483647 - 1) + b)) ? a : a - b;
}
__device__ long k53671_shl_l64(long a, unsigned int b) { return (long)((unsigned long)a << (b & 63u)); }
__device__ int k53671_f2i_f64_i32(double x) {
    double v = x;
    return (v > -0x1.00000002p31 && v < 0x1p31) ? (int)v : (v != v ? (int)0 : (v > 0.0 ? (int)2147483647 : (int)-2147483648));
}
__device__ unsigned long long k53671_mix(unsigned long long h, unsigned long long v) {
    h = (h ^ v) * 0x100000001b3ull;
    return h ^ (h >> 29);
}
__device__ int k53671_shl_i32(int a, unsigned int b) { return (int)((unsigned int)a << (b & 31u)); }
__device__ int k53671_subw_i32(int a, int b) { return (int)((unsigned int)a - (unsigned int)b); }
__device__ float k53671_fcan(float x) { return x != x ? __int_as_float(0x7fc00000) : x; }
__device__ int k53671_neg_i32(int a) { return a == (-2147483647 - 1) ? a : -a; }
__device__ char k53671_f2i_f32_c8(float x) {
    double v = x;
    return (v > -0x1.02p7 && v < 0x1p7) ? (char)v : (v != v ? (char)0 : (v > 0.0 ? (char)127 : (char)-128));
}
__device__ unsigned int k53671_mod_u32(unsigned int a, unsigned int b) { return (b == 0) ? a : a % b; }
__device__ short k53671_f2i_f64_s16(double x) {
    double v = x;
    return (v > -0x1.0002p15 && v < 0x1p15) ? (short)v : (v != v ? (short)0 : (v > 0.0 ? (short)32767 : (short)-32768));
}
__device__ int k53671_mulc_i32(int a, int b) {
    return ((a > 0 && b > 0 && a > 2147483647 / b) || (a > 0 && b <= 0 && b < (-2147483647 - 1) / a) || (a <= 0 && b > 0 && a < (-2147483647 - 1) / b) || (a < 0 && b <= 0 && b < 2147483647 / a)) ? a : a * b;
}
__device__ int k53671_mulw_i32(int a, int b) { return (int)((unsigned int)a * (unsigned int)b); }
__device__ int k53671_f2i_f32_i32(float x) {
    double v = x;
    return (v > -0x1.00000002p31 && v < 0x1p31) ? (int)v : (v != v ? (int)0 : (v > 0.0 ? (int)2147483647 : (int)-2147483648));
}
__device__ unsigned int k53671_div_u32(unsigned int a, unsigned int b) { return (b == 0) ? a : a / b; }
__device__ unsigned long long k53671_dbits(double x) { return x != x ? 0x7ff8000000000000ull : (unsigned long long)__double_as_longlong(x); }
__device__ unsigned int k53671_fbits(float x) { return x != x ? 0x7fc00000u : __float_as_uint(x); }
__device__ k53671_S0 k53671_mk1(double prm0, float prm1) {
    k53671_S0 r = {{prm1, (-19.0f)}, prm0, k53671_f2i_f32_s8((-1.1754944E-38f)), 0UL};
    float v2 = prm1;
    unsigned int v3{};
    return r;
}
__device__ signed char k53671_f4(int prm0, const float* prm1) {
    bool a5[4] = {bool(__shfl_down_sync(0xffffffffu, k53671_f2i_f64_u64(3063.082374891388), (((int)(2183913702U * prm0))) & 31)), static_cast<bool>((short(false) | k53671_f2i_f64_b((-0.0)))), true, ((bool)__syncthreads_count(((short)0 == 1lu)))};
    unsigned short a6[2] = {static_cast<unsigned short>(k53671_C7), static_cast<unsigned short>(k53671_div_i32((unsigned short)1, ((unsigned short)(-(unsigned short)65535))))};
    k53671_S0 a8 = {{0x1.0p-1f, remainderf(fabsf((-2175.4062f)), (1.1754944E-38f - 0.0f))}, (((double)18446744073709551554ul) / 36.0f), ((signed char)(!524287ULL)), (k53671_f2i_f64_ul64(((double)prm0)) * ((int)(((float)prm0) >= (unsigned short)40739)))};
    return static_cast<signed char>(__ballot_sync(0xffffffffu, (((int)umax(((unsigned int)prm0), 8191U)) > k53671_subc_i32(prm0, prm0))));
}
template <typename T>
__device__ T k53671_t9(T a, T b, int k) {
    T r = a;
    T arr[4] = {a, b, b, a};
    r = (k & 1) ? r : b;
    if (a < b) {
        r = b;
    }
    r = arr[k & 3];
    return r;
}
extern "C" __global__ void k53671_kernel(const unsigned long long* in0, unsigned long long* out_h, int* atom_i32, unsigned int* atom_u32, float* atom_f32, double s0, signed char s1) {
    const unsigned int tid = threadIdx.x;
    const unsigned int bid = blockIdx.x;
    const unsigned int gid = bid * 128u + tid;
    const unsigned int lane = tid & 31u;
    const unsigned int wid = tid >> 5;
    unsigned long long h = 8040418386929930238ULL;
    __shared__ long sh10[128];
    sh10[tid] = k53671_shl_l64(9007199254740992L, ((short)((short)32767 & ((unsigned int)h))));
    volatile long* vp11 = sh10;
    k53671_sh12[tid] = (unsigned char)226;
    volatile unsigned char* vp13 = k53671_sh12;
    h = k53671_mix(h, (unsigned long long)(k53671_t9(((int)s1), int(sh10[tid]), (~k53671_f2i_f64_i32(s0)))));
    h = k53671_mix(h, (unsigned long long)(((char)((-4294967267U) != ((2147483647 <= 2147483646) ? static_cast<short>(__all_sync(0xffffffffu, ((-0x1.0p0f) <= 0xffffffffU))) : (gid * (-2147483646)))))));
    if (((fmaf(0.0f, 0.056922138f, (-0x1.ff84e6p9f)) / (s1 / (-3.0f))) >= (unsigned short)5413)) {
        k53671_sh12[tid] = ((unsigned char)__reduce_and_sync(0xffffffffu, wid));
        __syncthreads();
        h = k53671_mix(h, (unsigned long long)(k53671_sh12[(static_cast<unsigned long>((char(gid) - (unsigned short)38))) & 127u]));
        __syncthreads();
        h = k53671_mix(h, (unsigned long long)(k53671_t9(k53671_shl_i32(((unsigned short)wid), ((int)gid)), (bool(lane) ? (-2147483647 - 1) : true), k53671_div_i32(111482831, ((int)gid)))));
        unsigned long v14 = ((unsigned long)__shfl_up_sync(0xffffffffu, k53671_div_i32(((int)gid), k53671_div_i32(1, ((int)h))), (__shfl_down_sync(0xffffffffu, 0x1, (4096) & 31)) & 31));
    }
    atomicDec(&atom_u32[0], 80u);
    h = k53671_mix(h, (unsigned long long)(k53671_t9(((((float)bid) < static_cast<float>(wid)) ? ((signed char)wid) : '~'), ((int)llabs(((long long)wid))), ((int)__shfl_xor_sync(0xffffffffu, 0llu, 98)))));
    long* p15 = &sh10[tid];
    uchar4 a16[4] = {{((unsigned char)(__syncwarp(), __activemask())), ((unsigned char)__funnelshift_l(k53671_t9(k53671_f2i_f64_i32(s0), 1, 2147483647), 4U, ((char)k53671_f2i_f64_i32(s0)))), ((unsigned char)((!(static_cast<int>(sh10[tid]) || (true < static_cast<long long>(tid)))) && (016553302142 <= ((long)h)))), ((unsigned char)k53671_div_i32((unsigned char)199, (unsigned char)255))}, {static_cast<unsigned char>((((int)s1) * ((unsigned char)0, ((unsigned char)s1)))), static_cast<unsigned char>(((((signed char)h) != gid) || ((signed char)1 <= tid))), (unsigned char)1, static_cast<unsigned char>(k53671_subw_i32(((unsigned char)__syncthreads_count((2147483646 > (-1)))), (-2147483647 - 1)))}, {((unsigned char)k53671_neg_i32(int(__float_as_uint(k53671_fcan(float(h)))))), ((unsigned char)(k53671_f2i_f32_c8(((float)wid)) * 0llu)), ((unsigned char)k53671_mod_u32(((unsigned int)(0x1.0p24f < ((float)gid))), ((unsigned char)(vp13[tid] >> (int(tid) & 31))))), vp13[tid]}};
    k53671_sh12[tid] = k53671_mulc_i32(((int)__ballot_sync(0xffffffffu, ((short)gid))), ((int)((short)(-1) != k53671_f2i_f64_s16(s0))));
    atomicCAS(&atom_i32[0], 3, 1);
    h = k53671_mix(h, (unsigned long long)(0ul));
    __syncthreads();
    __half v17 = __hfma(((__half)k53671_mulw_i32(((int)h), static_cast<int>(s1))), __double2half(static_cast<double>(k53671_t9(017777777777, 28, 1048576))), __hmul(__float2half(1.6777216E7f), __float2half((-15.0f))));
    switch ((((int)k53671_mod_u32(k53671_f2i_f32_i32(0x0.0p0f), __brev(bid))) & 7)) {
    case 3: case 7: {
        float v18 = static_cast<float>(bid);
        break;
    }
    case 2: {
        k53671_S0 a19 = {{__int_as_float(((int)lane)), __uint_as_float(k53671_div_u32(0x2u, ((unsigned int)h)))}, __shfl_sync(0xffffffffu, __dmul_rn(static_cast<double>(tid), ((double)h)), ((static_cast<int>(h), lane)) & 31), ((signed char)lane), 0UL};
        atomicAdd(&atom_f32[0], (float)((((int)((0u != ((short)32767 || (((unsigned char)h) >= ((float)s1)))) || (static_cast<unsigned short>(bid) != __dadd_rd(a19.m1, ((double)bid)))))) & 15) - 8.0f);
        k53671_S0 a20[4] = {{{(-float{}), (0.5f / (3378.3206f + (-93.0f)))}, a19.m1, ((signed char)k53671_M21((unsigned short)65477, k53671_t9((-49), ((int)h), static_cast<int>(lane)))), (((unsigned long)__shfl_down_sync(0xffffffffu, ((unsigned int)h), 2147483647)) ^ (0x0.000002p-126f ? ((unsigned long)lane) : 65535))}, {{((float())), (h ? float(bid) : 0x1.fa05p-18f)}, (__shfl_sync(0xffffffffu, ((double)lane), (((signed char)tid)) & 31) / __longlong_as_double((-9223372036854775806ll))), ((signed char)k53671_t9(__syncthreads_and((0x1U < 0u)), 2147483647, k53671_t9(int(h), int(lane), 2147483647))), ((unsigned long)(((unsigned long long)lane) / 18446744073709551614ULL))}};
        break;
    }
    case 0: {
        __half* p22 = &v17;
        unsigned char* p23 = &k53671_sh12[tid];
        break;
    }
    }
    unsigned long a24[2] = {18446744073709551614UL, ((k53671_f2i_f64_ul64(s0) >= ((long)wid)) ? ((unsigned long)tid) : ((unsigned long)lane))};
    double v25 = (((gid * (-5.0)) - s0) - (((double)wid) * (-s0)));
    h = k53671_mix(h, k53671_dbits(s0));
    h = k53671_mix(h, (unsigned long long)(s1));
    for (int e26 = 0; e26 < 4; e26++) {
        h = k53671_mix(h, (unsigned long long)(a16[e26].x));
        h = k53671_mix(h, (unsigned long long)(a16[e26].y));
        h = k53671_mix(h, (unsigned long long)(a16[e26].z));
        h = k53671_mix(h, (unsigned long long)(a16[e26].w));
    }
    h = k53671_mix(h, (unsigned long long)k53671_fbits(__half2float(v17)));
    for (int e27 = 0; e27 < 2; e27++) {
        h = k53671_mix(h, (unsigned long long)(a24[e27]));
    }
    h = k53671_mix(h, k53671_dbits(v25));
    out_h[gid] = h;
}
