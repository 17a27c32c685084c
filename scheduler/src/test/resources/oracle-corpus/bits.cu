// Integer bit manipulation of the kind hashing, compression and bitmap code uses: population count, leading
// zeros, first set bit, bit reversal, byte permutation, funnel shifts, a MurmurHash3 finalizer, multiply-high,
// 24-bit multiplies, sums of absolute differences, halving adds, byte dot products, and C's truncating division
// and remainder of negative numbers.

__device__ __forceinline__ unsigned int bits_fmix32(unsigned int h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

extern "C" __global__ void bit_tricks(const unsigned int* in, const int* signedIn, unsigned int* out,
                                      long long* wide, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned int x = in[i];
    unsigned int y = in[(i + 1) % n];
    int s = signedIn[i];
    int d = signedIn[(i + 7) % n];
    if (d == 0) {
        d = 3;
    }
    unsigned int* o = out + 24 * i;
    o[0] = __popc(x);
    o[1] = __clz(x);
    o[2] = __ffs(x);
    o[3] = __brev(x);
    o[4] = __byte_perm(x, y, 0x5140);
    o[5] = __funnelshift_l(x, y, s & 31);
    o[6] = __funnelshift_r(x, y, s & 31);
    o[7] = bits_fmix32(x ^ (unsigned int) s);
    o[8] = __umulhi(x, y);
    o[9] = (unsigned int) (s / d);
    o[10] = (unsigned int) (s % d);
    o[11] = (x >> (s & 31)) | (x << ((32 - (s & 31)) & 31));
    o[12] = __mul24((int) x, (int) y);
    o[13] = __umul24(x, y);
    o[14] = __mulhi((int) x, s);
    o[15] = __sad((int) x, s, y);
    o[16] = __usad(x, y, (unsigned int) s);
    o[17] = __rhadd((int) x, (int) y);
    o[18] = __uhadd(x, y);
    o[19] = __urhadd(x, y);
    o[20] = __dp4a((int) x, (int) y, s);
    o[21] = __dp4a(x, y, (unsigned int) d);
    o[22] = __funnelshift_lc(x, y, (unsigned int) (s & 63));
    o[23] = __funnelshift_rc(x, y, (unsigned int) (d & 63));
    wide[3 * i + 0] = __mul64hi((long long) s * 977, (long long) x * 1000003);
    wide[3 * i + 1] = __popcll(((unsigned long long) x << 32) | y) + __clzll((long long) s);
    wide[3 * i + 2] = ((long long) s * (long long) d) / 7 - ((long long) x % 13)
            + (long long) (__umul64hi((unsigned long long) x * 0x9e3779b97f4a7c15ULL, __brevll(y)) >> 3);
}
