package dev.polygpu.device.cpu.kernel.exec;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * The time behind CUDA's {@code __nanosleep} for the block a runner is running, so that the threads of a block
 * sleep side by side as they do on a GPU although the CPU device runs them one after another on one worker.
 *
 * <p>Each thread of the block has its own sleep clock: the nanoseconds it has asked to sleep since the block's
 * current <em>phase</em> began (a phase runs from the block's start or a {@code __syncthreads} to the next
 * one, or the block's end). The phase's origin is the moment its first sleep was asked for. A call of {@code __nanosleep(ns)}
 * adds {@code min(ns, 1 ms)} to the calling thread's clock and parks the worker until {@code origin + clock}
 * has passed. So every thread has slept at least its own request when it runs on, the first thread of a phase
 * that sleeps waits in full, and a later thread waits only for what the phase has not yet spent: a block
 * whose 256 threads each sleep 1 ms takes about 1 ms, not 256 ms. The lanes of a warp that meet at a warp
 * intrinsic ({@code __shfl_sync}, {@code __syncwarp}, …) leave it with the largest clock among them, because
 * on a GPU they go on together ({@link #join}). A block barrier opens a new phase ({@link #newPhase}); since
 * every sleep before it has already been waited for, no time is lost or counted twice. Computation is not on
 * the clocks: sleeps of a phase overlap the computation of the phase, as a warp's sleep overlaps other warps'
 * work on a GPU.
 *
 * <p>CUDA's limits are kept: one call sleeps at most about a millisecond ({@link #MAX_SLEEP_NANOS}; longer
 * requests are cut to it), and the duration is approximate. Waits use {@link LockSupport#parkNanos}, so a
 * sleeping block holds its worker thread but no core; the wait ends at or after its deadline, usually within
 * 50–100 µs on Linux (the kernel's timer slack), and since deadlines are absolute those overshoots do not add
 * up over a loop of sleeps. A worker thread that is interrupted stops waiting (its interrupt status is kept),
 * so an interrupt never turns a sleep into a busy loop.
 *
 * <p>Implementation notes: owned by one runner, used by the worker thread running it; nothing is shared. Blocks
 * that never call {@code __nanosleep} pay one field test per block start and barrier.
 */
final class SleepClock {
    /** The longest sleep of one {@code __nanosleep} call: "approximately 1 millisecond" on a GPU. */
    static final long MAX_SLEEP_NANOS = 1_000_000;

    /** The origin of {@link #clock}, so that its values are positive ({@link System#nanoTime()} may be negative). */
    private static final long EPOCH = System.nanoTime() - 1;

    /** True once a thread of the current phase has slept; {@link #origin} and {@link #clocks} are then in use. */
    private boolean started;
    /** {@link System#nanoTime()} when the phase's first sleep was asked for. */
    private long origin;
    /** Per thread (linear thread index): nanoseconds slept in this phase. Zero while not {@link #started}. */
    private long[] clocks = new long[0];

    /**
     * Per thread (linear thread index): nanoseconds the thread asked to sleep, since its block began, that it did
     * not have to wait for because the phase had already spent them ({@link #clock}).
     */
    private long[] credit = new long[0];
    /** True once some thread of the block has a nonzero {@link #credit}. */
    private boolean credited;

    /** Called when a block starts, before {@link #newPhase}: the threads' {@link #credit}s start at zero. */
    void newBlock() {
        if (credited) {
            credited = false;
            Arrays.fill(credit, 0);
        }
    }

    /**
     * CUDA's {@code clock64()} for thread {@code thread}: nanoseconds since an origin ({@link System#nanoTime()},
     * positive) plus the thread's credit, the
     * part of its sleeps that it did not wait for itself because it shares its block's waits. So the value never
     * decreases within a thread, and a {@code __nanosleep(ns)} between two readings shows as at least {@code ns}
     * (up to the 1 ms cut), as it does on a GPU, although the block's threads run one after another and a later
     * thread's sleep may already have passed when it asks. Values of different threads are not comparable.
     */
    long clock(int thread) {
        return System.nanoTime() - EPOCH + (thread < credit.length ? credit[thread] : 0);
    }

    /** Opens a new phase: called when a block starts and when a block barrier opens. */
    void newPhase() {
        if (started) {
            started = false;
            Arrays.fill(clocks, 0);
        }
    }

    /**
     * Thread {@code thread} of a block of {@code threads} threads sleeps {@code nanos} (an unsigned 32-bit
     * value, cut to {@link #MAX_SLEEP_NANOS}): parks the calling worker until the thread's clock is due.
     */
    void sleep(int thread, int threads, long nanos) {
        long now = System.nanoTime();
        if (!started) {
            started = true;
            origin = now;
            if (clocks.length < threads) {
                clocks = new long[threads];
            }
        }
        long asked = Math.min(nanos, MAX_SLEEP_NANOS);
        long due = origin + (clocks[thread] += asked);
        long notWaited = asked - Math.max(0, due - now);
        if (notWaited > 0) {
            if (credit.length < threads) {
                credit = Arrays.copyOf(credit, threads);
            }
            credit[thread] += notWaited;
            credited = true;
        }
        parkUntil(due, now);
    }

    /**
     * The lanes {@code group} (bit i = thread {@code lo + i}) meet at a warp intrinsic: each leaves with the
     * largest clock among them, as they continue together on a GPU.
     */
    void join(int lo, int group) {
        if (!started) {
            return;
        }
        long max = 0;
        for (int g = group; g != 0; g &= g - 1) {
            max = Math.max(max, clocks[lo + Integer.numberOfTrailingZeros(g)]);
        }
        for (int g = group; g != 0; g &= g - 1) {
            clocks[lo + Integer.numberOfTrailingZeros(g)] = max;
        }
    }

    private static void parkUntil(long due, long now) {
        for (long left = due - now; left > 0; left = due - System.nanoTime()) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            LockSupport.parkNanos(left);
        }
    }
}
