package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.BandwidthEstimator;
import dev.polygpu.cluster.policy.CostGate;
import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.policy.KernelCostModel;
import dev.polygpu.cluster.policy.LatencyHistogram;
import dev.polygpu.cluster.policy.LoadDirectory;
import dev.polygpu.cluster.policy.Priority;
import dev.polygpu.cluster.policy.SentInputs;
import dev.polygpu.cluster.policy.SpeedEstimate;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.Thief;
import dev.polygpu.cluster.policy.ThiefCap;
import dev.polygpu.cluster.policy.TurnedAway;
import dev.polygpu.cluster.policy.Victim;
import dev.polygpu.runtime.PriorityLevels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * A discrete-event simulation of a polygpu cluster running one {@link Workload} with work stealing, in which
 * every member makes its stealing decisions with the real policy classes of {@code dev.polygpu.cluster.policy}
 * ({@link Thief}, {@link Victim} and, through them, starvation, victim choice, forwarding with hops, chunking,
 * the never-starve rule and the cost gate with its learned {@link KernelCostModel} and
 * {@link BandwidthEstimator}), as the real cluster node does. What is simulated is everything around them:
 *
 * <ul>
 *   <li><b>Members and their scheduler.</b> A member's ready tasks wait highest rank (bottom level) first,
 *       then oldest first ({@link SimConfig.Order}); up to {@code window} of them (or its own window, when
 *       {@link Speeds#scaledLimits()}) are on its streams, of which
 *       its device runs {@code slots} at once, each for its duration: with
 *       {@link SimConfig.Order#RANK_AND_PRIORITIES} (as the scheduler does) each task put on the streams gets the
 *       stream priority level {@link PriorityLevels#level} gives its rank against the lowest rank on the
 *       member's streams, and the device starts the highest level first, in the order they were put there
 *       within a level; with {@link SimConfig.Order#RANK} in the order they were put there, with
 *       {@link SimConfig.Order#RANK_AND_STREAMS} highest rank first. A task's children become ready at its owner when it completes there, or when its result
 *       arrives home. The load a member reports is that of the real scheduler: ready (waiting for the window),
 *       stealable (ready, own, not handed back) and running (on streams).
 *   <li><b>The protocol.</b> As in {@code ClusterNode}: a starving thief sends one request at a time; a victim
 *       gives the highest-ranked, then oldest, stealable tasks that pass the gate (of at least the rank asked
 *       for, when a member that is not starving asks by rank), at most what {@link Victim#offer} allows, with the
 *       arrays they read (an array once per reply), or forwards the request, or replies empty; a stale reply's
 *       tasks are handed back, stealable again; results go home with the bytes the task writes; the owner
 *       learns kernel times and bandwidth from them.
 *   <li><b>The input cache</b> (when {@link SimConfig#inputCacheBytes()} is above 0). A thief keeps the arrays
 *       it receives in its {@link InputCache}, and an owner remembers in its {@link SentInputs} what it sent
 *       each thief: an array the thief holds goes as a reference instead of its bytes. A reference the thief
 *       cannot resolve (its cache, shared by all the owners it steals from, evicted the array) sends the
 *       tasks that read it back to their owner, stealable, and the owner forgets what it believed that thief
 *       holds, as {@code ClusterNode} does. Arrays never change here, so one fingerprint serves them all.
 *   <li><b>Load directories</b> (when {@link SimConfig#directories()} is above 0, as in the cluster node):
 *       members report their surplus and its highest rank to their {@link LoadDirectory} member when it
 *       is due, a thief asks a directory after an empty reply to a request of the same kind ({@link Thief}), and
 *       a directory that cannot give work forwards the request to the member with the most surplus of the rank
 *       asked for that it knows.
 *   <li><b>Pushed continuations</b> (when the settings' {@link StealSettings#pushContinuations()} is on, as in
 *       the cluster node): a result carries how many stolen tasks its thief still held; when it
 *       held none, the owner sends the task the result made ready (the next link of a chain) straight to that
 *       thief, unasked, if {@link Victim#pushContinuation} and the gate let it.
 *   <li><b>Wake-ups</b> (when the settings' {@link StealSettings#wakeThieves()} is on, as in the cluster node): a
 *       program remembers the starving thieves it sent away while it had no surplus ({@link TurnedAway}) and,
 *       when it has surplus again, sends each (oldest first, at most as many as its surplus) the tasks it can
 *       give it, as a reply would carry them (pushed), or a load report where its gate keeps them home; a thief
 *       that is backing off ends its back-off, and asks again at once if it still starves, choosing whom as
 *       always ({@link Thief#wake}).
 *   <li><b>The network.</b> {@link Network}: latency and bandwidth per link, one message at a time per
 *       sender.
 *   <li><b>Membership.</b> {@link MembershipEvent}s: workers join, leave gracefully (finish what they hold) or
 *       crash (their owners run the lost tasks again after the failure timeout).
 *   <li><b>Host CPU</b> (when {@link SimConfig#hostCpu()} is {@linkplain HostCpu#on() on}: CPU devices on the
 *       host's cores). Every message costs its sender, when it leaves, and its receiver, when it arrives, the
 *       host CPU {@link HostCpu} gives; a member whose slots all run kernels meanwhile shares its cores with that
 *       work, so each of its running kernels ends that time over its slots later (its end is moved, and the
 *       earlier end event is ignored). A message a member sends while handling an event is charged once the event
 *       has been handled (a result goes out while the kernel that follows runs). A thief's result reports the
 *       time its kernel really ran, as the real node's does.
 * </ul>
 *
 * <p>Time is simulated nanoseconds from 0. A run is deterministic given its configuration and seed. Memory is
 * a few dozen bytes per task plus what the members hold; one run uses one thread. Not thread-safe; one
 * instance runs once.
 */
public final class Simulator {

    /** Bytes of a message's header (ids, counts, the HMAC); requests and empty replies are this size. */
    static final long HEADER_BYTES = 96;
    /** Bytes each stolen task adds to a reply besides its arrays (its message, kernel reference). */
    static final long ITEM_BYTES = 160;
    /** Bytes of an array sent as a reference to the thief's cache: its id and its 16-byte fingerprint. */
    static final long REFERENCE_BYTES = 24;
    /** The fingerprint of every array: a simulated array never changes. */
    private static final Boolean SAME = Boolean.TRUE;

    private static final int END = 0;
    private static final int CHECK = 1;
    private static final int EXPIRE = 2;
    private static final int REQUEST = 3;
    private static final int REPLY = 4;
    private static final int RESULT = 5;
    private static final int HANDBACK = 6;
    private static final int MEMBERSHIP = 7;
    private static final int LOST = 8;
    private static final int LOAD = 9;
    private static final int[] NONE = new int[0];

    /** One pending event; the fields a kind does not use stay 0 or null. */
    private static final class Event {
        final long time;
        final long seq;
        final int kind;
        final int member;
        int from;
        int task;
        int thief;
        int hops;
        int wanted;
        int minRank;
        long requestId;
        long bytes;
        int[] items;
        /** A reply's arrays that came with their bytes, and those that came as references. */
        int[] arraysSent;
        int[] arraysReferenced;
        /** A hand-back's reason: an input missed in the thief's cache (else the reply was stale). */
        boolean missingInput;
        /** A result's run time at the thief, as it reports it. */
        long runNanos;
        /** A result's count of the stolen tasks its thief held when it sent it (for pushed continuations). */
        int thiefHolds;
        /** A reply that answers no request: a continuation its owner pushed. */
        boolean pushed;

        Event(long time, long seq, int kind, int member) {
            this.time = time;
            this.seq = seq;
            this.kind = kind;
            this.member = member;
        }
    }

    /** A member's state. */
    private final class Member {
        final int index;
        final String id;
        final boolean program;
        /** How fast this member's device runs ({@link SimConfig#speeds()}): a task takes its duration / speed. */
        final double speed;
        final Thief thief;
        final Victim victim;
        final KernelCostModel costs = new KernelCostModel(KernelCostModel.DEFAULT_ALPHA);
        final BandwidthEstimator bandwidth = new BandwidthEstimator(BandwidthEstimator.DEFAULT_BYTES_PER_SECOND,
                BandwidthEstimator.DEFAULT_LATENCY_NANOS, BandwidthEstimator.DEFAULT_ALPHA);
        final RandomGenerator rnd;
        /** The arrays received as a thief, and what this member sent each thief as an owner. */
        final InputCache<Boolean, Boolean> inputs = new InputCache<>(config.inputCacheBytes());
        final SentInputs<Boolean> sentInputs = new SentInputs<>(config.inputCacheBytes());
        /** As a directory: the surplus others reported (empty unless this member is one). */
        final LoadDirectory directory = new LoadDirectory();
        /** As an owner: the starving thieves it sent away with nothing, to wake when it has surplus. */
        final TurnedAway turnedAway = new TurnedAway(TurnedAway.DEFAULT_CAPACITY);
        /** The surplus this member last reported to its directory (0: none), and its highest stealable rank. */
        int reported;
        int reportedTop;
        /** Tasks of other owners this member holds, ready or on its streams. */
        int foreignHeld;
        /**
         * As an owner: per thief (its index), how many of this member's tasks it holds (given, not back); kept only
         * with a thief cap ({@link #capping}), the one thing that reads it.
         */
        final Map<Integer, Integer> heldBy = new HashMap<>();
        final RankQueue pending = new RankQueue(ranks);
        /** The tasks on the streams that wait for a slot, in the order the device starts them. */
        final RankQueue device = new RankQueue(switch (config.order()) {
            case RANK_AND_STREAMS -> ranks;
            case RANK_AND_PRIORITIES -> levels;
            default -> null;
        });
        final long joinedAt;
        long leftAt = -1;
        int notStealable;
        final int[] window = new int[config.window() + config.stolenOverflow()];
        int windowCount;
        int inFlight;
        /** The tasks the device runs now: the first {@code busy} entries. */
        final int[] running = new int[config.slots()];
        int busy;
        boolean alive = true;
        boolean leaving;
        long linkFreeAt;
        long checkAt = -1;
        // counters
        long busyNanos;
        long tasksRun;
        /** When this member's last task ended, and how many of the tasks it ran were other members'. */
        long lastEndAt;
        long foreignRun;
        long stolen;
        long given;
        long requests;
        long emptyReplies;
        long forwards;
        long messagesSent;
        long messagesReceived;
        long bytesSent;
        long bytesReceived;
        /** Host CPU spent on messages; and that of the messages sent while handling the current event. */
        long hostCpuNanos;
        long sendCpuPending;

        Member(int index, boolean program, long now) {
            this.index = index;
            this.id = "m" + index;
            this.program = program;
            this.speed = config.speeds().speed(index);
            StealSettings s = config.settings();
            Speeds speeds = config.speeds();
            if (speeds.scaledLimits()) {
                s = s.withThreshold(speeds.threshold(index, s.threshold()));
            }
            this.settings = s;
            this.windowLimit = speeds.window(index, config.window(), config.slots());
            this.learning = speeds.learnedLimits() ? new SpeedEstimate() : null;
            this.thief = new Thief(id, s, config.forgetAfterEmpty(), config.randomEvery(), config.directories());
            this.victim = new Victim(id, new CostGate(s, costs, bandwidth), now);
            this.rnd = seeded(config.seed() * 1_000_003L + index);
            this.joinedAt = now;
        }

        /**
         * The stealing settings and in-flight window of this member (scaled by its speed if so configured; the
         * threshold and window follow the learnt speed with learned limits).
         */
        StealSettings settings;
        int windowLimit;
        /** With learned limits: this member's speed as it learns it (and its own run times by task shape). */
        final SpeedEstimate learning;

        int ready() {
            return pending.size();
        }

        int stealable() {
            return pending.size() - notStealable;
        }
    }

    private final Workload work;
    private final SimConfig config;
    private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) -> a.time != b.time
            ? Long.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    private final List<Member> members = new ArrayList<>();
    private final Map<String, Member> byId = new HashMap<>();
    private final RandomGenerator membershipRandom;
    private final LatencyHistogram latency = new LatencyHistogram();
    private final int[] remainingParents;
    /** Scratch for {@link #floorRank}: the window's ranks and the best ready ones. */
    private final int[] rankBuffer;
    /** Each task's bottom level (tasks on the longest path from it to the end, itself included), or null. */
    private final int[] ranks;
    /**
     * With {@link SimConfig.Order#RANK_AND_PRIORITIES}: each task's stream priority level, set when it is put on
     * the streams; else null.
     */
    private final int[] levels;
    private final int[] givenTo;
    private final boolean[] pinned;
    private final long[] sentAt;
    private final long[] arrivedAt;
    private final long[] startedAt;
    /** With learned limits: the time each task's owner expected it to take when it gave it (-1: unknown). */
    private final long[] ownerExpected;
    private final BitSet completed;
    /** Per array, the last reply that packed it: a reply carries each array once. */
    private final int[] packedIn;
    private final boolean caching;
    /** Whether victims cap what one thief holds ({@link StealSettings#thiefCap()} not off). */
    private final boolean capping;
    /** With host CPU charged ({@link SimConfig#hostCpu()}): each task's end as now scheduled; else null. */
    private final long[] endAt;
    /** Members that sent messages while handling the current event, to be charged at its end. */
    private final List<Member> senders = new ArrayList<>();
    private long kernelDelayNanos;
    private int replies;
    private final List<String> notes = new ArrayList<>();
    private List<String> candidates = List.of();
    private long seq;
    private long now;
    private long events;
    private int done;
    private long makespan = -1;
    private long reruns;
    private long staleReplies;
    private long gateRefusals;
    private long rankRequests;
    private long loadReports;
    /** Thieves woken by the owners that had sent them away ({@link StealSettings#wakeThieves()}). */
    private long wakeUps;
    /** Of those, the ones woken with work rather than a load report. */
    private long wakePushes;
    private long directoryForwards;
    private long timeouts;
    private long lostMessages;
    private long inputBytesSent;
    private long inputBytesSaved;
    private long cacheMisses;
    private long missingInputHandBacks;
    /** Continuations pushed ({@link StealSettings#pushContinuations()}). */
    private long pushes;
    /** While a result completes at its owner, with pushed continuations on: its thief, and what it held. */
    private Member pushTo;
    private int pushHolds;
    /** Tasks put on the streams beyond a full window ({@link SimConfig#stolenOverflow()}), and the most in flight. */
    private long overflowed;
    private int maxInFlight;
    private Consumer<String> progress = s -> { };
    private long progressEvery = Long.MAX_VALUE;
    private boolean ran;

    /**
     * A simulator of {@code work} on the cluster {@code config} describes.
     *
     * @param work the tasks
     * @param config the cluster
     * @throws IllegalArgumentException if the cluster has fewer members than the workload has owners
     */
    public Simulator(Workload work, SimConfig config) {
        if (config.members() < work.owners()) {
            throw new IllegalArgumentException("workload " + work.name() + " has tasks owned by " + work.owners()
                    + " members, but the cluster starts with " + config.members()
                    + "; give at least that many members");
        }
        this.work = work;
        this.config = config;
        this.membershipRandom = seeded(config.seed() ^ 0x5DEECE66DL);
        int n = work.tasks();
        this.remainingParents = new int[n];
        this.rankBuffer = new int[config.window() + config.stolenOverflow() + config.slots()];
        this.ranks = config.order() == SimConfig.Order.SUBMISSION ? null : bottomLevels(work);
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

    /**
     * Reports progress about every {@code everyTasks} completed tasks.
     *
     * @param everyTasks how often; at least 1
     * @param sink where a line goes
     * @return this simulator
     */
    public Simulator progress(long everyTasks, Consumer<String> sink) {
        this.progressEvery = Math.max(1, everyTasks);
        this.progress = sink;
        return this;
    }

    /**
     * Runs the simulation to the completion of every task.
     *
     * @return what happened
     * @throws IllegalStateException if the run cannot finish (no event left while tasks remain: a workload
     *     that no member can run), with the state that shows why; or if called twice
     */
    public SimResult run() {
        if (ran) {
            throw new IllegalStateException("a simulator runs once; create another for another run");
        }
        ran = true;
        long wallStart = System.nanoTime();
        for (int m = 0; m < config.members(); m++) {
            addMember(m < work.owners());
        }
        refreshCandidates();
        for (int i = 0; i < config.events().size(); i++) {
            Event e = schedule(config.events().get(i).atNanos(), MEMBERSHIP, -1);
            e.task = i;
        }
        for (int t = 0; t < work.tasks(); t++) {
            remainingParents[t] = work.parentCount(t);
            if (remainingParents[t] == 0) {
                members.get(work.owner(t)).pending.addLast(t);
            }
        }
        for (Member m : members) {
            dispatch(m);
        }
        for (Member m : members) {
            check(m);
        }
        chargeSenders();
        long nextProgress = progressEvery;
        while (done < work.tasks()) {
            Event e = queue.poll();
            if (e == null) {
                throw new IllegalStateException(stall());
            }
            now = e.time;
            events++;
            handle(e);
            chargeSenders();
            if (done >= nextProgress) {
                progress.accept(String.format(java.util.Locale.ROOT, "  %,d of %,d tasks done, simulated %s",
                        done, work.tasks(), Units.nanos(now)));
                nextProgress = done + progressEvery;
            }
        }
        return result(System.nanoTime() - wallStart);
    }

    /** {@return how many tasks went on the streams beyond a full window (the overflow what-if)} */
    long overflowed() {
        return overflowed;
    }

    /** {@return the most tasks any member had on its streams at once} */
    int maxInFlight() {
        return maxInFlight;
    }

    // ---- events ---------------------------------------------------------------------------------------------

    private Event schedule(long time, int kind, int member) {
        Event e = new Event(time, seq++, kind, member);
        queue.add(e);
        return e;
    }

    private void handle(Event e) {
        Member m = e.member >= 0 ? members.get(e.member) : null;
        switch (e.kind) {
            case END -> {
                // A kernel that host CPU work slowed down ends later: its earlier end is stale.
                if (endAt == null || endAt[e.task] == e.time) {
                    onEnd(m, e.task);
                }
            }
            case CHECK -> {
                if (m.checkAt == e.time) {
                    m.checkAt = -1;
                    check(m);
                }
            }
            case EXPIRE -> {
                if (m.alive && m.thief.expire(now)) {
                    timeouts++;
                    m.emptyReplies++;
                    check(m);
                }
            }
            case REQUEST -> onRequest(m, e);
            case REPLY -> onReply(m, e);
            case RESULT -> onResult(m, e);
            case HANDBACK -> {
                received(m, e);
                for (int t : e.items) {
                    takeBack(m, t, false);
                }
                if (e.missingInput) {
                    // The thief evicted something this owner believed it held: send it bytes again.
                    m.sentInputs.forget(members.get(e.from).id);
                }
                dispatch(m);
            }
            case MEMBERSHIP -> onMembership(config.events().get(e.task));
            case LOST -> onLost(m);
            case LOAD -> {
                if (m.alive) {
                    received(m, e);
                    m.directory.report(members.get(e.from).id, e.wanted, e.minRank);
                    if (e.wanted > 0 && config.settings().wakeThieves() && m.thief.wake(members.get(e.from).id, now)) {
                        check(m);
                    }
                } else {
                    lost(e);
                }
            }
            default -> throw new IllegalStateException("unknown event kind " + e.kind);
        }
        if (m != null && m.leaving) {
            maybeDepart(m);
        }
    }

    private Member addMember(boolean program) {
        Member m = new Member(members.size(), program, now);
        members.add(m);
        byId.put(m.id, m);
        return m;
    }

    /** The members a thief may ask: live programs that are not leaving (as the real node's victims()). */
    private void refreshCandidates() {
        List<String> out = new ArrayList<>();
        for (Member m : members) {
            if (m.alive && m.program && !m.leaving) {
                out.add(m.id);
            }
        }
        candidates = out;
    }

    // ---- the device -------------------------------------------------------------------------------------------

    /**
     * Moves ready tasks onto the streams while the window has room, and starts what the device can run. With
     * stream priorities, each gets its level as the scheduler gives it: from its rank and the lowest rank on
     * the streams ({@link PriorityLevels#level}).
     */
    private void dispatch(Member m) {
        while (m.alive && !m.pending.isEmpty()
                && (m.inFlight < m.windowLimit || m.inFlight < m.windowLimit + config.stolenOverflow())) {
            int t = m.pending.pollFirst();
            if (m.inFlight >= m.windowLimit && !overflows(m, t)) {
                m.pending.addFirst(t);
                break;
            }
            if (work.owner(t) != m.index || pinned[t]) {
                m.notStealable--;
            }
            if (levels != null) {
                int lowest = 0;
                for (int i = 0; i < m.windowCount; i++) {
                    int r = ranks[m.window[i]];
                    if (lowest == 0 || r < lowest) {
                        lowest = r;
                    }
                }
                levels[t] = PriorityLevels.level(ranks[t], lowest, config.priorityLevels());
            }
            if (m.inFlight >= m.windowLimit) {
                overflowed++;
            }
            m.inFlight++;
            maxInFlight = Math.max(maxInFlight, m.inFlight);
            m.window[m.windowCount++] = t;
            if (m.busy < config.slots()) {
                start(m, t);
            } else {
                m.device.addLast(t);
            }
        }
        report(m);
        wake(m);
    }

    /**
     * With wake-ups: {@code m} tells the starving thieves it sent away, oldest first and at most as many as its
     * surplus, that it has surplus again (a load report each), as {@code ClusterNode} does.
     */
    private void wake(Member m) {
        if (m.turnedAway.isEmpty() || !m.alive || m.leaving) {
            return;
        }
        int surplus = LoadDirectory.surplus(m.ready(), m.stealable(), m.inFlight, m.settings);
        if (surplus == 0) {
            return;
        }
        int top = topStealableRank(m);
        boolean gave = false;
        for (String id : m.turnedAway.take(surplus)) {
            Member thief = byId.get(id);
            if (thief == null || !thief.alive || thief.leaving) {
                continue;
            }
            // The answer its request did not get then: work, as a reply would have carried it.
            int[] items = config.stealing() ? take(m, thief, m.settings.threshold(), 0) : NONE;
            if (items.length > 0) {
                give(m, thief, items).pushed = true;
                wakePushes++;
                gave = true;
            } else {
                Event e = send(m, thief, LOAD, HEADER_BYTES);
                e.wanted = surplus;
                e.minRank = top;
            }
            wakeUps++;
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
    private void report(Member m) {
        if (config.directories() == 0 || !m.alive || !config.stealing()) {
            return;
        }
        int surplus = m.linkFreeAt - now > LoadDirectory.backlogLimitNanos(config.settings()) || m.leaving ? 0
                : LoadDirectory.surplus(m.ready(), m.stealable(), m.inFlight, m.settings);
        int top = surplus > 0 ? topStealableRank(m) : 0;
        if (!LoadDirectory.reportDue(m.reported, m.reportedTop, surplus, top)) {
            return;
        }
        m.reported = surplus;
        m.reportedTop = top;
        String directory = LoadDirectory.directoryFor(m.id, candidates, config.directories());
        if (directory == null || directory.equals(m.id)) {
            return;
        }
        Event e = send(m, byId.get(directory), LOAD, HEADER_BYTES);
        e.wanted = surplus; // a load report carries the surplus in the request's count field
        e.minRank = top; // and its highest stealable rank in the rank field
        loadReports++;
    }

    /** The highest rank among {@code m}'s stealable tasks (its own, not pinned); 0 if none or without ranks. */
    private int topStealableRank(Member m) {
        if (ranks == null) {
            return 0;
        }
        for (int r = m.pending.highestBucket(); r >= 1; r--) {
            IntRing bucket = m.pending.bucket(r);
            for (int k = 0; bucket != null && k < bucket.size(); k++) {
                int t = bucket.get(k);
                if (work.owner(t) == m.index && !pinned[t]) {
                    return r;
                }
            }
        }
        return 0;
    }

    /**
     * Whether task {@code t}, first in line at {@code m} whose window is full, may go on the streams beyond it
     * ({@link SimConfig#stolenOverflow()}): it was stolen from another member and its priority level against
     * the lowest rank on the streams would be above 0.
     */
    private boolean overflows(Member m, int t) {
        if (levels == null || work.owner(t) == m.index) {
            return false;
        }
        int lowest = 0;
        for (int i = 0; i < m.windowCount; i++) {
            int r = ranks[m.window[i]];
            if (lowest == 0 || r < lowest) {
                lowest = r;
            }
        }
        return PriorityLevels.level(ranks[t], lowest, config.priorityLevels()) > 0;
    }

    private void start(Member m, int t) {
        m.running[m.busy++] = t;
        startedAt[t] = now;
        long end = now + (m.speed == 1 ? work.durationNanos(t) : Math.round(work.durationNanos(t) / m.speed));
        if (endAt != null) {
            endAt[t] = end;
        }
        Event e = schedule(end, END, m.index);
        e.task = t;
    }

    private void onEnd(Member m, int t) {
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
        m.lastEndAt = now;
        if (work.owner(t) != m.index) {
            m.foreignRun++;
        }
        long ran = now - startedAt[t];
        m.busyNanos += ran;
        m.costs.observe(work.kernelName(work.kernel(t)), ran);
        if (m.learning != null) {
            m.learning.recordOwn(shape(t), ran);
            if (work.owner(t) != m.index && m.learning.observe(members.get(work.owner(t)).id, ran,
                    ownerExpected[t])) {
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
            Event r = send(m, members.get(work.owner(t)), RESULT, HEADER_BYTES + work.outputBytes(t));
            r.task = t;
            r.runNanos = ran;
            r.thiefHolds = m.foreignHeld;
        }
        dispatch(m);
        check(m);
    }

    /**
     * The shape of task {@code t} for learning speeds: its kernel and the bytes it reads and writes. Run times of
     * one kernel differ by its arrays' sizes; tasks of one shape are the ones whose times two members compare.
     */
    private String shape(int t) {
        return work.kernelName(work.kernel(t)) + '/' + work.inputBytes(t) + '/' + work.outputBytes(t);
    }

    /**
     * With learned limits, after {@code m} learnt something of its speed: its threshold (thief, victim, surplus
     * it reports) and window follow its relative speed ({@link SpeedEstimate#threshold},
     * {@link SpeedEstimate#window}). Elements already on its streams stay there.
     */
    private void followSpeed(Member m) {
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
    private void complete(int t) {
        if (completed.get(t)) {
            throw new IllegalStateException("task " + t + " completed twice, the second time at " + Units.nanos(now)
                    + ": the simulator lost track of where it was");
        }
        completed.set(t);
        done++;
        makespan = now;
        Member owner = members.get(work.owner(t));
        for (int i = 0; i < work.childCount(t); i++) {
            int c = work.child(t, i);
            if (--remainingParents[c] == 0) {
                if (pushTo != null && work.owner(c) == owner.index && push(owner, c)) {
                    continue;
                }
                members.get(work.owner(c)).pending.addLast(c);
                if (work.owner(c) != work.owner(t)) {
                    dispatch(members.get(work.owner(c)));
                }
            }
        }
        dispatch(owner);
    }

    /**
     * With pushed continuations, while a result from {@link #pushTo} is completing: sends {@code c}, which the
     * result made ready at its owner {@code v}, straight to that thief if {@link Victim#pushContinuation} and
     * the gate let it (at most one per result).
     *
     * @return whether it was sent
     */
    private boolean push(Member v, int c) {
        Member thief = pushTo;
        int ready = v.ready() + 1;
        if (!v.victim.pushContinuation(pushHolds, ready, v.stealable() + 1, v.inFlight)
                || !v.victim.mayMove(0, work.kernelName(work.kernel(c)), work.inputBytes(c), ready, v.inFlight,
                        config.slots(), now)) {
            return false;
        }
        pushTo = null;
        give(v, thief, new int[] {c}).pushed = true;
        v.victim.gave(now);
        pushes++;
        return true;
    }

    // ---- the thief --------------------------------------------------------------------------------------------

    /** The thief's loop body, run whenever this member's load or back-off changes. */
    private void check(Member m) {
        if (!m.alive || m.leaving || !config.stealing()) {
            return;
        }
        Thief.Request r = m.thief.begin(now, m.ready(), m.inFlight, floorRank(m), candidates, m.rnd);
        if (r != null) {
            m.requests++;
            if (r.minRank() > 0) {
                rankRequests++;
            }
            Member victim = byId.get(r.victim());
            Event e = send(m, victim, REQUEST, HEADER_BYTES);
            e.requestId = r.requestId();
            e.thief = m.index;
            e.wanted = r.wanted();
            e.minRank = r.minRank();
            schedule(now + config.settings().requestTimeoutNanos(), EXPIRE, m.index);
            return;
        }
        long next = m.thief.nextRequestAt(now);
        if (next > now && !m.thief.outstanding() && (m.checkAt < 0 || m.checkAt > next)) {
            m.checkAt = next;
            schedule(next, CHECK, m.index);
        }
    }

    /**
     * The rank of the {@code slots}-th highest-ranked task {@code m} holds, on its streams or ready
     * ({@link Priority#floorRank}); 0 without ranks.
     */
    private int floorRank(Member m) {
        if (ranks == null) {
            return 0;
        }
        int count = 0;
        for (int i = 0; i < m.windowCount; i++) {
            rankBuffer[count++] = ranks[m.window[i]];
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

    private void onReply(Member m, Event e) {
        if (!m.alive) {
            lost(e);
            return;
        }
        received(m, e);
        int n = e.items.length;
        Member sender = members.get(e.from);
        // A pushed continuation answers no request: the thief's request state is not the owner's concern.
        boolean accepted = e.pushed || m.thief.accept(e.requestId, sender.id, n, now);
        // The references first, as ClusterNode does: the arrays this reply brings must not evict one it refers to.
        int[] missing = accepted && n > 0 && caching ? resolve(m, sender, e.arraysReferenced) : NONE;
        if (caching && n > 0) {
            // Also from a stale reply: the owner recorded these arrays as sent.
            for (int a : e.arraysSent) {
                m.inputs.put(sender.id, a, SAME, SAME, work.arrayBytes(a));
            }
        }
        if (!accepted) {
            if (n > 0) {
                staleReplies++;
                Event h = send(m, sender, HANDBACK, HEADER_BYTES + 8L * n);
                h.items = e.items;
            }
            return;
        }
        if (n == 0) {
            m.emptyReplies++;
            check(m);
            return;
        }
        if (!e.pushed) {
            latency.record(m.thief.lastLatencyNanos());
        } else if (config.settings().wakeThieves()) {
            // Work from a member that has more: a back-off from empty replies ends.
            m.thief.wake(sender.id, now);
        }
        int[] keep = missing.length == 0 ? e.items : handBackMissing(m, sender, e.items, missing);
        for (int t : keep) {
            m.pending.addLast(t);
            m.notStealable++;
            arrivedAt[t] = now;
        }
        m.foreignHeld += keep.length;
        m.stolen += keep.length;
        dispatch(m);
        check(m);
    }

    /**
     * Resolves a reply's references in {@code m}'s cache, counting the misses.
     *
     * @return the arrays that missed (sorted), or an empty array
     */
    private int[] resolve(Member m, Member owner, int[] referenced) {
        int[] missed = NONE;
        int count = 0;
        for (int a : referenced) {
            if (m.inputs.get(owner.id, a, SAME) == null) {
                if (count == missed.length) {
                    missed = Arrays.copyOf(missed, Math.max(4, 2 * count));
                }
                missed[count++] = a;
            }
        }
        cacheMisses += count;
        if (count == 0) {
            return NONE;
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
    private int[] handBackMissing(Member m, Member owner, int[] items, int[] missing) {
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
        missingInputHandBacks += handed;
        Event h = send(m, owner, HANDBACK, HEADER_BYTES + 8L * handed);
        h.items = Arrays.copyOf(back, handed);
        h.missingInput = true;
        return Arrays.copyOf(keep, kept);
    }

    // ---- the victim -------------------------------------------------------------------------------------------

    private void onRequest(Member v, Event e) {
        if (!v.alive) {
            lost(e);
            return;
        }
        received(v, e);
        Member thief = members.get(e.thief);
        if (thief.index == v.index) {
            // Forwarded back to its own thief: an empty reply to itself, as the real node does.
            Event r = new Event(now, seq++, REPLY, v.index);
            r.from = v.index;
            r.requestId = e.requestId;
            r.items = new int[0];
            onReply(v, r);
            return;
        }
        int[] items = config.stealing() && !v.leaving ? take(v, thief, e.wanted, e.minRank) : new int[0];
        if (items.length > 0) {
            give(v, thief, items).requestId = e.requestId;
            v.turnedAway.remove(thief.id);
            report(v);
            return;
        }
        if (e.minRank == 0 && config.settings().wakeThieves() && v.program && config.stealing() && !v.leaving
                && LoadDirectory.surplus(v.ready(), v.stealable(), v.inFlight, v.settings) == 0) {
            // Sent away starving: told as soon as there is surplus here.
            v.turnedAway.add(thief.id);
        }
        String next = null;
        if (config.directories() > 0 && e.hops < config.settings().maxHops()) {
            next = v.directory.take(thief.id, v.id, e.wanted, e.minRank, candidates);
            if (next != null) {
                directoryForwards++;
            }
        }
        if (next == null) {
            next = v.victim.forwardTo(thief.id, e.hops, v.thief.lastVictim(), candidates, v.rnd);
        }
        if (next != null) {
            v.forwards++;
            Event f = send(v, byId.get(next), REQUEST, HEADER_BYTES);
            f.requestId = e.requestId;
            f.thief = e.thief;
            f.hops = e.hops + 1;
            f.wanted = e.wanted;
            f.minRank = e.minRank;
        } else {
            Event r = send(v, thief, REPLY, HEADER_BYTES);
            r.requestId = e.requestId;
            r.items = new int[0];
        }
    }

    /**
     * The tasks a victim gives {@code thief}: the highest-ranked (then oldest) stealable ones of at least
     * {@code minRank} that its {@link Victim} lets move, at most as many as its thief cap allows (every member has
     * {@code slots} slots, so the victim knows the thief's).
     */
    private int[] take(Member v, Member thief, int wanted, int minRank) {
        int ready = v.ready();
        int running = v.inFlight;
        int n = v.victim.offer(ready, v.stealable(), running, wanted, config.slots(),
                v.heldBy.getOrDefault(thief.index, 0), minRank > 0);
        if (n == 0) {
            return new int[0];
        }
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
                    if (work.owner(t) != v.index || pinned[t]) {
                        continue;
                    }
                    long bytes = work.inputBytes(t);
                    if (work.kernel(t) == refusedKernel && bytes == refusedBytes) {
                        continue;
                    }
                    if (v.victim.mayMove(i, work.kernelName(work.kernel(t)), bytes, ready, running,
                            config.slots(), now)) {
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
                    gateRefusals++;
                }
                break;
            }
            out[count++] = v.pending.removeAt(foundRank, found);
            rank = foundRank;
            from = found;
            v.victim.gave(now);
        }
        return count == n ? out : Arrays.copyOf(out, count);
    }

    /**
     * Sends {@code thief} the tasks {@code items} of {@code v} ({@link #sendWork}) and records them as given to
     * it: where each went and when, what the thief holds of {@code v}'s (with a thief cap), {@code v}'s count.
     *
     * @return the reply, for the caller to mark as answering a request or as pushed
     */
    private Event give(Member v, Member thief, int[] items) {
        Event r = sendWork(v, thief, items);
        for (int t : items) {
            givenTo[t] = thief.index;
            sentAt[t] = now;
            if (ownerExpected != null) {
                ownerExpected[t] = v.learning.expectedOwn(shape(t));
            }
        }
        if (capping) {
            v.heldBy.merge(thief.index, items.length, Integer::sum);
        }
        v.given += items.length;
        return r;
    }

    /**
     * Sends {@code thief} a reply with {@code items} and each array they read once: as a reference where
     * {@code v}'s {@link SentInputs} says the thief holds it, else with its bytes (then recorded as sent).
     */
    private Event sendWork(Member v, Member thief, int[] items) {
        int stamp = ++replies;
        int[] sent = new int[4];
        int[] referenced = new int[4];
        int sentCount = 0;
        int referencedCount = 0;
        long bytes = HEADER_BYTES + ITEM_BYTES * items.length;
        for (int t : items) {
            for (int i = 0; i < work.inputCount(t); i++) {
                int a = work.input(t, i);
                if (packedIn[a] == stamp) {
                    continue;
                }
                packedIn[a] = stamp;
                long size = work.arrayBytes(a);
                if (caching && v.sentInputs.holds(thief.id, a, SAME)) {
                    bytes += REFERENCE_BYTES;
                    inputBytesSaved += size;
                    if (referencedCount == referenced.length) {
                        referenced = Arrays.copyOf(referenced, 2 * referencedCount);
                    }
                    referenced[referencedCount++] = a;
                } else {
                    bytes += size;
                    inputBytesSent += size;
                    if (caching) {
                        v.sentInputs.sent(thief.id, a, SAME, size);
                    }
                    if (sentCount == sent.length) {
                        sent = Arrays.copyOf(sent, 2 * sentCount);
                    }
                    sent[sentCount++] = a;
                }
            }
        }
        Event r = send(v, thief, REPLY, bytes);
        r.items = items;
        r.arraysSent = Arrays.copyOf(sent, sentCount);
        r.arraysReferenced = Arrays.copyOf(referenced, referencedCount);
        return r;
    }

    // ---- results and hand-backs -------------------------------------------------------------------------------

    private void onResult(Member owner, Event e) {
        received(owner, e);
        int t = e.task;
        if (givenTo[t] != e.from) {
            // Run again here meanwhile (the thief was declared lost): a late duplicate.
            return;
        }
        back(owner, t);
        long run = e.runNanos;
        // What the thief's result reports: its queue and run time; the rest of the round trip is transfer.
        long queued = startedAt[t] - arrivedAt[t];
        long transfer = now - sentAt[t] - queued - run;
        owner.costs.observe(work.kernelName(work.kernel(t)), run);
        if (owner.learning != null && owner.learning.observeShape(members.get(e.from).id, shape(t), run)) {
            followSpeed(owner);
        }
        if (transfer > 0) {
            owner.bandwidth.observe(work.inputBytes(t) + work.outputBytes(t), transfer);
        }
        Member thief = members.get(e.from);
        pushTo = config.stealing() && config.settings().pushContinuations() && thief.alive && !thief.leaving
                && !owner.leaving ? thief : null;
        pushHolds = e.thiefHolds;
        complete(t);
        pushTo = null;
    }

    /** Task {@code t} of {@code owner} is no longer held by the thief it was given to. */
    private void back(Member owner, int t) {
        if (capping) {
            owner.heldBy.computeIfPresent(givenTo[t], (thief, held) -> held > 1 ? held - 1 : null);
        }
        givenTo[t] = -1;
    }

    /**
     * A task of {@code owner} comes back, first in line: pinned there when its thief was lost ({@code pin}), or
     * stealable again when it came back in a stale reply, as {@code ClusterNode} does.
     */
    private void takeBack(Member owner, int t, boolean pin) {
        if (givenTo[t] < 0) {
            return;
        }
        back(owner, t);
        pinned[t] |= pin;
        owner.pending.addFirst(t);
        if (pinned[t]) {
            owner.notStealable++;
        }
    }

    // ---- membership -------------------------------------------------------------------------------------------

    private void onMembership(MembershipEvent ev) {
        switch (ev.kind()) {
            case EXPAND -> {
                List<Member> joined = new ArrayList<>();
                for (int i = 0; i < ev.count(); i++) {
                    joined.add(addMember(false));
                }
                membersChanged(null);
                for (Member m : joined) {
                    check(m);
                }
            }
            case SHRINK, CRASH -> {
                List<Member> workers = new ArrayList<>();
                for (Member m : members) {
                    if (m.alive && !m.program && !m.leaving) {
                        workers.add(m);
                    }
                }
                int n = Math.min(ev.count(), workers.size());
                if (n < ev.count()) {
                    notes.add(ev + ": only " + workers.size() + " workers (members without tasks of their own) "
                            + "were there to go; programs never leave");
                }
                for (int i = 0; i < n; i++) {
                    Member m = workers.remove(membershipRandom.nextInt(workers.size()));
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
    private void maybeDepart(Member m) {
        if (!m.alive || !m.pending.isEmpty() || m.inFlight > 0 || m.thief.outstanding()) {
            return;
        }
        m.alive = false;
        m.leftAt = now;
        membersChanged(m);
    }

    private void crash(Member m) {
        m.alive = false;
        m.leftAt = now;
        m.pending.clear();
        m.device.clear();
        m.notStealable = 0;
        m.foreignHeld = 0;
        m.inFlight = 0;
        m.windowCount = 0;
        m.busy = 0;
        // The others notice after the failure timeout.
        schedule(now + config.failAfterNanos(), LOST, m.index);
    }

    /** The others notice that {@code gone} crashed: its owners run its tasks again, thieves forget it. */
    private void onLost(Member gone) {
        for (int t = 0; t < givenTo.length; t++) {
            if (givenTo[t] == gone.index) {
                reruns++;
                Member owner = members.get(work.owner(t));
                takeBack(owner, t, true);
            }
        }
        membersChanged(gone);
        for (Member m : members) {
            dispatch(m);
        }
    }

    /** Every member sees a join or departure ({@code gone}: the member that left, or null). */
    private void membersChanged(Member gone) {
        refreshCandidates();
        for (Member m : members) {
            if (m.alive) {
                if (gone != null && m.thief.forget(gone.id)) {
                    m.emptyReplies++;
                }
                if (gone != null && caching) {
                    m.sentInputs.forget(gone.id);
                    m.inputs.forgetOwner(gone.id);
                }
                if (config.directories() > 0) {
                    // The directories may have changed: report again to this member's directory.
                    if (gone != null) {
                        m.directory.forget(gone.id);
                    }
                    m.reported = 0;
                    report(m);
                }
                m.thief.resetBackOff();
                check(m);
            }
        }
    }

    // ---- messages ---------------------------------------------------------------------------------------------

    /** Sends a message: it leaves when the sender's link is free and arrives after the wire time and latency. */
    private Event send(Member from, Member to, int kind, long bytes) {
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
        Event e = schedule(depart + wire + net.latencyNanos(from.index, to.index), kind, to.index);
        e.from = from.index;
        e.bytes = bytes;
        return e;
    }

    private void received(Member m, Event e) {
        m.messagesReceived++;
        m.bytesReceived += e.bytes;
        if (endAt != null && e.from != m.index) {
            // Not the empty reply a member gives itself for its own forwarded request: that is no message.
            spendHostCpu(m, config.hostCpu().nanos(e.bytes));
        }
    }

    /** Charges the members that sent messages while the last event was handled. */
    private void chargeSenders() {
        for (Member m : senders) {
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
    private void spendHostCpu(Member m, long cpu) {
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
            Event e = schedule(endAt[t], END, m.index);
            e.task = t;
        }
        kernelDelayNanos += each * m.busy;
    }

    /** A message to a member that is gone: dropped, as the network would. */
    private void lost(Event e) {
        lostMessages++;
    }

    // ---- results ----------------------------------------------------------------------------------------------

    private String stall() {
        StringBuilder b = new StringBuilder("the simulation of " + work.name() + " stalled at " + Units.nanos(now)
                + " with " + (work.tasks() - done) + " of " + work.tasks() + " tasks not done and nothing left "
                + "to happen. Members:");
        int shown = 0;
        for (Member m : members) {
            if (m.ready() + m.inFlight > 0 || shown < 8) {
                b.append("\n  ").append(m.id).append(m.alive ? "" : " (gone)").append(": ready ").append(m.ready())
                        .append(", on streams ").append(m.inFlight).append(", ").append(m.thief);
                shown++;
            }
        }
        return b.toString();
    }

    private SimResult result(long wallNanos) {
        int n = members.size();
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
            Member m = members.get(i);
            messages[i] = m.messagesSent + m.messagesReceived;
            bytes[i] = m.bytesSent + m.bytesReceived;
            hostCpu[i] = m.hostCpuNanos;
            long end = m.leftAt >= 0 ? Math.min(m.leftAt, makespan) : makespan;
            double span = Math.max(0, end - Math.min(m.joinedAt, end)) * (double) config.slots();
            capacity += span;
            idleSum += Math.max(0, span - m.busyNanos);
            stolen += m.stolen;
            requests += m.requests;
            empty += m.emptyReplies;
            forwards += m.forwards;
        }
        long lower = lowerBound();
        if (!config.speeds().uniform()) {
            speedNotes();
        }
        if (config.speeds().learnedLimits()) {
            learntNotes();
        }
        if (config.directories() > 0) {
            notes.add(String.format(java.util.Locale.ROOT, "%d directories: %,d load reports, %,d requests forwarded "
                    + "by a directory", config.directories(), loadReports, directoryForwards));
        }
        if (config.settings().wakeThieves()) {
            notes.add(String.format(java.util.Locale.ROOT, "%,d thieves woken by the programs that had sent them "
                    + "away, %,d of them with work", wakeUps, wakePushes));
        }
        if (config.settings().pushContinuations()) {
            notes.add(String.format(java.util.Locale.ROOT, "%,d continuations pushed to their thieves", pushes));
        }
        return new SimResult(work.name(), work.tasks(), config.members(), n, config.slots(), makespan, lower,
                work.totalWorkNanos(), work.criticalPathNanos(), stolen, requests, rankRequests, empty, forwards, timeouts,
                staleReplies, reruns, lostMessages, gateRefusals, inputBytesSent, inputBytesSaved, cacheMisses,
                missingInputHandBacks, SimResult.Spread.of(messages), SimResult.Spread.of(bytes),
                SimResult.Spread.of(hostCpu), kernelDelayNanos, capacity == 0 ? 0 : idleSum / capacity,
                latency.count() == 0 ? -1 : latency.median(),
                latency.count() == 0 ? -1 : latency.percentile(99), events, wallNanos, List.copyOf(notes));
    }

    /**
     * With members of several speeds, a note per speed: how busy its members were, when their last task ended
     * and how much of what they ran was stolen, so that a run's losses can be put on slow or fast members.
     */
    private void speedNotes() {
        Map<Double, long[]> bySpeed = new java.util.TreeMap<>();
        for (Member m : members) {
            long[] a = bySpeed.computeIfAbsent(m.speed, k -> new long[5]);
            a[0]++;
            a[1] += m.busyNanos;
            a[2] = Math.max(a[2], m.lastEndAt);
            a[3] += m.tasksRun;
            a[4] += m.foreignRun;
        }
        bySpeed.forEach((speed, a) -> notes.add(String.format(java.util.Locale.ROOT, "%,d members of speed %s: "
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
        Map<Double, double[]> learnt = new java.util.TreeMap<>();
        for (Member m : members) {
            double r = m.learning.relative();
            double[] a = learnt.computeIfAbsent(m.speed, k -> new double[] {0, 0, Double.MAX_VALUE, 0, m.index});
            a[0]++;
            a[1] += r;
            a[2] = Math.min(a[2], r);
            a[3] = Math.max(a[3], r);
        }
        learnt.forEach((speed, a) -> notes.add(String.format(java.util.Locale.ROOT, "%,d members of speed %s "
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
        double[][] changes = new double[2 * members.size()][];
        int n = 0;
        double fastest = 0;
        for (Member m : members) {
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

    /** Each task's bottom level: 1 + the most of its children's; tasks come after their parents. */
    static int[] bottomLevels(Workload w) {
        int[] level = new int[w.tasks()];
        for (int t = w.tasks() - 1; t >= 0; t--) {
            int below = 0;
            for (int i = 0; i < w.childCount(t); i++) {
                below = Math.max(below, level[w.child(t, i)]);
            }
            level[t] = below + 1;
        }
        return level;
    }

    private static RandomGenerator seeded(long seed) {
        return RandomGeneratorFactory.<RandomGenerator>of("L64X128MixRandom").create(seed);
    }
}
