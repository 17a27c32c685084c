package dev.polygpu.runtime;

/**
 * What {@link BandwidthProbe} measured: per link, the bandwidth and the copy it was taken from. Indices are
 * locations as in {@link MultiDeviceConfig#bandwidth()}: 0 to N-1 the devices, N the host; {@code [from][to]}. The
 * diagonal is 0 (no link is measured from a location to itself). Immutable: the accessors return copies.
 *
 * @param gigabytesPerSecond per link, 10^9 bytes per second
 * @param bytes              per link, the size of the copy the bandwidth comes from
 * @param millis             per link, how long that copy took on the device's clock (its events)
 * @param elapsedNanos       how long the whole measurement took, buffers and streams included
 */
public record BandwidthMeasurement(double[][] gigabytesPerSecond, long[][] bytes, double[][] millis,
        long elapsedNanos) {
    public BandwidthMeasurement {
        gigabytesPerSecond = copy(gigabytesPerSecond);
        bytes = copy(bytes);
        millis = copy(millis);
    }

    @Override
    public double[][] gigabytesPerSecond() {
        return copy(gigabytesPerSecond);
    }

    @Override
    public long[][] bytes() {
        return copy(bytes);
    }

    @Override
    public double[][] millis() {
        return copy(millis);
    }

    /** The smallest and the largest copy among the links, in bytes. */
    public long[] copySizeRange() {
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < bytes.length; i++) {
            for (int j = 0; j < bytes.length; j++) {
                if (i != j) {
                    min = Math.min(min, bytes[i][j]);
                    max = Math.max(max, bytes[i][j]);
                }
            }
        }
        return new long[] {min == Long.MAX_VALUE ? 0 : min, max};
    }

    private static double[][] copy(double[][] m) {
        double[][] out = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            out[i] = m[i].clone();
        }
        return out;
    }

    private static long[][] copy(long[][] m) {
        long[][] out = new long[m.length][];
        for (int i = 0; i < m.length; i++) {
            out[i] = m[i].clone();
        }
        return out;
    }
}
