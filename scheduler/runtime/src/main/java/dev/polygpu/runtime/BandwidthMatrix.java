package dev.polygpu.runtime;

import java.util.List;

/**
 * Reads GrCUDA's bandwidth file ({@code grcuda.BandwidthMatrix}) into the matrix {@link MultiDeviceConfig} takes.
 * The file is CSV: a header line, then one line per measured link, {@code start_id,end_id,bandwidth} (GB/s), where
 * id -1 is the CPU and 0.. the GPUs. As GrCUDA does: links of devices beyond those used are skipped, bandwidths
 * are rounded down to whole GB/s, a CPU–GPU line sets both directions, and the two directions between GPUs are
 * averaged. Every link among the devices used and the host must be there.
 */
public final class BandwidthMatrix {
    private BandwidthMatrix() {
    }

    /**
     * The matrix for {@code devices} devices and the host (index {@code devices}) from the lines of the file
     * {@code name}; IllegalArgumentException naming the file and line that does not parse, or the first link missing.
     */
    public static double[][] parse(List<String> lines, int devices, String name) {
        int n = devices + 1;
        double[][] m = new double[n][n];
        boolean[][] seen = new boolean[n][n];
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
                bw = Math.floor(Double.parseDouble(f[2].strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": expected two device ids (-1 for the CPU)"
                        + " and a bandwidth in GB/s, got \"" + line + "\"", e);
            }
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
