package dev.polygpu.cluster.sim;

/**
 * The simulated network: how long a message of some bytes takes from one member to another. Members are grouped
 * in racks of {@code rackSize} consecutive indices (0 … rackSize-1 in the first, and so on); a message within a
 * rack takes {@code latency + bytes / bandwidth}, one between racks {@code interRackLatency + bytes /
 * interRackBandwidth}, and every message also costs {@code perMessage} (the encoding, signing and hand-offs
 * between threads that a real member spends on each message).
 *
 * <p>A member sends one message at a time: its link is busy for {@code bytes / bandwidth} per message, so the
 * replies a popular victim sends queue behind each other (the simulator keeps each member's link-free time).
 *
 * @param latencyNanos one-way latency within a rack, nanoseconds; at least 0
 * @param bytesPerSecond link bandwidth within a rack; above 0
 * @param rackSize members per rack; at least 1 ({@code Integer.MAX_VALUE}: one rack)
 * @param interRackLatencyNanos one-way latency between racks; at least 0
 * @param interRackBytesPerSecond bandwidth between racks; above 0
 * @param perMessageNanos fixed cost of every message on top of its latency; at least 0
 */
public record Network(long latencyNanos, double bytesPerSecond, int rackSize, long interRackLatencyNanos,
                      double interRackBytesPerSecond, long perMessageNanos) {

    /**
     * Validates every field.
     *
     * @throws IllegalArgumentException naming the first field out of range and its value
     */
    public Network {
        if (latencyNanos < 0 || interRackLatencyNanos < 0 || perMessageNanos < 0) {
            throw new IllegalArgumentException("latencies and the per-message cost must be >= 0 ns, were "
                    + latencyNanos + ", " + interRackLatencyNanos + " and " + perMessageNanos);
        }
        if (!(bytesPerSecond > 0) || !(interRackBytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)
                || Double.isInfinite(interRackBytesPerSecond)) {
            throw new IllegalArgumentException("bandwidths must be finite and > 0 bytes/s, were " + bytesPerSecond
                    + " and " + interRackBytesPerSecond);
        }
        if (rackSize < 1) {
            throw new IllegalArgumentException("rackSize must be >= 1, was " + rackSize);
        }
    }

    /**
     * One flat network: every pair of members has the same latency and bandwidth.
     *
     * @param latencyNanos one-way latency
     * @param bytesPerSecond bandwidth
     * @param perMessageNanos fixed cost per message
     * @return the network
     */
    public static Network flat(long latencyNanos, double bytesPerSecond, long perMessageNanos) {
        return new Network(latencyNanos, bytesPerSecond, Integer.MAX_VALUE, latencyNanos, bytesPerSecond,
                perMessageNanos);
    }

    /** {@return whether members {@code a} and {@code b} share a rack} */
    public boolean sameRack(int a, int b) {
        return a / rackSize == b / rackSize;
    }

    /** {@return how long {@code bytes} occupy the sender's link towards {@code to}, in nanoseconds} */
    public long wireNanos(int from, int to, long bytes) {
        double bw = sameRack(from, to) ? bytesPerSecond : interRackBytesPerSecond;
        return (long) Math.ceil(bytes * 1e9 / bw);
    }

    /** {@return the latency of a message from {@code from} to {@code to}, its fixed cost included} */
    public long latencyNanos(int from, int to) {
        return (sameRack(from, to) ? latencyNanos : interRackLatencyNanos) + perMessageNanos;
    }

    @Override
    public String toString() {
        String within = Units.nanos(latencyNanos) + " + " + Units.bytes((long) bytesPerSecond) + "/s";
        String each = perMessageNanos > 0 ? ", " + Units.nanos(perMessageNanos) + " per message" : "";
        if (rackSize == Integer.MAX_VALUE) {
            return within + each;
        }
        return within + " within racks of " + rackSize + ", " + Units.nanos(interRackLatencyNanos) + " + "
                + Units.bytes((long) interRackBytesPerSecond) + "/s between" + each;
    }
}
