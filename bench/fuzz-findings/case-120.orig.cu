struct k120_S0 {
    int m0[3];
    double m1;
    bool m2;
    unsigned int m3;
};
typedef struct {
    long long m0[2];
    double m1;
    uint3 m2;
} k120_S1;
extern __shared__ unsigned int k120_sh6[];
__device__ double k120_dcan(double x) { return x != x ? __longlong_as_double(0x7ff8000000000000ll) : x; }
__device__ bool k120_f2i_f32_b(float x) { return x != 0.0f; }
__device__ unsigned char k120_f2i_f64_u8(double x) {
    double v = x;
    return (v > -1.0 && v < 0x1p8) ? (unsigned char)v : (v != v ? (unsigned char)0 : (v > 0.0 ? (unsigned char)255u : (unsigned char)0));
}
__device__ unsigned long long k120_mix(unsigned long long h, unsigned long long v) {
    h = (h ^ v) * 0x100000001b3ull;
    return h ^ (h >> 29);
}
__device__ int k120_addw_i32(int a, int b) { return (int)((unsigned int)a + (unsigned int)b); }
__device__ short k120_f2i_f64_s16(double x) {
    double v = x;
    return (v > -0x1.0002p15 && v < 0x1p15) ? (short)v : (v != v ? (short)0 : (v > 0.0 ? (short)32767 : (short)-32768));
}
__device__ long k120_mulw_l64(long a, long b) { return (long)((unsigned long)a * (unsigned long)b); }
__device__ unsigned int k120_mod_u32(unsigned int a, unsigned int b) { return (b == 0) ? a : a % b; }
__device__ unsigned int k120_fbits(float x) { return x != x ? 0x7fc00000u : __float_as_uint(x); }
__device__ unsigned long long k120_dbits(double x) { return x != x ? 0x7ff8000000000000ull : (unsigned long long)__double_as_longlong(x); }
__device__ k120_S0 k120_mk2(int prm0, short prm1) {
    k120_S0 r = {{((int)(((int)prm1) || 3U)), (((int)(prm0 & 0lu)) >> (prm0 & 31)), ((int)__double_as_longlong(k120_dcan(__ddiv_rn(26.863815307617188, 5.616871021629777E-7))))}, ((double)prm0), ((bool)(k120_f2i_f32_b((-0.0f)) + (82L & (char)2))), 0u};
    return r;
}
__device__ k120_S1 k120_mk3(unsigned int prm0, double prm1, float prm2) {
    k120_S1 r = {{9223372036854775806ll, __double_as_longlong(k120_dcan((-0.0)))}, prm1, {37U, (36u + k120_f2i_f64_u8(prm1)), 0U}};
    double* p4 = &prm1;
    return r;
}
template <typename T>
__device__ T k120_t5(T a, T b, int k) {
    T r = a;
    T arr[4] = {a, b, b, a};
    for (int i = 0; i < (k & 3); i++) {
        if (arr[i] > r) {
            r = arr[i];
        }
    }
    if (a < b) {
        r = b;
    }
    r = arr[k & 3];
    arr[(k >> 2) & 3] = r;
    r = (r == a) ? b : r;
    return r;
}
extern "C" __global__ void k120_kernel(const int* in0, const int* in1, unsigned long long* out_h, double* math_d, long long* atom_i64, unsigned char s0, long long s1, short s2) {
    const unsigned int tid = threadIdx.x;
    const unsigned int bid = blockIdx.x;
    const unsigned int gid = bid * 128u + tid;
    const unsigned int lane = tid & 31u;
    const unsigned int wid = tid >> 5;
    unsigned long long h = 9887399354991898347ull;
    k120_sh6[tid] = (((char)__popcll(18446744073709551615ULL)) * __shfl_sync(0xffffffffu, wid, ((int)s2)));
    __shared__ long long sh7[128];
    sh7[tid] = 0x0LL;
    h = k120_mix(h, (unsigned long long)(k120_t5(((unsigned char)(s0 / (unsigned char)255)), ((unsigned char)__shfl_up_sync(0xffffffffu, ((int)wid), (in1[(((long long)k120_sh6[tid])) & 63u]) & 31, 16)), (((int)lane) % 1))));
    long long* p8 = &sh7[tid];
    h = k120_mix(h, (unsigned long long)(k120_t5(((unsigned char)h), static_cast<unsigned char>(k120_addw_i32(static_cast<int>(bid), (unsigned char)0)), __shfl_sync(0xffffffffu, ((int)tid), (in0[(0x1ffff) & 63u]) & 31))));
    __syncthreads();
    s1 = ((long long)(!((unsigned char)172 ? s1 : 18446744073709551613llu)));
    signed char a9[3] = {((signed char)__shfl_up_sync(0xffffffffu, static_cast<unsigned long long>(s1), (k120_f2i_f64_s16(static_cast<double>(sh7[tid]))) & 31)), ((signed char)__syncthreads_or(17592186044415LL)), ((signed char)__ballot_sync(0xffffffffu, (static_cast<double>(sh7[tid]) != 0x1.608fbp3)))};
    k120_sh6[tid] = ((unsigned int)(((char)__ballot_sync(0xffffffffu, (((unsigned short)s0) <= (signed char)(-128)))) <= (((((0xffffffffffffffffull > h) || (9223372036854775805ll == ((float)gid))) || in0[(3641330822u) & 63u]) ? gid : tid), ((char)(((bool)k120_sh6[tid]) > true)))));
    __syncthreads();
    h = k120_mix(h, (unsigned long long)(k120_sh6[(((int)(k120_sh6[tid] < static_cast<float>(h)))) & 127u]));
    __syncthreads();
    k120_sh6[tid] = static_cast<unsigned int>((17179869183LL + static_cast<unsigned int>(__double_as_longlong(k120_dcan(nearbyint(((double)s0)))))));
    __syncthreads();
    h = k120_mix(h, (unsigned long long)(k120_sh6[(((int)h)) & 127u]));
    __syncthreads();
    k120_S0 a10 = {{in0[(((unsigned long)bid)) & 63u], ((int)s1), ((int)__shfl_sync(0xffffffffu, ((unsigned int)((int)wid)), (static_cast<long long>(__shfl_down_sync(0xffffffffu, 0ull, (gid) & 31, 32))) & 31, 1))}, __dmul_rn(__shfl_down_sync(0xffffffffu, static_cast<double>(wid), (((int)wid)) & 31), __shfl_sync(0xffffffffu, (-84.875), (bid) & 31, 16)), ((bool)__shfl_sync(0xffffffffu, ((long long)__shfl_xor_sync(0xffffffffu, ((unsigned int)h), (2147483647) & 31)), ((((-0x1.4p6f) == ((unsigned int)h)) ? (signed char)127 : 1lu)) & 31)), __ballot_sync(0xffffffffu, ((long)bid))};
    k120_sh6[tid] = __ballot_sync(0xffffffffu, __shfl_sync(0xffffffffu, ((int)s1), (((int)s1)) & 31));
    __syncthreads();
    h = k120_mix(h, (unsigned long long)(k120_sh6[(((int)k120_t5<unsigned long long>(static_cast<unsigned long long>(s2), ((unsigned long long)bid), ((int)tid)))) & 127u]));
    __syncthreads();
    k120_sh6[tid] = lane;
    __syncthreads();
    h = k120_mix(h, (unsigned long long)(k120_sh6[(__umul24((-11), ((signed char)s0))) & 127u]));
    __syncthreads();
    {
        int w11 = 0;
        while (++w11 <= 5) {
            a9[(unsigned int)(static_cast<long>(__shfl_down_sync(0xffffffffu, ((int)gid), (((unsigned int)s0)) & 31))) % 3u] = k120_mulw_l64(a9[(unsigned int)(static_cast<long>(__shfl_down_sync(0xffffffffu, ((int)gid), (((unsigned int)s0)) & 31))) % 3u], (-9223372036854775807l));
            sh7[tid] = ((long long)__rhadd((-1), ((long long)static_cast<bool>((true * true)))));
            __syncthreads();
            h = k120_mix(h, (unsigned long long)(sh7[(((int)h)) & 127u]));
            __syncthreads();
            for (short i12 = 0; i12 < 1; ++i12) {
                float v13 = rint(__shfl_xor_sync(0xffffffffu, ((float)bid), ((unsigned int)(!(!(-9223372036854775807l - 1))))));
                h = k120_mix(h, (unsigned long long)k120_fbits(ldexpf(0x1.fffffep127f, (((int)k120_mod_u32(((int)__ballot_sync(0xffffffffu, 1)), ((signed char)1 * k120_sh6[tid]))) & 255) - 128)));
                k120_sh6[tid] = __ballot_sync(0xffffffffu, ((short)(((long long)lane) & static_cast<unsigned int>(h))));
                __syncthreads();
                h = k120_mix(h, (unsigned long long)(k120_sh6[(__shfl_down_sync(0xffffffffu, bid, (1u) & 31)) & 127u]));
                __syncthreads();
                math_d[gid * 4u + 1u] = k120_dcan(hypot(a10.m1, ((((float)w11) != v13) ? static_cast<double>(s2) : (9.749820455908775E-4 + ((double)w11)))));
            }
        }
    }
    unsigned int* p14 = &k120_sh6[tid];
    if (__shfl_sync(0xffffffffu, 83ll, (((int)(*p14))) & 31, 4)) {
        float v15 = __fdiv_rn((((int)gid) ? ((float)in0[(((int)tid)) & 63u]) : ((float)((unsigned long)tid))), (((unsigned long)k120_t5<unsigned long long>(h, 18446744073709551568llu, (-69))) * ((float)k120_t5<unsigned long long>(0ull, 0ull, 623654143))));
        atomicMin(&atom_i64[0], ((!(!1U)) ? ((signed char)((signed char)(-128) | ((long)k120_t5<unsigned long long>(((unsigned long long)gid), 1ull, in1[(((short)(*p14))) & 63u])))) : (signed char)0));
        (*p8) = ((long long)((fmaf(1.0f, 79.0f, ((float)lane)) - ((short)bid)) <= 0x0));
    } else {
    }
    h = k120_mix(h, (unsigned long long)(s0));
    h = k120_mix(h, (unsigned long long)(s1));
    h = k120_mix(h, (unsigned long long)(s2));
    for (int e16 = 0; e16 < 3; e16++) {
        h = k120_mix(h, (unsigned long long)(a9[e16]));
    }
    h = k120_mix(h, (unsigned long long)(a10.m0[0]));
    h = k120_mix(h, (unsigned long long)(a10.m0[1]));
    h = k120_mix(h, (unsigned long long)(a10.m0[2]));
    h = k120_mix(h, k120_dbits(a10.m1));
    h = k120_mix(h, (unsigned long long)(a10.m2));
    h = k120_mix(h, (unsigned long long)(a10.m3));
    out_h[gid] = h;
}
