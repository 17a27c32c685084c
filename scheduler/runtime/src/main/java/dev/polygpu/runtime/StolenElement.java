package dev.polygpu.runtime;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.UnifiedBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A ready element a cluster layer took from a {@link Scheduler} ({@link Scheduler#steal()}): it runs it
 * elsewhere, reading its inputs from and writing its results into {@link #buffer} of each array here, and then
 * calls {@link #complete()}; or
 * {@link #fail} with the error; or {@link #giveBack()} (the thief left), which returns the element to the
 * scheduler's queue to run here. Exactly one of the three, once.
 */
public final class StolenElement {
    private final Scheduler scheduler;
    private final Vertex vertex;
    private final int rank;
    private final AtomicBoolean settled = new AtomicBoolean();

    StolenElement(Scheduler scheduler, Vertex vertex, int rank) {
        this.scheduler = scheduler;
        this.vertex = vertex;
        this.rank = rank;
    }

    /** The scheduler's id of the element (unique per scheduler). */
    public long id() {
        return vertex.id;
    }

    /**
     * The element's rank when it was taken: its bottom level in the program as submitted by then (the number of
     * elements on the longest chain from it to the last one submitted, itself included), at least 1. A taker
     * runs it with this rank ({@link Scheduler#submitHere(ComputationalElement, int, java.util.function.Consumer)}),
     * so that it keeps its priority there.
     */
    public int rank() {
        return rank;
    }

    public ComputationalElement element() {
        return vertex.element;
    }

    /** The element as a self-contained message (kernel source, configuration, scalars, array ids and sizes). */
    public ElementMessage message() {
        return ElementMessage.of(vertex.id, vertex.element);
    }

    /**
     * Where the element's {@code array} is while it runs elsewhere: read its inputs from this buffer and write its
     * results into it. With several devices, its copy on the device the element was placed on (the copy that is up
     * to date once the element is ready, and the one the elements after it expect its results in); with one, the
     * array's own buffer.
     *
     * @throws IllegalArgumentException if the element does not touch {@code array}
     */
    public UnifiedBuffer buffer(TrackedArray array) {
        for (Access a : vertex.element.accesses()) {
            if (a.array() == array) {
                return scheduler.bufferOf(vertex, array);
            }
        }
        throw new IllegalArgumentException(vertex.describe() + " does not touch " + array);
    }

    /** The element ran elsewhere and its results are in its arrays. */
    public void complete() {
        settle();
        scheduler.completeRemote(vertex, null, null, 0, 0, null);
    }

    /**
     * The element ran on {@code member} from {@code startNanos} to {@code endNanos} (this process's
     * {@link System#nanoTime()} base; clamped to the time it was away) and its results are in its arrays.
     * Observers see where it ran ({@link ScheduleObserver#ranRemotely}).
     */
    public void complete(String member, long startNanos, long endNanos) {
        settle();
        scheduler.completeRemote(vertex, null, member, startNanos, endNanos, null);
    }

    /**
     * {@link #complete(String, long, long)}, and then, before any of them can be placed here, takes the first of
     * the children that this completion made stealable that {@code next} accepts, highest rank first (the
     * oldest among equals): the next link of a chain, for a cluster layer to send straight to the member that
     * ran this one. The taker settles the child as any taken element.
     *
     * @param member where it ran
     * @param startNanos when it started there (this process's {@link System#nanoTime()} base)
     * @param endNanos when it ended there
     * @param next which child to take, if any; runs under the scheduler's lock
     * @return the child taken, or null
     */
    public StolenElement completeAndTake(String member, long startNanos, long endNanos,
            Scheduler.Continuation next) {
        if (next == null) {
            throw new IllegalArgumentException("completeAndTake needs a continuation rule; use complete() for none");
        }
        settle();
        return scheduler.completeRemote(vertex, null, member, startNanos, endNanos, next);
    }

    /** The element ran elsewhere and failed. */
    public void fail(DeviceException error) {
        if (error == null) {
            throw new IllegalArgumentException("fail needs the error");
        }
        settle();
        scheduler.completeRemote(vertex, error, null, 0, 0, null);
    }

    /** When the cluster layer took it ({@link System#nanoTime()}). */
    public long takenNanos() {
        return vertex.takenNanos;
    }

    /**
     * The element did not run elsewhere: it goes back to its place in the scheduler's queue, pinned there (it is
     * never taken again): for an element whose taker failed, vanished or cannot run it.
     */
    public void giveBack() {
        settle();
        scheduler.giveBack(vertex, true);
    }

    /**
     * The element never reached a taker that could run it (a steal reply that came too late, a taker that left
     * before it started): it goes back to its place in the queue and may be taken again. Use {@link #giveBack()}
     * when the element might fail again elsewhere.
     */
    public void putBack() {
        settle();
        scheduler.giveBack(vertex, false);
    }

    private void settle() {
        if (!settled.compareAndSet(false, true)) {
            throw new IllegalStateException(vertex.describe() + " was already completed, failed or given back");
        }
    }
}
