package dev.polygpu.cluster.sim;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a simulated run gave, read from its state at the end: the {@link SimResult} (makespan against the lower
 * bound, what stealing cost, per-member spreads) with its notes, or, when a run cannot finish, the state that
 * shows why.
 */
final class SimReport {
    private final SimCluster c;
    private final Workload work;
    private final SimConfig config;

    SimReport(SimCluster c) {
        this.c = c;
        this.work = c.work;
        this.config = c.config;
    }

    /** Why a run stalled: the tasks not done, and the members that hold work (at least eight members shown). */
    String stall() {
        StringBuilder b = new StringBuilder("the simulation of " + work.name() + " stalled at " + Units.nanos(c.now)
                + " with " + (work.tasks() - c.done) + " of " + work.tasks() + " tasks not done and nothing left "
                + "to happen. Members:");
        int shown = 0;
        for (SimMember m : c.members) {
            if (m.ready() + m.inFlight > 0 || shown < 8) {
                b.append("\n  ").append(m.id).append(m.alive ? "" : " (gone)").append(": ready ").append(m.ready())
                        .append(", on streams ").append(m.inFlight).append(", ").append(m.thief);
                shown++;
            }
        }
        return b.toString();
    }

    /** The run's result, the simulation having taken {@code wallNanos}. */
    SimResult result(long wallNanos) {
        int n = c.members.size();
        long[] messages = new long[n];
        long[] bytes = new long[n];
        long[] hostCpu = new long[n];
        double idleSum = 0;
        double capacity = 0;
        long stolen = 0;
        long requests = 0;
        long empty = 0;
        long forwards = 0;
        for (int i = 0; i < n; i++) {
            SimMember m = c.members.get(i);
            messages[i] = m.messagesSent + m.messagesReceived;
            bytes[i] = m.bytesSent + m.bytesReceived;
            hostCpu[i] = m.hostCpuNanos;
            long end = m.leftAt >= 0 ? Math.min(m.leftAt, c.makespan) : c.makespan;
            double span = Math.max(0, end - Math.min(m.joinedAt, end)) * (double) config.slots();
            capacity += span;
            idleSum += Math.max(0, span - m.busyNanos);
            stolen += m.stolen;
            requests += m.requests;
            empty += m.emptyReplies;
            forwards += m.forwards;
        }
        long lower = lowerBound();
        addNotes();
        return new SimResult(work.name(), work.tasks(), config.members(), n, config.slots(), c.makespan, lower,
                work.totalWorkNanos(), work.criticalPathNanos(), stolen, requests, c.rankRequests, empty, forwards,
                c.timeouts, c.staleReplies, c.reruns, c.lostMessages, c.gateRefusals, c.inputBytesSent,
                c.inputBytesSaved, c.cacheMisses, c.missingInputHandBacks, SimResult.Spread.of(messages),
                SimResult.Spread.of(bytes), SimResult.Spread.of(hostCpu), c.kernelDelayNanos,
                capacity == 0 ? 0 : idleSum / capacity, c.latency.count() == 0 ? -1 : c.latency.median(),
                c.latency.count() == 0 ? -1 : c.latency.percentile(99), c.events, wallNanos, List.copyOf(c.notes));
    }

    /** The notes of the policies and speeds the run had. */
    private void addNotes() {
        if (!config.speeds().uniform()) {
            speedNotes();
        }
        if (config.speeds().learnedLimits()) {
            learntNotes();
        }
        if (config.directories() > 0) {
            c.notes.add(String.format(Locale.ROOT, "%d directories: %,d load reports, %,d requests forwarded "
                    + "by a directory", config.directories(), c.loadReports, c.directoryForwards));
        }
        if (config.settings().wakeThieves()) {
            c.notes.add(String.format(Locale.ROOT, "%,d thieves woken by the programs that had sent them "
                    + "away, %,d of them with work", c.wakeUps, c.wakePushes));
        }
        if (config.settings().pushContinuations()) {
            c.notes.add(String.format(Locale.ROOT, "%,d continuations pushed to their thieves", c.pushes));
        }
    }

    /**
     * With members of several speeds, a note per speed: how busy its members were, when their last task ended
     * and how much of what they ran was stolen, so that a run's losses can be put on slow or fast members.
     */
    private void speedNotes() {
        Map<Double, long[]> bySpeed = new TreeMap<>();
        for (SimMember m : c.members) {
            long[] a = bySpeed.computeIfAbsent(m.speed, k -> new long[5]);
            a[0]++;
            a[1] += m.busyNanos;
            a[2] = Math.max(a[2], m.lastEndAt);
            a[3] += m.tasksRun;
            a[4] += m.foreignRun;
        }
        long makespan = c.makespan;
        bySpeed.forEach((speed, a) -> c.notes.add(String.format(Locale.ROOT, "%,d members of speed %s: "
                        + "busy %.1f%% of the makespan, last task ended at %s, ran %,d tasks (%.1f%% stolen)", a[0],
                Specs.number(speed), makespan <= 0 ? 0 : 100.0 * a[1] / ((double) a[0] * config.slots() * makespan),
                Units.nanos(a[2]), a[3], a[3] == 0 ? 0 : 100.0 * a[4] / a[3])));
    }

    /**
     * With learned limits, a note per speed: the relative speed its members learnt by the end, against the one
     * they have, so that a run shows whether the estimate was right.
     */
    private void learntNotes() {
        // Per speed: members, sum of what they learnt, the least and the most, one member's index.
        Map<Double, double[]> learnt = new TreeMap<>();
        for (SimMember m : c.members) {
            double r = m.learning.relative();
            double[] a = learnt.computeIfAbsent(m.speed, k -> new double[] {0, 0, Double.MAX_VALUE, 0, m.index});
            a[0]++;
            a[1] += r;
            a[2] = Math.min(a[2], r);
            a[3] = Math.max(a[3], r);
        }
        learnt.forEach((speed, a) -> c.notes.add(String.format(Locale.ROOT, "%,d members of speed %s "
                + "(%.2f of the fastest) learnt %.2f on average (%.2f to %.2f)", (long) a[0], Specs.number(speed),
                config.speeds().relative((int) a[4]), a[1] / a[0], a[2], a[3])));
    }

    /**
     * The lower bound of the makespan: the critical path run on the fastest member, or the time by which the
     * members present could have done all the work if none were ever idle (capacity, in slots times speed,
     * summed over the joins and departures as they happened: a member that leaves gracefully keeps its slots
     * until it has finished what it held, so the time of its {@code SHRINK} event would not give a bound),
     * whichever is longer.
     */
    private long lowerBound() {
        // Capacity changes: + a member's slots x speed at its join (0 for those there from the start), - at its
        // departure.
        double[][] changes = new double[2 * c.members.size()][];
        int n = 0;
        double fastest = 0;
        for (SimMember m : c.members) {
            double rate = (double) config.slots() * m.speed;
            fastest = Math.max(fastest, m.speed);
            changes[n++] = new double[] {m.joinedAt, rate};
            if (m.leftAt >= 0) {
                changes[n++] = new double[] {m.leftAt, -rate};
            }
        }
        Arrays.sort(changes, 0, n, (x, y) -> Double.compare(x[0], y[0]));
        double t = 0;
        double rateNow = 0;
        double remaining = work.totalWorkNanos();
        for (int i = 0; i < n; i++) {
            double canDo = rateNow * (changes[i][0] - t);
            if (rateNow > 0 && canDo >= remaining) {
                break;
            }
            remaining -= canDo;
            t = changes[i][0];
            rateNow += changes[i][1];
        }
        long bound = (long) t + (long) Math.ceil(remaining / rateNow);
        return Math.max(bound, (long) Math.ceil(work.criticalPathNanos() / fastest));
    }
}
