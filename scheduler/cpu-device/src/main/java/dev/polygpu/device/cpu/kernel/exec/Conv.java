package dev.polygpu.device.cpu.kernel.exec;

/**
 * Conversions and shifts whose CUDA meaning differs from the JVM instruction of the same name. Shifts follow
 * PTX: a count of the register width or more (or negative, read as unsigned) gives 0, or the sign for an
 * arithmetic right shift, where the JVM would take the count modulo the width. Float-to-unsigned
 * conversions saturate as {@code cvt.rzi.u32.f32} does; NaN converts to 0.
 */
public final class Conv {
    private Conv() {
    }

    public static int shl(int x, int n) {
        return (n & ~31) != 0 ? 0 : x << n;
    }

    public static int sar(int x, int n) {
        return (n & ~31) != 0 ? x >> 31 : x >> n;
    }

    public static int shr(int x, int n) {
        return (n & ~31) != 0 ? 0 : x >>> n;
    }

    public static long shlJ(long x, int n) {
        return (n & ~63) != 0 ? 0 : x << n;
    }

    public static long sarJ(long x, int n) {
        return (n & ~63) != 0 ? x >> 63 : x >> n;
    }

    public static long shrJ(long x, int n) {
        return (n & ~63) != 0 ? 0 : x >>> n;
    }

    /** A 64-bit shift count as an int that the shift helpers read as "too large" when it is. */
    public static int shiftCount(long n) {
        return n < 0 || n > 255 ? 255 : (int) n;
    }

    public static float ulongToFloat(long x) {
        if (x >= 0) {
            return (float) x;
        }
        // Halve with the lost bit kept sticky so that rounding to float stays correct, then double.
        return (float) ((x >>> 1) | (x & 1)) * 2.0f;
    }

    public static double ulongToDouble(long x) {
        if (x >= 0) {
            return (double) x;
        }
        return (double) ((x >>> 1) | (x & 1)) * 2.0;
    }

    public static int f2u(float f) {
        return d2u(f);
    }

    public static int d2u(double d) {
        if (!(d > 0)) {
            return 0;
        }
        return d >= 4294967295.0 ? -1 : (int) (long) d;
    }

    public static long f2ul(float f) {
        return d2ul(f);
    }

    public static long d2ul(double d) {
        if (!(d > 0)) {
            return 0;
        }
        if (d >= 18446744073709551615.0) {
            return -1L;
        }
        if (d < 9223372036854775808.0) {
            return (long) d;
        }
        return (long) (d - 9223372036854775808.0) ^ Long.MIN_VALUE;
    }

    public static int floatBits(float f) {
        return Float.floatToRawIntBits(f);
    }

    public static float intBitsFloat(int i) {
        return Float.intBitsToFloat(i);
    }

    public static long doubleBits(double d) {
        return Double.doubleToRawLongBits(d);
    }

    public static double longBitsDouble(long l) {
        return Double.longBitsToDouble(l);
    }
}
