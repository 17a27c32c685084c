package dev.polygpu.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * Infers an element's parents from the arrays it touches: read-after-write, write-after-read and
 * write-after-write per array. Under {@code WITH_CONST} two readers of an array are independent and a
 * writer follows all readers since the last writer; under {@code NO_CONST} every access orders, as if every
 * element wrote every array it touches. Scalars never reach here.
 *
 * <p>Parents may be complete already: the edge is still recorded (the scheduler simply does not wait for
 * it), so the DAG does not depend on timing. Per array only the last writer and the readers since are kept,
 * and completed readers are pruned once the list grows past {@link #PRUNE_AT}: bounded state.
 *
 * <p>Thread-safety: none of its own; the scheduler calls it under its lock.
 */
final class DependencyTracker {
    /** Past this many readers of one array, completed ones are dropped (they cannot delay anything). */
    static final int PRUNE_AT = 32;

    private final boolean withConst;

    DependencyTracker(SchedulerConfig.DependencyPolicy policy) {
        this.withConst = policy == SchedulerConfig.DependencyPolicy.WITH_CONST;
    }

    private AccessMode effective(AccessMode mode) {
        return withConst ? mode : AccessMode.READ_WRITE;
    }

    /** The elements {@code element} must follow, each once, in the order found. */
    Vertex[] parentsOf(ComputationalElement element) {
        List<Vertex> parents = new ArrayList<>(4);
        for (Access a : element.accesses()) {
            collect(a.array(), effective(a.mode()), parents);
        }
        return parents.toArray(new Vertex[0]);
    }

    /** The elements a host access with {@code mode} follows (modes taken as they are). */
    Vertex[] hostParents(TrackedArray array, AccessMode mode) {
        List<Vertex> parents = new ArrayList<>(2);
        collect(array, mode, parents);
        return parents.toArray(new Vertex[0]);
    }

    private static void collect(TrackedArray array, AccessMode mode, List<Vertex> into) {
        Vertex w = array.lastWriter;
        if (w != null && !into.contains(w)) {
            into.add(w);
        }
        if (mode.writes()) {
            for (Vertex r : array.readers) {
                if (!into.contains(r)) {
                    into.add(r);
                }
            }
        }
    }

    /**
     * Makes the just submitted {@code v} the last writer or a reader of each array it touches. With
     * {@code observed}, marks the arrays as changed since the host last looked, so that the next host access
     * becomes a vertex of the DAG.
     */
    void record(Vertex v, boolean observed) {
        List<Access> accesses = v.element.accesses();
        v.readGeneration = new long[accesses.size()];
        for (int i = 0; i < accesses.size(); i++) {
            Access a = accesses.get(i);
            TrackedArray array = a.array();
            if (effective(a.mode()).writes()) {
                array.lastWriter = v;
                array.readers.clear();
                array.outstandingReaders = 0;
                array.generation++;
                array.pruneAt = PRUNE_AT;
                array.unseen |= observed ? TrackedArray.UNSEEN_WRITE | TrackedArray.UNSEEN_READ : 0;
                v.readGeneration[i] = -1;
            } else {
                if (array.readers.size() >= array.pruneAt) {
                    // Amortized: the next prune waits until the list has doubled, so many outstanding readers
                    // cost O(1) each rather than a scan per reader.
                    array.readers.removeIf(Vertex::done);
                    array.pruneAt = Math.max(PRUNE_AT, 2 * array.readers.size());
                }
                array.readers.add(v);
                array.outstandingReaders++;
                v.readGeneration[i] = array.generation;
                array.unseen |= observed ? TrackedArray.UNSEEN_READ : 0;
            }
            array.refresh();
        }
    }

    /**
     * Notes that {@code v} completed. If it failed, the arrays it wrote keep its failure until the host
     * touches them, so a failed result is never read silently.
     */
    void retire(Vertex v, Failure failure) {
        List<Access> accesses = v.element.accesses();
        for (int i = 0; i < accesses.size(); i++) {
            Access a = accesses.get(i);
            TrackedArray array = a.array();
            if (v.readGeneration[i] == array.generation) {
                // Still among the array's readers (no writer since): one fewer outstanding.
                array.outstandingReaders--;
            }
            if (failure != null && a.mode().writes()) {
                array.failure = failure;
            }
            array.refresh();
        }
    }

    /**
     * The host accessed {@code array} after waiting for its parents: a read has seen the last write (and,
     * recorded as a vertex, counts as a reader); a write replaces the array's contents, so later elements follow {@code hostVertex} (or nothing, without
     * observers) rather than the work before it.
     */
    void hostAccessed(TrackedArray array, AccessMode mode, Vertex hostVertex) {
        if (mode.writes()) {
            array.lastWriter = hostVertex;
            array.readers.clear();
            array.outstandingReaders = 0;
            array.generation++;
            array.pruneAt = PRUNE_AT;
            array.unseen = 0;
        } else {
            array.unseen &= ~TrackedArray.UNSEEN_WRITE;
            if (hostVertex != null) {
                // A reader like any other, so the next writer shows that it follows the host's read.
                array.readers.add(hostVertex);
            }
        }
        array.refresh();
    }
}
