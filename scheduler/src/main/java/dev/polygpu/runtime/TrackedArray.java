package dev.polygpu.runtime;

import dev.polygpu.device.UnifiedBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * An array as the scheduler sees it: an id, a display name, its buffer and size, and the dependency state
 * the scheduler keeps for it: the last element that writes it and the elements that read it since, while
 * they are not complete. Completed elements are dropped at once, so this state is bounded by the work that
 * is outstanding on the array, never by its history.
 *
 * <p>Created by {@link Scheduler#track}; the language keeps one per device array (views of one array share
 * it). Host accesses check {@link #hostReadReady()} / {@link #hostWriteReady()} first: one volatile read,
 * true when nothing outstanding touches the array, so the common host access costs no lock.
 *
 * <p>Thread-safety: the dependency fields are guarded by the owning scheduler's lock; {@link #state} is
 * written under it and read without it.
 */
public final class TrackedArray {
    static final int WRITER = 1;
    static final int READERS = 2;
    static final int FAILED = 4;

    private final long id;
    private final String name;
    private final UnifiedBuffer buffer;
    private final long bytes;
    final Scheduler owner;

    /** Outstanding writer, or null (guarded by the scheduler's lock). */
    Vertex lastWriter;
    /** Outstanding readers since {@link #lastWriter} (guarded by the scheduler's lock). */
    final List<Vertex> readers = new ArrayList<>(2);
    /** The failure of an element that wrote this array, not yet reported (guarded by the scheduler's lock). */
    Failure failure;
    private volatile int state;

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

    /** True if the host may read the array now: no outstanding writer and no unreported failure. */
    public boolean hostReadReady() {
        return (state & (WRITER | FAILED)) == 0;
    }

    /** True if the host may write the array now: nothing outstanding touches it and no unreported failure. */
    public boolean hostWriteReady() {
        return state == 0;
    }

    /** Recomputes {@link #state} after a change of the dependency fields (under the scheduler's lock). */
    void refresh() {
        state = (lastWriter != null ? WRITER : 0) | (readers.isEmpty() ? 0 : READERS) | (failure != null ? FAILED : 0);
    }

    @Override
    public String toString() {
        return name + " #" + id;
    }
}
