package dev.polygpu.cluster.policy;

/**
 * How many computational elements (CEs) a victim may give a thief: the victim side of the never-starve rule
 * ({@link Starvation} is the thief side).
 *
 * <p>A victim gives only <em>ready</em> CEs (parents done, not yet on a stream; a started CE never moves), never so
 * many that its own ready plus running count drops below its threshold, and at most one chunk per reply. Because
 * a victim stops at exactly the threshold at which it would itself start stealing, work cannot ping-pong: after a
 * gift, neither side is starving on account of it. See {@link Starvation} for what the counts mean.
 *
 * <p>Stateless and pure.
 */
public final class Surplus {

    private Surplus() {
    }

    /**
     * The number of CEs a victim may give: {@code max(0, min(chunk, ready, ready + running - threshold))}.
     *
     * @param ready CEs whose parents are done, not yet on a stream; at least 0
     * @param running CEs on streams or stolen work being run; at least 0
     * @param threshold the starvation threshold T; at least 1
     * @param chunk the most CEs one reply may carry; at least 1
     * @return from 0 to {@code min(chunk, ready)}
     * @throws IllegalArgumentException if a count is negative, or the threshold or chunk is below 1
     */
    public static int giveable(int ready, int running, int threshold, int chunk) {
        checkCounts(ready, running, threshold);
        if (chunk < 1) {
            throw new IllegalArgumentException("chunk must be >= 1, was " + chunk);
        }
        // In long: ready + running may exceed Integer.MAX_VALUE.
        long aboveThreshold = (long) ready + running - threshold;
        long give = Math.min(Math.min(chunk, ready), aboveThreshold);
        return (int) Math.max(0, give);
    }

    /**
     * {@link #giveable(int, int, int, int)} with the threshold and chunk of {@code settings}.
     *
     * @param ready CEs whose parents are done, not yet on a stream; at least 0
     * @param running CEs on streams or stolen work being run; at least 0
     * @param settings where the threshold and chunk come from
     * @return from 0 to {@code min(settings.chunk(), ready)}
     */
    public static int giveable(int ready, int running, StealSettings settings) {
        return giveable(ready, running, settings.threshold(), settings.chunk());
    }

    static void checkCounts(int ready, int running, int threshold) {
        if (ready < 0) {
            throw new IllegalArgumentException("ready must be >= 0, was " + ready);
        }
        if (running < 0) {
            throw new IllegalArgumentException("running must be >= 0, was " + running);
        }
        if (threshold < 1) {
            throw new IllegalArgumentException("threshold must be >= 1, was " + threshold);
        }
    }
}
