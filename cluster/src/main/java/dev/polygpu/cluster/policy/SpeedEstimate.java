package dev.polygpu.cluster.policy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How fast this member's device is against the fastest of the members it has run work alongside, learned from
 * run times of the same kernels: the member's own, and another member's for the same element or for elements of
 * the same shape. A member that learns it is slow keeps fewer elements for itself ({@link #threshold},
 * {@link #window}), so that what it holds does not become the run's tail.
 *
 * <p>Where the pairs come from: an owner compares a thief's reported run time of an element with its own expected
 * time for elements of that shape (kernel and array sizes); a thief compares its own run time of a stolen element
 * with the time its owner expected for it (sent with the element). Each pair is one sample of the ratio of the
 * two devices' speeds for that peer.
 *
 * <p>Per peer, an exponentially weighted moving average and variance of the logarithm of the ratio (mine /
 * theirs), so that a peer twice as fast and one half as fast weigh alike and the estimate follows a device whose
 * speed changes. A peer counts once it has {@link #minSamples} samples, and then by how much faster it is <em>at
 * least</em>: its mean less {@link #DEFAULT_CONFIDENCE} standard errors (the variance over the samples the average
 * effectively holds, {@code min(n, (2 - alpha) / alpha)}). That matters because this member's relative speed is
 * the smallest of 1 and each counted peer's time over this member's ({@link #relative}: 0.25 when some peer runs
 * the same work four times faster): a minimum over hundreds of peers of plain means picks the noisiest one, and
 * run times of one shape vary (data, clocks, other processes), so members of one kind would think themselves
 * slow. Speeds within the dead band ({@link #DEFAULT_DEAD_BAND}) of 1 count as 1 for the same reason.
 *
 * <p>Bounded: at most {@code maxPeers} peers are kept, the least recently observed evicted first; a peer that
 * leaves is {@linkplain #forget forgotten}. Thread-safe: every method holds the instance's lock.
 */
public final class SpeedEstimate {

    /** Default EWMA weight of a new sample (of the log ratio): the average effectively holds 19 samples. */
    public static final double DEFAULT_ALPHA = 0.1;
    /** Standard errors taken off a peer's mean log ratio before it counts as faster. */
    public static final double DEFAULT_CONFIDENCE = 3;
    /** Default samples a peer needs before it counts. */
    public static final int DEFAULT_MIN_SAMPLES = 8;
    /** A relative speed at or above this counts as 1 (members of one kind). */
    public static final double DEFAULT_DEAD_BAND = 0.8;
    /** Default number of peers kept. */
    public static final int DEFAULT_MAX_PEERS = 4096;
    /** The slowest relative speed reported: a device 1,000 times slower than another is not told apart further. */
    public static final double SLOWEST = 1e-3;

    private final double alpha;
    private final int minSamples;
    private final double deadBand;
    private final Map<String, Ratio> peers;
    /** This member's own run times: the EWMA of their logarithm, by shape. */
    private final Map<String, double[]> own;

    /** An estimate with the default weight, sample count, dead band and bound. */
    public SpeedEstimate() {
        this(DEFAULT_ALPHA, DEFAULT_MIN_SAMPLES, DEFAULT_DEAD_BAND, DEFAULT_MAX_PEERS);
    }

    /**
     * An estimate with the given tuning.
     *
     * @param alpha the weight of a new sample, in (0, 1]
     * @param minSamples how many samples a peer needs before it counts; at least 1
     * @param deadBand relative speeds at or above this count as 1; in (0, 1]
     * @param maxPeers how many peers are kept at most; at least 1
     * @throws IllegalArgumentException naming the argument out of range
     */
    public SpeedEstimate(double alpha, int minSamples, double deadBand, int maxPeers) {
        this.alpha = KernelCostModel.checkAlpha(alpha);
        if (minSamples < 1) {
            throw new IllegalArgumentException("minSamples must be >= 1, was " + minSamples);
        }
        if (!(deadBand > 0 && deadBand <= 1)) {
            throw new IllegalArgumentException("deadBand must be in (0, 1], was " + deadBand);
        }
        if (maxPeers < 1) {
            throw new IllegalArgumentException("maxPeers must be >= 1, was " + maxPeers);
        }
        this.minSamples = minSamples;
        this.deadBand = deadBand;
        this.peers = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Ratio> eldest) {
                return size() > maxPeers;
            }
        };
        this.own = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
                return size() > KernelCostModel.DEFAULT_MAX_KEYS;
            }
        };
    }

    /**
     * Adds one of this member's own run times of work of {@code shape} (a kernel and the sizes of its arrays).
     *
     * @param shape the work's shape; not null
     * @param nanos its run time here; a time of 0 or less is ignored
     */
    public synchronized void recordOwn(String shape, long nanos) {
        Objects.requireNonNull(shape, "shape");
        if (nanos <= 0) {
            return;
        }
        double log = Math.log(nanos);
        double[] mean = own.get(shape);
        if (mean == null) {
            own.put(shape, new double[] {log});
        } else {
            mean[0] += alpha * (log - mean[0]);
        }
    }

    /**
     * {@return this member's expected run time of work of {@code shape}: the geometric mean its EWMA keeps (the
     * log's average, so that a peer's single run compares without the bias an arithmetic mean of varying times
     * would give), or -1 if it never ran such work}
     *
     * @param shape the work's shape; not null
     */
    public synchronized long expectedOwn(String shape) {
        double[] mean = own.get(Objects.requireNonNull(shape, "shape"));
        return mean == null ? -1 : Math.max(1, Math.round(Math.exp(mean[0])));
    }

    /**
     * Adds one sample from a peer's run of work of {@code shape} that this member has run too: {@link #observe}
     * with this member's {@link #expectedOwn} time for it.
     *
     * @param peer the other member's id; not null
     * @param shape the work's shape; not null
     * @param theirsNanos the peer's run time
     * @return whether the sample counted (this member knows the shape, and both times are above 0)
     */
    public boolean observeShape(String peer, String shape, long theirsNanos) {
        long mine = expectedOwn(shape);
        return mine > 0 && observe(peer, mine, theirsNanos);
    }

    /**
     * Adds one sample: this member and {@code peer} ran the same work (an element, or elements of one shape) in
     * {@code mineNanos} and {@code theirsNanos}. A sample with a time of 0 or less says nothing and is ignored.
     *
     * @param peer the other member's id; not null
     * @param mineNanos this member's run time
     * @param theirsNanos the peer's run time
     * @return whether {@link #relative()} may have changed (the sample counted)
     * @throws NullPointerException if {@code peer} is null
     */
    public synchronized boolean observe(String peer, long mineNanos, long theirsNanos) {
        Objects.requireNonNull(peer, "peer");
        if (mineNanos <= 0 || theirsNanos <= 0) {
            return false;
        }
        double log = Math.log((double) mineNanos / theirsNanos);
        Ratio r = peers.get(peer);
        if (r == null) {
            peers.put(peer, new Ratio(log));
        } else {
            double diff = log - r.mean;
            double step = alpha * diff;
            r.mean += step;
            r.variance = (1 - alpha) * (r.variance + diff * step);
            r.samples++;
            r.corrected = variance(r);
        }
        return true;
    }

    /**
     * Drops what was learnt of {@code peer} (it left the cluster).
     *
     * @param peer the member's id; not null
     */
    public synchronized void forget(String peer) {
        peers.remove(Objects.requireNonNull(peer, "peer"));
    }

    /**
     * {@return this member's speed over the fastest counted peer's, from {@link #SLOWEST} to 1} 1 when no peer
     * has {@link #minSamples} samples yet, when none is faster, or when the result would be at or above the dead
     * band.
     */
    public synchronized double relative() {
        // A peer's variance from a few samples may be near 0 by chance; the pooled one over all peers is a floor.
        double pooled = 0;
        long weight = 0;
        for (Ratio r : peers.values()) {
            pooled += r.corrected * (r.samples - 1);
            weight += r.samples - 1;
        }
        pooled = weight == 0 ? 0 : pooled / weight;
        // The fastest counted peer is the one whose log ratio, less its margin, is the largest: exp is monotonic,
        // so it is taken once, of that one, rather than for every peer (this runs after every sample).
        double fastest = 0;
        for (Ratio r : peers.values()) {
            if (r.samples >= minSamples) {
                double standardError = Math.sqrt(Math.max(r.corrected, pooled)
                        / Math.min(r.samples, (2 - alpha) / alpha));
                fastest = Math.max(fastest, r.mean - DEFAULT_CONFIDENCE * standardError);
            }
        }
        double slowest = Math.exp(-fastest);
        return slowest >= deadBand ? 1 : Math.max(SLOWEST, slowest);
    }

    /**
     * {@return this member's speed over {@code peer}'s as learnt so far (1: alike; 0.5: the peer is twice as
     * fast), or NaN while the peer has fewer than {@link #minSamples} samples} The mean, with no dead band and no
     * confidence margin.
     *
     * @param peer the other member's id; not null
     */
    public synchronized double against(String peer) {
        Ratio r = peers.get(Objects.requireNonNull(peer, "peer"));
        return r == null || r.samples < minSamples ? Double.NaN : Math.exp(-r.mean);
    }

    /**
     * A peer's variance, corrected for the average's start at 0: after {@code n} samples the moving variance holds
     * only {@code 1 - (1 - alpha)^(n - 1)} of the weight it will have, so it reads low until then (by half at 8
     * samples with the default alpha), and a peer would look faster with confidence it does not have.
     */
    private double variance(Ratio r) {
        if (r.samples < 2) {
            return 0;
        }
        return r.variance / (1 - Math.pow(1 - alpha, r.samples - 1));
    }

    /** {@return how many samples a peer needs before it counts} */
    public int minSamples() {
        return minSamples;
    }

    /**
     * The steal threshold of a member of relative speed {@code relative}: {@code max(1, round(threshold x
     * relative))}. A member {@code k} times slower keeps about {@code 1/k} of the ready elements the others keep.
     *
     * @param threshold the threshold of a member of speed 1; at least 1
     * @param relative the member's relative speed, in (0, 1]
     * @return the scaled threshold, from 1 to {@code threshold}
     */
    public static int threshold(int threshold, double relative) {
        return (int) Math.max(1, Math.min(threshold, Math.round(threshold * relative)));
    }

    /**
     * The in-flight window of a member of relative speed {@code relative}: {@code round(window x relative)} but at
     * least {@code min(slots, window)}, so that its device still has an element for each slot.
     *
     * @param window the window of a member of speed 1; at least 0
     * @param slots how many elements the member's device runs at once; at least 1
     * @param relative the member's relative speed, in (0, 1]
     * @return the scaled window, from {@code min(slots, window)} to {@code window}
     */
    public static int window(int window, int slots, double relative) {
        return (int) Math.max(Math.min(slots, window), Math.min(window, Math.round(window * relative)));
    }

    /** A peer's mean and variance of the log ratio, and its sample count. */
    private static final class Ratio {
        double mean;
        double variance;
        /** {@link #variance(Ratio)}, kept as each sample comes (it is read for every peer after every sample). */
        double corrected;
        int samples = 1;

        Ratio(double log) {
            this.mean = log;
        }
    }
}
