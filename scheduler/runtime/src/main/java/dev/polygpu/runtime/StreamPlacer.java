package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Event;
import dev.polygpu.device.Stream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Scheduler}'s placement of elements on streams: while the in-flight window has room, the placeable
 * elements go on streams highest rank first, on a stream of their priority level and of their device, after
 * device-side waits for parents on other streams; a stream callback observes each one's completion. It also
 * keeps the events recorded after the elements, per device, for reuse.
 *
 * <p>Implementation notes: it holds the owner's lock, conditions, queue, streams and observers (the same objects,
 * guarded by the same lock, as the owner's implementation notes describe). Every method but the stream callback
 * {@link #completed} runs with the lock held; that callback takes it, so the lock order stays scheduler lock →
 * stream lock. Completing an element ({@link Scheduler#finish}) is the owner's.
 */
final class StreamPlacer {
    private final Scheduler owner;
    private final SchedulerConfig config;
    private final ReentrantLock lock;
    /** The owner's condition for "a vertex completed or left the pending queue". */
    private final Condition changed;
    /** The owner's condition for "the dispatcher may be able to launch something". */
    private final Condition dispatchable;
    private final RankQueue queue;
    private final StreamPools streams;
    private final List<ScheduleObserver> observers;
    private final List<Device> devices;
    /** How {@link ScheduleObserver#launched} names each device. */
    private final String[] deviceNames;
    /** Per device, events recorded there before and free again. */
    private final ArrayDeque<Event>[] freeEvents;
    /** How many stream priority levels are used ({@link PriorityLevels}). */
    private final int levels;
    /**
     * How many elements handed here by a cluster layer may be on the streams beyond a full {@link #window}
     * ({@link SchedulerConfig#stolenOverflow()}; 0 on a device without stream priorities, where no level is
     * above 0).
     */
    private final int overflow;
    /** Elements on streams at once now: the configured window, or what {@link #setWindow} made it. */
    private volatile int window;
    /** The elements on the streams (launched, not complete). */
    private final LinkedHashSet<Vertex> onStreams = new LinkedHashSet<>();
    private int inFlight;
    private int maxInFlightSeen;
    private long overflowed;

    @SuppressWarnings("unchecked")
    StreamPlacer(Scheduler owner, SchedulerConfig config, ReentrantLock lock, Condition changed,
            Condition dispatchable, RankQueue queue, StreamPools streams, List<ScheduleObserver> observers,
            List<Device> devices, int window) {
        this.owner = owner;
        this.config = config;
        this.lock = lock;
        this.changed = changed;
        this.dispatchable = dispatchable;
        this.queue = queue;
        this.streams = streams;
        this.observers = observers;
        this.devices = devices;
        this.deviceNames = new String[devices.size()];
        this.freeEvents = new ArrayDeque[devices.size()];
        for (int i = 0; i < deviceNames.length; i++) {
            deviceNames[i] = devices.get(i).backend() + " device " + devices.get(i).ordinal();
            freeEvents[i] = new ArrayDeque<>();
        }
        this.levels = streams.levels();
        this.overflow = levels > 1 ? config.stolenOverflow() : 0;
        this.window = window;
    }

    String deviceName(int index) {
        return deviceNames[index];
    }

    int window() {
        return window;
    }

    /** Changes the window; when it grows, the dispatcher places waiting elements at once. */
    void setWindow(int newWindow) {
        if (newWindow != window) {
            window = newWindow;
            dispatchable.signalAll();
        }
    }

    int inFlight() {
        return inFlight;
    }

    int maxInFlightSeen() {
        return maxInFlightSeen;
    }

    long overflowed() {
        return overflowed;
    }

    LinkedHashSet<Vertex> onStreams() {
        return onStreams;
    }

    /** Whether nothing more may go on the streams now, even an element a cluster layer handed here. */
    boolean full() {
        return inFlight >= window + overflow;
    }

    /**
     * Launches the pending elements that may be placed now while the window has room, highest rank first (ties
     * in submission order); true if any was. A launch may make children placeable; they take their turn by rank
     * (below their parent's, which is higher than any child's). With the window full, the first in line still
     * goes on while fewer than {@link #overflow} are beyond it, if a cluster layer handed it here and its level
     * is above 0; otherwise it, and everything behind it, waits (as the simulator's {@code --stolen-overflow}).
     */
    boolean dispatch() {
        boolean any = false;
        // The lowest rank on the streams, for the priority levels: found once per call (nothing completes or is
        // raised while the lock is held here) and lowered as elements go on.
        int lowest = 0;
        boolean lowestKnown = false;
        while (!full() && queue.hasPlaceable()) {
            Vertex v = queue.firstPlaceable();
            int level = 0;
            int rank = 0;
            if (levels > 1) {
                if (!lowestKnown) {
                    lowest = lowestRankOnStreams();
                    lowestKnown = true;
                }
                rank = RankQueue.rankOf(v);
                level = PriorityLevels.level(rank, lowest, levels);
            }
            boolean beyond = inFlight >= window;
            if (beyond && (!v.stolen || level == 0)) {
                break;
            }
            queue.remove(v);
            if (levels > 1) {
                lowest = lowest == 0 ? rank : Math.min(lowest, rank);
            }
            launch(v, level);
            if (beyond && !v.launchRejected) {
                overflowed++;
            }
            any = true;
        }
        if (any) {
            changed.signalAll();
        }
        return any;
    }

    /** The lowest rank among the elements on the streams, or 0 when there are none. */
    private int lowestRankOnStreams() {
        int lowest = 0;
        for (Vertex u : onStreams) {
            int r = RankQueue.rankOf(u);
            if (lowest == 0 || r < lowest) {
                lowest = r;
            }
        }
        return lowest;
    }

    /**
     * What goes to the device for {@code v}: under {@code WITH_CONST} a kernel's pointers into arrays it only
     * reads are marked read-only, since its dependencies let it overlap other readers of them (a device that
     * checks fails a kernel that writes there instead of letting it race); under {@code NO_CONST} every access
     * orders as a write, so nothing is marked. With several devices, the arrays' copies on {@code v}'s device and
     * the kernel built for it take the place of the arrays' own buffers and the kernel as submitted.
     */
    private Work deviceWork(Vertex v) {
        ComputationalElement e = v.element;
        Work work = e.work();
        if (work instanceof Work.Kernel k && config.dependencies() == SchedulerConfig.DependencyPolicy.WITH_CONST) {
            work = k.markReadOnly(e.accesses());
        }
        Coherence coherence = owner.coherence();
        return coherence == null ? work : coherence.workOn(v, work);
    }

    /** Puts {@code v} on a stream, one of priority level {@code level} unless the user chose its stream. */
    private void launch(Vertex v, int level) {
        StreamSlot slot = streams.pickStream(v, level);
        Stream s = slot.stream;
        try {
            for (Vertex p : v.parents) {
                if (p.state == Vertex.State.LAUNCHED && p.slot != slot) {
                    s.waitFor(p.event);
                }
            }
            if (config.prefetchInputs() && v.element.kind() == ElementKind.KERNEL && owner.coherence() == null) {
                // With several devices the arrays' copies are already on the device: transfers put them there.
                for (Access a : v.element.accesses()) {
                    if (a.mode().reads()) {
                        s.prefetch(a.array().buffer(), 0, a.array().bytes());
                    }
                }
            }
            deviceWork(v).enqueue(s);
        } catch (DeviceException e) {
            v.launchRejected = true;
            long now = System.nanoTime();
            v.launchNanos = now;
            v.endNanos = now;
            owner.finish(v, Failure.own(v, e), now);
            streams.releaseIfIdle(slot);
            return;
        }
        Event event = freeEvents[v.device].pollFirst();
        if (event == null) {
            event = devices.get(v.device).createEvent(false);
        }
        v.event = event;
        s.record(event);
        v.state = Vertex.State.LAUNCHED;
        onStreams.add(v);
        queue.placed(v);
        v.slot = slot;
        v.launchNanos = System.nanoTime();
        slot.inFlight++;
        slot.tail = v;
        inFlight++;
        maxInFlightSeen = Math.max(maxInFlightSeen, inFlight);
        s.whenComplete(error -> completed(v, error));
        for (ScheduleObserver o : observers) {
            o.launched(v.id, deviceNames[v.device], s.id(), v.launchNanos);
        }
    }

    /** The stream callback after a launched element: runs on a device thread, must not call the device. */
    private void completed(Vertex v, DeviceException error) {
        lock.lock();
        try {
            long now = System.nanoTime();
            StreamSlot slot = v.slot;
            long start = Math.max(v.launchNanos, slot.lastEndNanos);
            slot.lastEndNanos = now;
            slot.inFlight--;
            if (slot.tail == v) {
                slot.tail = null;
            }
            inFlight--;
            onStreams.remove(v);
            v.endNanos = now;
            owner.finish(v, error == null ? null : Failure.own(v, error), start);
            streams.releaseIfIdle(slot);
            if (queue.hasPending()) {
                dispatchable.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Keeps the event recorded after the completed {@code v}, if any, for a later launch on its device. */
    void recycleEvent(Vertex v) {
        if (v.event != null) {
            freeEvents[v.device].addLast(v.event);
            v.event = null;
        }
    }

    /** Takes every free event, for closing. */
    List<Event> drainEvents() {
        List<Event> events = new ArrayList<>();
        for (ArrayDeque<Event> free : freeEvents) {
            events.addAll(free);
            free.clear();
        }
        return events;
    }
}
