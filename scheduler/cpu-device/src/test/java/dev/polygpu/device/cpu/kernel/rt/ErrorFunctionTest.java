package dev.polygpu.device.cpu.kernel.rt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * erf and erfc against references computed here at 70 significant digits by other methods: the Taylor series
 * of erf (for |x| &lt;= 6, where 1 - erf still has 40 good digits) and the Laplace continued fraction of erfc
 * (for x &gt;= 3); the two agree where they overlap. Bounds: erf within 2 ulp, erfc within 3 ulp of the
 * correctly rounded double (measured: see the assertion messages), the float overloads within 1 ulp.
 */
@Tag("slow")
class ErrorFunctionTest {
    private static final long SEED = 0xe7f_2718L;
    private static final int ERF_ULPS = 2;
    private static final int ERFC_ULPS = 3;
    private static final MathContext MC = new MathContext(70);
    private static final BigDecimal PI = new BigDecimal(
            "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534");
    private static final BigDecimal TWO_OVER_SQRT_PI = BigDecimal.TWO.divide(PI.sqrt(MC), MC);
    private static final BigDecimal TINY = new BigDecimal("1e-75");

    /** 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)), summed until the terms are negligible. */
    static BigDecimal erfSeries(double xd) {
        BigDecimal x = new BigDecimal(xd, MC);
        BigDecimal x2 = x.multiply(x, MC);
        BigDecimal power = x; // x^(2n+1) / n!
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal tolerance = x.abs().multiply(TINY);
        for (int n = 0; ; n++) {
            BigDecimal term = power.divide(BigDecimal.valueOf(2L * n + 1), MC);
            sum = n % 2 == 0 ? sum.add(term, MC) : sum.subtract(term, MC);
            if (n > x2.doubleValue() && term.abs().compareTo(tolerance) < 0) {
                return sum.multiply(TWO_OVER_SQRT_PI, MC);
            }
            power = power.multiply(x2, MC).divide(BigDecimal.valueOf(n + 1), MC);
        }
    }

    /** e^(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))) with the given depth, x &gt; 0. */
    static BigDecimal erfcContinuedFraction(double xd, int depth) {
        BigDecimal x = new BigDecimal(xd, MC);
        BigDecimal t = x;
        for (int k = depth; k >= 1; k--) {
            t = x.add(BigDecimal.valueOf(k).divide(BigDecimal.TWO).divide(t, MC), MC);
        }
        BigDecimal e = BigDecimal.ONE.divide(exp(x.multiply(x, MC)), MC);
        return e.multiply(TWO_OVER_SQRT_PI, MC).divide(t.multiply(BigDecimal.TWO), MC);
    }

    /** e^y for y &gt;= 0: the Taylor series at y / 2^k &lt; 1/2, squared k times. */
    static BigDecimal exp(BigDecimal y) {
        int k = 0;
        BigDecimal r = y;
        while (r.compareTo(new BigDecimal("0.5")) > 0) {
            r = r.divide(BigDecimal.TWO, MC);
            k++;
        }
        BigDecimal sum = BigDecimal.ONE;
        BigDecimal term = BigDecimal.ONE;
        for (int n = 1; term.compareTo(TINY) > 0; n++) {
            term = term.multiply(r, MC).divide(BigDecimal.valueOf(n), MC);
            sum = sum.add(term, MC);
        }
        for (int i = 0; i < k; i++) {
            sum = sum.multiply(sum, MC);
        }
        return sum;
    }

    private static BigDecimal erfcSeries(double x) {
        return BigDecimal.ONE.subtract(erfSeries(x), MC);
    }

    @Test
    void referencesAgreeWhereTheyOverlap() {
        for (double x = 3.0; x <= 6.0; x += 0.125) {
            BigDecimal series = erfcSeries(x);
            BigDecimal fraction = erfcContinuedFraction(x, 1500);
            BigDecimal deeper = erfcContinuedFraction(x, 3000);
            double seriesVsFraction = series.subtract(fraction).divide(series, MC).abs().doubleValue();
            double depthChange = fraction.subtract(deeper).divide(deeper, MC).abs().doubleValue();
            String where = " at x=" + x;
            assertTrue(seriesVsFraction < 1e-30, "series and continued fraction differ by " + seriesVsFraction + where);
            assertTrue(depthChange < 1e-30, "continued fraction not converged: " + depthChange + where);
        }
    }

    @Test
    void erfWithinBoundOfTaylorSeries() {
        Random random = new Random(SEED);
        for (int i = 0; i < 1500; i++) {
            double x = i % 4 == 0
                    ? Math.copySign(Math.pow(10, -300 * random.nextDouble()), random.nextDouble() - 0.5)
                    : (random.nextDouble() - 0.5) * 12;
            double expected = erfSeries(x).doubleValue();
            long ulps = Ulps.between(expected, CudaMath.erf(x));
            assertTrue(ulps <= ERF_ULPS, "erf(" + x + ") off by " + ulps + " ulp (seed " + SEED + ")");
            float fx = (float) x;
            if (Math.abs(fx) >= Float.MIN_NORMAL) {
                float fexpected = erfSeries(fx).floatValue();
                assertTrue(Ulps.between(fexpected, CudaMathFloat.erf(fx)) <= 1, "erff(" + fx + ") (seed " + SEED + ")");
            }
        }
    }

    @Test
    void erfcWithinBoundOfTaylorSeries() {
        Random random = new Random(SEED + 1);
        for (int i = 0; i < 1500; i++) {
            double x = -6 + 11 * random.nextDouble();
            double expected = erfcSeries(x).doubleValue();
            long ulps = Ulps.between(expected, CudaMath.erfc(x));
            assertTrue(ulps <= ERFC_ULPS, "erfc(" + x + ") off by " + ulps + " ulp (seed " + (SEED + 1) + ")");
            float fx = (float) x;
            float fexpected = erfcSeries(fx).floatValue();
            assertTrue(Ulps.between(fexpected, CudaMathFloat.erfc(fx)) <= 1, "erfcf(" + fx + ") (seed " + (SEED + 1) + ")");
        }
    }

    @Test
    void erfcWithinBoundOfContinuedFractionUpToUnderflow() {
        Random random = new Random(SEED + 2);
        for (int i = 0; i < 400; i++) {
            double x = 3 + 24.3 * random.nextDouble();
            double expected = erfcContinuedFraction(x, 1500).doubleValue();
            // for subnormal results the distance in ulps is an absolute error in units of Double.MIN_VALUE
            long ulps = Ulps.between(expected, CudaMath.erfc(x));
            assertTrue(ulps <= ERFC_ULPS, "erfc(" + x + ") = " + CudaMath.erfc(x) + ", expected " + expected
                    + ", off by " + ulps + " ulp (seed " + (SEED + 2) + ")");
        }
    }

    @ParameterizedTest(name = "erf({0}) = {1}")
    @CsvSource({
        "0.5, 0.5204998778130465",
        "1.0, 0.8427007929497149",
        "2.0, 0.9953222650189527",
        "-1.0, -0.8427007929497149",
    })
    void erfPublishedValues(double x, double expected) {
        assertTrue(Ulps.between(expected, CudaMath.erf(x)) <= 1, () -> "erf(" + x + ") = " + CudaMath.erf(x));
    }

    @ParameterizedTest(name = "erfc({0}) = {1}")
    @CsvSource({
        "3.0, 2.209049699858544e-05",
        "5.0, 1.5374597944280349e-12",
        "10.0, 2.088487583762545e-45",
        "26.0, 5.663192408856143e-296",
    })
    void erfcPublishedValues(double x, double expected) {
        assertTrue(Ulps.between(expected, CudaMath.erfc(x)) <= 2, () -> "erfc(" + x + ") = " + CudaMath.erfc(x));
    }
}
