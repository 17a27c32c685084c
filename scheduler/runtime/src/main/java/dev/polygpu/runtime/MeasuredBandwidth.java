package dev.polygpu.runtime;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The link bandwidths of a set of devices where no bandwidth file is given: from the {@link BandwidthCache} when it
 * holds them, else measured by a {@link BandwidthProbe} and stored there. A damaged cache entry is measured again
 * and replaced; a cache that cannot be written leaves a warning, and the measured matrix is used all the same.
 *
 * @param matrix       GB/s per link, locations as in {@link MultiDeviceConfig#bandwidth()}
 * @param measurement  the figures, when the matrix was measured now; null when it came from the cache
 * @param cacheFile    the cache entry read or written (or that could not be written)
 * @param replaced     true when a damaged entry was there and was measured again
 * @param cacheWarning why the measured matrix could not be stored, or null
 */
public record MeasuredBandwidth(double[][] matrix, BandwidthMeasurement measurement, Path cacheFile,
        boolean replaced, String cacheWarning) {
    public MeasuredBandwidth {
        matrix = copy(matrix);
    }

    @Override
    public double[][] matrix() {
        return copy(matrix);
    }

    /**
     * The matrix of {@code probe}'s devices, whose copy paths {@code copySettings} describes beyond the devices
     * themselves ({@link BandwidthCache#key}): read from {@code cache}, unless {@code measureAgain} or it is not
     * there, then measured and stored.
     */
    public static MeasuredBandwidth find(BandwidthProbe probe, String copySettings, BandwidthCache cache,
            boolean measureAgain) {
        String key = BandwidthCache.key(probe.devices(), copySettings);
        Path file = cache.file(key);
        boolean damaged = false;
        if (!measureAgain) {
            BandwidthCache.Lookup found = cache.get(key, probe.devices().size());
            if (found.matrix() != null) {
                return new MeasuredBandwidth(found.matrix(), null, file, false, null);
            }
            damaged = found.damaged();
        }
        BandwidthMeasurement m = probe.measure();
        String warning = null;
        try {
            cache.put(key, m.gigabytesPerSecond());
        } catch (IOException | RuntimeException e) {
            warning = "the measured link bandwidths cannot be cached in " + cache.dir() + " (" + e + "), so the next"
                    + " context measures them again; make the folder writable, or set XDG_CACHE_HOME to a writable"
                    + " folder, or give the matrix with grcuda.BandwidthMatrix";
        }
        return new MeasuredBandwidth(m.gigabytesPerSecond(), m, file, damaged, warning);
    }

    private static double[][] copy(double[][] m) {
        double[][] out = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            out[i] = m[i].clone();
        }
        return out;
    }
}
