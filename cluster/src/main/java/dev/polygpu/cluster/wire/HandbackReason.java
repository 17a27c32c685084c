package dev.polygpu.cluster.wire;

/** Why a thief gives stolen elements back to their owner ({@link Handback}). Travels by name. */
public enum HandbackReason {
    /** The reply arrived after the thief stopped waiting for it (or after its request was answered elsewhere). */
    STALE_REPLY,
    /** The thief is leaving the cluster before it ran them. */
    LEAVING,
    /** The thief cannot run them (no suitable device, the kernel does not build there, out of memory). */
    CANNOT_RUN,
    /**
     * An input came as a reference ({@link ArrayData#reference}) to contents the thief no longer keeps (its
     * cache evicted them): the owner sends the bytes with the next reply. The elements were not started.
     */
    MISSING_INPUT
}
