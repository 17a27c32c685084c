package dev.polygpu.device;

/**
 * A CUDA event: a marker recorded into a stream ({@link Stream#record(Event)}) that completes when the work
 * before it on that stream has completed. A never-recorded event counts as complete, as in CUDA.
 */
public interface Event extends AutoCloseable {

    /** True if the last recorded work has completed (cuEventQuery); never blocks. */
    boolean isComplete();

    /** Blocks the calling thread until the event completes (cuEventSynchronize). */
    void synchronize();

    /**
     * Milliseconds between {@code start} and this event, both completed and created with timing
     * (cuEventElapsedTime). Throws INVALID_HANDLE for events without timing, NOT_READY if either is pending.
     */
    float elapsedMillisSince(Event start);

    boolean hasTiming();

    /** Releases the event (cuEventDestroy). Idempotent. */
    @Override
    void close();
}
