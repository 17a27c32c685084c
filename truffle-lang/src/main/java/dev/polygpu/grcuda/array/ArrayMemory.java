package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.Assumption;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.Truffle;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrError;

/**
 * The memory of one device array (1-D or multi-dimensional, shared by the views of the latter): its unified
 * buffer, element type and count, and the description used in messages ({@code DeviceArray(float, 10, 20)}).
 *
 * <p>Element access is on the guest languages' hot path, so it must compile to a plain load or store: the
 * host view of the buffer is kept in {@link #segment} and its address in {@link #address}, and "not freed" is
 * an {@link Assumption}, which compiled code checks at no cost where the array is a compilation constant and
 * with one field read elsewhere ({@link #free()} invalidates it, which deoptimizes that code).
 *
 * <p>{@link ArrayAccess} reads and writes elements at {@link #address} without the segment's own liveness
 * check. That is safe because the buffer is freed in two ways only: by {@link #free()}, which invalidates
 * {@link #alive} before it frees the buffer, on the thread that runs guest code (the language allows one
 * thread at a time in a context, so no access runs concurrently with a free); or by closing the device when
 * the context is disposed, after which no guest code runs.
 */
final class ArrayMemory {
    final UnifiedBuffer buffer;
    final ElementType type;
    final long count;
    final String description;
    /** The buffer's host view; valid while {@link #alive} is. */
    final java.lang.foreign.MemorySegment segment;
    /** The address of the first byte of {@link #segment}. */
    final long address;
    private final Assumption alive;

    ArrayMemory(UnifiedBuffer buffer, ElementType type, long count, String description) {
        this.buffer = buffer;
        this.type = type;
        this.count = count;
        this.description = description;
        this.segment = buffer.hostView();
        this.address = segment.address();
        this.alive = Truffle.getRuntime().createAssumption("device array not freed");
    }

    boolean isFreed() {
        return !alive.isValid() || buffer.isFreed();
    }

    /** The host view, or a guest error if the array was freed. */
    java.lang.foreign.MemorySegment liveSegment() {
        if (!alive.isValid()) {
            throw freed();
        }
        return segment;
    }

    /** The address of the host view, or a guest error if the array was freed. */
    long liveAddress() {
        if (!alive.isValid()) {
            throw freed();
        }
        return address;
    }

    /** The buffer, or a guest error if the array was freed. */
    UnifiedBuffer live() {
        if (!alive.isValid() || buffer.isFreed()) {
            throw freed();
        }
        return buffer;
    }

    @TruffleBoundary
    GrError freed() {
        return GrError.of(description + " (buffer " + buffer.id() + ") was freed; it can no longer be read,"
                + " written or copied");
    }

    void free() {
        alive.invalidate();
        buffer.free();
    }
}
