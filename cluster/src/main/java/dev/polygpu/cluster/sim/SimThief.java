package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.Priority;
import dev.polygpu.cluster.policy.Thief;
import java.util.Arrays;

/**
 * The simulated members as thieves, as {@code ClusterNode}'s thief side: each asks when its {@link Thief} says
 * so, and takes what a reply, a load report or a timeout means from the same {@link Thief}; what is simulated
 * here is only the messages and the input cache around those decisions.
 */
final class SimThief {
    private final SimCluster c;
    private final Workload work;
    private final SimConfig config;
    /** Scratch for {@link #floorRank}: the window's ranks and the best ready ones. */
    private final int[] rankBuffer;

    SimThief(SimCluster c) {
        this.c = c;
        this.work = c.work;
        this.config = c.config;
        this.rankBuffer = new int[config.window() + config.stolenOverflow() + config.slots()];
    }

    /** The thief's loop body, run whenever this member's load or back-off changes. */
    void check(SimMember m) {
        if (!m.alive || m.leaving || !config.stealing() || m.silenced) {
            return;
        }
        Thief.Request r = m.thief.begin(c.now, m.ready(), m.inFlight, floorRank(m), c.candidates, m.rnd);
        if (r != null) {
            m.requests++;
            if (r.minRank() > 0) {
                c.rankRequests++;
            }
            SimMember victim = c.byId.get(r.victim());
            SimEvent e = c.send(m, victim, SimEvent.REQUEST, SimCluster.HEADER_BYTES);
            e.requestId = r.requestId();
            e.thief = m.index;
            e.wanted = r.wanted();
            e.minRank = r.minRank();
            c.schedule(c.now + config.settings().requestTimeoutNanos(), SimEvent.EXPIRE, m.index);
            return;
        }
        long next = m.thief.nextRequestAt(c.now);
        if (next > c.now && !m.thief.outstanding() && (m.checkAt < 0 || m.checkAt > next)) {
            m.checkAt = next;
            c.schedule(next, SimEvent.CHECK, m.index);
        }
    }

    /** The request of {@code m} may have timed out. */
    void onExpire(SimMember m) {
        if (m.alive && m.thief.expire(c.now)) {
            c.timeouts++;
            m.emptyReplies++;
            check(m);
        }
    }

    /**
     * The rank of the {@code slots}-th highest-ranked task {@code m} holds, on its streams or ready
     * ({@link Priority#floorRank}); 0 without ranks.
     */
    private int floorRank(SimMember m) {
        if (c.ranks == null) {
            return 0;
        }
        int count = 0;
        for (int i = 0; i < m.windowCount; i++) {
            rankBuffer[count++] = c.ranks[m.window[i]];
        }
        for (int i = 0; i < config.slots(); i++) {
            int r = m.pending.rankAt(i);
            if (r < 0) {
                break;
            }
            rankBuffer[count++] = r;
        }
        return Priority.floorRank(config.slots(), rankBuffer, count);
    }

    /** A reply reaches thief {@code m}: its {@link Thief} says what it means ({@link Thief#onReply}). */
    void onReply(SimMember m, SimEvent e) {
        if (!m.alive) {
            c.lost(e);
            return;
        }
        c.received(m, e);
        int n = e.items.length;
        SimMember sender = c.member(e.from);
        Thief.Reply reply = m.thief.onReply(e.requestId, sender.id, n, e.pushed, c.now);
        boolean accepted = reply != Thief.Reply.STALE;
        // The references first, as ClusterNode does: the arrays this reply brings must not evict one it refers to.
        int[] missing = accepted && n > 0 && c.caching ? resolve(m, sender, e.arraysReferenced) : SimCluster.NONE;
        if (c.caching && n > 0) {
            // Also from a stale reply: the owner recorded these arrays as sent.
            for (int a : e.arraysSent) {
                m.inputs.put(sender.id, a, Boolean.TRUE, Boolean.TRUE, work.arrayBytes(a));
            }
        }
        switch (reply) {
            case STALE -> {
                if (n > 0) {
                    c.staleReplies++;
                    SimEvent h = c.send(m, sender, SimEvent.HANDBACK, SimCluster.HEADER_BYTES + 8L * n);
                    h.items = e.items;
                }
            }
            case EMPTY -> {
                m.emptyReplies++;
                check(m);
            }
            case WORK -> run(m, sender, e, missing);
        }
    }

    /** Queues the tasks of a reply with work at thief {@code m}, but those whose inputs missed in its cache. */
    private void run(SimMember m, SimMember sender, SimEvent e, int[] missing) {
        if (!e.pushed) {
            c.latency.record(m.thief.lastLatencyNanos());
        }
        int[] keep = missing.length == 0 ? e.items : handBackMissing(m, sender, e.items, missing);
        for (int t : keep) {
            m.pending.addLast(t);
            m.notStealable++;
            c.arrivedAt[t] = c.now;
        }
        m.foreignHeld += keep.length;
        m.stolen += keep.length;
        c.device.dispatch(m);
        check(m);
    }

    /**
     * A load report reaches {@code m}: as a program it keeps it in its directory table; as a thief that the
     * sender turned away, it may ask again at once ({@link Thief#onLoadReport}).
     */
    void onLoad(SimMember m, SimEvent e) {
        if (!m.alive) {
            c.lost(e);
            return;
        }
        c.received(m, e);
        String sender = c.member(e.from).id;
        if (m.program) {
            m.directory.report(sender, e.wanted, e.minRank);
        }
        if (m.thief.onLoadReport(sender, e.wanted, config.stealing() && !m.leaving, c.now)) {
            check(m);
        }
    }

    /**
     * Resolves a reply's references in {@code m}'s cache, counting the misses.
     *
     * @return the arrays that missed (sorted), or an empty array
     */
    private int[] resolve(SimMember m, SimMember owner, int[] referenced) {
        int[] missed = SimCluster.NONE;
        int count = 0;
        for (int a : referenced) {
            if (m.inputs.get(owner.id, a, Boolean.TRUE) == null) {
                if (count == missed.length) {
                    missed = Arrays.copyOf(missed, Math.max(4, 2 * count));
                }
                missed[count++] = a;
            }
        }
        c.cacheMisses += count;
        if (count == 0) {
            return SimCluster.NONE;
        }
        int[] out = Arrays.copyOf(missed, count);
        Arrays.sort(out);
        return out;
    }

    /**
     * Hands the tasks of {@code items} that read an array of {@code missing} back to their owner with the
     * reason "missing input".
     *
     * @return the other tasks, which {@code m} runs
     */
    private int[] handBackMissing(SimMember m, SimMember owner, int[] items, int[] missing) {
        int[] keep = new int[items.length];
        int[] back = new int[items.length];
        int kept = 0;
        int handed = 0;
        for (int t : items) {
            boolean reads = false;
            for (int i = 0; i < work.inputCount(t) && !reads; i++) {
                reads = Arrays.binarySearch(missing, work.input(t, i)) >= 0;
            }
            if (reads) {
                back[handed++] = t;
            } else {
                keep[kept++] = t;
            }
        }
        c.missingInputHandBacks += handed;
        SimEvent h = c.send(m, owner, SimEvent.HANDBACK, SimCluster.HEADER_BYTES + 8L * handed);
        h.items = Arrays.copyOf(back, handed);
        h.missingInput = true;
        return Arrays.copyOf(keep, kept);
    }
}
