package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.ClusterConfig;
import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.ThiefCap;
import dev.polygpu.runtime.PriorityLevels;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code polygpu simulate}: runs the work-stealing simulator ({@link Simulator}) over a sweep of cluster sizes
 * and prints a Markdown table (on stdout; progress on stderr), optionally a CSV and an SVG plot of efficiency
 * against members. Exit status 0, or 2 for bad arguments (with what was wrong and the usage).
 */
public final class SimulateCommand {

    static final String USAGE = """
            usage: polygpu simulate [options]
            Simulates work stealing among cluster members that run the real policy classes, and prints the
            makespan against the lower bound max(total work / slots, critical path) for each member count.

            workload
              --workload=bspgemm|bspgemm-tiles|gemm|cholesky|trace:FILE
                                     bspgemm (default): imbalanced block-sparse GEMM (PaRSEC's BSpGEMM), one
                                     kernel per tile product, chained per C tile; bspgemm-tiles: one
                                     independent kernel per C tile, as bench/cluster runs it; gemm: dense,
                                     balanced, chained; cholesky: tiled Cholesky DAG; trace:FILE: a DAG
                                     replayed from a Chrome trace the scheduler wrote
              --tasks=N              about how many tasks (default 1000000; sets --tiles)
              --tiles=N              tiles per side of the matrices (overrides --tasks)
              --density=F            bspgemm: mean share of nonzero tiles of A (default 0.125)
              --skew=F               bspgemm: how unequal A's rows are, 0 = equal (default 1)
              --tile-time=DIST       one tile product's duration (default lognormal:2ms:0.5); DIST is const:X,
                                     uniform:A:B, exp:MEAN, lognormal:MEDIAN:SIGMA or pareto:MIN:ALPHA, in
                                     ns, us, ms (the default unit) or s
              --tile-bytes=SIZE      a tile's size (default 64KB: 128 x 128 floats)
              --owners=N             generated workloads: the tasks belong to the first N members, the others
                                     are workers that live on stolen work (default: every member owns some)
              --copies=N             trace: replay the DAG N times, copy c owned by member c mod members
                                     (default 1: everything owned by member 0)
              --trace-slots=N        trace: the recording device ran N kernels at once; a kernel's duration is
                                     then its time on the device, not its whole slice (launch to end), which
                                     also holds its wait behind the others (default: the slice)
              --seed=N|N,M,...|A-B   seed of the workload and of every random choice (default 1); several
                                     seeds run every member count once per seed, and a line after each
                                     member count gives the efficiency's mean, minimum and maximum over them

            cluster
              --members=N,N,...      member counts to simulate (default 16,64,256,1024)
              --slots=N              kernels a member's device runs at once (default 2)
              --window=N             kernels a member keeps on its streams (default 4)
              --speeds=F[*N],...     how fast each member's device runs against the workload's durations:
                                     member i takes entry i mod the list's length (default 1: all alike);
                                     1*3,0.25 makes every fourth member four times slower; the lower bound
                                     counts each member at its speed
              --scale-by-speed       members are told their speed over the fastest member's and scale their
                                     steal threshold and in-flight window by it (a member 4x slower keeps a
                                     quarter), as a cluster configured per member's GPU would; no learning
              --learn-speeds=false   members keep their threshold and window (default: each learns its speed
                                     from the run times of work it shares with others and scales both by
                                     it, as the cluster node does: grcuda.ClusterLearnSpeeds)
              --threshold=N --chunk=N --max-hops=N
                                     stealing settings (default: from the window, as the cluster does)
              --rank-chunk=N         the most tasks a request by rank asks for (default 1, as the cluster; 0:
                                     the chunk)
              --no-stealing          every member runs only its own tasks
              --baseline             also run each member count without stealing, for comparison
              --latency=DUR          one-way latency (default 5us)
              --bandwidth=SIZE       bytes per second per link, KB/MB/GB counted in 1,024s (default
                                     12.5e9 bytes/s: 100 Gb/s)
              --per-message=DUR      fixed cost of each message: encode, sign, thread hand-offs (default 100us)
              --rack-size=N --inter-rack-latency=DUR --inter-rack-bandwidth=SIZE
                                     a second level of network (default: one flat network)
              --expand=TIME:N        N workers join at TIME (repeatable)
              --shrink=TIME:N        N workers leave gracefully at TIME (repeatable)
              --crash=TIME:N         N workers crash at TIME (repeatable)
              --fail-after=DUR       how long owners take to notice a crash (default 5s)
              --input-cache=SIZE     each member's cache of the input arrays it received with stolen work; an
                                     owner sends a reference instead of an array the thief holds (default
                                     256MB, as the cluster; 0: no cache, every array goes with its bytes)
              --order=rank+priorities|rank|rank+streams|submission
                                     rank+priorities (default, as the cluster): members run and give their
                                     ready tasks highest rank first (the rank of a task is its bottom level:
                                     tasks on the longest chain from it to the end), ask for higher-ranked
                                     work when theirs is low, and put each task on a stream of the priority
                                     level the scheduler gives its rank (against the lowest rank on the
                                     streams); the device starts the highest level first. rank: the same with
                                     no stream priorities (tasks start in the order put on the streams: the
                                     runs from before priorities); rank+streams: the device starts the
                                     highest-ranked task on its streams first (a priority per rank, a
                                     what-if); submission: oldest first, no ranks (the runs from before ranks)
              --priority-levels=N    stream priority levels of each device with rank+priorities (default 6, as
                                     recent GPUs and the CPU device; 2 on older GPUs; 1 to 16)
              --rank-factor=F        a member that is not starving asks for tasks of rank above F x the rank of
                                     what it runs (default 2; 0: only starving members ask)
              --stolen-overflow=N    a stolen task whose priority level is above 0 goes on the streams up to N
                                     beyond a full window (default 1, as the cluster; 0: off)
              --forget-after=N       a thief forgets the member it asks first after N empty replies in a row
                                     through it, forwarded ones included (default 0: only when that member
                                     replies empty itself, as the cluster node)
              --random-every=N       a thief sends every N-th request to a member drawn at random, and keeps
                                     the one it asks first (default 8, as the cluster node; 0: never)
              --directories=N        the first N members are directories; the others report their surplus and
                                     its highest rank to them when the surplus doubles or halves or the rank
                                     moves by a quarter; a thief whose request came back empty asks a
                                     directory next (by rank as when starving), and a directory forwards it to
                                     the member with the most surplus of the rank asked for it knows (default
                                     16, as the cluster node; 0: none)
              --push-continuations=false
                                     an owner sends the task a thief's result makes ready straight to that
                                     thief, unasked, when the thief held no other stolen task (default on, as
                                     the cluster node; false: never)
              --wake-thieves=false   a program that sent starving thieves away with nothing does not send them
                                     work (or word of its surplus) when it has some again, so they come back
                                     when their back-off ends (default on, as the cluster node)
              --thief-cap=off|all|repeat
                                     a victim gives a thief at most the thief's slots less the tasks of this
                                     victim it holds (not yet back): all: on every request; repeat: only on a
                                     starving thief's request while it holds some (default off, as the node)
              --host-cpu-per-message=DUR --host-cpu-per-byte=NS
                                     host CPU a member spends on each message it sends or receives (packing,
                                     HMAC, transport), per message and per byte (NS: nanoseconds, fractions
                                     allowed), taken from its kernels: for CPU devices on the host's cores.
                                     While every slot runs a kernel, each ends that time / slots later; with
                                     a slot free nothing waits (default 0 and 0: none, as on GPUs). Measured
                                     on this code: 51us and 4.89 (HostCpuCalibrationTest, docs/simulator.md)

            output
              --csv=FILE             one row per run
              --plot=FILE.svg        efficiency against members
              --central              after each run, the makespan of a central list schedule of the same
                                     workload on the same slots (one scheduler that sees every task starts the
                                     highest-ranked ready one on any free slot; nothing moves, no messages):
                                     how much of the gap to the lower bound the protocol leaves
              --quiet                no progress on stderr
            """;

    private SimulateCommand() {
    }

    /** The parsed command line. */
    private static final class Options {
        String workload = "bspgemm";
        long tasks = 1_000_000;
        int tiles;
        double density = 0.125;
        double skew = 1.0;
        Distribution tileTime = Distribution.parseDuration("lognormal:2ms:0.5");
        long tileBytes = 64 * 1024;
        int copies = 1;
        int owners;
        int traceSlots;
        List<Long> seeds = List.of(1L);
        boolean central;
        boolean scaleBySpeed;
        /** Null: the default (on, unless --scale-by-speed tells members their speed). */
        Boolean learnSpeeds;
        List<Integer> members = List.of(16, 64, 256, 1024);
        int slots = 2;
        int window = 4;
        int threshold;
        int chunk;
        // The cluster node's defaults (ClusterConfig).
        int rankChunk = ClusterConfig.DEFAULT_RANK_CHUNK;
        boolean pushContinuations = ClusterConfig.DEFAULT_PUSH_CONTINUATIONS;
        boolean wakeThieves = ClusterConfig.DEFAULT_WAKE_THIEVES;
        Speeds speeds = Speeds.UNIFORM;
        int maxHops = -1;
        boolean stealing = true;
        boolean baseline;
        long latency = 5_000;
        double bandwidth = 12.5e9;
        long perMessage = 100_000;
        int rackSize = Integer.MAX_VALUE;
        long interRackLatency = -1;
        double interRackBandwidth = -1;
        final List<MembershipEvent> events = new ArrayList<>();
        long failAfter = SimConfig.DEFAULT_FAIL_AFTER_NANOS;
        long inputCache = InputCache.DEFAULT_CAPACITY_BYTES;
        SimConfig.Order order = SimConfig.Order.RANK_AND_PRIORITIES;
        int priorityLevels = SimConfig.DEFAULT_PRIORITY_LEVELS;
        double rankFactor = -1;
        int stolenOverflow = ClusterConfig.DEFAULT_STOLEN_OVERFLOW;
        int forgetAfter;
        int randomEvery = ClusterConfig.DEFAULT_RANDOM_EVERY;
        int directories = ClusterConfig.DEFAULT_DIRECTORIES;
        ThiefCap thiefCap = ThiefCap.OFF;
        long hostCpuPerMessage;
        double hostCpuPerByte;
        Path csv;
        Path plot;
        boolean quiet;
    }

    /**
     * Runs the command.
     *
     * @param args the arguments after {@code simulate}
     * @param out where the table goes
     * @param err where progress and errors go
     * @return the exit status: 0, 1 if a file could not be written or a trace read, 2 for bad arguments
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Options o;
        try {
            if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
                out.print(USAGE);
                return 0;
            }
            o = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("polygpu simulate: " + e.getMessage());
            err.println("run 'polygpu simulate --help' for the options");
            return 2;
        }
        try {
            return simulate(o, out, err);
        } catch (IllegalArgumentException e) {
            err.println("polygpu simulate: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("polygpu simulate: " + e.getMessage());
            return 1;
        }
    }

    private static Options parse(String[] args) {
        Options o = new Options();
        for (String a : args) {
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "' (options are --name=value)");
            }
            int eq = a.indexOf('=');
            String name = eq < 0 ? a.substring(2) : a.substring(2, eq);
            String value = eq < 0 ? null : a.substring(eq + 1);
            switch (name) {
                case "no-stealing" -> o.stealing = !flag(name, value);
                case "baseline" -> o.baseline = flag(name, value);
                case "quiet" -> o.quiet = flag(name, value);
                case "central" -> o.central = flag(name, value);
                case "scale-by-speed" -> o.scaleBySpeed = flag(name, value);
                case "learn-speeds" -> o.learnSpeeds = flag(name, value);
                case "push-continuations" -> o.pushContinuations = flag(name, value);
                case "wake-thieves" -> o.wakeThieves = flag(name, value);
                default -> named(name, () -> option(o, name,
                        value == null ? missingValue(name) : required(name, value)));
            }
        }
        if (o.interRackLatency < 0) {
            o.interRackLatency = o.latency;
        }
        if (o.interRackBandwidth < 0) {
            o.interRackBandwidth = o.bandwidth;
        }
        if (o.central && !o.events.isEmpty()) {
            throw new IllegalArgumentException("--central compares with a cluster of fixed size; it cannot be "
                    + "combined with --expand, --shrink or --crash");
        }
        if (o.scaleBySpeed && Boolean.TRUE.equals(o.learnSpeeds)) {
            throw new IllegalArgumentException("--scale-by-speed tells each member its speed and --learn-speeds "
                    + "has it learn it: give one of them");
        }
        if (o.learnSpeeds == null) {
            o.learnSpeeds = !o.scaleBySpeed;
        }
        if (o.window < o.slots) {
            throw new IllegalArgumentException("--window (" + o.window + ") must be at least --slots (" + o.slots
                    + ")");
        }
        return o;
    }

    /** Runs {@code parse}, making sure its error names the option {@code --name} (the spec parsers do not). */
    private static void named(String name, Runnable parse) {
        try {
            parse.run();
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().contains("--" + name)) {
                throw e;
            }
            throw new IllegalArgumentException("--" + name + ": " + e.getMessage(), e);
        }
    }

    private static void option(Options o, String name, String value) {
        switch (name) {
            case "workload" -> o.workload = workloadKind(value);
            case "tasks" -> o.tasks = positiveLong(name, value);
            case "tiles" -> o.tiles = positive(name, value);
            case "density" -> o.density = fraction(name, value);
            case "skew" -> o.skew = nonNegative(name, value);
            case "tile-time" -> o.tileTime = Distribution.parseDuration(value);
            case "tile-bytes" -> o.tileBytes = Specs.bytes(value);
            case "copies" -> o.copies = positive(name, value);
            case "owners" -> o.owners = positive(name, value);
            case "trace-slots" -> o.traceSlots = positive(name, value);
            case "seed" -> o.seeds = seedList(value);
            case "members" -> o.members = memberList(value);
            case "slots" -> o.slots = positive(name, value);
            case "speeds" -> o.speeds = Speeds.parse(value);
            case "window" -> o.window = positive(name, value);
            case "threshold" -> o.threshold = positive(name, value);
            case "chunk" -> o.chunk = positive(name, value);
            case "rank-chunk" -> o.rankChunk = nonNegativeInt(name, value);
            case "max-hops" -> o.maxHops = nonNegativeInt(name, value);
            case "latency" -> o.latency = Specs.nanos(value);
            case "bandwidth" -> o.bandwidth = bandwidth(name, value);
            case "per-message" -> o.perMessage = Specs.nanos(value);
            case "rack-size" -> o.rackSize = positive(name, value);
            case "inter-rack-latency" -> o.interRackLatency = Specs.nanos(value);
            case "inter-rack-bandwidth" -> o.interRackBandwidth = bandwidth(name, value);
            case "expand" -> o.events.add(MembershipEvent.parse(MembershipEvent.Kind.EXPAND, value));
            case "shrink" -> o.events.add(MembershipEvent.parse(MembershipEvent.Kind.SHRINK, value));
            case "crash" -> o.events.add(MembershipEvent.parse(MembershipEvent.Kind.CRASH, value));
            case "fail-after" -> o.failAfter = Math.max(1, Specs.nanos(value));
            case "input-cache" -> o.inputCache = Specs.bytes(value);
            case "order" -> o.order = switch (value) {
                case "rank+priorities" -> SimConfig.Order.RANK_AND_PRIORITIES;
                case "rank" -> SimConfig.Order.RANK;
                case "rank+streams" -> SimConfig.Order.RANK_AND_STREAMS;
                case "submission" -> SimConfig.Order.SUBMISSION;
                default -> throw new IllegalArgumentException("--order must be rank+priorities, rank, rank+streams or "
                        + "submission, got '" + value + "'");
            };
            case "priority-levels" -> {
                int n = positive(name, value);
                if (n > PriorityLevels.MAX_LEVELS) {
                    throw new IllegalArgumentException("--priority-levels must be 1 to " + PriorityLevels.MAX_LEVELS
                            + ", got '" + value + "'");
                }
                o.priorityLevels = n;
            }
            case "rank-factor" -> o.rankFactor = rankFactor(name, value);
            case "stolen-overflow" -> o.stolenOverflow = nonNegativeInt(name, value);
            case "forget-after" -> o.forgetAfter = nonNegativeInt(name, value);
            case "random-every" -> o.randomEvery = nonNegativeInt(name, value);
            case "directories" -> o.directories = nonNegativeInt(name, value);
            case "thief-cap" -> o.thiefCap = thiefCap(name, value);
            case "host-cpu-per-message" -> o.hostCpuPerMessage = Specs.nanos(value);
            case "host-cpu-per-byte" -> o.hostCpuPerByte = nanosPerByte(name, value);
            case "csv" -> o.csv = Path.of(value);
            case "plot" -> o.plot = Path.of(value);
            default -> throw new IllegalArgumentException("unknown option --" + name);
        }
    }

    private static int simulate(Options o, PrintStream out, PrintStream err) throws IOException {
        List<Row> rows = new ArrayList<>();
        Network network = new Network(o.latency, o.bandwidth, o.rackSize, o.interRackLatency,
                o.interRackBandwidth, o.perMessage);
        boolean headerDone = false;
        for (int members : o.members) {
            List<Row> ofThisSize = new ArrayList<>();
            for (long seed : o.seeds) {
                Workload w = workload(o, members, seed, err);
                if (!headerDone) {
                    out.println(describe(o, w, network));
                    out.println();
                    out.println("| members | tasks | stealing | makespan | lower bound | efficiency | moved "
                            + "| requests (by rank) | empty | forwarded | messages per member, mean / max "
                            + "| bytes per member, mean / max | idle | steal latency median / p99 | reruns "
                            + "| refused by the gate | inputs sent / saved | cache misses / handed back "
                            + "| simulated in | seed |");
                    out.println("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
                            + "|---:|---:|---:|---:|");
                    headerDone = true;
                }
                long central = -1;
                if (o.central) {
                    long started = System.nanoTime();
                    central = CentralSchedule.makespan(w, members, o.slots, o.speeds);
                    if (!o.quiet) {
                        err.printf(Locale.ROOT, "central list schedule of %s on %,d slots: %s, in %.1f s%n",
                                w.name(), (long) members * o.slots, Units.nanos(central),
                                (System.nanoTime() - started) / 1e9);
                    }
                }
                for (boolean stealing : modes(o)) {
                    SimConfig c = config(o, members, seed, network, stealing, w);
                    if (!o.quiet) {
                        err.printf(Locale.ROOT, "simulating %s (%,d tasks) on %d members%s…%n", w.name(),
                                w.tasks(), members, stealing ? "" : " without stealing");
                    }
                    Simulator sim = new Simulator(w, c);
                    if (!o.quiet) {
                        sim.progress(Math.max(1, w.tasks() / 4), err::println);
                    }
                    SimResult r = sim.run();
                    Row row = new Row(stealing, r, seed, central, w.owners());
                    rows.add(row);
                    ofThisSize.add(row);
                    out.println(tableRow(row));
                    if (c.hostCpu().on()) {
                        out.println(hostCpuLine(r));
                    }
                    for (String note : r.notes()) {
                        out.println("note: " + note);
                    }
                }
                if (o.central) {
                    out.println(centralLine(ofThisSize.getLast(), o.slots));
                }
            }
            if (o.seeds.size() > 1) {
                for (boolean stealing : modes(o)) {
                    out.println(seedsLine(ofThisSize, stealing, o));
                }
            }
        }
        if (o.csv != null) {
            writeFile(o.csv, csv(rows, network, o));
            if (!o.quiet) {
                err.println("wrote " + o.csv);
            }
        }
        if (o.plot != null) {
            writeFile(o.plot, plot(rows, o));
            if (!o.quiet) {
                err.println("wrote " + o.plot);
            }
        }
        return 0;
    }

    /** The runs of each member count and seed: without stealing first with {@code --baseline}, then as asked. */
    private static List<Boolean> modes(Options o) {
        return o.baseline && o.stealing ? List.of(false, true) : List.of(o.stealing);
    }

    /**
     * One run: whether stealing was on, what happened, its seed, the central list schedule's makespan of its
     * workload (-1 without {@code --central}) and how many members owned its tasks.
     */
    private record Row(boolean stealing, SimResult result, long seed, long centralNanos, int owners) {

        /** {@return the central schedule's lower bound / makespan, or NaN without it} */
        double centralEfficiency() {
            return centralNanos < 0 ? Double.NaN : (double) result.lowerBoundNanos() / centralNanos;
        }
    }

    /** The line after a run with {@code --central}: the central schedule against the bound and the run. */
    private static String centralLine(Row row, int slots) {
        SimResult r = row.result();
        return String.format(Locale.ROOT, "central list schedule on %,d slots (highest rank first, nothing moves): "
                        + "makespan %s, %.1f%% of the lower bound; the run%s reached %.1f%% of it",
                (long) r.members() * slots, Units.nanos(row.centralNanos()), 100 * row.centralEfficiency(),
                row.stealing() ? "" : " without stealing", 100.0 * row.centralNanos() / r.makespanNanos());
    }

    /** The line after a member count run with several seeds: the efficiency's spread over them. */
    private static String seedsLine(List<Row> rows, boolean stealing, Options o) {
        double sum = 0;
        double centralSum = 0;
        Row min = null;
        Row max = null;
        int count = 0;
        for (Row row : rows) {
            if (row.stealing() != stealing) {
                continue;
            }
            double e = row.result().efficiency();
            sum += e;
            centralSum += row.centralEfficiency();
            count++;
            if (min == null || e < min.result().efficiency()) {
                min = row;
            }
            if (max == null || e > max.result().efficiency()) {
                max = row;
            }
        }
        return String.format(Locale.ROOT, "%d members%s, %d seeds: efficiency mean %.1f%%, min %.1f%% (seed %d), "
                        + "max %.1f%% (seed %d)%s", min.result().members(), stealing ? "" : " without stealing", count,
                100 * sum / count, 100 * min.result().efficiency(), min.seed(), 100 * max.result().efficiency(),
                max.seed(), o.central ? String.format(Locale.ROOT, "; central list schedule mean %.1f%%",
                        100 * centralSum / count) : "");
    }

    private static SimConfig config(Options o, int members, long seed, Network network, boolean stealing,
            Workload w) {
        if (members < w.owners()) {
            throw new IllegalArgumentException("--members=" + members + ": the workload's tasks are owned by "
                    + w.owners() + " members; simulate at least that many");
        }
        return new SimConfig(members, o.slots, o.window, settings(o), stealing, network, o.failAfter, o.events,
                o.inputCache, o.order, o.priorityLevels, seed, o.stolenOverflow, o.forgetAfter,
                o.randomEvery, hostCpu(o), o.directories, o.speeds.withScaledLimits(o.scaleBySpeed)
                .withLearnedLimits(o.learnSpeeds));
    }

    private static HostCpu hostCpu(Options o) {
        return new HostCpu(o.hostCpuPerMessage, o.hostCpuPerByte);
    }

    /** The stealing settings of every member: the cluster's defaults for the window, with the options given. */
    private static StealSettings settings(Options o) {
        StealSettings s = StealSettings.defaults(o.window);
        if (o.threshold > 0) {
            s = s.withThreshold(o.threshold);
        }
        if (o.chunk > 0) {
            s = s.withChunk(o.chunk);
        }
        if (o.maxHops >= 0) {
            s = s.withMaxHops(o.maxHops);
        }
        if (o.rankFactor >= 0) {
            s = s.withRankFactor(o.rankFactor);
        }
        if (o.rankChunk > 0) {
            s = s.withRankChunk(o.rankChunk);
        }
        return s.withThiefCap(o.thiefCap).withPushContinuations(o.pushContinuations).withWakeThieves(o.wakeThieves);
    }

    /**
     * The workload for a run on {@code members} members: generated workloads spread over all of them, or over the
     * first {@code --owners} (the others are workers that live on stolen work).
     */
    private static Workload workload(Options o, int all, long seed, PrintStream err) throws IOException {
        long started = System.nanoTime();
        int members = o.owners > 0 ? Math.min(o.owners, all) : all;
        Workload w = switch (o.workload) {
            case "bspgemm-tiles" -> Workloads.blockSparseTiles(o.tiles > 0 ? o.tiles
                    : Math.max(1, (int) Math.round(Math.sqrt(o.tasks))), o.density, o.skew, members, o.tileTime,
                    o.tileBytes, seed);
            case "bspgemm" -> Workloads.blockSparseGemm(o.tiles > 0 ? o.tiles
                    : Math.max(2, (int) Math.round(Math.cbrt(o.tasks / o.density))), o.density, o.skew, members,
                    o.tileTime, o.tileBytes, seed);
            case "gemm" -> Workloads.denseGemm(o.tiles > 0 ? o.tiles : Math.max(1, (int) Math.round(
                    Math.cbrt(o.tasks))), members, o.tileTime, o.tileBytes, seed);
            case "cholesky" -> Workloads.cholesky(o.tiles > 0 ? o.tiles : Math.max(1, (int) Math.round(
                    Math.cbrt(6.0 * o.tasks))), members, o.tileTime, o.tileBytes, seed);
            default -> trace(Path.of(o.workload.substring("trace:".length())), o.copies,
                    Math.min(all, o.copies), o.traceSlots);
        };
        if (!o.quiet) {
            err.printf(Locale.ROOT, "built %s in %.1f s%n", w, (System.nanoTime() - started) / 1e9);
        }
        return w;
    }

    private static Workload trace(Path file, int copies, int owners, int deviceSlots) throws IOException {
        try {
            return TraceReplay.read(file, copies, owners, deviceSlots);
        } catch (IOException e) {
            // A NoSuchFileException's message is the bare path.
            throw new IOException("could not read the trace " + file + ": " + (e instanceof NoSuchFileException
                    ? "no such file" : e.getMessage()), e);
        }
    }

    private static String owned(Options o) {
        return o.owners > 0 && !o.workload.startsWith("trace:") ? ", owned by the first " + o.owners + " members"
                : "";
    }

    private static String describe(Options o, Workload w, Network network) {
        StealSettings s = settings(o);
        String settings = "threshold " + s.threshold() + ", chunk " + s.chunk() + ", max hops " + s.maxHops()
                + ", order " + orderName(o.order) + (o.order == SimConfig.Order.RANK_AND_PRIORITIES
                ? " (" + o.priorityLevels + " levels)" : "") + (o.order == SimConfig.Order.SUBMISSION ? ""
                : s.rankFactor() == 0 ? ", no requests by rank" : ", requests by rank above " + s.rankFactor()
                + " x the floor rank" + (s.rankChunk() == s.chunk() ? "" : " for " + s.rankChunk() + " at most")) + (o.stolenOverflow > 0 ? ", stolen tasks up to " + o.stolenOverflow
                + " beyond the window" : "") + (o.forgetAfter > 0 ? ", thieves forget their first victim "
                + "after " + o.forgetAfter + " empty replies through it" : "") + (o.randomEvery > 0
                ? ", every " + o.randomEvery + "th request to a random member" : "") + (o.thiefCap == ThiefCap.OFF
                ? "" : ", thief cap " + o.thiefCap.name().toLowerCase(Locale.ROOT)) + (o.directories > 0 ? ", "
                + o.directories + " directories" : "") + (o.pushContinuations
                ? ", continuations pushed" : "") + (o.wakeThieves ? ", thieves woken" : "")
;
        return String.format(Locale.ROOT, "Workload %s: %,d tasks, work %s, critical path %s; tile time %s, "
                        + "tile %s%s. Members: %d slots, window %d, %s%s, %s. Network: %s.%s",
                o.workload, w.tasks(), Units.nanos(w.totalWorkNanos()), Units.nanos(w.criticalPathNanos()),
                o.tileTime, Units.bytes(o.tileBytes), o.workload.startsWith("bspgemm") ? ", density " + o.density
                        + ", skew " + o.skew + owned(o) : owned(o), o.slots, o.window, o.speeds.uniform() ? ""
                        : "speeds " + o.speeds + (o.scaleBySpeed ? " (threshold and window scaled by speed)"
                        : o.learnSpeeds ? " (threshold and window scaled by the speed each member learns)" : "")
                        + ", ", settings, o.inputCache == 0 ? "no input cache"
                        : "input cache " + Units.bytes(o.inputCache), network,
                o.events.isEmpty() ? "" : " Membership: " + o.events + ", failure noticed after "
                        + Units.nanos(o.failAfter) + ".") + (hostCpu(o).on() ? " Host CPU per message: "
                + hostCpu(o) + ", taken from the member's kernels." : "");
    }

    /** The host CPU members spent on messages and what their kernels lost to it (with the host CPU model). */
    private static String hostCpuLine(SimResult r) {
        return String.format(Locale.ROOT, "host CPU on messages: %s per member (mean), %s at the busiest; kernels "
                        + "ended %s later in all (%.1f%% of the work)", Units.nanos((long) r.hostCpuPerMember().mean()),
                Units.nanos(r.hostCpuPerMember().max()), Units.nanos(r.kernelDelayNanos()),
                100.0 * r.kernelDelayNanos() / Math.max(1, r.totalWorkNanos()));
    }

    private static String tableRow(Row row) {
        SimResult r = row.result();
        boolean stealing = row.stealing();
        return String.format(Locale.ROOT, "| %d | %,d | %s | %s | %s | %.1f%% | %,d | %,d (%,d) | %,d | %,d | %,.0f / %,d "
                        + "| %s / %s | %.1f%% | %s / %s | %,d | %,d | %s / %s | %,d / %,d | %.1f s | %d |",
                r.members(), r.tasks(), stealing ? "yes" : "no", Units.nanos(r.makespanNanos()),
                Units.nanos(r.lowerBoundNanos()), 100 * r.efficiency(), r.stolen(), r.requests(), r.rankRequests(), r.emptyReplies(),
                r.forwards(), r.messagesPerMember().mean(), r.messagesPerMember().max(),
                Units.bytes((long) r.bytesPerMember().mean()), Units.bytes(r.bytesPerMember().max()),
                100 * r.idleFraction(), r.stealLatencyMedianNanos() < 0 ? "-" : Units.nanos(r.stealLatencyMedianNanos()),
                r.stealLatencyP99Nanos() < 0 ? "-" : Units.nanos(r.stealLatencyP99Nanos()), r.reruns(),
                r.gateRefusals(), Units.bytes(r.inputBytesSent()), Units.bytes(r.inputBytesSaved()),
                r.cacheMisses(), r.missingInputHandBacks(), r.wallNanos() / 1e9, row.seed());
    }

    private static String csv(List<Row> rows, Network network, Options o) {
        StringBuilder b = new StringBuilder("workload,tasks,members,members_ever,slots,window,stealing,makespan_ns,"
                + "lower_bound_ns,efficiency,total_work_ns,critical_path_ns,moved,requests,empty_replies,forwards,"
                + "timeouts,stale_replies,reruns,lost_messages,messages_per_member_mean,messages_per_member_max,"
                + "bytes_per_member_mean,bytes_per_member_max,idle_fraction,steal_latency_median_ns,"
                + "steal_latency_p99_ns,events,wall_ns,latency_ns,bandwidth_bytes_per_s,per_message_ns,seed,gate_refusals,"
                + "input_cache_bytes,input_bytes_sent,input_bytes_saved,cache_misses,missing_input_hand_backs,order,"
                + "rank_factor,rank_requests,priority_levels,host_cpu_per_message_ns,host_cpu_per_byte_ns,"
                + "host_cpu_per_member_mean_ns,host_cpu_per_member_max_ns,kernel_delay_ns,central_makespan_ns,directories,"
                + "speeds,owners,scaled_by_speed,learnt_speeds\n");
        for (Row row : rows) {
            SimResult r = row.result();
            b.append(String.join(",", List.of(csvText(r.workload()), Long.toString(r.tasks()),
                    Integer.toString(r.members()), Integer.toString(r.membersEver()), Integer.toString(r.slots()),
                    Integer.toString(o.window), Boolean.toString(row.stealing()), Long.toString(r.makespanNanos()),
                    Long.toString(r.lowerBoundNanos()), String.format(Locale.ROOT, "%.6f", r.efficiency()),
                    Long.toString(r.totalWorkNanos()), Long.toString(r.criticalPathNanos()),
                    Long.toString(r.stolen()), Long.toString(r.requests()), Long.toString(r.emptyReplies()),
                    Long.toString(r.forwards()), Long.toString(r.timeouts()), Long.toString(r.staleReplies()),
                    Long.toString(r.reruns()), Long.toString(r.lostMessages()),
                    String.format(Locale.ROOT, "%.1f", r.messagesPerMember().mean()),
                    Long.toString(r.messagesPerMember().max()),
                    String.format(Locale.ROOT, "%.1f", r.bytesPerMember().mean()),
                    Long.toString(r.bytesPerMember().max()), String.format(Locale.ROOT, "%.6f", r.idleFraction()),
                    Long.toString(r.stealLatencyMedianNanos()), Long.toString(r.stealLatencyP99Nanos()),
                    Long.toString(r.events()), Long.toString(r.wallNanos()), Long.toString(network.latencyNanos()),
                    String.format(Locale.ROOT, "%.0f", network.bytesPerSecond()),
                    Long.toString(network.perMessageNanos()), Long.toString(row.seed()),
                    Long.toString(r.gateRefusals()), Long.toString(o.inputCache), Long.toString(r.inputBytesSent()),
                    Long.toString(r.inputBytesSaved()), Long.toString(r.cacheMisses()),
                    Long.toString(r.missingInputHandBacks()), orderName(o.order),
                    Double.toString(settings(o).rankFactor()), Long.toString(r.rankRequests()),
                    Integer.toString(o.order == SimConfig.Order.RANK_AND_PRIORITIES ? o.priorityLevels : 1),
                    Long.toString(o.hostCpuPerMessage), Specs.number(o.hostCpuPerByte),
                    String.format(Locale.ROOT, "%.0f", r.hostCpuPerMember().mean()),
                    Long.toString(r.hostCpuPerMember().max()), Long.toString(r.kernelDelayNanos()),
                    Long.toString(row.centralNanos()), Integer.toString(o.directories), csvText(o.speeds.toString()),
                    Integer.toString(row.owners()), Boolean.toString(o.scaleBySpeed),
                    Boolean.toString(o.learnSpeeds))))
                    .append('\n');
        }
        return b.toString();
    }

    private static String csvText(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static String plot(List<Row> rows, Options o) {
        SvgPlot p = new SvgPlot("Work stealing, simulated: " + o.workload + " (" + rows.getFirst().result().tasks()
                + " tasks" + (o.seeds.size() > 1 ? ", mean of " + o.seeds.size() + " seeds" : "") + ")", "members",
                "efficiency (lower bound / makespan)");
        for (boolean stealing : new boolean[] {true, false}) {
            List<double[]> points = meanPerMemberCount(rows, stealing, row -> row.result().efficiency());
            if (!points.isEmpty()) {
                p.add(new SvgPlot.Series(stealing ? "stealing" : "no stealing", points));
            }
        }
        if (o.central) {
            p.add(new SvgPlot.Series("central list schedule",
                    meanPerMemberCount(rows, o.stealing, Row::centralEfficiency)));
        }
        return p.goal(0.98, "goal: 98%").render();
    }

    /** One point per member count, in the order run: the mean of {@code value} over that count's seeds. */
    private static List<double[]> meanPerMemberCount(List<Row> rows, boolean stealing,
            java.util.function.ToDoubleFunction<Row> value) {
        Map<Integer, double[]> sums = new LinkedHashMap<>();
        for (Row row : rows) {
            if (row.stealing() == stealing) {
                double[] sum = sums.computeIfAbsent(row.result().members(), m -> new double[2]);
                sum[0] += value.applyAsDouble(row);
                sum[1]++;
            }
        }
        List<double[]> points = new ArrayList<>();
        sums.forEach((members, sum) -> points.add(new double[] {members, sum[0] / sum[1]}));
        return points;
    }

    private static void writeFile(Path file, String text) throws IOException {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new IOException("could not write " + file + ": " + e.getMessage(), e);
        }
    }

    // ---- argument checks ------------------------------------------------------------------------------------

    private static String workloadKind(String value) {
        if (List.of("bspgemm", "bspgemm-tiles", "gemm", "cholesky").contains(value)) {
            return value;
        }
        if (value.startsWith("trace:") && value.length() > "trace:".length()) {
            return value;
        }
        throw new IllegalArgumentException("--workload must be bspgemm, bspgemm-tiles, gemm, cholesky or trace:FILE, "
                + "got '" + value
                + "'");
    }

    /** The most seeds one command runs: enough for a spread, few enough that a typo cannot run for days. */
    static final int MAX_SEEDS = 100;

    /** {@code N}, {@code N,M,...} or {@code A-B} (A to B, both included). */
    private static List<Long> seedList(String value) {
        List<Long> out = new ArrayList<>();
        for (String part : value.split(",")) {
            String p = part.strip();
            int dash = p.indexOf('-', 1);
            if (dash < 0) {
                out.add(parseLong("seed", p));
            } else {
                long from = parseLong("seed", p.substring(0, dash));
                long to = parseLong("seed", p.substring(dash + 1));
                if (to < from || to - from >= MAX_SEEDS) {
                    throw new IllegalArgumentException("--seed range " + p + " must go up, with at most " + MAX_SEEDS
                            + " seeds");
                }
                for (long seed = from; seed <= to; seed++) {
                    out.add(seed);
                }
            }
            if (out.size() > MAX_SEEDS) {
                throw new IllegalArgumentException("--seed: at most " + MAX_SEEDS + " seeds, got more in '" + value
                        + "'");
            }
        }
        return List.copyOf(out);
    }

    private static List<Integer> memberList(String value) {
        List<Integer> out = new ArrayList<>();
        for (String part : value.split(",")) {
            out.add(positive("members", part.strip()));
        }
        return List.copyOf(out);
    }

    private static boolean flag(String name, String value) {
        if (value == null) {
            return true;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException("--" + name + " takes no value (or true/false), got '"
                    + value + "'");
        };
    }

    /**
     * Throws why {@code --name} came without a value: it is no option at all (found by trying it on options
     * nobody uses), or one that needs a value.
     */
    private static String missingValue(String name) {
        try {
            option(new Options(), name, "");
        } catch (IllegalArgumentException e) {
            if (("unknown option --" + name).equals(e.getMessage())) {
                throw e;
            }
        }
        throw new IllegalArgumentException("--" + name + " needs a value: --" + name + "=...");
    }

    private static String required(String name, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("--" + name + " needs a value: --" + name + "=...");
        }
        return value;
    }

    private static int positive(String name, String value) {
        long n = positiveLong(name, value);
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--" + name + " must be at most " + Integer.MAX_VALUE + ", got " + n);
        }
        return (int) n;
    }

    private static int nonNegativeInt(String name, String value) {
        long n = parseLong(name, value);
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--" + name + " must be a whole number >= 0, got '" + value + "'");
        }
        return (int) n;
    }

    private static long positiveLong(String name, String value) {
        long n = parseLong(name, value);
        if (n < 1) {
            throw new IllegalArgumentException("--" + name + " must be a whole number >= 1, got '" + value + "'");
        }
        return n;
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, got '" + value + "'");
        }
    }

    private static double fraction(String name, String value) {
        double d = parseDouble(name, value);
        if (!(d > 0 && d <= 1)) {
            throw new IllegalArgumentException("--" + name + " must be in (0, 1], got '" + value + "'");
        }
        return d;
    }

    private static double nonNegative(String name, String value) {
        double d = parseDouble(name, value);
        if (!(d >= 0) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("--" + name + " must be a number >= 0, got '" + value + "'");
        }
        return d;
    }

    private static String orderName(SimConfig.Order order) {
        return switch (order) {
            case SUBMISSION -> "submission";
            case RANK -> "rank";
            case RANK_AND_STREAMS -> "rank+streams";
            case RANK_AND_PRIORITIES -> "rank+priorities";
        };
    }

    private static double rankFactor(String name, String value) {
        double d = parseDouble(name, value);
        if (!StealSettings.validRankFactor(d)) {
            throw new IllegalArgumentException("--" + name + " must be 0 (no requests by rank) or a number >= 1, got '"
                    + value + "'");
        }
        return d;
    }

    private static ThiefCap thiefCap(String name, String value) {
        try {
            return ThiefCap.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + name + " must be off, all or repeat, got '" + value + "'");
        }
    }

    private static double parseDouble(String name, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a number, got '" + value + "'");
        }
    }

    /** Nanoseconds per byte: a number, fractions allowed, with an optional {@code ns}. */
    private static double nanosPerByte(String name, String value) {
        String v = value.endsWith("ns") ? value.substring(0, value.length() - 2) : value;
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            d = Double.NaN;
        }
        if (!(d >= 0) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("--" + name + " must be nanoseconds per byte, a number >= 0 such as "
                    + "4.89 or 4.89ns, got '" + value + "'");
        }
        return d;
    }

    private static double bandwidth(String name, String value) {
        String v = value.endsWith("/s") ? value.substring(0, value.length() - 2) : value;
        long bytes;
        try {
            bytes = Specs.bytes(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + name + " must be bytes per second such as 12.5GB or 500MB/s, got '"
                    + value + "'", e);
        }
        if (bytes < 1) {
            throw new IllegalArgumentException("--" + name + " must be above 0 bytes per second, got '" + value + "'");
        }
        return bytes;
    }

    /** Entry point without the launcher. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }
}
