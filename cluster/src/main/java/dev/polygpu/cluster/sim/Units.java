package dev.polygpu.cluster.sim;

import java.util.Locale;

/** Human-readable times and sizes for the simulator's reports. Internal. */
final class Units {
    private Units() {
    }

    /** {@return {@code nanos} as ns, µs, ms or s with three significant digits or so} */
    static String nanos(long nanos) {
        double v = nanos;
        if (Math.abs(v) < 1e3) {
            return nanos + " ns";
        }
        if (Math.abs(v) < 1e6) {
            return format(v / 1e3) + " us";
        }
        if (Math.abs(v) < 1e9) {
            return format(v / 1e6) + " ms";
        }
        return format(v / 1e9) + " s";
    }

    /** {@return {@code bytes} in B, KB, MB or GB (powers of 1,024)} */
    static String bytes(long bytes) {
        double v = bytes;
        if (Math.abs(v) < 1024) {
            return bytes + " B";
        }
        if (Math.abs(v) < 1024 * 1024) {
            return format(v / 1024) + " KB";
        }
        if (Math.abs(v) < 1024.0 * 1024 * 1024) {
            return format(v / (1024 * 1024)) + " MB";
        }
        return format(v / (1024.0 * 1024 * 1024)) + " GB";
    }

    private static String format(double v) {
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (Math.abs(v) >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
