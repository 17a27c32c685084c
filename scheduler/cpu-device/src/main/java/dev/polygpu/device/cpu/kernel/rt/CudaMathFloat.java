package dev.polygpu.device.cpu.kernel.rt;

import java.lang.foreign.MemorySegment;

/**
 * CUDA's single-precision device math library ({@code sinf}, {@code expf}, … and the {@code float} overloads of
 * C++), called by the JVM code that the CPU kernel engine generates for {@code float} operands (the code
 * generator emits {@code invokestatic} to these exact names and descriptors). Each function computes in double
 * through {@link CudaMath} (whose notes on semantics apply) and rounds once to float, so it is within 1 ulp of
 * the correctly rounded result (usually exact); CUDA's own single-precision functions allow 1 to 4 ulp.
 *
 * <p>Stateless and thread-safe.
 */
public final class CudaMathFloat {
    private CudaMathFloat() {
    }
    // ---- roots, exponentials, logarithms ----

    public static float sqrt(float x) {
        return (float) Math.sqrt(x);
    }

    /** 1 / sqrt(x): ±inf at ±0 (as CUDA's rsqrt), +0 at +inf, NaN below zero. */
    public static float rsqrt(float x) {
        return (float) (1.0 / Math.sqrt(x));
    }

    public static float cbrt(float x) {
        return (float) Math.cbrt(x);
    }

    public static float exp(float x) {
        return (float) Math.exp(x);
    }

    public static float exp2(float x) {
        return (float) Math.pow(2.0, x);
    }

    public static float exp10(float x) {
        return (float) Math.pow(10.0, x);
    }

    public static float expm1(float x) {
        return (float) Math.expm1(x);
    }

    public static float log(float x) {
        return (float) Math.log(x);
    }

    public static float log2(float x) {
        return (float) CudaMath.log2((double) x);
    }

    public static float log10(float x) {
        return (float) Math.log10(x);
    }

    public static float log1p(float x) {
        return (float) Math.log1p(x);
    }

    /** C99 pow: like Math.pow except pow(1, y) = 1 for every y (NaN included) and pow(-1, ±inf) = 1. */
    public static float pow(float x, float y) {
        return (float) CudaMath.pow((double) x, y);
    }

    // ---- trigonometric and hyperbolic ----

    public static float sin(float x) {
        return (float) Math.sin(x);
    }

    public static float cos(float x) {
        return (float) Math.cos(x);
    }

    public static float tan(float x) {
        return (float) Math.tan(x);
    }

    public static float asin(float x) {
        return (float) Math.asin(x);
    }

    public static float acos(float x) {
        return (float) Math.acos(x);
    }

    public static float atan(float x) {
        return (float) Math.atan(x);
    }

    public static float atan2(float y, float x) {
        return (float) Math.atan2(y, x);
    }

    public static float sinh(float x) {
        return (float) Math.sinh(x);
    }

    public static float cosh(float x) {
        return (float) Math.cosh(x);
    }

    public static float tanh(float x) {
        return (float) Math.tanh(x);
    }

    public static float asinh(float x) {
        return (float) SpecialFunctions.asinh(x);
    }

    public static float acosh(float x) {
        return (float) SpecialFunctions.acosh(x);
    }

    public static float atanh(float x) {
        return (float) SpecialFunctions.atanh(x);
    }

    public static float sinpi(float x) {
        return (float) SpecialFunctions.sinpi(x);
    }

    public static float cospi(float x) {
        return (float) SpecialFunctions.cospi(x);
    }

    // ---- error function ----

    public static float erf(float x) {
        return (float) ErrorFunction.erf(x);
    }

    public static float erfc(float x) {
        return (float) ErrorFunction.erfc(x);
    }

    public static float erfcx(float x) {
        return (float) ErrorFunction.erfcx(x);
    }

    public static float erfinv(float x) {
        return (float) SpecialFunctions.erfinv(x);
    }

    public static float erfcinv(float x) {
        return (float) SpecialFunctions.erfcinv(x);
    }

    public static float normcdf(float x) {
        return (float) CudaMath.normcdf((double) x);
    }

    public static float normcdfinv(float x) {
        return (float) CudaMath.normcdfinv((double) x);
    }

    // ---- gamma ----

    public static float tgamma(float x) {
        return (float) SpecialFunctions.tgamma(x);
    }

    public static float lgamma(float x) {
        return (float) SpecialFunctions.lgamma(x);
    }

    // ---- Bessel functions ----

    public static float j0(float x) {
        return (float) BesselFunctions.j0(x);
    }

    public static float j1(float x) {
        return (float) BesselFunctions.j1(x);
    }

    public static float jn(int n, float x) {
        return (float) BesselFunctions.jn(n, x);
    }

    public static float y0(float x) {
        return (float) BesselFunctions.y0(x);
    }

    public static float y1(float x) {
        return (float) BesselFunctions.y1(x);
    }

    public static float yn(int n, float x) {
        return (float) BesselFunctions.yn(n, x);
    }

    public static float cyl_bessel_i0(float x) {
        return (float) BesselFunctions.i0(x);
    }

    public static float cyl_bessel_i1(float x) {
        return (float) BesselFunctions.i1(x);
    }

    // ---- rounding and remainder ----

    public static float fabs(float x) {
        return Math.abs(x);
    }

    public static float floor(float x) {
        return (float) Math.floor(x);
    }

    public static float ceil(float x) {
        return (float) Math.ceil(x);
    }

    /** Nearest integer, halfway cases away from zero (round(-2.5) = -3); keeps the sign of zero. */
    public static float round(float x) {
        return (float) CudaMath.round((double) x);
    }

    /** Round toward zero; trunc(-0.5) = -0.0. */
    public static float trunc(float x) {
        return (float) CudaMath.trunc((double) x);
    }

    /** Nearest integer, halfway cases to even (the default rounding mode). */
    public static float rint(float x) {
        return (float) Math.rint(x);
    }

    /**
     * {@code lrint}, {@code llrint}: x rounded to nearest (ties to even) as a 64-bit integer. Out of range it
     * saturates and NaN gives 0, as the GPU's conversion instruction does (C leaves both unspecified).
     */
    public static long lrint(float x) {
        return (long) Math.rint(x);
    }

    /** {@code lround}, {@code llround}: x rounded to nearest, ties away from zero, as a 64-bit integer (saturating). */
    public static long lround(float x) {
        return (long) CudaMath.round((double) x);
    }

    /** C fmod: x - n y with n = trunc(x / y), exact, with the sign of x; Java's % on floating types is exactly this. */
    public static float fmod(float x, float y) {
        return x % y;
    }

    /** IEEE remainder: x - n y with n = x / y rounded to nearest, ties to even; exact. NaN for y = 0 or x = ±inf. */
    public static float remainder(float x, float y) {
        return (float) Math.IEEEremainder(x, y);
    }

    /**
     * What {@code remquo(x, y, &q)} stores in q: the integral quotient n of {@link #remainder} (x/y rounded to
     * nearest, ties to even), its magnitude reduced modulo 2^31 and its sign that of x/y (C99 asks for at least
     * the 3 low bits; this keeps 31, so it is exact whenever |n| &lt; 2^31). 0 where the remainder is NaN, y is
     * infinite or x is zero.
     */
    public static int remquoQuotient(float x, float y) {
        return CudaMath.remquoQuotient((double) x, y); // floats are doubles, and the quotient is the same
    }

    /** Positive difference: x - y if x &gt; y, else +0; NaN if either is NaN. */
    public static float fdim(float x, float y) {
        return x > y ? x - y : x <= y ? 0f : Float.NaN;
    }

    /** The fractional part of x with x's sign (±0 for ±inf); {@code modf} stores {@link #trunc} through its pointer. */
    public static float modf(float x) {
        return Float.isInfinite(x) ? Math.copySign(0f, x) : Math.copySign(x - trunc(x), x);
    }

    // ---- exponent manipulation ----

    /** x 2^n, rounded once. */
    public static float ldexp(float x, int n) {
        return Math.scalb(x, n);
    }

    /** Same as {@link #ldexp(float, int)} (the radix is 2). */
    public static float scalbn(float x, int n) {
        return Math.scalb(x, n);
    }

    /** {@code scalbln(x, n)}: x 2^n with a long n (any n beyond int's range over- or underflows). */
    public static float scalbln(float x, long n) {
        return Math.scalb(x, CudaMath.clampToInt(n));
    }

    /** The next representable value after x in the direction of y; y itself if they are equal, NaN if either is. */
    public static float nextafter(float x, float y) {
        return Math.nextAfter(x, y);
    }

    /** The exponent of x as a floating value: -inf at ±0, +inf at ±inf, NaN for NaN. */
    public static float logb(float x) {
        return (float) CudaMath.logb((double) x); // every float, subnormal ones too, is normal as a double
    }

    /** The exponent of x as an int: INT_MIN at ±0 and NaN, INT_MAX at ±inf (CUDA's values). */
    public static int ilogb(float x) {
        return CudaMath.ilogb((double) x);
    }

    /** The mantissa of {@code frexp}: m with |m| in [1/2, 1) and x = m 2^e; x itself for ±0, ±inf and NaN. */
    public static float frexp(float x) {
        return (float) CudaMath.frexp((double) x);
    }

    /** The exponent that {@code frexp} stores: 0 for ±0, ±inf and NaN. */
    public static int frexpExponent(float x) {
        return CudaMath.frexpExponent((double) x);
    }

    /** 1 / cbrt(x): ±inf at ±0, ±0 at ±inf. */
    public static float rcbrt(float x) {
        return (float) (1.0 / Math.cbrt(x));
    }

    /** sqrt(x² + y²) without intermediate overflow; +inf if either is infinite, even when the other is NaN. */
    public static float hypot(float x, float y) {
        if (Float.isInfinite(x) || Float.isInfinite(y)) {
            return Float.POSITIVE_INFINITY;
        }
        // Squares of floats are exact in double and their sum cannot overflow it.
        double dx = x;
        double dy = y;
        return (float) Math.sqrt(dx * dx + dy * dy);
    }

    /** 1 / sqrt(x² + y²): +0 if either is infinite (even when the other is NaN), +inf at (0, 0). */
    public static float rhypot(float x, float y) {
        if (Float.isInfinite(x) || Float.isInfinite(y)) {
            return 0f;
        }
        double dx = x;
        double dy = y;
        return (float) (1.0 / Math.sqrt(dx * dx + dy * dy));
    }

    /** sqrt(a² + b² + c²) without intermediate overflow; +inf if any is infinite, even when another is NaN. */
    public static float norm3d(float a, float b, float c) {
        if (Float.isInfinite(a) || Float.isInfinite(b) || Float.isInfinite(c)) {
            return Float.POSITIVE_INFINITY;
        }
        double da = a;
        double db = b;
        double dc = c;
        return (float) Math.sqrt(da * da + db * db + dc * dc); // exact squares, no overflow in double
    }

    /** 1 / sqrt(a² + b² + c²): +0 if any is infinite (even when another is NaN), +inf at the origin. */
    public static float rnorm3d(float a, float b, float c) {
        if (Float.isInfinite(a) || Float.isInfinite(b) || Float.isInfinite(c)) {
            return 0f;
        }
        double da = a;
        double db = b;
        double dc = c;
        return (float) (1.0 / Math.sqrt(da * da + db * db + dc * dc));
    }

    /** sqrt(a² + b² + c² + d²) without intermediate overflow; +inf if any is infinite, even when another is NaN. */
    public static float norm4d(float a, float b, float c, float d) {
        if (Float.isInfinite(a) || Float.isInfinite(b) || Float.isInfinite(c) || Float.isInfinite(d)) {
            return Float.POSITIVE_INFINITY;
        }
        double da = a;
        double db = b;
        double dc = c;
        double dd = d;
        return (float) Math.sqrt(da * da + db * db + dc * dc + dd * dd);
    }

    /** 1 / sqrt(a² + b² + c² + d²): +0 if any is infinite (even when another is NaN), +inf at the origin. */
    public static float rnorm4d(float a, float b, float c, float d) {
        if (Float.isInfinite(a) || Float.isInfinite(b) || Float.isInfinite(c) || Float.isInfinite(d)) {
            return 0f;
        }
        double da = a;
        double db = b;
        double dc = c;
        double dd = d;
        return (float) (1.0 / Math.sqrt(da * da + db * db + dc * dc + dd * dd));
    }

    /** {@code normf(dim, p)} over floats. */
    public static float normf(int dim, MemorySegment seg, long off) {
        return (float) Norms.norm(seg, off, dim, true, false);
    }

    /** {@code rnormf(dim, p)} over floats. */
    public static float rnormf(int dim, MemorySegment seg, long off) {
        return (float) Norms.norm(seg, off, dim, true, true);
    }

    /** The magnitude of x with the sign bit of y (a NaN's sign bit counts too, as in C). */
    public static float copysign(float x, float y) {
        return Math.copySign(x, y);
    }

    /** Minimum that ignores a NaN operand (NaN only if both are NaN); -0.0 is below +0.0. */
    public static float fmin(float x, float y) {
        if (x != x) {
            return y;
        }
        return y != y ? x : Math.min(x, y);
    }

    /** Maximum that ignores a NaN operand (NaN only if both are NaN); +0.0 is above -0.0. */
    public static float fmax(float x, float y) {
        if (x != x) {
            return y;
        }
        return y != y ? x : Math.max(x, y);
    }

    /** x * y + z with a single rounding. */
    public static float fma(float x, float y, float z) {
        return Math.fma(x, y, z);
    }

    /** __saturatef: clamps to [0, 1]; NaN gives 0. */
    public static float saturate(float x) {
        if (!(x > 0f)) {
            return 0f;
        }
        return x > 1f ? 1f : x;
    }

    /** __fdividef / fdividef: x / y (here always IEEE-exact, which CUDA's approximation is allowed to be). */
    public static float fdivide(float x, float y) {
        return x / y;
    }

    // ---- classification (C macros, int results) ----

    public static int isnan(float x) {
        return x != x ? 1 : 0;
    }

    public static int isinf(float x) {
        return Float.isInfinite(x) ? 1 : 0;
    }

    public static int isfinite(float x) {
        return Float.isFinite(x) ? 1 : 0;
    }

    /** 1 if the sign bit is set (also for -0.0 and negative NaNs), else 0. */
    public static int signbit(float x) {
        return Float.floatToRawIntBits(x) >>> 31;
    }

    // ---- floating min / max / abs (CUDA's overloaded min, max, abs) ----

    /** Same as {@link #fmin(float, float)}. */
    public static float min(float x, float y) {
        return fmin(x, y);
    }

    /** Same as {@link #fmax(float, float)}. */
    public static float max(float x, float y) {
        return fmax(x, y);
    }

    public static float abs(float x) {
        return Math.abs(x);
    }
}
