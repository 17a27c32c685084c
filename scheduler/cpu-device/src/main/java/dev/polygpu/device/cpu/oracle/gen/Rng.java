package dev.polygpu.device.cpu.oracle.gen;

import java.util.List;

/**
 * The generator's source of random choices: SplitMix64, written out here so that a seed gives the same program
 * on every JDK (the algorithm of {@link java.util.SplittableRandom} is not promised to stay the same).
 */
public final class Rng {
    private long state;

    public Rng(long seed) {
        this.state = seed;
    }

    /** The seed of case {@code index} of a run with seed {@code seed}: independent streams per case. */
    public static long caseSeed(long seed, long index) {
        return mix(mix(seed) + 0x9E3779B97F4A7C15L * (index + 1));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public long nextLong() {
        state += 0x9E3779B97F4A7C15L;
        return mix(state);
    }

    /** Uniform in [0, bound). */
    public int below(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive, got " + bound);
        }
        return (int) Long.remainderUnsigned(nextLong(), bound);
    }

    /** Uniform in [lo, hi]. */
    public int range(int lo, int hi) {
        return lo + below(hi - lo + 1);
    }

    /** True with probability {@code percent}/100. */
    public boolean percent(int percent) {
        return below(100) < percent;
    }

    public boolean coin() {
        return (nextLong() & 1) != 0;
    }

    public <T> T pick(List<T> items) {
        return items.get(below(items.size()));
    }

    @SafeVarargs
    public final <T> T pick(T... items) {
        return items[below(items.length)];
    }

    /** An index chosen with probability proportional to its weight; -1 if every weight is 0. */
    public int weighted(int[] weights) {
        long total = 0;
        for (int w : weights) {
            total += Math.max(0, w);
        }
        if (total == 0) {
            return -1;
        }
        long r = Long.remainderUnsigned(nextLong(), total);
        for (int i = 0; i < weights.length; i++) {
            r -= Math.max(0, weights[i]);
            if (r < 0) {
                return i;
            }
        }
        throw new IllegalStateException("unreachable: weights changed while choosing");
    }
}
