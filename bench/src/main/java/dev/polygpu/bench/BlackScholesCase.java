package dev.polygpu.bench;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import java.util.List;
import java.util.SplittableRandom;

/** European call and put prices of n options in double precision (inputs as in NVIDIA's sample). */
final class BlackScholesCase extends BenchCase implements NativeCase {
    private static final int BLOCK = 256;
    private static final double R = 0.02;
    private static final double V = 0.30;
    private static final double A1 = 0.31938153;
    private static final double A2 = -0.356563782;
    private static final double A3 = 1.781477937;
    private static final double A4 = -1.821255978;
    private static final double A5 = 1.330274429;
    private static final double RSQRT2PI = 0.39894228040143267793994605993438;

    private final int n;
    private double[] price;
    private double[] strike;
    private double[] years;
    private double[] call;
    private double[] put;
    private double[] deviceCall;
    private double[] devicePut;
    private UnifiedBuffer dCall;
    private UnifiedBuffer dPut;
    private LaunchConfig config;
    private KernelArgs args;

    BlackScholesCase(int n) {
        super("blackscholes", "blackScholes", Kernels.BLACK_SCHOLES, 1.5);
        this.n = n;
    }

    @Override
    String size() {
        return Sizes.elements(n) + " doubles";
    }

    @Override
    protected void allocate() {
        SplittableRandom rnd = new SplittableRandom(3);
        price = new double[n];
        strike = new double[n];
        years = new double[n];
        for (int i = 0; i < n; i++) {
            price[i] = rnd.nextDouble(5.0, 30.0);
            strike[i] = rnd.nextDouble(1.0, 100.0);
            years[i] = rnd.nextDouble(0.25, 10.0);
        }
        call = new double[n];
        put = new double[n];
        deviceCall = new double[n];
        devicePut = new double[n];
        dCall = buffer(n * 8L);
        dPut = buffer(n * 8L);
        UnifiedBuffer dPrice = buffer(n * 8L);
        UnifiedBuffer dStrike = buffer(n * 8L);
        UnifiedBuffer dYears = buffer(n * 8L);
        copyIn(price, dPrice);
        copyIn(strike, dStrike);
        copyIn(years, dYears);
        config = new LaunchConfig(Dim3.of(ceilDiv(n, BLOCK)), Dim3.of(BLOCK), 0);
        args = KernelArgs.builder().pointer(dCall).pointer(dPut).pointer(dPrice).pointer(dStrike)
                .pointer(dYears).f64(R).f64(V).i32(n).build();
    }

    @Override
    void reset() {
        dCall.hostView().fill((byte) 0);
        dPut.hostView().fill((byte) 0);
        java.util.Arrays.fill(call, 0);
        java.util.Arrays.fill(put, 0);
    }

    @Override
    void runDevice() {
        stream.launch(kernel, config, args);
        stream.synchronize();
    }

    @Override
    void runJava() {
        double[] s = price;
        double[] x = strike;
        double[] t = years;
        double[] c = call;
        double[] p = put;
        pool.forRange(n, (from, to) -> blackScholes(c, p, s, x, t, R, V, from, to));
    }

    static double cnd(double d) {
        double k = 1.0 / (1.0 + 0.2316419 * Math.abs(d));
        double c = RSQRT2PI * Math.exp(-0.5 * d * d)
                * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
        return d > 0 ? 1.0 - c : c;
    }

    static void blackScholes(double[] call, double[] put, double[] price, double[] strike, double[] years,
                             double r, double v, int from, int to) {
        for (int i = from; i < to; i++) {
            double s = price[i];
            double x = strike[i];
            double t = years[i];
            double sqrtT = Math.sqrt(t);
            double d1 = (Math.log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrtT);
            double d2 = d1 - v * sqrtT;
            double cndD1 = cnd(d1);
            double cndD2 = cnd(d2);
            double expRT = Math.exp(-r * t);
            call[i] = s * cndD1 - x * expRT * cndD2;
            put[i] = x * expRT * (1.0 - cndD2) - s * (1.0 - cndD1);
        }
    }

    @Override
    void verify() {
        copyOut(dCall, deviceCall);
        copyOut(dPut, devicePut);
        assertClose("blackscholes call", deviceCall, call, 1e-9, 1e-9);
        assertClose("blackscholes put", devicePut, put, 1e-9, 1e-9);
    }

    @Override
    public String nativeCase() {
        return "blackscholes";
    }

    @Override
    public NativeData nativeInputs() {
        return new NativeData(new int[] {n}, new double[] {R, V}, List.of(price, strike, years));
    }

    @Override
    public void verifyNative(String side, NativeData outputs) {
        assertClose("blackscholes call", side, outputs.doubles(0), call, 1e-9, 1e-9);
        assertClose("blackscholes put", side, outputs.doubles(1), put, 1e-9, 1e-9);
    }
}
