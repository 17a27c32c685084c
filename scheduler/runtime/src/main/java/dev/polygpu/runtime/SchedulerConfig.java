package dev.polygpu.runtime;

/**
 * How a {@link Scheduler} runs work: the execution, dependency and stream policies, and the limits that keep
 * its state bounded. Immutable; {@link #DEFAULT} plus the {@code with…} methods, which validate.
 *
 * @param execution       {@link ExecutionPolicy#ASYNC} (default) or {@link ExecutionPolicy#SYNC}
 * @param dependencies    {@link DependencyPolicy#WITH_CONST} (default) or {@link DependencyPolicy#NO_CONST}
 * @param newStreams      where an element without running parents goes
 * @param parentStreams   where an element with running parents goes
 * @param inFlightWindow  how many elements may be on streams, not yet complete, at once; the others wait in
 *                        the ready queue, where a cluster layer may take them. 0 (the default): twice the
 *                        device's multiprocessors, between 4 and 32 ({@link #windowFor})
 * @param maxQueued       how many submitted elements may wait for the window before a submitting thread
 *                        blocks (back-pressure, so a runaway loop cannot queue unbounded work)
 * @param maxStreams      how many streams the scheduler creates at most
 * @param prefetchInputs  prefetch the arrays a kernel reads before launching it
 * @param stolenOverflow  how many elements handed here by a cluster layer
 *                        ({@link Scheduler#submitHere(ComputationalElement, int, java.util.function.Consumer)},
 *                        work stolen from another member) may go on the streams beyond a full window, each only
 *                        when it is the highest-ranked element waiting and its priority level against the lowest
 *                        rank on the streams would be above 0 ({@link PriorityLevels}): it then waits only for
 *                        the next free slot on the device, not for a place in the window first. Needs a device
 *                        with stream priorities (more than one level); 0 (the default): off
 */
public record SchedulerConfig(ExecutionPolicy execution, DependencyPolicy dependencies, NewStreamPolicy newStreams,
        ParentStreamPolicy parentStreams, int inFlightWindow, int maxQueued, int maxStreams,
        boolean prefetchInputs, int stolenOverflow) {

    /** Each call waits for its element (the baseline), or returns once the element is queued. */
    public enum ExecutionPolicy { SYNC, ASYNC }

    /** Whether two readers of an array are ordered ({@code NO_CONST}) or may overlap ({@code WITH_CONST}). */
    public enum DependencyPolicy { NO_CONST, WITH_CONST }

    /** Reuse a free stream from a pool, or create a new stream for every element without running parents. */
    public enum NewStreamPolicy { REUSE, ALWAYS_NEW }

    /**
     * {@code SAME_AS_PARENT}: an element continues on its first running parent's stream, siblings included;
     * {@code DISJOINT}: only the first child continues a parent's stream, the other children spread over
     * other streams. The multi-GPU variants are {@code DISJOINT} on one device; with several, an element is given
     * its stream when it is submitted: the stream of its first parent on its device that no other child was given,
     * else a free or new one. {@code MULTIGPU_EARLY_DISJOINT} chooses the device first, over all devices;
     * {@code MULTIGPU_DISJOINT} chooses it among the devices of the parents whose stream is still to be given,
     * over all devices only when there are none (GrCUDA's rules; docs/scheduler.md, Several devices).
     */
    public enum ParentStreamPolicy { SAME_AS_PARENT, DISJOINT, MULTIGPU_EARLY_DISJOINT, MULTIGPU_DISJOINT }

    /** Elements on streams at once: 0 = chosen from the device ({@link #windowFor}). */
    public static final int DEFAULT_IN_FLIGHT_WINDOW = 0;
    public static final int DEFAULT_MAX_QUEUED = 4096;
    public static final int DEFAULT_MAX_STREAMS = 32;
    /** Stolen elements beyond a full window: 0 = none (off). */
    public static final int DEFAULT_STOLEN_OVERFLOW = 0;

    public static final SchedulerConfig DEFAULT = new SchedulerConfig(ExecutionPolicy.ASYNC,
            DependencyPolicy.WITH_CONST, NewStreamPolicy.REUSE, ParentStreamPolicy.DISJOINT,
            DEFAULT_IN_FLIGHT_WINDOW, DEFAULT_MAX_QUEUED, DEFAULT_MAX_STREAMS, false, DEFAULT_STOLEN_OVERFLOW);

    public SchedulerConfig {
        if (execution == null || dependencies == null || newStreams == null || parentStreams == null) {
            throw new IllegalArgumentException("scheduler policies must not be null");
        }
        if (inFlightWindow < 0) {
            throw new IllegalArgumentException("inFlightWindow must be positive (or 0 for the device's default), got "
                    + inFlightWindow);
        }
        if (maxQueued <= 0) {
            throw new IllegalArgumentException("maxQueued must be positive, got " + maxQueued);
        }
        if (maxStreams <= 0) {
            throw new IllegalArgumentException("maxStreams must be positive, got " + maxStreams);
        }
        if (stolenOverflow < 0) {
            throw new IllegalArgumentException("stolenOverflow must be >= 0 (0 = off), got " + stolenOverflow);
        }
    }

    /**
     * The window for a device with {@code multiprocessors} (the CPU device: its worker threads): this
     * configuration's, or if it is 0, twice the multiprocessors, at least 4 and at most 32. Measured with
     * {@code bench/scheduler} on 2 workers: a window of 2 already kept the device busy (makespan flat from 2 to
     * 64) while 12–14 ready elements stayed for a thief; at 16 and more, nothing was left to steal. Twice the
     * device's parallelism keeps it busy through completion latency and still leaves ready work queued.
     */
    public int windowFor(int multiprocessors) {
        if (inFlightWindow > 0) {
            return inFlightWindow;
        }
        return Math.max(4, Math.min(32, 2 * multiprocessors));
    }

    public SchedulerConfig withExecution(ExecutionPolicy p) {
        return new SchedulerConfig(p, dependencies, newStreams, parentStreams, inFlightWindow, maxQueued,
                maxStreams, prefetchInputs, stolenOverflow);
    }

    public SchedulerConfig withDependencies(DependencyPolicy p) {
        return new SchedulerConfig(execution, p, newStreams, parentStreams, inFlightWindow, maxQueued,
                maxStreams, prefetchInputs, stolenOverflow);
    }

    public SchedulerConfig withNewStreams(NewStreamPolicy p) {
        return new SchedulerConfig(execution, dependencies, p, parentStreams, inFlightWindow, maxQueued,
                maxStreams, prefetchInputs, stolenOverflow);
    }

    public SchedulerConfig withParentStreams(ParentStreamPolicy p) {
        return new SchedulerConfig(execution, dependencies, newStreams, p, inFlightWindow, maxQueued,
                maxStreams, prefetchInputs, stolenOverflow);
    }

    public SchedulerConfig withInFlightWindow(int n) {
        return new SchedulerConfig(execution, dependencies, newStreams, parentStreams, n, maxQueued, maxStreams,
                prefetchInputs, stolenOverflow);
    }

    public SchedulerConfig withMaxQueued(int n) {
        return new SchedulerConfig(execution, dependencies, newStreams, parentStreams, inFlightWindow, n,
                maxStreams, prefetchInputs, stolenOverflow);
    }

    public SchedulerConfig withMaxStreams(int n) {
        return new SchedulerConfig(execution, dependencies, newStreams, parentStreams, inFlightWindow, maxQueued,
                n, prefetchInputs, stolenOverflow);
    }

    public SchedulerConfig withPrefetchInputs(boolean b) {
        return new SchedulerConfig(execution, dependencies, newStreams, parentStreams, inFlightWindow, maxQueued,
                maxStreams, b, stolenOverflow);
    }

    public SchedulerConfig withStolenOverflow(int n) {
        return new SchedulerConfig(execution, dependencies, newStreams, parentStreams, inFlightWindow, maxQueued,
                maxStreams, prefetchInputs, n);
    }
}
