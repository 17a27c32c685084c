package dev.polygpu.runtime;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;

/**
 * Reads GrCUDA's bandwidth file ({@code grcuda.BandwidthMatrix}) into the matrix {@link MultiDeviceConfig} takes.
 * The file is CSV: a header line, then one line per measured link, {@code start_id,end_id,bandwidth} (GB/s), where
 * id -1 is the CPU and 0.. the GPUs. As GrCUDA does: links of devices beyond those used are skipped, bandwidths
 * are rounded down to whole GB/s, a CPU–GPU line sets both directions (the last such line of a pair counts), and the
 * two directions between GPUs are averaged. Unlike GrCUDA, a bandwidth under 1 GB/s (a slow simulated link) is kept
 * as it is rather than rounded to 0, which no transfer time could use. Every link among the devices used and the
 * host must be there. {@link #csv} writes the format.
 */
public final class BandwidthMatrix {
    /** The header line GrCUDA writes. */
    public static final String HEADER = "start_id,end_id,bandwidth";

    private BandwidthMatrix() {
    }

    /**
     * GrCUDA's CSV of {@code m} (locations as in {@link MultiDeviceConfig#bandwidth()}, the host last): the header,
     * then for each device its lines with the CPU ({@code -1,d} and {@code d,-1}), then each ordered pair of devices;
     * bandwidths to 6 significant digits. Read back by {@link #parse}, GrCUDA's rules above apply.
     */
    public static String csv(double[][] m) {
        int devices = m.length - 1;
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (int d = 0; d < devices; d++) {
            line(b, -1, d, m[devices][d]);
            line(b, d, -1, m[d][devices]);
        }
        for (int i = 0; i < devices; i++) {
            for (int j = 0; j < devices; j++) {
                if (i != j) {
                    line(b, i, j, m[i][j]);
                }
            }
        }
        return b.toString();
    }

    private static void line(StringBuilder b, int from, int to, double gbps) {
        String value = new BigDecimal(gbps).round(new MathContext(6)).stripTrailingZeros().toPlainString();
        b.append(from).append(',').append(to).append(',').append(value).append('\n');
    }

    /**
     * The matrix for {@code devices} devices and the host (index {@code devices}) from the lines of the file
     * {@code name}; IllegalArgumentException naming the file and line that does not parse, or the first link missing.
     */
    public static double[][] parse(List<String> lines, int devices, String name) {
        int n = devices + 1;
        double[][] m = new double[n][n];
        boolean[][] seen = new boolean[n][n];
        if (!lines.isEmpty() && lines.get(0).strip().matches("-?\\d+\\s*,.*")) {
            throw new IllegalArgumentException(name + ":1: the first line is skipped as GrCUDA's header, but it holds a"
                    + " link (\"" + lines.get(0).strip() + "\"); start the file with the line " + HEADER);
        }
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",");
            if (f.length < 3) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": expected start_id,end_id,bandwidth, got \""
                        + line + "\"");
            }
            int from;
            int to;
            double bw;
            try {
                from = Integer.parseInt(f[0].strip());
                to = Integer.parseInt(f[1].strip());
                bw = Double.parseDouble(f[2].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": expected two device ids (-1 for the CPU)"
                        + " and a bandwidth in GB/s, got \"" + line + "\"", e);
            }
            if (!(bw > 0) || Double.isInfinite(bw)) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": the bandwidth must be a positive number"
                        + " of GB/s, got \"" + line + "\"");
            }
            bw = bw >= 1 ? Math.floor(bw) : bw;
            if (from < -1 || to < -1) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": device ids are -1 (the CPU) or 0 and"
                        + " more, got \"" + line + "\"");
            }
            if (from >= devices || to >= devices) {
                continue;
            }
            int a = from == -1 ? devices : from;
            int b = to == -1 ? devices : to;
            if (from == -1 || to == -1) {
                set(m, seen, a, b, bw);
                set(m, seen, b, a, bw);
            } else {
                set(m, seen, a, b, bw);
            }
        }
        for (int i = 0; i < devices; i++) {
            for (int j = i + 1; j < devices; j++) {
                if (!seen[i][j] && !seen[j][i]) {
                    throw missing(name, i, j);
                }
                double avg = seen[i][j] && seen[j][i] ? (m[i][j] + m[j][i]) / 2 : Math.max(m[i][j], m[j][i]);
                m[i][j] = avg;
                m[j][i] = avg;
            }
            if (!seen[devices][i]) {
                throw missing(name, -1, i);
            }
        }
        return m;
    }

    private static void set(double[][] m, boolean[][] seen, int a, int b, double bw) {
        m[a][b] = bw;
        seen[a][b] = true;
    }

    private static IllegalArgumentException missing(String name, int a, int b) {
        return new IllegalArgumentException(name + ": no line gives the bandwidth between " + (a == -1 ? "the CPU (-1)"
                : "device " + a) + " and device " + b + "; each pair of devices used, and each with the CPU, needs one");
    }
}
