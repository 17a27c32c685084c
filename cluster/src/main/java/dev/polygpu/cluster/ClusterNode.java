package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.CostGate;
import dev.polygpu.cluster.policy.Priority;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.Victim;
import dev.polygpu.cluster.wire.Handback;
import dev.polygpu.cluster.wire.Holding;
import dev.polygpu.cluster.wire.Leaving;
import dev.polygpu.cluster.wire.LoadReport;
import dev.polygpu.cluster.wire.Message;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.cluster.wire.WorkResult;
import dev.polygpu.runtime.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One member of a polygpu cluster, attached to the {@link Scheduler} of its device. As a <em>thief</em> it
 * notices when its device starves (ready + running elements below the threshold), or when the elements it would
 * run next rank low (its floor rank: {@link Priority}), asks one victim at a time for work (any work when
 * starving, else only elements of a high enough rank), runs what it gets on its own device with the rank it had
 * at home, and sends the results home. As a <em>victim</em> (a member running a program) it gives surplus ready
 * kernels, highest rank first and none below what a request by rank asks for, never dropping below its own
 * threshold and only where the cost gate says moving the inputs is cheaper than the kernel, keeps their inputs
 * until the results are accepted, and re-runs them here if the thief is lost. Protocol and guarantees:
 * {@code docs/cluster.md}.
 *
 * <p>This class starts the member, runs its stealing loop and hands each message to the part that handles it:
 * {@link ThiefSide} and {@link HeldElements} (the thief), {@link VictimSide} and {@link GivenElements} (the
 * victim), {@link Membership}, {@link Authentication}, {@link Learning} and {@link Directory}; what they share is
 * in {@link NodeContext}, whose comment says which thread owns what. The decisions of the protocol are those of
 * {@code dev.polygpu.cluster.policy}, which the simulator runs too.
 *
 * <p>Thread-safety: the messages of the steal round trip are handled on the transport's thread that received
 * them, the others on virtual threads ({@link #isQuick}); the node's lock guards the owner's and thief's
 * tables; the stealing loop runs on a virtual thread of its own. Scheduler calls are made without the lock.
 */
public final class ClusterNode implements AutoCloseable {
    /** The log of the node and all its parts. */
    static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
    /** How long a graceful leave waits for the elements it holds to finish before handing them back. */
    static final Duration LEAVE_TIMEOUT = Duration.ofSeconds(30);

    private final NodeContext n;
    private final CountDownLatch started = new CountDownLatch(1);
    /** The {@code host:port} this member listens on, or null on a transport that has none (tests). */
    private final String listenAddress;
    /** Members in the cluster when this member last looked (kept after it left, for the final counters). */
    private volatile int lastMembers = 1;
    private volatile boolean startFailed;
    private long warmUpNanos = -1;
    /** Turns of the stealing loop completed so far. */
    private volatile long turns;

    private ClusterNode(ClusterConfig config, Scheduler scheduler, TransportFactory transports) {
        n = new NodeContext(config, scheduler, settingsOf(config, scheduler));
        n.auth = new Authentication(n);
        n.members = new Membership(n);
        n.learning = new Learning(n);
        n.directory = new Directory(n);
        n.given = new GivenElements(n);
        n.held = new HeldElements(n);
        CostGate gate = new CostGate(n.settings, n.learning.costs, n.learning.bandwidth);
        scheduler.addObserver(n.learning.observer());
        // While Hazelcast starts (seconds in a fresh JVM): afterwards the member asks for work at once.
        CompletableFuture<Long> warm = config.warmUp() ? startWarmUp() : null;
        String nonce = Authentication.newNonce();
        Map<String, String> attributes = Map.of(HazelcastTransport.ROLE, config.role().name().toLowerCase(
                Locale.ROOT), HazelcastTransport.NONCE, nonce, HazelcastTransport.PROOF, n.auth.proof(nonce));
        Transport t;
        try {
            t = startTransport(transports, attributes);
        } catch (RuntimeException | Error e) {
            if (warm != null) {
                // Done with the scheduler before the caller closes it.
                warm.exceptionally(x -> -1L).join();
            }
            throw e;
        }
        n.joinedNanos = System.nanoTime();
        listenAddress = t instanceof HazelcastTransport h ? h.address() : null;
        if (config.faults() != null) {
            t = new FaultyTransport(t, config.faults());
        }
        n.transport = t;
        if (warm != null) {
            try {
                warmUpNanos = warm.join();
            } catch (CompletionException e) {
                // Leaves at once; messages and membership events that came meanwhile are dropped.
                n.closed = true;
                startFailed = true;
                started.countDown();
                t.close();
                n.handlers.shutdown();
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }
        n.thief = new ThiefSide(n);
        n.victim = new VictimSide(n, gate);
        for (Peer p : t.peers()) {
            n.auth.checkProof(p);
        }
        n.loop = Thread.ofVirtual().name("polygpu-cluster-" + Membership.shortId(t.self())).start(this::run);
        started.countDown();
        LOG.log(System.Logger.Level.DEBUG, () -> "joined " + config + " as " + n.self());
    }

    /** The stealing policy the configuration and the device's window give. */
    private static StealSettings settingsOf(ClusterConfig config, Scheduler scheduler) {
        StealSettings s = StealSettings.defaults(scheduler.inFlightWindow());
        if (config.threshold() > 0) {
            s = s.withThreshold(config.threshold());
        }
        if (config.chunk() > 0) {
            s = s.withChunk(config.chunk());
        }
        return s.withMaxHops(config.maxHops()).withRankFactor(config.rankFactor()).withRankChunk(config.rankChunk())
                .withPushContinuations(config.pushContinuations()).withWakeThieves(config.wakeThieves());
    }

    private Transport startTransport(TransportFactory transports, Map<String, String> attributes) {
        return transports.start(n.config, attributes, new Transport.Listener() {
            @Override
            public void received(String from, byte[] frame) {
                if (n.closed) {
                    return;
                }
                if (started.getCount() > 0 || startFailed) {
                    n.handlers.execute(() -> {
                        if (awaitStarted()) {
                            dispatch(n.auth.decode(from, frame));
                        }
                    });
                    return;
                }
                Message m = n.auth.decode(from, frame);
                if (m != null && isQuick(m)) {
                    // On the receiving thread: a hand-off to another thread costs a wake-up, which on a busy
                    // machine is a wait for a core (docs/benchmarks.md, issue #8, eighteenth session).
                    dispatch(m);
                } else if (m != null) {
                    n.handlers.execute(() -> dispatch(m));
                }
            }

            @Override
            public void membersChanged(List<String> joined, List<String> left) {
                n.handlers.execute(() -> {
                    if (awaitStarted()) {
                        n.members.onMembersChanged(joined, left);
                    }
                });
            }

            @Override
            public void selfLeft(String why) {
                n.members.onSelfLeft(why);
            }
        });
    }

    /** Runs {@link Warmup} on a thread of its own. */
    private CompletableFuture<Long> startWarmUp() {
        CompletableFuture<Long> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("polygpu-cluster-warm-up").start(() -> {
            try {
                f.complete(Warmup.run(n.scheduler, source -> KernelCache.build(n.scheduler.device(), source),
                        n.key, n.config.maxFrameBytes()));
            } catch (RuntimeException | Error e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    /** How long this member's warm-up took ({@link ClusterConfig#warmUp()}), in nanoseconds; -1 without one. */
    public long warmUpNanos() {
        return warmUpNanos;
    }

    /** Creates the transport; tests substitute their own. */
    interface TransportFactory {
        Transport start(ClusterConfig config, Map<String, String> attributes, Transport.Listener listener);
    }

    /** Joins the cluster {@code config} names with {@code scheduler}'s device; returns once joined. */
    public static ClusterNode start(ClusterConfig config, Scheduler scheduler) {
        if (config == null || scheduler == null) {
            throw new IllegalArgumentException("a cluster node needs a configuration and a scheduler");
        }
        return new ClusterNode(config, scheduler, HazelcastTransport::start);
    }

    static ClusterNode start(ClusterConfig config, Scheduler scheduler, TransportFactory transports) {
        return new ClusterNode(config, scheduler, transports);
    }

    /** Waits until the constructor is done; false if it failed (the member left again at once). */
    private boolean awaitStarted() {
        try {
            started.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !startFailed;
    }

    /** This member's id (Hazelcast's member UUID). */
    public String memberId() {
        return n.self();
    }

    public ClusterConfig config() {
        return n.config;
    }

    /** The {@code host:port} this member listens on (an IP address), or null on a transport without one. */
    public String address() {
        return listenAddress;
    }

    /** The stealing policy in force (thresholds resolved against the device's window). */
    public StealSettings settings() {
        return n.settings;
    }

    /** The ids of the other members now. */
    public List<String> peers() {
        return n.members.peerIds();
    }

    /** The counters now. */
    public ClusterStats stats() {
        if (!n.closed) {
            lastMembers = n.transport.peers().size() + 1;
        }
        return n.counters.stats(n.self(), lastMembers, n.learning.relativeSpeed(), n.settings.threshold(),
                n.scheduler.inFlightWindow());
    }

    /** How many members' surplus this member keeps as a directory now (for tests). */
    int directoryEntries() {
        return n.directory.size();
    }

    /** Elements of this member running elsewhere now. */
    public int away() {
        return n.given.size();
    }

    /** Elements of other members running here now. */
    public int holding() {
        return n.held.size();
    }

    // ---- the stealing loop -----------------------------------------------------------------------------------

    private void run() {
        long tick = TimeUnit.MILLISECONDS.toNanos(1);
        long nextHold = System.nanoTime();
        while (!n.closed) {
            try {
                long now = System.nanoTime();
                LoopTurn turn = new LoopTurn(n);
                n.thief.expire(now);
                // Not only when idle: a starving member's back-off does not hold back a request by rank, nor
                // the reverse; the thief decides which may go.
                n.thief.maybeSteal(now, turn);
                n.directory.maybeReport(turn);
                n.victim.maybeWake(turn);
                if (now >= nextHold) {
                    nextHold = now + n.config.holdInterval().toNanos();
                    n.held.sendHolding();
                    n.given.reclaimLost(now);
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "the cluster stealing loop hit an error; it goes on", e);
            }
            turns++;
            LockSupport.parkNanos(this, tick);
        }
    }

    /** Turns of the stealing loop completed so far (for tests that wait for one). */
    long loopTurns() {
        return turns;
    }

    /**
     * Whether thieves this member turned away wait to be woken while it has surplus, so that the stealing loop
     * wakes them next (for tests).
     */
    boolean wakeUpsPending() {
        Victim v = n.victim.policy();
        return v.anyTurnedAway() && v.surplus(VictimSide.victimLoad(n.scheduler.load())) > 0;
    }

    // ---- messages --------------------------------------------------------------------------------------------

    /**
     * Whether a message is handled on the thread that received it rather than handed to a handler thread: those
     * of the steal round trip, whose handling never waits for long (a request, a load report, a reply: a reply
     * whose kernels need compiling hands its elements to a handler thread once their inputs are kept). Results,
     * hand-backs and hold notices go to a handler thread, so the transport's thread is not held up by them.
     *
     * <p>Replies are handled in the order they arrive (Hazelcast delivers one member's messages to a topic in
     * order, on one thread), so an input that one reply carries as bytes is kept before a later reply from the
     * same owner refers to it: handled on handler threads, the later one could look first and miss it.
     */
    private static boolean isQuick(Message m) {
        return m instanceof StealRequest || m instanceof LoadReport || m instanceof StealReply;
    }

    /** Handles a decoded message (nothing for null: a refused frame). */
    private void dispatch(Message m) {
        if (m == null) {
            return;
        }
        try {
            switch (m) {
                case StealRequest r -> n.victim.onStealRequest(r);
                case StealReply r -> n.thief.onStealReply(r);
                case WorkResult r -> n.given.onWorkResult(r);
                case Handback h -> n.given.onHandback(h);
                case Holding h -> n.given.onHolding(h);
                case Leaving l -> n.members.leaving(l.sender());
                case LoadReport l -> onLoadReport(l);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "handling " + m.getClass().getSimpleName() + " from "
                    + n.members.describe(m.sender()) + " failed", e);
        }
    }

    /**
     * A program's load: as a directory, this member keeps it; as a thief that the program sent away before, it
     * asks again at once instead of waiting out its back-off.
     */
    private void onLoadReport(LoadReport l) {
        if (!n.auth.isProven(l.sender())) {
            n.counters.rejected.incrementAndGet();
        } else if (n.members.isLeaving(l.sender())) {
            n.directory.forget(l.sender());
        } else {
            n.directory.onReport(l);
            n.thief.onLoadReport(l);
        }
    }

    // ---- leaving ---------------------------------------------------------------------------------------------

    /**
     * Leaves gracefully: stops taking and giving work, tells the others, waits up to {@code timeout} for the
     * elements of others it holds to finish (their results go home) and for its own elements elsewhere to come
     * back; then hands back what it still holds, runs here what is still away, and leaves the cluster.
     * Idempotent.
     */
    public void leave(Duration timeout) {
        synchronized (n.lock) {
            if (n.closed || n.leaving) {
                return;
            }
            n.leaving = true;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        n.broadcast(new Leaving(n.self()));
        synchronized (n.lock) {
            // Others' elements here finish and go home; this member's elements elsewhere come back.
            while ((!n.held.isEmptyLocked() || !n.given.isEmptyLocked()) && System.nanoTime() < deadline) {
                try {
                    // Polls: results settle elements on handler threads without notifying.
                    n.lock.wait(Math.max(1, Math.min(10, (deadline - System.nanoTime()) / 1_000_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        n.held.handBackAll();
        n.given.reclaimAll();
        lastMembers = n.transport.peers().size() + 1;
        n.closed = true;
        n.wakeLoop();
        n.transport.close();
        n.handlers.shutdown();
    }

    /** {@link #leave} with {@link #LEAVE_TIMEOUT}. */
    @Override
    public void close() {
        leave(LEAVE_TIMEOUT);
    }

    /** Ends the member at once, as a crash would: for tests of the survivors. */
    void crash() {
        n.closed = true;
        n.wakeLoop();
        if (n.transport instanceof HazelcastTransport h) {
            h.kill();
        } else if (n.transport instanceof FaultyTransport f) {
            f.kill();
        } else {
            n.transport.close();
        }
        n.handlers.shutdownNow();
    }

    /** Takes this member out of the cluster under the node, as a network split or Hazelcast failure would. */
    void dropOutOfClusterForTest() {
        Transport t = n.transport instanceof FaultyTransport f ? f.inner() : n.transport;
        ((HazelcastTransport) t).terminateUnderneath();
    }
}
