package dev.polygpu.bench.async;

import java.util.Map;

/**
 * B&amp;S: Black-Scholes call prices of 10 independent vectors of stock prices, in double precision
 * ({@code exp}, {@code log}, {@code rsqrt}, a {@code __device__} helper).
 *
 * <pre>
 * bs(s0 → c0)  bs(s1 → c1)  …  bs(s9 → c9)      width 10: no two kernels share an array
 * </pre>
 */
final class BlackScholesDag extends DagCase {
    static final String BS = """
            __device__ inline double cnd(double d) {
                const double A1 = 0.31938153;
                const double A2 = -0.356563782;
                const double A3 = 1.781477937;
                const double A4 = -1.821255978;
                const double A5 = 1.330274429;
                const double RSQRT2PI = 0.39894228040143267794;
                double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
                double c = RSQRT2PI * exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
                return d > 0 ? 1.0 - c : c;
            }

            __global__ void bs(const double *s, double *call, int n, double r, double v, double t, double strike) {
                double sqrt_t = 1.0 / rsqrt(t);
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    double d1 = (log(s[i] / strike) + (r + 0.5 * v * v) * t) / (v * sqrt_t);
                    double d2 = d1 - v * sqrt_t;
                    call[i] = s[i] * cnd(d1) - strike * exp(-r * t) * cnd(d2);
                }
            }
            """;
    private static final double R = 0.08;
    private static final double V = 0.3;
    private static final double T = 1.0;
    private static final double K = 60.0;
    private static final int VECTORS = 10;
    private static final int THREADS = 256;

    private final int n;
    private final double[][] prices = new double[VECTORS][];

    BlackScholesDag(boolean quick, int blocks) {
        super(quick, blocks);
        this.n = quick ? 1 << 12 : 1 << 16;
        Lcg rnd = new Lcg(7);
        for (int v = 0; v < VECTORS; v++) {
            prices[v] = new double[n];
            for (int i = 0; i < n; i++) {
                prices[v][i] = 30.0 + 60.0 * rnd.next();
            }
        }
    }

    @Override
    String name() {
        return "B&S";
    }

    @Override
    String size() {
        return String.format("%d vectors of %,d doubles", VECTORS, n);
    }

    @Override
    int width(boolean withConst) {
        return VECTORS;
    }

    @Override
    Program program(Session s) {
        Kernel bs = s.kernel(BS, "bs(s: in pointer double, call: out pointer double, n: sint32, r: double, v: double,"
                + " t: double, strike: double)");
        DevArray[] in = new DevArray[VECTORS];
        DevArray[] out = new DevArray[VECTORS];
        for (int v = 0; v < VECTORS; v++) {
            in[v] = s.array("s" + v, prices[v]);
            out[v] = s.array("call" + v, "double", n);
        }
        return new Program(s) {
            @Override
            void run() {
                for (int v = 0; v < VECTORS; v++) {
                    bs.launch(blocks, THREADS, in[v], out[v], n, R, V, T, K);
                }
            }

            @Override
            Map<String, Object> results() {
                return copy(out);
            }
        };
    }

    @Override
    String check(Map<String, Object> results) {
        Errors e = new Errors("call prices", 1e-9);
        for (int v = 0; v < VECTORS; v++) {
            double[] call = (double[]) results.get("call" + v);
            for (int i = 0; i < n; i++) {
                e.add("call" + v + "[" + i + "]", call[i], price(prices[v][i]), 1);
            }
        }
        return e.verdict();
    }

    private static double price(double s) {
        double sqrtT = Math.sqrt(T);
        double d1 = (Math.log(s / K) + (R + 0.5 * V * V) * T) / (V * sqrtT);
        double d2 = d1 - V * sqrtT;
        return s * cnd(d1) - K * Math.exp(-R * T) * cnd(d2);
    }

    private static double cnd(double d) {
        double k = 1.0 / (1.0 + 0.2316419 * Math.abs(d));
        double c = 0.39894228040143267794 * Math.exp(-0.5 * d * d)
                * (k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))));
        return d > 0 ? 1.0 - c : c;
    }
}
