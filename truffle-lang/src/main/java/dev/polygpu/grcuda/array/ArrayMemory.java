package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import com.oracle.truffle.api.nodes.Node;
import com.oracle.truffle.api.profiles.InlinedBranchProfile;
import java.lang.ref.Cleaner;
import dev.polygpu.device.DeviceException;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.InterruptibleWaits;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.TrackedArray;

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
 * <p>Every host access first asks {@link #tracked} whether outstanding device work touches the array
 * ({@link #readAddress()}, {@link #writeAddress()}): a read waits for the work that writes it, a write for
 * all work that touches it. When there is none that is one plain field read (see {@link TrackedArray} for why
 * it need not be volatile); guest loops' element accesses put the wait behind a branch profile
 * ({@link #awaitRead}).
 *
 * <p>Release: {@link #free()} at once (after the work that uses the array; see there for a context several
 * threads use); a device array (not {@code cudaMalloc} memory) that no guest can reach any more is released by
 * the context's {@link Cleaner} instead, which never
 * waits on its own thread: it releases the buffer at once when no outstanding element touches it, and otherwise
 * on a virtual thread once that work is done. An element holds the buffer and its {@link TrackedArray}, not this
 * object, so a dropped array's queued or running work keeps its memory until it completes. The Cleaner's action
 * ({@link Release}) holds no reference to this object (it would never become unreachable otherwise).
 *
 * <p>Implementation notes: {@link ArrayAccess} reads and writes elements at {@link #address} without the
 * segment's own liveness check. That is safe because the buffer is freed in three ways only: by {@link #free()},
 * which sets {@link #freed} before it frees the buffer, and does so itself only while one thread uses the context
 * (with several, the Cleaner does, below); by the Cleaner, once no guest code can reach this object, so no access
 * is in flight; or by closing the device when the context is disposed, after which no guest code runs. Another
 * thread may see {@link #freed} late (it is a plain field, read on every element access): until it does, it still
 * reads memory that is there. So {@link #freed} needs to be neither volatile nor atomic for safety; {@link #free()}
 * sets it under this object's lock so that two threads freeing at once release once.
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
    /** The scheduler's dependency state of this array: whether outstanding device work touches it. */
    final TrackedArray tracked;
    private final Scheduler scheduler;
    /** False for raw memory from {@code cudaMalloc}: bytes ({@link #type} UINT8) that kernels may see as any type. */
    final boolean typed;
    private final Allocations allocations;
    /** This allocation in {@link #allocations}. */
    private final Allocations.Slot slot;
    /**
     * The Cleaner's registration: it runs {@link Release} once, from {@link #free()} or when no guest can reach
     * this object ({@code cudaMalloc} memory is held by {@link #allocations} until it is freed, so only then).
     */
    private final Cleaner.Cleanable cleanable;

    ArrayMemory(Scheduler scheduler, Allocations allocations, UnifiedBuffer buffer, ElementType type, long count,
            String description, boolean typed) {
        this.scheduler = scheduler;
        this.buffer = buffer;
        this.type = type;
        this.count = count;
        this.description = description;
        this.typed = typed;
        this.segment = buffer.hostView();
        this.address = segment.address();
        this.tracked = scheduler.track(description, buffer, count * type.size);
        this.allocations = allocations;
        this.slot = allocations.add(this);
        this.cleanable = allocations.cleaner().register(this, new Release(scheduler, allocations, address, slot,
                tracked, buffer));
        allocations.allocated(byteSize(), buffer.device().allocatedBytes());
    }

    /**
     * Releases an allocation: removes it from the context's allocations, then frees its buffer once no outstanding
     * element touches it. Runs once (through {@link Cleaner.Cleanable#clean()}).
     */
    private record Release(Scheduler scheduler, Allocations allocations, long address, Allocations.Slot slot,
            TrackedArray tracked, UnifiedBuffer buffer) implements Runnable {
        @Override
        public void run() {
            allocations.remove(address, slot);
            if (scheduler.tryRelease(tracked)) {
                buffer.free();
            } else {
                // Never on the Cleaner's thread: one long kernel would hold up every other release.
                Thread.ofVirtual().name("polygpu-release-" + buffer.id()).start(() -> {
                    scheduler.release(tracked);
                    buffer.free();
                });
            }
        }
    }

    Scheduler scheduler() {
        return scheduler;
    }

    long byteSize() {
        return count * type.size;
    }

    boolean isFreed() {
        return freed || buffer.isFreed();
    }

    /**
     * A guest error if the array was freed: what the size of a freed array ({@code len(x)}, {@code x.length})
     * gives, as its elements do, rather than the size of memory that is gone.
     */
    void requireNotFreed() {
        if (freed) {
            throw freedError();
        }
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

    /**
     * The address for reading elements: first waits for the outstanding device work that writes the array
     * (one plain field read when there is none) and reports the failure of such work.
     */
    long readAddress() {
        awaitReadable();
        return liveAddress();
    }

    /** The address for writing elements: first waits for the outstanding device work that touches the array. */
    long writeAddress() {
        awaitWritable();
        return liveAddress();
    }

    /** The host view for a bulk read, after the device work that writes the array. */
    java.lang.foreign.MemorySegment readSegment() {
        awaitReadable();
        return liveSegment();
    }

    /** The host view for a bulk write, after the device work that touches the array. */
    java.lang.foreign.MemorySegment writeSegment() {
        awaitWritable();
        return liveSegment();
    }

    private void awaitReadable() {
        if (!tracked.hostReadReady()) {
            awaitDevice(AccessMode.READ);
        }
    }

    private void awaitWritable() {
        if (!tracked.hostWriteReady()) {
            awaitDevice(AccessMode.WRITE);
        }
    }

    /**
     * The hot paths' form of the wait (element reads and writes of guest loops): behind a branch profile, so
     * that compiled code that never had to wait holds no call at all (a call in the loop body keeps the JIT
     * from hoisting the other checks); {@link #readAddress()} then re-checks the same field, which folds.
     */
    void awaitRead(Node node, InlinedBranchProfile waited) {
        if (!tracked.hostReadReady()) {
            waited.enter(node);
            awaitDevice(AccessMode.READ, node);
        }
    }

    /** As {@link #awaitRead}, for writes. */
    void awaitWrite(Node node, InlinedBranchProfile waited) {
        if (!tracked.hostWriteReady()) {
            waited.enter(node);
            awaitDevice(AccessMode.WRITE, node);
        }
    }

    /** {@link #awaitDevice(AccessMode)} with {@code node}, the guest's access, as the location of its errors. */
    @TruffleBoundary
    private void awaitDevice(AccessMode mode, Node node) {
        Node previous = GrError.enterCall(node);
        try {
            awaitDevice(mode);
        } finally {
            GrError.leaveCall(previous);
        }
    }

    @TruffleBoundary
    private void awaitDevice(AccessMode mode) {
        if (freed) {
            throw freedError();
        }
        try {
            String label = (mode.writes() ? "write " : "read ") + tracked;
            InterruptibleWaits.awaitHost(scheduler, tracked, mode, label);
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

    /**
     * Waits for the outstanding device work on the array (a wait the context's interrupt can end, leaving the
     * array as it was), then releases its memory: at once in a context one thread uses; in a context several
     * threads use, the array is unusable at once and its memory is released by the Cleaner once no thread holds
     * the array any more (another thread may be between its {@link #freed} check and its access, which reads the
     * memory by address; while it holds the array the memory stays). Freeing it again is an error, as in GrCUDA
     * and CUDA.
     */
    @TruffleBoundary
    void free() {
        if (freed || buffer.isFreed()) {
            throw alreadyFreed();
        }
        InterruptibleWaits.await(s -> s.releaseInterruptibly(tracked), scheduler);
        synchronized (this) {
            if (freed) {
                throw alreadyFreed(); // another thread freed it while this one waited
            }
            freed = true;
        }
        if (allocations.usedByThreads() > 1) {
            allocations.remove(address, slot);
        } else {
            cleanable.clean();
        }
    }

    private GrError alreadyFreed() {
        return GrError.of("free: device array already freed: " + description + " (buffer " + buffer.id()
                + ") was freed before; free each array once");
    }
}
