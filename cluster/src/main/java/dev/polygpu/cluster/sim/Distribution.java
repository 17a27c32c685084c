package dev.polygpu.cluster.sim;

import java.util.random.RandomGenerator;

/**
 * A distribution of non-negative values (task durations in nanoseconds, sizes in bytes) that the workload
 * generators draw from. Immutable; {@link #sample} draws only from the generator passed in, so a seeded
 * generator gives the same values every run.
 *
 * <p>Written as a spec, for command lines: {@code const:X}, {@code uniform:A:B}, {@code exp:MEAN},
 * {@code lognormal:MEDIAN:SIGMA} or {@code pareto:MIN:ALPHA}. {@link #parse} takes plain numbers as they are
 * and converts a number with a time unit ({@code ns}, {@code us}, {@code ms}, {@code s}) to nanoseconds;
 * {@link #parseDuration} reads a plain number as milliseconds. {@code SIGMA} and {@code ALPHA} are shape
 * parameters and take no unit. {@link #toString()} writes the spec back with plain numbers, so
 * {@code parse(d.toString())} equals {@code d}.
 */
public sealed interface Distribution {

    /** The spec forms, for error messages. */
    String FORMS = "const:X, uniform:A:B, exp:MEAN, lognormal:MEDIAN:SIGMA or pareto:MIN:ALPHA "
            + "(times may end in ns, us, ms or s)";

    /**
     * Draws one value.
     *
     * @param rnd the source of randomness; it is advanced
     * @return a finite value, at least 0
     */
    double sample(RandomGenerator rnd);

    /** {@return the mean of the distribution; infinite for a Pareto with {@code alpha <= 1}} */
    double mean();

    /**
     * {@return always {@code x}}
     *
     * @param x finite, at least 0
     * @throws IllegalArgumentException if {@code x} is negative or not finite
     */
    static Distribution constant(double x) {
        return new Constant(x);
    }

    /**
     * {@return values spread evenly between {@code lo} and {@code hi}}
     *
     * @param lo the least value; finite, at least 0
     * @param hi the greatest value; finite, at least {@code lo}
     * @throws IllegalArgumentException if the bounds are negative, not finite or out of order
     */
    static Distribution uniform(double lo, double hi) {
        return new Uniform(lo, hi);
    }

    /**
     * {@return exponentially distributed values (memoryless; standard deviation equal to the mean)}
     *
     * @param mean the mean; finite, above 0
     * @throws IllegalArgumentException if {@code mean} is not positive and finite
     */
    static Distribution exponential(double mean) {
        return new Exponential(mean);
    }

    /**
     * {@return log-normally distributed values: {@code median · e^(sigma · N(0,1))}, with mean
     * {@code median · e^(sigma²/2)}}
     *
     * @param median the median; finite, above 0
     * @param sigma the standard deviation of the logarithm; finite, at least 0 (0 gives the median always)
     * @throws IllegalArgumentException if a parameter is out of range
     */
    static Distribution lognormal(double median, double sigma) {
        return new LogNormal(median, sigma);
    }

    /**
     * {@return Pareto-distributed values, the heavy tail of irregular task sizes (Dtree, PaRSEC's block-sparse
     * kernels): {@code P(X > x) = (min / x)^alpha} for {@code x >= min}, with mean
     * {@code alpha · min / (alpha - 1)} when {@code alpha > 1} (infinite otherwise)}. The smaller
     * {@code alpha}, the heavier the tail; samples are capped at {@link Double#MAX_VALUE}.
     *
     * @param min the least value (the scale); finite, above 0
     * @param alpha the tail index; finite, above 0
     * @throws IllegalArgumentException if a parameter is out of range
     */
    static Distribution pareto(double min, double alpha) {
        return new Pareto(min, alpha);
    }

    /**
     * Reads a spec whose plain numbers are taken as they are and whose numbers with a time unit are converted
     * to nanoseconds ({@code exp:2ms} has mean 2,000,000).
     *
     * @param spec one of the forms in the class comment
     * @return the distribution
     * @throws IllegalArgumentException naming the spec, what is wrong and the accepted forms
     */
    static Distribution parse(String spec) {
        return Specs.distribution(spec, 1);
    }

    /**
     * Reads a spec of durations, in nanoseconds: a plain number is milliseconds, a number with a unit
     * ({@code ns}, {@code us}, {@code ms}, {@code s}) is converted ({@code uniform:500us:2} is 0.5 to 2 ms).
     *
     * @param spec one of the forms in the class comment
     * @return the distribution, in nanoseconds
     * @throws IllegalArgumentException naming the spec, what is wrong and the accepted forms
     */
    static Distribution parseDuration(String spec) {
        return Specs.distribution(spec, 1e6);
    }

    /**
     * Reads a size: a whole number of bytes, or a number with a suffix {@code B}, {@code KB}, {@code MB} or
     * {@code GB} (powers of 1024, any case): {@code 4MB} is 4,194,304, {@code 1.5KB} is 1,536.
     *
     * @param spec the size
     * @return the size in bytes, rounded to a whole byte; at least 0
     * @throws IllegalArgumentException naming the spec if it is not such a size or does not fit a long
     */
    static long parseBytes(String spec) {
        return Specs.bytes(spec);
    }

    /** The same value every time. */
    record Constant(double x) implements Distribution {
        public Constant {
            Specs.check(x >= 0 && Double.isFinite(x), "const", "X must be finite and >= 0, was " + x);
        }

        @Override
        public double sample(RandomGenerator rnd) {
            return x;
        }

        @Override
        public double mean() {
            return x;
        }

        @Override
        public String toString() {
            return "const:" + Specs.number(x);
        }
    }

    /** Values spread evenly between {@code lo} and {@code hi}. */
    record Uniform(double lo, double hi) implements Distribution {
        public Uniform {
            Specs.check(lo >= 0 && Double.isFinite(hi) && lo <= hi, "uniform",
                    "A and B must be finite with 0 <= A <= B, were " + lo + " and " + hi);
        }

        @Override
        public double sample(RandomGenerator rnd) {
            return lo + (hi - lo) * rnd.nextDouble();
        }

        @Override
        public double mean() {
            return (lo + hi) / 2;
        }

        @Override
        public String toString() {
            return "uniform:" + Specs.number(lo) + ":" + Specs.number(hi);
        }
    }

    /** Exponentially distributed values. */
    record Exponential(double mean) implements Distribution {
        public Exponential {
            Specs.check(mean > 0 && Double.isFinite(mean), "exp", "MEAN must be finite and > 0, was " + mean);
        }

        @Override
        public double sample(RandomGenerator rnd) {
            return mean * rnd.nextExponential();
        }

        @Override
        public String toString() {
            return "exp:" + Specs.number(mean);
        }
    }

    /** Log-normally distributed values. */
    record LogNormal(double median, double sigma) implements Distribution {
        public LogNormal {
            Specs.check(median > 0 && Double.isFinite(median), "lognormal",
                    "MEDIAN must be finite and > 0, was " + median);
            Specs.check(sigma >= 0 && Double.isFinite(sigma), "lognormal",
                    "SIGMA must be finite and >= 0, was " + sigma);
        }

        @Override
        public double sample(RandomGenerator rnd) {
            return Math.min(median * Math.exp(sigma * rnd.nextGaussian()), Double.MAX_VALUE);
        }

        @Override
        public double mean() {
            return median * Math.exp(sigma * sigma / 2);
        }

        @Override
        public String toString() {
            return "lognormal:" + Specs.number(median) + ":" + Specs.number(sigma);
        }
    }

    /** Pareto-distributed values. */
    record Pareto(double min, double alpha) implements Distribution {
        public Pareto {
            Specs.check(min > 0 && Double.isFinite(min), "pareto", "MIN must be finite and > 0, was " + min);
            Specs.check(alpha > 0 && Double.isFinite(alpha), "pareto",
                    "ALPHA must be finite and > 0, was " + alpha);
        }

        @Override
        public double sample(RandomGenerator rnd) {
            // Inverse transform on u in (0, 1], so the power is finite or saturates, never divides by zero.
            double u = 1 - rnd.nextDouble();
            return Math.min(min * Math.pow(u, -1 / alpha), Double.MAX_VALUE);
        }

        @Override
        public double mean() {
            return alpha > 1 ? alpha * min / (alpha - 1) : Double.POSITIVE_INFINITY;
        }

        @Override
        public String toString() {
            return "pareto:" + Specs.number(min) + ":" + Specs.number(alpha);
        }
    }
}
