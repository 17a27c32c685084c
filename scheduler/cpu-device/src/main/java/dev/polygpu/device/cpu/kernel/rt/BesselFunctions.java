package dev.polygpu.device.cpu.kernel.rt;

/**
 * The Bessel functions of CUDA's math library in double precision: J0, J1, Jn, Y0, Y1, Yn of the first and
 * second kind and the modified I0, I1 ({@code cyl_bessel_i0}, {@code cyl_bessel_i1}).
 *
 * <p>Methods (Abramowitz &amp; Stegun ch. 9, DLMF §10.8, §10.17, §10.25, §10.40).
 * <ul>
 *   <li>|x| &le; 25: the power series J_n(x) = (x/2)^n Σ (-x²/4)^k / (k! (n+k)!), and for Y0 and Y1 the series
 *       that add (2/π) log(x/2) J(x) to sums with harmonic-number weights. The terms grow to about I0(x) before
 *       they fall, so the sums (and the logarithm) are taken in {@link DoubleDouble} arithmetic: about 106 bits
 *       absorb the cancellation (I0(25) ≈ 6e9), and the result is correctly rounded or nearly so, with its
 *       relative accuracy kept even close to the zeros of J0, J1, Jn, Y0 and Y1.</li>
 *   <li>|x| &gt; 25: Hankel's asymptotic expansion J = √(2/(πx)) (P cos χ - Q sin χ),
 *       Y = √(2/(πx)) (P sin χ + Q cos χ), χ = x - (2ν+1)π/4, with P and Q summed until their terms stop
 *       falling (the smallest term is below e^-50); cos χ and sin χ come from Math.cos and Math.sin of x itself
 *       (χ's shift is a rotation by a multiple of π/4), so no precision is lost to reducing x - π/4. The error
 *       is a few ulp of the envelope √(2/(πx)); near a zero of the function it is that much in absolute terms.</li>
 *   <li>Jn for n &ge; 2: the series for |x| &le; 25; for larger |x| the recurrence J_{k+1} = (2k/x) J_k - J_{k-1}
 *       forward from J0 and J1 while k &lt; |x| (where it is stable), and Miller's backward recurrence from far
 *       above max(n, |x|), normalised by 1 = J0 + 2 (J2 + J4 + …), for n &ge; |x|.</li>
 *   <li>Yn: the forward recurrence from Y0 and Y1, stable for every x (Y grows with the order).</li>
 *   <li>I0, I1: the (positive) power series in double-double for |x| &le; 20, else the asymptotic expansion
 *       e^x / √(2πx) Σ …, with e^x taken as 2^k e^r (r = x - k log 2 reduced in double-double) so that
 *       I0 does not overflow before 713.98.</li>
 * </ul>
 * Special values follow CUDA: J0(±inf) = +0, J1(±0) = ±0, Jn and Yn are NaN for n &lt; 0, Y of 0 is -inf and
 * of x &lt; 0 NaN, I0(±inf) = +inf.
 *
 * <p>Stateless and thread-safe.
 */
final class BesselFunctions {
    /** Below this |x| the power series (in double-double) is used for J and Y, above it Hankel's expansion. */
    private static final double SERIES_LIMIT = 25;
    /** The same split for I0 and I1. */
    private static final double I_SERIES_LIMIT = 20;
    private static final DoubleDouble TWO_OVER_PI = new DoubleDouble(0.6366197723675814, -3.935735335036497e-17);
    private static final DoubleDouble EULER_GAMMA = new DoubleDouble(0.5772156649015329, -4.942915152430645e-18);
    private static final double INV_SQRT_PI = 0.5641895835477563;
    private static final double TWO_PI = 2 * Math.PI;
    private static final double LN2 = 0.6931471805599453;
    /** log 2 - LN2. */
    private static final double LN2_LO = 2.3190468138462996e-17;
    /** Enough terms for every series here: past its peak each term falls by at least (x/2)² / k². */
    private static final int MAX_TERMS = 300;
    /** A series stops once its term is this small relative to its sum (2^-110). */
    private static final double SERIES_TOLERANCE = 0x1p-110;

    private BesselFunctions() {
    }

    // ---- J ----

    static double j0(double x) {
        double a = Math.abs(x);
        if (Double.isNaN(a)) {
            return a;
        }
        if (a <= SERIES_LIMIT) {
            return seriesJ(0, a).value();
        }
        return hankel(0, a, true);
    }

    static double j1(double x) {
        double a = Math.abs(x);
        if (Double.isNaN(a)) {
            return a;
        }
        double r = a <= SERIES_LIMIT ? seriesJ(1, a).value() : hankel(1, a, true);
        return x < 0 || x == 0 && 1 / x < 0 ? -r : r; // odd; j1(±0) = ±0, j1(±inf) = ±0
    }

    static double jn(int n, double x) {
        if (n < 0 || Double.isNaN(x)) {
            return Double.NaN;
        }
        if (n == 0) {
            return j0(x);
        }
        if (n == 1) {
            return j1(x);
        }
        double a = Math.abs(x);
        double r;
        if (a <= SERIES_LIMIT) {
            r = seriesJ(n, a).value();
        } else if (a == Double.POSITIVE_INFINITY) {
            r = 0;
        } else if (n < a) {
            r = forward(n, a, hankel(0, a, true), hankel(1, a, true));
        } else if (n * (Math.log(0.5 * a / n) + 1) < -750) {
            r = 0; // |J_n(x)| <= (x/2)^n / n! < (ex / 2n)^n, below the smallest subnormal
        } else {
            r = miller(n, a);
        }
        return (n & 1) != 0 && (x < 0 || x == 0 && 1 / x < 0) ? -r : r;
    }

    /**
     * Σ (-x²/4)^k / (k! (n+k)!) times (x/2)^n, x &ge; 0, in double-double. The prefix (x/2)^n / n! is applied
     * last, one factor at a time, so that a large order underflows only if the result does.
     */
    private static DoubleDouble seriesJ(int n, double x) {
        DoubleDouble minusQ = DoubleDouble.square(x).multiply(-0.25);
        DoubleDouble term = DoubleDouble.ONE;
        DoubleDouble sum = DoubleDouble.ONE;
        for (int k = 1; k < MAX_TERMS; k++) {
            term = term.multiply(minusQ).divide((double) k * ((double) n + k));
            sum = sum.add(term);
            if (Math.abs(term.hi()) <= SERIES_TOLERANCE * Math.abs(sum.hi()) || term.hi() == 0) {
                break;
            }
        }
        double half = 0.5 * x;
        for (int i = 1; i <= n && sum.hi() != 0; i++) {
            sum = sum.multiply(half).divide(i);
        }
        return sum;
    }

    /** J_n from J_0 and J_1 by the forward recurrence, for n &lt; x. */
    private static double forward(int n, double x, double f0, double f1) {
        double prev = f0;
        double cur = f1;
        for (int k = 1; k < n; k++) {
            double next = (2.0 * k / x) * cur - prev;
            prev = cur;
            cur = next;
            if (Double.isInfinite(cur)) {
                break; // Y_n overflowing (-inf); going on would give inf - inf
            }
        }
        return cur;
    }

    /**
     * J_n(x) for n &ge; x &gt; 25 by Miller's algorithm: the backward recurrence from an order where J is
     * negligible, started from 0 and a tiny value, normalised by J0 + 2 Σ J_2k = 1. Values are scaled down
     * when they grow large, which the normalisation undoes.
     */
    private static double miller(int n, double x) {
        double top = Math.max(n, x);
        int start = (int) (top + 20 + Math.sqrt(50 * top));
        start += start & 1; // even, so that the normalisation sum pairs up
        double next = 0; // J_{k+1}
        double cur = 0x1p-100; // J_k, for k = start
        double sum = 0; // 2 Σ J_2k over the even orders seen so far (J_0 counted once at the end)
        double result = 0;
        for (int k = start; k > 0; k--) {
            if ((k & 1) == 0) {
                sum += 2 * cur;
            }
            if (k == n) {
                result = cur;
            }
            double prev = (2.0 * k / x) * cur - next; // J_{k-1}
            next = cur;
            cur = prev;
            if (Math.abs(cur) > 0x1p500) {
                cur *= 0x1p-500;
                next *= 0x1p-500;
                sum *= 0x1p-500;
                result *= 0x1p-500;
            }
        }
        sum += cur; // J_0
        return result / sum;
    }

    // ---- Y ----

    static double y0(double x) {
        if (!(x > 0)) {
            return x == 0 ? Double.NEGATIVE_INFINITY : Double.NaN;
        }
        if (x <= SERIES_LIMIT) {
            return seriesY0(x);
        }
        return x == Double.POSITIVE_INFINITY ? 0.0 : hankel(0, x, false);
    }

    static double y1(double x) {
        if (!(x > 0)) {
            return x == 0 ? Double.NEGATIVE_INFINITY : Double.NaN;
        }
        if (x < 0x1p-60) {
            return -TWO_OVER_PI.hi() / x; // -2/(πx); the other terms are below 2^-100 of it
        }
        if (x <= SERIES_LIMIT) {
            return seriesY1(x);
        }
        return x == Double.POSITIVE_INFINITY ? 0.0 : hankel(1, x, false);
    }

    static double yn(int n, double x) {
        if (n < 0) {
            return Double.NaN;
        }
        if (n == 0) {
            return y0(x);
        }
        if (n == 1) {
            return y1(x);
        }
        if (!(x > 0)) {
            return x == 0 ? Double.NEGATIVE_INFINITY : Double.NaN;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        return forward(n, x, y0(x), y1(x));
    }

    /** Both sums of a Y series have converged: their last terms are negligible against them. */
    private static boolean converged(DoubleDouble term, DoubleDouble sumJ, DoubleDouble weighted,
            DoubleDouble sumH) {
        return term.hi() == 0 || Math.abs(weighted.hi()) <= SERIES_TOLERANCE * Math.abs(sumH.hi())
                && Math.abs(term.hi()) <= SERIES_TOLERANCE * Math.abs(sumJ.hi());
    }

    /** log(x/2) + γ in double-double. */
    private static DoubleDouble logHalfPlusGamma(double x) {
        return EULER_GAMMA.add(DoubleDouble.log(x)).add(new DoubleDouble(-LN2, -LN2_LO));
    }

    /**
     * Y0(x) = (2/π) [(log(x/2) + γ) J0(x) - Σ_{k&ge;1} H_k (-x²/4)^k / (k!)²], H_k = 1 + 1/2 + … + 1/k
     * (A&amp;S 9.1.13).
     */
    private static double seriesY0(double x) {
        DoubleDouble minusQ = DoubleDouble.square(x).multiply(-0.25);
        DoubleDouble term = DoubleDouble.ONE;
        DoubleDouble sumJ = DoubleDouble.ONE;
        DoubleDouble sumH = DoubleDouble.ZERO;
        DoubleDouble harmonic = DoubleDouble.ZERO;
        for (int k = 1; k < MAX_TERMS; k++) {
            term = term.multiply(minusQ).divide((double) k * k);
            harmonic = harmonic.add(DoubleDouble.reciprocal(k));
            DoubleDouble weighted = term.multiply(harmonic);
            sumJ = sumJ.add(term);
            sumH = sumH.add(weighted);
            if (converged(term, sumJ, weighted, sumH)) {
                break;
            }
        }
        return TWO_OVER_PI.multiply(logHalfPlusGamma(x).multiply(sumJ).add(sumH.negate())).value();
    }

    /**
     * Y1(x) = (2/π) [(x/2) ((log(x/2) + γ) S - ½ Σ_{k&ge;0} (H_k + H_{k+1}) U_k) - 1/x] with
     * U_k = (-x²/4)^k / (k! (k+1)!) and S = Σ U_k (so that J1 = (x/2) S) (A&amp;S 9.1.11 with n = 1).
     */
    private static double seriesY1(double x) {
        DoubleDouble minusQ = DoubleDouble.square(x).multiply(-0.25);
        DoubleDouble term = DoubleDouble.ONE; // U_0
        DoubleDouble sumJ = DoubleDouble.ONE;
        DoubleDouble harmonic = DoubleDouble.ZERO; // H_k
        DoubleDouble harmonicNext = DoubleDouble.ONE; // H_{k+1}
        DoubleDouble sumH = DoubleDouble.ONE; // (H_0 + H_1) U_0
        for (int k = 1; k < MAX_TERMS; k++) {
            term = term.multiply(minusQ).divide((double) k * (k + 1));
            harmonic = harmonicNext;
            harmonicNext = harmonicNext.add(DoubleDouble.reciprocal(k + 1));
            DoubleDouble weighted = term.multiply(harmonic.add(harmonicNext));
            sumJ = sumJ.add(term);
            sumH = sumH.add(weighted);
            if (converged(term, sumJ, weighted, sumH)) {
                break;
            }
        }
        DoubleDouble inner = logHalfPlusGamma(x).multiply(sumJ).add(sumH.multiply(-0.5)).multiply(0.5 * x);
        return TWO_OVER_PI.multiply(inner.add(DoubleDouble.reciprocal(x).negate())).value();
    }

    // ---- large x ----

    /**
     * Hankel's expansion of J_ν (first) or Y_ν for ν = 0, 1 and x &gt; 25 (finite or infinite). With
     * c = cos x, s = sin x: for ν = 0, √2 cos χ = c + s and √2 sin χ = s - c; for ν = 1, √2 cos χ = s - c
     * and √2 sin χ = -(s + c).
     */
    private static double hankel(int nu, double x, boolean first) {
        if (x == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        double mu = 4.0 * nu * nu;
        // a_k / x^k with a_k = (μ - 1)(μ - 9)…(μ - (2k-1)²) / (k! 8^k); P takes the even k with alternating
        // signs, Q the odd ones.
        double p = 0; // P - 1: the corrections are summed apart from the leading 1, so that they do not round
        double q = 0;
        double t = 1;
        double last = Double.POSITIVE_INFINITY;
        for (int k = 1; k < MAX_TERMS; k++) {
            double odd = 2 * k - 1;
            t *= (mu - odd * odd) / (8.0 * k * x);
            double mag = Math.abs(t);
            if (mag >= last || mag < 0x1p-60) {
                break; // the expansion has reached its smallest term, or the sum is converged
            }
            last = mag;
            switch (k & 3) {
                case 1 -> q += t;
                case 2 -> p -= t;
                case 3 -> q -= t;
                default -> p += t;
            }
        }
        double c = Math.cos(x);
        double s = Math.sin(x);
        double cosChi = nu == 0 ? c + s : s - c; // times √2
        double sinChi = nu == 0 ? s - c : -(s + c);
        p += 1;
        double v = first ? p * cosChi - q * sinChi : p * sinChi + q * cosChi;
        return v * INV_SQRT_PI / Math.sqrt(x);
    }

    // ---- I ----

    static double i0(double x) {
        double a = Math.abs(x);
        if (Double.isNaN(a)) {
            return a;
        }
        if (a <= I_SERIES_LIMIT) {
            return seriesI(0, a).value();
        }
        return asymptoticI(0, a);
    }

    static double i1(double x) {
        double a = Math.abs(x);
        if (Double.isNaN(a)) {
            return a;
        }
        double r = a <= I_SERIES_LIMIT ? seriesI(1, a).multiply(0.5 * a).value() : asymptoticI(1, a);
        return Math.copySign(r, x);
    }

    /** Σ (x²/4)^k / (k! (n+k)!) for n = 0, 1 (every term positive). */
    private static DoubleDouble seriesI(int n, double x) {
        DoubleDouble q = DoubleDouble.square(x).multiply(0.25);
        DoubleDouble term = DoubleDouble.ONE;
        DoubleDouble sum = DoubleDouble.ONE;
        for (int k = 1; k < MAX_TERMS; k++) {
            term = term.multiply(q).divide((double) k * (n + k));
            sum = sum.add(term);
            if (term.hi() <= SERIES_TOLERANCE * sum.hi()) {
                break;
            }
        }
        return sum;
    }

    /**
     * I_ν(x) ~ e^x / √(2πx) Σ (-1)^k a_k(ν) / x^k for x &gt; 20 (DLMF 10.40.1), a_k as in {@link #hankel}. The
     * neglected part is of relative size e^-2x.
     */
    private static double asymptoticI(int nu, double x) {
        if (x == Double.POSITIVE_INFINITY) {
            return x;
        }
        double mu = 4.0 * nu * nu;
        double sum = 0; // the terms after the leading 1, summed apart so that they do not round at 1's scale
        double t = 1;
        for (int k = 1; k < MAX_TERMS; k++) {
            double odd = 2 * k - 1;
            t *= -(mu - odd * odd) / (8.0 * k * x);
            sum += t;
            if (Math.abs(t) < 0x1p-60) {
                break;
            }
        }
        sum += 1;
        // e^x = 2^k e^r with r = x - k log 2 reduced in double-double, so that only Math.exp(r) rounds, and the
        // power of two applied last: I0 is finite up to x ≈ 713.99, beyond where e^x overflows.
        double k = Math.rint(x / LN2);
        double r = Math.fma(-k, LN2, x) - k * LN2_LO;
        return Math.scalb(Math.exp(r) * (sum / Math.sqrt(TWO_PI * x)), (int) Math.min(k, 4096));
    }
}
