package dev.polygpu.device.cpu.kernel.rt;

/**
 * Double-precision functions that {@code java.lang.Math} lacks, for {@link CudaMath}: the inverse hyperbolic
 * functions, {@code sinpi}/{@code cospi}, the gamma function and its logarithm, and the inverse error
 * functions.
 *
 * <p>Methods. asinh/acosh/atanh use the usual {@code log1p} forms that keep relative accuracy near their zeros.
 * sinpi/cospi reduce x exactly to r = x - n/2 with |r| &le; 1/4 before calling sin or cos of πr, so integers
 * and half-integers give exact zeros and ones. tgamma uses Stirling's series from 10 up and the recurrence
 * Γ(z) = Γ(z + k) / (z (z+1) … (z+k-1)) below, with the rounding errors of the recurrence tracked exactly, and
 * the reflection Γ(x) Γ(-x) = -π / (x sin πx) for x &le; -1/2 (measured: a few ulp). lgamma is the logarithm
 * of that, Stirling's series for log Γ from 10 up, and the Taylor series of log Γ(1 + e) around 1 and 2 so that
 * it keeps relative accuracy near its zeros there (near the zeros of lgamma below -2 it is accurate in absolute
 * terms only, as CUDA's is). erfinv/erfcinv start from Giles' single-precision approximation
 * (M. Giles, "Approximating the erfinv function", 2010), or from the asymptotic form of erfc for arguments
 * below its range, and refine it with Halley steps against {@link ErrorFunction}'s erf or erfc, whichever
 * keeps relative accuracy; the result is within a few ulp of the true inverse.
 *
 * <p>Stateless and thread-safe.
 */
final class SpecialFunctions {
    private static final double LN2 = 0.6931471805599453;
    /** ln 2 as a sum whose first part has 11 trailing zero bits, so that e · LN2_HI is exact for any exponent e. */
    private static final double LN2_HI = 0x1.62e42feep-1;
    private static final double LN2_LO = 0x1.a39ef35793c76p-33;
    private static final double LN_SQRT_2PI = 0.9189385332046728;
    private static final double SQRT_2PI = 2.5066282746310002;
    private static final double TWO_OVER_SQRT_PI = 1.1283791670955126;
    private static final double SQRT_PI = 1.772453850905516;
    /** Beyond this tgamma overflows a double. */
    private static final double GAMMA_OVERFLOW = 171.62437695630272;
    /** From here up Stirling's series is used: the Lanczos form loses a few ulp to its power and exponential. */
    private static final double STIRLING_FROM = 10;

    private SpecialFunctions() {
    }

    // ---- inverse hyperbolic functions ----

    static double asinh(double x) {
        double a = Math.abs(x);
        if (!(a < 0x1p28)) {
            return Double.isFinite(a) ? Math.copySign(Math.log(a) + LN2, x) : x;
        }
        if (a < 0x1p-28) {
            return x; // asinh(x) = x - x³/6 …, and keeps the sign of zero
        }
        double r;
        if (a > 2) {
            r = Math.log(2 * a + 1 / (Math.sqrt(a * a + 1) + a));
        } else {
            double t = a * a;
            r = Math.log1p(a + t / (1 + Math.sqrt(1 + t)));
        }
        return Math.copySign(r, x);
    }

    static double acosh(double x) {
        if (Double.isNaN(x) || x < 1) {
            return Double.NaN;
        }
        if (x >= 0x1p28) {
            return Double.isInfinite(x) ? x : Math.log(x) + LN2;
        }
        if (x > 2) {
            return Math.log(2 * x - 1 / (x + Math.sqrt(x * x - 1)));
        }
        double t = x - 1; // exact for x in [1, 2]
        return Math.log1p(t + Math.sqrt(2 * t + t * t));
    }

    static double atanh(double x) {
        double a = Math.abs(x);
        if (!(a <= 1)) {
            return Double.NaN;
        }
        if (a < 0x1p-28) {
            return x;
        }
        double r = a < 0.5 ? 0.5 * Math.log1p(2 * a + 2 * a * a / (1 - a)) : 0.5 * Math.log1p(2 * a / (1 - a));
        return Math.copySign(r, x); // ±inf at ±1 (log1p(inf))
    }

    // ---- sinpi, cospi ----

    static double sinpi(double x) {
        if (!Double.isFinite(x)) {
            return Double.NaN;
        }
        if (Math.abs(x) >= 0x1p52) {
            return Math.copySign(0.0, x); // every such double is an integer
        }
        double n = Math.rint(2 * x); // 2x is exact
        double r = x - 0.5 * n; // exact, |r| <= 1/4
        double v = switch ((int) ((long) n & 3)) {
            case 0 -> Math.sin(Math.PI * r);
            case 1 -> Math.cos(Math.PI * r);
            case 2 -> -Math.sin(Math.PI * r);
            default -> -Math.cos(Math.PI * r);
        };
        return v == 0 ? Math.copySign(0.0, x) : v; // sinpi(±n) = ±0
    }

    static double cospi(double x) {
        if (!Double.isFinite(x)) {
            return Double.NaN;
        }
        if (Math.abs(x) >= 0x1p53) {
            return 1.0; // even integers
        }
        double n = Math.rint(2 * x);
        double r = x - 0.5 * n;
        double v = switch ((int) ((long) n & 3)) {
            case 0 -> Math.cos(Math.PI * r);
            case 1 -> -Math.sin(Math.PI * r);
            case 2 -> -Math.cos(Math.PI * r);
            default -> Math.sin(Math.PI * r);
        };
        return v == 0 ? 0.0 : v; // cospi(n + 1/2) = +0
    }

    // ---- gamma ----

    /** Stirling's series for log Γ(z) - ((z - 1/2) log z - z + log √(2π)), z &ge; 10 (error below 1e-17). */
    private static double stirlingCorrection(double z) {
        double r = 1 / z;
        double r2 = r * r;
        double s = 1.0 / 156;
        s = -691.0 / 360360 + s * r2;
        s = 1.0 / 1188 + s * r2;
        s = -1.0 / 1680 + s * r2;
        s = 1.0 / 1260 + s * r2;
        s = -1.0 / 360 + s * r2;
        s = 1.0 / 12 + s * r2;
        return s * r;
    }

    /** Γ(z) for z &ge; 10 by Stirling's series; the power is taken in two halves so that it does not overflow. */
    private static double stirlingGamma(double z) {
        if (z > GAMMA_OVERFLOW) {
            return Double.POSITIVE_INFINITY;
        }
        double h = Math.pow(z, 0.5 * (z - 0.5));
        return SQRT_2PI * h * (h * Math.exp(-z)) * Math.exp(stirlingCorrection(z));
    }

    /**
     * Γ(z) for z &gt; -1/2, z not 0: Stirling's series at z &ge; 10, else Γ(z + k) / (z (z+1) … (z+k-1)) with
     * z + k &ge; 10. The rounding errors of the sums z + j and of the product are tracked exactly (two-sum and
     * FMA) and put back to first order, so the recurrence adds about one rounding to Stirling's few ulp.
     */
    private static double gammaPositive(double z) {
        if (z >= STIRLING_FROM) {
            return stirlingGamma(z);
        }
        double p = 1;
        double rel = 0; // relative error of p as computed: p = exact product * (1 - rel)
        double t = z;
        double te = 0; // t + te = z + j exactly
        for (int j = 0; t < STIRLING_FROM; j++) {
            double np = p * t;
            rel += Math.fma(p, t, -np) / np + te / t;
            p = np;
            double sum = z + (j + 1);
            double b = sum - z;
            te = (z - (sum - b)) + ((j + 1) - b);
            t = sum;
        }
        // Γ(t + te) ≈ Γ(t) (1 + ψ(t) te), with ψ(t) ≈ log t - 1/(2t) for t >= 10.
        double g = stirlingGamma(t) * (1 + (Math.log(t) - 0.5 / t) * te);
        return g / p * (1 - rel);
    }

    /** ζ(k) for k = 0 … 40 (entries 0 and 1 unused), for the series of lgamma near 1 and 2. */
    private static final double[] ZETA = new double[41];
    /** Euler's constant γ. */
    private static final double EULER_GAMMA = 0.5772156649015329;

    static {
        double pi2 = Math.PI * Math.PI;
        ZETA[2] = pi2 / 6;
        ZETA[3] = 1.2020569031595943;
        ZETA[4] = pi2 * pi2 / 90;
        ZETA[5] = 1.03692775514337;
        ZETA[6] = pi2 * pi2 * pi2 / 945;
        ZETA[7] = 1.0083492773819228;
        ZETA[8] = pi2 * pi2 * pi2 * pi2 / 9450;
        ZETA[9] = 1.0020083928260821;
        ZETA[10] = pi2 * pi2 * pi2 * pi2 * pi2 / 93555;
        for (int k = 11; k < ZETA.length; k++) {
            double s = 0; // the terms fall below 60^-11 ≈ 3e-20, so 60 of them suffice
            for (int n = 60; n >= 1; n--) {
                s += Math.pow(n, -k);
            }
            ZETA[k] = s;
        }
    }

    /** log Γ(1 + e) for |e| &le; 1/4 by its Taylor series -γe + Σ (-1)^k ζ(k) e^k / k: relative accuracy near 0. */
    private static double lgamma1p(double e) {
        double s = 0;
        for (int k = ZETA.length - 1; k >= 2; k--) {
            s = s * e + ((k & 1) == 0 ? 1 : -1) * ZETA[k] / k;
        }
        return e * (-EULER_GAMMA + e * s);
    }

    /** log Γ(z) for z &ge; 1/2. */
    private static double lgammaPositive(double z) {
        if (z >= STIRLING_FROM) {
            return (z - 0.5) * Math.log(z) - z + (LN_SQRT_2PI + stirlingCorrection(z));
        }
        if (Math.abs(z - 1) <= 0.25) {
            return lgamma1p(z - 1); // z - 1 exact
        }
        if (Math.abs(z - 2) <= 0.25) {
            double e = z - 2; // exact; Γ(2 + e) = (1 + e) Γ(1 + e)
            return Math.log1p(e) + lgamma1p(e);
        }
        return Math.log(gammaPositive(z));
    }

    static double tgamma(double x) {
        if (x == 0) {
            return 1 / x; // ±inf
        }
        if (!(x > Double.NEGATIVE_INFINITY)) {
            return Double.NaN; // NaN, -inf
        }
        if (x >= 0.5) {
            return gammaPositive(x);
        }
        if (x > -0.5) {
            return gammaPositive(x);
        }
        if (x == Math.rint(x)) {
            return Double.NaN; // poles at the negative integers
        }
        double s = sinpi(x);
        if (-x > 170) {
            // Γ(-x) alone would overflow though the quotient is a (subnormal or zero) double.
            double mag = Math.exp(Math.log(Math.PI / Math.abs(x * s)) - lgammaPositive(-x));
            return Math.copySign(mag, -(x * s));
        }
        return -Math.PI / (x * s * gammaPositive(-x));
    }

    static double lgamma(double x) {
        if (Double.isNaN(x)) {
            return x;
        }
        if (Double.isInfinite(x) || x == 0) {
            return Double.POSITIVE_INFINITY;
        }
        if (x == 1 || x == 2) {
            return 0.0;
        }
        if (x >= 0.5) {
            return lgammaPositive(x);
        }
        if (x > -0.5) {
            return Math.log(Math.abs(gammaPositive(x)));
        }
        if (x == Math.rint(x)) {
            return Double.POSITIVE_INFINITY; // poles
        }
        return Math.log(Math.PI / Math.abs(x * sinpi(x))) - lgammaPositive(-x);
    }

    // ---- inverse error functions ----

    /** Giles' single-precision erfinv as a function of w = -log((1 - x)(1 + x)), times x. */
    private static double gilesFactor(double w) {
        double p;
        if (w < 5) {
            w -= 2.5;
            p = 2.81022636e-08;
            p = 3.43273939e-07 + p * w;
            p = -3.5233877e-06 + p * w;
            p = -4.39150654e-06 + p * w;
            p = 0.00021858087 + p * w;
            p = -0.00125372503 + p * w;
            p = -0.00417768164 + p * w;
            p = 0.246640727 + p * w;
            p = 1.50140941 + p * w;
        } else {
            w = Math.sqrt(w) - 3;
            p = -0.000200214257;
            p = 0.000100950558 + p * w;
            p = 0.00134934322 + p * w;
            p = -0.00367342844 + p * w;
            p = 0.00573950773 + p * w;
            p = -0.0076224613 + p * w;
            p = 0.00943887047 + p * w;
            p = 1.00167406 + p * w;
            p = 2.83297682 + p * w;
        }
        return p;
    }

    /** erfcinv(q) for 0 &lt; q &le; 1 (a result &ge; 0). */
    private static double erfcinvSmall(double q) {
        double w = -Math.log(q * (2 - q));
        if (w >= 16) {
            return erfcinvTail(q);
        }
        double r = gilesFactor(w) * (1 - q);
        // Halley on f(r) = erfc(r) - q: f' = -2/√π e^(-r²), f'' = -2 r f', so the step is f / (f' + r f).
        for (int i = 0; i < 8; i++) {
            double f = ErrorFunction.erfc(r) - q;
            double d = -TWO_OVER_SQRT_PI * Math.exp(-r * r);
            double step = f / (d + r * f);
            if (!Double.isFinite(step)) {
                break;
            }
            r -= step;
            if (Math.abs(step) <= 0x1p-52 * Math.abs(r)) {
                break;
            }
        }
        return r;
    }

    /**
     * erfcinv(q) for q below about 1e-7 (results above 3.7), down to the smallest subnormal. erfc(r) and
     * e^(-r²) are subnormal or zero near the end of that range, so the equation is solved in logarithms:
     * g(r) = log(erfcx(r)) - r² - log(q) = 0, where erfcx(r) = e^(r²) erfc(r) has no underflow, by Newton steps
     * (g'(r) = -2 / (√π erfcx(r))). log(q) is split into e·ln2 + log(m) for q = m·2^e, and r² into its rounded
     * value and rounding error, so that g keeps the few ulp its residual needs.
     */
    private static double erfcinvTail(double q) {
        int e = Math.getExponent(q);
        if (e < Double.MIN_EXPONENT) {
            e = Math.getExponent(q * 0x1p54) - 54;
        }
        double logM = Math.log(Math.scalb(q, -e));
        // erfc(r) ~ e^(-r²) / (r √π): start from r² = -log(q) - log(r √π) by fixed-point steps.
        double l = -(e * LN2_HI + e * LN2_LO + logM);
        double r = Math.sqrt(l);
        for (int i = 0; i < 3; i++) {
            r = Math.sqrt(l - Math.log(r * SQRT_PI));
        }
        for (int i = 0; i < 8; i++) {
            double sq = r * r;
            double sqErr = Math.fma(r, r, -sq);
            double x = ErrorFunction.erfcx(r);
            double g = (-e * LN2_HI - sq) - sqErr - e * LN2_LO - logM + Math.log(x);
            double step = g * SQRT_PI * x / 2;
            r += step;
            if (Math.abs(step) <= 0x1p-53 * r) {
                break;
            }
        }
        return r;
    }

    static double erfinv(double x) {
        double a = Math.abs(x);
        if (!(a <= 1)) {
            return Double.NaN;
        }
        if (a == 1) {
            return Math.copySign(Double.POSITIVE_INFINITY, x);
        }
        if (a >= 0.5) {
            return Math.copySign(erfcinvSmall(1 - a), x); // 1 - a is exact here
        }
        if (a < 0x1p-60) {
            return x / TWO_OVER_SQRT_PI; // erf(x) = 2x/√π to double precision; keeps the sign of zero
        }
        double r = gilesFactor(-Math.log((1 - a) * (1 + a))) * a;
        // Halley on f(r) = erf(r) - a: f' = 2/√π e^(-r²), f'' = -2 r f'.
        for (int i = 0; i < 6; i++) {
            double f = ErrorFunction.erf(r) - a;
            double d = TWO_OVER_SQRT_PI * Math.exp(-r * r);
            double step = f / (d + r * f);
            r -= step;
            if (Math.abs(step) <= 0x1p-52 * Math.abs(r)) {
                break;
            }
        }
        return Math.copySign(r, x);
    }

    static double erfcinv(double y) {
        if (!(y >= 0 && y <= 2)) {
            return Double.NaN;
        }
        if (y == 0) {
            return Double.POSITIVE_INFINITY;
        }
        if (y == 2) {
            return Double.NEGATIVE_INFINITY;
        }
        if (y > 0.5 && y < 1.5) {
            // erfc(r) = 1 - erf(r); 1 - y is exact here, and erf keeps the relative accuracy of small results
            return erfinv(1 - y);
        }
        if (y > 1) {
            return -erfcinvSmall(2 - y); // exact: erfc(-r) = 2 - erfc(r)
        }
        return erfcinvSmall(y);
    }
}
