package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.policy.Priority;
import dev.polygpu.cluster.policy.Starvation;
import dev.polygpu.cluster.policy.Thief;
import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.Digest;
import dev.polygpu.cluster.wire.Handback;
import dev.polygpu.cluster.wire.HandbackReason;
import dev.polygpu.cluster.wire.LoadReport;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.runtime.Scheduler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A member as a thief: it asks a victim for work when its {@link Thief} says so (starving, or busy with
 * low-ranked work: {@link Priority}), takes what a reply or a load report means from the same {@link Thief}, and
 * hands the elements of a reply with work to {@link HeldElements} with their inputs, kept in its
 * {@link InputCache} so that owners may send references next time. The decisions are the policy's, the same the
 * simulator runs; this class only connects them to the scheduler and the transport.
 *
 * <p>Thread-safety: requests start on the stealing loop, replies are handled on the transport's receiving
 * thread in the order they arrive; the thief's acceptance of a reply is made under the node's lock.
 */
final class ThiefSide {
    private final NodeContext n;
    /** The thief's protocol state (request out, victim asked first, back-off); its own lock. */
    private final Thief policy;
    /** Other members' input arrays kept, so their owners may send references instead. */
    private final InputCache<Digest, byte[]> inputCache;
    /**
     * Stolen elements received and not yet submitted to the scheduler (their kernel may still be compiling):
     * the scheduler's load does not show them yet, so the starvation check adds them to the running ones.
     */
    private final AtomicInteger arriving = new AtomicInteger();

    ThiefSide(NodeContext n) {
        this.n = n;
        // Forgetting after forwarded empty replies stays off (a simulator what-if only); random requests and
        // directories by option.
        this.policy = new Thief(n.self(), n.settings, 0, n.config.randomEvery(), n.config.directories());
        this.inputCache = new InputCache<>(n.config.inputCacheBytes());
    }

    Thief policy() {
        return policy;
    }

    /** Stolen elements received and not yet submitted. */
    int arriving() {
        return arriving.get();
    }

    /** Gives the outstanding request up if it waited too long (an empty reply, as far as the counters go). */
    void expire(long now) {
        if (policy.expire(now)) {
            n.counters.emptyReplies.incrementAndGet();
        }
    }

    /**
     * Asks a victim for work if this member is starving (any element), or else for elements of a high enough
     * rank if the elements it would run next rank low ({@link Thief#begin(long, int, int, int, List,
     * java.util.random.RandomGenerator)}, {@link Priority}).
     */
    void maybeSteal(long now, LoopTurn turn) {
        if (!n.config.stealing() || !n.active() || policy.outstanding()) {
            return;
        }
        // Members to ask: with none (no other program), the device's load is not worth taking.
        List<String> candidates = n.members.programs();
        if (candidates.size() <= (candidates.contains(n.self()) ? 1 : 0)) {
            return;
        }
        Scheduler.Load load = turn.load();
        // Stolen elements on their way to the scheduler count as running; they are not ranked until submitted.
        int running = load.running() + arriving.get();
        int floorRank = n.settings.rankFactor() > 0 && !Starvation.starving(load.ready(), running, n.settings)
                ? n.scheduler.floorRank(n.slots) : 0;
        Thief.Request request;
        synchronized (n.lock) {
            // Under the lock that accepts replies: the elements of a reply accepted meanwhile count.
            request = policy.begin(now, load.ready(), running, floorRank, candidates, n.random);
        }
        if (request == null) {
            return;
        }
        n.counters.requests.incrementAndGet();
        if (request.minRank() > 0) {
            n.counters.rankRequests.incrementAndGet();
        }
        n.send(request.victim(), new StealRequest(n.self(), request.requestId(), n.self(), 0, request.wanted(),
                request.minRank()));
    }

    /** A program has surplus: a thief it turned away asks again at once ({@link Thief#onLoadReport}). */
    void onLoadReport(LoadReport l) {
        if (policy.onLoadReport(l.sender(), l.surplus(), n.config.stealing() && !n.leaving, System.nanoTime())) {
            n.wakeLoop();
        }
    }

    void onStealReply(StealReply r) {
        long now = System.nanoTime();
        Thief.Reply reply;
        long latencyNanos;
        synchronized (n.lock) {
            reply = policy.onReply(r.requestId(), r.sender(), r.items().size(), r.pushed(), now);
            latencyNanos = reply == Thief.Reply.WORK && !r.pushed() ? policy.lastLatencyNanos() : 0;
            if (reply != Thief.Reply.STALE) {
                arriving.addAndGet(r.items().size());
            }
        }
        boolean current = reply != Thief.Reply.STALE;
        // The inputs of the whole reply: an array several of its elements read comes once, as bytes or as a
        // reference to what this member keeps. References are resolved before the reply's new arrays are kept,
        // so that those cannot evict an array the same reply refers to.
        Map<Long, byte[]> inputs = new HashMap<>();
        Set<Long> missing = new HashSet<>();
        if (current) {
            resolve(r, inputs, missing);
        }
        // Kept whether or not the reply is current: the owner now believes this member holds them.
        keep(r);
        switch (reply) {
            case STALE -> handBackStale(r);
            case EMPTY -> n.counters.emptyReplies.incrementAndGet();
            case WORK -> {
                if (!r.pushed()) {
                    n.counters.latency.record(latencyNanos);
                } else if (n.settings.wakeThieves()) {
                    // Work from a member that has more ended a back-off from empty replies: look again.
                    n.wakeLoop();
                }
                List<KernelFunction> compiled = n.held.compiledKernels(r);
                if (compiled != null) {
                    runReply(r, compiled, inputs, missing, now);
                } else {
                    // Compiling takes long: not on the receiving thread, which the next messages wait for.
                    n.handlers.execute(() -> runReply(r, null, inputs, missing, now));
                }
            }
        }
    }

    /** The reply's inputs as bytes, from the reply or from the cache; {@code missing}: references not kept. */
    private void resolve(StealReply r, Map<Long, byte[]> inputs, Set<Long> missing) {
        for (WorkItem item : r.items()) {
            for (ArrayData d : item.inputs()) {
                byte[] bytes = d.isReference() ? inputCache.get(r.sender(), d.arrayId(), d.digest()) : d.bytes();
                if (bytes != null) {
                    inputs.put(d.arrayId(), bytes);
                } else {
                    missing.add(d.arrayId());
                }
            }
        }
    }

    /** Keeps the arrays the reply carries as bytes, and counts them received. */
    private void keep(StealReply r) {
        for (WorkItem item : r.items()) {
            for (ArrayData d : item.inputs()) {
                if (!d.isReference()) {
                    n.counters.bytesReceived.addAndGet(d.bytes().length);
                    if (d.digest() != null) {
                        inputCache.put(r.sender(), d.arrayId(), d.digest(), d.bytes(), d.bytes().length);
                    }
                }
            }
        }
    }

    /** A reply that answers no outstanding request: its work goes back unstarted. */
    private void handBackStale(StealReply r) {
        n.counters.rejected.incrementAndGet();
        if (!r.items().isEmpty()) {
            List<Long> ids = new ArrayList<>();
            for (WorkItem item : r.items()) {
                ids.add(item.stealId());
            }
            n.send(r.sender(), new Handback(n.self(), ids, HandbackReason.STALE_REPLY));
        }
    }

    /**
     * Submits the elements of a current reply with work whose inputs are resolved ({@code inputs}), with their
     * kernels when {@code compiled} has them (by position; null: from the kernel cache); hands back those that
     * read an array no longer kept here ({@code missing}).
     */
    private void runReply(StealReply r, List<KernelFunction> compiled, Map<Long, byte[]> inputs,
            Set<Long> missing, long now) {
        List<Long> unrunnable = new ArrayList<>();
        for (int i = 0; i < r.items().size(); i++) {
            WorkItem item = r.items().get(i);
            try {
                if (HeldElements.readsAny(item, missing)) {
                    unrunnable.add(item.stealId());
                } else {
                    n.held.run(r.sender(), item, compiled == null ? null : compiled.get(i), inputs, now);
                }
            } finally {
                arriving.decrementAndGet();
            }
        }
        if (!unrunnable.isEmpty()) {
            // Evicted here since the owner sent them: it forgets what it believed, and sends bytes next time.
            n.counters.inputCacheMisses.addAndGet(missing.size());
            ClusterNode.LOG.log(System.Logger.Level.DEBUG, () -> "handing " + unrunnable.size() + " elements back to "
                    + n.members.describe(r.sender()) + ": arrays " + missing + " are no longer kept here");
            n.send(r.sender(), new Handback(n.self(), unrunnable, HandbackReason.MISSING_INPUT));
        }
        n.wakeLoop();
    }

    /** Forgets a member that left: its arrays, and a request out to it. The caller holds the node's lock. */
    void forgetLocked(String member) {
        inputCache.forgetOwner(member);
        if (policy.forget(member)) {
            n.counters.emptyReplies.incrementAndGet();
        }
    }
}
