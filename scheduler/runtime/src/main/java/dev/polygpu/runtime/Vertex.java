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
        /** A host call running on the thread that made it ({@link Scheduler#callOnHost}). */
        ON_HOST,
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
    /**
     * The index of the device it runs on among the scheduler's devices (0 with one device), chosen when it is
     * submitted; -1 for host calls and host accesses, which run on the host.
     */
    int device;
    StreamSlot slot;
    /** Recorded after the launch, for children on other streams to wait for; null when not launched. */
    Event event;
    /**
     * Under the disjoint policies: a child already continues this vertex's stream, or (multi-GPU policies, several
     * devices) was given it when submitted.
     */
    boolean childClaimed;
    /**
     * Under the multi-GPU parent-stream policies with several devices: its stream was chosen when it was submitted
     * ({@link Coherence#chooseStreamParent}), as {@link #streamParent}.
     */
    boolean streamChosen;
    /**
     * With {@link #streamChosen}: the parent whose stream it continues if that parent is still the last element on
     * it at launch, or null for a free or new stream of its device; forgotten at launch.
     */
    Vertex streamParent;
    long submitNanos;
    long launchNanos;
    long endNanos;
    Failure failure;
    /** Set when queueing on the stream threw (an argument error): reported to the submitter if it waits. */
    boolean launchRejected;
    /** Stays on this device: it was stolen from elsewhere, or given back by a taker ({@link Scheduler#steal}). */
    boolean pinned;
    /**
     * A cluster layer handed it here to run for another member ({@link Scheduler#submitHere}), or it is a transfer
     * that brings such an element's array to its device: it may go on the streams beyond a full window
     * ({@link SchedulerConfig#stolenOverflow()}).
     */
    boolean stolen;
    /** Called once when the vertex completes, with its own error or null (elements run for a cluster layer). */
    Scheduler.Completion whenDone;
    /** Set when a cluster layer took it: when, and (once it reports back) where and when it ran. */
    long takenNanos;
    /**
     * Its bottom level: the number of elements on the longest chain of dependencies from it to the last element
     * submitted, itself included (1 while nothing depends on it), or more if it came with a higher rank from
     * another member ({@link Scheduler#submitHere(ComputationalElement, int, java.util.function.Consumer)}).
     * Only raised, never lowered; stale once the vertex is done. While the vertex is in a {@link #run}, the run
     * holds its rank instead ({@link RankQueue#rankOf}).
     */
    int rank = 1;
    /** The rank propagation pass that last queued this vertex, so that one pass visits it once. */
    long rankPass;
    /**
     * The run (a chain of elements whose ranks follow one another) this vertex is in, or null: then
     * {@link #rank} is its rank; else its rank is {@code run.top - pos}, and {@link #rank} is not used.
     */
    Run run;
    /** Its place in its {@link #run}: one more than the member before it. */
    long pos;
    /** How many elements were submitted after it with it as an outstanding parent (never decreases). */
    int childCount;
    /**
     * The children submitted while this vertex was not placed (pending or taken by a cluster layer), each
     * counting it in {@link #unplacedParents}; null when there are none and once it is placed (launched or
     * done), when it has told them.
     */
    java.util.ArrayList<Vertex> children;
    /** How many of its parents are pending or taken by a cluster layer: 0 when it may be placed on a stream. */
    int unplacedParents;
    /** In the scheduler's set of elements that wait to be placed. */
    boolean queued;
    /** In the scheduler's rank-ordered set of the queued elements whose parents are all placed. */
    boolean placeable;

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

    /** True while it is pending or taken by a cluster layer: its children may not be placed yet. */
    boolean unplaced() {
        return state == State.PENDING || state == State.REMOTE || state == State.ON_HOST;
    }

    /** Records that {@code child}, just submitted, waits for this unplaced vertex to be placed. */
    void addChild(Vertex child) {
        if (children == null) {
            children = new java.util.ArrayList<>(2);
        }
        children.add(child);
        child.unplacedParents++;
    }

    /**
     * A chain of outstanding vertices, oldest first, in which each member but the first has the member before
     * it among its parents and all its other outstanding parents in the run too, and each member's children
     * are all later members. A member's rank is then one more than the next member's (its other children come
     * later still, and rank lower), so ranks along the run are consecutive and kept as one number: member
     * {@code m} has rank {@code top - m.pos}. Appending an element raises every member's rank at once. Members
     * leave from the front as they complete (a child completes after its parents). Guarded by the scheduler's
     * lock.
     */
    static final class Run {
        private Vertex[] members = new Vertex[8];
        private int head;
        private int size;
        /** The rank of a member at position 0: {@code rank(m) = top - m.pos}. */
        long top;

        int size() {
            return size;
        }

        /** The {@code i}-th member, 0 being the oldest. */
        Vertex get(int i) {
            return members[(head + i) & (members.length - 1)];
        }

        Vertex first() {
            return size == 0 ? null : members[head];
        }

        Vertex last() {
            return size == 0 ? null : get(size - 1);
        }

        void add(Vertex v) {
            if (size == members.length) {
                Vertex[] grown = new Vertex[2 * size];
                for (int i = 0; i < size; i++) {
                    grown[i] = get(i);
                }
                members = grown;
                head = 0;
            }
            members[(head + size) & (members.length - 1)] = v;
            size++;
        }

        void removeFirst() {
            members[head] = null;
            head = (head + 1) & (members.length - 1);
            size--;
        }
    }

    String describe() {
        return (element != null ? element.describe() : "host access '" + label + "'") + " (element #" + id + ")";
    }
}
