package dev.polygpu.runtime;

import java.util.Arrays;

/**
 * How a {@link Scheduler} with several devices places elements and weighs transfers. Immutable; {@link #DEFAULT}
 * plus the {@code with…} methods, which validate.
 *
 * @param policy        how each element's device is chosen ({@link DeviceSelectionPolicy})
 * @param dataThreshold the fraction of an element's array bytes (0 to 1) a device must hold for the data-aware
 *                      policies to consider it (GrCUDA's {@code DataThreshold}, default 0.1)
 * @param bandwidth     link bandwidths in GB/s for the transfer-time policies and the choice of a transfer's source:
 *                      {@code bandwidth[i][j]} from location {@code i} to {@code j}, locations 0 to N-1 the devices and
 *                      N the host; null for the same bandwidth everywhere (then transfer time follows size)
 */
public record MultiDeviceConfig(DeviceSelectionPolicy policy, double dataThreshold, double[][] bandwidth) {
    /** GrCUDA's default {@code DataThreshold}. */
    public static final double DEFAULT_DATA_THRESHOLD = 0.1;
    /** Round-robin, threshold 0.1, one bandwidth for every link. */
    public static final MultiDeviceConfig DEFAULT =
            new MultiDeviceConfig(DeviceSelectionPolicy.ROUND_ROBIN, DEFAULT_DATA_THRESHOLD, null);

    public MultiDeviceConfig {
        if (policy == null) {
            throw new IllegalArgumentException("a device selection policy is needed; valid: single-gpu, round-robin,"
                    + " stream-aware, min-transfer-size, minmin-transfer-time, minmax-transfer-time");
        }
        if (!(dataThreshold >= 0 && dataThreshold <= 1)) {
            throw new IllegalArgumentException("dataThreshold must be from 0 to 1, got " + dataThreshold);
        }
        if (bandwidth != null) {
            bandwidth = copySquare(bandwidth);
        }
    }

    private static double[][] copySquare(double[][] m) {
        double[][] out = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            if (m[i] == null || m[i].length != m.length) {
                throw new IllegalArgumentException("the bandwidth matrix must be square (devices + host), row " + i
                        + " has " + (m[i] == null ? 0 : m[i].length) + " entries for " + m.length + " rows");
            }
            for (int j = 0; j < m.length; j++) {
                if (i != j && !(m[i][j] > 0)) {
                    throw new IllegalArgumentException("bandwidth[" + i + "][" + j + "] must be positive (GB/s), got "
                            + m[i][j]);
                }
            }
            out[i] = m[i].clone();
        }
        return out;
    }

    /** The bandwidth from location {@code from} to {@code to} (the host is the last location). */
    double link(int from, int to) {
        return bandwidth == null ? 1 : bandwidth[from][to];
    }

    /** IllegalArgumentException unless the matrix, if any, has a row and column for each device and the host. */
    void checkFor(int devices) {
        if (bandwidth != null && bandwidth.length != devices + 1) {
            throw new IllegalArgumentException("the bandwidth matrix is " + bandwidth.length + "x" + bandwidth.length
                    + " but the scheduler has " + devices + " devices and the host (" + (devices + 1) + ")");
        }
    }

    /** A copy of the bandwidth matrix, or null. */
    @Override
    public double[][] bandwidth() {
        return bandwidth == null ? null : copySquare(bandwidth);
    }

    public MultiDeviceConfig withPolicy(DeviceSelectionPolicy p) {
        return new MultiDeviceConfig(p, dataThreshold, bandwidth);
    }

    public MultiDeviceConfig withDataThreshold(double t) {
        return new MultiDeviceConfig(policy, t, bandwidth);
    }

    public MultiDeviceConfig withBandwidth(double[][] matrix) {
        return new MultiDeviceConfig(policy, dataThreshold, matrix);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MultiDeviceConfig c && c.policy == policy && c.dataThreshold == dataThreshold
                && Arrays.deepEquals(c.bandwidth, bandwidth);
    }

    @Override
    public int hashCode() {
        return policy.hashCode() * 31 + Double.hashCode(dataThreshold) * 17 + Arrays.deepHashCode(bandwidth);
    }

    @Override
    public String toString() {
        return "MultiDeviceConfig[policy=" + policy.spelling() + ", dataThreshold=" + dataThreshold + ", bandwidth="
                + (bandwidth == null ? "uniform" : Arrays.deepToString(bandwidth)) + "]";
    }
}
