package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.LoadDirectory;
import dev.polygpu.cluster.policy.SentInputs;
import dev.polygpu.cluster.policy.Victim;
import java.util.Arrays;
import java.util.List;

/**
 * The simulated members as victims and owners, as {@code ClusterNode}'s victim side: each answers a request as
 * its {@link Victim} decides ({@link Victim#offer(Victim.Ask, Victim.Load, int, int)}, then
 * {@link Victim#answer}), wakes the thieves it turned away ({@link Victim#toWake}), reports its surplus to its
 * directory, pushes continuations, and takes results and hand-backs home. What is simulated here is only the
 * queue the tasks are taken from and the messages around those decisions.
 */
final class SimVictim {
    private final SimCluster c;
    private final Workload work;
    private final SimConfig config;
    /** While a result completes at its owner, with pushed continuations on: its thief, and what it held. */
    private SimMember pushTo;
    private int pushHolds;

    SimVictim(SimCluster c) {
        this.c = c;
        this.work = c.work;
        this.config = c.config;
    }

    /** A steal request reaches victim {@code v}. */
    void onRequest(SimMember v, SimEvent e) {
        if (!v.alive) {
            c.lost(e);
            return;
        }
        c.received(v, e);
        SimMember thief = c.member(e.thief);
        if (v.victim.isSelf(thief.id)) {
            // Forwarded back to its own thief: an empty reply to itself, as the real node does.
            SimEvent r = c.immediate(SimEvent.REPLY, v.index);
            r.from = v.index;
            r.requestId = e.requestId;
            r.items = new int[0];
            c.thieves.onReply(v, r);
            return;
        }
        Victim.Ask ask = new Victim.Ask(thief.id, e.hops, e.wanted, e.minRank);
        Victim.Load load = v.load();
        boolean mayGive = config.stealing() && !v.leaving;
        int[] items = mayGive ? take(v, thief, ask, load) : SimCluster.NONE;
        if (items.length > 0) {
            give(v, thief, items).requestId = e.requestId;
        }
        Victim.Answer a = v.victim.answer(ask, load, mayGive, items.length,
                config.directories() > 0 ? v.directory : null, v.thief.lastVictim(), c.candidates, v.rnd);
        switch (a.move()) {
            case GIVE -> report(v);
            case FORWARD -> {
                if (a.byDirectory()) {
                    c.directoryForwards++;
                }
                v.forwards++;
                SimEvent f = c.send(v, c.byId.get(a.next()), SimEvent.REQUEST, SimCluster.HEADER_BYTES);
                f.requestId = e.requestId;
                f.thief = e.thief;
                f.hops = e.hops + 1;
                f.wanted = e.wanted;
                f.minRank = e.minRank;
            }
            case REPLY_EMPTY -> {
                SimEvent r = c.send(v, thief, SimEvent.REPLY, SimCluster.HEADER_BYTES);
                r.requestId = e.requestId;
                r.items = new int[0];
            }
        }
    }

    /**
     * The tasks victim {@code v} gives {@code thief} for {@code ask}: the highest-ranked (then oldest) stealable
     * ones of at least the rank asked for that its {@link Victim} lets move, at most as many as it offers
     * (every member has {@code slots} slots, so the victim knows the thief's).
     */
    private int[] take(SimMember v, SimMember thief, Victim.Ask ask, Victim.Load load) {
        int n = v.victim.offer(ask, load, config.slots(), v.heldBy.getOrDefault(thief.index, 0));
        if (n == 0) {
            return new int[0];
        }
        int minRank = ask.minRank();
        int[] out = new int[n];
        int count = 0;
        // A walk from the front (highest rank, oldest) that resumes where the last pick was: what it passed is
        // not stealable, or refused, and a later pick is judged more strictly (fewer elements ahead of it).
        int rank = v.pending.highestBucket();
        int from = 0;
        boolean refused = false;
        for (int i = 0; i < n; i++) {
            int foundRank = -1;
            int found = -1;
            // A refused (kernel, bytes) is refused for every task like it at this position: skip them.
            long refusedKernel = -1;
            long refusedBytes = -1;
            for (int r = rank; r >= minRank && found < 0; r--, from = 0) {
                IntRing bucket = v.pending.bucket(r);
                for (int k = from; bucket != null && k < bucket.size(); k++) {
                    int t = bucket.get(k);
                    if (work.owner(t) != v.index || c.pinned[t]) {
                        continue;
                    }
                    long bytes = work.inputBytes(t);
                    if (work.kernel(t) == refusedKernel && bytes == refusedBytes) {
                        continue;
                    }
                    if (v.victim.mayMove(i, work.kernelName(work.kernel(t)), bytes, load.ready(), load.running(),
                            config.slots(), c.now)) {
                        foundRank = r;
                        found = k;
                        break;
                    }
                    refused = true;
                    refusedKernel = work.kernel(t);
                    refusedBytes = bytes;
                }
                if (found >= 0) {
                    break;
                }
            }
            if (found < 0) {
                // Refused by the gate, not for lack of tasks of the rank asked for.
                if (count == 0 && refused) {
                    c.gateRefusals++;
                }
                break;
            }
            out[count++] = v.pending.removeAt(foundRank, found);
            rank = foundRank;
            from = found;
            v.victim.gave(c.now);
        }
        return count == n ? out : Arrays.copyOf(out, count);
    }

    /**
     * Sends {@code thief} the tasks {@code items} of {@code v} ({@link #sendWork}) and records them as given to
     * it: where each went and when, what the thief holds of {@code v}'s (with a thief cap), {@code v}'s count.
     *
     * @return the reply, for the caller to mark as answering a request or as pushed
     */
    private SimEvent give(SimMember v, SimMember thief, int[] items) {
        SimEvent r = sendWork(v, thief, items);
        for (int t : items) {
            c.givenTo[t] = thief.index;
            c.sentAt[t] = c.now;
            if (c.ownerExpected != null) {
                c.ownerExpected[t] = v.learning.expectedOwn(c.shape(t));
            }
        }
        if (c.capping) {
            v.heldBy.merge(thief.index, items.length, Integer::sum);
        }
        v.given += items.length;
        return r;
    }

    /**
     * Sends {@code thief} a reply with {@code items} and each array they read once: as a reference where
     * {@code v}'s {@link SentInputs} says the thief holds it, else with its bytes (then recorded as sent).
     */
    private SimEvent sendWork(SimMember v, SimMember thief, int[] items) {
        int stamp = ++c.replies;
        int[] sent = new int[4];
        int[] referenced = new int[4];
        int sentCount = 0;
        int referencedCount = 0;
        long bytes = SimCluster.HEADER_BYTES + SimCluster.ITEM_BYTES * items.length;
        for (int t : items) {
            for (int i = 0; i < work.inputCount(t); i++) {
                int a = work.input(t, i);
                if (c.packedIn[a] == stamp) {
                    continue;
                }
                c.packedIn[a] = stamp;
                long size = work.arrayBytes(a);
                if (c.caching && v.sentInputs.holds(thief.id, a, Boolean.TRUE)) {
                    bytes += SimCluster.REFERENCE_BYTES;
                    c.inputBytesSaved += size;
                    if (referencedCount == referenced.length) {
                        referenced = Arrays.copyOf(referenced, 2 * referencedCount);
                    }
                    referenced[referencedCount++] = a;
                } else {
                    bytes += size;
                    c.inputBytesSent += size;
                    if (c.caching) {
                        v.sentInputs.sent(thief.id, a, Boolean.TRUE, size);
                    }
                    if (sentCount == sent.length) {
                        sent = Arrays.copyOf(sent, 2 * sentCount);
                    }
                    sent[sentCount++] = a;
                }
            }
        }
        SimEvent r = c.send(v, thief, SimEvent.REPLY, bytes);
        r.items = items;
        r.arraysSent = Arrays.copyOf(sent, sentCount);
        r.arraysReferenced = Arrays.copyOf(referenced, referencedCount);
        return r;
    }

    /**
     * With wake-ups: {@code m} sends the starving thieves it turned away, that {@link Victim#toWake} picks now,
     * the tasks it can give each (pushed), or a load report where its gate keeps them home, as {@code ClusterNode}
     * does.
     */
    void wake(SimMember m) {
        if (!m.victim.anyTurnedAway() || !m.alive || m.leaving) {
            return;
        }
        List<String> woken = m.victim.toWake(m.load());
        if (woken.isEmpty()) {
            return;
        }
        int surplus = m.victim.surplus(m.load());
        int top = topStealableRank(m);
        boolean gave = false;
        for (String id : woken) {
            SimMember thief = c.byId.get(id);
            if (thief == null || !thief.alive || thief.leaving) {
                continue;
            }
            // The answer its request did not get then: work, as a reply would have carried it.
            int[] items = config.stealing() ? take(m, thief, m.victim.wakeUpAsk(id), m.load()) : SimCluster.NONE;
            if (items.length > 0) {
                give(m, thief, items).pushed = true;
                c.wakePushes++;
                gave = true;
            } else {
                SimEvent e = c.send(m, thief, SimEvent.LOAD, SimCluster.HEADER_BYTES);
                e.wanted = surplus;
                e.minRank = top;
            }
            c.wakeUps++;
        }
        if (gave) {
            report(m);
        }
    }

    /**
     * With directories: {@code m} reports its surplus to its directory when {@link LoadDirectory#reportDue}
     * says so; no surplus while its queued replies would take longer than {@link LoadDirectory#backlogLimitNanos}
     * to leave.
     */
    void report(SimMember m) {
        if (config.directories() == 0 || !m.alive || !config.stealing()) {
            return;
        }
        int surplus = m.linkFreeAt - c.now > LoadDirectory.backlogLimitNanos(config.settings()) || m.leaving ? 0
                : m.victim.surplus(m.load());
        int top = surplus > 0 ? topStealableRank(m) : 0;
        if (!LoadDirectory.reportDue(m.reported, m.reportedTop, surplus, top)) {
            return;
        }
        m.reported = surplus;
        m.reportedTop = top;
        String directory = LoadDirectory.directoryFor(m.id, c.candidates, config.directories());
        if (directory == null || directory.equals(m.id)) {
            return;
        }
        SimEvent e = c.send(m, c.byId.get(directory), SimEvent.LOAD, SimCluster.HEADER_BYTES);
        e.wanted = surplus; // a load report carries the surplus in the request's count field
        e.minRank = top; // and its highest stealable rank in the rank field
        c.loadReports++;
    }

    /** The highest rank among {@code m}'s stealable tasks (its own, not pinned); 0 if none or without ranks. */
    private int topStealableRank(SimMember m) {
        if (c.ranks == null) {
            return 0;
        }
        for (int r = m.pending.highestBucket(); r >= 1; r--) {
            IntRing bucket = m.pending.bucket(r);
            for (int k = 0; bucket != null && k < bucket.size(); k++) {
                int t = bucket.get(k);
                if (work.owner(t) == m.index && !c.pinned[t]) {
                    return r;
                }
            }
        }
        return 0;
    }

    /**
     * While a result completes at its owner {@code v} with pushed continuations on: sends {@code child}, which
     * the result made ready there, straight to the thief that returned the result if
     * {@link Victim#pushContinuation} and the gate let it (at most one per result).
     *
     * @return whether it was sent
     */
    boolean pushContinuation(SimMember v, int child) {
        SimMember thief = pushTo;
        if (thief == null) {
            return false;
        }
        int ready = v.ready() + 1;
        if (!v.victim.pushContinuation(pushHolds, ready, v.stealable() + 1, v.inFlight)
                || !v.victim.mayMove(0, work.kernelName(work.kernel(child)), work.inputBytes(child), ready,
                        v.inFlight, config.slots(), c.now)) {
            return false;
        }
        pushTo = null;
        give(v, thief, new int[] {child}).pushed = true;
        v.victim.gave(c.now);
        c.pushes++;
        return true;
    }

    // ---- results and hand-backs -------------------------------------------------------------------------------

    /** A stolen task's result reaches its owner. */
    void onResult(SimMember owner, SimEvent e) {
        c.received(owner, e);
        int t = e.task;
        if (c.givenTo[t] != e.from) {
            // Run again here meanwhile (the thief was declared lost): a late duplicate.
            return;
        }
        back(owner, t);
        long run = e.runNanos;
        // What the thief's result reports: its queue and run time; the rest of the round trip is transfer.
        long queued = c.startedAt[t] - c.arrivedAt[t];
        long transfer = c.now - c.sentAt[t] - queued - run;
        owner.costs.observe(work.kernelName(work.kernel(t)), run);
        if (owner.learning != null && owner.learning.observeShape(c.member(e.from).id, c.shape(t), run)) {
            c.device.followSpeed(owner);
        }
        if (transfer > 0) {
            owner.bandwidth.observe(work.inputBytes(t) + work.outputBytes(t), transfer);
        }
        SimMember thief = c.member(e.from);
        pushTo = config.stealing() && config.settings().pushContinuations() && thief.alive && !thief.leaving
                && !owner.leaving ? thief : null;
        pushHolds = e.thiefHolds;
        c.device.complete(t);
        pushTo = null;
    }

    /** Tasks come back to {@code owner} unstarted: stealable again, first in line. */
    void onHandback(SimMember owner, SimEvent e) {
        c.received(owner, e);
        for (int t : e.items) {
            takeBack(owner, t, false);
        }
        if (e.missingInput) {
            // The thief evicted something this owner believed it held: send it bytes again.
            owner.sentInputs.forget(c.member(e.from).id);
        }
        c.device.dispatch(owner);
    }

    /** Task {@code t} of {@code owner} is no longer held by the thief it was given to. */
    private void back(SimMember owner, int t) {
        if (c.capping) {
            owner.heldBy.computeIfPresent(c.givenTo[t], (thief, held) -> held > 1 ? held - 1 : null);
        }
        c.givenTo[t] = -1;
    }

    /**
     * A task of {@code owner} comes back, first in line: pinned there when its thief was lost ({@code pin}), or
     * stealable again when it came back in a stale reply, as {@code ClusterNode} does.
     */
    void takeBack(SimMember owner, int t, boolean pin) {
        if (c.givenTo[t] < 0) {
            return;
        }
        back(owner, t);
        c.pinned[t] |= pin;
        owner.pending.addFirst(t);
        if (c.pinned[t]) {
            owner.notStealable++;
        }
    }
}
