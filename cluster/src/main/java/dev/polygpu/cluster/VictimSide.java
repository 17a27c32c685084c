package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.CostGate;
import dev.polygpu.cluster.policy.SentInputs;
import dev.polygpu.cluster.policy.ThiefCap;
import dev.polygpu.cluster.policy.Victim;
import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.Digest;
import dev.polygpu.cluster.wire.LoadReport;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.runtime.Access;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.StolenElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A member as a victim: it answers steal requests as its {@link Victim} decides (how many, which, forward where,
 * whether the thief counts as turned away), takes the elements from its scheduler and packs them with their
 * inputs, wakes the thieves it turned away once it has work, and pushes the next link of a chain to the thief
 * that ran the one before. The decisions are the policy's, the same the simulator runs; this class only
 * connects them to the scheduler and the transport.
 *
 * <p>Thread-safety: requests are handled on the transport's receiving threads and wake-ups on the stealing
 * loop; per thief, an outbox lock ({@link #outboxOf}) is held while a reply to it is packed and sent, so that
 * replies leave in the order their inputs were recorded in {@link #sentInputs}: a reply that refers to an input
 * never overtakes the one that carries its bytes. The node's lock is taken inside an outbox lock, never around.
 */
final class VictimSide {
    private final NodeContext n;
    /** The victim's decisions (how many, which, forward where, whom to wake). */
    private final Victim policy;
    /** Which of this member's arrays each thief holds, and with which contents. */
    private final SentInputs<Digest> sentInputs;
    /** Per thief, held while a reply to it is packed and sent. */
    private final Map<String, Object> outboxes = new ConcurrentHashMap<>();

    VictimSide(NodeContext n, CostGate gate) {
        this.n = n;
        this.policy = new Victim(n.self(), gate, System.nanoTime(), n.config.role() == ClusterConfig.Role.PROGRAM);
        this.sentInputs = new SentInputs<>(n.config.inputCacheBytes());
    }

    Victim policy() {
        return policy;
    }

    /** A scheduler's load as the victim counts it. */
    static Victim.Load victimLoad(Scheduler.Load l) {
        return new Victim.Load(l.ready(), l.stealable(), l.running());
    }

    void onStealRequest(StealRequest r) {
        String thief = r.thief();
        if (policy.isSelf(thief)) {
            // Forwarded back to its own thief: nothing here for it.
            n.thief.onStealReply(new StealReply(n.self(), r.requestId(), List.of()));
            return;
        }
        boolean proven = n.auth.isProven(thief);
        if (!proven) {
            n.counters.rejected.incrementAndGet();
        }
        boolean mayGive = n.config.stealing() && n.active() && proven;
        Victim.Ask ask = new Victim.Ask(thief, r.hops(), r.wanted(), r.minRank());
        Victim.Load load = null;
        int given = 0;
        if (mayGive) {
            synchronized (outboxOf(thief)) {
                Scheduler.Load l = n.scheduler.load();
                load = victimLoad(l);
                List<WorkItem> items = take(thief, policy.offer(ask, load, n.slots, heldBy(thief)), r.minRank(), l);
                given = items.size();
                if (given > 0) {
                    deliver(thief, new StealReply(n.self(), r.requestId(), items));
                }
            }
        }
        // With work given, the answer needs no one to forward to: the members are not looked up.
        List<String> candidates = given > 0 ? List.of() : n.members.programs();
        Victim.Answer a;
        synchronized (n.lock) {
            a = policy.answer(ask, load, mayGive, given, n.directory.table(), n.thief.policy().lastVictim(),
                    candidates, n.random);
        }
        switch (a.move()) {
            case GIVE -> { }
            case FORWARD -> {
                if (a.byDirectory()) {
                    n.counters.directoryForwards.incrementAndGet();
                }
                n.counters.forwarded.incrementAndGet();
                n.send(a.next(), new StealRequest(n.self(), r.requestId(), thief, r.hops() + 1, r.wanted(),
                        r.minRank()));
            }
            case REPLY_EMPTY -> n.send(thief, new StealReply(n.self(), r.requestId(), List.of()));
        }
    }

    /**
     * How many of this member's elements {@code thief} holds, for the {@link ThiefCap}: counted only with a cap
     * (the node's configuration has none; the simulator tries them).
     */
    private int heldBy(String thief) {
        return n.settings.thiefCap() == ThiefCap.OFF ? 0 : n.given.heldBy(thief);
    }

    /**
     * Takes up to {@code count} elements of rank at least {@code minRank} for {@code thief}, highest rank first,
     * those the cost gate lets move ({@link #worthMoving}), each registered as given and packed with its inputs
     * ({@link #give}); fewer (or none) when the queue or the gate runs out, or this member started leaving.
     */
    private List<WorkItem> take(String thief, int count, int minRank, Scheduler.Load load) {
        List<WorkItem> items = new ArrayList<>(count);
        long now = System.nanoTime();
        Set<Long> packed = new HashSet<>();
        for (int i = 0; i < count; i++) {
            int given = i;
            StolenElement e = n.scheduler.steal(minRank, el -> worthMoving(el, given, load, now));
            if (e == null) {
                break;
            }
            WorkItem item = give(e, thief, packed);
            if (item == null) {
                break;
            }
            items.add(item);
            policy.gave(now);
        }
        return items;
    }

    /**
     * Sends a reply with work to its thief; if the thief cannot be reached, takes the elements back (pinned
     * here) and forgets which inputs it holds.
     */
    boolean deliver(String thief, StealReply reply) {
        if (n.send(thief, reply)) {
            return true;
        }
        sentInputs.forget(thief);
        for (WorkItem item : reply.items()) {
            n.given.takeBack(item.stealId(), thief, "its thief could not be reached", true);
        }
        return false;
    }

    /**
     * Whether {@code e}, the {@code given}-th element of a reply, may move ({@link Victim#mayMove}): its
     * bytes are those of the arrays it reads.
     */
    private boolean worthMoving(ComputationalElement e, int given, Scheduler.Load load, long now) {
        long bytes = 0;
        for (Access a : e.accesses()) {
            if (a.mode().reads()) {
                bytes += a.array().bytes();
            }
        }
        synchronized (n.learning.costs) {
            return policy.mayMove(given, e.label(), bytes, load.ready(), load.running(), n.slots, now);
        }
    }

    /**
     * Registers a taken element and packs it with the arrays it reads, except those an earlier element of the
     * same reply carries ({@code packed}: their contents are the same, as no writer of them can have run between
     * two elements that were ready together). An array goes as a reference when the thief holds it with the
     * same contents ({@link SentInputs}), otherwise as bytes with their digest. Null (and the element back in
     * the queue) if this member started leaving or left meanwhile.
     *
     * <p>The contents cannot change while the element is away: a later writer of any array it reads waits for
     * it (write-after-read), and so does a host write.
     */
    private WorkItem give(StolenElement e, String thief, Set<Long> packed) {
        List<ArrayData> inputs = new ArrayList<>();
        long allBytes = 0;
        for (Access a : e.element().accesses()) {
            allBytes += a.array().bytes();
        }
        String shape = n.config.learnSpeeds() ? Learning.shape(e.element().label(), allBytes) : null;
        long bytes = 0;
        for (Access a : e.element().accesses()) {
            if (a.mode().reads() && packed.add(a.array().id())) {
                bytes += pack(e, a, thief, inputs);
            }
        }
        long id = n.given.register(e, thief, bytes, shape);
        if (id < 0) {
            e.giveBack();
            return null;
        }
        n.learning.givenAway(e.id());
        n.counters.given.incrementAndGet();
        n.counters.bytesSent.addAndGet(bytes);
        return new WorkItem(id, n.given.epoch, e.message(), inputs, e.rank(), n.learning.expectedOwn(shape));
    }

    /**
     * Adds the array {@code a} of {@code e} reads to {@code inputs}, as bytes or as a reference; returns the bytes
     * sent. With several devices they are read from the copy on {@code e}'s device, up to date since it is ready.
     */
    private long pack(StolenElement e, Access a, String thief, List<ArrayData> inputs) {
        MemorySegment view = e.buffer(a.array()).hostView().asSlice(0, a.array().bytes());
        long id = a.array().id();
        if (n.config.inputCacheBytes() == 0) {
            byte[] data = view.toArray(ValueLayout.JAVA_BYTE);
            inputs.add(new ArrayData(id, 0, data));
            return data.length;
        }
        Digest digest = Digest.of(view);
        if (sentInputs.holds(thief, id, digest)) {
            inputs.add(ArrayData.reference(id, 0, digest));
            n.counters.inputBytesSaved.addAndGet(view.byteSize());
            return 0;
        }
        byte[] data = view.toArray(ValueLayout.JAVA_BYTE);
        inputs.add(new ArrayData(id, 0, data, digest));
        sentInputs.sent(thief, id, digest, data.length);
        return data.length;
    }

    /**
     * Wakes the starving thieves this program sent away with nothing, now that it has a surplus: those
     * {@link Victim#toWake} picks, each with the work a reply to its request would have carried (pushed), or a
     * {@link LoadReport} of the surplus if the gate keeps it all. Runs on the stealing loop; costs one test of an
     * empty list while nobody waits.
     */
    void maybeWake(LoopTurn turn) {
        if (!policy.anyTurnedAway() || !n.active()) {
            return;
        }
        List<String> woken = policy.toWake(turn.victimLoad());
        if (woken.isEmpty()) {
            return;
        }
        int surplus = turn.surplus();
        int top = turn.topRank();
        String self = n.self();
        for (String thief : woken) {
            if (!n.auth.isProven(thief) || n.members.isLeaving(thief)) {
                continue;
            }
            // The answer its request did not get then: work, as a reply would have carried it, so that the thief
            // need not ask again first (two messages fewer before it runs). A load report if the gate keeps all.
            // Counted first, as the thief may answer (and a reader of the counters look) before this goes on.
            n.counters.wakeUps.incrementAndGet();
            boolean sent;
            synchronized (outboxOf(thief)) {
                List<WorkItem> items = List.of();
                if (n.config.stealing()) {
                    Scheduler.Load l = n.scheduler.load();
                    items = take(thief, policy.offer(policy.wakeUpAsk(thief), victimLoad(l), n.slots,
                            heldBy(thief)), 0, l);
                }
                sent = !items.isEmpty() ? deliver(thief, StealReply.pushed(self, items))
                        : n.send(thief, new LoadReport(self, surplus, top));
            }
            if (!sent) {
                n.counters.wakeUps.decrementAndGet();
            }
        }
    }

    /** Whether this member may push the next link of a chain to {@code thief} now. */
    boolean mayPushTo(String thief) {
        return n.settings.pushContinuations() && n.config.stealing() && n.active() && !n.members.isLeaving(thief)
                && n.auth.isProven(thief);
    }

    /**
     * Whether {@code child}, which a result of a thief holding {@code thiefHolds} other stolen elements made
     * ready, goes straight to that thief ({@link Victim#pushContinuation}, and the gate).
     */
    boolean pushes(int thiefHolds, ComputationalElement child, Scheduler.Load load, long now) {
        return policy.pushContinuation(thiefHolds, load.ready(), load.stealable(), load.running())
                && worthMoving(child, 0, load, now);
    }

    /** Sends {@code e}, the next link of a chain, to {@code thief} unasked ({@link Victim#pushContinuation}). */
    void push(StolenElement e, String thief, long now) {
        boolean sent;
        synchronized (outboxOf(thief)) {
            WorkItem item = give(e, thief, new HashSet<>());
            if (item == null) {
                return;
            }
            policy.gave(now);
            sent = deliver(thief, StealReply.pushed(n.self(), List.of(item)));
        }
        if (sent) {
            n.counters.pushed.incrementAndGet();
        }
    }

    /** The lock held while a reply to {@code thief} is packed and sent. */
    private Object outboxOf(String thief) {
        return outboxes.computeIfAbsent(thief, t -> new Object());
    }

    /** The thief no longer keeps what this member believed it held: inputs go as bytes to it again. */
    void forgetInputs(String thief) {
        sentInputs.forget(thief);
    }

    /** Forgets a member that left. */
    void forget(String member) {
        sentInputs.forget(member);
        outboxes.remove(member);
        policy.forget(member);
    }
}
