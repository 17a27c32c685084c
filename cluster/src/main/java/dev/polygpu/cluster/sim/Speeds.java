package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.SpeedEstimate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How fast each member's device runs: a pattern of speed factors that member {@code i} takes entry
 * {@code i mod length} of ({@link #speed}; members that join later continue the pattern). A task of duration
 * {@code d} runs {@code d / speed} on a member: 1 is the workload's reference device, 0.5 one that takes twice as
 * long, 2 one that takes half as long. {@link #UNIFORM} (every member 1) is the default.
 *
 * <p>Written {@code 1*3,0.25}: three members of speed 1, then one of speed 0.25, and again. Immutable.
 */
public final class Speeds {

    /** Every member runs at speed 1. */
    public static final Speeds UNIFORM = new Speeds(new double[] {1});
    /** The most entries a pattern may have (an entry {@code F*N} counts N). */
    public static final int MAX_PATTERN = 1 << 20;

    private final double[] pattern;
    /** Whether each member scales its steal threshold and in-flight window by its relative speed. */
    private final boolean scaledLimits;
    /** Whether each member scales them by the relative speed it learns as it runs ({@link SpeedEstimate}). */
    private final boolean learnedLimits;
    /** The largest factor of the pattern (patterns hold up to a million entries: found once, not per member). */
    private final double fastest;

    private Speeds(double[] pattern) {
        this(pattern, false, false);
    }

    private Speeds(double[] pattern, boolean scaledLimits, boolean learnedLimits) {
        this.pattern = pattern;
        this.scaledLimits = scaledLimits;
        this.learnedLimits = learnedLimits;
        double max = 0;
        for (double f : pattern) {
            max = Math.max(max, f);
        }
        this.fastest = max;
    }

    /**
     * {@return these speeds, with members that scale (or not) their steal threshold and in-flight window by
     * their speed against the fastest member's} A member {@code k} times slower then keeps about {@code 1/k} of
     * the elements for itself that the others keep (see {@link #threshold} and {@link #window}): the ones it
     * holds are the run's tail otherwise, as they take {@code k} times as long there.
     */
    public Speeds withScaledLimits(boolean scaled) {
        return new Speeds(pattern, scaled, scaled ? false : learnedLimits);
    }

    /**
     * {@return these speeds, with members that scale (or not) their steal threshold and in-flight window by the
     * speed they learn as they run} As {@link #withScaledLimits}, but no member is told its speed: each learns
     * it with a {@link SpeedEstimate}, from run times of the work it shares with other members, as the cluster
     * node does. Turning this on turns the known scaling off.
     */
    public Speeds withLearnedLimits(boolean learned) {
        return new Speeds(pattern, learned ? false : scaledLimits, learned);
    }

    /** {@return whether members scale their threshold and window by the speed they learn} */
    public boolean learnedLimits() {
        return learnedLimits;
    }

    /** {@return whether members scale their threshold and window by their relative speed} */
    public boolean scaledLimits() {
        return scaledLimits;
    }

    /** {@return member {@code index}'s speed over the fastest member's, from above 0 to 1} */
    public double relative(int index) {
        return speed(index) / fastest;
    }

    /**
     * {@return the steal threshold of member {@code index}: {@code threshold}, or with scaled limits
     * {@code max(1, round(threshold x relative speed))}}
     */
    public int threshold(int index, int threshold) {
        return scaledLimits ? SpeedEstimate.threshold(threshold, relative(index)) : threshold;
    }

    /**
     * {@return the in-flight window of member {@code index}: {@code window}, or with scaled limits
     * {@code round(window x relative speed)} but at least {@code min(slots, window)}, so that its device still
     * has a task for each slot}
     */
    public int window(int index, int window, int slots) {
        return scaledLimits ? SpeedEstimate.window(window, slots, relative(index)) : window;
    }

    /**
     * Speeds from a pattern.
     *
     * @param pattern speed factors, each finite and above 0; at least one
     * @return the speeds
     * @throws IllegalArgumentException if the pattern is empty or a factor is out of range
     */
    public static Speeds of(double... pattern) {
        if (pattern.length == 0 || pattern.length > MAX_PATTERN) {
            throw new IllegalArgumentException("a speed pattern needs 1 to " + MAX_PATTERN + " entries, had "
                    + pattern.length);
        }
        for (double f : pattern) {
            check(f);
        }
        return new Speeds(pattern.clone());
    }

    /**
     * Parses {@code F[*N],F[*N],...}: factors, each optionally repeated N times.
     *
     * @param text the pattern, for example {@code 1*3,0.25}
     * @return the speeds
     * @throws IllegalArgumentException saying which entry is wrong and how to write one
     */
    public static Speeds parse(String text) {
        List<Double> factors = new ArrayList<>();
        for (String entry : text.split(",", -1)) {
            String e = entry.strip();
            int star = e.indexOf('*');
            String factor = star < 0 ? e : e.substring(0, star);
            long count = 1;
            double f;
            try {
                f = Double.parseDouble(factor);
                if (star >= 0) {
                    count = Long.parseLong(e.substring(star + 1));
                }
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException("'" + e + "' in '" + text + "' is not a speed: write a factor "
                        + "above 0, optionally repeated, as in 1*3,0.25 (three members of speed 1, one of 0.25)");
            }
            if (count < 1 || factors.size() + count > MAX_PATTERN) {
                throw new IllegalArgumentException("'" + e + "' in '" + text + "': a repeat count must be from 1 "
                        + "to " + MAX_PATTERN + " entries in all");
            }
            try {
                check(f);
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException("'" + e + "' in '" + text + "': " + x.getMessage());
            }
            for (long i = 0; i < count; i++) {
                factors.add(f);
            }
        }
        return new Speeds(factors.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** {@return the speed of member {@code index}} */
    public double speed(int index) {
        return pattern[Math.floorMod(index, pattern.length)];
    }

    /** {@return whether every member runs at speed 1} */
    public boolean uniform() {
        for (double f : pattern) {
            if (f != 1) {
                return false;
            }
        }
        return true;
    }

    private static void check(double f) {
        if (!(f > 0) || Double.isInfinite(f)) {
            throw new IllegalArgumentException("a speed must be a finite number above 0, was " + f);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Speeds s && Arrays.equals(pattern, s.pattern) && scaledLimits == s.scaledLimits
                && learnedLimits == s.learnedLimits;
    }

    @Override
    public int hashCode() {
        return (Arrays.hashCode(pattern) * 31 + Boolean.hashCode(scaledLimits)) * 31 + Boolean.hashCode(learnedLimits);
    }

    /**
     * {@return the pattern as {@link #parse} reads it, runs of a factor written {@code F*N} (whether limits are
     * scaled or learnt is not part of it)}
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pattern.length; ) {
            int j = i;
            while (j < pattern.length && pattern[j] == pattern[i]) {
                j++;
            }
            if (!b.isEmpty()) {
                b.append(',');
            }
            b.append(Specs.number(pattern[i]));
            if (j - i > 1) {
                b.append('*').append(j - i);
            }
            i = j;
        }
        return b.toString();
    }
}
