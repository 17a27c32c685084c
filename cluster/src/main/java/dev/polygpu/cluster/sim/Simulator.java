package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.BandwidthEstimator;
import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.policy.KernelCostModel;
import dev.polygpu.cluster.policy.LoadDirectory;
import dev.polygpu.cluster.policy.SentInputs;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.Thief;
import dev.polygpu.cluster.policy.TurnedAway;
import dev.polygpu.cluster.policy.Victim;
import dev.polygpu.runtime.PriorityLevels;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
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
 *       {@link Speeds#scaledLimits()}) are on its streams, of which its device runs {@code slots} at once, each
 *       for its duration: with {@link SimConfig.Order#RANK_AND_PRIORITIES} (as the scheduler does) each task put
 *       on the streams gets the stream priority level {@link PriorityLevels#level} gives its rank against the
 *       lowest rank on the member's streams, and the device starts the highest level first, in the order they
 *       were put there within a level; with {@link SimConfig.Order#RANK} in the order they were put there, with
 *       {@link SimConfig.Order#RANK_AND_STREAMS} highest rank first. A task's children become ready at its owner
 *       when it completes there, or when its result arrives home. The load a member reports is that of the real scheduler: ready (waiting for the window),
 *       stealable (ready, own, not handed back) and running (on streams).
 *   <li><b>The protocol.</b> As in {@code ClusterNode}: a starving thief sends one request at a time; a victim
 *       gives the highest-ranked, then oldest, stealable tasks that pass the gate (of at least the rank asked
 *       for, when a member that is not starving asks by rank), at most what {@link Victim#offer} allows, with the
 *       arrays they read (an array once per reply), or forwards the request, or replies empty, as
 *       {@link Victim#answer} decides for the node too; a stale reply's
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
 * <p>Where each part lives: {@link SimCluster} holds the run's state, the clock and the messages;
 * {@link SimDevice} the members' schedulers and devices; {@link SimThief} and {@link SimVictim} the two sides of
 * the protocol around the policy's decisions; {@link SimMembership} joins, departures and crashes;
 * {@link SimReport} the result. This class runs the events.
 *
 * <p>Time is simulated nanoseconds from 0. A run is deterministic given its configuration and seed. Memory is
 * a few dozen bytes per task plus what the members hold; one run uses one thread. Not thread-safe; one
 * instance runs once.
 */
public final class Simulator {

    /** Bytes of a message's header (ids, counts, the HMAC); requests and empty replies are this size. */
    static final long HEADER_BYTES = SimCluster.HEADER_BYTES;

    private final Workload work;
    private final SimConfig config;
    private final SimCluster c;
    private final SimReport report;
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
        this.c = new SimCluster(work, config);
        c.membership = new SimMembership(c);
        c.device = new SimDevice(c);
        c.thieves = new SimThief(c);
        c.victims = new SimVictim(c);
        this.report = new SimReport(c);
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
        long wallStart = System.nanoTime();
        start(m -> false, null);
        long nextProgress = progressEvery;
        while (c.done < work.tasks()) {
            SimEvent e = c.queue.poll();
            if (e == null) {
                throw new IllegalStateException(report.stall());
            }
            step(e);
            if (c.done >= nextProgress) {
                progress.accept(String.format(java.util.Locale.ROOT, "  %,d of %,d tasks done, simulated %s",
                        c.done, work.tasks(), Units.nanos(c.now)));
                nextProgress = c.done + progressEvery;
            }
        }
        return report.result(System.nanoTime() - wallStart);
    }

    /**
     * Sets the run up: the members at the start, the membership events, the tasks without parents ready at their
     * owners, every device dispatched and every thief looking for work once.
     *
     * @param silenced the members whose thieves never ask on their own (a scripted run's); none in a plain run
     * @param sends told of every message a member sends, or null
     */
    private void start(IntPredicate silenced, Consumer<SimEvent> sends) {
        if (ran) {
            throw new IllegalStateException("a simulator runs once; create another for another run");
        }
        ran = true;
        c.sendListener = sends;
        for (int m = 0; m < config.members(); m++) {
            c.membership.addMember(m < work.owners()).silenced = silenced.test(m);
        }
        c.membership.refreshCandidates();
        for (int i = 0; i < config.events().size(); i++) {
            SimEvent e = c.schedule(config.events().get(i).atNanos(), SimEvent.MEMBERSHIP, -1);
            e.task = i;
        }
        for (int t = 0; t < work.tasks(); t++) {
            c.remainingParents[t] = work.parentCount(t);
            if (c.remainingParents[t] == 0) {
                c.owner(t).pending.addLast(t);
            }
        }
        for (SimMember m : c.members) {
            c.device.dispatch(m);
        }
        for (SimMember m : c.members) {
            c.thieves.check(m);
        }
        c.chargeSenders();
    }

    /** Handles one event at its time, then charges the host CPU of the messages it sent. */
    private void step(SimEvent e) {
        c.now = e.time;
        c.events++;
        handle(e);
        c.chargeSenders();
    }

    private void handle(SimEvent e) {
        SimMember m = e.member >= 0 ? c.member(e.member) : null;
        switch (e.kind) {
            case SimEvent.END -> {
                // A kernel that host CPU work slowed down ends later: its earlier end is stale.
                if (c.endAt == null || c.endAt[e.task] == e.time) {
                    c.device.onEnd(m, e.task);
                }
            }
            case SimEvent.CHECK -> {
                if (m.checkAt == e.time) {
                    m.checkAt = -1;
                    c.thieves.check(m);
                }
            }
            case SimEvent.EXPIRE -> c.thieves.onExpire(m);
            case SimEvent.REQUEST -> c.victims.onRequest(m, e);
            case SimEvent.REPLY -> c.thieves.onReply(m, e);
            case SimEvent.RESULT -> c.victims.onResult(m, e);
            case SimEvent.HANDBACK -> c.victims.onHandback(m, e);
            case SimEvent.MEMBERSHIP -> c.membership.onMembership(config.events().get(e.task));
            case SimEvent.LOST -> c.membership.onLost(m);
            case SimEvent.LOAD -> c.thieves.onLoad(m, e);
            default -> throw new IllegalStateException("unknown event kind " + e.kind);
        }
        if (m != null && m.leaving) {
            c.membership.maybeDepart(m);
        }
    }

    /** {@return how many tasks went on the streams beyond a full window (the overflow what-if)} */
    long overflowed() {
        return c.overflowed;
    }

    /** {@return the most tasks any member had on its streams at once} */
    int maxInFlight() {
        return c.maxInFlight;
    }

    // ---- scripted runs: a test plays some members' requests and releases tasks -------------------------------

    /**
     * Sets a scripted run up as {@link #run()} does, without running it.
     *
     * @param silenced the members whose thieves never ask on their own: the script asks for them
     * @param sends told of every message a member sends; its fields are set once the event that sent it is
     *     handled
     */
    void startScripted(IntPredicate silenced, Consumer<SimEvent> sends) {
        start(silenced, sends);
    }

    /** Handles the events up to simulated time {@code time}, then stays there. */
    void advanceTo(long time) {
        while (!c.queue.isEmpty() && c.queue.peek().time <= time) {
            step(c.queue.poll());
        }
        c.now = Math.max(c.now, time);
    }

    /** A steal request of {@code thief} reaches {@code victim} now, as if sent over {@code hops} forwards. */
    void request(int thief, int victim, long requestId, int wanted, int minRank, int hops) {
        SimEvent e = c.immediate(SimEvent.REQUEST, victim);
        e.from = hops == 0 ? thief : victim;
        e.thief = thief;
        e.requestId = requestId;
        e.wanted = wanted;
        e.minRank = minRank;
        e.hops = hops;
        e.bytes = HEADER_BYTES;
        step(e);
    }

    /** Task {@code t} becomes ready at its owner now, as if its parents had completed. */
    void release(int t) {
        c.device.release(t);
        c.chargeSenders();
    }

    /** {@return member {@code index}'s id} */
    String memberId(int index) {
        return c.member(index).id;
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

    static RandomGenerator seeded(long seed) {
        return RandomGeneratorFactory.<RandomGenerator>of("L64X128MixRandom").create(seed);
    }
}
