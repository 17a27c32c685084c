package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrError;

/**
 * The memory of one device array (1-D or multi-dimensional, shared by the views of the latter): its unified
 * buffer, element type and count, and the description used in messages ({@code DeviceArray(float, 10, 20)}).
 *
 * <p>Element access is on the guest languages' hot path, so it must compile to a plain load or store: the
 * host view of the buffer is kept in {@link #segment} and its address in {@link #address}, and "not freed" is
 * one plain field, {@link #freed}, which every access reads. (It was a Truffle assumption, but the arrays a
 * guest loop touches are not compilation constants, so compiled code read the assumption's volatile flag on
 * every access instead of folding it.)
 *
 * <p>Implementation notes: {@link ArrayAccess} reads and writes elements at {@link #address} without the
 * segment's own liveness check. That is safe because the buffer is freed in two ways only: by {@link #free()},
 * which sets {@link #freed} before it frees the buffer, on the thread that runs guest code; or by closing the
 * device when the context is disposed, after which no guest code runs. The language allows one thread at a
 * time in a context (it does not override {@code isThreadAccessAllowed}), so no access runs concurrently with
 * a free, and entering the context orders a free before the accesses of the next thread that enters it; so
 * {@link #freed} needs to be neither volatile nor atomic.
 */
final class ArrayMemory {
    final UnifiedBuffer buffer;
    final ElementType type;
    final long count;
    final String description;
    /** The buffer's host view; valid while {@link #freed} is false. */
    final java.lang.foreign.MemorySegment segment;
    /** The address of the first byte of {@link #segment}. */
    final long address;
    private boolean freed;

    ArrayMemory(UnifiedBuffer buffer, ElementType type, long count, String description) {
        this.buffer = buffer;
        this.type = type;
        this.count = count;
        this.description = description;
        this.segment = buffer.hostView();
        this.address = segment.address();
    }

    boolean isFreed() {
        return freed || buffer.isFreed();
    }

    /** The host view, or a guest error if the array was freed. */
    java.lang.foreign.MemorySegment liveSegment() {
        if (freed) {
            throw freedError();
        }
        return segment;
    }

    /** The address of the host view, or a guest error if the array was freed. */
    long liveAddress() {
        if (freed) {
            throw freedError();
        }
        return address;
    }

    /** The buffer, or a guest error if the array was freed. */
    UnifiedBuffer live() {
        if (freed || buffer.isFreed()) {
            throw freedError();
        }
        return buffer;
    }

    @TruffleBoundary
    GrError freedError() {
        return GrError.of(description + " (buffer " + buffer.id() + ") was freed; it can no longer be read,"
                + " written or copied");
    }

    void free() {
        freed = true;
        buffer.free();
    }
}
