package dev.polygpu.device.cpu.kernel.rt;

import java.lang.foreign.MemorySegment;

/**
 * CUDA's double-precision device math library, called by the JVM code that the CPU kernel engine generates for
 * {@code double} operands (the code generator emits {@code invokestatic} to these exact names and descriptors).
 * The {@code float} overloads are in {@link CudaMathFloat}, the integer ones ({@code min}, {@code max},
 * {@code abs}, bit counts) in {@link IntegerIntrinsics}; the code generator picks the class by operand kind.
 *
 * <p>Semantics are C99 Annex F / CUDA's, which differ from {@code java.lang.Math} in places: {@code round}
 * rounds halfway cases away from zero and returns a floating value, {@code fmin}/{@code fmax} ignore a NaN
 * operand, {@code pow(1, NaN)} and {@code pow(-1, ±inf)} are 1. The double overloads have the accuracy of
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

    public static double sqrt(double x) {
        return Math.sqrt(x);
    }

    public static double rsqrt(double x) {
        return 1.0 / Math.sqrt(x);
    }

    public static double cbrt(double x) {
        return Math.cbrt(x);
    }

    public static double exp(double x) {
        return Math.exp(x);
    }

    public static double exp2(double x) {
        return Math.pow(2.0, x);
    }

    public static double exp10(double x) {
        return Math.pow(10.0, x);
    }

    public static double expm1(double x) {
        return Math.expm1(x);
    }

    public static double log(double x) {
        return Math.log(x);
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

    public static double log10(double x) {
        return Math.log10(x);
    }

    public static double log1p(double x) {
        return Math.log1p(x);
    }

    public static double pow(double x, double y) {
        if (x == 1.0 || (x == -1.0 && Double.isInfinite(y))) {
            return 1.0;
        }
        return Math.pow(x, y);
    }

    // ---- trigonometric and hyperbolic ----

    public static double sin(double x) {
        return Math.sin(x);
    }

    public static double cos(double x) {
        return Math.cos(x);
    }

    public static double tan(double x) {
        return Math.tan(x);
    }

    public static double asin(double x) {
        return Math.asin(x);
    }

    public static double acos(double x) {
        return Math.acos(x);
    }

    public static double atan(double x) {
        return Math.atan(x);
    }

    public static double atan2(double y, double x) {
        return Math.atan2(y, x);
    }

    public static double sinh(double x) {
        return Math.sinh(x);
    }

    public static double cosh(double x) {
        return Math.cosh(x);
    }

    public static double tanh(double x) {
        return Math.tanh(x);
    }

    public static double asinh(double x) {
        return SpecialFunctions.asinh(x);
    }

    /** NaN below 1, +0 at 1. */
    public static double acosh(double x) {
        return SpecialFunctions.acosh(x);
    }

    /** ±inf at ±1, NaN beyond. */
    public static double atanh(double x) {
        return SpecialFunctions.atanh(x);
    }

    /** sin(πx) with x reduced exactly: ±0 at the integers (sign of x), NaN at ±inf. */
    public static double sinpi(double x) {
        return SpecialFunctions.sinpi(x);
    }

    /** cos(πx) with x reduced exactly: +0 at the half-integers, NaN at ±inf. */
    public static double cospi(double x) {
        return SpecialFunctions.cospi(x);
    }

    // ---- error function ----

    public static double erf(double x) {
        return ErrorFunction.erf(x);
    }

    public static double erfc(double x) {
        return ErrorFunction.erfc(x);
    }

    /** The scaled complementary error function e^(x²) erfc(x): +inf below about -26.63, +0 at +inf. */
    public static double erfcx(double x) {
        return ErrorFunction.erfcx(x);
    }

    /** Inverse of erf on [-1, 1]: ±inf at ±1, NaN outside. */
    public static double erfinv(double x) {
        return SpecialFunctions.erfinv(x);
    }

    /** Inverse of erfc on [0, 2]: +inf at 0, -inf at 2, NaN outside. */
    public static double erfcinv(double x) {
        return SpecialFunctions.erfcinv(x);
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

    /** Inverse of {@link #normcdf(double)}: -inf at 0, +inf at 1, NaN outside [0, 1]. */
    public static double normcdfinv(double x) {
        if (!(x >= 0 && x <= 1)) {
            return Double.NaN;
        }
        return -SQRT2 * SpecialFunctions.erfcinv(2 * x);
    }

    // ---- gamma ----

    /** Γ(x): ±inf at ±0, NaN at negative integers and -inf, +inf past 171.62. */
    public static double tgamma(double x) {
        return SpecialFunctions.tgamma(x);
    }

    /** log |Γ(x)|: +0 at 1 and 2, +inf at 0, at the negative integers and at ±inf. */
    public static double lgamma(double x) {
        return SpecialFunctions.lgamma(x);
    }

    // ---- Bessel functions ----

    /** J0(x): +0 at ±inf. */
    public static double j0(double x) {
        return BesselFunctions.j0(x);
    }

    /** J1(x): ±0 at ±0 and ±inf. */
    public static double j1(double x) {
        return BesselFunctions.j1(x);
    }

    /** J_n(x): NaN for n &lt; 0 (as CUDA's jn), 0 at ±inf. */
    public static double jn(int n, double x) {
        return BesselFunctions.jn(n, x);
    }

    /** Y0(x): -inf at ±0, NaN below zero, +0 at +inf. */
    public static double y0(double x) {
        return BesselFunctions.y0(x);
    }

    public static double y1(double x) {
        return BesselFunctions.y1(x);
    }

    /** Y_n(x): NaN for n &lt; 0 or x &lt; 0, -inf at ±0 (and where it overflows), +0 at +inf. */
    public static double yn(int n, double x) {
        return BesselFunctions.yn(n, x);
    }

    /** I0(x), the modified Bessel function of the first kind of order 0: +inf at ±inf and past |x| ≈ 713.99. */
    public static double cyl_bessel_i0(double x) {
        return BesselFunctions.i0(x);
    }

    /** I1(x): odd, ±inf at ±inf. */
    public static double cyl_bessel_i1(double x) {
        return BesselFunctions.i1(x);
    }

    // ---- rounding and remainder ----

    public static double fabs(double x) {
        return Math.abs(x);
    }

    public static double floor(double x) {
        return Math.floor(x);
    }

    public static double ceil(double x) {
        return Math.ceil(x);
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

    public static double trunc(double x) {
        return x < 0 ? Math.ceil(x) : Math.floor(x);
    }

    public static double rint(double x) {
        return Math.rint(x);
    }

    public static long lrint(double x) {
        return (long) Math.rint(x);
    }

    public static long lround(double x) {
        return (long) round(x);
    }

    public static double fmod(double x, double y) {
        return x % y;
    }

    public static double remainder(double x, double y) {
        return Math.IEEEremainder(x, y);
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

    public static double fdim(double x, double y) {
        return x > y ? x - y : x <= y ? 0.0 : Double.NaN;
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

    public static double ldexp(double x, int n) {
        return Math.scalb(x, n);
    }

    public static double scalbn(double x, int n) {
        return Math.scalb(x, n);
    }

    public static double scalbln(double x, long n) {
        return Math.scalb(x, clampToInt(n));
    }

    static int clampToInt(long n) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, n));
    }

    public static double nextafter(double x, double y) {
        return Math.nextAfter(x, y);
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

    public static int ilogb(double x) {
        if (x == 0 || x != x) {
            return Integer.MIN_VALUE;
        }
        return Double.isInfinite(x) ? Integer.MAX_VALUE : exponentOf(x);
    }

    public static double frexp(double x) {
        if (x == 0 || !Double.isFinite(x)) {
            return x;
        }
        return Math.scalb(x, -(exponentOf(x) + 1)); // exact: the result is normal
    }

    public static int frexpExponent(double x) {
        if (x == 0 || !Double.isFinite(x)) {
            return 0;
        }
        return exponentOf(x) + 1;
    }

    public static double rcbrt(double x) {
        return 1.0 / Math.cbrt(x);
    }

    public static double hypot(double x, double y) {
        return Math.hypot(x, y);
    }

    public static double rhypot(double x, double y) {
        return Norms.norm(x, y, 0, 0, true);
    }

    public static double norm3d(double a, double b, double c) {
        return Norms.norm(a, b, c, 0, false);
    }

    public static double rnorm3d(double a, double b, double c) {
        return Norms.norm(a, b, c, 0, true);
    }

    public static double norm4d(double a, double b, double c, double d) {
        return Norms.norm(a, b, c, d, false);
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

    /** {@code rnorm(dim, p)}: 1 / norm; +0 if any element is infinite, +inf if all are zero (or dim = 0). */
    public static double rnorm(int dim, MemorySegment seg, long off) {
        return Norms.norm(seg, off, dim, false, true);
    }

    public static double copysign(double x, double y) {
        return Math.copySign(x, y);
    }

    public static double fmin(double x, double y) {
        if (x != x) {
            return y;
        }
        return y != y ? x : Math.min(x, y);
    }

    public static double fmax(double x, double y) {
        if (x != x) {
            return y;
        }
        return y != y ? x : Math.max(x, y);
    }

    public static double fma(double x, double y, double z) {
        return Math.fma(x, y, z);
    }

    // ---- classification (C macros, int results) ----

    public static int isnan(double x) {
        return x != x ? 1 : 0;
    }

    public static int isinf(double x) {
        return Double.isInfinite(x) ? 1 : 0;
    }

    public static int isfinite(double x) {
        return Double.isFinite(x) ? 1 : 0;
    }

    public static int signbit(double x) {
        return (int) (Double.doubleToRawLongBits(x) >>> 63);
    }

    // ---- floating min / max / abs (CUDA's overloaded min, max, abs) ----

    /** Same as {@link #fmin(double, double)}. */
    public static double min(double x, double y) {
        return fmin(x, y);
    }

    /** Same as {@link #fmax(double, double)}. */
    public static double max(double x, double y) {
        return fmax(x, y);
    }

    public static double abs(double x) {
        return Math.abs(x);
    }
}
