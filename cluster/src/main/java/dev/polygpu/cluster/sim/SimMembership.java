package dev.polygpu.cluster.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Who is in the simulated cluster: members join ({@link MembershipEvent.Kind#EXPAND}), leave gracefully once
 * they hold nothing ({@link MembershipEvent.Kind#SHRINK}) or crash ({@link MembershipEvent.Kind#CRASH}, noticed
 * after the failure timeout, when their owners run the lost tasks again); every member sees a change at once, as
 * the real members see Hazelcast's membership events.
 */
final class SimMembership {
    private final SimCluster c;
    private final SimConfig config;
    private final RandomGenerator random;

    SimMembership(SimCluster c) {
        this.c = c;
        this.config = c.config;
        this.random = Simulator.seeded(config.seed() ^ 0x5DEECE66DL);
    }

    SimMember addMember(boolean program) {
        SimMember m = new SimMember(c.members.size(), program, c.now, config, c.ranks, c.levels);
        c.members.add(m);
        c.byId.put(m.id, m);
        return m;
    }

    /** The members a thief may ask: live programs that are not leaving (as the real node's programs()). */
    void refreshCandidates() {
        List<String> out = new ArrayList<>();
        for (SimMember m : c.members) {
            if (m.alive && m.program && !m.leaving) {
                out.add(m.id);
            }
        }
        c.candidates = out;
    }

    void onMembership(MembershipEvent ev) {
        switch (ev.kind()) {
            case EXPAND -> {
                List<SimMember> joined = new ArrayList<>();
                for (int i = 0; i < ev.count(); i++) {
                    joined.add(addMember(false));
                }
                membersChanged(null);
                for (SimMember m : joined) {
                    c.thieves.check(m);
                }
            }
            case SHRINK, CRASH -> {
                List<SimMember> workers = new ArrayList<>();
                for (SimMember m : c.members) {
                    if (m.alive && !m.program && !m.leaving) {
                        workers.add(m);
                    }
                }
                int n = Math.min(ev.count(), workers.size());
                if (n < ev.count()) {
                    c.notes.add(ev + ": only " + workers.size() + " workers (members without tasks of their own) "
                            + "were there to go; programs never leave");
                }
                for (int i = 0; i < n; i++) {
                    SimMember m = workers.remove(random.nextInt(workers.size()));
                    if (ev.kind() == MembershipEvent.Kind.SHRINK) {
                        m.leaving = true;
                        maybeDepart(m);
                    } else {
                        crash(m);
                    }
                }
            }
            default -> throw new IllegalStateException("unknown membership event " + ev);
        }
    }

    /** A leaving member departs once it holds nothing and waits for no reply. */
    void maybeDepart(SimMember m) {
        if (!m.alive || !m.pending.isEmpty() || m.inFlight > 0 || m.thief.outstanding()) {
            return;
        }
        m.alive = false;
        m.leftAt = c.now;
        membersChanged(m);
    }

    private void crash(SimMember m) {
        m.alive = false;
        m.leftAt = c.now;
        m.pending.clear();
        m.device.clear();
        m.notStealable = 0;
        m.foreignHeld = 0;
        m.inFlight = 0;
        m.windowCount = 0;
        m.busy = 0;
        // The others notice after the failure timeout.
        c.schedule(c.now + config.failAfterNanos(), SimEvent.LOST, m.index);
    }

    /** The others notice that {@code gone} crashed: its owners run its tasks again, thieves forget it. */
    void onLost(SimMember gone) {
        for (int t = 0; t < c.givenTo.length; t++) {
            if (c.givenTo[t] == gone.index) {
                c.reruns++;
                c.victims.takeBack(c.owner(t), t, true);
            }
        }
        membersChanged(gone);
        for (SimMember m : c.members) {
            c.device.dispatch(m);
        }
    }

    /** Every member sees a join or departure ({@code gone}: the member that left, or null). */
    private void membersChanged(SimMember gone) {
        refreshCandidates();
        for (SimMember m : c.members) {
            if (m.alive) {
                if (gone != null && m.thief.forget(gone.id)) {
                    m.emptyReplies++;
                }
                if (gone != null) {
                    // As the node does: a thief that left is not woken, nor takes the place of one that may be.
                    m.victim.forget(gone.id);
                }
                if (gone != null && c.caching) {
                    m.sentInputs.forget(gone.id);
                    m.inputs.forgetOwner(gone.id);
                }
                if (config.directories() > 0) {
                    // The directories may have changed: report again to this member's directory.
                    if (gone != null) {
                        m.directory.forget(gone.id);
                    }
                    m.reported = 0;
                    c.victims.report(m);
                }
                m.thief.resetBackOff();
                c.thieves.check(m);
            }
        }
    }
}
