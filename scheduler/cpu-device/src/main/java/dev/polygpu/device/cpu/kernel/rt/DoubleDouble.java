package dev.polygpu.device.cpu.kernel.rt;

/**
 * An unevaluated sum {@code hi + lo} of two doubles with |lo| &le; ulp(hi)/2: about 106 bits of precision, for
 * the series of {@link BesselFunctions} that cancel heavily and for the norms of {@link Norms}. The operations
 * are the classic error-free transformations (Knuth's two-sum, the FMA two-product) with one renormalisation
 * each; their relative error is a few units of 2^-104.
 *
 * <p>Immutable and thread-safe; the JIT scalar-replaces the short-lived instances of a loop.
 */
record DoubleDouble(double hi, double lo) {
    static final DoubleDouble ONE = new DoubleDouble(1, 0);
    static final DoubleDouble ZERO = new DoubleDouble(0, 0);

    static DoubleDouble of(double a) {
        return new DoubleDouble(a, 0);
    }

    /** x² exactly (barring underflow of the low part). */
    static DoubleDouble square(double x) {
        double p = x * x;
        return new DoubleDouble(p, Math.fma(x, x, -p));
    }

    /** 1/d to double-double precision. */
    static DoubleDouble reciprocal(double d) {
        double q = 1 / d;
        return new DoubleDouble(q, Math.fma(-q, d, 1) / d).normalized();
    }

    /** a + b where |a| &ge; |b| or a is zero. */
    private static DoubleDouble quickSum(double a, double b) {
        double s = a + b;
        return new DoubleDouble(s, b - (s - a));
    }

    private DoubleDouble normalized() {
        return quickSum(hi, lo);
    }

    DoubleDouble add(DoubleDouble b) {
        double s = hi + b.hi;
        double v = s - hi;
        double e = (hi - (s - v)) + (b.hi - v);
        return quickSum(s, e + lo + b.lo);
    }

    DoubleDouble add(double b) {
        return add(of(b));
    }

    DoubleDouble negate() {
        return new DoubleDouble(-hi, -lo);
    }

    DoubleDouble multiply(DoubleDouble b) {
        double p = hi * b.hi;
        double e = Math.fma(hi, b.hi, -p) + (hi * b.lo + lo * b.hi);
        return quickSum(p, e);
    }

    DoubleDouble multiply(double b) {
        double p = hi * b;
        return quickSum(p, Math.fma(hi, b, -p) + lo * b);
    }

    DoubleDouble divide(double d) {
        double q = hi / d;
        double r = Math.fma(-q, d, hi) + lo;
        return quickSum(q, r / d);
    }

    DoubleDouble divide(DoubleDouble d) {
        double q = hi / d.hi;
        DoubleDouble r = add(d.multiply(-q));
        return quickSum(q, r.hi / d.hi);
    }

    /**
     * The natural logarithm of a positive finite double to double-double precision: x = m 2^e with m in
     * [0.75, 1.5), log m = 2 atanh(s) with s = (m - 1)/(m + 1), |s| &le; 1/5, summed as an odd series.
     */
    static DoubleDouble log(double x) {
        int e = Math.getExponent(x);
        if (e < Double.MIN_EXPONENT) {
            e = Math.getExponent(x * 0x1p64) - 64; // subnormal
        }
        double m = Math.scalb(x, -e);
        if (m >= 1.5) {
            m *= 0.5;
            e++;
        }
        DoubleDouble s = of(m - 1).divide(of(m).add(1)); // m - 1 is exact
        DoubleDouble s2 = s.multiply(s);
        DoubleDouble power = s;
        DoubleDouble sum = s;
        for (int k = 3; k < 80; k += 2) {
            power = power.multiply(s2);
            DoubleDouble term = power.divide(k);
            sum = sum.add(term);
            if (Math.abs(term.hi) <= 0x1p-110 * Math.abs(sum.hi)) {
                break;
            }
        }
        return LN2.multiply(e).add(sum.multiply(2));
    }

    private static final DoubleDouble LN2 = new DoubleDouble(0.6931471805599453, 2.3190468138462996e-17);

    /** The nearest double (to within the tiny error of the representation). */
    double value() {
        return hi + lo;
    }
}
