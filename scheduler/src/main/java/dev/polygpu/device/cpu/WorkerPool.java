package dev.polygpu.device.cpu;

import java.util.Comparator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The threads that run thread blocks, shared by all streams of a device: the CPU device's "multiprocessors".
 * A fixed number of daemon {@link WorkerThread}s take chunk tasks from one FIFO queue; a launch keeps at most
 * one task per worker queued and re-queues a task after each chunk, so launches from different streams take
 * turns chunk by chunk and really run side by side. In chaos mode the queue hands out its tasks in a random
 * order instead (each task still runs exactly once), so launches of different streams take turns unevenly.
 *
 * <p>Implementation notes: the executor owns all state; {@link #shutdown()} lets queued chunks finish (the
 * device has drained its streams before) and waits for the threads to end. In chaos mode each task is wrapped
 * with a random key when queued and the queue is a priority queue by key: the task taken is the one with the
 * smallest key, which for independent uniform keys is a uniformly random one of those queued. The keys are a
 * hash of the seed and a counter ({@link #queued}), so they need no lock.
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
        BlockingQueue<Runnable> queue = chaos == null ? new LinkedBlockingQueue<>()
                : new PriorityBlockingQueue<>(threads * GridLaunch.CHUNKS_PER_WORKER,
                        Comparator.comparingLong(task -> ((Shuffled) task).key()));
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

    /** Queues {@code task}; throws {@link java.util.concurrent.RejectedExecutionException} once shut down. */
    void execute(Runnable task) {
        if (chaos == null) {
            executor.execute(task);
        } else {
            executor.execute(new Shuffled(ChaosRandom.mix(chaos.seed() + ChaosRandom.mix(queued.getAndIncrement())),
                    task));
        }
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

    /** A task queued in chaos mode, ordered by its random {@code key}. */
    private record Shuffled(long key, Runnable task) implements Runnable {
        @Override
        public void run() {
            task.run();
        }
    }
}
