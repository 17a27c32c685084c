package dev.polygpu.cluster.policy;

import java.util.Arrays;

/**
 * A recorder of durations (steal latencies, in nanoseconds) that answers percentiles such as the median and the
 * 99th percentile within a small relative error, in fixed memory whatever the number of values.
 *
 * <p>Buckets are log-linear, as in HdrHistogram: values below 64 get one bucket each (exact); above, every
 * power-of-two range {@code [2^m, 2^(m+1))} is split into 32 equal buckets. A bucket is thus at most 1/32 of its
 * lowest value wide, and a percentile, answered with the middle of the bucket that holds it, is within 1/64
 * (about 1.6%) of the exact value. The 1,888 buckets cover every non-negative long.
 *
 * <p>Percentiles use the nearest-rank definition: the p-th percentile of n values is the value of rank
 * {@code max(1, ceil(p / 100 * n))} in ascending order, computed in double arithmetic; p = 0 is the minimum, p = 100
 * the maximum (both kept exactly).
 *
 * <p>Implementation notes: thread-safe by the instance's lock, held by every method; recording is O(1) under it,
 * a percentile O(buckets). {@link #addAll} copies the other histogram under the other's lock, then adds under
 * this one's, never holding both, so two histograms added into each other cannot deadlock.
 */
public final class LatencyHistogram {

    private static final int SUB_BITS = 5;
    private static final int SUB_COUNT = 1 << SUB_BITS;
    /** The shift of the largest values, of magnitude 2^62 (every long is below 2^63). */
    private static final int MAX_SHIFT = 62 - SUB_BITS;
    /** Indexes run up to {@code MAX_SHIFT * 32 + 63}. */
    private static final int BUCKETS = (MAX_SHIFT + 2) * SUB_COUNT;

    private final long[] counts = new long[BUCKETS];
    private long count;
    private long min = Long.MAX_VALUE;
    private long max;

    /** An empty histogram. */
    public LatencyHistogram() {
    }

    /**
     * Records one value.
     *
     * @param nanos the value, at least 0
     * @throws IllegalArgumentException if {@code nanos} is negative
     */
    public synchronized void record(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("nanos must be >= 0, was " + nanos);
        }
        counts[bucketOf(nanos)]++;
        count++;
        min = Math.min(min, nanos);
        max = Math.max(max, nanos);
    }

    /** {@return how many values were recorded since creation or the last {@link #reset()}} */
    public synchronized long count() {
        return count;
    }

    /**
     * The p-th percentile by nearest rank, within 1/64 of the exact value.
     *
     * @param p the percentile, in [0, 100]
     * @return the value, or 0 when nothing was recorded
     * @throws IllegalArgumentException if {@code p} is outside [0, 100] or NaN
     */
    public synchronized long percentile(double p) {
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException("p must be in [0, 100], was " + p);
        }
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * count));
        if (rank >= count) {
            return max;
        }
        if (rank == 1) {
            return min;
        }
        long seen = 0;
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            seen += counts[bucket];
            if (seen >= rank) {
                // Clamped, so that a bucket that also holds the minimum or maximum never answers beyond them.
                return Math.clamp(middleOf(bucket), min, max);
            }
        }
        throw new IllegalStateException("bucket counts sum to " + seen + ", below the count " + count);
    }

    /** {@return the median, {@code percentile(50)}} */
    public long median() {
        return percentile(50);
    }

    /** {@return the largest value recorded, or 0 when nothing was} */
    public synchronized long max() {
        return max;
    }

    /** {@return the smallest value recorded, or 0 when nothing was} */
    public synchronized long min() {
        return count == 0 ? 0 : min;
    }

    /** Forgets every value. */
    public synchronized void reset() {
        Arrays.fill(counts, 0);
        count = 0;
        min = Long.MAX_VALUE;
        max = 0;
    }

    /**
     * Adds every value recorded in {@code other} to this histogram (to merge members' latencies).
     *
     * @param other the histogram to add; may be this one (its values are then counted twice)
     */
    public void addAll(LatencyHistogram other) {
        long[] otherCounts;
        long otherCount;
        long otherMin;
        long otherMax;
        synchronized (other) {
            otherCounts = other.counts.clone();
            otherCount = other.count;
            otherMin = other.min;
            otherMax = other.max;
        }
        if (otherCount == 0) {
            return;
        }
        synchronized (this) {
            for (int bucket = 0; bucket < BUCKETS; bucket++) {
                counts[bucket] += otherCounts[bucket];
            }
            count += otherCount;
            min = Math.min(min, otherMin);
            max = Math.max(max, otherMax);
        }
    }

    @Override
    public synchronized String toString() {
        return "LatencyHistogram[count=" + count + ", min=" + min() + ", max=" + max + "]";
    }

    /**
     * The bucket of a non-negative value: below 64 the value itself; above, 32 buckets per power of two, so that
     * {@code index = shift * 32 + (value >>> shift)} with {@code value >>> shift} in [32, 63].
     */
    static int bucketOf(long value) {
        int magnitude = 63 - Long.numberOfLeadingZeros(value);
        int shift = Math.max(0, magnitude - SUB_BITS);
        return shift * SUB_COUNT + (int) (value >>> shift);
    }

    /** The lowest value in a bucket. */
    static long lowestOf(int bucket) {
        int shift = Math.max(0, bucket / SUB_COUNT - 1);
        long sub = bucket - (long) shift * SUB_COUNT;
        return sub << shift;
    }

    /** The highest value in a bucket. */
    static long highestOf(int bucket) {
        int shift = Math.max(0, bucket / SUB_COUNT - 1);
        return lowestOf(bucket) + (1L << shift) - 1;
    }

    private static long middleOf(int bucket) {
        long low = lowestOf(bucket);
        return low + (highestOf(bucket) - low) / 2;
    }
}
