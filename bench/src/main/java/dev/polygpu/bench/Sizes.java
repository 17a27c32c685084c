package dev.polygpu.bench;

import java.util.Arrays;
import java.util.Locale;

/** Formatting of sizes and timings, and the order statistics of a series of timings. */
final class Sizes {

    private Sizes() {
    }

    /** 16777216 as "16M", 4096 as "4K", other counts as they are. */
    static String elements(int n) {
        if (n % (1 << 20) == 0) {
            return (n >> 20) + "M";
        }
        if (n % (1 << 10) == 0) {
            return (n >> 10) + "K";
        }
        return Integer.toString(n);
    }

    static String ms(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }
}
