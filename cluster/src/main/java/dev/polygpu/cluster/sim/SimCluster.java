package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.LatencyHistogram;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.ThiefCap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * The shared state of one simulated run: the clock and the event queue, the members, where each task is, the
 * run's counters, and the messages between members (the network and the host CPU they cost). The parts of the
 * simulator ({@link SimDevice}, {@link SimThief}, {@link SimVictim}, {@link SimMembership}) act on it and reach
 * each other through it; {@link SimReport} reads it at the end. Not thread-safe: one run, one thread.
 */
final class SimCluster {
    /** Bytes of a message's header (ids, counts, the HMAC); requests and empty replies are this size. */
    static final long HEADER_BYTES = 96;
    /** Bytes each stolen task adds to a reply besides its arrays (its message, kernel reference). */
    static final long ITEM_BYTES = 160;
    /** Bytes of an array sent as a reference to the thief's cache: its id and its 16-byte fingerprint. */
    static final long REFERENCE_BYTES = 24;
    static final int[] NONE = new int[0];

    final Workload work;
    final SimConfig config;
    final PriorityQueue<SimEvent> queue = new PriorityQueue<>((a, b) -> a.time != b.time
            ? Long.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    final List<SimMember> members = new ArrayList<>();
    final Map<String, SimMember> byId = new HashMap<>();
    final LatencyHistogram latency = new LatencyHistogram();
    final int[] remainingParents;
    /** Each task's bottom level (tasks on the longest path from it to the end, itself included), or null. */
    final int[] ranks;
    /**
     * With {@link SimConfig.Order#RANK_AND_PRIORITIES}: each task's stream priority level, set when it is put on
     * the streams; else null.
     */
    final int[] levels;
    /** The member each task was given to (-1: none), and whether it must run at its owner. */
    final int[] givenTo;
    final boolean[] pinned;
    final long[] sentAt;
    final long[] arrivedAt;
    final long[] startedAt;
    /** With learned limits: the time each task's owner expected it to take when it gave it (-1: unknown). */
    final long[] ownerExpected;
    final BitSet completed;
    /** Per array, the last reply that packed it: a reply carries each array once. */
    final int[] packedIn;
    final boolean caching;
    /** Whether victims cap what one thief holds ({@link StealSettings#thiefCap()} not off). */
    final boolean capping;
    /** With host CPU charged ({@link SimConfig#hostCpu()}): each task's end as now scheduled; else null. */
    final long[] endAt;
    /** Members that sent messages while handling the current event, to be charged at its end. */
    private final List<SimMember> senders = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    /** The members a thief may ask: live programs that are not leaving ({@link SimMembership#refreshCandidates}). */
    List<String> candidates = List.of();
    /** In a scripted run: told of every message a member sends; else null. */
    Consumer<SimEvent> sendListener;

    SimDevice device;
    SimThief thieves;
    SimVictim victims;
    SimMembership membership;

    private long seq;
    long now;
    long events;
    int done;
    long makespan = -1;
    int replies;
    // counters
    long kernelDelayNanos;
    long reruns;
    long staleReplies;
    long gateRefusals;
    long rankRequests;
    long loadReports;
    /** Thieves woken by the owners that had sent them away ({@link StealSettings#wakeThieves()}). */
    long wakeUps;
    /** Of those, the ones woken with work rather than a load report. */
    long wakePushes;
    long directoryForwards;
    long timeouts;
    long lostMessages;
    long inputBytesSent;
    long inputBytesSaved;
    long cacheMisses;
    long missingInputHandBacks;
    /** Continuations pushed ({@link StealSettings#pushContinuations()}). */
    long pushes;
    /** Tasks put on the streams beyond a full window ({@link SimConfig#stolenOverflow()}), and the most in flight. */
    long overflowed;
    int maxInFlight;

    SimCluster(Workload work, SimConfig config) {
        this.work = work;
        this.config = config;
        int n = work.tasks();
        this.remainingParents = new int[n];
        this.ranks = config.order() == SimConfig.Order.SUBMISSION ? null : Simulator.bottomLevels(work);
        this.levels = config.order() == SimConfig.Order.RANK_AND_PRIORITIES ? new int[n] : null;
        this.givenTo = new int[n];
        this.pinned = new boolean[n];
        this.sentAt = new long[n];
        this.arrivedAt = new long[n];
        this.startedAt = new long[n];
        this.ownerExpected = config.speeds().learnedLimits() ? new long[n] : null;
        this.completed = new BitSet(n);
        this.packedIn = new int[work.arrays()];
        this.caching = config.inputCacheBytes() > 0;
        this.capping = config.settings().thiefCap() != ThiefCap.OFF;
        this.endAt = config.hostCpu().on() ? new long[n] : null;
        Arrays.fill(givenTo, -1);
    }

    SimMember member(int index) {
        return members.get(index);
    }

    /** The member that owns task {@code t}. */
    SimMember owner(int t) {
        return members.get(work.owner(t));
    }

    SimEvent schedule(long time, int kind, int member) {
        SimEvent e = new SimEvent(time, seq++, kind, member);
        queue.add(e);
        return e;
    }

    /** An event handled at once rather than queued (the empty reply a member gives its own forwarded request). */
    SimEvent immediate(int kind, int member) {
        return new SimEvent(now, seq++, kind, member);
    }

    /**
     * The shape of task {@code t} for learning speeds: its kernel and the bytes it reads and writes. Run times of
     * one kernel differ by its arrays' sizes; tasks of one shape are the ones whose times two members compare.
     */
    String shape(int t) {
        return work.kernelName(work.kernel(t)) + '/' + work.inputBytes(t) + '/' + work.outputBytes(t);
    }

    // ---- messages ---------------------------------------------------------------------------------------------

    /** Sends a message: it leaves when the sender's link is free and arrives after the wire time and latency. */
    SimEvent send(SimMember from, SimMember to, int kind, long bytes) {
        Network net = config.network();
        long wire = net.wireNanos(from.index, to.index, bytes);
        long depart = Math.max(now, from.linkFreeAt);
        from.linkFreeAt = depart + wire;
        from.messagesSent++;
        from.bytesSent += bytes;
        if (endAt != null) {
            if (from.sendCpuPending == 0) {
                senders.add(from);
            }
            from.sendCpuPending += config.hostCpu().nanos(bytes);
        }
        SimEvent e = schedule(depart + wire + net.latencyNanos(from.index, to.index), kind, to.index);
        e.from = from.index;
        e.bytes = bytes;
        if (sendListener != null) {
            // Its fields are filled in after this returns: the listener reads them once the event is handled.
            sendListener.accept(e);
        }
        return e;
    }

    void received(SimMember m, SimEvent e) {
        m.messagesReceived++;
        m.bytesReceived += e.bytes;
        if (endAt != null && e.from != m.index) {
            // Not the empty reply a member gives itself for its own forwarded request: that is no message.
            spendHostCpu(m, config.hostCpu().nanos(e.bytes));
        }
    }

    /** Charges the members that sent messages while the last event was handled. */
    void chargeSenders() {
        for (SimMember m : senders) {
            long cpu = m.sendCpuPending;
            m.sendCpuPending = 0;
            if (m.alive) {
                spendHostCpu(m, cpu);
            }
        }
        senders.clear();
    }

    /**
     * {@code m} spends {@code cpu} of host CPU on messages now: if every slot runs a kernel, the kernels share
     * their cores with it, and each ends {@code cpu / slots} later ({@link HostCpu}); with a slot free, the work
     * runs on its core.
     */
    private void spendHostCpu(SimMember m, long cpu) {
        m.hostCpuNanos += cpu;
        if (m.busy < config.slots()) {
            return;
        }
        long each = cpu / m.busy;
        if (each == 0) {
            return;
        }
        for (int i = 0; i < m.busy; i++) {
            int t = m.running[i];
            endAt[t] += each;
            SimEvent e = schedule(endAt[t], SimEvent.END, m.index);
            e.task = t;
        }
        kernelDelayNanos += each * m.busy;
    }

    /** A message to a member that is gone: dropped, as the network would. */
    void lost(SimEvent e) {
        lostMessages++;
    }
}
