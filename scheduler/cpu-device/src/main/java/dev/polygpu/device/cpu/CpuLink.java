package dev.polygpu.device.cpu;

import java.util.Locale;

/**
 * The simulated link between CPU devices standing in for several GPUs: a copy between buffers of two different
 * CPU devices (a peer copy, or a transfer to or from the memory that serves as the host's) takes at least
 * {@code latency + bytes / bandwidth} on the stream that runs it, so that placement policies have transfer costs to
 * weigh and tests see transfers take time. Copies within one device are not delayed. The wait parks the stream's
 * dispatcher (a virtual thread), so it costs no core, and it overlaps other streams' work as a DMA engine's copy
 * does. Immutable.
 *
 * @param gigabytesPerSecond bandwidth in 10^9 bytes per second; positive, or infinite for no bandwidth limit
 * @param latencyMicros      time added to every such copy, in microseconds, 0 to 1,000,000
 */
public record CpuLink(double gigabytesPerSecond, double latencyMicros) {
    /** No delay at all: the link of a device nobody configured. */
    public static final CpuLink NONE = new CpuLink(Double.POSITIVE_INFINITY, 0);
    /** The longest latency accepted, in microseconds (one second). */
    public static final double MAX_LATENCY_MICROS = 1_000_000;

    public CpuLink {
        if (!(gigabytesPerSecond > 0)) {
            throw new IllegalArgumentException("a link's bandwidth must be positive (GB/s), got " + gigabytesPerSecond);
        }
        if (!(latencyMicros >= 0 && latencyMicros <= MAX_LATENCY_MICROS)) {
            throw new IllegalArgumentException("a link's latency must be from 0 to " + (long) MAX_LATENCY_MICROS
                    + " microseconds, got " + latencyMicros);
        }
    }

    /** How long a copy of {@code bytes} bytes over this link takes at least, in nanoseconds. */
    public long nanosFor(long bytes) {
        double seconds = Double.isInfinite(gigabytesPerSecond) ? 0 : bytes / (gigabytesPerSecond * 1e9);
        return (long) (latencyMicros * 1e3 + seconds * 1e9);
    }

    /** True if copies over this link are not delayed. */
    public boolean isFree() {
        return Double.isInfinite(gigabytesPerSecond) && latencyMicros == 0;
    }

    /**
     * Reads an option string: comma-separated {@code key=value} pairs with the keys {@code bandwidth} (GB/s, a
     * positive number or {@code inf}) and {@code latency} (microseconds), each at most once, in any order; a key
     * left out keeps {@link #NONE}'s value. Throws {@link IllegalArgumentException} naming what is wrong.
     */
    public static CpuLink parse(String option) {
        if (option == null || option.isBlank()) {
            throw new IllegalArgumentException("link option is empty; expected for example \"bandwidth=12,latency=10\""
                    + " (GB/s, microseconds)");
        }
        Double bandwidth = null;
        Double latency = null;
        for (String part : option.strip().split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("link option \"" + option + "\": \"" + part.strip()
                        + "\" is not key=value; the keys are bandwidth (GB/s) and latency (microseconds)");
            }
            String key = part.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = part.substring(eq + 1).strip();
            switch (key) {
                case "bandwidth" -> {
                    if (bandwidth != null) {
                        throw new IllegalArgumentException("link option \"" + option + "\": bandwidth is given twice");
                    }
                    bandwidth = value.equalsIgnoreCase("inf") ? Double.POSITIVE_INFINITY : number(key, value, option);
                }
                case "latency" -> {
                    if (latency != null) {
                        throw new IllegalArgumentException("link option \"" + option + "\": latency is given twice");
                    }
                    latency = number(key, value, option);
                }
                default -> throw new IllegalArgumentException("link option \"" + option + "\": unknown key \"" + key
                        + "\"; the keys are bandwidth (GB/s) and latency (microseconds)");
            }
        }
        try {
            return new CpuLink(bandwidth == null ? NONE.gigabytesPerSecond : bandwidth,
                    latency == null ? NONE.latencyMicros : latency);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("link option \"" + option + "\": " + e.getMessage(), e);
        }
    }

    private static double number(String key, String value, String option) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("link option \"" + option + "\": " + key + " must be a number, got \""
                    + value + "\"", e);
        }
    }

    /** The option string {@link #parse} reads back into this. */
    @Override
    public String toString() {
        String bw = Double.isInfinite(gigabytesPerSecond) ? "inf" : Double.toString(gigabytesPerSecond);
        return "bandwidth=" + bw + ",latency=" + latencyMicros;
    }
}
