package dev.polygpu.cluster;

import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.Handback;
import dev.polygpu.cluster.wire.HandbackReason;
import dev.polygpu.cluster.wire.Holding;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.cluster.wire.WorkResult;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.KernelSource;
import dev.polygpu.runtime.TrackedArray;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The thief's table of other members' elements running here: each is compiled (once per kernel,
 * {@link KernelCache}), submitted to the scheduler with the rank it had at home, and its results go home when it
 * completes, unless its owner left or it was handed back meanwhile. Owners hear which of their elements run here
 * ({@link #sendHolding}), so they do not run them again. An element that cannot run here goes back to its owner,
 * which runs it. Thread-safe: the table is guarded by the node's lock.
 */
final class HeldElements {
    /** An element of another member that this member runs. */
    private static final class Held {
        final String owner;
        final long stealId;
        final long epoch;
        final long receivedNanos;
        /** How long the owner expects it to run on its device ({@link WorkItem#expectedNanos()}); 0: unknown. */
        final long ownerExpectedNanos;
        /** Set when the owner is gone or the element was handed back: the result is not sent. */
        volatile boolean abandoned;

        Held(String owner, long stealId, long epoch, long receivedNanos, long ownerExpectedNanos) {
            this.owner = owner;
            this.stealId = stealId;
            this.epoch = epoch;
            this.receivedNanos = receivedNanos;
            this.ownerExpectedNanos = ownerExpectedNanos;
        }
    }

    private final NodeContext n;
    private final KernelCache kernels;
    /** Owner → the elements of that owner running here. Guarded by the node's lock. */
    private final Map<String, Map<Long, Held>> held = new HashMap<>();

    HeldElements(NodeContext n) {
        this.n = n;
        // Built for each device at once, so that a reply whose kernels are built runs on the receiving thread.
        this.kernels = new KernelCache(n.scheduler.device(), n.scheduler::buildEverywhere);
    }

    /**
     * The kernels of the elements of {@code r}, in order, when every one is compiled here already (null for an
     * element without source, which cannot run); null when one needs compiling.
     */
    List<KernelFunction> compiledKernels(StealReply r) {
        List<KernelFunction> functions = new ArrayList<>(r.items().size());
        for (WorkItem item : r.items()) {
            KernelSource source = item.element().source();
            KernelFunction f = source == null ? null : kernels.compiled(source);
            if (source != null && f == null) {
                return null;
            }
            functions.add(f);
        }
        return functions;
    }

    /**
     * Whether {@code item} reads one of the arrays {@code missing} (by the owner's ids). Its arguments say, not
     * its inputs: an array several elements of a reply read comes with the first of them only.
     */
    static boolean readsAny(WorkItem item, Set<Long> missing) {
        if (missing.isEmpty()) {
            return false;
        }
        for (ElementMessage.Arg a : item.element().args()) {
            if (a instanceof ElementMessage.ArrayArg arr && arr.mode().reads() && missing.contains(arr.arrayId())) {
                return true;
            }
        }
        return false;
    }

    /** Runs an element of {@code owner} here and sends its results home when it completes. */
    void run(String owner, WorkItem item, KernelFunction compiled, Map<Long, byte[]> inputs, long receivedNanos) {
        Held h = new Held(owner, item.stealId(), item.epoch(), receivedNanos, item.expectedNanos());
        if (!n.active()) {
            n.send(owner, new Handback(n.self(), List.of(item.stealId()), HandbackReason.LEAVING));
            return;
        }
        synchronized (n.lock) {
            held.computeIfAbsent(owner, o -> new HashMap<>()).put(item.stealId(), h);
        }
        Map<Long, TrackedArray> arrays = Map.of();
        try {
            ElementMessage m = item.element();
            if (m.source() == null) {
                throw new DeviceException(CudaError.NOT_SUPPORTED, "the element carries no kernel source");
            }
            KernelFunction function = compiled != null ? compiled : kernels.get(m.source());
            StolenElements.Prepared p = StolenElements.prepare(n.scheduler, function, "member "
                    + Membership.shortId(owner), m, inputs);
            arrays = p.arrays();
            long submitted = System.nanoTime();
            if (n.counters.firstStolenNanos < 0) {
                n.counters.firstStolenNanos = submitted - n.joinedNanos;
            }
            // Counted first: the element can run and its result settle at home before submitHere returns, and
            // whoever then reads the counters must find it. Uncounted again if it is refused.
            n.counters.stolen.incrementAndGet();
            try {
                // With its rank at home: an element asked for by rank runs ahead of the lower-ranked work here.
                n.scheduler.submitHere(p.element(), item.rank(), (error, runNanos) -> finish(h, m, p.arrays(),
                        runNanos, error));
            } catch (RuntimeException e) {
                n.counters.stolen.decrementAndGet();
                throw e;
            }
        } catch (RuntimeException e) {
            // It cannot run here (compile error on this device, a launch this device refuses, no memory):
            // the owner runs it, which gives the authoritative result.
            ClusterNode.LOG.log(System.Logger.Level.WARNING, "cannot run " + item.element().label() + " from "
                    + n.members.describe(owner) + " here; handing it back: " + e.getMessage());
            StolenElements.release(n.scheduler, arrays);
            drop(h);
            n.send(owner, new Handback(n.self(), List.of(item.stealId()), HandbackReason.CANNOT_RUN));
        }
    }

    private void finish(Held h, ElementMessage m, Map<Long, TrackedArray> arrays, long runNanos,
            DeviceException error) {
        long now = System.nanoTime();
        if (error == null) {
            n.learning.observeStolen(h.owner, runNanos, h.ownerExpectedNanos);
        }
        try {
            if (h.abandoned) {
                return;
            }
            List<ArrayData> outputs = error == null ? StolenElements.outputs(n.scheduler, m, arrays) : List.of();
            long bytes = 0;
            for (ArrayData d : outputs) {
                bytes += d.bytes().length;
            }
            WorkResult result = new WorkResult(n.self(), h.stealId, h.epoch, error == null,
                    error == null ? null : shorten(error.error().name() + ": " + error.getMessage()),
                    Math.max(0, now - h.receivedNanos - runNanos), runNanos, outputs, othersHeld());
            if (n.send(h.owner, result)) {
                n.counters.bytesSent.addAndGet(bytes);
            }
        } finally {
            StolenElements.release(n.scheduler, arrays);
            drop(h);
            n.wakeLoop();
        }
    }

    /** An error message short enough for a result message (the wire format caps strings at 64 KiB). */
    static String shorten(String message) {
        return message.length() <= 8000 ? message : message.substring(0, 8000) + " … (cut)";
    }

    /**
     * Stolen elements this member holds besides the one whose result it is sending (which is still in
     * {@link #held}), received ones not yet submitted included; never below 0 (a leave may have cleared the table).
     */
    private int othersHeld() {
        return Math.max(0, size() - 1 + n.thief.arriving());
    }

    private void drop(Held h) {
        synchronized (n.lock) {
            Map<Long, Held> m = held.get(h.owner);
            if (m != null) {
                m.remove(h.stealId, h);
                if (m.isEmpty()) {
                    held.remove(h.owner);
                }
            }
            n.lock.notifyAll();
        }
    }

    /** Elements of other members running here now. */
    int size() {
        synchronized (n.lock) {
            int count = 0;
            for (Map<Long, Held> m : held.values()) {
                count += m.size();
            }
            return count;
        }
    }

    /** Whether none runs here. The caller holds the node's lock. */
    boolean isEmptyLocked() {
        return held.isEmpty();
    }

    /** Tells each owner which of its elements run here, so it does not re-run them. */
    void sendHolding() {
        Map<String, List<Long>> byOwner = new HashMap<>();
        synchronized (n.lock) {
            for (Map.Entry<String, Map<Long, Held>> e : held.entrySet()) {
                byOwner.put(e.getKey(), new ArrayList<>(e.getValue().keySet()));
            }
        }
        for (Map.Entry<String, List<Long>> e : byOwner.entrySet()) {
            n.send(e.getKey(), new Holding(n.self(), e.getValue()));
        }
    }

    /** {@code owner} left: its elements here run on, but their results are not sent. The caller holds the lock. */
    void abandonLocked(String owner) {
        Map<Long, Held> theirs = held.remove(owner);
        if (theirs != null) {
            for (Held h : theirs.values()) {
                h.abandoned = true;
            }
        }
    }

    /** This member leaves: hands back what still runs here (its results are not sent). */
    void handBackAll() {
        Map<String, List<Long>> unfinished = new HashMap<>();
        synchronized (n.lock) {
            for (Map.Entry<String, Map<Long, Held>> e : held.entrySet()) {
                for (Held h : e.getValue().values()) {
                    h.abandoned = true;
                    unfinished.computeIfAbsent(e.getKey(), o -> new ArrayList<>()).add(h.stealId);
                }
            }
            held.clear();
        }
        for (Map.Entry<String, List<Long>> e : unfinished.entrySet()) {
            n.send(e.getKey(), new Handback(n.self(), e.getValue(), HandbackReason.LEAVING));
        }
    }
}
