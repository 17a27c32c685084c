package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.Assumption;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.Truffle;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.DeviceException;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.TrackedArray;

/**
 * The memory of one device array (1-D or multi-dimensional, shared by the views of the latter): its unified
 * buffer, element type and count, and the description used in messages ({@code DeviceArray(float, 10, 20)}).
 *
 * <p>Element access is on the guest languages' hot path, so it must compile to a plain load or store: the
 * host view of the buffer is kept in {@link #segment}, and "not freed" is an {@link Assumption}, which
 * compiled code checks at no cost ({@link #free()} invalidates it, which deoptimizes that code).
 */
final class ArrayMemory {
    final UnifiedBuffer buffer;
    final ElementType type;
    final long count;
    final String description;
    /** The buffer's host view; valid while {@link #alive} is. */
    final java.lang.foreign.MemorySegment segment;
    /** The scheduler's dependency state of this array: whether outstanding device work touches it. */
    final TrackedArray tracked;
    private final Scheduler scheduler;
    private final Assumption alive;

    ArrayMemory(Scheduler scheduler, UnifiedBuffer buffer, ElementType type, long count, String description) {
        this.scheduler = scheduler;
        this.buffer = buffer;
        this.type = type;
        this.count = count;
        this.description = description;
        this.segment = buffer.hostView();
        this.tracked = scheduler.track(description, buffer, count * type.size);
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

    /**
     * The host view for reading elements: first waits for the outstanding device work that writes the array
     * (one volatile read when there is none), and reports the failure of such work.
     */
    java.lang.foreign.MemorySegment readSegment() {
        if (!tracked.hostReadReady()) {
            awaitDevice(AccessMode.READ);
        }
        return liveSegment();
    }

    /** The host view for writing elements: first waits for the outstanding device work that touches the array. */
    java.lang.foreign.MemorySegment writeSegment() {
        if (!tracked.hostWriteReady()) {
            awaitDevice(AccessMode.WRITE);
        }
        return liveSegment();
    }

    @TruffleBoundary
    void awaitDevice(AccessMode mode) {
        if (!alive.isValid()) {
            throw freed();
        }
        try {
            scheduler.awaitHost(tracked, mode, (mode.writes() ? "write " : "read ") + tracked);
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }

    /** Submits device work on this array to the scheduler, turning its errors into guest errors. */
    @TruffleBoundary
    void submit(ComputationalElement element) {
        try {
            scheduler.submit(element);
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
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

    /** Waits for the outstanding device work on the array, then releases its memory. */
    @TruffleBoundary
    void free() {
        if (!alive.isValid()) {
            return;
        }
        scheduler.release(tracked);
        alive.invalidate();
        buffer.free();
    }
}
