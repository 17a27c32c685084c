package dev.polygpu.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * Infers an element's parents from the arrays it touches: read-after-write, write-after-read and
 * write-after-write per array. Under {@code WITH_CONST} two readers of an array are independent and a
 * writer follows all readers since the last writer; under {@code NO_CONST} every access orders, as if every
 * element wrote every array it touches. Scalars never reach here. Only outstanding elements are kept: a
 * completed element is {@link #retire retired} from every array it touched.
 *
 * <p>Thread-safety: none of its own; the scheduler calls it under its lock.
 */
final class DependencyTracker {
    private final boolean withConst;

    DependencyTracker(SchedulerConfig.DependencyPolicy policy) {
        this.withConst = policy == SchedulerConfig.DependencyPolicy.WITH_CONST;
    }

    private AccessMode effective(AccessMode mode) {
        return withConst ? mode : AccessMode.READ_WRITE;
    }

    /** The outstanding elements {@code element} must follow, each once, in the order found. */
    Vertex[] parentsOf(ComputationalElement element) {
        List<Vertex> parents = new ArrayList<>(4);
        for (Access a : element.accesses()) {
            collect(a.array(), effective(a.mode()), parents);
        }
        return parents.toArray(new Vertex[0]);
    }

    /** The outstanding elements a host access with {@code mode} must wait for (modes taken as they are). */
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

    /** Makes {@code v} the last writer or a reader of each array it touches. */
    void record(Vertex v) {
        for (Access a : v.element.accesses()) {
            TrackedArray array = a.array();
            if (effective(a.mode()).writes()) {
                array.lastWriter = v;
                array.readers.clear();
            } else {
                array.readers.add(v);
            }
            array.refresh();
        }
    }

    /**
     * Forgets the completed {@code v}. If it failed, the arrays it wrote keep its failure until the host
     * touches them, so a failed result is never read silently.
     */
    void retire(Vertex v, Failure failure) {
        for (Access a : v.element.accesses()) {
            TrackedArray array = a.array();
            if (array.lastWriter == v) {
                array.lastWriter = null;
            } else {
                array.readers.remove(v);
            }
            if (failure != null && a.mode().writes()) {
                array.failure = failure;
            }
            array.refresh();
        }
    }
}
