package dev.polygpu.device.cpu;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that run thread blocks, shared by all streams of a device: the CPU device's "multiprocessors".
 * A fixed number of daemon {@link WorkerThread}s take chunk tasks from one FIFO queue; a launch keeps at most
 * one task per worker queued and re-queues a task after each chunk, so launches from different streams take
 * turns chunk by chunk and really run side by side.
 *
 * <p>Implementation notes: the executor owns all state; {@link #shutdown()} lets queued chunks finish (the
 * device has drained its streams before) and waits for the threads to end.
 */
final class WorkerPool {
    private final int threads;
    private final ThreadPoolExecutor executor;

    WorkerPool(int threads, String namePrefix) {
        if (threads <= 0) {
            throw new IllegalArgumentException("workerThreads must be positive, got " + threads);
        }
        this.threads = threads;
        AtomicInteger n = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> new WorkerThread(r, namePrefix + n.getAndIncrement()));
        executor.prestartAllCoreThreads();
    }

    int threads() {
        return threads;
    }

    /** Queues {@code task}; throws {@link java.util.concurrent.RejectedExecutionException} once shut down. */
    void execute(Runnable task) {
        executor.execute(task);
    }

    void shutdown() {
        executor.shutdown();
        boolean interrupted = false;
        while (true) {
            try {
                if (executor.awaitTermination(1, TimeUnit.MINUTES)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
