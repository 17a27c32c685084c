package dev.polygpu.cluster.sim;

/**
 * The host CPU time a member spends on each message it sends or receives, and which its kernels lose when its
 * device is a CPU device on the host's cores: packing the arrays, encoding and signing (HMAC) a frame, the
 * transport's copies and threads, and at the other end checking, decoding and unpacking it. A GPU member's
 * kernels do not share their device with that work; leave it {@link #NONE} for them (the default).
 *
 * <p>How the simulator charges it ({@link Simulator}): a message of {@code bytes} costs {@link #nanos(long)} at
 * its sender when it leaves and at its receiver when it arrives. The member's device is taken to run each of its
 * slots on a core of its own, and the handling to be one more thread on those cores, shared evenly: while a slot
 * is free the handling runs on its core and no kernel waits; while every slot runs a kernel, each of them ends
 * {@code nanos(bytes) / slots} later (together the kernels lose what the handling takes). The message's own
 * latency is the {@link Network}'s, not this.
 *
 * @param perMessageNanos CPU time per message handled, whatever its size; at least 0
 * @param perByteNanos CPU time per byte of the message; finite, at least 0
 */
public record HostCpu(long perMessageNanos, double perByteNanos) {

    /** No host CPU charged: members' kernels never wait for message handling (GPU devices; the default). */
    public static final HostCpu NONE = new HostCpu(0, 0);

    /**
     * Validates both costs.
     *
     * @throws IllegalArgumentException naming the cost out of range and its value
     */
    public HostCpu {
        if (perMessageNanos < 0) {
            throw new IllegalArgumentException("perMessageNanos must be >= 0, was " + perMessageNanos);
        }
        if (!(perByteNanos >= 0) || Double.isInfinite(perByteNanos)) {
            throw new IllegalArgumentException("perByteNanos must be finite and >= 0, was " + perByteNanos);
        }
    }

    /** {@return whether any host CPU is charged} */
    public boolean on() {
        return perMessageNanos > 0 || perByteNanos > 0;
    }

    /** {@return the CPU time a member spends on one message of {@code bytes}, nanoseconds} */
    public long nanos(long bytes) {
        return perMessageNanos + Math.round(perByteNanos * bytes);
    }

    @Override
    public String toString() {
        return Units.nanos(perMessageNanos) + " per message + " + Specs.number(perByteNanos) + " ns per byte";
    }
}
