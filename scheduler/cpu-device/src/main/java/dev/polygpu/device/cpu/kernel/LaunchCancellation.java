package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.CudaError;

/**
 * The stop request of one launch: set from outside (a time limit, a cancel of the caller that waits, the device
 * closing) and polled by the running kernel at each loop back-edge and barrier of generated code, between slices
 * of the PTX interpreter and between blocks, which then ends the launch with a fault naming the kernel and why.
 *
 * <p>Implementation notes: the request is one volatile field written once (the first request wins) and read by
 * any number of worker threads; a plain read of it costs a kernel one load per loop iteration, and the JIT
 * cannot hoist it out of a loop since it is volatile.
 */
public final class LaunchCancellation {
    /** Why the launch was stopped; null while it may run. */
    private volatile Stop stop;

    /** The error a stopped launch fails with and what its fault says after the kernel and place. */
    public record Stop(CudaError error, String reason) {}

    /** True once a stop was requested. Generated code reads the field itself. */
    public boolean requested() {
        return stop != null;
    }

    /** The request, or null. */
    public Stop stop() {
        return stop;
    }

    /**
     * Asks the launch to stop with {@code error} because of {@code reason} (a phrase such as "ran longer than
     * ..."); a later request is ignored, so the first reason is the one reported. Returns true if this call set it.
     */
    public synchronized boolean cancel(CudaError error, String reason) {
        if (stop != null) {
            return false;
        }
        stop = new Stop(error, reason);
        return true;
    }
}
