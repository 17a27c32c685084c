package dev.polygpu.runtime;

/**
 * A host access or host call entered into the DAG whose wait for its parents may be interrupted and resumed: a
 * guest language's thread that blocks on the scheduler is interrupted whenever the guest runtime runs an action on
 * it (GraalPy hands its GIL to another Python thread that way), and then waits again. Begun once ({@link
 * Scheduler#beginHostAccess}, {@link Scheduler#beginHostCall}), waited for as often as it is interrupted, it
 * stays one element of the DAG; {@link Scheduler#abandon} ends it if the caller gives up instead.
 *
 * <p>Thread-safety: its fields are guarded by the scheduler's lock; a step is meant for the thread that began it.
 */
public final class HostStep {
    /** The array a host access touches; null for a host call. */
    final TrackedArray array;
    final AccessMode mode;
    /** The access's or call's vertex; null for an access no observer records. */
    final Vertex vertex;
    /** What it waits for. */
    final Vertex[] parents;
    /** When it began, for the time observers see. */
    final long beginNanos;
    /** Whether it has happened (or, for a call, started) or was abandoned; nothing waits after that. */
    boolean ended;

    HostStep(TrackedArray array, AccessMode mode, Vertex vertex, Vertex[] parents, long beginNanos) {
        this.array = array;
        this.mode = mode;
        this.vertex = vertex;
        this.parents = parents;
        this.beginNanos = beginNanos;
    }

    @Override
    public String toString() {
        if (vertex == null) {
            return "host " + mode + " of " + array;
        }
        return vertex.label != null ? vertex.label : vertex.element.describe();
    }
}
