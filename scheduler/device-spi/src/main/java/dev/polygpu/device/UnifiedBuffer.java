package dev.polygpu.device;

import java.lang.foreign.MemorySegment;

/**
 * Memory visible to both the host and the device (CUDA unified memory; plain off-heap memory on the CPU
 * device). The host reads and writes it in place through {@link #hostView()} or the typed accessors; those
 * accesses do not synchronize with the device: callers (the scheduler) wait for the work that uses the
 * buffer first. Indices of the typed accessors are element indices and are bounds-checked.
 *
 * <p>Thread-safety: concurrent accesses to distinct bytes are safe. {@link #free()} waits for the launches
 * already queued that use the buffer (as {@code cudaFree} waits for the device); host accesses after a free
 * fail.
 */
public interface UnifiedBuffer extends AutoCloseable {

    /** Size in bytes. */
    long byteSize();

    /** The whole buffer as a host memory segment, bounds-checked; throws if the buffer was freed. */
    MemorySegment hostView();

    /** A number that identifies the buffer within its device (for messages and traces). */
    long id();

    Device device();

    boolean isFreed();

    /**
     * Releases the memory once the launches queued before this call that use it have run. Idempotent. Later
     * accesses throw {@link DeviceException} (INVALID_VALUE). From a stream callback, where waiting would
     * deadlock, freeing a buffer that queued work still uses throws NOT_PERMITTED.
     */
    void free();

    /**
     * Gives the device a usage hint for {@code bytes} bytes from {@code offset} ({@code cudaMemAdvise}): one of
     * CUDA's {@code cudaMemoryAdvise} codes, 1 (set read-mostly) to 6 (unset accessed-by), about the device
     * with ordinal {@code deviceOrdinal}, or the host for -1. Hints never change results; the default, for
     * devices whose memory has no placement (the CPU device), ignores them.
     */
    default void advise(long offset, long bytes, int advice, int deviceOrdinal) {
    }

    @Override
    default void close() {
        free();
    }

    default byte getByte(long i) {
        return hostView().getAtIndex(java.lang.foreign.ValueLayout.JAVA_BYTE, i);
    }

    default void setByte(long i, byte v) {
        hostView().setAtIndex(java.lang.foreign.ValueLayout.JAVA_BYTE, i, v);
    }

    default short getShort(long i) {
        return hostView().getAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, i);
    }

    default void setShort(long i, short v) {
        hostView().setAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, i, v);
    }

    default int getInt(long i) {
        return hostView().getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, i);
    }

    default void setInt(long i, int v) {
        hostView().setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, i, v);
    }

    default long getLong(long i) {
        return hostView().getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i);
    }

    default void setLong(long i, long v) {
        hostView().setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i, v);
    }

    default float getFloat(long i) {
        return hostView().getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i);
    }

    default void setFloat(long i, float v) {
        hostView().setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i, v);
    }

    default double getDouble(long i) {
        return hostView().getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
    }

    default void setDouble(long i, double v) {
        hostView().setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
    }
}
