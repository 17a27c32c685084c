package dev.polygpu.runtime.trace;

import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ScheduleObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link ScheduleObserver} that records the whole schedule: every element with its parents, the device and
 * stream it was placed on, its start and end times and its failure. {@link #snapshot()} turns what was
 * recorded so far into a {@link RecordedDag} for the exporters and {@link DagMetrics}.
 *
 * <p>It keeps everything by design and forgets only when told to ({@link #clear()}): memory grows with the
 * number of elements submitted. It is meant to be installed only when the user asks for a DAG or trace export
 * (or draws them in a notebook), not left on in production runs.
 *
 * <p>Thread-safety: the scheduler calls the callbacks one at a time, but possibly from different threads, and
 * readers may take snapshots from any thread while the schedule runs or after it closed. Every method
 * synchronizes on the recorder, which gives callbacks visibility of each other's writes and snapshots a
 * consistent view. The optional close action runs outside the lock, on the thread that called {@link
 * #closed()}.
 */
public final class ScheduleRecorder implements ScheduleObserver {
    private static final System.Logger LOG = System.getLogger(ScheduleRecorder.class.getName());

    /** The mutable state of one element while it is being recorded. */
    private static final class Entry {
        final ElementInfo info;
        final List<Long> parents;
        RecordedElement.Placement placement;
        RecordedElement.Run run;
        RecordedElement.Move move;

        Entry(ElementInfo info, long[] parents) {
            this.info = info;
            this.parents = new ArrayList<>(parents.length);
            for (long parent : parents) {
                this.parents.add(parent);
            }
        }

        RecordedElement freeze() {
            return new RecordedElement(info, parents, placement, run, move);
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    private final Map<Long, Entry> byId = new HashMap<>();
    private final Consumer<? super RecordedDag> onClosed;
    private boolean closed;

    /** A recorder that only records; take {@link #snapshot()}s when needed. */
    public ScheduleRecorder() {
        this(dag -> { });
    }

    /**
     * A recorder that hands the final snapshot to {@code onClosed} when the scheduler closes (to write the
     * exports then). An exception it throws is logged, not passed back to the scheduler.
     */
    public ScheduleRecorder(Consumer<? super RecordedDag> onClosed) {
        this.onClosed = Objects.requireNonNull(onClosed, "onClosed");
    }

    @Override
    public synchronized void submitted(ElementInfo element, long[] parents) {
        if (closed || byId.containsKey(element.id())) {
            return;
        }
        Entry entry = new Entry(element, parents);
        entries.add(entry);
        byId.put(element.id(), entry);
    }

    @Override
    public synchronized void launched(long elementId, String deviceName, int streamId, long nanos) {
        Entry entry = byId.get(elementId);
        if (entry != null) {
            entry.placement = new RecordedElement.Placement(deviceName, streamId, nanos);
        }
    }

    @Override
    public synchronized void ranRemotely(long elementId, String ownerDevice, String member, long takenNanos,
            long startNanos, long endNanos) {
        Entry entry = byId.get(elementId);
        if (entry != null) {
            entry.move = new RecordedElement.Move(ownerDevice, member, takenNanos, startNanos, endNanos);
        }
    }

    @Override
    public synchronized void completed(long elementId, long startNanos, long endNanos, String failure) {
        Entry entry = byId.get(elementId);
        if (entry != null) {
            entry.run = new RecordedElement.Run(startNanos, endNanos, failure);
        }
    }

    @Override
    public void closed() {
        RecordedDag last;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            last = snapshot();
        }
        try {
            onClosed.accept(last);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "writing the schedule trace failed", e);
        }
    }

    /** What was recorded up to now, as an immutable DAG. Costs time and memory linear in the elements. */
    public synchronized RecordedDag snapshot() {
        List<RecordedElement> frozen = new ArrayList<>(entries.size());
        for (Entry entry : entries) {
            frozen.add(entry.freeze());
        }
        return new RecordedDag(frozen, closed);
    }

    /**
     * Forgets everything recorded so far, so that the next snapshot starts with the elements submitted after
     * this call. An element still running is forgotten too (its completion is ignored); the dependencies of
     * later elements on forgotten ones are left out of snapshots, as for any parent never seen.
     */
    public synchronized void clear() {
        entries.clear();
        byId.clear();
    }

    /** The number of elements recorded. */
    public synchronized int size() {
        return entries.size();
    }
}
