package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertClose;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readDoubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ulpsDouble;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ulpsFloat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Bessel functions, erfcx, the norms, scalbln, nextafter, remquo, sincospi and lrint/lround of CUDA's math
 * library, called from kernels in double and float. Expected values are published (Abramowitz &amp; Stegun's
 * tables and zeros), come from identities (the Wronskians, the recurrence), from other algorithms computed
 * here (Bessel's integral by the trapezoid rule, the power series of I0 and I1 in BigDecimal, exact BigDecimal
 * quotients and square roots) or from java.lang.Math, never from the functions under test.
 */
@Timeout(120)
class KernelBesselNormRemquoEndToEndTest {
    private static final long SEED = 0xB35E1L;
    private static final MathContext MC = new MathContext(40);
    private static Device dev;
    private static KernelFunction dk;
    private static KernelFunction fk;

    private static final String BODY = """
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                T a = x[i], b = y[i], c = z[i], d = w[i];
                int order = (int) b;
                int q = 0;
                T r = 0, r2 = 0;
                switch (f) {
                    case 0: r = j0S(a); break;
                    case 1: r = j1S(a); break;
                    case 2: r = jnS(order, a); break;
                    case 3: r = y0S(a); break;
                    case 4: r = y1S(a); break;
                    case 5: r = ynS(order, a); break;
                    case 6: r = cyl_bessel_i0S(a); break;
                    case 7: r = cyl_bessel_i1S(a); break;
                    case 8: r = erfcxS(a); break;
                    case 9: r = rnorm3dS(a, b, c); break;
                    case 10: r = norm4dS(a, b, c, d); break;
                    case 11: r = rnorm4dS(a, b, c, d); break;
                    case 12: r = normS(order, x + i); r2 = rnormS(order, &x[i]); break;
                    case 13: r = scalblnS(a, (long) b); break;
                    case 14: r = nextafterS(a, b); break;
                    case 15: r = remquoS(a, b, &q); break;
                    case 16: sincospiS(a, &r, &r2); break;
                    case 17: r = (T) lrintS(a); r2 = (T) llroundS(a); q = (int) llrintS(a) + (int) lroundS(a); break;
                }
                out[i] = r;
                out2[i] = r2;
                iout[i] = q;
            }
            """;

    private static String source(String t, String suffix) {
        String head = "__global__ void k(const T* x, const T* y, const T* z, const T* w, T* out, T* out2, int* iout,"
                + " int f, int n) {\n";
        return (head + BODY).replace("T", t).replace("S(", suffix + "(");
    }

    @BeforeAll
    static void open() {
        dev = new CpuDevice();
        dk = kernel(dev, source("double", ""), "bessel.cu", "k");
        fk = kernel(dev, source("float", "f"), "besself.cu", "k");
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    private record Out(double[] r, double[] r2, int[] q) {}

    private static Out d(int f, double[] x, double[] y, double[] z, double[] w) {
        int n = x.length;
        UnifiedBuffer out = doubles(dev, new double[n]);
        UnifiedBuffer out2 = doubles(dev, new double[n]);
        UnifiedBuffer iout = ints(dev, new int[n]);
        run(dev, dk, (n + 127) / 128, 128, KernelArgs.builder().pointer(doubles(dev, x)).pointer(doubles(dev, y))
                .pointer(doubles(dev, z)).pointer(doubles(dev, w)).pointer(out).pointer(out2).pointer(iout).i32(f)
                .i32(n).build());
        return new Out(readDoubles(out, n), readDoubles(out2, n), readInts(iout, n));
    }

    private static Out d(int f, double... x) {
        return d(f, x, new double[x.length], new double[x.length], new double[x.length]);
    }

    private static Out d2(int f, double[] x, double[] y) {
        return d(f, x, y, new double[x.length], new double[x.length]);
    }

    private static float[] f32(double[] v) {
        float[] r = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = (float) v[i];
        }
        return r;
    }

    private static double[] widen(float[] v) {
        double[] r = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = v[i];
        }
        return r;
    }

    private static Out f(int f, double[] x, double[] y, double[] z, double[] w) {
        int n = x.length;
        UnifiedBuffer out = floats(dev, new float[n]);
        UnifiedBuffer out2 = floats(dev, new float[n]);
        UnifiedBuffer iout = ints(dev, new int[n]);
        run(dev, fk, (n + 127) / 128, 128, KernelArgs.builder().pointer(floats(dev, f32(x)))
                .pointer(floats(dev, f32(y))).pointer(floats(dev, f32(z))).pointer(floats(dev, f32(w)))
                .pointer(out).pointer(out2).pointer(iout).i32(f).i32(n).build());
        return new Out(widen(readFloats(out, n)), widen(readFloats(out2, n)), readInts(iout, n));
    }

    private static Out f2(int f, double[] x, double[] y) {
        return f(f, x, y, new double[x.length], new double[x.length]);
    }

    private static double[] uniform(Random r, int n, double lo, double hi) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = lo + r.nextDouble() * (hi - lo);
        }
        return v;
    }

    private static double[] filled(int n, double v) {
        double[] a = new double[n];
        Arrays.fill(a, v);
        return a;
    }

    private static String ctx(String what, double x) {
        return what + "(" + x + ") [seed " + SEED + "]";
    }

    /** Same value, including the sign of zero and NaN for NaN. */
    private static void same(double expected, double actual, String what) {
        assertEquals(Double.doubleToLongBits(expected) == Double.doubleToLongBits(0.0) ? "+0" : Double.toString(expected),
                Double.doubleToLongBits(actual) == Double.doubleToLongBits(0.0) ? "+0" : Double.toString(actual), what);
    }

    /** √(2/(πx)), the size of J and Y for large x, against which their absolute errors are measured. */
    private static double envelope(double x) {
        return Math.sqrt(2 / (Math.PI * x));
    }

    /**
     * J_n(x) = (1/2π) ∫ cos(nτ - x sin τ) dτ over a period (DLMF 10.9.2), by the trapezoid rule, which converges
     * exponentially for a periodic analytic integrand; nτ is reduced modulo 2π exactly, in integers.
     */
    private static double besselIntegral(int n, double x) {
        int m = 4 * (int) (Math.abs(x) + n) + 64;
        double s = 0;
        for (int j = 0; j < m; j++) {
            double t = 2 * Math.PI * j / m;
            double nt = 2 * Math.PI * (int) ((long) n * j % m) / m;
            s += Math.cos(nt - x * Math.sin(t));
        }
        return s / m;
    }

    /** I_n(x) = (x/2)^n Σ (x²/4)^k / (k! (n+k)!) for n = 0, 1, in 40-digit decimal arithmetic. */
    private static BigDecimal besselISeries(int n, double x) {
        BigDecimal q = new BigDecimal(x).pow(2).divide(BigDecimal.valueOf(4), MC);
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int k = 1; term.compareTo(sum.scaleByPowerOfTen(-45)) > 0; k++) {
            term = term.multiply(q, MC).divide(BigDecimal.valueOf((long) k * (n + k)), MC);
            sum = sum.add(term, MC);
        }
        return n == 0 ? sum : sum.multiply(new BigDecimal(x).divide(BigDecimal.TWO, MC), MC);
    }

    private static long ulpsFrom(BigDecimal exact, double actual) {
        return ulpsDouble(exact.doubleValue(), actual);
    }

    @Test
    void besselFunctionsMatchPublishedTables() {
        // Abramowitz & Stegun, Table 9.1 (15 decimals): J0, J1, Y0, Y1 at 1, 2, 5, 10.
        double[] x = {1, 2, 5, 10};
        double[][] table = {
            {0.765197686557967, 0.440050585744934, 0.088256964215677, -0.781212821300289},
            {0.223890779141236, 0.576724807756873, 0.510375672649745, -0.107032431540938},
            {-0.177596771314338, -0.327579137591465, -0.308517625249034, 0.147863143391227},
            {-0.245935764451348, 0.043472746168861, 0.055671167283599, 0.249015424206954}};
        int[] fn = {0, 1, 3, 4};
        String[] names = {"j0", "j1", "y0", "y1"};
        for (int k = 0; k < 4; k++) {
            Out o = d(fn[k], x);
            for (int i = 0; i < x.length; i++) {
                assertClose(table[i][k], o.r()[i], 6e-16, 1, names[k] + "(" + x[i] + ")");
            }
        }
        // Near a zero ζ the function is f'(ζ) (x - ζ) to first order: relative accuracy there, where the error of
        // a sum of large terms would show. Zeros and the derivatives at them from A&S Table 9.5.
        Object[][] zeros = {
            {0, "2.40482555769577276862163187933", "-0.519147497289466788140202640209"}, // J0' = -J1
            {1, "3.83170597020751231561443588631", "-0.402759395702552972096002186427"}, // J1' = J0 there
            {3, "0.893576966279167521584887102058", "0.879420802497194771054833877609"}}; // Y0' = -Y1
        for (Object[] z : zeros) {
            BigDecimal zeta = new BigDecimal((String) z[1]);
            double near = zeta.doubleValue();
            double slope = Double.parseDouble((String) z[2]);
            double expected = new BigDecimal(near).subtract(zeta).doubleValue() * slope;
            double actual = d((int) z[0], near).r()[0];
            assertClose(expected, actual, 1e-9, expected, "function " + z[0] + " at the double nearest its zero "
                    + z[1]);
        }
        // Special values.
        Out j0s = d(0, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN);
        double[] j0Expected = {1, 1, 0.0, 0.0, Double.NaN};
        for (int i = 0; i < j0Expected.length; i++) {
            same(j0Expected[i], j0s.r()[i], "j0 special " + i);
        }
        Out j1s = d(1, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -2.0);
        same(0.0, j1s.r()[0], "j1(+0)");
        same(-0.0, j1s.r()[1], "j1(-0)");
        same(0.0, j1s.r()[2], "j1(inf)");
        same(-0.0, j1s.r()[3], "j1(-inf)");
        same(-d(1, 2.0).r()[0], j1s.r()[4], "j1 is odd");
        Out y0s = d(3, 0.0, -1.0, Double.POSITIVE_INFINITY, Double.NaN);
        Out y1s = d(4, 0.0, -1.0, Double.POSITIVE_INFINITY, Double.MIN_VALUE);
        same(Double.NEGATIVE_INFINITY, y0s.r()[0], "y0(0)");
        same(Double.NaN, y0s.r()[1], "y0(-1)");
        same(0.0, y0s.r()[2], "y0(inf)");
        same(Double.NaN, y0s.r()[3], "y0(NaN)");
        same(Double.NEGATIVE_INFINITY, y1s.r()[0], "y1(0)");
        same(Double.NaN, y1s.r()[1], "y1(-1)");
        same(0.0, y1s.r()[2], "y1(inf)");
        same(Double.NEGATIVE_INFINITY, y1s.r()[3], "y1(smallest subnormal): -2/(πx) overflows");
        // Y1(x) ≈ -2/(πx) for tiny x, with the next terms below 2^-100 of it.
        assertClose(-2 / (Math.PI * 1e-30), d(4, 1e-30).r()[0], 3e-16, 2 / (Math.PI * 1e-30), "y1(1e-30)");
    }

    @Test
    void wronskiansHoldAcrossTheRange() {
        Random rnd = new Random(SEED);
        double[] x = new double[600];
        for (int i = 0; i < x.length; i++) {
            x[i] = i % 3 == 0 ? rnd.nextDouble() * 25 + 0.05 : i % 3 == 1 ? 25 + rnd.nextDouble() * 300
                    : Math.pow(10, rnd.nextDouble() * 5);
        }
        double[] j0 = d(0, x).r();
        double[] j1 = d(1, x).r();
        double[] y0 = d(3, x).r();
        double[] y1 = d(4, x).r();
        for (int i = 0; i < x.length; i++) {
            // J1 Y0 - J0 Y1 = 2/(πx) (DLMF 10.5.2 with n = 0).
            double expected = 2 / (Math.PI * x[i]);
            double env = envelope(x[i]);
            assertClose(expected, j1[i] * y0[i] - j0[i] * y1[i], 2e-15, env * env,
                    ctx("Wronskian J1 Y0 - J0 Y1", x[i]));
        }
        // J_{n+1} Y_n - J_n Y_{n+1} = 2/(πx) for higher orders: jn (series, recurrence or Miller) against yn.
        for (int n : new int[] {2, 5, 17}) {
            double[] xs = uniform(rnd, 200, Math.max(0.5, n / 2.0), 60);
            Out jn = d2(2, xs, filled(xs.length, n));
            Out jn1 = d2(2, xs, filled(xs.length, n + 1));
            Out yn = d2(5, xs, filled(xs.length, n));
            Out yn1 = d2(5, xs, filled(xs.length, n + 1));
            for (int i = 0; i < xs.length; i++) {
                double expected = 2 / (Math.PI * xs[i]);
                double terms = Math.abs(jn1.r()[i] * yn.r()[i]) + Math.abs(jn.r()[i] * yn1.r()[i]);
                assertClose(expected, jn1.r()[i] * yn.r()[i] - jn.r()[i] * yn1.r()[i], 4e-14, Math.max(terms, expected),
                        ctx("Wronskian of order " + n, xs[i]));
            }
        }
    }

    @Test
    void jnAgreesWithBesselsIntegralAndTheRecurrence() {
        Random rnd = new Random(SEED + 1);
        int[] orders = {0, 1, 2, 3, 7, 20, 40, 90};
        for (int n : orders) {
            double[] x = uniform(rnd, 60, -80, 80);
            Out o = d2(2, x, filled(x.length, n));
            for (int i = 0; i < x.length; i++) {
                // CUDA promises an absolute error of 5e-12 for jn; the reference is good to about 1e-15.
                double expected = besselIntegral(n, x[i]);
                assertClose(expected, o.r()[i], 1e-14, 1, ctx("jn(" + n + ", x)", x[i]));
            }
            if (n >= 1) {
                // J_{n+1} + J_{n-1} = (2n/x) J_n, each from its own call.
                Out lower = d2(2, x, filled(x.length, n - 1));
                Out upper = d2(2, x, filled(x.length, n + 1));
                for (int i = 0; i < x.length; i++) {
                    double rhs = 2.0 * n / x[i] * o.r()[i];
                    double scale = Math.abs(lower.r()[i]) + Math.abs(upper.r()[i]) + Math.abs(rhs);
                    assertClose(rhs, lower.r()[i] + upper.r()[i], 2e-14, Math.max(scale, 1e-300),
                            ctx("recurrence at order " + n, x[i]));
                }
            }
        }
        // jn(0, x) and jn(1, x) are j0 and j1; a negative order is NaN (CUDA); a huge order underflows to 0.
        double[] x = {0.3, 7.5, 30, -12};
        Out j0 = d(0, x);
        Out j1 = d(1, x);
        Out jn0 = d2(2, x, filled(4, 0));
        Out jn1 = d2(2, x, filled(4, 1));
        for (int i = 0; i < x.length; i++) {
            same(j0.r()[i], jn0.r()[i], "jn(0, " + x[i] + ")");
            same(j1.r()[i], jn1.r()[i], "jn(1, " + x[i] + ")");
        }
        Out neg = d2(2, new double[] {1, 1}, new double[] {-1, -3});
        same(Double.NaN, neg.r()[0], "jn(-1, 1)");
        same(Double.NaN, d2(5, new double[] {1}, new double[] {-2}).r()[0], "yn(-2, 1)");
        Out big = d2(2, new double[] {30, 1, Double.POSITIVE_INFINITY}, new double[] {2000, 1000, 3});
        same(0.0, big.r()[0], "jn(2000, 30) underflows");
        same(0.0, big.r()[1], "jn(1000, 1) underflows");
        same(0.0, big.r()[2], "jn(3, inf)");
        // Y_n(x) for small x behaves like -(n-1)! (2/x)^n / π, and overflows to -inf rather than NaN.
        Out ys = d2(5, new double[] {1e-3, 1e-100, 0.0}, new double[] {3, 4, 2});
        assertClose(-2 * 8e9 / Math.PI, ys.r()[0], 1e-5, 2 * 8e9 / Math.PI, "yn(3, 1e-3)");
        same(Double.NEGATIVE_INFINITY, ys.r()[1], "yn(4, 1e-100) overflows");
        same(Double.NEGATIVE_INFINITY, ys.r()[2], "yn(2, 0)");
    }

    @Test
    void modifiedBesselFunctionsAgreeWithTheirSeries() {
        Random rnd = new Random(SEED + 2);
        double[] x = new double[120];
        for (int i = 0; i < x.length; i++) {
            x[i] = i < 60 ? rnd.nextDouble() * 30 : rnd.nextDouble() * 713;
            if (i % 2 == 1) {
                x[i] = -x[i];
            }
        }
        Out i0 = d(6, x);
        Out i1 = d(7, x);
        for (int i = 0; i < x.length; i++) {
            BigDecimal e0 = besselISeries(0, Math.abs(x[i]));
            BigDecimal e1 = besselISeries(1, Math.abs(x[i]));
            // CUDA documents 6 ulp for both.
            assertTrue(ulpsFrom(e0, i0.r()[i]) <= 3, ctx("cyl_bessel_i0", x[i]) + ": " + i0.r()[i] + " vs " + e0);
            double s = x[i] < 0 ? -1 : 1;
            assertTrue(ulpsFrom(e1, s * i1.r()[i]) <= 3, ctx("cyl_bessel_i1", x[i]) + ": " + i1.r()[i] + " vs " + e1);
        }
        Out sp = d(6, 0.0, 714, Double.NEGATIVE_INFINITY, Double.NaN);
        same(1, sp.r()[0], "cyl_bessel_i0(0)");
        same(Double.POSITIVE_INFINITY, sp.r()[1], "cyl_bessel_i0(714) overflows");
        same(Double.POSITIVE_INFINITY, sp.r()[2], "cyl_bessel_i0(-inf)");
        same(Double.NaN, sp.r()[3], "cyl_bessel_i0(NaN)");
        Out sp1 = d(7, -0.0, Double.NEGATIVE_INFINITY, 1e-310);
        same(-0.0, sp1.r()[0], "cyl_bessel_i1(-0)");
        same(Double.NEGATIVE_INFINITY, sp1.r()[1], "cyl_bessel_i1(-inf)");
        same(5e-311, sp1.r()[2], "cyl_bessel_i1(1e-310) = x/2");
    }

    @Test
    void erfcxIsTheScaledComplement() {
        Random rnd = new Random(SEED + 3);
        double[] x = uniform(rnd, 300, -3, 3);
        Out o = d(8, x);
        for (int i = 0; i < x.length; i++) {
            // CUDA documents 4 ulp.
            BigDecimal expected = erfcxSeries(x[i]);
            assertTrue(ulpsFrom(expected, o.r()[i]) <= 3, ctx("erfcx", x[i]) + ": " + o.r()[i] + " vs " + expected);
        }
        // For large x, erfcx(x) = (1/(x√π)) (1 - 1/(2x²) + 3/(4x⁴) - 15/(8x⁶) + …).
        double[] big = {1e3, 3.7e4, 1e8, 1e200};
        Out ob = d(8, big);
        for (int i = 0; i < big.length; i++) {
            double u = 1 / (big[i] * big[i]);
            double expected = (1 - u / 2 + 0.75 * u * u - 1.875 * u * u * u) / (big[i] * Math.sqrt(Math.PI));
            assertClose(expected, ob.r()[i], 5e-16, expected, "erfcx(" + big[i] + ")");
        }
        Out sp = d(8, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -27, Double.NaN);
        same(1, sp.r()[0], "erfcx(0)");
        same(0.0, sp.r()[1], "erfcx(inf)");
        same(Double.POSITIVE_INFINITY, sp.r()[2], "erfcx(-inf)");
        same(Double.POSITIVE_INFINITY, sp.r()[3], "erfcx(-27) overflows");
        same(Double.NaN, sp.r()[4], "erfcx(NaN)");
    }

    /**
     * erfcx(x) = Σ_k (-x)^k / Γ(k/2 + 1) (DLMF 7.6.4 with erfcx = w(ix)), in 40-digit arithmetic for |x| &le; 3,
     * with Γ(k/2 + 1) from Γ(1) = 1, Γ(3/2) = √π/2 and Γ(z + 1) = z Γ(z).
     */
    private static BigDecimal erfcxSeries(double x) {
        BigDecimal mx = new BigDecimal(-x);
        BigDecimal sqrtPi = new BigDecimal("1.7724538509055160272981674833411451827975");
        BigDecimal[] gamma = {BigDecimal.ONE, sqrtPi.divide(BigDecimal.TWO, MC)}; // Γ(k/2 + 1) for k even, odd
        BigDecimal power = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ZERO;
        for (int k = 0; k < 200; k++) {
            if (k >= 2) {
                BigDecimal z = BigDecimal.valueOf(k).divide(BigDecimal.TWO, MC); // Γ(k/2 + 1) = (k/2) Γ(k/2)
                gamma[k & 1] = gamma[k & 1].multiply(z, MC);
            }
            sum = sum.add(power.divide(gamma[k & 1], MC), MC);
            power = power.multiply(mx, MC);
        }
        return sum;
    }

    private static BigDecimal exactNorm(double... v) {
        BigDecimal s = BigDecimal.ZERO;
        for (double a : v) {
            BigDecimal b = new BigDecimal(a);
            s = s.add(b.multiply(b));
        }
        return s.sqrt(MC);
    }

    @Test
    void normsAgreeWithExactSquareRoots() {
        Random rnd = new Random(SEED + 4);
        int n = 300;
        double[][] v = new double[4][n];
        for (int i = 0; i < n; i++) {
            int scale = rnd.nextInt(1200) - 600;
            for (int k = 0; k < 4; k++) {
                v[k][i] = (rnd.nextDouble() - 0.5) * Math.pow(2, scale + rnd.nextInt(20));
            }
        }
        Out r3 = d(9, v[0], v[1], v[2], v[3]);
        Out n4 = d(10, v[0], v[1], v[2], v[3]);
        Out r4 = d(11, v[0], v[1], v[2], v[3]);
        for (int i = 0; i < n; i++) {
            BigDecimal e3 = exactNorm(v[0][i], v[1][i], v[2][i]);
            BigDecimal e4 = exactNorm(v[0][i], v[1][i], v[2][i], v[3][i]);
            // CUDA documents 1 ulp for the reciprocals and 2 for norm4d.
            String at = " of row " + i + " [seed " + SEED + "]";
            assertTrue(ulpsFrom(BigDecimal.ONE.divide(e3, MC), r3.r()[i]) <= 1, "rnorm3d" + at);
            assertTrue(ulpsFrom(e4, n4.r()[i]) <= 1, "norm4d" + at);
            assertTrue(ulpsFrom(BigDecimal.ONE.divide(e4, MC), r4.r()[i]) <= 1, "rnorm4d" + at);
        }
        // Special values: an infinity wins over NaN; all zeros give +0 and +inf.
        Out s4 = d(10, new double[] {Double.NaN, 0.0, Double.NaN, 1e300},
                new double[] {Double.NEGATIVE_INFINITY, -0.0, 1, 1e300}, new double[] {1, 0, 2, 1e300},
                new double[] {2, -0.0, 3, 1e300});
        same(Double.POSITIVE_INFINITY, s4.r()[0], "norm4d(NaN, -inf, …)");
        same(0.0, s4.r()[1], "norm4d of zeros");
        same(Double.NaN, s4.r()[2], "norm4d(NaN, 1, 2, 3)");
        same(2e300, s4.r()[3], "norm4d without overflow");
        Out sr = d(11, new double[] {Double.NaN, 0.0}, new double[] {Double.POSITIVE_INFINITY, 0.0}, new double[2],
                new double[2]);
        same(0.0, sr.r()[0], "rnorm4d(NaN, inf, 0, 0)");
        same(Double.POSITIVE_INFINITY, sr.r()[1], "rnorm4d of zeros");

        // norm(dim, p) and rnorm(dim, p) read dim elements from p: thread i reads x[i .. i + dim).
        int len = 200;
        double[] x = new double[len];
        double[] dims = new double[len];
        for (int i = 0; i < len; i++) {
            x[i] = (rnd.nextDouble() - 0.5) * Math.pow(2, rnd.nextInt(40) - 20);
            dims[i] = rnd.nextInt(Math.min(30, len - i) + 1); // 0 … up to the end of the array
        }
        Out nm = d2(12, x, dims);
        for (int i = 0; i < len; i++) {
            int dim = (int) dims[i];
            double[] part = Arrays.copyOfRange(x, i, i + dim);
            BigDecimal e = exactNorm(part);
            if (dim == 0) {
                same(0.0, nm.r()[i], "norm(0, p)");
                same(Double.POSITIVE_INFINITY, nm.r2()[i], "rnorm(0, p)");
                continue;
            }
            assertTrue(ulpsFrom(e, nm.r()[i]) <= 1, "norm(" + dim + ", x + " + i + ") = " + nm.r()[i] + " vs " + e);
            assertTrue(ulpsFrom(BigDecimal.ONE.divide(e, MC), nm.r2()[i]) <= 1, "rnorm(" + dim + ", x + " + i + ")");
        }
        // The float forms: normf, rnormf, rnorm3df, norm4df, rnorm4df, within 1 ulp of the exact value.
        Out nf = f2(12, x, dims);
        for (int i = 0; i < len; i++) {
            int dim = (int) dims[i];
            if (dim == 0) {
                continue;
            }
            double[] part = new double[dim];
            for (int k = 0; k < dim; k++) {
                part[k] = (float) x[i + k];
            }
            BigDecimal e = exactNorm(part);
            assertTrue(ulpsFloat(e.floatValue(), (float) nf.r()[i]) <= 1, "normf(" + dim + ", x + " + i + ")");
            assertTrue(ulpsFloat(BigDecimal.ONE.divide(e, MC).floatValue(), (float) nf.r2()[i]) <= 1,
                    "rnormf(" + dim + ", x + " + i + ")");
        }
        Out f4 = f(10, new double[] {3e38, 1}, new double[] {3e38, 2}, new double[] {3e38, 2}, new double[] {3e38, 4});
        same(Double.POSITIVE_INFINITY, f4.r()[0], "norm4df(3e38 × 4) = 6e38 overflows float");
        same(5, f4.r()[1], "norm4df(1, 2, 2, 4)");
    }

    @Test
    void normReadingPastItsBufferFaults() {
        KernelFunction k = kernel(dev, "__global__ void k(const double* p, double* out, int dim) {\n"
                + "    out[0] = norm(dim, p + 2);\n}\n", "normfault.cu", "k");
        UnifiedBuffer p = doubles(dev, new double[] {1, 2, 3, 4, 5});
        UnifiedBuffer out = doubles(dev, new double[1]);
        run(dev, k, 1, 1, KernelArgs.builder().pointer(p).pointer(out).i32(3).build());
        assertClose(Math.sqrt(9 + 16 + 25), readDoubles(out, 1)[0], 3e-16, 7, "norm(3, p + 2)");
        KernelFaultException fault = assertThrows(KernelFaultException.class,
                () -> run(dev, k, 1, 1, KernelArgs.builder().pointer(p).pointer(out).i32(4).build()));
        assertTrue(fault.getMessage().contains("out-of-bounds read of 8 bytes at index 5 of argument 'p'")
                && fault.getMessage().contains("line 2"), fault.getMessage());
        KernelFaultException negative = assertThrows(KernelFaultException.class,
                () -> run(dev, k, 1, 1, KernelArgs.builder().pointer(p).pointer(out).i32(-1).build()));
        assertTrue(negative.getMessage().contains("norm was called with dim = -1"), negative.getMessage());
    }

    @Test
    void exponentStepAndRemainderFunctions() {
        Random rnd = new Random(SEED + 5);
        // scalbln against Math.scalb, with longs beyond int's range saturating.
        double[] x = {1.5, -3, 1, 1, 1, 0.75, 1, 1};
        double[] n = {10, -3, 1024, -1074, -1075, 0, 1e12, -1e12};
        Out sc = d2(13, x, n);
        for (int i = 0; i < x.length; i++) {
            double expected = Math.scalb(x[i], (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, n[i])));
            same(expected, sc.r()[i], "scalbln(" + x[i] + ", " + (long) n[i] + ")");
        }
        Out scf = f2(13, new double[] {1, 1, 3}, new double[] {128, -149, 1e12});
        same(Double.POSITIVE_INFINITY, scf.r()[0], "scalblnf(1, 128)");
        same(Float.MIN_VALUE, scf.r()[1], "scalblnf(1, -149)");
        same(Double.POSITIVE_INFINITY, scf.r()[2], "scalblnf(3, 1e12)");

        // nextafter against Math.nextAfter (C and Java agree: y when x == y, NaN when either is NaN).
        double[] a = new double[300];
        double[] b = new double[300];
        for (int i = 0; i < a.length; i++) {
            a[i] = (rnd.nextDouble() - 0.5) * Math.pow(2, rnd.nextInt(2000) - 1000);
            b[i] = i % 5 == 0 ? a[i] : (rnd.nextDouble() - 0.5) * Math.pow(2, rnd.nextInt(2000) - 1000);
        }
        Out na = d2(14, a, b);
        for (int i = 0; i < a.length; i++) {
            same(Math.nextAfter(a[i], b[i]), na.r()[i], "nextafter(" + a[i] + ", " + b[i] + ")");
        }
        Out nas = d2(14, new double[] {0.0, 0.0, -0.0, 1, Double.MAX_VALUE, Double.NaN, 1},
                new double[] {1, -0.0, 1, 2, Double.POSITIVE_INFINITY, 1, Double.NaN});
        double[] nasExpected = {Double.MIN_VALUE, -0.0, Double.MIN_VALUE, Math.nextUp(1.0), Double.POSITIVE_INFINITY,
            Double.NaN, Double.NaN};
        for (int i = 0; i < nasExpected.length; i++) {
            same(nasExpected[i], nas.r()[i], "nextafter special " + i);
        }
        Out naf = f2(14, new double[] {1, 0, 3}, new double[] {2, -1, 3});
        same(Math.nextUp(1f), naf.r()[0], "nextafterf(1, 2)");
        same(-Float.MIN_VALUE, naf.r()[1], "nextafterf(0, -1)");
        same(3, naf.r()[2], "nextafterf(3, 3)");

        // remquo: the exact remainder and the quotient's sign and low bits, against exact decimal arithmetic.
        double[] rx = new double[400];
        double[] ry = new double[400];
        for (int i = 0; i < rx.length; i++) {
            rx[i] = i < 100 ? rnd.nextInt(2001) - 1000 : (rnd.nextDouble() - 0.5) * Math.pow(2, rnd.nextInt(200) - 40);
            ry[i] = i < 100 ? rnd.nextInt(40) - 20 + 0.5 : (rnd.nextDouble() - 0.5) * Math.pow(2, rnd.nextInt(80) - 40);
        }
        rx[0] = 1e300;
        ry[0] = 3e-200;
        Out rq = d2(15, rx, ry);
        for (int i = 0; i < rx.length; i++) {
            BigDecimal bx = new BigDecimal(rx[i]);
            BigDecimal by = new BigDecimal(ry[i]);
            BigDecimal quotient = bx.divide(by, 0, RoundingMode.HALF_EVEN); // x/y rounded, ties to even
            BigDecimal remainder = bx.subtract(quotient.multiply(by));
            String what = "remquo(" + rx[i] + ", " + ry[i] + ")";
            assertEquals(0, remainder.compareTo(new BigDecimal(rq.r()[i])), what + " remainder " + rq.r()[i]);
            int bits = quotient.abs().toBigInteger().intValue() & 0x7fff_ffff;
            int sign = (rx[i] < 0) != (ry[i] < 0) ? -1 : 1;
            assertEquals(sign * bits, rq.q()[i], what + " quotient (exact " + quotient + ")");
            assertEquals(quotient.abs().toBigInteger().intValue() & 7, Math.abs(rq.q()[i]) & 7, what + " low 3 bits");
        }
        Out rqs = d2(15, new double[] {5, 7, -7, 1, Double.POSITIVE_INFINITY, 3},
                new double[] {2, 2, 2, 0, 1, Double.POSITIVE_INFINITY});
        double[] remExpected = {1, -1, 1, Double.NaN, Double.NaN, 3};
        int[] quoExpected = {2, 4, -4, 0, 0, 0};
        for (int i = 0; i < remExpected.length; i++) {
            same(remExpected[i], rqs.r()[i], "remquo special remainder " + i);
            assertEquals(quoExpected[i], rqs.q()[i], "remquo special quotient " + i);
        }
        Out rqf = f2(15, new double[] {7.5, 10, -9}, new double[] {2, 4, 2});
        same(-0.5, rqf.r()[0], "remquof(7.5, 2)");
        assertEquals(4, rqf.q()[0], "remquof(7.5, 2) quotient");
        same(2, rqf.r()[1], "remquof(10, 4): 2.5 rounds to 2");
        assertEquals(2, rqf.q()[1], "remquof(10, 4) quotient");
        same(-1, rqf.r()[2], "remquof(-9, 2)");
        assertEquals(-4, rqf.q()[2], "remquof(-9, 2) quotient");
    }

    @Test
    void sincospiAndIntegerRounding() {
        // Exact at the integers and half-integers, where sin(Math.PI * x) is not.
        double[] sp = {0.5, -0.5, 1, -0.0, 2.5, 1e17, Double.POSITIVE_INFINITY};
        double[] sinExpected = {1, -1, 0.0, -0.0, 1, 0.0, Double.NaN};
        double[] cosExpected = {0.0, 0.0, -1, 1, 0.0, 1, Double.NaN};
        Out s = d(16, sp);
        Out sf = f(16, sp, new double[sp.length], new double[sp.length], new double[sp.length]);
        for (int i = 0; i < sp.length; i++) {
            same(sinExpected[i], s.r()[i], "sincospi(" + sp[i] + ") sine");
            same(cosExpected[i], s.r2()[i], "sincospi(" + sp[i] + ") cosine");
            same(sinExpected[i], sf.r()[i], "sincospif(" + sp[i] + ") sine");
            same(cosExpected[i], sf.r2()[i], "sincospif(" + sp[i] + ") cosine");
        }
        Random rnd = new Random(SEED + 6);
        double[] x = uniform(rnd, 300, -10, 10);
        Out r = d(16, x);
        for (int i = 0; i < x.length; i++) {
            // π x is rounded (relative 1.1e-16), which moves sin(π x) by at most about 4e-15 for |x| <= 10.
            assertClose(Math.sin(Math.PI * x[i]), r.r()[i], 1e-14, 1, ctx("sincospi sine", x[i]));
            assertClose(Math.cos(Math.PI * x[i]), r.r2()[i], 1e-14, 1, ctx("sincospi cosine", x[i]));
        }

        // lrint rounds ties to even, lround away from zero; both saturate (NaN gives 0), as the GPU's cvt does.
        double[] v = {2.5, 3.5, -2.5, -0.4, 1e10, Double.NaN, 1e30};
        Out o = d(17, v);
        double[] rintExpected = {2, 4, -2, 0, 1e10, 0, Long.MAX_VALUE};
        double[] roundExpected = {3, 4, -3, 0, 1e10, 0, Long.MAX_VALUE};
        for (int i = 0; i < v.length; i++) {
            assertEquals(rintExpected[i], o.r()[i], 0.0, "lrint(" + v[i] + ")");
            assertEquals(roundExpected[i], o.r2()[i], 0.0, "llround(" + v[i] + ")");
        }
        assertEquals(2 + 3, o.q()[0], "llrint(2.5) + lround(2.5)");
        Out of = f(17, new double[] {-1.5, 0.5}, new double[2], new double[2], new double[2]);
        assertEquals(-2, of.r()[0], 0.0, "lrintf(-1.5)");
        assertEquals(-2, of.r2()[0], 0.0, "llroundf(-1.5)");
        assertEquals(0, of.r()[1], 0.0, "lrintf(0.5)");
        assertEquals(1, of.r2()[1], 0.0, "llroundf(0.5)");
    }

    /** Each float form is the double function of the same float input, rounded once: within 1 ulp of it. */
    @Test
    void floatFormsRoundTheDoubleResult() {
        Random rnd = new Random(SEED + 7);
        int[] fns = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        double[][] ranges = {{-40, 40}, {-40, 40}, {-40, 40}, {0.01, 40}, {0.01, 40}, {0.5, 40}, {-80, 80},
            {-80, 80}, {-9, 30}};
        for (int k = 0; k < fns.length; k++) {
            double[] x = uniform(rnd, 200, ranges[k][0], ranges[k][1]);
            double[] order = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) x[i];
                order[i] = rnd.nextInt(6);
            }
            Out fo = f2(fns[k], x, order);
            Out dd = d2(fns[k], x, order);
            for (int i = 0; i < x.length; i++) {
                float expected = (float) dd.r()[i];
                assertTrue(ulpsFloat(expected, (float) fo.r()[i]) <= 1, "function " + fns[k] + " at " + x[i]
                        + ": float form " + fo.r()[i] + ", double form rounded " + expected + " [seed " + SEED + "]");
            }
        }
        same(Double.POSITIVE_INFINITY, f(6, 100).r()[0], "cyl_bessel_i0f(100) overflows float");
        same(Double.NEGATIVE_INFINITY, f(3, 0).r()[0], "y0f(0)");
    }

    private static Out f(int fn, double... x) {
        return f(fn, x, new double[x.length], new double[x.length], new double[x.length]);
    }

    @Test
    void libdeviceNamesAndDeclarationsResolveToTheBuiltins() {
        KernelFunction k = kernel(dev, """
                extern "C" __device__ double __nv_j0(double);
                extern "C" __device__ float __nv_cospif(float);
                __global__ void k(double* out, float* outf, const double* v) {
                    out[0] = __nv_j0(2.0);
                    out[1] = __nv_jn(3, 2.0);
                    out[2] = __nv_norm(3, v);
                    out[3] = __nv_fast_expf(1.0f);
                    outf[0] = __nv_cospif(1.0f);
                    outf[1] = __nv_j0f(2.0f);
                }
                """, "nv.cu", "k");
        UnifiedBuffer out = doubles(dev, new double[4]);
        UnifiedBuffer outf = floats(dev, new float[2]);
        run(dev, k, 1, 1, KernelArgs.builder().pointer(out).pointer(outf)
                .pointer(doubles(dev, new double[] {2, 3, 6})).build());
        double[] o = readDoubles(out, 4);
        float[] of = readFloats(outf, 2);
        assertClose(0.223890779141236, o[0], 6e-16, 1, "__nv_j0(2) (A&S)");
        assertClose(besselIntegral(3, 2), o[1], 3e-15, 1, "__nv_jn(3, 2)");
        same(7, o[2], "__nv_norm(3, {2, 3, 6})");
        assertClose(Math.E, o[3], 3e-7, Math.E, "__nv_fast_expf(1)");
        same(-1, of[0], "__nv_cospif(1)");
        assertClose(0.223890779141236, of[1], 1e-7, 1, "__nv_j0f(2)");
    }
}
