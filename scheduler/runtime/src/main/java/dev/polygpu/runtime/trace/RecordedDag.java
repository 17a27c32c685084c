package dev.polygpu.runtime.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An immutable snapshot of what a {@link ScheduleRecorder} recorded: the elements in submission order and the
 * dependencies between them. It is what the exporters and {@link DagMetrics} read; being immutable, it may be
 * shared between threads.
 *
 * <p>A parent id the recorder never saw (the element was submitted before recording began) or that was
 * submitted after its child (which a correct scheduler never reports) gives no dependency, so submission order
 * is always a topological order of {@link #dependencies()}.
 */
public final class RecordedDag {
    private final List<RecordedElement> elements;
    private final Map<Long, Integer> indexById;
    private final List<Dependency> dependencies;
    private final boolean closed;

    RecordedDag(List<RecordedElement> elements, boolean closed) {
        this.elements = List.copyOf(elements);
        this.closed = closed;
        this.indexById = new HashMap<>(Math.max(16, elements.size() * 2));
        List<Dependency> edges = new ArrayList<>();
        for (int i = 0; i < this.elements.size(); i++) {
            RecordedElement child = this.elements.get(i);
            Set<Long> distinctParents = new LinkedHashSet<>(child.parents());
            for (long parentId : distinctParents) {
                Integer parent = indexById.get(parentId);
                if (parent != null) {
                    edges.add(Dependency.between(this.elements.get(parent), child));
                }
            }
            indexById.put(child.id(), i);
        }
        this.dependencies = List.copyOf(edges);
    }

    /** The elements in submission order (a topological order of the DAG). */
    public List<RecordedElement> elements() {
        return elements;
    }

    /** The edges, grouped by child in submission order, each child's parents in the order the scheduler gave. */
    public List<Dependency> dependencies() {
        return dependencies;
    }

    /** The element with this id, or null if none was recorded. */
    public RecordedElement element(long id) {
        Integer index = indexById.get(id);
        return index == null ? null : elements.get(index);
    }

    /** The position of the element with this id in {@link #elements()}, or -1. */
    public int indexOf(long id) {
        Integer index = indexById.get(id);
        return index == null ? -1 : index;
    }

    public int size() {
        return elements.size();
    }

    /** True if the scheduler was closed when the snapshot was taken: nothing more will be recorded. */
    public boolean closed() {
        return closed;
    }
}
