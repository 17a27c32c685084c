package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.SpeedEstimate;
import dev.polygpu.runtime.PriorityLevels;

/**
 * The simulated members' schedulers and devices: ready tasks go on the streams while the window has room, the
 * device runs {@code slots} of them at once, highest stream priority level first where there are levels, and a
 * task that ends completes at its owner or sends its result home. With learned limits a member's threshold and
 * window follow the speed it learns from its run times.
 */
final class SimDevice {
    private final SimCluster c;
    private final Workload work;
    private final SimConfig config;

    SimDevice(SimCluster c) {
        this.c = c;
        this.work = c.work;
        this.config = c.config;
    }

    /**
     * Moves ready tasks onto the streams while the window has room, and starts what the device can run. With
     * stream priorities, each gets its level as the scheduler gives it: from its rank and the lowest rank on
     * the streams ({@link PriorityLevels#level}).
     */
    void dispatch(SimMember m) {
        while (m.alive && !m.pending.isEmpty()
                && (m.inFlight < m.windowLimit || m.inFlight < m.windowLimit + config.stolenOverflow())) {
            int t = m.pending.pollFirst();
            if (m.inFlight >= m.windowLimit && !overflows(m, t)) {
                m.pending.addFirst(t);
                break;
            }
            if (work.owner(t) != m.index || c.pinned[t]) {
                m.notStealable--;
            }
            if (c.levels != null) {
                c.levels[t] = PriorityLevels.level(c.ranks[t], lowestRankOnStreams(m), config.priorityLevels());
            }
            if (m.inFlight >= m.windowLimit) {
                c.overflowed++;
            }
            m.inFlight++;
            c.maxInFlight = Math.max(c.maxInFlight, m.inFlight);
            m.window[m.windowCount++] = t;
            if (m.busy < config.slots()) {
                start(m, t);
            } else {
                m.device.addLast(t);
            }
        }
        c.victims.report(m);
        c.victims.wake(m);
    }

    /** The lowest rank among the tasks on {@code m}'s streams; 0 if none. */
    private int lowestRankOnStreams(SimMember m) {
        int lowest = 0;
        for (int i = 0; i < m.windowCount; i++) {
            int r = c.ranks[m.window[i]];
            if (lowest == 0 || r < lowest) {
                lowest = r;
            }
        }
        return lowest;
    }

    /**
     * Whether task {@code t}, first in line at {@code m} whose window is full, may go on the streams beyond it
     * ({@link SimConfig#stolenOverflow()}): it was stolen from another member and its priority level against
     * the lowest rank on the streams would be above 0.
     */
    private boolean overflows(SimMember m, int t) {
        if (c.levels == null || work.owner(t) == m.index) {
            return false;
        }
        return PriorityLevels.level(c.ranks[t], lowestRankOnStreams(m), config.priorityLevels()) > 0;
    }

    private void start(SimMember m, int t) {
        m.running[m.busy++] = t;
        c.startedAt[t] = c.now;
        long end = c.now + (m.speed == 1 ? work.durationNanos(t) : Math.round(work.durationNanos(t) / m.speed));
        if (c.endAt != null) {
            c.endAt[t] = end;
        }
        SimEvent e = c.schedule(end, SimEvent.END, m.index);
        e.task = t;
    }

    /** Task {@code t}'s kernel ended on {@code m}: the next one starts, and {@code t} completes or goes home. */
    void onEnd(SimMember m, int t) {
        if (!m.alive) {
            return;
        }
        for (int i = 0; i < m.busy; i++) {
            if (m.running[i] == t) {
                m.running[i] = m.running[m.busy - 1];
                break;
            }
        }
        m.busy--;
        m.inFlight--;
        for (int i = 0; i < m.windowCount; i++) {
            if (m.window[i] == t) {
                m.window[i] = m.window[--m.windowCount];
                break;
            }
        }
        m.tasksRun++;
        m.lastEndAt = c.now;
        if (work.owner(t) != m.index) {
            m.foreignRun++;
        }
        long ran = c.now - c.startedAt[t];
        m.busyNanos += ran;
        m.costs.observe(work.kernelName(work.kernel(t)), ran);
        if (m.learning != null) {
            m.learning.recordOwn(c.shape(t), ran);
            if (work.owner(t) != m.index && m.learning.observe(c.owner(t).id, ran, c.ownerExpected[t])) {
                followSpeed(m);
            }
        }
        if (!m.device.isEmpty()) {
            start(m, m.device.pollFirst());
        }
        if (work.owner(t) == m.index) {
            complete(t);
        } else {
            m.foreignHeld--;
            SimEvent r = c.send(m, c.owner(t), SimEvent.RESULT, SimCluster.HEADER_BYTES + work.outputBytes(t));
            r.task = t;
            r.runNanos = ran;
            r.thiefHolds = m.foreignHeld;
        }
        dispatch(m);
        c.thieves.check(m);
    }

    /**
     * With learned limits, after {@code m} learnt something of its speed: its threshold (thief, victim, surplus
     * it reports) and window follow its relative speed ({@link SpeedEstimate#threshold},
     * {@link SpeedEstimate#window}). Elements already on its streams stay there.
     */
    void followSpeed(SimMember m) {
        double relative = m.learning.relative();
        int threshold = SpeedEstimate.threshold(config.settings().threshold(), relative);
        if (threshold != m.settings.threshold()) {
            m.settings = m.settings.withThreshold(threshold);
            m.thief.setThreshold(threshold);
            m.victim.setThreshold(threshold);
        }
        m.windowLimit = SpeedEstimate.window(config.window(), config.slots(), relative);
    }

    /** Task {@code t} is done at its owner: its children may become ready there. */
    void complete(int t) {
        if (c.completed.get(t)) {
            throw new IllegalStateException("task " + t + " completed twice, the second time at "
                    + Units.nanos(c.now) + ": the simulator lost track of where it was");
        }
        c.completed.set(t);
        c.done++;
        c.makespan = c.now;
        SimMember owner = c.owner(t);
        for (int i = 0; i < work.childCount(t); i++) {
            int child = work.child(t, i);
            if (--c.remainingParents[child] == 0) {
                if (work.owner(child) == owner.index && c.victims.pushContinuation(owner, child)) {
                    continue;
                }
                c.owner(child).pending.addLast(child);
                if (work.owner(child) != work.owner(t)) {
                    dispatch(c.owner(child));
                }
            }
        }
        dispatch(owner);
    }

    /** Task {@code t} is ready at its owner now, as if its parents had completed (a scripted run's release). */
    void release(int t) {
        c.remainingParents[t] = 0;
        SimMember owner = c.owner(t);
        owner.pending.addLast(t);
        dispatch(owner);
    }
}
