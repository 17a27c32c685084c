package dev.polygpu.runtime;

import dev.polygpu.device.UnifiedBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * An array as the scheduler sees it: an id, a display name, its buffer and size, and the dependency state
 * the scheduler keeps for it: the last element that wrote it and the elements that read it since. Those may
 * have completed (they are kept so that later elements record the edge, which makes the DAG the same
 * however fast the device is), but only one writer and a pruned list of readers are kept per array, so this
 * state is bounded, never proportional to history.
 *
 * <p>Created by {@link Scheduler#track}; the language keeps one per device array (views of one array share
 * it). Host accesses check {@link #hostReadReady()} / {@link #hostWriteReady()} first: one plain field read,
 * true when nothing outstanding touches the array, so the common host access costs no lock and no fence.
 *
 * <p>Thread-safety: the dependency fields are guarded by the owning scheduler's lock; {@link #state} is
 * written under it and read without it, deliberately without {@code volatile} (a volatile read on every
 * element access kept the JIT from hoisting the check out of guest loops). That is safe: bits are set only
 * by a submitting thread, under the lock, so a thread always sees the bits its own submissions set (program
 * order); bits are cleared by completion callbacks, and a thread that still sees a cleared bit as set only
 * takes the slow path, whose lock gives it the current state. A submission by another thread racing with a
 * host access is unordered anyway (see {@link Scheduler}).
 */
public final class TrackedArray {
    static final int WRITER = 1;
    static final int READERS = 2;
    static final int FAILED = 4;
    /** With observers: an element wrote the array since the host last looked (the next host access is a vertex). */
    static final int UNSEEN_WRITE = 8;
    /** With observers: an element touched the array since the host last wrote it. */
    static final int UNSEEN_READ = 16;
    /** With several devices: the host's copy is not up to date (a host access must bring it home first). */
    static final int HOST_STALE = 32;
    /** With several devices: a device holds an up-to-date copy (a host write must invalidate it). */
    static final int DEVICE_COPIES = 64;

    private final long id;
    private final String name;
    private final UnifiedBuffer buffer;
    private final long bytes;
    final Scheduler owner;

    /** The last writer, complete or not, or null (guarded by the scheduler's lock). */
    Vertex lastWriter;
    /** Readers since {@link #lastWriter}, complete or not (guarded by the scheduler's lock). */
    final List<Vertex> readers = new ArrayList<>(2);
    /** How many of {@link #readers} are not complete (guarded by the scheduler's lock). */
    int outstandingReaders;
    /** Counts the writers recorded so far: a reader counts in {@link #outstandingReaders} while it is unchanged. */
    long generation;
    /** {@link #readers} is pruned of completed readers when it reaches this size (amortized, see the tracker). */
    int pruneAt = DependencyTracker.PRUNE_AT;
    /** State bits {@link #UNSEEN_WRITE} and {@link #UNSEEN_READ} (guarded by the scheduler's lock). */
    int unseen;
    /** The failure of an element that wrote this array, not yet reported (guarded by the scheduler's lock). */
    Failure failure;
    /** With several devices, its copies on them ({@link Coherence}); null with one (guarded by the scheduler's lock). */
    Replicas replicas;
    private int state;

    TrackedArray(Scheduler owner, long id, String name, UnifiedBuffer buffer, long bytes) {
        this.owner = owner;
        this.id = id;
        this.name = name;
        this.buffer = buffer;
        this.bytes = bytes;
    }

    public long id() {
        return id;
    }

    public String name() {
        return name;
    }

    public UnifiedBuffer buffer() {
        return buffer;
    }

    public long bytes() {
        return bytes;
    }

    /**
     * True if the host may read the array now: no outstanding writer, no unreported failure, and (with several
     * devices) the host's copy up to date.
     */
    public boolean hostReadReady() {
        return (state & (WRITER | FAILED | UNSEEN_WRITE | HOST_STALE)) == 0;
    }

    /**
     * True if the host may write the array now: nothing outstanding touches it, no unreported failure, and (with
     * several devices) no device holds a copy that the write would leave stale.
     */
    public boolean hostWriteReady() {
        return state == 0;
    }

    /** Recomputes {@link #state} after a change of the dependency fields (under the scheduler's lock). */
    void refresh() {
        state = (lastWriter != null && !lastWriter.done() ? WRITER : 0) | (outstandingReaders > 0 ? READERS : 0)
                | (failure != null ? FAILED : 0) | unseen | (replicas == null ? 0 : replicas.hostBits());
    }

    @Override
    public String toString() {
        return name + " #" + id;
    }
}
