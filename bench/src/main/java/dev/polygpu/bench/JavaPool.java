package dev.polygpu.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The plain-Java side's threads: a fixed pool with as many threads as the CPU device has workers. A parallel
 * loop splits its index range into one contiguous chunk per thread and waits for all of them.
 */
final class JavaPool implements AutoCloseable {

    /** The body of a parallel loop over {@code [from, to)}. */
    @FunctionalInterface
    interface RangeBody {
        void run(int from, int to);
    }

    /** The body of a parallel sum over {@code [from, to)}: returns that chunk's partial sum. */
    @FunctionalInterface
    interface RangeSum {
        double sum(int from, int to);
    }

    private final int threads;
    private final ExecutorService pool;

    JavaPool(int threads) {
        this.threads = threads;
        AtomicInteger seq = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "bench-java-" + seq.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
    }

    int threads() {
        return threads;
    }

    /** Runs {@code body} over {@code [0, n)} split into one chunk per thread. */
    void forRange(int n, RangeBody body) {
        List<Future<?>> parts = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            int from = chunkStart(n, t);
            int to = chunkStart(n, t + 1);
            parts.add(pool.submit(() -> body.run(from, to)));
        }
        for (Future<?> f : parts) {
            join(f);
        }
    }

    /** Sums {@code body}'s per-thread partial sums over {@code [0, n)} split into one chunk per thread. */
    double sumRange(int n, RangeSum body) {
        List<Future<Double>> parts = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            int from = chunkStart(n, t);
            int to = chunkStart(n, t + 1);
            parts.add(pool.submit(() -> body.sum(from, to)));
        }
        double total = 0;
        for (Future<Double> f : parts) {
            total += join(f);
        }
        return total;
    }

    private int chunkStart(int n, int t) {
        return (int) ((long) n * t / threads);
    }

    private static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Java pool", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a Java reference task failed", e.getCause());
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
