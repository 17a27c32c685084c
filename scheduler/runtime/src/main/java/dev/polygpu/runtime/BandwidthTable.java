package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A bandwidth matrix as a table for people: one row per source, one column per destination, GB/s to 3 significant
 * digits, locations named as the scheduler names them ({@code host}, {@code cpu device 1}); with a measurement, a
 * line saying how long it took and how large the copies were.
 */
public final class BandwidthTable {
    private BandwidthTable() {
    }

    /** The table of {@code m} over {@code devices} and the host; {@code measured} may be null. */
    public static String format(double[][] m, List<Device> devices, BandwidthMeasurement measured) {
        List<String> names = new ArrayList<>();
        for (int d = 0; d < devices.size(); d++) {
            names.add(devices.get(d).backend() + " device " + d);
        }
        names.add("host");
        int width = names.stream().mapToInt(String::length).max().orElse(4);
        String corner = "from \\ to";
        width = Math.max(width, corner.length());
        StringBuilder b = new StringBuilder("link bandwidth in GB/s (10^9 bytes per second), from each row to each"
                + " column\n");
        b.append(pad(corner, width, false));
        for (String name : names) {
            b.append("  ").append(pad(name, width, true));
        }
        b.append('\n');
        for (int i = 0; i < names.size(); i++) {
            b.append(pad(names.get(i), width, false));
            for (int j = 0; j < names.size(); j++) {
                b.append("  ").append(pad(i == j ? "-" : number(m[i][j]), width, true));
            }
            b.append('\n');
        }
        if (measured != null) {
            long[] sizes = measured.copySizeRange();
            b.append(String.format(Locale.ROOT, "measured in %.0f ms; per link, copies grown to a final size"
                    + " (here %s to %s), the fastest of those counting%n", measured.elapsedNanos() / 1e6, bytes(sizes[0]),
                    bytes(sizes[1])));
        }
        return b.toString();
    }

    private static String number(double gbps) {
        return new BigDecimal(gbps).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** {@code bytes} in KiB or MiB, as copy sizes are powers of two times pages. */
    static String bytes(long bytes) {
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
        }
        return String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0);
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return right ? fill + s : s + fill;
    }
}
