package dev.polygpu.cluster.policy;

import java.util.Objects;

/**
 * The numbers that tune work stealing on one member, validated once so that the policy classes can use them
 * without checking again.
 *
 * <p>Immutable. Build one with {@link #defaults(int)} from the scheduler's in-flight window and adjust it with the
 * {@code with…} methods, each of which validates like the constructor.
 *
 * @param threshold the starvation threshold T: a member with fewer than T ready plus running computational
 *     elements (CEs) asks for work, and a victim never gives so much that it drops below T itself; at least 1
 * @param chunk the most CEs one reply carries; at least 1
 * @param maxHops how many times a victim with nothing to give may forward a request before the thief gets an
 *     empty reply; 0 means never forward
 * @param costFactor a CE whose kernel is known moves only when its expected run time is at least this many times
 *     its transfer time; a finite number above 0
 * @param unknownKernelBudgetNanos a CE whose kernel was never observed moves only when its transfer takes at most
 *     this long, in nanoseconds; above 0
 * @param requestTimeoutNanos how long a thief waits for a reply before giving its request up, in nanoseconds;
 *     above 0
 * @param rankFactor how much more urgent work must be for a member that is not starving to ask for it: it asks
 *     for elements whose rank is above this many times the rank of what it runs ({@link Priority}); 0 turns
 *     asking by rank off (only starving members ask); else at least 1 and finite
 * @param thiefCap whether a victim gives a thief at most as many elements as that thief can run at once, less
 *     what it holds of this victim's already ({@link ThiefCap}); {@link ThiefCap#OFF} by default; not null
 * @param rankChunk the most CEs a request by rank asks for; 0 (the default) asks for {@code chunk}, as a
 *     starving request may; else at least 1 ({@link #rankChunk()} gives the value in effect)
 * @param pushContinuations whether an owner sends the element that a thief's result makes ready straight to
 *     that thief, unasked, when the thief held no other stolen element ({@link Victim#pushContinuation}); off by
 *     default
 * @param wakeThieves whether an owner that sent starving thieves away with nothing tells them when it has surplus
 *     again ({@link TurnedAway}, {@link Thief#wake}); off by default
 */
public record StealSettings(int threshold, int chunk, int maxHops, double costFactor, long unknownKernelBudgetNanos,
                            long requestTimeoutNanos, double rankFactor, ThiefCap thiefCap, int rankChunk,
                            boolean pushContinuations, boolean wakeThieves) {

    /** Hops a request may be forwarded by default. */
    public static final int DEFAULT_MAX_HOPS = 2;
    /** Default cost factor: a known kernel moves when it runs at least as long as its data takes to travel. */
    public static final double DEFAULT_COST_FACTOR = 1.0;
    /** Default transfer budget for a kernel never observed: 1 ms. */
    public static final long DEFAULT_UNKNOWN_KERNEL_BUDGET_NANOS = 1_000_000L;
    /** Default time a thief waits for a reply: 200 ms. */
    public static final long DEFAULT_REQUEST_TIMEOUT_NANOS = 200_000_000L;
    /**
     * Default rank factor: a busy member asks for elements of more than twice the rank of what it runs. A
     * smaller factor moves elements back and forth for little gain; see docs/benchmarks.md, issue #7.
     */
    public static final double DEFAULT_RANK_FACTOR = 2.0;

    /**
     * Whether {@code f} is a rank factor the settings accept: 0 (off) or a finite number of at least 1. Options
     * that set the factor check with this before building settings, so they name their own option.
     *
     * @param f the factor
     * @return true if accepted
     */
    public static boolean validRankFactor(double f) {
        return f == 0 || f >= 1 && Double.isFinite(f);
    }

    /**
     * Settings whose requests by rank ask for up to {@code chunk} elements, without pushed continuations or
     * wake-ups.
     *
     * @throws IllegalArgumentException as the canonical constructor
     * @throws NullPointerException if {@code thiefCap} is null
     */
    public StealSettings(int threshold, int chunk, int maxHops, double costFactor, long unknownKernelBudgetNanos,
                         long requestTimeoutNanos, double rankFactor, ThiefCap thiefCap) {
        this(threshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos, requestTimeoutNanos, rankFactor,
                thiefCap, 0, false, false);
    }

    /**
     * Settings without a thief cap ({@link ThiefCap#OFF}).
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public StealSettings(int threshold, int chunk, int maxHops, double costFactor, long unknownKernelBudgetNanos,
                         long requestTimeoutNanos, double rankFactor) {
        this(threshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos, requestTimeoutNanos, rankFactor,
                ThiefCap.OFF);
    }

    /**
     * Settings with the {@link #DEFAULT_RANK_FACTOR}.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public StealSettings(int threshold, int chunk, int maxHops, double costFactor, long unknownKernelBudgetNanos,
                         long requestTimeoutNanos) {
        this(threshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos, requestTimeoutNanos,
                DEFAULT_RANK_FACTOR);
    }

    /**
     * Validates every field.
     *
     * @throws IllegalArgumentException naming the first field out of range, its accepted range and the value given
     * @throws NullPointerException if {@code thiefCap} is null
     */
    public StealSettings {
        if (threshold < 1) {
            throw new IllegalArgumentException("threshold must be >= 1, was " + threshold);
        }
        if (chunk < 1) {
            throw new IllegalArgumentException("chunk must be >= 1, was " + chunk);
        }
        if (maxHops < 0) {
            throw new IllegalArgumentException("maxHops must be >= 0, was " + maxHops);
        }
        if (!(costFactor > 0) || Double.isInfinite(costFactor)) {
            throw new IllegalArgumentException("costFactor must be a finite number > 0, was " + costFactor);
        }
        if (unknownKernelBudgetNanos <= 0) {
            throw new IllegalArgumentException(
                    "unknownKernelBudgetNanos must be > 0, was " + unknownKernelBudgetNanos);
        }
        if (requestTimeoutNanos <= 0) {
            throw new IllegalArgumentException("requestTimeoutNanos must be > 0, was " + requestTimeoutNanos);
        }
        if (!validRankFactor(rankFactor)) {
            throw new IllegalArgumentException("rankFactor must be 0 (off) or a finite number >= 1, was " + rankFactor);
        }
        Objects.requireNonNull(thiefCap, "thiefCap");
        if (rankChunk < 0) {
            throw new IllegalArgumentException("rankChunk must be >= 1, or 0 for the chunk, was " + rankChunk);
        }
    }

    /**
     * {@return the most CEs a request by rank asks for: the {@code rankChunk} given, or {@link #chunk()} if 0}
     */
    @Override
    public int rankChunk() {
        return rankChunk == 0 ? chunk : rankChunk;
    }

    /**
     * Settings derived from the scheduler's in-flight window (how many CEs a member keeps on its streams at once):
     * threshold = window + 2, so a member asks for work before its streams run dry; chunk = max(1, window / 2);
     * and the {@code DEFAULT_*} constants for the rest.
     *
     * @param window the scheduler's in-flight window, from 0 to {@code Integer.MAX_VALUE - 2}
     * @return validated settings
     * @throws IllegalArgumentException if {@code window} is out of that range
     */
    public static StealSettings defaults(int window) {
        if (window < 0 || window > Integer.MAX_VALUE - 2) {
            throw new IllegalArgumentException(
                    "window must be between 0 and " + (Integer.MAX_VALUE - 2) + ", was " + window);
        }
        return new StealSettings(window + 2, Math.max(1, window / 2), DEFAULT_MAX_HOPS, DEFAULT_COST_FACTOR,
                DEFAULT_UNKNOWN_KERNEL_BUDGET_NANOS, DEFAULT_REQUEST_TIMEOUT_NANOS, DEFAULT_RANK_FACTOR,
                ThiefCap.OFF, 0, false, false);
    }

    /**
     * A copy with another {@link #threshold()}.
     *
     * @param newThreshold the new value, in the range the constructor accepts
     * @return validated settings
     * @throws IllegalArgumentException if the value is out of range
     */
    public StealSettings withThreshold(int newThreshold) {
        return new StealSettings(newThreshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos,
                requestTimeoutNanos, rankFactor, thiefCap, rankChunk, pushContinuations, wakeThieves);
    }

    /**
     * A copy with another {@link #chunk()}.
     *
     * @param newChunk the new value, in the range the constructor accepts
     * @return validated settings
     * @throws IllegalArgumentException if the value is out of range
     */
    public StealSettings withChunk(int newChunk) {
        return new StealSettings(threshold, newChunk, maxHops, costFactor, unknownKernelBudgetNanos,
                requestTimeoutNanos, rankFactor, thiefCap, rankChunk, pushContinuations, wakeThieves);
    }

    /**
     * A copy with another {@link #maxHops()}.
     *
     * @param newMaxHops the new value, in the range the constructor accepts
     * @return validated settings
     * @throws IllegalArgumentException if the value is out of range
     */
    public StealSettings withMaxHops(int newMaxHops) {
        return new StealSettings(threshold, chunk, newMaxHops, costFactor, unknownKernelBudgetNanos,
                requestTimeoutNanos, rankFactor, thiefCap, rankChunk, pushContinuations, wakeThieves);
    }

    /**
     * A copy with another {@link #costFactor()}.
     *
     * @param newCostFactor the new value, in the range the constructor accepts
     * @return validated settings
     * @throws IllegalArgumentException if the value is out of range
     */
    public StealSettings withCostFactor(double newCostFactor) {
        return new StealSettings(threshold, chunk, maxHops, newCostFactor, unknownKernelBudgetNanos,
                requestTimeoutNanos, rankFactor, thiefCap, rankChunk, pushContinuations, wakeThieves);
    }

    /**
     * A copy with another {@link #unknownKernelBudgetNanos()}.
     *
     * @param newBudgetNanos the new value, in the range the constructor accepts
     * @return validated settings
     * @throws IllegalArgumentException if the value is out of range
     */
    public StealSettings withUnknownKernelBudgetNanos(long newBudgetNanos) {
        return new StealSettings(threshold, chunk, maxHops, costFactor, newBudgetNanos, requestTimeoutNanos,
                rankFactor, thiefCap, rankChunk, pushContinuations, wakeThieves);
    }

    /**
     * A copy with another {@link #requestTimeoutNanos()}.
     *
     * @param newTimeoutNanos the new value, in the range the constructor accepts
     * @return validated settings
     * @throws IllegalArgumentException if the value is out of range
     */
    public StealSettings withRequestTimeoutNanos(long newTimeoutNanos) {
        return new StealSettings(threshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos,
                newTimeoutNanos, rankFactor, thiefCap, rankChunk, pushContinuations, wakeThieves);
    }

    /**
     * A copy with another {@link #rankFactor()}.
     *
     * @param newRankFactor the new value, in the range the constructor accepts
     * @return validated settings
     * @throws IllegalArgumentException if the value is out of range
     */
    public StealSettings withRankFactor(double newRankFactor) {
        return new StealSettings(threshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos,
                requestTimeoutNanos, newRankFactor, thiefCap, rankChunk, pushContinuations, wakeThieves);
    }

    /**
     * A copy with another {@link #thiefCap()}.
     *
     * @param newThiefCap the new value, not null
     * @return validated settings
     * @throws NullPointerException if the value is null
     */
    public StealSettings withThiefCap(ThiefCap newThiefCap) {
        return new StealSettings(threshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos,
                requestTimeoutNanos, rankFactor, newThiefCap, rankChunk, pushContinuations, wakeThieves);
    }

    /**
     * A copy with another {@code rankChunk}: the most CEs a request by rank asks for (0: the chunk).
     *
     * @param newRankChunk the new value, in the range the constructor accepts
     * @return validated settings
     * @throws IllegalArgumentException if the value is out of range
     */
    public StealSettings withRankChunk(int newRankChunk) {
        return new StealSettings(threshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos,
                requestTimeoutNanos, rankFactor, thiefCap, newRankChunk, pushContinuations, wakeThieves);
    }

    /**
     * A copy with pushed continuations on or off ({@link Victim#pushContinuation}).
     *
     * @param on whether owners push continuations
     * @return validated settings
     */
    public StealSettings withPushContinuations(boolean on) {
        return new StealSettings(threshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos,
                requestTimeoutNanos, rankFactor, thiefCap, rankChunk, on, wakeThieves);
    }

    /**
     * A copy with wake-ups on or off ({@link TurnedAway}).
     *
     * @param on whether owners wake the starving thieves they sent away when they have surplus again
     * @return validated settings
     */
    public StealSettings withWakeThieves(boolean on) {
        return new StealSettings(threshold, chunk, maxHops, costFactor, unknownKernelBudgetNanos,
                requestTimeoutNanos, rankFactor, thiefCap, rankChunk, pushContinuations, on);
    }
}
