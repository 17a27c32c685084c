package dev.polygpu.runtime;

import dev.polygpu.device.DeviceException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * A {@link Scheduler}'s side facing a cluster layer: what this device has to do ({@link Scheduler.Load}), the
 * ready elements a cluster layer may take ({@link Scheduler#steal(int, Predicate)}), and what happens when a
 * taken element comes back completed, failed or given back. The scheduler's public methods of the same names
 * take its lock and call these.
 *
 * <p>Implementation notes: not thread-safe on its own. Every method runs under the owning scheduler's lock,
 * which guards {@link #remote} and the taken {@link Vertex}es' state; the callers are a cluster layer's threads
 * (taking, completing, giving back) and the scheduler's own threads (its counters, closing). Nothing here calls
 * the device. {@link Scheduler.Continuation}s and {@code accept} predicates run under that lock and must not
 * call the scheduler. A taken vertex is in state {@code REMOTE} and in no queue until it completes here or is
 * given back to the {@link RankQueue}.
 */
final class ClusterSide {
    private final Scheduler owner;
    private final RankQueue queue;
    /** The owner's condition for "a vertex completed or left the pending queue". */
    private final Condition changed;
    /** The name of each device by index, as observers see it. */
    private final IntFunction<String> deviceNames;
    /** The owner's observers (the same list, guarded by the same lock). */
    private final List<ScheduleObserver> observers;
    /** Elements taken by a cluster layer and not yet completed or given back. */
    private int remote;

    ClusterSide(Scheduler owner, RankQueue queue, Condition changed, IntFunction<String> deviceNames,
            List<ScheduleObserver> observers) {
        this.owner = owner;
        this.queue = queue;
        this.changed = changed;
        this.deviceNames = deviceNames;
        this.observers = observers;
    }

    /** How many elements a cluster layer holds now. */
    int remote() {
        return remote;
    }

    /** The device's load, with {@code inFlight} elements on its streams. */
    Scheduler.Load load(int inFlight) {
        int ready = 0;
        int stealable = 0;
        // Ready elements are placeable (parents complete), so only those need looking at.
        for (Vertex v : queue.placeable()) {
            if (v.parentsDone()) {
                ready++;
                if (stealable(v)) {
                    stealable++;
                }
            }
        }
        return new Scheduler.Load(ready, stealable, inFlight);
    }

    /**
     * Stealable: a kernel with its source (so another member can build it), on no user stream, parents
     * complete, not pinned here. Copies and fills are not worth moving: their cost is the bytes themselves.
     */
    private static boolean stealable(Vertex v) {
        return !v.pinned && v.element.stream() == null && v.element.work() instanceof Work.Kernel k
                && k.source() != null && v.parentsDone();
    }

    /** {@link Scheduler#steal(int, Predicate)}'s choice, taken; or null. */
    StolenElement steal(int minRank, Predicate<ComputationalElement> accept) {
        // Highest rank first: once below the minimum, every element after is too.
        for (Iterator<Vertex> it = queue.placeable().iterator(); it.hasNext();) {
            Vertex v = it.next();
            int r = RankQueue.rankOf(v);
            if (r < minRank) {
                break;
            }
            if (stealable(v) && accept.test(v.element)) {
                return take(v, r);
            }
        }
        return null;
    }

    /** Takes the placeable, stealable {@code v} of rank {@code r} off this device for a cluster layer. */
    private StolenElement take(Vertex v, int r) {
        queue.remove(v);
        v.state = Vertex.State.REMOTE;
        v.takenNanos = System.nanoTime();
        remote++;
        changed.signalAll();
        return new StolenElement(owner, v, r);
    }

    /** The highest rank among the elements that could be taken now; 0 if there are none. */
    int topStealableRank() {
        for (Vertex v : queue.placeable()) {
            if (stealable(v)) {
                return RankQueue.rankOf(v);
            }
        }
        return 0;
    }

    /**
     * Completes the taken {@code v} ({@link Scheduler#completeRemote}); then, with {@code next} (null when
     * nothing may be taken, the scheduler being closed), offers it the children this completion made
     * stealable, highest rank first, and takes the first it accepts.
     *
     * @param inFlight the elements on the device's streams, for the load {@code next} sees
     * @return the child taken, or null
     */
    StolenElement complete(Vertex v, DeviceException failure, String member, long startNanos, long endNanos,
            Scheduler.Continuation next, int inFlight) {
        checkRemote(v);
        // Every child waits for it: it was never placed, so each one was recorded as it was submitted.
        List<Vertex> children = next == null || v.children == null ? null : new ArrayList<>(v.children);
        remote--;
        v.launchNanos = v.takenNanos;
        v.endNanos = System.nanoTime();
        if (member != null) {
            long end = Math.min(Math.max(endNanos, v.takenNanos), v.endNanos);
            long start = Math.min(Math.max(startNanos, v.takenNanos), end);
            for (ScheduleObserver o : observers) {
                o.ranRemotely(v.id, deviceNames.apply(v.device), member, v.takenNanos, start, end);
            }
        }
        owner.finish(v, failure == null ? null : Failure.own(v, failure), v.takenNanos);
        return children == null ? null : takeChild(children, next, inFlight);
    }

    private StolenElement takeChild(List<Vertex> children, Scheduler.Continuation next, int inFlight) {
        children.removeIf(c -> !c.placeable || !stealable(c));
        if (children.isEmpty()) {
            return null;
        }
        children.sort(RankQueue.BY_RANK);
        Scheduler.Load load = load(inFlight);
        for (Vertex c : children) {
            if (next.take(c.element, load)) {
                return take(c, RankQueue.rankOf(c));
            }
        }
        return null;
    }

    /** The taken {@code v} comes back to the queue, pinned here if {@code pin}. */
    void giveBack(Vertex v, boolean pin) {
        checkRemote(v);
        remote--;
        v.state = Vertex.State.PENDING;
        v.pinned |= pin;
        // Back to its place by rank and submission order, so it keeps its priority.
        queue.enqueue(v);
    }

    private static void checkRemote(Vertex v) {
        if (v.state != Vertex.State.REMOTE) {
            throw new IllegalStateException(v.describe() + " is not taken by a cluster layer (it is "
                    + v.state.name().toLowerCase(java.util.Locale.ROOT) + ")");
        }
    }
}
