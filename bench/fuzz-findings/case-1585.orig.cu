struct k1585_S0 {
    int m0;
    float3 m1;
    unsigned char m2;
    bool m3;
};
typedef struct {
    double1 m0;
    float m1[2];
} k1585_S1;
__constant__ char k1585_ct2[4] = {(char)32, (char)1, (char)(-14), (char)(-1)};
extern __shared__ bool k1585_sh5[];
__device__ bool k1585_f2i_f32_b(float x) { return x != 0.0f; }
__device__ int k1585_addw_i32(int a, int b) { return (int)((unsigned int)a + (unsigned int)b); }
__device__ int k1585_f2i_f64_i32(double x) {
    double v = x;
    return (v > -0x1.00000002p31 && v < 0x1p31) ? (int)v : (v != v ? (int)0 : (v > 0.0 ? (int)2147483647 : (int)-2147483648));
}
__device__ unsigned long k1585_mod_ul64(unsigned long a, unsigned long b) { return (b == 0) ? a : a % b; }
__device__ unsigned long long k1585_mix(unsigned long long h, unsigned long long v) {
    h = (h ^ v) * 0x100000001b3ull;
    return h ^ (h >> 29);
}
__device__ unsigned long long k1585_dbits(double x) { return x != x ? 0x7ff8000000000000ull : (unsigned long long)__double_as_longlong(x); }
__device__ int k1585_f2i_f32_i32(float x) {
    double v = x;
    return (v > -0x1.00000002p31 && v < 0x1p31) ? (int)v : (v != v ? (int)0 : (v > 0.0 ? (int)2147483647 : (int)-2147483648));
}
__device__ double k1585_dcan(double x) { return x != x ? __longlong_as_double(0x7ff8000000000000ll) : x; }
__device__ float k1585_fcan(float x) { return x != x ? __int_as_float(0x7fc00000) : x; }
__device__ k1585_S1 k1585_mk3(bool prm0, long prm1) {
    k1585_S1 r = {{0.5}, {__int_as_float(1), ((1.0f + static_cast<float>(prm0)) / (0 ? (-2993.2744f) : 1.1754944E-38f))}};
    r.m0.x = (-0.0);
    return r;
}
template <typename T>
__device__ T k1585_t4(T a, T b, int k) {
    T r = a;
    T arr[4] = {a, b, b, a};
    arr[(k >> 2) & 3] = r;
    arr[(k >> 2) & 3] = r;
    arr[(k >> 2) & 3] = r;
    for (int i = 0; i < (k & 3); i++) {
        if (arr[i] > r) {
            r = arr[i];
        }
    }
    arr[(k >> 2) & 3] = r;
    return r;
}
extern "C" __global__ void k1585_kernel(const long long* in0, const unsigned int* in1, unsigned long long* out_h, double* out_d, short* scr, unsigned long long* atom_u64) {
    const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned int bid = blockIdx.x;
    const unsigned int gid = bid * 96u + tid;
    const unsigned int lane = tid & 31u;
    const unsigned int wid = tid >> 5;
    unsigned long long h = 13090708349664579725ull;
    k1585_sh5[tid] = k1585_f2i_f32_b((((float)k1585_ct2[(wid) & 3u]) * in1[(((signed char)lane)) & 63u]));
    int a6[8] = {84, k1585_addw_i32(static_cast<int>((0L ^ 1073741824)), int(lane)), ((int)lane), ((int)(!((0x1.0p0f <= static_cast<int>(gid)) || (1.7976931348623157E308 >= ((double)k1585_sh5[tid]))))), ((int())), int(umax(((unsigned int)k1585_t4<int>(1, static_cast<int>(lane), 0x7ffffffd)), in1[(54u) & 63u])), int(gid), k1585_f2i_f64_i32(k1585_t4<double>(__shfl_sync(0xffffffffu, static_cast<double>(lane), (0U) & 31), double(tid), ((int)((unsigned short)0 >= ((unsigned short)lane)))))};
    short v7 = short(__clzll(short(k1585_mod_ul64(0ul, ((unsigned short)wid)))));
    double v8 = (((double)__fmul_rn(1.0f, (-71.625f))) * ((double)gid));
    h = k1585_mix(h, k1585_dbits(k1585_t4<double>(v8, 0.5, ((((signed char)9 <= (signed char)43) && scr[gid * 8u + ((4294967295u) & 7u)]) ? ((unsigned char)in0[(((bool)h)) & 127u]) : 0x800))));
    int v9 = k1585_f2i_f64_i32(v8);
    __syncwarp();
    for (unsigned int i10 = 0; i10 < (a6[(wid) & 7u] & 7); i10 = i10 + 1) {
        int* p11 = &v9;
        h = k1585_mix(h, (unsigned long long)(k1585_f2i_f64_i32(k1585_t4<double>(v8, 0x1.000001p24, k1585_f2i_f32_i32(0x1.0p0f)))));
        if ((((static_cast<int>(tid) > static_cast<long>((*p11))) ? 0x1.348302p10f : float(v9)) >= float(k1585_t4<int>(v9, int(v7), 117410171)))) {
            continue;
        }
        (*p11) = (((unsigned long)((~gid) | k1585_t4<int>(v9, a6[(v9) & 7u], v9))), ((int)(!(((unsigned long long)gid) <= ((unsigned long long)wid)))));
        out_d[gid * 4u + 3u] = k1585_dcan((float(k1585_addw_i32(((int)bid), (*p11))) + ((((long)gid) * 1.7976931348623157E308) * (-(-0.0)))));
    }
    out_d[gid * 4u + 1u] = k1585_dcan(fabs(((double)static_cast<int>(h))));
    h = k1585_mix(h, (unsigned long long)(k1585_t4<int>(((((int)in0[(static_cast<int>(h)) & 127u]) & 15) + (a6[(v9) & 7u] & 8191)), ((int)(wid * ((int)in1[(tid) & 63u]))), ((int)(v9 < static_cast<int>(gid))))));
    out_d[gid * 4u + 1u] = k1585_dcan(double(tid));
    for (unsigned int i12 = 0; i12 < 1U; i12 += 2) {
        if (static_cast<double>(((unsigned short)tid))) {
            h = k1585_mix(h, (unsigned long long)(((unsigned int)(__byte_perm(((unsigned long long)((int)bid)), ((long long)(~((int)lane))), ((int)__funnelshift_l(v9, wid, static_cast<int>(h)))) > k1585_f2i_f32_b((static_cast<signed char>(lane), ((float)gid)))))));
            if (1.4E-45f) {
                continue;
            }
            short* p13 = (scr + gid * 8u);
            h = k1585_mix(h, k1585_dbits((__fdiv_rn(static_cast<float>(v7), ((float)v9)) ? (((float)v7), (static_cast<unsigned char>(k1585_sh5[tid]) + 1.6777217E7)) : ((double)((int)__float_as_uint(k1585_fcan(((float)i12))))))));
        }
        h = k1585_mix(h, (unsigned long long)(((((double)wid) && ((unsigned char)in1[((-2147483646)) & 63u])) ? k1585_f2i_f64_i32(k1585_t4<double>(((((signed char)v9) > ((signed char)v7)) ? v8 : ((double)gid)), sqrt(2280.858516546926), (((int)i12) & v9))) : v9)));
        h = k1585_mix(h, (unsigned long long)(k1585_t4<int>(((int)(!(2147483647 == ((int)i12)))), ((int)__double_as_longlong(k1585_dcan((-917.3664485778081)))), k1585_f2i_f64_i32(k1585_t4<double>(__int2double_rn(255), (-(-4031.5100970874064)), v9)))));
        atomicCAS(&atom_u64[0], 0xffffffffffffffffULL, 0x2ULL);
    }
    for (int e14 = 0; e14 < 8; e14++) {
        h = k1585_mix(h, (unsigned long long)(a6[e14]));
    }
    h = k1585_mix(h, (unsigned long long)(v7));
    h = k1585_mix(h, k1585_dbits(v8));
    h = k1585_mix(h, (unsigned long long)(v9));
    out_h[gid] = h;
}
