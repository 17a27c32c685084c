package dev.polygpu.bench.async;

import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * How much parallelism the machine offers right now, independent of polygpu: {@code tasks} copies of a
 * CPU-bound plain-Java task (about 20 ms each) run one after another and then on {@code tasks} threads at once;
 * the ratio of the two times is what perfect overlap of that many one-core kernels could gain at best. On an
 * idle machine with at least {@code tasks} cores it is close to {@code tasks}; on a shared or loaded machine
 * (other processes, CPU steal) it is lower, and so is every async speedup measured at the same time.
 */
final class MachineProbe {
    private static volatile double sink;

    private MachineProbe() {
    }

    /** The median over {@code reps} rounds of sequential time / parallel time for {@code tasks} tasks. */
    static double parallelSpeedup(int tasks, int reps) {
        try (ExecutorService pool = Executors.newFixedThreadPool(tasks)) {
            long iterations = calibrate();
            double[] ratios = new double[reps];
            for (int r = 0; r < reps; r++) {
                long t0 = System.nanoTime();
                for (int t = 0; t < tasks; t++) {
                    sink += work(iterations);
                }
                long t1 = System.nanoTime();
                Future<?>[] running = new Future<?>[tasks];
                for (int t = 0; t < tasks; t++) {
                    running[t] = pool.submit(() -> sink += work(iterations));
                }
                for (Future<?> f : running) {
                    f.get();
                }
                long t2 = System.nanoTime();
                ratios[r] = (double) (t1 - t0) / (t2 - t1);
            }
            Arrays.sort(ratios);
            return ratios[reps / 2];
        } catch (Exception e) {
            throw new IllegalStateException("the machine probe failed", e);
        }
    }

    /** Iterations of {@link #work} that take about 20 ms here (after the JIT compiled it). */
    private static long calibrate() {
        long iterations = 1 << 16;
        for (int i = 0; i < 5; i++) {
            sink += work(iterations);
        }
        while (true) {
            long t0 = System.nanoTime();
            sink += work(iterations);
            long nanos = System.nanoTime() - t0;
            if (nanos > 5_000_000) {
                return iterations * 20_000_000 / nanos;
            }
            iterations *= 2;
        }
    }

    private static double work(long iterations) {
        double x = 1;
        for (long i = 0; i < iterations; i++) {
            x = x * 1.0000001 + 1e-9 / x;
        }
        return x;
    }
}
