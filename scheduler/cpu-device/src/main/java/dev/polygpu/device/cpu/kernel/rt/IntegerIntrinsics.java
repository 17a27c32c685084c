package dev.polygpu.device.cpu.kernel.rt;

/**
 * CUDA's integer intrinsics and the integer overloads of its math library: {@code min}, {@code max} and
 * {@code abs} on integers, bit counts and bit reversal, high halves of products, 24-bit
 * multiplication, byte permutation, funnel shifts, sums of absolute differences, halving adds and the byte and
 * half-word dot products, as the CUDA Math API defines them (and as the PTX instructions nvcc lowers them to,
 * {@code mul.hi}, {@code mul24.lo}, {@code prmt}, {@code shf}, {@code sad}, {@code dp4a}, {@code dp2a}, compute).
 * Unsigned values travel in the signed Java type of their width. The generated code calls these by name.
 *
 * <p>Stateless and thread-safe.
 */
public final class IntegerIntrinsics {
    private static final long LOW32 = 0xFFFF_FFFFL;

    private IntegerIntrinsics() {
    }

    /** {@code __mulhi}: bits 63..32 of the signed 64-bit product. */
    public static int mulhi(int x, int y) {
        return (int) (((long) x * y) >> 32);
    }

    /** {@code __umulhi}: bits 63..32 of the unsigned 64-bit product. */
    public static int umulhi(int x, int y) {
        return (int) (((x & LOW32) * (y & LOW32)) >>> 32);
    }

    /** {@code __mul64hi}: bits 127..64 of the signed 128-bit product. */
    public static long mul64hi(long x, long y) {
        return Math.multiplyHigh(x, y);
    }

    /** {@code __umul64hi}: bits 127..64 of the unsigned 128-bit product. */
    public static long umul64hi(long x, long y) {
        return Math.unsignedMultiplyHigh(x, y);
    }

    /** {@code __mul24}: the low 32 bits of the product of the low 24 bits of x and y, as signed 24-bit numbers. */
    public static int mul24(int x, int y) {
        return ((x << 8) >> 8) * ((y << 8) >> 8);
    }

    /** {@code __umul24}: the low 32 bits of the product of the low 24 bits of x and y. */
    public static int umul24(int x, int y) {
        return (x & 0xFF_FFFF) * (y & 0xFF_FFFF);
    }

    /**
     * {@code __byte_perm(x, y, s)}: byte n of the result is the byte of the eight bytes y:x (x's are 0 to 3) that
     * the low three bits of nibble n of s select.
     */
    public static int bytePerm(int x, int y, int s) {
        long bytes = (x & LOW32) | ((y & LOW32) << 32);
        int out = 0;
        for (int n = 0; n < 4; n++) {
            int sel = (s >>> (4 * n)) & 7;
            out |= (int) ((bytes >>> (8 * sel)) & 0xFF) << (8 * n);
        }
        return out;
    }

    /** {@code __funnelshift_l(lo, hi, shift)}: the upper word of hi:lo shifted left by shift mod 32. */
    public static int funnelshiftL(int lo, int hi, int shift) {
        return funnelLeft(lo, hi, shift & 31);
    }

    /** {@code __funnelshift_lc}: as {@link #funnelshiftL} with the shift capped at 32 (unsigned). */
    public static int funnelshiftLc(int lo, int hi, int shift) {
        return funnelLeft(lo, hi, (int) Math.min(shift & LOW32, 32));
    }

    /** {@code __funnelshift_r(lo, hi, shift)}: the lower word of hi:lo shifted right by shift mod 32. */
    public static int funnelshiftR(int lo, int hi, int shift) {
        return funnelRight(lo, hi, shift & 31);
    }

    /** {@code __funnelshift_rc}: as {@link #funnelshiftR} with the shift capped at 32 (unsigned). */
    public static int funnelshiftRc(int lo, int hi, int shift) {
        return funnelRight(lo, hi, (int) Math.min(shift & LOW32, 32));
    }

    private static int funnelLeft(int lo, int hi, int n) {
        long pair = ((long) hi << 32) | (lo & LOW32);
        return (int) ((pair << n) >>> 32);
    }

    private static int funnelRight(int lo, int hi, int n) {
        long pair = ((long) hi << 32) | (lo & LOW32);
        return (int) (pair >>> n);
    }

    /** {@code __sad(x, y, z)}: |x - y| + z, x and y signed, in 32-bit unsigned arithmetic. */
    public static int sad(int x, int y, int z) {
        return (x < y ? y - x : x - y) + z;
    }

    /** {@code __usad(x, y, z)}: |x - y| + z, all unsigned. */
    public static int usad(int x, int y, int z) {
        return (Integer.compareUnsigned(x, y) < 0 ? y - x : x - y) + z;
    }

    /** {@code __rhadd}: (x + y + 1) / 2 rounded down, without overflow. */
    public static int rhadd(int x, int y) {
        return (int) (((long) x + y + 1) >> 1);
    }

    /** {@code __uhadd}: (x + y) / 2 of unsigned values, without overflow. */
    public static int uhadd(int x, int y) {
        return (int) (((x & LOW32) + (y & LOW32)) >>> 1);
    }

    /** {@code __urhadd}: (x + y + 1) / 2 of unsigned values, without overflow. */
    public static int urhadd(int x, int y) {
        return (int) (((x & LOW32) + (y & LOW32) + 1) >>> 1);
    }

    /** {@code __dp4a} of ints: c plus the sum of the products of the four signed bytes of a and of b. */
    public static int dp4a(int a, int b, int c) {
        int sum = c;
        for (int i = 0; i < 4; i++) {
            sum += (byte) (a >>> (8 * i)) * (byte) (b >>> (8 * i));
        }
        return sum;
    }

    /** {@code __dp4a} of unsigned ints: as {@link #dp4a} with unsigned bytes. */
    public static int udp4a(int a, int b, int c) {
        int sum = c;
        for (int i = 0; i < 4; i++) {
            sum += ((a >>> (8 * i)) & 0xFF) * ((b >>> (8 * i)) & 0xFF);
        }
        return sum;
    }

    /** {@code __dp2a_lo}/{@code __dp2a_hi} of ints: c plus the two signed half-words of a times bytes of b. */
    private static int dp2a(int a, int b, int c, boolean hi) {
        int first = hi ? 2 : 0;
        return c + (short) a * (byte) (b >>> (8 * first)) + (short) (a >>> 16) * (byte) (b >>> (8 * first + 8));
    }

    /** {@code __dp2a_lo}/{@code __dp2a_hi} of unsigned ints. */
    private static int udp2a(int a, int b, int c, boolean hi) {
        int first = hi ? 2 : 0;
        return c + (a & 0xFFFF) * ((b >>> (8 * first)) & 0xFF) + (a >>> 16) * ((b >>> (8 * first + 8)) & 0xFF);
    }

    /** {@code __dp2a_lo} of ints: bytes 0 and 1 of b. */
    public static int dp2aLo(int a, int b, int c) {
        return dp2a(a, b, c, false);
    }

    /** {@code __dp2a_hi} of ints: bytes 2 and 3 of b. */
    public static int dp2aHi(int a, int b, int c) {
        return dp2a(a, b, c, true);
    }

    /** {@code __dp2a_lo} of unsigned ints. */
    public static int udp2aLo(int a, int b, int c) {
        return udp2a(a, b, c, false);
    }

    /** {@code __dp2a_hi} of unsigned ints. */
    public static int udp2aHi(int a, int b, int c) {
        return udp2a(a, b, c, true);
    }

    // ---- integer min / max / abs (CUDA's overloaded min, max, abs) ----

    public static int min(int x, int y) {
        return Math.min(x, y);
    }

    public static int max(int x, int y) {
        return Math.max(x, y);
    }

    /** Minimum of two unsigned 32-bit values. */
    public static int umin(int x, int y) {
        return Integer.compareUnsigned(x, y) <= 0 ? x : y;
    }

    /** Maximum of two unsigned 32-bit values. */
    public static int umax(int x, int y) {
        return Integer.compareUnsigned(x, y) >= 0 ? x : y;
    }

    public static long min(long x, long y) {
        return Math.min(x, y);
    }

    public static long max(long x, long y) {
        return Math.max(x, y);
    }

    /** Minimum of two unsigned 64-bit values. */
    public static long umin(long x, long y) {
        return Long.compareUnsigned(x, y) <= 0 ? x : y;
    }

    /** Maximum of two unsigned 64-bit values. */
    public static long umax(long x, long y) {
        return Long.compareUnsigned(x, y) >= 0 ? x : y;
    }

    /** Two's-complement absolute value: abs(INT_MIN) = INT_MIN, as on the GPU. */
    public static int abs(int x) {
        return Math.abs(x);
    }

    public static long abs(long x) {
        return Math.abs(x);
    }

    // ---- bit intrinsics ----

    /** __popc: number of set bits. */
    public static int popc(int x) {
        return Integer.bitCount(x);
    }

    /** __popcll. */
    public static int popcll(long x) {
        return Long.bitCount(x);
    }

    /** __ffs: 1-based position of the least significant set bit, 0 if none. */
    public static int ffs(int x) {
        return x == 0 ? 0 : Integer.numberOfTrailingZeros(x) + 1;
    }

    /** __ffsll. */
    public static int ffsll(long x) {
        return x == 0 ? 0 : Long.numberOfTrailingZeros(x) + 1;
    }

    /** __clz: leading zero bits, 32 for 0. */
    public static int clz(int x) {
        return Integer.numberOfLeadingZeros(x);
    }

    /** __clzll: leading zero bits, 64 for 0. */
    public static int clzll(long x) {
        return Long.numberOfLeadingZeros(x);
    }

    /** __brev: bit reversal. */
    public static int brev(int x) {
        return Integer.reverse(x);
    }

    /** __brevll: 64-bit bit reversal. */
    public static long brevll(long x) {
        return Long.reverse(x);
    }
}
