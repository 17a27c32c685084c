package dev.polygpu.device;

/**
 * An ordered queue of device work (a CUDA stream). Every operation returns to the caller at once; operations
 * on one stream run in order, operations on different streams may run concurrently. The failure of an
 * operation is reported by the next {@link #synchronize()} of this stream (or {@link Device#synchronize()}),
 * which throws it once; later operations on the stream still run.
 *
 * <p>Thread-safety: a stream may be used from several threads; operations enqueued by one thread keep that
 * thread's order.
 */
public interface Stream extends AutoCloseable {

    Device device();

    /** A number that identifies the stream within its device (0 is the default stream). */
    int id();

    /**
     * The stream's priority ({@link Device#createStream(int)}, clamped into the device's
     * {@link Device#streamPriorities() range}); numerically lower is higher. 0 unless created with one.
     */
    default int priority() {
        return 0;
    }

    /**
     * Launches {@code function} (cuLaunchKernel). Argument count and types are checked before queueing. A device
     * that can check them fails a kernel that stores through a pointer {@code args} marks {@linkplain
     * KernelArgs#isReadOnly read-only} (the CPU device, with a {@link KernelFaultException} of NOT_PERMITTED);
     * the CUDA device ignores the marks.
     */
    void launch(KernelFunction function, LaunchConfig config, KernelArgs args);

    /** Copies {@code bytes} bytes (cuMemcpyAsync); regions may be in the same buffer but must not overlap. */
    void copy(UnifiedBuffer dst, long dstOffset, UnifiedBuffer src, long srcOffset, long bytes);

    /** Sets {@code bytes} bytes to {@code value} (cuMemsetD8Async). */
    void fill(UnifiedBuffer dst, long offset, long bytes, byte value);

    /** Hints that the range will be used by the device soon (cuMemPrefetchAsync); a no-op where meaningless. */
    void prefetch(UnifiedBuffer buffer, long offset, long bytes);

    /** Records {@code event} at the current end of this stream (cuEventRecord). */
    void record(Event event);

    /** Makes later work on this stream wait until {@code event} completes, without blocking the host (cuStreamWaitEvent). */
    void waitFor(Event event);

    /**
     * Runs {@code callback} on a runtime thread once all earlier work on this stream has completed
     * (cuLaunchHostFunc); later work on the stream waits for it. The callback must not call into the device
     * API. This is how completion is observed without the host synchronizing.
     */
    void onComplete(Runnable callback);

    /**
     * Like {@link #onComplete}, and the callback also learns whether the work before it failed: it receives the
     * first failure among the operations queued on this stream since the previous {@code whenComplete} callback
     * or {@link #synchronize()}, or null. A failure handed to a callback counts as reported: the next
     * {@code synchronize} does not throw it again. This is how a scheduler attributes a failure to the one
     * piece of work it queued before the callback.
     */
    void whenComplete(java.util.function.Consumer<DeviceException> callback);

    /** True if all work queued so far has completed (cuStreamQuery); never blocks. */
    boolean isIdle();

    /** Blocks until all work queued so far has completed; throws the first failure since the last synchronize. */
    void synchronize();

    /** Waits for queued work, then releases the stream (cuStreamDestroy). The default stream cannot be closed. */
    @Override
    void close();
}
