package dev.polygpu.cluster.policy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Expected run time per kernel: an exponentially weighted moving average (EWMA) of the observed run times,
 * keyed by a kernel key (a string the caller chooses, such as the kernel's name with its module's hash).
 *
 * <p>The first observation of a key sets its estimate; each later one moves it by {@code alpha} towards the new
 * sample: {@code estimate += alpha * (sample - estimate)}. A larger alpha follows changes faster, a smaller one
 * smooths noise more.
 *
 * <p>Bounded: at most {@code maxKeys} kernels are kept. When one more is observed, the least recently used key is
 * evicted, where both {@link #observe} and {@link #expectedNanos} count as a use (a kernel the cost gate keeps
 * asking about is one worth keeping). Each call is O(1).
 *
 * <p>Thread-safe: every method holds the instance's lock (completions may be observed on one thread while the
 * cost gate asks on another).
 */
public final class KernelCostModel {

    /** Default EWMA weight of a new sample. */
    public static final double DEFAULT_ALPHA = 0.25;
    /** Default number of kernels kept. */
    public static final int DEFAULT_MAX_KEYS = 4096;

    private final double alpha;
    private final int maxKeys;
    private final Map<String, Estimate> estimates;

    /** A model with {@link #DEFAULT_ALPHA} and {@link #DEFAULT_MAX_KEYS}. */
    public KernelCostModel() {
        this(DEFAULT_ALPHA, DEFAULT_MAX_KEYS);
    }

    /**
     * A model keeping {@link #DEFAULT_MAX_KEYS} kernels.
     *
     * @param alpha the weight of a new sample, in (0, 1]
     * @throws IllegalArgumentException if {@code alpha} is out of range
     */
    public KernelCostModel(double alpha) {
        this(alpha, DEFAULT_MAX_KEYS);
    }

    /**
     * A model with the given weight and bound.
     *
     * @param alpha the weight of a new sample, in (0, 1]
     * @param maxKeys how many kernels are kept at most; at least 1
     * @throws IllegalArgumentException if {@code alpha} or {@code maxKeys} is out of range
     */
    public KernelCostModel(double alpha, int maxKeys) {
        this.alpha = checkAlpha(alpha);
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be >= 1, was " + maxKeys);
        }
        this.maxKeys = maxKeys;
        this.estimates = new BoundedLruMap(maxKeys);
    }

    /**
     * Adds one observed run time of a kernel.
     *
     * @param key the kernel key; not null
     * @param nanos the run time in nanoseconds; at least 0
     * @throws IllegalArgumentException if {@code nanos} is negative
     * @throws NullPointerException if {@code key} is null
     */
    public synchronized void observe(String key, long nanos) {
        Objects.requireNonNull(key, "key");
        if (nanos < 0) {
            throw new IllegalArgumentException("nanos must be >= 0, was " + nanos + " (kernel " + key + ")");
        }
        Estimate estimate = estimates.get(key);
        if (estimate == null) {
            estimates.put(key, new Estimate(nanos));
        } else {
            estimate.nanos += alpha * (nanos - estimate.nanos);
        }
    }

    /**
     * The expected run time of a kernel; a lookup counts as a use for eviction.
     *
     * @param key the kernel key; not null
     * @return the expected run time in nanoseconds (rounded), or -1 if the kernel was never observed or was evicted
     * @throws NullPointerException if {@code key} is null
     */
    public synchronized long expectedNanos(String key) {
        Objects.requireNonNull(key, "key");
        Estimate estimate = estimates.get(key);
        return estimate == null ? -1 : Math.round(estimate.nanos);
    }

    /** {@return how many kernels have an estimate, at most {@link #maxKeys()}} */
    public synchronized int size() {
        return estimates.size();
    }

    /** {@return the weight of a new sample} */
    public double alpha() {
        return alpha;
    }

    /** {@return how many kernels are kept at most} */
    public int maxKeys() {
        return maxKeys;
    }

    static double checkAlpha(double alpha) {
        if (!(alpha > 0 && alpha <= 1)) {
            throw new IllegalArgumentException("alpha must be in (0, 1], was " + alpha);
        }
        return alpha;
    }

    /** A mutable estimate, so that an observation updates in place instead of boxing a new value. */
    private static final class Estimate {
        double nanos;

        Estimate(double nanos) {
            this.nanos = nanos;
        }
    }

    private static final class BoundedLruMap extends LinkedHashMap<String, Estimate> {
        private final int maxKeys;

        BoundedLruMap(int maxKeys) {
            super(16, 0.75f, true);
            this.maxKeys = maxKeys;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Estimate> eldest) {
            return size() > maxKeys;
        }
    }
}
