package dev.polygpu.grcuda;

import com.oracle.truffle.api.TruffleLanguage;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.runtime.BandwidthCache;
import dev.polygpu.runtime.BandwidthMatrix;
import dev.polygpu.runtime.BandwidthMeasurement;
import dev.polygpu.runtime.BandwidthProbe;
import dev.polygpu.runtime.BandwidthTable;
import dev.polygpu.runtime.MeasuredBandwidth;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The link bandwidths of a context's devices, for the transfer-time policies and the choice of a transfer's source:
 * GrCUDA's file when {@code grcuda.BandwidthMatrix} names one, else measured on the devices the first time a set of
 * devices with its link settings is used, and cached ({@link MeasuredBandwidth}). A file that does not parse is a
 * guest error naming the line; one that cannot be read, and a cache that cannot be written, are warnings.
 *
 * @param devices     the devices, in order; the host is the location after them
 * @param matrix      GB/s from each location to each ({@code [from][to]})
 * @param source      where the matrix came from, as a phrase ("measured in 212 ms, cached in …")
 * @param measurement the figures when it was measured by this context, else null
 */
public record GrBandwidth(List<Device> devices, double[][] matrix, String source, BandwidthMeasurement measurement) {
    /** A progress line is printed once a measurement has taken this long, and again at most this often. */
    private static final long PROGRESS_AFTER_NANOS = 1_000_000_000L;

    /** The matrix in GrCUDA's CSV, which {@code grcuda.BandwidthMatrix} reads back. */
    public String csv() {
        return BandwidthMatrix.csv(matrix);
    }

    /** The matrix as a table, with how it was measured when it was, and where it came from. */
    public String table() {
        return BandwidthTable.format(matrix, devices, measurement) + "link bandwidths " + source + "\n";
    }

    /**
     * The matrix of GrCUDA's file {@code file}, for {@code devices}; null, after a warning naming the file and why,
     * when it cannot be read (GrCUDA, too, goes on without it, and its scripts name files that may not be there).
     */
    static GrBandwidth fromFile(TruffleLanguage.Env env, String file, List<Device> devices, Consumer<String> warning) {
        List<String> lines;
        try {
            lines = new String(env.getPublicTruffleFile(file).readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            warning.accept("grcuda.BandwidthMatrix=" + file + " cannot be read (" + e + "), so the link bandwidths"
                    + " are measured instead; give the path of a readable CSV in GrCUDA's format"
                    + " (start_id,end_id,bandwidth), or leave the option empty");
            return null;
        }
        try {
            return new GrBandwidth(devices, BandwidthMatrix.parse(lines, devices.size(), file), "from " + file, null);
        } catch (IllegalArgumentException e) {
            throw GrError.of("grcuda.BandwidthMatrix: " + e.getMessage(), e);
        }
    }

    /**
     * The measured matrix of {@code devices}, whose host memory is on device 0 (where the arrays' own buffers are)
     * and whose copy paths {@code copySettings} describes beyond the devices: from the cache unless
     * {@code measureAgain}, else measured now. Progress and the cache's warning go to {@code err}.
     */
    static GrBandwidth measured(List<Device> devices, String copySettings, boolean measureAgain,
            Consumer<String> progressLine, Consumer<String> warning) {
        BandwidthProbe probe = new BandwidthProbe(devices, devices.get(0)::allocate).progress(progress(progressLine));
        MeasuredBandwidth m;
        try {
            m = MeasuredBandwidth.find(probe, copySettings, BandwidthCache.atDefaultLocation(), measureAgain);
        } catch (DeviceException e) {
            throw GrError.of("measuring the link bandwidths failed: " + e.getMessage() + " (give the matrix with"
                    + " grcuda.BandwidthMatrix to skip the measurement)", e);
        }
        if (m.cacheWarning() != null) {
            warning.accept(m.cacheWarning());
        }
        String source;
        if (m.measurement() == null) {
            source = "from the cache " + m.cacheFile() + " (delete it to measure again)";
        } else {
            source = String.format(Locale.ROOT, "measured in %.0f ms", m.measurement().elapsedNanos() / 1e6)
                    + (m.cacheWarning() != null ? ", not cached" : m.replaced() ? ", cached in " + m.cacheFile()
                    + " in place of a damaged entry" : ", cached in " + m.cacheFile());
        }
        return new GrBandwidth(devices, m.matrix(), source, m.measurement());
    }

    /** A line on {@code out} once a measurement takes more than a moment, then once a second at most. */
    private static BandwidthProbe.Progress progress(Consumer<String> out) {
        long[] next = {PROGRESS_AFTER_NANOS};
        return (done, total, nanos) -> {
            if (nanos >= next[0] && done < total) {
                next[0] = nanos + PROGRESS_AFTER_NANOS;
                out.accept("measuring the link bandwidths: " + done + " of " + total + " links");
            }
        };
    }
}
