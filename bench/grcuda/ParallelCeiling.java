import java.util.concurrent.*;
/**
 * What this machine's cores give a compute kernel like Black-Scholes, without polygpu: the same formulas over
 * 10 vectors of 65,536 doubles run one after another on one thread, then on a pool of two threads. The
 * speedup is the ceiling an asynchronous schedule of such kernels can reach here (the makespan benchmark's
 * "ideal" of min(width, cores) assumes the cores scale perfectly). Run: java bench/grcuda/ParallelCeiling.java
 */
public class ParallelCeiling {
    static double cnd(double d) {
        final double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
        double k = 1.0 / (1.0 + 0.2316419 * Math.abs(d));
        double c = 0.39894228040143267793994 * Math.exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
        return d > 0 ? 1 - c : c;
    }
    static void bs(double[] s, double[] out, int reps) {
        for (int r = 0; r < reps; r++)
        for (int i = 0; i < s.length; i++) {
            double x = 100, t = 1, rr = 0.02, v = 0.3;
            double d1 = (Math.log(s[i] / x) + (rr + 0.5 * v * v) * t) / (v * Math.sqrt(t));
            double d2 = d1 - v * Math.sqrt(t);
            out[i] = s[i] * cnd(d1) - x * Math.exp(-rr * t) * cnd(d2);
        }
    }
    public static void main(String[] a) throws Exception {
        int n = 65536, tasks = 10, reps = 4;
        double[][] s = new double[tasks][n], o = new double[tasks][n];
        for (int t = 0; t < tasks; t++) for (int i = 0; i < n; i++) s[t][i] = 50 + (i * 7 + t) % 100;
        ExecutorService two = Executors.newFixedThreadPool(2);
        for (int round = 0; round < 6; round++) {
            long t0 = System.nanoTime();
            for (int t = 0; t < tasks; t++) bs(s[t], o[t], reps);
            long seq = System.nanoTime() - t0;
            t0 = System.nanoTime();
            java.util.List<Future<?>> fs = new java.util.ArrayList<>();
            for (int t = 0; t < tasks; t++) { final int tt = t; fs.add(two.submit(() -> bs(s[tt], o[tt], reps))); }
            for (Future<?> f : fs) f.get();
            long par = System.nanoTime() - t0;
            System.out.printf("sequential %.1f ms, 2 threads %.1f ms, speedup %.2fx%n", seq / 1e6, par / 1e6, (double) seq / par);
        }
        two.shutdown();
    }
}
