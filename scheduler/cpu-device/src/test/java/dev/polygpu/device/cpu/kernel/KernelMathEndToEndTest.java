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
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ulpsFloat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.rt.CudaMath;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The CUDA math functions beyond the elementary ones (inverse hyperbolic, sinpi/cospi, gamma, inverse error
 * functions, exponent manipulation, remainder, norms) called from kernels, in double and float. Expected values
 * come from independent formulas, identities (erf(erfinv(x)) = x, Γ(n) = (n-1)!, the reflection formula) and
 * published constants, never from the functions under test.
 */
@Timeout(60)
class KernelMathEndToEndTest {
    private static final long SEED = 0x3A7FL;
    private static final double SQRT_PI = Math.sqrt(Math.PI);
    private static Device dev;
    private static KernelFunction dk;
    private static KernelFunction fk;

    private static final String BODY = """
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                T a = x[i], b = y[i], c = z[i];
                int e = 0;
                T ip = 0, r = 0;
                switch (f) {
                    case 0: r = asinhS(a); break;
                    case 1: r = acoshS(a); break;
                    case 2: r = atanhS(a); break;
                    case 3: r = sinpiS(a); break;
                    case 4: r = cospiS(a); break;
                    case 5: r = tgammaS(a); break;
                    case 6: r = lgammaS(a); break;
                    case 7: r = erfinvS(a); break;
                    case 8: r = erfcinvS(a); break;
                    case 9: r = normcdfS(a); break;
                    case 10: r = normcdfinvS(a); break;
                    case 11: r = frexpS(a, &e); break;
                    case 12: r = modfS(a, &ip); break;
                    case 13: r = ldexpS(a, (int) b); break;
                    case 14: r = scalbnS(a, (int) b); break;
                    case 15: r = logbS(a); e = ilogbS(a); break;
                    case 16: r = remainderS(a, b); break;
                    case 17: r = fdimS(a, b); break;
                    case 18: r = rcbrtS(a); break;
                    case 19: r = rhypotS(a, b); break;
                    case 20: r = norm3dS(a, b, c); break;
                }
                out[i] = r;
                part[i] = ip;
                iout[i] = e;
            }
            """;

    private static String source(String t, String suffix) {
        String head = "__global__ void k(const T* x, const T* y, const T* z, T* out, T* part, int* iout, int f, int n) {\n";
        return (head + BODY).replace("T", t).replace("S(", suffix + "(");
    }

    @BeforeAll
    static void open() {
        dev = new CpuDevice();
        dk = kernel(dev, source("double", ""), "math.cu", "k");
        fk = kernel(dev, source("float", "f"), "mathf.cu", "k");
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    private record Out(double[] r, double[] part, int[] e) {}

    private static Out d(int f, double[] x, double[] y, double[] z) {
        int n = x.length;
        UnifiedBuffer out = doubles(dev, new double[n]);
        UnifiedBuffer part = doubles(dev, new double[n]);
        UnifiedBuffer iout = ints(dev, new int[n]);
        run(dev, dk, (n + 127) / 128, 128, KernelArgs.builder().pointer(doubles(dev, x)).pointer(doubles(dev, y))
                .pointer(doubles(dev, z)).pointer(out).pointer(part).pointer(iout).i32(f).i32(n).build());
        return new Out(readDoubles(out, n), readDoubles(part, n), readInts(iout, n));
    }

    private static Out d(int f, double... x) {
        return d(f, x, new double[x.length], new double[x.length]);
    }

    private static Out d2(int f, double[] x, double[] y) {
        return d(f, x, y, new double[x.length]);
    }

    private static float[] f32(double[] v) {
        float[] r = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = (float) v[i];
        }
        return r;
    }

    private static Out f(int f, double[] x, double[] y, double[] z) {
        int n = x.length;
        UnifiedBuffer out = floats(dev, new float[n]);
        UnifiedBuffer part = floats(dev, new float[n]);
        UnifiedBuffer iout = ints(dev, new int[n]);
        run(dev, fk, (n + 127) / 128, 128, KernelArgs.builder().pointer(floats(dev, f32(x)))
                .pointer(floats(dev, f32(y))).pointer(floats(dev, f32(z))).pointer(out).pointer(part).pointer(iout)
                .i32(f).i32(n).build());
        float[] r = readFloats(out, n);
        float[] p = readFloats(part, n);
        double[] rd = new double[n];
        double[] pd = new double[n];
        for (int i = 0; i < n; i++) {
            rd[i] = r[i];
            pd[i] = p[i];
        }
        return new Out(rd, pd, readInts(iout, n));
    }

    private static Out f(int f, double... x) {
        return f(f, x, new double[x.length], new double[x.length]);
    }

    private static double[] uniform(Random r, int n, double lo, double hi) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = lo + r.nextDouble() * (hi - lo);
        }
        return v;
    }

    private static String ctx(String what, double x) {
        return what + "(" + x + ") [seed " + SEED + "]";
    }

    /** Same value, including the sign of zero and NaN for NaN. */
    private static void same(double expected, double actual, String what) {
        assertEquals(Double.doubleToLongBits(expected) == Double.doubleToLongBits(0.0) ? "+0" : Double.toString(expected),
                Double.doubleToLongBits(actual) == Double.doubleToLongBits(0.0) ? "+0" : Double.toString(actual), what);
    }

    @Test
    void inverseHyperbolicFunctions() {
        Random rnd = new Random(SEED);
        double[] x = uniform(rnd, 300, 0.5, 30);
        Out as = d(0, x);
        double[] xc = uniform(rnd, 300, 1.5, 1000);
        Out ac = d(1, xc);
        double[] xt = uniform(rnd, 300, 0.3, 0.95);
        Out at = d(2, xt);
        for (int i = 0; i < x.length; i++) {
            double s = i % 2 == 0 ? 1 : -1;
            assertClose(Math.log(x[i] + Math.sqrt(x[i] * x[i] + 1)), as.r()[i], 1e-14, as.r()[i], ctx("asinh", x[i]));
            assertClose(Math.log(xc[i] + Math.sqrt(xc[i] * xc[i] - 1)), ac.r()[i], 1e-14, ac.r()[i], ctx("acosh", xc[i]));
            assertClose(0.5 * Math.log((1 + xt[i]) / (1 - xt[i])), at.r()[i], 1e-14, at.r()[i], ctx("atanh", xt[i]));
        }
        // Odd functions, their behaviour near zero and their special values.
        Out asS = d(0, -2.0, -0.0, 1e-300, Double.POSITIVE_INFINITY, Double.NaN);
        assertEquals(-d(0, 2.0).r()[0], asS.r()[0], "asinh is odd");
        same(-0.0, asS.r()[1], "asinh(-0)");
        same(1e-300, asS.r()[2], "asinh(1e-300)");
        same(Double.POSITIVE_INFINITY, asS.r()[3], "asinh(inf)");
        same(Double.NaN, asS.r()[4], "asinh(NaN)");
        Out acS = d(1, 1.0, 0.5, Double.POSITIVE_INFINITY);
        same(0.0, acS.r()[0], "acosh(1)");
        same(Double.NaN, acS.r()[1], "acosh(0.5)");
        same(Double.POSITIVE_INFINITY, acS.r()[2], "acosh(inf)");
        Out atS = d(2, 1.0, -1.0, 2.0, -0.0, 1e-20);
        same(Double.POSITIVE_INFINITY, atS.r()[0], "atanh(1)");
        same(Double.NEGATIVE_INFINITY, atS.r()[1], "atanh(-1)");
        same(Double.NaN, atS.r()[2], "atanh(2)");
        same(-0.0, atS.r()[3], "atanh(-0)");
        same(1e-20, atS.r()[4], "atanh(1e-20)");
    }

    @Test
    void sinpiAndCospi() {
        Random rnd = new Random(SEED + 1);
        double[] x = uniform(rnd, 500, -10, 10);
        Out s = d(3, x);
        Out c = d(4, x);
        for (int i = 0; i < x.length; i++) {
            // π x is rounded (relative 1.1e-16), which moves sin(π x) by at most about 4e-15 for |x| <= 10.
            assertClose(Math.sin(Math.PI * x[i]), s.r()[i], 1e-14, 1, ctx("sinpi", x[i]));
            assertClose(Math.cos(Math.PI * x[i]), c.r()[i], 1e-14, 1, ctx("cospi", x[i]));
        }
        // Exact at integers and half-integers, where sin(Math.PI * x) is not.
        double[] sp = {3, -3, 0.5, -1.5, 2.5, 1e20, -0.0, Double.POSITIVE_INFINITY, Double.NaN};
        double[] sinExpected = {0.0, -0.0, 1, 1, 1, 0.0, -0.0, Double.NaN, Double.NaN};
        double[] cosExpected = {-1, -1, 0.0, 0.0, 0.0, 1, 1, Double.NaN, Double.NaN};
        Out ss = d(3, sp);
        Out cs = d(4, sp);
        for (int i = 0; i < sp.length; i++) {
            same(sinExpected[i], ss.r()[i], "sinpi(" + sp[i] + ")");
            same(cosExpected[i], cs.r()[i], "cospi(" + sp[i] + ")");
        }
        assertClose(0.5, d(3, 1.0 / 6).r()[0], 3e-16, 1, "sinpi(1/6)");
    }

    @Test
    void gammaAndLogGamma() {
        // Γ(n) = (n-1)!, exact in a long up to 20!.
        double[] n = new double[21];
        long fact = 1;
        double[] facts = new double[21];
        for (int k = 1; k <= 21; k++) {
            n[k - 1] = k;
            facts[k - 1] = fact; // (k-1)!
            fact *= k;
        }
        Out tg = d(5, n);
        for (int k = 0; k < n.length; k++) {
            assertClose(facts[k], tg.r()[k], 3e-15, facts[k], ctx("tgamma", n[k]));
        }
        // log Γ(n) = Σ log k for k < n, up to far beyond where Γ overflows.
        double[] ln = new double[300];
        double[] sums = new double[300];
        double sum = 0;
        for (int k = 1; k <= 300; k++) {
            ln[k - 1] = k;
            sums[k - 1] = sum;
            sum += Math.log(k);
        }
        Out lg = d(6, ln);
        for (int k = 0; k < ln.length; k++) {
            assertClose(sums[k], lg.r()[k], 1e-14, Math.max(1, sums[k]), ctx("lgamma", ln[k]));
        }
        // Published values: Γ(1/2) = √π, Γ(3/2) = √π/2, Γ(-1/2) = -2√π, Γ(-3/2) = 4√π/3.
        Out half = d(5, 0.5, 1.5, -0.5, -1.5);
        assertClose(SQRT_PI, half.r()[0], 3e-16, SQRT_PI, "tgamma(0.5)");
        assertClose(SQRT_PI / 2, half.r()[1], 3e-16, SQRT_PI, "tgamma(1.5)");
        assertClose(-2 * SQRT_PI, half.r()[2], 5e-16, 2 * SQRT_PI, "tgamma(-0.5)");
        assertClose(4 * SQRT_PI / 3, half.r()[3], 5e-16, 4 * SQRT_PI / 3, "tgamma(-1.5)");
        assertClose(Math.log(SQRT_PI), d(6, 0.5).r()[0], 3e-16, 1, "lgamma(0.5)");
        assertClose(Math.log(2 * SQRT_PI), d(6, -0.5).r()[0], 3e-16, 1, "lgamma(-0.5)");
        // The recurrence Γ(x + 1) = x Γ(x) and the reflection Γ(x) Γ(1 - x) = π / sin(πx), over random x.
        Random rnd = new Random(SEED + 2);
        double[] x = uniform(rnd, 400, -20, 30);
        double[] x1 = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            x1[i] = x[i] + 1;
            x[i] = x1[i] - 1; // so that x + 1 is exact
        }
        Out g = d(5, x);
        Out g1 = d(5, x1);
        Out lgx = d(6, x);
        for (int i = 0; i < x.length; i++) {
            assertClose(x[i] * g.r()[i], g1.r()[i], 2e-14, g1.r()[i], ctx("tgamma(x+1) vs x tgamma", x[i]));
            // lgamma agrees with log |tgamma| where tgamma does not overflow (absolute error, as lgamma has zeros).
            assertClose(Math.log(Math.abs(g.r()[i])), lgx.r()[i], 1e-14, Math.max(1, Math.abs(lgx.r()[i])),
                    ctx("lgamma vs log|tgamma|", x[i]));
        }
        double[] u = uniform(rnd, 200, 0.01, 0.99);
        double[] u1 = new double[u.length];
        for (int i = 0; i < u.length; i++) {
            u1[i] = 1 - u[i];
        }
        Out gu = d(5, u);
        Out gu1 = d(5, u1);
        for (int i = 0; i < u.length; i++) {
            double expected = Math.PI / Math.sin(Math.PI * u[i]);
            assertClose(expected, gu.r()[i] * gu1.r()[i], 1e-14, expected, ctx("reflection", u[i]));
        }
        // Relative accuracy near the zeros of lgamma at 1 and 2: log Γ(1 + e) = -γ e + ζ(2) e²/2 - …, and
        // log Γ(2 + e) = (1 - γ) e + (ζ(2) - 1) e²/2 - (ζ(3) - 1) e³/3 + … (the next terms are below 1e-27 here).
        double gamma = 0.5772156649015329;
        double zeta2 = Math.PI * Math.PI / 6;
        double zeta3 = 1.2020569031595943; // Apéry's constant
        for (double e : new double[] {1e-10, -3e-9, 2.5e-7}) {
            Out near = d(6, 1 + e, 2 + e);
            double e1 = (1 + e) - 1;
            double e2 = (2 + e) - 2;
            double l1 = -gamma * e1 + zeta2 * e1 * e1 / 2 - zeta3 * e1 * e1 * e1 / 3;
            double l2 = (1 - gamma) * e2 + (zeta2 - 1) * e2 * e2 / 2 - (zeta3 - 1) * e2 * e2 * e2 / 3;
            assertClose(l1, near.r()[0], 1e-14, e1, "lgamma(1 + " + e1 + ")");
            assertClose(l2, near.r()[1], 1e-14, e2, "lgamma(2 + " + e2 + ")");
        }
        // Special values.
        Out sp = d(5, 0.0, -0.0, -2.0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 172, Double.NaN);
        double[] tgExpected = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, Double.NaN,
            Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN};
        for (int i = 0; i < tgExpected.length; i++) {
            same(tgExpected[i], sp.r()[i], "tgamma special value " + i);
        }
        Out lsp = d(6, 1.0, 2.0, 0.0, -3.0, Double.NEGATIVE_INFINITY, Double.NaN);
        double[] lgExpected = {0.0, 0.0, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.NaN};
        for (int i = 0; i < lgExpected.length; i++) {
            same(lgExpected[i], lsp.r()[i], "lgamma special value " + i);
        }
    }

    @Test
    void inverseErrorFunctionsAndNormalDistribution() {
        Random rnd = new Random(SEED + 3);
        double[] x = uniform(rnd, 500, -1, 1);
        Out ei = d(7, x);
        for (int i = 0; i < x.length; i++) {
            double back = CudaMath.erf(ei.r()[i]);
            assertTrue(Math.abs(back - x[i]) <= 4 * Math.ulp(x[i]), ctx("erf(erfinv)", x[i]) + " = " + back);
        }
        // erfcinv(erfc(r)) = r where erfc does not lose r (r >= -2), down to erfc(26) ≈ 5.7e-296.
        double[] r = uniform(rnd, 500, -2, 26);
        double[] y = new double[r.length];
        for (int i = 0; i < r.length; i++) {
            y[i] = CudaMath.erfc(r[i]);
        }
        Out eci = d(8, y);
        for (int i = 0; i < r.length; i++) {
            assertClose(r[i], eci.r()[i], 1e-13, Math.abs(r[i]) + 1e-2, ctx("erfcinv(erfc)", r[i]));
        }
        // Deep in the tail: erfc(erfcinv(y)) = y to within erfc's slope there (relative 2 r ulp(r)).
        Out tail = d(8, 1e-300, 1e-100, 1e-20);
        assertClose(1e-300, CudaMath.erfc(tail.r()[0]), 1e-12, 1e-300, "erfc(erfcinv(1e-300))");
        assertClose(1e-100, CudaMath.erfc(tail.r()[1]), 1e-13, 1e-100, "erfc(erfcinv(1e-100))");
        assertClose(1e-20, CudaMath.erfc(tail.r()[2]), 1e-14, 1e-20, "erfc(erfcinv(1e-20))");
        // erfinv(1/2) = 0.4769362762044698733814…
        assertClose(0.47693627620446987, d(7, 0.5).r()[0], 3e-16, 0.5, "erfinv(0.5)");
        double[] sx = {1, -1, 1.5, -0.0, Double.NaN};
        double[] erfinvExpected = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, -0.0, Double.NaN};
        Out es = d(7, sx);
        for (int i = 0; i < sx.length; i++) {
            same(erfinvExpected[i], es.r()[i], "erfinv(" + sx[i] + ")");
        }
        double[] sy = {0, 2, 1, -0.5, 2.5};
        double[] erfcinvExpected = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, Double.NaN, Double.NaN};
        Out ecs = d(8, sy);
        for (int i = 0; i < sy.length; i++) {
            same(erfcinvExpected[i], ecs.r()[i], "erfcinv(" + sy[i] + ")");
        }

        // normcdf against erfc, and normcdfinv(normcdf(x)) = x far into the lower tail.
        double[] z = uniform(rnd, 500, -8, 5);
        Out nc = d(9, z);
        for (int i = 0; i < z.length; i++) {
            double expected = 0.5 * CudaMath.erfc(-z[i] / Math.sqrt(2));
            // The rounding of -z/√2 in the expected value itself is magnified by about z².
            assertClose(expected, nc.r()[i], 1e-15 * (4 + z[i] * z[i]), expected, ctx("normcdf", z[i]));
        }
        double[] t = uniform(rnd, 500, -37, 0.5);
        Out p = d(9, t);
        Out back = d(10, p.r());
        for (int i = 0; i < t.length; i++) {
            assertClose(t[i], back.r()[i], 1e-13, Math.abs(t[i]) + 1e-2, ctx("normcdfinv(normcdf)", t[i]));
        }
        // The 97.5% quantile of the standard normal distribution is 1.959963984540054…
        assertClose(1.959963984540054, d(10, 0.975).r()[0], 5e-16, 2, "normcdfinv(0.975)");
        Out ns = d(10, 0.0, 1.0, 0.5, -0.1, 1.1);
        same(Double.NEGATIVE_INFINITY, ns.r()[0], "normcdfinv(0)");
        same(Double.POSITIVE_INFINITY, ns.r()[1], "normcdfinv(1)");
        same(0.0, Math.abs(ns.r()[2]), "normcdfinv(0.5)");
        same(Double.NaN, ns.r()[3], "normcdfinv(-0.1)");
        same(Double.NaN, ns.r()[4], "normcdfinv(1.1)");
        Out ncs = d(9, 0.0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN);
        same(0.5, ncs.r()[0], "normcdf(0)");
        same(0.0, ncs.r()[1], "normcdf(-inf)");
        same(1.0, ncs.r()[2], "normcdf(inf)");
        same(Double.NaN, ncs.r()[3], "normcdf(NaN)");
    }

    @Test
    void frexpAndModfWriteThroughTheirPointers() {
        Random rnd = new Random(SEED + 4);
        double[] x = new double[300];
        for (int i = 0; i < x.length; i++) {
            x[i] = (rnd.nextDouble() - 0.5) * Math.pow(2, rnd.nextInt(200) - 100);
        }
        Out fr = d(11, x);
        Out mo = d(12, x);
        for (int i = 0; i < x.length; i++) {
            double m = fr.r()[i];
            assertTrue(Math.abs(m) >= 0.5 && Math.abs(m) < 1, ctx("frexp mantissa", x[i]) + " = " + m);
            assertEquals(x[i], Math.scalb(m, fr.e()[i]), ctx("frexp m 2^e", x[i]));
            double ip = mo.part()[i];
            double ax = Math.abs(x[i]);
            double integral = ax >= 0x1p52 ? ax : (double) (long) ax;
            assertEquals(integral, Math.abs(ip), 0.0, ctx("modf integral", x[i]) + " was " + ip);
            assertEquals(x[i], ip + mo.r()[i], ctx("modf parts add up", x[i]));
            assertTrue(Math.copySign(1, mo.r()[i]) == Math.copySign(1, x[i]), ctx("modf sign", x[i]));
        }
        Out frs = d(11, 0.0, -0.0, 8.0, Double.MIN_VALUE, Double.POSITIVE_INFINITY, Double.NaN);
        double[] mExpected = {0.0, -0.0, 0.5, 0.5, Double.POSITIVE_INFINITY, Double.NaN};
        int[] eExpected = {0, 0, 4, -1073, 0, 0};
        for (int i = 0; i < mExpected.length; i++) {
            same(mExpected[i], frs.r()[i], "frexp mantissa special " + i);
            assertEquals(eExpected[i], frs.e()[i], "frexp exponent special " + i);
        }
        Out mos = d(12, -3.75, Double.NEGATIVE_INFINITY, -0.0, Double.NaN);
        same(-0.75, mos.r()[0], "modf(-3.75)");
        same(-3.0, mos.part()[0], "modf(-3.75) integral");
        same(-0.0, mos.r()[1], "modf(-inf)");
        same(Double.NEGATIVE_INFINITY, mos.part()[1], "modf(-inf) integral");
        same(-0.0, mos.r()[2], "modf(-0)");
        same(-0.0, mos.part()[2], "modf(-0) integral");
        same(Double.NaN, mos.r()[3], "modf(NaN)");

        // The float forms store into an int* and a float*.
        Out ff = f(11, 0.75, 12.0, 1.4e-45);
        same(0.75, ff.r()[0], "frexpf(0.75)");
        assertEquals(0, ff.e()[0]);
        same(0.75, ff.r()[1], "frexpf(12)");
        assertEquals(4, ff.e()[1]);
        same(0.5, ff.r()[2], "frexpf(smallest subnormal)");
        assertEquals(-148, ff.e()[2]);
        Out mf = f(12, 2.5, -7.25);
        same(0.5, mf.r()[0], "modff(2.5)");
        same(2.0, mf.part()[0], "modff(2.5) integral");
        same(-0.25, mf.r()[1], "modff(-7.25)");
        same(-7.0, mf.part()[1], "modff(-7.25) integral");
    }

    @Test
    void exponentRemainderAndNormFunctions() {
        // ldexp / scalbn: exact scaling, overflow and gradual underflow in the variant's own range.
        double[] x = {1.5, -3, 1, 1, 1, 0.75};
        double[] n = {10, -3, 1024, -1074, -1075, 0};
        Out ld = d2(13, x, n);
        Out sc = d2(14, x, n);
        double[] expected = {1536, -0.375, Double.POSITIVE_INFINITY, Double.MIN_VALUE, 0.0, 0.75};
        for (int i = 0; i < x.length; i++) {
            same(expected[i], ld.r()[i], "ldexp(" + x[i] + ", " + n[i] + ")");
            same(expected[i], sc.r()[i], "scalbn(" + x[i] + ", " + n[i] + ")");
        }
        Out ldf = f(13, new double[] {1, 1, 3}, new double[] {128, -149, 2}, new double[3]);
        same(Double.POSITIVE_INFINITY, ldf.r()[0], "ldexpf(1, 128) overflows float");
        same(Float.MIN_VALUE, ldf.r()[1], "ldexpf(1, -149)");
        same(12, ldf.r()[2], "ldexpf(3, 2)");

        // logb / ilogb.
        double[] lx = {8, -0.3, 1, Double.MIN_VALUE, 0.0, -0.0, Double.NEGATIVE_INFINITY, Double.NaN};
        double[] logbExpected = {3, -2, 0, -1074, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY, Double.NaN};
        int[] ilogbExpected = {3, -2, 0, -1074, Integer.MIN_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE,
            Integer.MIN_VALUE};
        Out lb = d(15, lx);
        for (int i = 0; i < lx.length; i++) {
            same(logbExpected[i], lb.r()[i], "logb(" + lx[i] + ")");
            assertEquals(ilogbExpected[i], lb.e()[i], "ilogb(" + lx[i] + ")");
        }
        Out lbf = f(15, 1.4e-45, 0.0, 3e38);
        same(-149, lbf.r()[0], "logbf(smallest float subnormal)");
        assertEquals(-149, lbf.e()[0], "ilogbf(smallest float subnormal)");
        assertEquals(Integer.MIN_VALUE, lbf.e()[1], "ilogbf(0)");
        assertEquals(127, lbf.e()[2], "ilogbf(3e38)");

        // remainder: the quotient is rounded to nearest, ties to even.
        Random rnd = new Random(SEED + 5);
        double[] a = new double[400];
        double[] b = new double[400];
        for (int i = 0; i < a.length; i++) {
            a[i] = rnd.nextInt(2001) - 1000;
            b[i] = rnd.nextInt(40) + 1;
        }
        Out rem = d2(16, a, b);
        for (int i = 0; i < a.length; i++) {
            double q = a[i] / b[i];
            long nq = Math.round(Math.floor(q));
            double frac = q - nq;
            if (frac > 0.5 || frac == 0.5 && nq % 2 != 0) {
                nq++;
            }
            assertEquals(a[i] - nq * b[i], rem.r()[i], 0.0, "remainder(" + a[i] + ", " + b[i] + ")");
        }
        Out rs = d2(16, new double[] {5, 7, -5, 1, Double.POSITIVE_INFINITY, 3},
                new double[] {2, 2, 2, 0, 1, Double.POSITIVE_INFINITY});
        double[] remExpected = {1, -1, -1, Double.NaN, Double.NaN, 3};
        for (int i = 0; i < remExpected.length; i++) {
            same(remExpected[i], rs.r()[i], "remainder special " + i);
        }
        Out rf = f(16, new double[] {7.5f, 10}, new double[] {2, 4}, new double[2]);
        same(-0.5, rf.r()[0], "remainderf(7.5, 2)");
        same(2, rf.r()[1], "remainderf(10, 4): 2.5 rounds to 2");

        // fdim, rcbrt, rhypot, norm3d.
        Out fd = d2(17, new double[] {5, 3, Double.NaN, -1}, new double[] {3, 5, 1, -1});
        same(2, fd.r()[0], "fdim(5, 3)");
        same(0.0, fd.r()[1], "fdim(3, 5)");
        same(Double.NaN, fd.r()[2], "fdim(NaN, 1)");
        same(0.0, fd.r()[3], "fdim(-1, -1)");
        Out rc = d(18, 8, -0.0, Double.POSITIVE_INFINITY, -27);
        same(0.5, rc.r()[0], "rcbrt(8)");
        same(Double.NEGATIVE_INFINITY, rc.r()[1], "rcbrt(-0)");
        same(0.0, rc.r()[2], "rcbrt(inf)");
        assertClose(-1.0 / 3, rc.r()[3], 3e-16, 1, "rcbrt(-27)");
        Out rh = d2(19, new double[] {3, Double.POSITIVE_INFINITY, 0, 1e300},
                new double[] {4, Double.NaN, 0, 1e300});
        same(0.2, rh.r()[0], "rhypot(3, 4)");
        same(0.0, rh.r()[1], "rhypot(inf, NaN)");
        same(Double.POSITIVE_INFINITY, rh.r()[2], "rhypot(0, 0)");
        assertClose(1 / (Math.sqrt(2) * 1e300), rh.r()[3], 3e-16, 1e-300, "rhypot(1e300, 1e300)");
        Out nm = d(20, new double[] {2, 1e300, 1e-300, Double.NaN, 0},
                new double[] {3, 1e300, 1e-300, Double.NEGATIVE_INFINITY, -0.0},
                new double[] {6, 1e300, 1e-300, 1, 0});
        same(7, nm.r()[0], "norm3d(2, 3, 6)");
        assertClose(Math.sqrt(3) * 1e300, nm.r()[1], 3e-16, 1e300, "norm3d without overflow");
        assertClose(Math.sqrt(3) * 1e-300, nm.r()[2], 3e-16, 1e-300, "norm3d without underflow");
        same(Double.POSITIVE_INFINITY, nm.r()[3], "norm3d(NaN, -inf, 1)");
        same(0.0, nm.r()[4], "norm3d(0, -0, 0)");
        Out nmf = f(20, new double[] {3e38, 2}, new double[] {3e38, 3}, new double[] {0, 6});
        assertTrue(ulpsFloat((float) (Math.sqrt(2) * (double) 3e38f), (float) nmf.r()[0]) <= 1, "norm3df near FLT_MAX");
        same(7, nmf.r()[1], "norm3df(2, 3, 6)");
    }

    /**
     * Every float form is the double function (validated above) of the same float input, rounded once to float:
     * within 1 ulp of it (ties and double rounding aside), and overflowing or underflowing in float's range.
     */
    @Test
    void floatFormsRoundTheDoubleResult() {
        Random rnd = new Random(SEED + 6);
        double[][] ranges = {{-30, 30}, {1, 500}, {-0.99, 0.99}, {-8, 8}, {-8, 8}, {-6, 34}, {-20, 1e4},
            {-1, 1}, {0, 2}, {-12, 6}, {0, 1}};
        for (int fn = 0; fn < ranges.length; fn++) {
            double[] x = uniform(rnd, 300, ranges[fn][0], ranges[fn][1]);
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) x[i];
            }
            Out fo = f(fn, x);
            Out dd = d(fn, x);
            for (int i = 0; i < x.length; i++) {
                float expected = (float) dd.r()[i];
                assertTrue(ulpsFloat(expected, (float) fo.r()[i]) <= 1, "function " + fn + " at " + x[i]
                        + ": float form " + fo.r()[i] + ", double form rounded " + expected + " [seed " + SEED + "]");
            }
        }
        same(Double.POSITIVE_INFINITY, f(5, 36).r()[0], "tgammaf(36) overflows float");
        same(0.0, f(6, 1).r()[0], "lgammaf(1)");
        same(Double.NEGATIVE_INFINITY, f(10, 0).r()[0], "normcdfinvf(0)");
        same(Double.POSITIVE_INFINITY, f(7, 1).r()[0], "erfinvf(1)");
        same(-1, f(4, 1).r()[0], "cospif(1)");
    }
}
