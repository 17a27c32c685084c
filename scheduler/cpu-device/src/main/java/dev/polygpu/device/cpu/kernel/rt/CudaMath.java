package dev.polygpu.device.cpu.kernel.rt;

import java.lang.foreign.MemorySegment;

/**
 * CUDA's device math library and integer intrinsics, called by the JVM code that the CPU kernel engine
 * generates (the code generator emits {@code invokestatic} to these exact names and descriptors).
 *
 * <p>Semantics are C99 Annex F / CUDA's, which differ from {@code java.lang.Math} in places: {@code round}
 * rounds halfway cases away from zero and returns a floating value, {@code fmin}/{@code fmax} ignore a NaN
 * operand, {@code pow(1, NaN)} and {@code pow(-1, ±inf)} are 1. The {@code float} overloads compute in double
 * and round once to float, so they are within 1 ulp of the correctly rounded result (usually exact);
 * CUDA's own single-precision functions allow 1 to 4 ulp. The double overloads have the accuracy of
 * {@code java.lang.Math} (at most 1 to 2 ulp), {@code erf}/{@code erfc} that of {@link ErrorFunction}, the
 * gamma, inverse error and inverse hyperbolic functions and sinpi/cospi that of {@link SpecialFunctions} (a few
 * ulp), the Bessel functions that of {@link BesselFunctions}; {@code rcbrt} rounds twice (under 1.5 ulp), the
 * norms and their reciprocals ({@link Norms}) are within about half an ulp.
 *
 * <p>Stateless and thread-safe.
 */
public final class CudaMath {
    private static final double INV_LN2 = 1.4426950408889634;
    private static final double SQRT2 = 1.4142135623730951;
    /** 1/√2 as a double, and the double nearest to its error (1/√2 - INV_SQRT2). */
    private static final double INV_SQRT2 = 0.7071067811865476;
    private static final double INV_SQRT2_LO = -4.833646656726457e-17;
    private static final double TWO_OVER_SQRT_PI = 1.1283791670955126;
    /** From 2^52 up every double is an integer, so rounding functions return their argument. */
    private static final double TWO_POW_52 = 0x1p52;

    private CudaMath() {
    }

    // ---- roots, exponentials, logarithms ----

    public static float sqrt(float x) {
        return (float) Math.sqrt(x);
    }

    public static double sqrt(double x) {
        return Math.sqrt(x);
    }

    /** 1 / sqrt(x): ±inf at ±0 (as CUDA's rsqrt), +0 at +inf, NaN below zero. */
    public static float rsqrt(float x) {
        return (float) (1.0 / Math.sqrt(x));
    }

    public static double rsqrt(double x) {
        return 1.0 / Math.sqrt(x);
    }

    public static float cbrt(float x) {
        return (float) Math.cbrt(x);
    }

    public static double cbrt(double x) {
        return Math.cbrt(x);
    }

    public static float exp(float x) {
        return (float) Math.exp(x);
    }

    public static double exp(double x) {
        return Math.exp(x);
    }

    public static float exp2(float x) {
        return (float) Math.pow(2.0, x);
    }

    public static double exp2(double x) {
        return Math.pow(2.0, x);
    }

    public static float exp10(float x) {
        return (float) Math.pow(10.0, x);
    }

    public static double exp10(double x) {
        return Math.pow(10.0, x);
    }

    public static float expm1(float x) {
        return (float) Math.expm1(x);
    }

    public static double expm1(double x) {
        return Math.expm1(x);
    }

    public static float log(float x) {
        return (float) Math.log(x);
    }

    public static double log(double x) {
        return Math.log(x);
    }

    public static float log2(float x) {
        return (float) log2((double) x);
    }

    /**
     * Base-2 logarithm, exact for powers of two: x = m 2^e with m in [sqrt(1/2), sqrt(2)), so the result is
     * e + log(m)/ln 2 where the second term is small.
     */
    public static double log2(double x) {
        if (!(x > 0) || x == Double.POSITIVE_INFINITY) {
            return Math.log(x); // NaN, -inf at ±0, NaN below zero, +inf at +inf
        }
        int e = Math.getExponent(x);
        if (e == Double.MIN_EXPONENT - 1) { // subnormal: normalise first
            x *= 0x1p54;
            e = Math.getExponent(x) - 54;
        }
        double m = Math.scalb(x, -Math.getExponent(x));
        if (m >= SQRT2) {
            m *= 0.5;
            e++;
        }
        return e + Math.log(m) * INV_LN2;
    }

    public static float log10(float x) {
        return (float) Math.log10(x);
    }

    public static double log10(double x) {
        return Math.log10(x);
    }

    public static float log1p(float x) {
        return (float) Math.log1p(x);
    }

    public static double log1p(double x) {
        return Math.log1p(x);
    }

    /** C99 pow: like Math.pow except pow(1, y) = 1 for every y (NaN included) and pow(-1, ±inf) = 1. */
    public static float pow(float x, float y) {
        return (float) pow((double) x, y);
    }

    public static double pow(double x, double y) {
        if (x == 1.0 || (x == -1.0 && Double.isInfinite(y))) {
            return 1.0;
        }
        return Math.pow(x, y);
    }

    // ---- trigonometric and hyperbolic ----

    public static float sin(float x) {
        return (float) Math.sin(x);
    }

    public static double sin(double x) {
        return Math.sin(x);
    }

    public static float cos(float x) {
        return (float) Math.cos(x);
    }

    public static double cos(double x) {
        return Math.cos(x);
    }

    public static float tan(float x) {
        return (float) Math.tan(x);
    }

    public static double tan(double x) {
        return Math.tan(x);
    }

    public static float asin(float x) {
        return (float) Math.asin(x);
    }

    public static double asin(double x) {
        return Math.asin(x);
    }

    public static float acos(float x) {
        return (float) Math.acos(x);
    }

    public static double acos(double x) {
        return Math.acos(x);
    }

    public static float atan(float x) {
        return (float) Math.atan(x);
    }

    public static double atan(double x) {
        return Math.atan(x);
    }

    public static float atan2(float y, float x) {
        return (float) Math.atan2(y, x);
    }

    public static double atan2(double y, double x) {
        return Math.atan2(y, x);
    }

    public static float sinh(float x) {
        return (float) Math.sinh(x);
    }

    public static double sinh(double x) {
        return Math.sinh(x);
    }

    public static float cosh(float x) {
        return (float) Math.cosh(x);
    }

    public static double cosh(double x) {
        return Math.cosh(x);
    }

    public static float tanh(float x) {
        return (float) Math.tanh(x);
    }

    public static double tanh(double x) {
        return Math.tanh(x);
    }

    public static float asinh(float x) {
        return (float) SpecialFunctions.asinh(x);
    }

    public static double asinh(double x) {
        return SpecialFunctions.asinh(x);
    }

    public static float acosh(float x) {
        return (float) SpecialFunctions.acosh(x);
    }

    /** NaN below 1, +0 at 1. */
    public static double acosh(double x) {
        return SpecialFunctions.acosh(x);
    }

    public static float atanh(float x) {
        return (float) SpecialFunctions.atanh(x);
    }

    /** ±inf at ±1, NaN beyond. */
    public static double atanh(double x) {
        return SpecialFunctions.atanh(x);
    }

    public static float sinpi(float x) {
        return (float) SpecialFunctions.sinpi(x);
    }

    /** sin(πx) with x reduced exactly: ±0 at the integers (sign of x), NaN at ±inf. */
    public static double sinpi(double x) {
        return SpecialFunctions.sinpi(x);
    }

    public static float cospi(float x) {
        return (float) SpecialFunctions.cospi(x);
    }

    /** cos(πx) with x reduced exactly: +0 at the half-integers, NaN at ±inf. */
    public static double cospi(double x) {
        return SpecialFunctions.cospi(x);
    }

    // ---- error function ----

    public static float erf(float x) {
        return (float) ErrorFunction.erf(x);
    }

    public static double erf(double x) {
        return ErrorFunction.erf(x);
    }

    public static float erfc(float x) {
        return (float) ErrorFunction.erfc(x);
    }

    public static double erfc(double x) {
        return ErrorFunction.erfc(x);
    }

    public static float erfcx(float x) {
        return (float) ErrorFunction.erfcx(x);
    }

    /** The scaled complementary error function e^(x²) erfc(x): +inf below about -26.63, +0 at +inf. */
    public static double erfcx(double x) {
        return ErrorFunction.erfcx(x);
    }

    public static float erfinv(float x) {
        return (float) SpecialFunctions.erfinv(x);
    }

    /** Inverse of erf on [-1, 1]: ±inf at ±1, NaN outside. */
    public static double erfinv(double x) {
        return SpecialFunctions.erfinv(x);
    }

    public static float erfcinv(float x) {
        return (float) SpecialFunctions.erfcinv(x);
    }

    /** Inverse of erfc on [0, 2]: +inf at 0, -inf at 2, NaN outside. */
    public static double erfcinv(double x) {
        return SpecialFunctions.erfcinv(x);
    }

    public static float normcdf(float x) {
        return (float) normcdf((double) x);
    }

    /**
     * The standard normal distribution function, erfc(-x/√2) / 2. The rounding error of -x/√2 (its exact
     * remainder by FMA plus the error of the constant) is put back to first order, as it is magnified by
     * erfc's steep slope for large |x|.
     */
    public static double normcdf(double x) {
        if (Double.isInfinite(x)) {
            return x > 0 ? 1.0 : 0.0;
        }
        double t = -x * INV_SQRT2;
        double dt = Math.fma(-x, INV_SQRT2, -t) + -x * INV_SQRT2_LO;
        double e = ErrorFunction.erfc(t);
        return 0.5 * (e - dt * TWO_OVER_SQRT_PI * Math.exp(-t * t));
    }

    public static float normcdfinv(float x) {
        return (float) normcdfinv((double) x);
    }

    /** Inverse of {@link #normcdf(double)}: -inf at 0, +inf at 1, NaN outside [0, 1]. */
    public static double normcdfinv(double x) {
        if (!(x >= 0 && x <= 1)) {
            return Double.NaN;
        }
        return -SQRT2 * SpecialFunctions.erfcinv(2 * x);
    }

    // ---- gamma ----

    public static float tgamma(float x) {
        return (float) SpecialFunctions.tgamma(x);
    }

    /** Γ(x): ±inf at ±0, NaN at negative integers and -inf, +inf past 171.62. */
    public static double tgamma(double x) {
        return SpecialFunctions.tgamma(x);
    }

    public static float lgamma(float x) {
        return (float) SpecialFunctions.lgamma(x);
    }

    /** log |Γ(x)|: +0 at 1 and 2, +inf at 0, at the negative integers and at ±inf. */
    public static double lgamma(double x) {
        return SpecialFunctions.lgamma(x);
    }

    // ---- Bessel functions ----

    public static float j0(float x) {
        return (float) BesselFunctions.j0(x);
    }

    /** J0(x): +0 at ±inf. */
    public static double j0(double x) {
        return BesselFunctions.j0(x);
    }

    public static float j1(float x) {
        return (float) BesselFunctions.j1(x);
    }

    /** J1(x): ±0 at ±0 and ±inf. */
    public static double j1(double x) {
        return BesselFunctions.j1(x);
    }

    public static float jn(int n, float x) {
        return (float) BesselFunctions.jn(n, x);
    }

    /** J_n(x): NaN for n &lt; 0 (as CUDA's jn), 0 at ±inf. */
    public static double jn(int n, double x) {
        return BesselFunctions.jn(n, x);
    }

    public static float y0(float x) {
        return (float) BesselFunctions.y0(x);
    }

    /** Y0(x): -inf at ±0, NaN below zero, +0 at +inf. */
    public static double y0(double x) {
        return BesselFunctions.y0(x);
    }

    public static float y1(float x) {
        return (float) BesselFunctions.y1(x);
    }

    public static double y1(double x) {
        return BesselFunctions.y1(x);
    }

    public static float yn(int n, float x) {
        return (float) BesselFunctions.yn(n, x);
    }

    /** Y_n(x): NaN for n &lt; 0 or x &lt; 0, -inf at ±0 (and where it overflows), +0 at +inf. */
    public static double yn(int n, double x) {
        return BesselFunctions.yn(n, x);
    }

    public static float cyl_bessel_i0(float x) {
        return (float) BesselFunctions.i0(x);
    }

    /** I0(x), the modified Bessel function of the first kind of order 0: +inf at ±inf and past |x| ≈ 713.99. */
    public static double cyl_bessel_i0(double x) {
        return BesselFunctions.i0(x);
    }

    public static float cyl_bessel_i1(float x) {
        return (float) BesselFunctions.i1(x);
    }

    /** I1(x): odd, ±inf at ±inf. */
    public static double cyl_bessel_i1(double x) {
        return BesselFunctions.i1(x);
    }

    // ---- rounding and remainder ----

    public static float fabs(float x) {
        return Math.abs(x);
    }

    public static double fabs(double x) {
        return Math.abs(x);
    }

    public static float floor(float x) {
        return (float) Math.floor(x);
    }

    public static double floor(double x) {
        return Math.floor(x);
    }

    public static float ceil(float x) {
        return (float) Math.ceil(x);
    }

    public static double ceil(double x) {
        return Math.ceil(x);
    }

    /** Nearest integer, halfway cases away from zero (round(-2.5) = -3); keeps the sign of zero. */
    public static float round(float x) {
        return (float) round((double) x);
    }

    public static double round(double x) {
        if (!(Math.abs(x) < TWO_POW_52)) {
            return x; // NaN, infinities and values that are already integers
        }
        double t = trunc(x);
        // x - t is exact here, so 0.49999999999999994 does not round up as floor(x + 0.5) would.
        if (Math.abs(x - t) >= 0.5) {
            t += Math.copySign(1.0, x);
        }
        return Math.copySign(t, x);
    }

    /** Round toward zero; trunc(-0.5) = -0.0. */
    public static float trunc(float x) {
        return (float) trunc((double) x);
    }

    public static double trunc(double x) {
        return x < 0 ? Math.ceil(x) : Math.floor(x);
    }

    /** Nearest integer, halfway cases to even (the default rounding mode). */
    public static float rint(float x) {
        return (float) Math.rint(x);
    }

    public static double rint(double x) {
        return Math.rint(x);
    }

    /**
     * {@code lrint}, {@code llrint}: x rounded to nearest (ties to even) as a 64-bit integer. Out of range it
     * saturates and NaN gives 0, as the GPU's conversion instruction does (C leaves both unspecified).
     */
    public static long lrint(float x) {
        return (long) Math.rint(x);
    }

    public static long lrint(double x) {
        return (long) Math.rint(x);
    }

    /** {@code lround}, {@code llround}: x rounded to nearest, ties away from zero, as a 64-bit integer (saturating). */
    public static long lround(float x) {
        return (long) round((double) x);
    }

    public static long lround(double x) {
        return (long) round(x);
    }

    /** C fmod: x - n y with n = trunc(x / y), exact, with the sign of x; Java's % on floating types is exactly this. */
    public static float fmod(float x, float y) {
        return x % y;
    }

    public static double fmod(double x, double y) {
        return x % y;
    }

    /** IEEE remainder: x - n y with n = x / y rounded to nearest, ties to even; exact. NaN for y = 0 or x = ±inf. */
    public static float remainder(float x, float y) {
        return (float) Math.IEEEremainder(x, y);
    }

    public static double remainder(double x, double y) {
        return Math.IEEEremainder(x, y);
    }

    /**
     * What {@code remquo(x, y, &q)} stores in q: the integral quotient n of {@link #remainder} (x/y rounded to
     * nearest, ties to even), its magnitude reduced modulo 2^31 and its sign that of x/y (C99 asks for at least
     * the 3 low bits; this keeps 31, so it is exact whenever |n| &lt; 2^31). 0 where the remainder is NaN, y is
     * infinite or x is zero.
     */
    public static int remquoQuotient(float x, float y) {
        return remquoQuotient((double) x, y); // floats are doubles, and the quotient is the same
    }

    public static int remquoQuotient(double x, double y) {
        double a = Math.abs(x);
        double b = Math.abs(y);
        if (!(a < Double.POSITIVE_INFINITY) || !(b > 0) || b == Double.POSITIVE_INFINITY || a == 0) {
            return 0; // NaN, x = ±inf, y = 0, y = ±inf, x = 0
        }
        // a mod (b 2^32) has the quotient's low 32 bits; the step is exact (fmod is), and b 2^32 is exact or
        // overflows, in which case a / b < 2^32 already.
        double big = b * 0x1p32;
        double r = big == Double.POSITIVE_INFINITY ? a : a % big;
        long t = (long) (r / b); // within one of trunc(r / b) < 2^32
        if (Math.fma(-t, b, r) < 0) {
            t--;
        } else if (Math.fma(-(t + 1), b, r) >= 0) {
            t++;
        }
        double f = r % b; // r - t b, exact
        double twice = 2 * f; // exact: f < b <= MAX / 2 or b is the largest binade, where f < b/2 suffices
        if (twice > b || twice == b && (t & 1) != 0) {
            t++;
        }
        int q = (int) (t & 0x7fff_ffff);
        return (x < 0) != (y < 0) ? -q : q;
    }

    /** Positive difference: x - y if x &gt; y, else +0; NaN if either is NaN. */
    public static float fdim(float x, float y) {
        return x > y ? x - y : x <= y ? 0f : Float.NaN;
    }

    public static double fdim(double x, double y) {
        return x > y ? x - y : x <= y ? 0.0 : Double.NaN;
    }

    /** The fractional part of x with x's sign (±0 for ±inf); {@code modf} stores {@link #trunc} through its pointer. */
    public static float modf(float x) {
        return Float.isInfinite(x) ? Math.copySign(0f, x) : Math.copySign(x - trunc(x), x);
    }

    public static double modf(double x) {
        return Double.isInfinite(x) ? Math.copySign(0.0, x) : Math.copySign(x - trunc(x), x);
    }

    // ---- exponent manipulation ----

    /** floor(log2 |x|) of a finite non-zero x, subnormals included. */
    private static int exponentOf(double x) {
        int e = Math.getExponent(x);
        if (e == Double.MIN_EXPONENT - 1) {
            long m = Double.doubleToRawLongBits(x) & 0x000f_ffff_ffff_ffffL;
            e = 63 - Long.numberOfLeadingZeros(m) - 1074;
        }
        return e;
    }

    /** x 2^n, rounded once. */
    public static float ldexp(float x, int n) {
        return Math.scalb(x, n);
    }

    public static double ldexp(double x, int n) {
        return Math.scalb(x, n);
    }

    /** Same as {@link #ldexp(float, int)} (the radix is 2). */
    public static float scalbn(float x, int n) {
        return Math.scalb(x, n);
    }

    public static double scalbn(double x, int n) {
        return Math.scalb(x, n);
    }

    /** {@code scalbln(x, n)}: x 2^n with a long n (any n beyond int's range over- or underflows). */
    public static float scalbln(float x, long n) {
        return Math.scalb(x, clampToInt(n));
    }

    public static double scalbln(double x, long n) {
        return Math.scalb(x, clampToInt(n));
    }

    private static int clampToInt(long n) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, n));
    }

    /** The next representable value after x in the direction of y; y itself if they are equal, NaN if either is. */
    public static float nextafter(float x, float y) {
        return Math.nextAfter(x, y);
    }

    public static double nextafter(double x, double y) {
        return Math.nextAfter(x, y);
    }

    /** The exponent of x as a floating value: -inf at ±0, +inf at ±inf, NaN for NaN. */
    public static float logb(float x) {
        return (float) logb((double) x); // every float, subnormal ones too, is normal as a double
    }

    public static double logb(double x) {
        if (x == 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (!Double.isFinite(x)) {
            return Math.abs(x);
        }
        return exponentOf(x);
    }

    /** The exponent of x as an int: INT_MIN at ±0 and NaN, INT_MAX at ±inf (CUDA's values). */
    public static int ilogb(float x) {
        return ilogb((double) x);
    }

    public static int ilogb(double x) {
        if (x == 0 || x != x) {
            return Integer.MIN_VALUE;
        }
        return Double.isInfinite(x) ? Integer.MAX_VALUE : exponentOf(x);
    }

    /** The mantissa of {@code frexp}: m with |m| in [1/2, 1) and x = m 2^e; x itself for ±0, ±inf and NaN. */
    public static float frexp(float x) {
        return (float) frexp((double) x);
    }

    public static double frexp(double x) {
        if (x == 0 || !Double.isFinite(x)) {
            return x;
        }
        return Math.scalb(x, -(exponentOf(x) + 1)); // exact: the result is normal
    }

    /** The exponent that {@code frexp} stores: 0 for ±0, ±inf and NaN. */
    public static int frexpExponent(float x) {
        return frexpExponent((double) x);
    }

    public static int frexpExponent(double x) {
        if (x == 0 || !Double.isFinite(x)) {
            return 0;
        }
        return exponentOf(x) + 1;
    }

    /** 1 / cbrt(x): ±inf at ±0, ±0 at ±inf. */
    public static float rcbrt(float x) {
        return (float) (1.0 / Math.cbrt(x));
    }

    public static double rcbrt(double x) {
        return 1.0 / Math.cbrt(x);
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

    public static double hypot(double x, double y) {
        return Math.hypot(x, y);
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

    public static double rhypot(double x, double y) {
        return Norms.norm(x, y, 0, 0, true);
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

    public static double norm3d(double a, double b, double c) {
        return Norms.norm(a, b, c, 0, false);
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

    public static double rnorm3d(double a, double b, double c) {
        return Norms.norm(a, b, c, 0, true);
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

    public static double norm4d(double a, double b, double c, double d) {
        return Norms.norm(a, b, c, d, false);
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

    public static double rnorm4d(double a, double b, double c, double d) {
        return Norms.norm(a, b, c, d, true);
    }

    /**
     * {@code norm(dim, p)}: the Euclidean norm of the {@code dim} doubles at byte offset {@code off} of
     * {@code seg}, which the caller has bounds-checked; +inf if any is infinite, +0 for {@code dim} = 0.
     */
    public static double norm(int dim, MemorySegment seg, long off) {
        return Norms.norm(seg, off, dim, false, false);
    }

    /** {@code normf(dim, p)} over floats. */
    public static float normf(int dim, MemorySegment seg, long off) {
        return (float) Norms.norm(seg, off, dim, true, false);
    }

    /** {@code rnorm(dim, p)}: 1 / norm; +0 if any element is infinite, +inf if all are zero (or dim = 0). */
    public static double rnorm(int dim, MemorySegment seg, long off) {
        return Norms.norm(seg, off, dim, false, true);
    }

    /** {@code rnormf(dim, p)} over floats. */
    public static float rnormf(int dim, MemorySegment seg, long off) {
        return (float) Norms.norm(seg, off, dim, true, true);
    }

    /** The magnitude of x with the sign bit of y (a NaN's sign bit counts too, as in C). */
    public static float copysign(float x, float y) {
        return Math.copySign(x, y);
    }

    public static double copysign(double x, double y) {
        return Math.copySign(x, y);
    }

    /** Minimum that ignores a NaN operand (NaN only if both are NaN); -0.0 is below +0.0. */
    public static float fmin(float x, float y) {
        if (x != x) {
            return y;
        }
        return y != y ? x : Math.min(x, y);
    }

    public static double fmin(double x, double y) {
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

    public static double fmax(double x, double y) {
        if (x != x) {
            return y;
        }
        return y != y ? x : Math.max(x, y);
    }

    /** x * y + z with a single rounding. */
    public static float fma(float x, float y, float z) {
        return Math.fma(x, y, z);
    }

    public static double fma(double x, double y, double z) {
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

    public static int isnan(double x) {
        return x != x ? 1 : 0;
    }

    public static int isinf(float x) {
        return Float.isInfinite(x) ? 1 : 0;
    }

    public static int isinf(double x) {
        return Double.isInfinite(x) ? 1 : 0;
    }

    public static int isfinite(float x) {
        return Float.isFinite(x) ? 1 : 0;
    }

    public static int isfinite(double x) {
        return Double.isFinite(x) ? 1 : 0;
    }

    /** 1 if the sign bit is set (also for -0.0 and negative NaNs), else 0. */
    public static int signbit(float x) {
        return Float.floatToRawIntBits(x) >>> 31;
    }

    public static int signbit(double x) {
        return (int) (Double.doubleToRawLongBits(x) >>> 63);
    }

    // ---- integer and floating min / max / abs (CUDA's overloaded min, max, abs) ----

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

    /** Same as {@link #fmin(float, float)}. */
    public static float min(float x, float y) {
        return fmin(x, y);
    }

    /** Same as {@link #fmax(float, float)}. */
    public static float max(float x, float y) {
        return fmax(x, y);
    }

    /** Same as {@link #fmin(double, double)}. */
    public static double min(double x, double y) {
        return fmin(x, y);
    }

    /** Same as {@link #fmax(double, double)}. */
    public static double max(double x, double y) {
        return fmax(x, y);
    }

    /** Two's-complement absolute value: abs(INT_MIN) = INT_MIN, as on the GPU. */
    public static int abs(int x) {
        return Math.abs(x);
    }

    public static long abs(long x) {
        return Math.abs(x);
    }

    public static float abs(float x) {
        return Math.abs(x);
    }

    public static double abs(double x) {
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
