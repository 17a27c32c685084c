package dev.polygpu.device.cpu.ptx;

import java.math.BigDecimal;

/**
 * Floating-point and integer helpers with PTX's semantics where Java's differ: rounding modes other than
 * to-nearest, {@code min}/{@code max} with NaN operands, saturating float-to-integer conversion, CUDA's integer
 * division by zero. Stateless.
 *
 * <p>Directed rounding of a single-precision result: the exact result is carried as an unevaluated sum
 * {@code hi + lo} of doubles (exact for a product of floats, by TwoSum for a sum, and for {@code fma} by
 * {@code Math.fma} plus TwoSum), rounded to nearest, then moved one float step toward the rounding direction
 * when it landed on the wrong side.
 */
final class PtxMath {
    static final int RN = 0;
    static final int RZ = 1;
    static final int RM = 2;
    static final int RP = 3;

    private PtxMath() {
    }

    static int mode(String m) {
        return switch (m) {
            case "rz", "rzi" -> RZ;
            case "rm", "rmi" -> RM;
            case "rp", "rpi" -> RP;
            default -> RN;
        };
    }

    /** {@code hi + lo} (exact) rounded to float in {@code mode}. */
    static float round32(double hi, double lo, int mode) {
        float f = (float) hi;
        if (mode == RN || Float.isNaN(f) || Double.isInfinite(hi)) {
            return f;
        }
        int cmp;
        if ((double) f > hi) {
            cmp = 1;
        } else if ((double) f < hi) {
            cmp = -1;
        } else {
            cmp = lo > 0 ? -1 : lo < 0 ? 1 : 0;
        }
        return adjust32(f, cmp, mode);
    }

    /** Moves {@code f}, which compares {@code cmp} against the exact value, to the neighbour the mode asks for. */
    private static float adjust32(float f, int cmp, int mode) {
        if (cmp == 0) {
            return f;
        }
        return switch (mode) {
            case RM -> cmp > 0 ? Math.nextDown(f) : f;
            case RP -> cmp < 0 ? Math.nextUp(f) : f;
            default -> (f > 0 && cmp > 0) ? Math.nextDown(f) : (f < 0 && cmp < 0) ? Math.nextUp(f) : f;
        };
    }

    private static double adjust64(double f, int cmp, int mode) {
        if (cmp == 0) {
            return f;
        }
        return switch (mode) {
            case RM -> cmp > 0 ? Math.nextDown(f) : f;
            case RP -> cmp < 0 ? Math.nextUp(f) : f;
            default -> (f > 0 && cmp > 0) ? Math.nextDown(f) : (f < 0 && cmp < 0) ? Math.nextUp(f) : f;
        };
    }

    static float add32(float a, float b, int mode) {
        if (mode == RN) {
            return a + b;
        }
        double s = (double) a + (double) b;
        double err = twoSumErr(a, b, s);
        if (s == 0 && err == 0) {
            return (float) exactZero(a, b, mode);
        }
        return round32(s, err, mode);
    }

    static float mul32(float a, float b, int mode) {
        return mode == RN ? a * b : round32((double) a * (double) b, 0.0, mode);
    }

    static float fma32(float a, float b, float c, int mode) {
        if (mode == RN) {
            return Math.fma(a, b, c);
        }
        double p = (double) a * (double) b;
        double s = p + c;
        double err = twoSumErr(p, c, s);
        if (s == 0 && err == 0) {
            return (float) exactZero(p, c, mode);
        }
        return round32(s, err, mode);
    }

    static double add64(double a, double b, int mode) {
        double s = a + b;
        if (mode == RN || Double.isNaN(s)) {
            return s;
        }
        if (Double.isInfinite(s)) {
            return Double.isFinite(a) && Double.isFinite(b) ? overflow(s, mode) : s;
        }
        double e = twoSumErr(a, b, s);
        if (s == 0 && e == 0) {
            return exactZero(a, b, mode);
        }
        return adjust64(s, e > 0 ? -1 : e < 0 ? 1 : 0, mode);
    }

    static double mul64(double a, double b, int mode) {
        double p = a * b;
        if (mode == RN || Double.isNaN(p) || a == 0 || b == 0) {
            return p;
        }
        if (Double.isInfinite(p)) {
            return Double.isFinite(a) && Double.isFinite(b) ? overflow(p, mode) : p;
        }
        double e;
        if (Math.abs(p) >= 0x1p-960) {
            e = Math.fma(a, b, -p);
        } else {
            // the exact error may lie below the smallest subnormal, where fma would round it to zero: scale both
            // factors to [1, 2) and the product with them (all exact), where the error is representable
            e = Math.fma(Math.scalb(a, -exponent(a)), Math.scalb(b, -exponent(b)),
                    -Math.scalb(p, -exponent(a) - exponent(b)));
        }
        return adjust64(p, e > 0 ? -1 : e < 0 ? 1 : 0, mode);
    }

    /** The binary exponent of a finite nonzero value, subnormals included (as if normalized). */
    private static int exponent(double x) {
        return Math.getExponent(x) >= Double.MIN_EXPONENT ? Math.getExponent(x)
                : Math.getExponent(Math.scalb(x, 64)) - 64;
    }

    /**
     * An exact zero sum {@code a + b}: +0, or -0 when rounding toward -infinity; the common sign when both are
     * zeros of one sign (IEEE 754, 6.3), which Java's sum gives.
     */
    private static double exactZero(double a, double b, int mode) {
        if (mode == RM && !(a == 0 && b == 0 && Double.doubleToRawLongBits(a) == 0
                && Double.doubleToRawLongBits(b) == 0)) {
            return -0.0;
        }
        return a + b;
    }

    /** A finite result too large for a double: the largest finite value or infinity, by the direction. */
    private static double overflow(double inf, int mode) {
        boolean away = mode == RP && inf > 0 || mode == RM && inf < 0;
        return away ? inf : Math.copySign(Double.MAX_VALUE, inf);
    }

    /** The rounding error of {@code s = a + b} (Knuth's TwoSum): {@code a + b == s + err} exactly. */
    static double twoSumErr(double a, double b, double s) {
        double bb = s - a;
        return (a - (s - bb)) + (b - bb);
    }

    /** PTX min: the other operand when one is NaN, NaN when both; -0.0 below +0.0. */
    static float min32(float a, float b) {
        if (Float.isNaN(a)) {
            return b;
        }
        return Float.isNaN(b) ? a : Math.min(a, b);
    }

    static float max32(float a, float b) {
        if (Float.isNaN(a)) {
            return b;
        }
        return Float.isNaN(b) ? a : Math.max(a, b);
    }

    static double min64(double a, double b) {
        if (Double.isNaN(a)) {
            return b;
        }
        return Double.isNaN(b) ? a : Math.min(a, b);
    }

    static double max64(double a, double b) {
        if (Double.isNaN(a)) {
            return b;
        }
        return Double.isNaN(b) ? a : Math.max(a, b);
    }

    /** Rounds to an integral value in {@code mode} (the {@code .rni}/{@code .rzi}/{@code .rmi}/{@code .rpi} of cvt). */
    static double roundIntegral(double v, int mode) {
        return switch (mode) {
            case RZ -> v < 0 ? Math.ceil(v) : Math.floor(v);
            case RM -> Math.floor(v);
            case RP -> Math.ceil(v);
            default -> Math.rint(v);
        };
    }

    /**
     * A float converted to an integer of {@code bits} bits ({@code signed} or not) as PTX's cvt does: rounded
     * in {@code mode}, saturated to the type's range, NaN to 0.
     */
    static long toInteger(double v, int mode, int bits, boolean signed) {
        if (Double.isNaN(v)) {
            return 0;
        }
        double r = roundIntegral(v, mode);
        if (signed) {
            long min = bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
            long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
            if (r <= min) {
                return min;
            }
            return r >= max ? max : (long) r;
        }
        if (r <= 0) {
            return 0;
        }
        if (bits == 64) {
            if (r >= 0x1p64) {
                return -1L;
            }
            return r >= 0x1p63 ? (long) (r - 0x1p63) + Long.MIN_VALUE : (long) r;
        }
        long max = (1L << bits) - 1;
        return r >= max ? max : (long) r;
    }

    /** An integer (unsigned when {@code unsigned}) converted to float in {@code mode}. */
    static float intToFloat(long v, boolean unsigned, int mode) {
        float f = unsigned ? unsignedToFloat(v) : (float) v;
        if (mode == RN) {
            return f;
        }
        BigDecimal exact = unsigned ? new BigDecimal(Long.toUnsignedString(v)) : BigDecimal.valueOf(v);
        return adjust32(f, new BigDecimal(f).compareTo(exact), mode);
    }

    static double intToDouble(long v, boolean unsigned, int mode) {
        double d = unsigned ? unsignedToDouble(v) : (double) v;
        if (mode == RN) {
            return d;
        }
        BigDecimal exact = unsigned ? new BigDecimal(Long.toUnsignedString(v)) : BigDecimal.valueOf(v);
        return adjust64(d, new BigDecimal(d).compareTo(exact), mode);
    }

    private static float unsignedToFloat(long v) {
        if (v >= 0) {
            return (float) v;
        }
        // halve keeping the sticky bit, so the one rounding is the correct one
        return (float) ((v >>> 1) | (v & 1)) * 2.0f;
    }

    private static double unsignedToDouble(long v) {
        if (v >= 0) {
            return (double) v;
        }
        return (double) ((v >>> 1) | (v & 1)) * 2.0;
    }

    /** A double rounded to float in {@code mode}. */
    static float doubleToFloat(double d, int mode) {
        float f = (float) d;
        if (mode == RN || Double.isNaN(d) || Double.isInfinite(d)) {
            return f;
        }
        return adjust32(f, Double.compare((double) f, d) == 0 ? 0 : ((double) f > d ? 1 : -1), mode);
    }

    /** Integer division as NVIDIA GPUs do it: a zero divisor gives all ones (-1). */
    static long divSigned(long a, long b) {
        return b == 0 ? -1L : a / b;
    }

    static long divUnsigned(long a, long b) {
        return b == 0 ? -1L : Long.divideUnsigned(a, b);
    }

    static long remSigned(long a, long b) {
        return b == 0 ? -1L : a % b;
    }

    static long remUnsigned(long a, long b) {
        return b == 0 ? -1L : Long.remainderUnsigned(a, b);
    }
}
