package dev.polygpu.bench.cluster;

import java.util.Arrays;

/** Order statistics of a handful of measurements. */
final class Stats {
    private Stats() {
    }

    /** The median (the mean of the middle two for an even count). */
    static double median(double[] xs) {
        if (xs.length == 0) {
            throw new IllegalArgumentException("the median of no values");
        }
        double[] s = xs.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    static double min(double[] xs) {
        return Arrays.stream(xs).min().orElseThrow();
    }

    static double max(double[] xs) {
        return Arrays.stream(xs).max().orElseThrow();
    }
}
