package dev.polygpu.cluster.policy;

/**
 * How long moving data between two members takes: an estimate of the per-message latency and of the bandwidth,
 * each an exponentially weighted moving average (EWMA) of observed transfers, so that
 * {@code transferNanos(bytes) = latency + bytes / bandwidth}.
 *
 * <p>The rule for an observation of {@code bytes} moved in {@code nanos}:
 * <ul>
 *   <li>{@code nanos <= 0}: ignored (no information; a clock that did not advance).
 *   <li>{@code bytes <} {@link #SMALL_MESSAGE_BYTES} (64 KiB): a <em>latency</em> sample. Such a message's time
 *       is mostly latency; the part its payload takes at the current bandwidth estimate is subtracted, and the
 *       sample is {@code max(0, nanos - bytes / bandwidth)}.
 *   <li>otherwise: a <em>bandwidth</em> sample, {@code bytes / payloadTime} with {@code payloadTime = max(nanos -
 *       latency, nanos / 2)}: the current latency estimate is subtracted, but never more than half the time, so a
 *       latency estimate that is too high can at most double one sample.
 * </ul>
 * Each sample moves its estimate by {@code alpha} towards it: {@code estimate += alpha * (sample - estimate)}.
 *
 * <p>Thread-safe: every method holds the instance's lock.
 */
public final class BandwidthEstimator {

    /** Transfers smaller than this (64 KiB) update the latency estimate; larger ones the bandwidth estimate. */
    public static final long SMALL_MESSAGE_BYTES = 64 * 1024;

    /** The bandwidth a member assumes before it has measured any: 500 MB/s. */
    public static final double DEFAULT_BYTES_PER_SECOND = 500e6;
    /** The per-message latency a member assumes before it has measured any: 0.2 ms. */
    public static final long DEFAULT_LATENCY_NANOS = 200_000L;
    /** The weight of a new sample a member uses: 0.25. */
    public static final double DEFAULT_ALPHA = 0.25;

    private static final double NANOS_PER_SECOND = 1e9;

    private final double alpha;
    private double bytesPerSecond;
    private double latencyNanos;

    /**
     * An estimator that starts from assumed values and learns from observations.
     *
     * @param initialBytesPerSecond the bandwidth assumed before any observation, a finite number above 0
     * @param initialLatencyNanos the per-message latency assumed before any observation, at least 0
     * @param alpha the weight of a new sample, in (0, 1]
     * @throws IllegalArgumentException if an argument is out of range
     */
    public BandwidthEstimator(double initialBytesPerSecond, long initialLatencyNanos, double alpha) {
        if (!(initialBytesPerSecond > 0) || Double.isInfinite(initialBytesPerSecond)) {
            throw new IllegalArgumentException(
                    "initialBytesPerSecond must be a finite number > 0, was " + initialBytesPerSecond);
        }
        if (initialLatencyNanos < 0) {
            throw new IllegalArgumentException("initialLatencyNanos must be >= 0, was " + initialLatencyNanos);
        }
        this.alpha = KernelCostModel.checkAlpha(alpha);
        this.bytesPerSecond = initialBytesPerSecond;
        this.latencyNanos = initialLatencyNanos;
    }

    /**
     * Adds one observed transfer, by the rule in the class comment.
     *
     * @param bytes how many bytes were moved; at least 0
     * @param nanos how long the move took, from send to receipt; ignored when not positive
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public synchronized void observe(long bytes, long nanos) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, was " + bytes);
        }
        if (nanos <= 0) {
            return;
        }
        if (bytes < SMALL_MESSAGE_BYTES) {
            double payloadNanos = bytes * NANOS_PER_SECOND / bytesPerSecond;
            double sample = Math.max(0, nanos - payloadNanos);
            latencyNanos += alpha * (sample - latencyNanos);
        } else {
            double payloadNanos = Math.max(nanos - latencyNanos, nanos / 2.0);
            double sample = bytes * NANOS_PER_SECOND / payloadNanos;
            bytesPerSecond += alpha * (sample - bytesPerSecond);
        }
    }

    /** {@return the bandwidth estimate in bytes per second, above 0} */
    public synchronized double bytesPerSecond() {
        return bytesPerSecond;
    }

    /** {@return the per-message latency estimate in nanoseconds (rounded), at least 0} */
    public synchronized long latencyNanos() {
        return Math.round(latencyNanos);
    }

    /**
     * The expected time to move {@code bytes}: {@code latency + bytes / bandwidth}, rounded up, and
     * {@code Long.MAX_VALUE} if it would not fit a long.
     *
     * @param bytes how many bytes to move; at least 0
     * @return nanoseconds
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public synchronized long transferNanos(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, was " + bytes);
        }
        double nanos = latencyNanos + bytes * NANOS_PER_SECOND / bytesPerSecond;
        // The cast saturates at Long.MAX_VALUE, which is the answer wanted for absurd sizes.
        return (long) Math.ceil(nanos);
    }

    /** {@return the weight of a new sample} */
    public double alpha() {
        return alpha;
    }

    @Override
    public synchronized String toString() {
        return "BandwidthEstimator[bytesPerSecond=" + bytesPerSecond + ", latencyNanos=" + latencyNanos + "]";
    }
}
