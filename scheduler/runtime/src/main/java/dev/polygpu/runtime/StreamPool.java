package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import dev.polygpu.device.Stream;
import dev.polygpu.device.StreamPriorities;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * The streams a {@link Scheduler} places elements on: the ones it owns, per priority level
 * ({@link PriorityLevels}), created, reused or closed by the stream policies of its {@link SchedulerConfig},
 * and the user's streams while elements submitted for them are on them. Picks the stream for an element as
 * the parent-stream policy says.
 *
 * <p>Implementation notes: not thread-safe on its own. Every method runs under the owning scheduler's lock,
 * which guards all state here and the {@link StreamSlot}s; callers are the threads that launch (a submitting
 * thread or the dispatcher), stream completion callbacks ({@link #releaseIfIdle} only, which never calls the
 * device: a stream that went idle under always-new is closed by the next launch's {@link #closeIdleStreams}),
 * and the scheduler's close. Creating and closing an idle stream are the only device calls made here; the
 * lock order stays scheduler lock → stream lock. Invariant: a free stream (in {@link #freeStreams}) has nothing
 * on it.
 */
final class StreamPool {
    private final Device device;
    /** The index of {@link #device} among the scheduler's devices. */
    private final int index;
    private final SchedulerConfig config;
    /** The device's stream priorities, and how many levels of them are used ({@link PriorityLevels}). */
    private final StreamPriorities priorities;
    private final int levels;
    /** Per priority level, the owned streams with nothing on them (under always-new, not closed yet). */
    private final ArrayDeque<StreamSlot>[] freeStreams;
    private final List<StreamSlot> ownedStreams = new ArrayList<>();
    private final List<StreamSlot> idleToClose = new ArrayList<>();
    private final IdentityHashMap<Stream, StreamSlot> userStreams = new IdentityHashMap<>();

    StreamPool(Device device, int index, SchedulerConfig config) {
        this.device = device;
        this.index = index;
        this.config = config;
        this.priorities = device.streamPriorities();
        this.levels = PriorityLevels.levelsOf(priorities);
        @SuppressWarnings("unchecked")
        ArrayDeque<StreamSlot>[] free = new ArrayDeque[levels];
        for (int i = 0; i < levels; i++) {
            free[i] = new ArrayDeque<>();
        }
        this.freeStreams = free;
    }

    /** How many priority levels the owned streams use (1 on a device without stream priorities). */
    int levels() {
        return levels;
    }

    /** How many streams the scheduler owns now. */
    int ownedCount() {
        return ownedStreams.size();
    }

    /** Whether elements placed on the user's {@code stream} are not all complete. */
    boolean busy(Stream stream) {
        StreamSlot slot = userStreams.get(stream);
        return slot != null && slot.inFlight > 0;
    }

    /** Makes {@code stream} wait on the device for every element on the other streams here. */
    void joinAll(Stream stream) {
        for (StreamSlot slot : ownedStreams) {
            joinTail(slot, stream);
        }
        for (StreamSlot slot : userStreams.values()) {
            joinTail(slot, stream);
        }
    }

    private static void joinTail(StreamSlot slot, Stream stream) {
        // Work on one stream completes in order, so waiting for its last outstanding element waits for all.
        if (slot.tail != null && slot.stream != stream) {
            stream.waitFor(slot.tail.event);
        }
    }

    /**
     * The stream for {@code v}: the user's if it names one; under same-as-parent its first running parent's
     * (whatever that stream's priority: the policy serializes a parent's children); under disjoint its
     * parent's if it is the first child to continue it and the parent's stream has {@code v}'s priority level,
     * otherwise a stream of its own level (a parent on a stream of another level becomes a device-side wait,
     * as any parent on another stream: continuing at the parent's priority would run {@code v} ahead of work
     * it should not pass, or behind work it should). Under the multi-GPU policies with several devices, the
     * parent given when {@code v} was submitted, on the same conditions, else a stream of its own level.
     */
    StreamSlot pickStream(Vertex v, int level) {
        Stream user = v.element.stream();
        if (user != null) {
            return userStreams.computeIfAbsent(user, st -> new StreamSlot(st, index, false, 0));
        }
        if (v.streamChosen) {
            Vertex p = v.streamParent;
            v.streamParent = null;
            boolean continues = p != null && p.state == Vertex.State.LAUNCHED && p.slot.owned
                    && p.slot.device == index && p.slot.tail == p && p.slot.level == level;
            return continues ? p.slot : newStream(level);
        }
        for (Vertex p : v.parents) {
            if (p.state != Vertex.State.LAUNCHED || !p.slot.owned || p.slot.device != index) {
                continue;
            }
            if (config.parentStreams() == SchedulerConfig.ParentStreamPolicy.SAME_AS_PARENT) {
                return p.slot;
            }
            if (!p.childClaimed && p.slot.tail == p && p.slot.level == level) {
                p.childClaimed = true;
                return p.slot;
            }
        }
        return newStream(level);
    }

    /**
     * An owned stream of priority level {@code level} with nothing on it: a free one (under reuse), else a new
     * one while fewer than {@code maxStreams} are owned. At the limit, a free stream of another level is closed
     * and one of this level created in its place; if none is free, the least busy stream of this level is
     * shared, or of any level if this level has none.
     */
    private StreamSlot newStream(int level) {
        ArrayDeque<StreamSlot> free = freeStreams[level];
        if (config.newStreams() == SchedulerConfig.NewStreamPolicy.REUSE) {
            StreamSlot slot = free.pollFirst();
            if (slot != null) {
                return slot;
            }
        } else {
            closeIdleStreams();
        }
        if (ownedStreams.size() < config.maxStreams()) {
            return createStream(level);
        }
        // At the limit: a free stream of this level (if always-new left any), else replace a free one of another.
        StreamSlot slot = free.pollFirst();
        if (slot != null) {
            return slot;
        }
        for (ArrayDeque<StreamSlot> other : freeStreams) {
            StreamSlot idle = other.pollFirst();
            if (idle != null) {
                ownedStreams.remove(idle);
                idleToClose.remove(idle);
                // Nothing is on it; closing only releases the stream.
                idle.stream.close();
                return createStream(level);
            }
        }
        StreamSlot best = ownedStreams.get(0);
        for (StreamSlot s : ownedStreams) {
            boolean sameLevel = s.level == level;
            if (sameLevel != (best.level == level) ? sameLevel : s.inFlight < best.inFlight) {
                best = s;
            }
        }
        return best;
    }

    private StreamSlot createStream(int level) {
        Stream stream = levels == 1 ? device.createStream() : device.createStream(priorities.priorityOfLevel(level));
        StreamSlot slot = new StreamSlot(stream, index, true, level);
        ownedStreams.add(slot);
        return slot;
    }

    /** Under always-new: closes the streams that went idle (not from a callback, which may not call the device). */
    private void closeIdleStreams() {
        if (idleToClose.isEmpty()) {
            return;
        }
        for (StreamSlot s : idleToClose) {
            if (s.inFlight == 0) {
                ownedStreams.remove(s);
                freeStreams[s.level].remove(s);
                // Its last work completed; closing only releases the stream.
                s.stream.close();
            }
        }
        idleToClose.clear();
    }

    /** {@code slot} may have gone idle: a user's stream is forgotten, an owned one becomes free. */
    void releaseIfIdle(StreamSlot slot) {
        if (slot.inFlight > 0) {
            return;
        }
        if (!slot.owned) {
            userStreams.remove(slot.stream);
        } else if (config.newStreams() == SchedulerConfig.NewStreamPolicy.REUSE) {
            freeStreams[slot.level].addLast(slot);
        } else {
            idleToClose.add(slot);
            freeStreams[slot.level].addLast(slot);
        }
    }

    /**
     * Forgets the owned streams and returns them, for the caller to close once it released the lock (closing
     * waits for the stream).
     */
    List<StreamSlot> removeOwned() {
        List<StreamSlot> streams = new ArrayList<>(ownedStreams);
        ownedStreams.clear();
        for (ArrayDeque<StreamSlot> free : freeStreams) {
            free.clear();
        }
        return streams;
    }
}
