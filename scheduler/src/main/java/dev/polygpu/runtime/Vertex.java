package dev.polygpu.runtime;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Event;

/**
 * The scheduler's execution state of one submitted element (or of a host access, which is a vertex the host
 * runs itself): a vertex of the DAG. All fields are guarded by the scheduler's lock. A vertex forgets its
 * parents when it completes, so a completed vertex is referenced at most as the last writer or a recent
 * reader of an array: completed work does not accumulate.
 */
final class Vertex {
    enum State {
        /** Submitted; waits for parents to be placed, for the window, or for a thief. */
        PENDING,
        /** On a stream of this device. */
        LAUNCHED,
        /** Taken by a cluster layer; it will complete or give it back. */
        REMOTE,
        /** Complete (successfully or not). */
        DONE
    }

    final long id;
    /** What runs; null for a host access, which only has a {@link #label}. */
    final ComputationalElement element;
    /** For host accesses: how exports and messages name them. */
    String label;
    /**
     * Per access of the element: the array's writer generation when this vertex was recorded as its reader,
     * or -1 where it was recorded as the writer (for the tracker's O(1) reader accounting).
     */
    long[] readGeneration;
    /** The elements this vertex follows; emptied once it completes. */
    Vertex[] parents;
    State state = State.PENDING;
    StreamSlot slot;
    /** Recorded after the launch, for children on other streams to wait for; null when not launched. */
    Event event;
    /** Under the disjoint policy: a child already continues this vertex's stream. */
    boolean childClaimed;
    long submitNanos;
    long launchNanos;
    long endNanos;
    Failure failure;
    /** Set when queueing on the stream threw (an argument error): reported to the submitter if it waits. */
    boolean launchRejected;
    /** Stays on this device: it was stolen from elsewhere, or given back by a taker ({@link Scheduler#steal}). */
    boolean pinned;
    /** Called once when the vertex completes, with its own error or null (elements run for a cluster layer). */
    java.util.function.Consumer<DeviceException> whenDone;
    /** Set when a cluster layer took it: when, and (once it reports back) where and when it ran. */
    long takenNanos;

    Vertex(long id, ComputationalElement element, Vertex[] parents) {
        this.id = id;
        this.element = element;
        this.parents = parents;
    }

    boolean done() {
        return state == State.DONE;
    }

    /** True if every parent is complete: the vertex could run anywhere (what a thief may take). */
    boolean parentsDone() {
        for (Vertex p : parents) {
            if (p.state != State.DONE) {
                return false;
            }
        }
        return true;
    }

    /** True if every parent is on a stream here or complete: the vertex may be placed on a stream. */
    boolean parentsPlaced() {
        for (Vertex p : parents) {
            if (p.state == State.PENDING || p.state == State.REMOTE) {
                return false;
            }
        }
        return true;
    }

    String describe() {
        return (element != null ? element.describe() : "host access '" + label + "'") + " (element #" + id + ")";
    }
}
