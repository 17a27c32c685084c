package dev.polygpu.bench.cluster;

import dev.polygpu.cli.CommandLines;
import dev.polygpu.cluster.ClusterConfig;
import dev.polygpu.cluster.ClusterStats;
import dev.polygpu.runtime.trace.ChromeTraceWriter;
import dev.polygpu.runtime.trace.RecordedDag;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Issue #8's cluster benchmark ({@code bench/cluster}): a block-sparse matrix product whose kernels are all
 * submitted at one member (the program, in this JVM) and spread by work stealing over worker members that are
 * real processes ({@code dev.polygpu.cluster.Worker}) on loopback, each with a CPU device of a fixed number of
 * concurrent blocks. Kernels spend their device time in {@code __nanosleep} (a wait that holds a block but no
 * core), so "perfect balance" means the same on one small machine as on GPUs.
 *
 * <p>Configurations: the program alone (the real total device time), the program and the workers with stealing
 * disabled on every member, and with stealing; then join-to-work: a worker started while a run is going. Every
 * run's C is checked bit for bit against a plain-Java product, and a wrong result fails the benchmark. Prints
 * Markdown tables on stdout and progress on stderr; exit status 1 on a failure, 2 on bad arguments. Worker
 * processes are stopped on every path out (and killed by a shutdown hook if the benchmark is interrupted).
 */
public final class ClusterBench {
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration LEAVE_TIMEOUT = Duration.ofSeconds(60);
    /** The longest a join-to-work run keeps submitting while it waits for the late worker's first kernel. */
    private static final Duration LATE_WORK_TIMEOUT = Duration.ofSeconds(30);
    private static final Set<WorkerProcess> LIVE = ConcurrentHashMap.newKeySet();

    private final BenchOptions options;
    private final BlockSparse matrices;
    private final float[] reference;
    private final PrintStream out = System.out;
    private final PrintStream log = System.err;
    private final String javaBinary = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private final String classPath = System.getProperty("java.class.path");
    private final List<String> workerJvm;
    private int clusters;
    private int workerCount;

    private ClusterBench(BenchOptions options) {
        this.options = options;
        this.matrices = BlockSparse.random(options.tiles(), options.tileSize(), options.zeroFraction(),
                options.seed());
        this.reference = matrices.referenceProduct();
        String jvm = System.getProperty("polygpu.bench.workerJvm", "--enable-native-access=ALL-UNNAMED "
                + "--add-modules jdk.incubator.vector --sun-misc-unsafe-memory-access=allow -XX:+UseSerialGC -Xmx1g");
        this.workerJvm = List.of(jvm.strip().split("\\s+"));
    }

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new BenchOptions.Flags(ClusterBench::runWith), System.out, System.err, args));
    }

    /** Runs the benchmark with {@code options}, stopping every worker process on the way out; the exit status. */
    private static int runWith(BenchOptions options) {
        Runtime.getRuntime().addShutdownHook(new Thread(ClusterBench::killAll, "bench-cluster-cleanup"));
        int status;
        try {
            status = new ClusterBench(options).run();
        } catch (Exception | AssertionError e) {
            System.err.println("cluster: FAILED: " + e.getMessage());
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                System.err.println("cluster:   caused by " + cause);
            }
            status = 1;
        } finally {
            killAll();
        }
        return status;
    }

    private static void killAll() {
        for (WorkerProcess w : LIVE) {
            w.close();
        }
        LIVE.clear();
    }

    private int run() throws Exception {
        int members = options.workers() + 1;
        log.printf("cluster: %d x %d tiles of %d x %d, %.0f%% of A's tiles zero (seed %d), %d ms per product; %d"
                + " members with %d blocks each; per configuration, warm-up of at least %d runs and %.1f s, then %d"
                + " measured runs%n", options.tiles(), options.tiles(), options.tileSize(), options.tileSize(),
                100 * options.zeroFraction(), options.seed(), options.msPerProduct(), members, options.cpuBlocks(),
                options.warmup(), options.warmupMillis() / 1000.0, options.reps());
        Report report = new Report(options, matrices, nominalTimes(), out);
        report.workload();

        if (!options.makespans()) {
            List<JoinResult> joins = measureJoins();
            report.joins(joins, LATE_WORK_TIMEOUT);
            report.goalsHeader();
            report.joinGoal(joins, LATE_WORK_TIMEOUT);
            return 0;
        }
        Measured one = measure("1 member (program alone)", 0, true);
        Measured none = measure(members + " members, stealing disabled", options.workers(), false);
        Measured steal = measure(members + " members, stealing", options.workers(), true);
        List<JoinResult> joins = options.join() ? measureJoins() : List.of();

        report.makespans(List.of(one, none, steal));
        report.placement(steal);
        report.counters(List.of(none, steal));
        report.joins(joins, LATE_WORK_TIMEOUT);
        report.goalsHeader();
        report.balanceAndLatencyGoals(one, steal);
        report.joinGoal(joins, LATE_WORK_TIMEOUT);
        return 0;
    }

    /** Each kernel's device time per block, in submission order (row-major over C's tiles). */
    private double[] nominalTimes() {
        int t = options.tiles();
        double[] ms = new double[t * t];
        for (int i = 0; i < t; i++) {
            for (int j = 0; j < t; j++) {
                ms[i * t + j] = (double) matrices.products(i) * options.msPerProduct();
            }
        }
        return ms;
    }

    // ---- configurations ------------------------------------------------------------------------------------

    private String newClusterName() {
        return "polygpu-bench-" + ProcessHandle.current().pid() + "-" + (++clusters);
    }

    private ClusterConfig programConfig(String name, int port, boolean stealing) {
        ClusterConfig c = ClusterConfig.loopback().withName(name).withMembers(List.of("127.0.0.1:" + port))
                .withPort(port).withRole(ClusterConfig.Role.PROGRAM).withStealing(stealing);
        if (options.threshold() > 0) {
            c = c.withThreshold(options.threshold());
        }
        if (options.chunk() > 0) {
            c = c.withChunk(options.chunk());
        }
        if (options.inputCache() >= 0) {
            c = c.withInputCacheBytes(options.inputCache());
        }
        if (options.oldPolicies()) {
            c = c.withStolenOverflow(0).withRandomEvery(0).withRankChunk(0).withDirectories(0)
                    .withPushContinuations(false);
        }
        if (options.noWake()) {
            c = c.withWakeThieves(false);
        }
        if (options.noLearn()) {
            c = c.withLearnSpeeds(false);
        }
        return c;
    }

    private WorkerProcess startWorker(String cluster, int port, boolean stealing) {
        String name = "worker-" + (++workerCount);
        List<String> args = new ArrayList<>(List.of("--join=127.0.0.1:" + port, "--port=" + (port + 1),
                "--cluster-name=" + cluster, "--cpu-blocks=" + options.cpuBlocks(), "--stealing=" + stealing,
                "--for=" + safetyLimit().toSeconds() + "s"));
        if (options.threshold() > 0) {
            args.add("--threshold=" + options.threshold());
        }
        if (options.chunk() > 0) {
            args.add("--chunk=" + options.chunk());
        }
        if (options.inputCache() >= 0) {
            args.add("--input-cache=" + options.inputCache());
        }
        if (!options.warmUp()) {
            args.add("--warm-up=false");
        }
        if (options.noLearn()) {
            args.add("--learn-speeds=false");
        }
        if (options.oldPolicies()) {
            // A worker owns nothing: pushing continuations is an owner's decision.
            args.addAll(List.of("--stolen-overflow=0", "--random-every=0", "--rank-chunk=0", "--directories=0"));
        }
        WorkerProcess w = WorkerProcess.start(name, javaBinary, workerJvm, classPath, args, log);
        LIVE.add(w);
        return w;
    }

    /**
     * How long a worker stays by itself if nobody stops it (the benchmark stops it long before): a bound on one
     * configuration, so that a worker left behind by a killed benchmark does not live on.
     */
    private Duration safetyLimit() {
        double oneRunMs = Balance.perfect(nominalTimes(), options.slotsPerMember()) * options.kernelBlocks();
        double configMs = (options.warmup() + options.reps() + 1) * oneRunMs * 4 + options.warmupMillis()
                + options.joinReps() * LATE_WORK_TIMEOUT.toMillis();
        return Duration.ofMillis((long) configMs).plus(Duration.ofMinutes(5));
    }

    /** A free loopback port at or above the configured one (the members take the ones after it). */
    private int freePort() {
        for (int p = options.port(); p < options.port() + 1000; p++) {
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                return p;
            } catch (IOException e) {
                // Taken: try the next.
            }
        }
        throw new IllegalStateException("no free loopback port in " + options.port() + ".." + (options.port() + 999));
    }

    private Measured measure(String label, int workers, boolean stealing) throws Exception {
        log.printf("cluster: %s%n", label);
        double loadBefore = loadAverage();
        String cluster = newClusterName();
        int port = freePort();
        List<WorkerProcess> procs = new ArrayList<>();
        List<WorkerTable> tables = new ArrayList<>();
        List<RunResult> runs = new ArrayList<>();
        int warmups;
        try (ProgramMember program = new ProgramMember(matrices, options.cpuBlocks(), options.kernelBlocks(),
                options.msPerProduct(), options.bColumns(), programConfig(cluster, port, stealing))) {
            for (int w = 0; w < workers; w++) {
                procs.add(startWorker(cluster, port, stealing));
            }
            Map<String, String> names = awaitMembers(program, procs);
            ProgramMember.Round round = program.newRound("");
            warmups = warmUp(program, round, label, names, true);
            for (int r = 0; r < options.reps(); r++) {
                String run = label + ", run " + (r + 1);
                boolean last = r == options.reps() - 1;
                ScheduleRecorder recorder = null;
                if (last && options.chromeTraces() != null) {
                    // Sees only the elements submitted from now on: this run's.
                    recorder = new ScheduleRecorder();
                    program.scheduler.addObserver(recorder);
                }
                RunResult result = runOnce(program, round, run, names);
                if (recorder != null) {
                    writeTrace(recorder.snapshot(), label);
                }
                log.printf("cluster:   %s: %.1f ms, %s%n", run, result.makespanNanos() / 1e6, describe(result));
                runs.add(result);
            }
            program.release(round);
            if (!stealing && program.node.stats().given() > 0) {
                throw new IllegalStateException(label + ": the program gave " + program.node.stats().given()
                        + " kernels away with stealing disabled");
            }
            for (WorkerProcess w : procs) {
                WorkerTable t = w.stop(LEAVE_TIMEOUT);
                log.printf("cluster:   %s: %s%n", w.name(), t);
                tables.add(t);
                LIVE.remove(w);
            }
        } finally {
            for (WorkerProcess w : procs) {
                w.close();
                LIVE.remove(w);
            }
        }
        return new Measured(label, workers + 1, warmups, runs, tables, loadBefore, loadAverage());
    }

    /**
     * The untimed runs before the measured ones: at least {@code --warmup} of them, and more until
     * {@code --warmup-time} has passed since the first began. Members that start cold compile the steal path's
     * hot code during the first runs (C2 on every member's JVM); on two cores those compiler threads are what the
     * members' messages wait for, so runs measured before they are done show the JIT, not the protocol. Returns
     * how many ran.
     */
    private int warmUp(ProgramMember program, ProgramMember.Round round, String label, Map<String, String> names,
            boolean logEach) {
        long start = System.nanoTime();
        int n = 0;
        while (n < options.warmup() || System.nanoTime() - start < options.warmupMillis() * 1_000_000) {
            n++;
            String run = label + ", warm-up " + n;
            RunResult result = runOnce(program, round, run, names);
            if (logEach) {
                log.printf("cluster:   %s: %.1f ms, %s%n", run, result.makespanNanos() / 1e6, describe(result));
            }
        }
        return n;
    }

    /** Writes a configuration's recorded run as {@code <chrome-trace dir>/<label as a file name>.json}. */
    private void writeTrace(RecordedDag dag, String label) throws IOException {
        String name = label.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        Path file = options.chromeTraces().resolve(name + ".json");
        java.nio.file.Files.createDirectories(options.chromeTraces());
        new ChromeTraceWriter().write(dag, file);
        log.printf("cluster:   wrote %s (%d elements)%n", file, dag.elements().size());
    }

    /** The machine's load average over the last minute (runnable processes; 2 cores here). */
    private static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * Waits until every worker printed its member id and the program sees all of them; returns short id → worker
     * name (short ids are how the scheduler names the member a kernel ran on).
     */
    private Map<String, String> awaitMembers(ProgramMember program, List<WorkerProcess> procs)
            throws InterruptedException {
        Map<String, String> names = new LinkedHashMap<>();
        for (WorkerProcess w : procs) {
            names.put(shortId(w.awaitMemberId(JOIN_TIMEOUT)), w.name());
        }
        long deadline = System.nanoTime() + JOIN_TIMEOUT.toNanos();
        while (program.node.peers().size() < procs.size()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the program saw " + (program.node.peers().size() + 1) + " of "
                        + (procs.size() + 1) + " members after " + JOIN_TIMEOUT.toSeconds() + " s");
            }
            Thread.sleep(20);
        }
        log.printf("cluster:   %d members%n", program.node.peers().size() + 1);
        return names;
    }

    private RunResult runOnce(ProgramMember program, ProgramMember.Round round, String run, Map<String, String> names) {
        ClusterStats before = program.node.stats();
        long start = System.nanoTime();
        program.submit(round);
        program.scheduler.synchronize();
        long end = System.nanoTime();
        ClusterStats after = program.node.stats();
        program.verify(round, reference, run);
        if (options.trace()) {
            trace(run, start, round.launches(), names);
        }
        return RunResult.of(start, end, round.launches(), before, after, id -> names.getOrDefault(id, id));
    }

    /** Every kernel of a run, in submission order: where it ran and when, in ms after the first submit. */
    private void trace(String run, long start, List<Launch> launches, Map<String, String> names) {
        StringBuilder b = new StringBuilder("cluster: trace of " + run + " (ms after the first submit)\n");
        for (Launch l : launches) {
            String who = l.member == null ? "program" : names.getOrDefault(l.member, l.member);
            b.append(String.format("  C(%d,%d) %4.0f ms  %-9s taken %8.1f  start %8.1f  end %8.1f%n", l.i, l.j,
                    l.nominalMs, who, l.member == null ? Double.NaN : (l.takenNanos - start) / 1e6,
                    (l.startNanos - start) / 1e6, (l.endNanos - start) / 1e6));
        }
        log.print(b);
    }

    private static String describe(RunResult r) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, RunResult.Share> e : r.members().entrySet()) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(e.getKey()).append(' ').append(e.getValue().kernels());
        }
        return b.append(r.rerun() > 0 ? ", " + r.rerun() + " re-run" : "").toString();
    }

    static String shortId(String id) {
        return id.length() > 8 ? id.substring(0, 8) : id;
    }

    // ---- join to work --------------------------------------------------------------------------------------

    /**
     * The program and all workers but one run rounds of the product; a further worker process is started once
     * the first round is submitted. The program keeps submitting rounds (at most one round outstanding ahead)
     * until a kernel of the late worker came back, then finishes and checks every round.
     */
    private List<JoinResult> measureJoins() throws Exception {
        String label = "join to work";
        log.printf("cluster: %s (%d members, then a late worker)%n", label, options.workers());
        String cluster = newClusterName();
        int port = freePort();
        List<WorkerProcess> procs = new ArrayList<>();
        List<JoinResult> joins = new ArrayList<>();
        try (ProgramMember program = new ProgramMember(matrices, options.cpuBlocks(), options.kernelBlocks(),
                options.msPerProduct(), options.bColumns(), programConfig(cluster, port, true))) {
            for (int w = 0; w < options.workers() - 1; w++) {
                procs.add(startWorker(cluster, port, true));
            }
            Map<String, String> names = awaitMembers(program, procs);
            ProgramMember.Round warm = program.newRound("");
            warmUp(program, warm, label, names, false);
            program.release(warm);
            for (int rep = 1; rep <= options.joinReps(); rep++) {
                joins.add(joinOnce(program, cluster, port, label + " " + rep));
            }
            for (WorkerProcess w : procs) {
                w.stop(LEAVE_TIMEOUT);
                LIVE.remove(w);
            }
        } finally {
            for (WorkerProcess w : procs) {
                w.close();
                LIVE.remove(w);
            }
        }
        return joins;
    }

    private JoinResult joinOnce(ProgramMember program, String cluster, int port, String run) throws Exception {
        Set<String> before = new HashSet<>(program.node.peers());
        List<ProgramMember.Round> rounds = new ArrayList<>();
        AtomicLong seenNanos = new AtomicLong(-1);
        AtomicReference<String> lateId = new AtomicReference<>();
        WorkerProcess late = null;
        Thread watcher = null;
        try {
            long start = System.nanoTime();
            ProgramMember.Round first = program.newRound("#0");
            rounds.add(first);
            program.submit(first);
            late = startWorker(cluster, port, true);
            watcher = Thread.ofVirtual().start(() -> watchForNewMember(program, before, seenNanos, lateId));
            int perRound = options.tiles() * options.tiles();
            while (firstStartOn(rounds, lateId.get()) < 0) {
                if (System.nanoTime() - start > LATE_WORK_TIMEOUT.toNanos()) {
                    log.printf("cluster:   %s: the late worker ran no kernel within %d s of being started (the "
                            + "program %s)%n", run, LATE_WORK_TIMEOUT.toSeconds(), lateId.get() == null
                            ? "never saw it join" : "saw it join");
                    break;
                }
                if (program.scheduler.stats().outstanding() < perRound) {
                    ProgramMember.Round next = program.newRound("#" + rounds.size());
                    rounds.add(next);
                    program.submit(next);
                }
                Thread.sleep(2);
            }
            program.scheduler.synchronize();
            for (ProgramMember.Round r : rounds) {
                program.verify(r, reference, run);
            }
            WorkerTable table = late.stop(LEAVE_TIMEOUT);
            LIVE.remove(late);
            log.printf("cluster:   %s: %s%n", late.name(), table);
            String id = lateId.get() == null ? "" : shortId(lateId.get());
            long firstStart = firstStartOn(rounds, lateId.get());
            int lateKernels = 0;
            for (ProgramMember.Round r : rounds) {
                for (Launch l : r.launches()) {
                    if (id.equals(l.member)) {
                        lateKernels++;
                    }
                }
            }
            long seen = seenNanos.get();
            double none = Double.NaN;
            JoinResult j = new JoinResult(seen < 0 ? none : (seen - late.spawnedNanos()) / 1e6, firstStart < 0 || seen < 0 ? none
                    : (firstStart - seen) / 1e6, table.firstStolenNanos() < 0 ? none : table.firstStolenNanos() / 1e6,
                    firstStart < 0 ? none : (firstStart - late.spawnedNanos()) / 1e6, lateKernels, rounds.size());
            log.printf("cluster:   %s: started -> seen by the program %.0f ms, seen -> first kernel %.1f ms, worker's "
                    + "join -> first stolen %.1f ms; %d kernels of %d rounds on the late worker%n", run,
                    j.spawnToSeenMs(), j.seenToFirstStartMs(), j.workerFirstStolenMs(), lateKernels, rounds.size());
            return j;
        } finally {
            if (watcher != null) {
                watcher.interrupt();
            }
            if (late != null) {
                late.close();
                LIVE.remove(late);
            }
            program.scheduler.synchronize();
            for (ProgramMember.Round r : rounds) {
                program.release(r);
            }
        }
    }

    /** Polls the program's peers every millisecond until one not in {@code before} appears. */
    private static void watchForNewMember(ProgramMember program, Set<String> before, AtomicLong seenNanos,
            AtomicReference<String> id) {
        while (true) {
            for (String p : program.node.peers()) {
                if (!before.contains(p)) {
                    seenNanos.set(System.nanoTime());
                    id.set(p);
                    return;
                }
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The program-clock start of the first kernel that came back from member {@code id}, or -1. */
    private static long firstStartOn(List<ProgramMember.Round> rounds, String id) {
        if (id == null) {
            return -1;
        }
        String s = shortId(id);
        long first = Long.MAX_VALUE;
        for (ProgramMember.Round r : rounds) {
            for (Launch l : r.launches()) {
                if (s.equals(l.member) && l.endNanos > 0) {
                    first = Math.min(first, l.startNanos);
                }
            }
        }
        return first == Long.MAX_VALUE ? -1 : first;
    }
}
