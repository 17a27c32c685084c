package dev.polygpu.runtime;

import dev.polygpu.device.Stream;

/** A stream as the scheduler uses it (guarded by the scheduler's lock). */
final class StreamSlot {
    final Stream stream;
    /** The index of its device among the scheduler's devices. */
    final int device;
    /** Created (and closed) by the scheduler, rather than the user's. */
    final boolean owned;
    /** Its priority level ({@link PriorityLevels}): 0 for the least priority, and for the user's streams. */
    final int level;
    /** Elements placed on the stream and not complete. */
    int inFlight;
    /** The last element placed on the stream while it is not complete, else null. */
    Vertex tail;
    /** When the last completed element on this stream completed. */
    long lastEndNanos;

    StreamSlot(Stream stream, int device, boolean owned, int level) {
        this.stream = stream;
        this.device = device;
        this.owned = owned;
        this.level = level;
    }
}
