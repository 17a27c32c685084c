package dev.polygpu.cluster;

import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.Handback;
import dev.polygpu.cluster.wire.HandbackReason;
import dev.polygpu.cluster.wire.Holding;
import dev.polygpu.cluster.wire.WorkResult;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.runtime.Access;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.StolenElement;
import dev.polygpu.runtime.TrackedArray;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The owner's table of its elements away at thieves, from the reply that gave each until its result is
 * accepted, or it comes back: handed back, its thief silent too long, gone or out of reach. A result is accepted
 * exactly once, by steal id, thief and epoch; the first of result, hand-back, departure and silence to take an
 * element off the table wins. Thread-safe: the table is guarded by the node's lock; elements are settled
 * outside it.
 */
final class GivenElements {
    /** An element of this member that another member holds. */
    static final class Given {
        final long stealId;
        final StolenElement element;
        final String thief;
        final long epoch;
        final long sentNanos;
        final long inputBytes;
        final String kernel;
        /** The element's shape ({@link Learning#shape}), for learning the thief's speed from its result; or null. */
        final String shape;
        long lastHeardNanos;

        Given(long stealId, StolenElement element, String thief, long epoch, long sentNanos, long inputBytes,
                String kernel, String shape) {
            this.stealId = stealId;
            this.element = element;
            this.thief = thief;
            this.epoch = epoch;
            this.sentNanos = sentNanos;
            this.inputBytes = inputBytes;
            this.kernel = kernel;
            this.shape = shape;
            this.lastHeardNanos = sentNanos;
        }
    }

    private final NodeContext n;
    /** This member's epoch: results carry it, so that a restarted member's steal ids are not taken for these. */
    final long epoch;
    /** A thief that has not mentioned an element for this long has lost it. */
    private final long lostAfterNanos;
    /** stealId → the element away. Guarded by the node's lock. */
    private final Map<Long, Given> given = new HashMap<>();
    private long nextStealId = 1;

    GivenElements(NodeContext n) {
        this.n = n;
        this.epoch = n.random.nextLong() & Long.MAX_VALUE | 1;
        this.lostAfterNanos = Math.max(n.config.holdInterval().toNanos() * 8, Duration.ofSeconds(2).toNanos());
    }

    /**
     * Registers {@code e}, taken for {@code thief}, as away; returns its steal id, or -1 if this member started
     * leaving or left the cluster meanwhile (the caller then puts it back).
     */
    long register(StolenElement e, String thief, long inputBytes, String shape) {
        synchronized (n.lock) {
            if (!n.active()) {
                return -1;
            }
            long id = nextStealId++;
            given.put(id, new Given(id, e, thief, epoch, System.nanoTime(), inputBytes, e.element().label(), shape));
            return id;
        }
    }

    /** Elements of this member away now. */
    int size() {
        synchronized (n.lock) {
            return given.size();
        }
    }

    /** Whether none is away. The caller holds the node's lock. */
    boolean isEmptyLocked() {
        return given.isEmpty();
    }

    /** How many of this member's elements {@code thief} holds now. */
    int heldBy(String thief) {
        synchronized (n.lock) {
            int held = 0;
            for (Given g : given.values()) {
                if (g.thief.equals(thief)) {
                    held++;
                }
            }
            return held;
        }
    }

    /** Takes the elements away at {@code left} off the table and returns them. The caller holds the node's lock. */
    List<Given> removeThievesLocked(Collection<String> left) {
        List<Given> out = new ArrayList<>();
        for (Iterator<Given> it = given.values().iterator(); it.hasNext();) {
            Given g = it.next();
            if (left.contains(g.thief)) {
                it.remove();
                out.add(g);
            }
        }
        return out;
    }

    /** Takes every element off the table and returns them. The caller holds the node's lock. */
    List<Given> takeAllLocked() {
        List<Given> all = new ArrayList<>(given.values());
        given.clear();
        return all;
    }

    void onWorkResult(WorkResult r) {
        Given g;
        synchronized (n.lock) {
            g = given.get(r.stealId());
            if (g == null || !g.thief.equals(r.sender()) || g.epoch != r.epoch()) {
                n.counters.rejected.incrementAndGet();
                boolean fromDead = n.members.isDeadLocked(r.sender());
                ClusterNode.LOG.log(System.Logger.Level.DEBUG, () -> "dropped a " + (fromDead ? "late"
                        : "duplicate or stale") + " result for steal " + r.stealId() + " from "
                        + n.members.describe(r.sender()));
                return;
            }
            given.remove(r.stealId());
        }
        // Counters first: settling the element may release a host thread that reads them.
        if (!r.ok()) {
            n.counters.completedRemote.incrementAndGet();
            g.element.fail(new DeviceException(CudaError.LAUNCH_FAILED, "it ran on cluster member "
                    + n.members.describe(r.sender()) + " and failed there: " + r.error()));
            return;
        }
        String invalid = checkOutputs(g.element.element(), r.outputs());
        if (invalid != null) {
            n.counters.rejected.incrementAndGet();
            ClusterNode.LOG.log(System.Logger.Level.WARNING, "refused the result of " + g.element.element().label()
                    + " from " + n.members.describe(r.sender()) + " (" + invalid + "); running it here");
            n.counters.rerun.incrementAndGet();
            g.element.giveBack();
            return;
        }
        long bytes = copyOutputs(g, r);
        long now = System.nanoTime();
        n.counters.completedRemote.incrementAndGet();
        StolenElement next = null;
        String label = Membership.shortId(r.sender());
        if (n.victim.mayPushTo(r.sender())) {
            int holds = r.thiefHolds();
            next = g.element.completeAndTake(label, now - r.runNanos(), now, (child, load) ->
                    n.victim.pushes(holds, child, load, now));
        } else {
            g.element.complete(label, now - r.runNanos(), now);
        }
        if (next != null) {
            n.victim.push(next, r.sender(), now);
        }
        n.learning.observeResult(r.sender(), g.kernel, g.shape, r.runNanos(), g.inputBytes + bytes,
                now - g.sentNanos - r.queueNanos() - r.runNanos());
    }

    /**
     * Writes a checked result's outputs into the element's arrays (their copies on its device, with several);
     * returns their bytes.
     */
    private long copyOutputs(Given g, WorkResult r) {
        long bytes = 0;
        for (ArrayData d : r.outputs()) {
            TrackedArray t = arrayOf(g.element.element(), d.arrayId());
            MemorySegment.copy(d.bytes(), 0, g.element.buffer(t).hostView(), ValueLayout.JAVA_BYTE, d.byteOffset(),
                    d.bytes().length);
            bytes += d.bytes().length;
        }
        n.counters.bytesReceived.addAndGet(bytes);
        return bytes;
    }

    /** Null if the outputs write only arrays the element writes, within their sizes; else what is wrong. */
    private static String checkOutputs(ComputationalElement e, List<ArrayData> outputs) {
        for (ArrayData d : outputs) {
            if (d.isReference()) {
                return "it returned a reference instead of the bytes of array " + d.arrayId();
            }
            TrackedArray t = arrayOf(e, d.arrayId());
            if (t == null) {
                return "it returned bytes for array " + d.arrayId() + ", which the element does not write";
            }
            if (d.byteOffset() < 0 || d.byteOffset() + d.bytes().length > t.bytes()) {
                return "it returned bytes " + d.byteOffset() + ".." + (d.byteOffset() + d.bytes().length)
                        + " for array " + t.name() + " of " + t.bytes() + " bytes";
            }
        }
        return null;
    }

    private static TrackedArray arrayOf(ComputationalElement e, long arrayId) {
        for (Access a : e.accesses()) {
            if (a.array().id() == arrayId && a.mode().writes()) {
                return a.array();
            }
        }
        return null;
    }

    void onHandback(Handback h) {
        for (long id : h.stealIds()) {
            // Late replies and leaving thieves never tried the element: it may go to another thief. An element
            // its thief cannot run stays here.
            takeBack(id, h.sender(), switch (h.reason()) {
                case STALE_REPLY -> "its thief had given up waiting for it";
                case LEAVING -> "its thief is leaving the cluster";
                case CANNOT_RUN -> "its thief cannot run it";
                case MISSING_INPUT -> "its thief no longer kept an input sent as a reference";
            }, h.reason() == HandbackReason.CANNOT_RUN);
        }
        if (h.reason() == HandbackReason.MISSING_INPUT) {
            n.victim.forgetInputs(h.sender());
        }
    }

    /**
     * Takes a given element back (pinned here if {@code pin}, else stealable again); false if it is not (or no
     * longer) away with {@code thief}.
     */
    boolean takeBack(long stealId, String thief, String why, boolean pin) {
        Given g;
        synchronized (n.lock) {
            g = given.get(stealId);
            if (g == null || !g.thief.equals(thief)) {
                return false;
            }
            given.remove(stealId);
        }
        ClusterNode.LOG.log(System.Logger.Level.DEBUG, () -> "took " + g.element.element().label() + " back: "
                + why);
        n.counters.rerun.incrementAndGet();
        if (pin) {
            g.element.giveBack();
        } else {
            g.element.putBack();
        }
        return true;
    }

    void onHolding(Holding h) {
        long now = System.nanoTime();
        synchronized (n.lock) {
            for (long id : h.stealIds()) {
                Given g = given.get(id);
                if (g != null && g.thief.equals(h.sender())) {
                    g.lastHeardNanos = now;
                }
            }
        }
    }

    /** Elements whose thief has not mentioned them for a while are lost; they run here. */
    void reclaimLost(long now) {
        List<Given> lost = new ArrayList<>();
        synchronized (n.lock) {
            for (Iterator<Given> it = given.values().iterator(); it.hasNext();) {
                Given g = it.next();
                if (now - g.lastHeardNanos > lostAfterNanos) {
                    it.remove();
                    lost.add(g);
                }
            }
        }
        for (Given g : lost) {
            ClusterNode.LOG.log(System.Logger.Level.INFO, "no word from " + n.members.describe(g.thief) + " on "
                    + g.element.element().label() + " for " + (now - g.lastHeardNanos) / 1_000_000
                    + " ms; running it here");
            n.counters.rerun.incrementAndGet();
            g.element.giveBack();
        }
    }

    /** Runs here what is still away, as this member leaves. */
    void reclaimAll() {
        List<Given> away;
        synchronized (n.lock) {
            away = takeAllLocked();
        }
        for (Given g : away) {
            n.counters.rerun.incrementAndGet();
            g.element.giveBack();
        }
    }
}
