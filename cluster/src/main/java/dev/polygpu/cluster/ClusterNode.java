package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.BandwidthEstimator;
import dev.polygpu.cluster.policy.CostGate;
import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.policy.KernelCostModel;
import dev.polygpu.cluster.policy.LatencyHistogram;
import dev.polygpu.cluster.policy.LoadDirectory;
import dev.polygpu.cluster.policy.Priority;
import dev.polygpu.cluster.policy.SentInputs;
import dev.polygpu.cluster.policy.SpeedEstimate;
import dev.polygpu.cluster.policy.Starvation;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.Thief;
import dev.polygpu.cluster.policy.TurnedAway;
import dev.polygpu.cluster.policy.Victim;
import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.Digest;
import dev.polygpu.cluster.wire.Handback;
import dev.polygpu.cluster.wire.HandbackReason;
import dev.polygpu.cluster.wire.Holding;
import dev.polygpu.cluster.wire.Leaving;
import dev.polygpu.cluster.wire.LoadReport;
import dev.polygpu.cluster.wire.Message;
import dev.polygpu.cluster.wire.SharedSecret;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.cluster.wire.WireCodec;
import dev.polygpu.cluster.wire.WireException;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.cluster.wire.WorkResult;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.runtime.Access;
import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.KernelSource;
import dev.polygpu.runtime.ScheduleObserver;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.StolenElement;
import dev.polygpu.runtime.TrackedArray;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.random.RandomGenerator;

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
 * <p>Thread-safety: the messages of the steal round trip are handled on the transport's thread that received
 * them, the others on virtual threads ({@link #isQuick}); {@link #lock} guards the owner's and thief's
 * tables; the stealing loop runs on a virtual thread of its own. Scheduler calls are made without the lock.
 */
public final class ClusterNode implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
    /** Where members get the secret from, for the warnings about a member without it. */
    static final String SECRET_SETTINGS = "secret (the POLYGPU_CLUSTER_SECRET environment variable, a program's "
            + "--cluster-secret, a worker's --secret)";
    /** How long a graceful leave waits for the elements it holds to finish before handing them back. */
    static final Duration LEAVE_TIMEOUT = Duration.ofSeconds(30);

    /** An element of this member that another member holds. */
    private static final class Given {
        final long stealId;
        final StolenElement element;
        final String thief;
        final long epoch;
        final long sentNanos;
        final long inputBytes;
        final String kernel;
        /** The element's shape ({@link #shape}), for learning the thief's speed from its result; null if not. */
        final String shape;
        long lastHeardNanos;

        Given(long stealId, StolenElement element, String thief, long epoch, long sentNanos, long inputBytes,
                String kernel, String shape) {
            this.stealId = stealId;
            this.element = element;
            this.thief = thief;
            this.epoch = epoch;
            this.sentNanos = sentNanos;
            this.inputBytes = inputBytes;
            this.kernel = kernel;
            this.shape = shape;
            this.lastHeardNanos = sentNanos;
        }
    }

    /** An element of another member that this member runs. */
    private static final class Held {
        final String owner;
        final long stealId;
        final long epoch;
        final long receivedNanos;
        /** How long the owner expects it to run on its device ({@link WorkItem#expectedNanos()}); 0: unknown. */
        final long ownerExpectedNanos;
        /** Set when the owner is gone or the element was handed back: the result is not sent. */
        volatile boolean abandoned;

        Held(String owner, long stealId, long epoch, long receivedNanos, long ownerExpectedNanos) {
            this.owner = owner;
            this.stealId = stealId;
            this.epoch = epoch;
            this.receivedNanos = receivedNanos;
            this.ownerExpectedNanos = ownerExpectedNanos;
        }
    }

    private final ClusterConfig config;
    private final Scheduler scheduler;
    private final SharedSecret key;
    /** The stealing policy in force: its threshold follows the learnt speed ({@link #followSpeed}). */
    private volatile StealSettings settings;
    /** The threshold of a member of the fastest kind: what the configuration gives. */
    private final int baseThreshold;
    /** This member's speed against the others', learnt from run times ({@link ClusterConfig#learnSpeeds()}). */
    private final SpeedEstimate speeds = new SpeedEstimate();
    /** Held while the limits follow a new speed ({@link #followSpeed}), so that changes apply in order. */
    private final Object followLock = new Object();
    /** The relative speed the threshold and window follow now. */
    private volatile double relativeSpeed = 1;
    /** How many elements the device runs at once (at least 1): for the cost gate and the floor rank. */
    private final int slots;
    /** The thief's protocol state (request out, victim asked first, back-off); its own lock. */
    private final Thief asThief;
    /** The victim's decisions (how many, which, forward where). */
    private final Victim asVictim;
    private final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
    private final KernelCostModel costs = new KernelCostModel(KernelCostModel.DEFAULT_ALPHA);
    private final BandwidthEstimator bandwidth = new BandwidthEstimator(BandwidthEstimator.DEFAULT_BYTES_PER_SECOND,
            BandwidthEstimator.DEFAULT_LATENCY_NANOS, BandwidthEstimator.DEFAULT_ALPHA);
    private final CostGate gate;
    private final LatencyHistogram latency = new LatencyHistogram();
    private final KernelCache kernels;
    private final RandomGenerator random = RandomGenerator.of("L64X128MixRandom");
    private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
    private final long epoch;
    private final long lostAfterNanos;
    /** When this member's Hazelcast member was up and listening (it counts the join to its first stolen kernel). */
    private final long joinedNanos;
    /** The {@code host:port} this member listens on, or null on a transport that has none (tests). */
    private final String listenAddress;
    private final Object lock = new Object();
    /** Owner side: stealId → the element away. Guarded by {@link #lock}. */
    private final Map<Long, Given> given = new HashMap<>();
    /** Thief side: the elements of others running here. Guarded by {@link #lock}. */
    private final Map<String, Map<Long, Held>> held = new HashMap<>();
    /** Members declared dead, so their late results are recognised (bounded). Guarded by {@link #lock}. */
    private final Map<String, Boolean> dead = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > 1024;
        }
    };
    private final Set<String> refusedLogged = ConcurrentHashMap.newKeySet();
    /** Whether each member seen proved the secret when it joined (by member id; dropped when it leaves). */
    private final Map<String, Boolean> proven = new ConcurrentHashMap<>();
    private final Set<String> leavingPeers = ConcurrentHashMap.newKeySet();
    /** Kernel names and shapes of this device's launched elements, for their run times (cost model, speed). */
    private final Map<Long, Launched> launchedKernels = new ConcurrentHashMap<>();
    /**
     * Elements of this member given to a thief (by the scheduler's id): when one completes, its time is the
     * thief's, which this member's own times by shape ({@link SpeedEstimate#recordOwn}) must not take in.
     */
    private final Set<Long> givenAway = ConcurrentHashMap.newKeySet();
    private final Transport transport;
    private final Thread loop;
    private long nextStealId = 1;
    /** Members in the cluster when this member last looked (kept after it left, for the final counters). */
    private volatile int lastMembers = 1;
    private volatile boolean leaving;
    private volatile boolean closed;
    private volatile boolean startFailed;
    private volatile String lostReason;
    private volatile long firstStolenNanos = -1;
    private long warmUpNanos = -1;
    /**
     * Stolen elements received and not yet submitted to the scheduler (their kernel may still be compiling):
     * the scheduler's load does not show them yet, so the starvation check adds them to the running ones.
     */
    private final AtomicInteger arriving = new AtomicInteger();
    private final AtomicLong stolen = new AtomicLong();
    private final AtomicLong givenCount = new AtomicLong();
    private final AtomicLong completedRemote = new AtomicLong();
    private final AtomicLong rerun = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong requestCount = new AtomicLong();
    private final AtomicLong rankRequestCount = new AtomicLong();
    private final AtomicLong emptyReplies = new AtomicLong();
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();
    private final AtomicLong inputBytesSaved = new AtomicLong();
    private final AtomicLong inputCacheMisses = new AtomicLong();
    private final AtomicLong pushed = new AtomicLong();
    private final AtomicLong loadReports = new AtomicLong();
    private final AtomicLong directoryForwards = new AtomicLong();
    private final AtomicLong wakeUps = new AtomicLong();
    /** As a directory: the load that the members reporting here sent last ({@link LoadDirectory}). */
    private final LoadDirectory directory = new LoadDirectory();
    /** Starving thieves this program sent away with nothing, to wake when it has work ({@link #maybeWake}). */
    private final TurnedAway turnedAway = new TurnedAway(TurnedAway.DEFAULT_CAPACITY);
    /** What this member last reported to its directory (the stealing loop's alone). */
    private int reported;
    private int reportedTop;
    /** The device's load in the stealing loop's current turn, or null until asked ({@link #loadThisTick}). */
    private Scheduler.Load tickLoad;
    /** This turn's surplus and highest stealable rank, or -1 until asked ({@link #surplusThisTick}). */
    private int tickSurplus = -1;
    private int tickTop = -1;
    /** Set when members join or leave: the directory may have changed, so the next report goes at once. */
    private volatile boolean reportAgain;
    /** Owner side: which of this member's arrays each thief holds, and with which contents. */
    private final SentInputs<Digest> sentInputs;
    /**
     * Owner side: per thief, held while a reply to it is packed and sent ({@link #outboxOf}), so that replies
     * leave in the order their inputs were recorded in {@link #sentInputs}: a reply that refers to an input
     * never overtakes the one that carries its bytes.
     */
    private final Map<String, Object> outboxes = new ConcurrentHashMap<>();
    /** Thief side: other members' input arrays kept, so their owners may send references instead. */
    private final InputCache<Digest, byte[]> inputCache;

    private ClusterNode(ClusterConfig config, Scheduler scheduler, TransportFactory transports) {
        this.config = config;
        this.scheduler = scheduler;
        this.key = config.key();
        StealSettings s = StealSettings.defaults(scheduler.inFlightWindow());
        if (config.threshold() > 0) {
            s = s.withThreshold(config.threshold());
        }
        if (config.chunk() > 0) {
            s = s.withChunk(config.chunk());
        }
        this.settings = s.withMaxHops(config.maxHops()).withRankFactor(config.rankFactor())
                .withRankChunk(config.rankChunk()).withPushContinuations(config.pushContinuations())
                .withWakeThieves(config.wakeThieves());
        this.baseThreshold = settings.threshold();
        this.slots = Math.max(1, scheduler.device().properties().multiProcessorCount());
        this.gate = new CostGate(settings, costs, bandwidth);
        this.sentInputs = new SentInputs<>(config.inputCacheBytes());
        this.inputCache = new InputCache<>(config.inputCacheBytes());
        this.kernels = new KernelCache(scheduler.device());
        this.epoch = random.nextLong() & Long.MAX_VALUE | 1;
        this.lostAfterNanos = Math.max(config.holdInterval().toNanos() * 8, Duration.ofSeconds(2).toNanos());
        scheduler.addObserver(new ScheduleObserver() {
            @Override
            public void submitted(ElementInfo element, long[] parents) {
                if (element.kind() == dev.polygpu.runtime.ElementKind.KERNEL
                        && !Warmup.KERNEL.equals(element.label())) {
                    long bytes = 0;
                    for (ArrayUse use : element.arrays()) {
                        bytes += Math.max(0, use.bytes());
                    }
                    launchedKernels.put(element.id(), new Launched(element.label(), bytes));
                }
            }

            @Override
            public void completed(long elementId, long startNanos, long endNanos, String failure) {
                Launched kernel = launchedKernels.remove(elementId);
                boolean ranElsewhere = givenAway.remove(elementId);
                if (kernel != null && failure == null && endNanos > startNanos) {
                    synchronized (costs) {
                        costs.observe(kernel.label(), endNanos - startNanos);
                    }
                    if (config.learnSpeeds() && !ranElsewhere) {
                        speeds.recordOwn(shape(kernel.label(), kernel.arrayBytes()), endNanos - startNanos);
                    }
                }
                LockSupport.unpark(ClusterNode.this.loopThread());
            }
        });
        // While Hazelcast starts (seconds in a fresh JVM): afterwards the member asks for work at once.
        CompletableFuture<Long> warm = config.warmUp() ? startWarmUp() : null;
        String nonce = HexFormat.of().formatHex(randomBytes(16));
        Map<String, String> attributes = Map.of(HazelcastTransport.ROLE, config.role().name().toLowerCase(
                java.util.Locale.ROOT), HazelcastTransport.NONCE, nonce, HazelcastTransport.PROOF, proof(nonce));
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
        joinedNanos = System.nanoTime();
        listenAddress = t instanceof HazelcastTransport h ? h.address() : null;
        if (config.faults() != null) {
            t = new FaultyTransport(t, config.faults());
        }
        this.transport = t;
        if (warm != null) {
            try {
                warmUpNanos = warm.join();
            } catch (CompletionException e) {
                // Leaves at once; messages and membership events that came meanwhile are dropped.
                closed = true;
                startFailed = true;
                started.countDown();
                t.close();
                handlers.shutdown();
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }
        // Forgetting after forwarded empty replies stays off (a simulator what-if only); random requests and
        // directories by option.
        this.asThief = new Thief(t.self(), settings, 0, config.randomEvery(), config.directories());
        this.asVictim = new Victim(t.self(), gate, System.nanoTime());
        for (Peer p : transport.peers()) {
            checkProof(p);
        }
        this.loop = Thread.ofVirtual().name("polygpu-cluster-" + shortId(transport.self())).start(this::run);
        started.countDown();
        LOG.log(System.Logger.Level.DEBUG, () -> "joined " + config + " as " + transport.self());
    }

    private Transport startTransport(TransportFactory transports, Map<String, String> attributes) {
        return transports.start(config, attributes, new Transport.Listener() {
            @Override
            public void received(String from, byte[] frame) {
                if (closed) {
                    return;
                }
                if (started.getCount() > 0 || startFailed) {
                    handlers.execute(() -> {
                        if (awaitStarted()) {
                            dispatch(decode(from, frame));
                        }
                    });
                    return;
                }
                Message m = decode(from, frame);
                if (m != null && isQuick(m)) {
                    // On the receiving thread: a hand-off to another thread costs a wake-up, which on a busy
                    // machine is a wait for a core (docs/benchmarks.md, issue #8, eighteenth session).
                    dispatch(m);
                } else if (m != null) {
                    handlers.execute(() -> dispatch(m));
                }
            }

            @Override
            public void membersChanged(List<String> joined, List<String> left) {
                handlers.execute(() -> {
                    if (awaitStarted()) {
                        onMembersChanged(joined, left);
                    }
                });
            }

            @Override
            public void selfLeft(String why) {
                onSelfLeft(why);
            }
        });
    }

    /** Runs {@link Warmup} on a thread of its own. */
    private CompletableFuture<Long> startWarmUp() {
        CompletableFuture<Long> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("polygpu-cluster-warm-up").start(() -> {
            try {
                f.complete(Warmup.run(scheduler, source -> KernelCache.build(scheduler.device(), source), key,
                        config.maxFrameBytes()));
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

    private Thread loopThread() {
        return loop;
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
        return transport.self();
    }

    public ClusterConfig config() {
        return config;
    }

    /** The {@code host:port} this member listens on (an IP address), or null on a transport without one. */
    public String address() {
        return listenAddress;
    }

    /** The stealing policy in force (thresholds resolved against the device's window). */
    public StealSettings settings() {
        return settings;
    }

    /** The ids of the other members now. */
    public List<String> peers() {
        List<String> ids = new ArrayList<>();
        for (Peer p : transport.peers()) {
            ids.add(p.id());
        }
        return ids;
    }

    /** The counters now. */
    public ClusterStats stats() {
        if (!closed) {
            lastMembers = transport.peers().size() + 1;
        }
        return new ClusterStats(transport.self(), lastMembers, stolen.get(), givenCount.get(),
                completedRemote.get(), rerun.get(), rejected.get(), requestCount.get(), rankRequestCount.get(),
                emptyReplies.get(), forwarded.get(), bytesSent.get(), bytesReceived.get(), inputBytesSaved.get(),
                inputCacheMisses.get(), pushed.get(), loadReports.get(), directoryForwards.get(), wakeUps.get(),
                latency.count() == 0 ? -1
                : latency.percentile(50), latency.count() == 0 ? -1 : latency.percentile(99), firstStolenNanos,
                relativeSpeed, settings.threshold(), scheduler.inFlightWindow());
    }

    /** How many members' surplus this member keeps as a directory now (for tests). */
    int directoryEntries() {
        return directory.size();
    }

    /** Elements of this member running elsewhere now. */
    public int away() {
        synchronized (lock) {
            return given.size();
        }
    }

    /** Elements of other members running here now. */
    public int holding() {
        synchronized (lock) {
            int n = 0;
            for (Map<Long, Held> m : held.values()) {
                n += m.size();
            }
            return n;
        }
    }

    // ---- the stealing loop -----------------------------------------------------------------------------------

    private void run() {
        long tick = TimeUnit.MILLISECONDS.toNanos(1);
        long nextHold = System.nanoTime();
        while (!closed) {
            try {
                long now = System.nanoTime();
                tickLoad = null;
                tickSurplus = -1;
                tickTop = -1;
                if (asThief.expire(now)) {
                    emptyReplies.incrementAndGet();
                }
                // Not only when idle: a starving member's back-off does not hold back a request by rank, nor
                // the reverse; the thief decides which may go.
                if (config.stealing() && !leaving && lostReason == null && !asThief.outstanding()) {
                    maybeSteal(now);
                }
                maybeReport();
                maybeWake();
                if (now >= nextHold) {
                    nextHold = now + config.holdInterval().toNanos();
                    sendHolding();
                    reclaimLost(now);
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "the cluster stealing loop hit an error; it goes on", e);
            }
            LockSupport.parkNanos(this, tick);
        }
    }

    /**
     * The device's load for this turn of the stealing loop: taken once (a scan of the ready elements) and shared
     * by the steal and the report decisions. The loop's alone.
     */
    private Scheduler.Load loadThisTick() {
        if (tickLoad == null) {
            tickLoad = scheduler.load();
        }
        return tickLoad;
    }

    /**
     * What this member could give in this turn ({@link LoadDirectory#surplus}), shared by the report and the
     * wake-up decisions. The loop's alone.
     */
    private int surplusThisTick() {
        if (tickSurplus < 0) {
            Scheduler.Load load = loadThisTick();
            tickSurplus = LoadDirectory.surplus(load.ready(), load.stealable(), load.running(), settings);
        }
        return tickSurplus;
    }

    /** The highest rank among this member's stealable elements in this turn (a scan): asked once per turn. */
    private int topRankThisTick() {
        if (tickTop < 0) {
            tickTop = scheduler.topStealableRank();
        }
        return tickTop;
    }

    /**
     * Asks a victim for work if this member is starving (any element), or else for elements of a high enough
     * rank if the elements it would run next rank low ({@link Thief#begin(long, int, int, int, List,
     * RandomGenerator)}, {@link Priority}).
     */
    private void maybeSteal(long now) {
        // Members to ask: with none (no other program), the device's load is not worth taking.
        List<String> candidates = programs();
        if (candidates.size() <= (candidates.contains(transport.self()) ? 1 : 0)) {
            return;
        }
        Scheduler.Load load = loadThisTick();
        // Stolen elements on their way to the scheduler count as running; they are not ranked until submitted.
        int running = load.running() + arriving.get();
        int floorRank = settings.rankFactor() > 0 && !Starvation.starving(load.ready(), running, settings)
                ? scheduler.floorRank(slots) : 0;
        Thief.Request request;
        synchronized (lock) {
            // Under the lock that accepts replies: the elements of a reply accepted meanwhile count.
            request = asThief.begin(now, load.ready(), running, floorRank, candidates, random);
        }
        if (request == null) {
            return;
        }
        requestCount.incrementAndGet();
        if (request.minRank() > 0) {
            rankRequestCount.incrementAndGet();
        }
        send(request.victim(), new StealRequest(transport.self(), request.requestId(), transport.self(), 0,
                request.wanted(), request.minRank()));
    }

    /**
     * Members that may have work to give, in the order every member sees ({@link Transport#members()}):
     * programs that prove the secret and are not leaving, this member included while it is a program that is
     * not leaving. The policy classes never pick this member from it; they pick directories by position in it.
     */
    private List<String> programs() {
        Map<String, Peer> peers = new HashMap<>();
        for (Peer p : transport.peers()) {
            peers.put(p.id(), p);
        }
        String self = transport.self();
        List<String> out = new ArrayList<>();
        for (String id : transport.members()) {
            Peer p = peers.get(id);
            if (id.equals(self) ? config.role() == ClusterConfig.Role.PROGRAM && !leaving
                    : p != null && p.attribute(HazelcastTransport.ROLE).equals("program") && checkProof(p)
                    && !leavingPeers.contains(id)) {
                out.add(id);
            }
        }
        return out;
    }

    /**
     * With directories: reports this member's surplus and the highest rank among its stealable elements to
     * its directory when {@link LoadDirectory#reportDue} says so (none while leaving). Only programs report;
     * workers never have work of their own. Runs on the stealing loop.
     */
    private void maybeReport() {
        if (config.directories() == 0 || !config.stealing() || config.role() != ClusterConfig.Role.PROGRAM) {
            return;
        }
        if (reportAgain) {
            reportAgain = false;
            reported = 0;
            reportedTop = 0;
        }
        int surplus = 0;
        int top = 0;
        if (!leaving && lostReason == null) {
            surplus = surplusThisTick();
            top = surplus > 0 ? topRankThisTick() : 0;
        }
        if (!LoadDirectory.reportDue(reported, reportedTop, surplus, top)) {
            return;
        }
        reported = surplus;
        reportedTop = top;
        String self = transport.self();
        String to = LoadDirectory.directoryFor(self, programs(), config.directories());
        if (to != null && !to.equals(self) && send(to, new LoadReport(self, surplus, top))) {
            loadReports.incrementAndGet();
        }
    }

    /**
     * Wakes the starving thieves this program sent away with nothing, now that it has a surplus: oldest first,
     * at most as many as the surplus, each with a {@link LoadReport} of it ({@link TurnedAway}). Runs on the
     * stealing loop; costs one test of an empty list while nobody waits.
     */
    private void maybeWake() {
        if (turnedAway.isEmpty() || leaving || lostReason != null) {
            return;
        }
        int surplus = surplusThisTick();
        if (surplus == 0) {
            return;
        }
        int top = topRankThisTick();
        String self = transport.self();
        for (String thief : turnedAway.take(surplus)) {
            if (!isProven(thief) || leavingPeers.contains(thief)) {
                continue;
            }
            // The answer its request did not get then: work, as a reply would have carried it, so that the thief
            // need not ask again first (two messages fewer before it runs). A load report if the gate keeps all.
            // Counted first, as the thief may answer (and a reader of the counters look) before this goes on.
            wakeUps.incrementAndGet();
            boolean sent;
            synchronized (outboxOf(thief)) {
                List<WorkItem> items = List.of();
                if (config.stealing()) {
                    Scheduler.Load load = scheduler.load();
                    items = take(thief, asVictim.offer(load.ready(), load.stealable(), load.running(),
                            settings.threshold()), 0, load);
                }
                sent = !items.isEmpty() ? deliver(thief, StealReply.pushed(self, items))
                        : send(thief, new LoadReport(self, surplus, top));
            }
            if (!sent) {
                wakeUps.decrementAndGet();
            }
        }
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

    /** The message a frame holds, or null (counted and logged) if it is refused. */
    private Message decode(String from, byte[] frame) {
        Message m;
        try {
            m = WireCodec.decode(frame, key, config.maxFrameBytes());
        } catch (WireException e) {
            rejected.incrementAndGet();
            String who = from == null ? "a member that left" : describe(from);
            if (refusedLogged.add("frame:" + from + ":" + e.reason())) {
                LOG.log(System.Logger.Level.WARNING, "refused a message from " + who + ": " + e.getMessage()
                        + (e.reason() == WireException.Reason.BAD_MAC ? " (it does not prove the cluster secret; "
                        + "give every member the same " + SECRET_SETTINGS + ")" : ""));
            }
            return null;
        }
        if (from != null && !from.equals(m.sender())) {
            rejected.incrementAndGet();
            LOG.log(System.Logger.Level.WARNING, "refused a message that " + describe(from) + " sent in the name of "
                    + m.sender());
            return null;
        }
        return m;
    }

    /** Handles a decoded message (nothing for null: a refused frame). */
    private void dispatch(Message m) {
        if (m == null) {
            return;
        }
        try {
            switch (m) {
                case StealRequest r -> onStealRequest(r);
                case StealReply r -> onStealReply(r);
                case WorkResult r -> onWorkResult(r);
                case Handback h -> onHandback(h);
                case Holding h -> onHolding(h);
                case Leaving l -> leavingPeers.add(l.sender());
                case LoadReport l -> onLoadReport(l);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "handling " + m.getClass().getSimpleName() + " from "
                    + describe(m.sender()) + " failed", e);
        }
    }

    /**
     * A program's load: as a directory, this member keeps it; as a thief that the program sent away before, it
     * asks again at once instead of waiting out its back-off ({@link Thief#wake}).
     */
    private void onLoadReport(LoadReport l) {
        if (!isProven(l.sender())) {
            rejected.incrementAndGet();
        } else if (leavingPeers.contains(l.sender())) {
            directory.forget(l.sender());
        } else {
            if (config.role() == ClusterConfig.Role.PROGRAM) {
                directory.report(l.sender(), l.surplus(), l.topRank());
            }
            if (l.surplus() > 0 && settings.wakeThieves() && config.stealing() && !leaving) {
                if (asThief.wake(l.sender(), System.nanoTime())) {
                    LockSupport.unpark(loop);
                }
            }
        }
    }

    private void onStealRequest(StealRequest r) {
        String thief = r.thief();
        if (thief.equals(transport.self())) {
            // Forwarded back to its own thief: nothing here for it.
            onStealReply(new StealReply(transport.self(), r.requestId(), List.of()));
            return;
        }
        List<WorkItem> items = List.of();
        boolean nothingToGive = false;
        if (config.stealing() && !leaving && lostReason == null && isProven(thief)) {
            synchronized (outboxOf(thief)) {
                Scheduler.Load load = scheduler.load();
                int n = asVictim.offer(load.ready(), load.stealable(), load.running(), r.wanted());
                nothingToGive = n == 0;
                items = take(thief, n, r.minRank(), load);
                if (!items.isEmpty()) {
                    deliver(thief, new StealReply(transport.self(), r.requestId(), items));
                }
            }
        } else if (!isProven(thief)) {
            rejected.incrementAndGet();
        }
        if (!items.isEmpty()) {
            turnedAway.remove(thief);
            return;
        }
        if (nothingToGive && r.minRank() == 0 && settings.wakeThieves()
                && config.role() == ClusterConfig.Role.PROGRAM) {
            // Sent away starving: told as soon as there is work here (forwarded or not, it found none here).
            turnedAway.add(thief);
        }
        List<String> candidates = programs();
        String next = null;
        if (config.directories() > 0 && r.hops() < settings.maxHops()) {
            // As a directory: to the member that reported the most of what the request asks for.
            next = directory.take(thief, transport.self(), r.wanted(), r.minRank(), candidates);
            if (next != null) {
                directoryForwards.incrementAndGet();
            }
        }
        if (next == null) {
            synchronized (lock) {
                next = asVictim.forwardTo(thief, r.hops(), asThief.lastVictim(), candidates, random);
            }
        }
        if (next != null) {
            forwarded.incrementAndGet();
            send(next, new StealRequest(transport.self(), r.requestId(), thief, r.hops() + 1, r.wanted(),
                    r.minRank()));
        } else {
            send(thief, new StealReply(transport.self(), r.requestId(), List.of()));
        }
    }

    /**
     * Takes up to {@code n} elements of rank at least {@code minRank} for {@code thief}, highest rank first,
     * those the cost gate lets move ({@link #worthMoving}), each registered as given and packed with its inputs
     * ({@link #give}); fewer (or none) when the queue or the gate runs out, or this member started leaving.
     */
    private List<WorkItem> take(String thief, int n, int minRank, Scheduler.Load load) {
        List<WorkItem> items = new ArrayList<>(n);
        long now = System.nanoTime();
        Set<Long> packed = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            int given = i;
            StolenElement e = scheduler.steal(minRank, el -> worthMoving(el, given, load, slots, now));
            if (e == null) {
                break;
            }
            WorkItem item = give(e, thief, packed);
            if (item == null) {
                break;
            }
            items.add(item);
            asVictim.gave(now);
        }
        return items;
    }

    /**
     * Sends a reply with work to its thief; if the thief cannot be reached, takes the elements back (pinned
     * here) and forgets which inputs it holds.
     */
    private boolean deliver(String thief, StealReply reply) {
        if (send(thief, reply)) {
            return true;
        }
        sentInputs.forget(thief);
        for (WorkItem item : reply.items()) {
            takeBack(item.stealId(), thief, "its thief could not be reached", true);
        }
        return false;
    }

    /**
     * Whether {@code e}, the {@code given}-th element of a reply, may move ({@link Victim#mayMove}): its
     * bytes are those of the arrays it reads.
     */
    private boolean worthMoving(ComputationalElement e, int given, Scheduler.Load load, int slots, long now) {
        long bytes = 0;
        for (Access a : e.accesses()) {
            if (a.mode().reads()) {
                bytes += a.array().bytes();
            }
        }
        synchronized (costs) {
            return asVictim.mayMove(given, e.label(), bytes, load.ready(), load.running(), slots, now);
        }
    }

    /**
     * Registers a taken element and packs it with the arrays it reads, except those an earlier element of the
     * same reply carries ({@code packed}: their contents are the same, as no writer of them can have run between
     * two elements that were ready together). An array goes as a reference when the thief holds it with the
     * same contents ({@link SentInputs}), otherwise as bytes with their digest. Null (and the element back in
     * the queue) if this member started leaving or left meanwhile.
     *
     * <p>The contents cannot change while the element is away: a later writer of any array it reads waits for
     * it (write-after-read), and so does a host write.
     */
    private WorkItem give(StolenElement e, String thief, Set<Long> packed) {
        List<ArrayData> inputs = new ArrayList<>();
        long allBytes = 0;
        for (Access a : e.element().accesses()) {
            allBytes += a.array().bytes();
        }
        String shape = config.learnSpeeds() ? shape(e.element().label(), allBytes) : null;
        long bytes = 0;
        for (Access a : e.element().accesses()) {
            if (a.mode().reads() && packed.add(a.array().id())) {
                MemorySegment view = a.array().buffer().hostView().asSlice(0, a.array().bytes());
                long id = a.array().id();
                if (config.inputCacheBytes() == 0) {
                    byte[] data = view.toArray(ValueLayout.JAVA_BYTE);
                    inputs.add(new ArrayData(id, 0, data));
                    bytes += data.length;
                    continue;
                }
                Digest digest = Digest.of(view);
                if (sentInputs.holds(thief, id, digest)) {
                    inputs.add(ArrayData.reference(id, 0, digest));
                    inputBytesSaved.addAndGet(view.byteSize());
                } else {
                    byte[] data = view.toArray(ValueLayout.JAVA_BYTE);
                    inputs.add(new ArrayData(id, 0, data, digest));
                    sentInputs.sent(thief, id, digest, data.length);
                    bytes += data.length;
                }
            }
        }
        long id;
        synchronized (lock) {
            if (leaving || lostReason != null) {
                id = -1;
            } else {
                id = nextStealId++;
                given.put(id, new Given(id, e, thief, epoch, System.nanoTime(), bytes, e.element().label(), shape));
                givenAway.add(e.id());
            }
        }
        if (id < 0) {
            e.giveBack();
            return null;
        }
        givenCount.incrementAndGet();
        bytesSent.addAndGet(bytes);
        return new WorkItem(id, epoch, e.message(), inputs, e.rank(),
                config.learnSpeeds() ? Math.max(0, speeds.expectedOwn(shape)) : 0);
    }

    private void onStealReply(StealReply r) {
        long now = System.nanoTime();
        boolean current;
        long latencyNanos;
        synchronized (lock) {
            // A pushed reply answers no request: the thief's request state is not the owner's concern.
            current = r.pushed() || asThief.accept(r.requestId(), r.sender(), r.items().size(), now);
            latencyNanos = current && !r.pushed() ? asThief.lastLatencyNanos() : 0;
            if (current) {
                arriving.addAndGet(r.items().size());
            }
        }
        // The inputs of the whole reply: an array several of its elements read comes once, as bytes or as a
        // reference to what this member keeps. References are resolved before the reply's new arrays are kept,
        // so that those cannot evict an array the same reply refers to.
        Map<Long, byte[]> inputs = new HashMap<>();
        Set<Long> missing = new java.util.HashSet<>();
        if (current) {
            for (WorkItem item : r.items()) {
                for (ArrayData d : item.inputs()) {
                    byte[] bytes = d.isReference() ? inputCache.get(r.sender(), d.arrayId(), d.digest())
                            : d.bytes();
                    if (bytes != null) {
                        inputs.put(d.arrayId(), bytes);
                    } else {
                        missing.add(d.arrayId());
                    }
                }
            }
        }
        // Kept whether or not the reply is current: the owner now believes this member holds them.
        for (WorkItem item : r.items()) {
            for (ArrayData d : item.inputs()) {
                if (!d.isReference()) {
                    bytesReceived.addAndGet(d.bytes().length);
                    if (d.digest() != null) {
                        inputCache.put(r.sender(), d.arrayId(), d.digest(), d.bytes(), d.bytes().length);
                    }
                }
            }
        }
        if (!current) {
            rejected.incrementAndGet();
            if (!r.items().isEmpty()) {
                List<Long> ids = new ArrayList<>();
                for (WorkItem item : r.items()) {
                    ids.add(item.stealId());
                }
                send(r.sender(), new Handback(transport.self(), ids, HandbackReason.STALE_REPLY));
            }
            return;
        }
        if (r.items().isEmpty()) {
            emptyReplies.incrementAndGet();
            return;
        }
        if (!r.pushed()) {
            latency.record(latencyNanos);
        } else if (settings.wakeThieves() && asThief.wake(r.sender(), now)) {
            // Work from a member that has more: a back-off from empty replies ends.
            LockSupport.unpark(loop);
        }
        List<KernelFunction> compiled = compiledKernels(r);
        if (compiled != null) {
            runReply(r, compiled, inputs, missing, now);
        } else {
            // Compiling takes long: not on the receiving thread, which the next messages wait for.
            handlers.execute(() -> runReply(r, null, inputs, missing, now));
        }
    }

    /**
     * The kernels of the elements of {@code r}, in order, when every one is compiled here already (null for an
     * element without source, which cannot run); null when one needs compiling.
     */
    private List<KernelFunction> compiledKernels(StealReply r) {
        List<KernelFunction> functions = new ArrayList<>(r.items().size());
        for (WorkItem item : r.items()) {
            KernelSource source = item.element().source();
            KernelFunction f = source == null ? null : kernels.compiled(source);
            if (source != null && f == null) {
                return null;
            }
            functions.add(f);
        }
        return functions;
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
                if (readsAny(item, missing)) {
                    unrunnable.add(item.stealId());
                } else {
                    runStolen(r.sender(), item, compiled == null ? null : compiled.get(i), inputs, now);
                }
            } finally {
                arriving.decrementAndGet();
            }
        }
        if (!unrunnable.isEmpty()) {
            // Evicted here since the owner sent them: it forgets what it believed, and sends bytes next time.
            inputCacheMisses.addAndGet(missing.size());
            LOG.log(System.Logger.Level.DEBUG, () -> "handing " + unrunnable.size() + " elements back to "
                    + describe(r.sender()) + ": arrays " + missing + " are no longer kept here");
            send(r.sender(), new Handback(transport.self(), unrunnable, HandbackReason.MISSING_INPUT));
        }
        LockSupport.unpark(loop);
    }

    /**
     * Whether {@code item} reads one of the arrays {@code missing} (by the owner's ids). Its arguments say, not
     * its inputs: an array several elements of a reply read comes with the first of them only.
     */
    private static boolean readsAny(WorkItem item, Set<Long> missing) {
        if (missing.isEmpty()) {
            return false;
        }
        for (ElementMessage.Arg a : item.element().args()) {
            if (a instanceof ElementMessage.ArrayArg arr && arr.mode().reads() && missing.contains(arr.arrayId())) {
                return true;
            }
        }
        return false;
    }

    /** Runs an element of {@code owner} here and sends its results home when it completes. */
    private void runStolen(String owner, WorkItem item, KernelFunction compiled, Map<Long, byte[]> inputs,
            long receivedNanos) {
        Held h = new Held(owner, item.stealId(), item.epoch(), receivedNanos, item.expectedNanos());
        if (leaving || lostReason != null) {
            send(owner, new Handback(transport.self(), List.of(item.stealId()), HandbackReason.LEAVING));
            return;
        }
        synchronized (lock) {
            held.computeIfAbsent(owner, o -> new HashMap<>()).put(item.stealId(), h);
        }
        Map<Long, TrackedArray> arrays = Map.of();
        try {
            ElementMessage m = item.element();
            if (m.source() == null) {
                throw new DeviceException(CudaError.NOT_SUPPORTED, "the element carries no kernel source");
            }
            KernelFunction function = compiled != null ? compiled : kernels.get(m.source());
            StolenElements.Prepared p = StolenElements.prepare(scheduler, function, "member " + shortId(owner), m,
                    inputs);
            arrays = p.arrays();
            long submitted = System.nanoTime();
            if (firstStolenNanos < 0) {
                firstStolenNanos = submitted - joinedNanos;
            }
            // Counted first: the element can run and its result settle at home before submitHere returns, and
            // whoever then reads the counters must find it. Uncounted again if it is refused.
            stolen.incrementAndGet();
            try {
                // With its rank at home: an element asked for by rank runs ahead of the lower-ranked work here.
                scheduler.submitHere(p.element(), item.rank(), (error, runNanos) -> finishStolen(h, m, p.arrays(),
                        runNanos, error));
            } catch (RuntimeException e) {
                stolen.decrementAndGet();
                throw e;
            }
        } catch (RuntimeException e) {
            // It cannot run here (compile error on this device, a launch this device refuses, no memory):
            // the owner runs it, which gives the authoritative result.
            LOG.log(System.Logger.Level.WARNING, "cannot run " + item.element().label() + " from "
                    + describe(owner) + " here; handing it back: " + e.getMessage());
            StolenElements.release(scheduler, arrays);
            dropHeld(h);
            send(owner, new Handback(transport.self(), List.of(item.stealId()), HandbackReason.CANNOT_RUN));
        }
    }

    private void finishStolen(Held h, ElementMessage m, Map<Long, TrackedArray> arrays, long runNanos,
            DeviceException error) {
        long now = System.nanoTime();
        if (error == null && config.learnSpeeds() && speeds.observe(h.owner, runNanos, h.ownerExpectedNanos)) {
            followSpeed();
        }
        try {
            if (h.abandoned) {
                return;
            }
            List<ArrayData> outputs = error == null ? StolenElements.outputs(m, arrays) : List.of();
            long bytes = 0;
            for (ArrayData d : outputs) {
                bytes += d.bytes().length;
            }
            WorkResult result = new WorkResult(transport.self(), h.stealId, h.epoch, error == null,
                    error == null ? null : shorten(error.error().name() + ": " + error.getMessage()),
                    Math.max(0, now - h.receivedNanos - runNanos), runNanos, outputs, othersHeld());
            if (send(h.owner, result)) {
                bytesSent.addAndGet(bytes);
            }
        } finally {
            StolenElements.release(scheduler, arrays);
            dropHeld(h);
            LockSupport.unpark(loop);
        }
    }

    /**
     * Stolen elements this member holds besides the one whose result it is sending (which is still in
     * {@link #held}), received ones not yet submitted included; never below 0 (a leave may have cleared the table).
     */
    private int othersHeld() {
        return Math.max(0, holding() - 1 + arriving.get());
    }

    private void dropHeld(Held h) {
        synchronized (lock) {
            Map<Long, Held> m = held.get(h.owner);
            if (m != null) {
                m.remove(h.stealId, h);
                if (m.isEmpty()) {
                    held.remove(h.owner);
                }
            }
            lock.notifyAll();
        }
    }

    private void onWorkResult(WorkResult r) {
        Given g;
        synchronized (lock) {
            g = given.get(r.stealId());
            if (g == null || !g.thief.equals(r.sender()) || g.epoch != r.epoch()) {
                rejected.incrementAndGet();
                boolean fromDead = dead.containsKey(r.sender());
                LOG.log(System.Logger.Level.DEBUG, () -> "dropped a " + (fromDead ? "late" : "duplicate or stale")
                        + " result for steal " + r.stealId() + " from " + describe(r.sender()));
                return;
            }
            given.remove(r.stealId());
        }
        // Counters first: settling the element may release a host thread that reads them.
        if (!r.ok()) {
            completedRemote.incrementAndGet();
            g.element.fail(new DeviceException(CudaError.LAUNCH_FAILED, "it ran on cluster member "
                    + describe(r.sender()) + " and failed there: " + r.error()));
            return;
        }
        String invalid = checkOutputs(g.element.element(), r.outputs());
        if (invalid != null) {
            rejected.incrementAndGet();
            LOG.log(System.Logger.Level.WARNING, "refused the result of " + g.element.element().label() + " from "
                    + describe(r.sender()) + " (" + invalid + "); running it here");
            rerun.incrementAndGet();
            g.element.giveBack();
            return;
        }
        long bytes = 0;
        for (ArrayData d : r.outputs()) {
            TrackedArray t = arrayOf(g.element.element(), d.arrayId());
            MemorySegment.copy(d.bytes(), 0, t.buffer().hostView(), ValueLayout.JAVA_BYTE, d.byteOffset(),
                    d.bytes().length);
            bytes += d.bytes().length;
        }
        bytesReceived.addAndGet(bytes);
        long now = System.nanoTime();
        completedRemote.incrementAndGet();
        StolenElement next = null;
        if (mayPushTo(r.sender())) {
            int holds = r.thiefHolds();
            next = g.element.completeAndTake(shortId(r.sender()), now - r.runNanos(), now, (child, load) ->
                    asVictim.pushContinuation(holds, load.ready(), load.stealable(), load.running())
                    && worthMoving(child, 0, load, slots, now));
        } else {
            g.element.complete(shortId(r.sender()), now - r.runNanos(), now);
        }
        if (next != null) {
            push(next, r.sender(), now);
        }
        long transfer = now - g.sentNanos - r.queueNanos() - r.runNanos();
        synchronized (costs) {
            costs.observe(g.kernel, r.runNanos());
            if (transfer > 0) {
                bandwidth.observe(g.inputBytes + bytes, transfer);
            }
        }
        if (config.learnSpeeds() && speeds.observeShape(r.sender(), g.shape, r.runNanos())) {
            followSpeed();
        }
    }

    /**
     * An element's shape for learning speeds: its kernel and the bytes of the arrays it uses. Run times of one
     * kernel differ with its arrays' sizes; members compare times of elements of one shape. Computed alike by
     * the owner (from the element) and by a thief (from the copy it runs, whose arrays have the owner's sizes).
     */
    static String shape(String kernel, long arrayBytes) {
        return kernel + '/' + arrayBytes;
    }

    /**
     * A kernel launched on this device: its name (the cost model's key) and the bytes of its arrays (its
     * {@link #shape}, made only when a run time is recorded: the observer sees every launch).
     */
    private record Launched(String label, long arrayBytes) {
    }

    /**
     * After a sample of this member's speed: with {@link ClusterConfig#learnSpeeds()}, its steal threshold (thief,
     * victim, the surplus it reports) and the scheduler's in-flight window follow the relative speed it has learnt
     * ({@link SpeedEstimate#threshold}, {@link SpeedEstimate#window}): a member four times slower than the others
     * keeps about a quarter of what they keep, so that what it holds does not become the run's tail.
     */
    private void followSpeed() {
        // Not under the estimate's own lock: the scheduler's observer records run times into it while it holds
        // the scheduler's lock, which setInFlightWindow takes.
        synchronized (followLock) {
            double relative = speeds.relative();
            if (relative == relativeSpeed) {
                return;
            }
            relativeSpeed = relative;
            int threshold = SpeedEstimate.threshold(baseThreshold, relative);
            int window = SpeedEstimate.window(scheduler.configuredInFlightWindow(), slots, relative);
            if (threshold != settings.threshold()) {
                settings = settings.withThreshold(threshold);
                asThief.setThreshold(threshold);
                asVictim.setThreshold(threshold);
            }
            if (window != scheduler.inFlightWindow()) {
                scheduler.setInFlightWindow(window);
            }
            LOG.log(System.Logger.Level.DEBUG, () -> String.format(java.util.Locale.ROOT, "%s: speed %.2f of the "
                    + "fastest member's; threshold %d, window %d", shortId(transport.self()), relative, threshold,
                    window));
        }
    }

    /** Whether this member may push the next link of a chain to {@code thief} now. */
    private boolean mayPushTo(String thief) {
        return settings.pushContinuations() && config.stealing() && !leaving && lostReason == null
                && !leavingPeers.contains(thief) && isProven(thief);
    }

    /** Sends {@code e}, the next link of a chain, to {@code thief} unasked ({@link Victim#pushContinuation}). */
    private void push(StolenElement e, String thief, long now) {
        boolean sent;
        synchronized (outboxOf(thief)) {
            WorkItem item = give(e, thief, new java.util.HashSet<>());
            if (item == null) {
                return;
            }
            asVictim.gave(now);
            sent = deliver(thief, StealReply.pushed(transport.self(), List.of(item)));
        }
        if (sent) {
            pushed.incrementAndGet();
        }
    }

    /** The lock held while a reply to {@code thief} is packed and sent ({@link #outboxes}). */
    private Object outboxOf(String thief) {
        return outboxes.computeIfAbsent(thief, t -> new Object());
    }

    /** Null if the outputs write only arrays the element writes, within their sizes; else what is wrong. */
    private static String checkOutputs(ComputationalElement e, List<ArrayData> outputs) {
        for (ArrayData d : outputs) {
            if (d.isReference()) {
                return "it returned a reference instead of the bytes of array " + d.arrayId();
            }
            TrackedArray t = arrayOf(e, d.arrayId());
            if (t == null) {
                return "it returned bytes for array " + d.arrayId() + ", which the element does not write";
            }
            if (d.byteOffset() < 0 || d.byteOffset() + d.bytes().length > t.bytes()) {
                return "it returned bytes " + d.byteOffset() + ".." + (d.byteOffset() + d.bytes().length)
                        + " for array " + t.name() + " of " + t.bytes() + " bytes";
            }
        }
        return null;
    }

    private static TrackedArray arrayOf(ComputationalElement e, long arrayId) {
        for (Access a : e.accesses()) {
            if (a.array().id() == arrayId && a.mode().writes()) {
                return a.array();
            }
        }
        return null;
    }

    private void onHandback(Handback h) {
        for (long id : h.stealIds()) {
            // Late replies and leaving thieves never tried the element: it may go to another thief. An element
            // its thief cannot run stays here.
            takeBack(id, h.sender(), switch (h.reason()) {
                case STALE_REPLY -> "its thief had given up waiting for it";
                case LEAVING -> "its thief is leaving the cluster";
                case CANNOT_RUN -> "its thief cannot run it";
                case MISSING_INPUT -> "its thief no longer kept an input sent as a reference";
            }, h.reason() == HandbackReason.CANNOT_RUN);
        }
        if (h.reason() == HandbackReason.MISSING_INPUT) {
            sentInputs.forget(h.sender());
        }
    }

    /**
     * Takes a given element back (pinned here if {@code pin}, else stealable again); false if it is not (or no
     * longer) away with {@code thief}.
     */
    private boolean takeBack(long stealId, String thief, String why, boolean pin) {
        Given g;
        synchronized (lock) {
            g = given.get(stealId);
            if (g == null || !g.thief.equals(thief)) {
                return false;
            }
            given.remove(stealId);
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "took " + g.element.element().label() + " back: " + why);
        rerun.incrementAndGet();
        if (pin) {
            g.element.giveBack();
        } else {
            g.element.putBack();
        }
        return true;
    }

    private void onHolding(Holding h) {
        long now = System.nanoTime();
        synchronized (lock) {
            for (long id : h.stealIds()) {
                Given g = given.get(id);
                if (g != null && g.thief.equals(h.sender())) {
                    g.lastHeardNanos = now;
                }
            }
        }
    }

    /** Thief side: tells each owner which of its elements run here, so it does not re-run them. */
    private void sendHolding() {
        Map<String, List<Long>> byOwner = new HashMap<>();
        synchronized (lock) {
            for (Map.Entry<String, Map<Long, Held>> e : held.entrySet()) {
                byOwner.put(e.getKey(), new ArrayList<>(e.getValue().keySet()));
            }
        }
        for (Map.Entry<String, List<Long>> e : byOwner.entrySet()) {
            send(e.getKey(), new Holding(transport.self(), e.getValue()));
        }
    }

    /** Owner side: elements whose thief has not mentioned them for a while are lost; they run here. */
    private void reclaimLost(long now) {
        List<Given> lost = new ArrayList<>();
        synchronized (lock) {
            for (Iterator<Given> it = given.values().iterator(); it.hasNext();) {
                Given g = it.next();
                if (now - g.lastHeardNanos > lostAfterNanos) {
                    it.remove();
                    lost.add(g);
                }
            }
        }
        for (Given g : lost) {
            LOG.log(System.Logger.Level.INFO, "no word from " + describe(g.thief) + " on "
                    + g.element.element().label() + " for " + (now - g.lastHeardNanos) / 1_000_000
                    + " ms; running it here");
            rerun.incrementAndGet();
            g.element.giveBack();
        }
    }

    private void onMembersChanged(List<String> joined, List<String> left) {
        asThief.resetBackOff();
        // The directories may have changed: the next report goes to this member's directory at once.
        reportAgain = true;
        for (String id : joined) {
            for (Peer p : transport.peers()) {
                if (p.id().equals(id)) {
                    checkProof(p);
                }
            }
        }
        LockSupport.unpark(loop);
        if (left.isEmpty()) {
            return;
        }
        List<Given> orphans = new ArrayList<>();
        synchronized (lock) {
            for (String id : left) {
                speeds.forget(id);
                sentInputs.forget(id);
                outboxes.remove(id);
                inputCache.forgetOwner(id);
                directory.forget(id);
                turnedAway.remove(id);
                proven.remove(id);
                dead.put(id, Boolean.TRUE);
                if (asThief.forget(id)) {
                    emptyReplies.incrementAndGet();
                }
                leavingPeers.remove(id);
                Map<Long, Held> theirs = held.remove(id);
                if (theirs != null) {
                    for (Held h : theirs.values()) {
                        h.abandoned = true;
                    }
                }
            }
            for (Iterator<Given> it = given.values().iterator(); it.hasNext();) {
                Given g = it.next();
                if (left.contains(g.thief)) {
                    it.remove();
                    orphans.add(g);
                }
            }
            lock.notifyAll();
        }
        for (Given g : orphans) {
            LOG.log(System.Logger.Level.INFO, describe(g.thief) + " left while running "
                    + g.element.element().label() + "; running it here from the inputs kept");
            rerun.incrementAndGet();
            g.element.giveBack();
        }
    }

    /** This member is out of the cluster: what ran elsewhere cannot come back, so it fails with the reason. */
    private void onSelfLeft(String why) {
        List<Given> away;
        synchronized (lock) {
            if (closed || lostReason != null) {
                return;
            }
            lostReason = why;
            away = new ArrayList<>(given.values());
            given.clear();
        }
        LOG.log(System.Logger.Level.ERROR, "this member left the cluster: " + why);
        for (Given g : away) {
            g.element.fail(new DeviceException(CudaError.LAUNCH_FAILED, "it was running on cluster member "
                    + describe(g.thief) + " when this member left the cluster (" + why + "); its results cannot "
                    + "come back. Restart the program; check the network and --cluster-fail-after"));
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
        synchronized (lock) {
            if (closed || leaving) {
                return;
            }
            leaving = true;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        broadcast(new Leaving(transport.self()));
        synchronized (lock) {
            // Others' elements here finish and go home; this member's elements elsewhere come back.
            while ((!held.isEmpty() || !given.isEmpty()) && System.nanoTime() < deadline) {
                try {
                    // Polls: results settle elements on handler threads without notifying.
                    lock.wait(Math.max(1, Math.min(10, (deadline - System.nanoTime()) / 1_000_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        Map<String, List<Long>> unfinished = new HashMap<>();
        List<Given> away;
        synchronized (lock) {
            for (Map.Entry<String, Map<Long, Held>> e : held.entrySet()) {
                for (Held h : e.getValue().values()) {
                    h.abandoned = true;
                    unfinished.computeIfAbsent(e.getKey(), o -> new ArrayList<>()).add(h.stealId);
                }
            }
            held.clear();
            away = new ArrayList<>(given.values());
            given.clear();
        }
        for (Map.Entry<String, List<Long>> e : unfinished.entrySet()) {
            send(e.getKey(), new Handback(transport.self(), e.getValue(), HandbackReason.LEAVING));
        }
        for (Given g : away) {
            rerun.incrementAndGet();
            g.element.giveBack();
        }
        lastMembers = transport.peers().size() + 1;
        closed = true;
        LockSupport.unpark(loop);
        transport.close();
        handlers.shutdown();
    }

    /** {@link #leave} with {@link #LEAVE_TIMEOUT}. */
    @Override
    public void close() {
        leave(LEAVE_TIMEOUT);
    }

    /** Ends the member at once, as a crash would: for tests of the survivors. */
    void crash() {
        closed = true;
        LockSupport.unpark(loop);
        if (transport instanceof HazelcastTransport h) {
            h.kill();
        } else if (transport instanceof FaultyTransport f) {
            f.kill();
        } else {
            transport.close();
        }
        handlers.shutdownNow();
    }

    /** Takes this member out of the cluster under the node, as a network split or Hazelcast failure would. */
    void dropOutOfClusterForTest() {
        Transport t = transport instanceof FaultyTransport f ? f.inner() : transport;
        ((HazelcastTransport) t).terminateUnderneath();
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private boolean send(String member, Message m) {
        if (transport == null) {
            return false;
        }
        return transport.send(member, WireCodec.encode(m, key));
    }

    private void broadcast(Message m) {
        byte[] frame = WireCodec.encode(m, key);
        for (Peer p : transport.peers()) {
            transport.send(p.id(), frame);
        }
    }

    private boolean isProven(String member) {
        for (Peer p : transport.peers()) {
            if (p.id().equals(member)) {
                return checkProof(p);
            }
        }
        return false;
    }

    /** True if the peer proved it knows the secret when it joined; logs a refusal once per member. */
    private boolean checkProof(Peer p) {
        // A member's id and attributes are fixed for its life: the HMAC is computed once per member.
        boolean ok = proven.computeIfAbsent(p.id(), id -> {
            String nonce = p.attribute(HazelcastTransport.NONCE);
            return !nonce.isEmpty() && java.security.MessageDigest.isEqual(
                    proof(nonce).getBytes(StandardCharsets.US_ASCII),
                    p.attribute(HazelcastTransport.PROOF).getBytes(StandardCharsets.US_ASCII));
        });
        if (!ok && refusedLogged.add("proof:" + p.id())) {
            rejected.incrementAndGet();
            LOG.log(System.Logger.Level.WARNING, "refusing cluster member " + p.address() + " (" + p.id()
                    + "): it does not prove the cluster secret. It gets no work and its messages are dropped; "
                    + "give every member the same " + SECRET_SETTINGS);
        }
        return ok;
    }

    private String proof(String nonce) {
        return proof(key, config.clusterName(), nonce);
    }

    /** What a member that knows {@code key} announces, with its {@code nonce}, when it joins cluster {@code name}. */
    static String proof(SharedSecret key, String name, String nonce) {
        byte[] data = ("polygpu-member:" + name + ":" + nonce).getBytes(StandardCharsets.UTF_8);
        return HexFormat.of().formatHex(key.mac(data, 0, data.length));
    }

    /** A member for messages; never throws (it is used on the way to settling elements). */
    private String describe(String member) {
        if (member == null) {
            return "an unknown member";
        }
        List<Peer> peers;
        try {
            peers = transport.peers();
        } catch (RuntimeException e) {
            peers = List.of();
        }
        for (Peer p : peers) {
            if (p.id().equals(member)) {
                return "member " + p.address() + " (" + shortId(member) + ")";
            }
        }
        return "member " + shortId(member);
    }

    /** An error message short enough for a result message (the wire format caps strings at 64 KiB). */
    static String shorten(String message) {
        return message.length() <= 8000 ? message : message.substring(0, 8000) + " … (cut)";
    }

    static String shortId(String id) {
        return id.length() > 8 ? id.substring(0, 8) : id;
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new java.security.SecureRandom().nextBytes(b);
        return b;
    }
}
