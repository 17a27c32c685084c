package dev.polygpu.device.cpu;

import java.util.Comparator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The threads that run thread blocks, shared by all streams of a device: the CPU device's "multiprocessors".
 * A fixed number of daemon {@link WorkerThread}s take chunk tasks from one queue; a launch keeps at most one
 * task per worker queued and re-queues a task after each chunk. The queue hands out the tasks of the
 * highest-priority streams first (CUDA's convention: numerically lower is higher) and, among tasks of equal
 * priority, the oldest first, so launches of equal priority take turns chunk by chunk and really run side by
 * side, while a launch on a higher-priority stream takes every worker as its chunks finish until it has no
 * more. A running chunk is never preempted: as on a GPU, priorities decide which pending blocks start next.
 * In chaos mode the queue hands out tasks of equal priority in a random order instead (each task still runs
 * exactly once), so launches of different streams take turns unevenly; priorities are still obeyed.
 *
 * <p>Implementation notes: the executor owns all state; {@link #shutdown()} lets queued chunks finish (the
 * device has drained its streams before) and waits for the threads to end. Each task is wrapped with its
 * priority and a key when queued, and the queue is a priority queue by (priority, key): the key is a counter
 * ({@link #queued}), which makes equal priorities first in first out, or in chaos mode a hash of the seed and
 * the counter, which makes the task taken among equal priorities the one with the smallest of independent
 * uniform keys: a uniformly random one of those queued. Neither needs a lock. Every worker is started at
 * once, so every task goes through the queue.
 */
final class WorkerPool {
    private final int threads;
    private final ThreadPoolExecutor executor;
    /** Null unless in chaos mode: the seed of the queue's random keys. */
    private final Chaos chaos;
    private final AtomicLong queued = new AtomicLong();

    /** A pool of {@code threads} workers named {@code namePrefix + index}; {@code chaos} is null for none. */
    WorkerPool(int threads, String namePrefix, Chaos chaos) {
        if (threads <= 0) {
            throw new IllegalArgumentException("workerThreads must be positive, got " + threads);
        }
        this.threads = threads;
        this.chaos = chaos;
        BlockingQueue<Runnable> queue = new PriorityBlockingQueue<>(threads * GridLaunch.CHUNKS_PER_WORKER,
                QUEUE_ORDER);
        AtomicInteger n = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, queue, r -> {
            int index = n.getAndIncrement();
            return new WorkerThread(r, namePrefix + index, chaos == null ? null : ChaosRandom.forWorker(chaos, index));
        });
        executor.prestartAllCoreThreads();
    }

    int threads() {
        return threads;
    }

    /** How many tasks wait in the queue now (for tests). */
    int queuedTasks() {
        return executor.getQueue().size();
    }

    /**
     * Queues {@code task} at priority 0; throws {@link java.util.concurrent.RejectedExecutionException} once
     * shut down.
     */
    void execute(Runnable task) {
        execute(task, 0);
    }

    /**
     * Queues {@code task} behind the queued tasks of higher or equal {@code priority} (numerically lower is
     * higher) and ahead of those of lower priority; in chaos mode at a random place among those of equal
     * priority. Throws {@link java.util.concurrent.RejectedExecutionException} once shut down.
     */
    void execute(Runnable task, int priority) {
        long n = queued.getAndIncrement();
        long key = chaos == null ? n : ChaosRandom.mix(chaos.seed() + ChaosRandom.mix(n));
        executor.execute(new Queued(priority, key, task));
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

    /** Higher priority (numerically lower) first, then the smaller key. */
    private static final Comparator<Runnable> QUEUE_ORDER = (a, b) -> {
        Queued x = (Queued) a;
        Queued y = (Queued) b;
        return x.priority != y.priority ? Integer.compare(x.priority, y.priority) : Long.compare(x.key, y.key);
    };

    /** A queued task with its stream's priority and its key: the order in which it was queued, or random. */
    private record Queued(int priority, long key, Runnable task) implements Runnable {
        @Override
        public void run() {
            task.run();
        }
    }
}
