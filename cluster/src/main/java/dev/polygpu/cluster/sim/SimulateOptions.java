package dev.polygpu.cluster.sim;

import dev.polygpu.cli.YesNo;
import dev.polygpu.cluster.ClusterConfig;
import dev.polygpu.cluster.policy.InputCache;
import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.ThiefCap;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The options of {@code polygpu simulate}, as picocli reads them ({@code --members=16,64} or
 * {@code --members 16,64}); each value is checked by its converter ({@link OptionValues}), and {@link #check}
 * checks the options against each other once all are read. {@link SimulateCommand} runs them.
 */
@Command(name = "polygpu simulate", sortOptions = false, synopsisHeading = "Usage: ",
        customSynopsis = "polygpu simulate [options]",
        description = {"Simulates work stealing among cluster members that run the real policy classes, and prints "
                + "the makespan against the lower bound max(total work / slots, critical path) for each member count "
                + "(a Markdown table on standard output, progress on standard error). Options take their value as "
                + "--name=value or --name value; docs/simulator.md says more."},
        optionListHeading = "")
class SimulateOptions {
    /** The first option of each section of the help, and the section's heading. */
    static final Map<String, String> SECTIONS = Map.of("--workload", "workload", "--members", "cluster", "--csv",
            "output");

    // ---- workload

    @Option(names = "--workload", paramLabel = "bspgemm|bspgemm-tiles|gemm|cholesky|trace:FILE",
            converter = OptionValues.WorkloadKind.class, description = "bspgemm (default): imbalanced block-sparse "
            + "GEMM (PaRSEC's BSpGEMM), one kernel per tile product, chained per C tile; bspgemm-tiles: one "
            + "independent kernel per C tile, as bench/cluster runs it; gemm: dense, balanced, chained; cholesky: "
            + "tiled Cholesky DAG; trace:FILE: a DAG replayed from a Chrome trace the scheduler wrote")
    String workload = "bspgemm";

    @Option(names = "--tasks", paramLabel = "N", converter = OptionValues.PositiveLong.class,
            description = "about how many tasks (default 1000000; sets --tiles)")
    long tasks = 1_000_000;

    @Option(names = "--tiles", paramLabel = "N", converter = OptionValues.PositiveInt.class,
            description = "tiles per side of the matrices (overrides --tasks)")
    int tiles;

    @Option(names = "--density", paramLabel = "F", converter = OptionValues.Fraction.class,
            description = "bspgemm: mean share of nonzero tiles of A (default 0.125)")
    double density = 0.125;

    @Option(names = "--skew", paramLabel = "F", converter = OptionValues.NonNegative.class,
            description = "bspgemm: how unequal A's rows are, 0 = equal (default 1)")
    double skew = 1.0;

    @Option(names = "--tile-time", paramLabel = "DIST", converter = OptionValues.TileTime.class,
            description = "one tile product's duration (default lognormal:2ms:0.5); DIST is const:X, uniform:A:B, "
            + "exp:MEAN, lognormal:MEDIAN:SIGMA or pareto:MIN:ALPHA, in ns, us, ms (the default unit) or s")
    Distribution tileTime = Distribution.parseDuration("lognormal:2ms:0.5");

    @Option(names = "--tile-bytes", paramLabel = "SIZE", converter = OptionValues.Bytes.class,
            description = "a tile's size (default 64KB: 128 x 128 floats)")
    long tileBytes = 64 * 1024;

    @Option(names = "--owners", paramLabel = "N", converter = OptionValues.PositiveInt.class,
            description = "generated workloads: the tasks belong to the first N members, the others are workers "
            + "that live on stolen work (default: every member owns some)")
    int owners;

    @Option(names = "--copies", paramLabel = "N", converter = OptionValues.PositiveInt.class,
            description = "trace: replay the DAG N times, copy c owned by member c mod members (default 1: "
            + "everything owned by member 0)")
    int copies = 1;

    @Option(names = "--trace-slots", paramLabel = "N", converter = OptionValues.PositiveInt.class,
            description = "trace: the recording device ran N kernels at once; a kernel's duration is then its time "
            + "on the device, not its whole slice (launch to end), which also holds its wait behind the others "
            + "(default: the slice)")
    int traceSlots;

    @Option(names = "--seed", paramLabel = "N|N,M,...|A-B", converter = OptionValues.Seeds.class,
            description = "seed of the workload and of every random choice (default 1); several seeds run every "
            + "member count once per seed, and a line after each member count gives the efficiency's mean, minimum "
            + "and maximum over them")
    List<Long> seeds = List.of(1L);

    // ---- cluster

    @Option(names = "--members", paramLabel = "N,N,...", converter = OptionValues.MemberCounts.class,
            description = "member counts to simulate (default 16,64,256,1024)")
    List<Integer> members = List.of(16, 64, 256, 1024);

    @Option(names = "--slots", paramLabel = "N", converter = OptionValues.PositiveInt.class,
            description = "kernels a member's device runs at once (default 2)")
    int slots = 2;

    @Option(names = "--window", paramLabel = "N", converter = OptionValues.PositiveInt.class,
            description = "kernels a member keeps on its streams (default 4)")
    int window = 4;

    @Option(names = "--speeds", paramLabel = "F[*N],...", converter = OptionValues.SpeedList.class,
            description = "how fast each member's device runs against the workload's durations: member i takes "
            + "entry i mod the list's length (default 1: all alike); 1*3,0.25 makes every fourth member four times "
            + "slower; the lower bound counts each member at its speed")
    Speeds speeds = Speeds.UNIFORM;

    @Option(names = "--scale-by-speed", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "members are told their speed over the fastest member's and "
            + "scale their steal threshold and in-flight window by it (a member 4x slower keeps a quarter), as a "
            + "cluster configured per member's GPU would; no learning")
    boolean scaleBySpeed;

    @Option(names = "--learn-speeds", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "--learn-speeds=false: members keep their threshold and window "
            + "(default: each learns its speed from the run times of work it shares with others and scales both by "
            + "it, as the cluster node does: grcuda.ClusterLearnSpeeds)")
    Boolean learnSpeeds;

    @Option(names = "--threshold", paramLabel = "N", converter = OptionValues.PositiveInt.class,
            description = "steal threshold (default: from the window, as the cluster does)")
    int threshold;

    @Option(names = "--chunk", paramLabel = "N", converter = OptionValues.PositiveInt.class,
            description = "most tasks per steal reply (default: from the window, as the cluster does)")
    int chunk;

    @Option(names = "--max-hops", paramLabel = "N", converter = OptionValues.NonNegativeInt.class,
            description = "how often a steal request may be forwarded (default: as the cluster does)")
    int maxHops = -1;

    @Option(names = "--rank-chunk", paramLabel = "N", converter = OptionValues.NonNegativeInt.class,
            description = "the most tasks a request by rank asks for (default 1, as the cluster; 0: the chunk)")
    int rankChunk = ClusterConfig.DEFAULT_RANK_CHUNK;

    @Option(names = "--no-stealing", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "every member runs only its own tasks")
    boolean noStealing;

    @Option(names = "--baseline", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "also run each member count without stealing, for comparison")
    boolean baseline;

    @Option(names = "--latency", paramLabel = "DUR", converter = OptionValues.Nanos.class,
            description = "one-way latency (default 5us)")
    long latency = 5_000;

    @Option(names = "--bandwidth", paramLabel = "SIZE", converter = OptionValues.Bandwidth.class,
            description = "bytes per second per link, KB/MB/GB counted in 1,024s (default 12.5e9 bytes/s: 100 Gb/s)")
    double bandwidth = 12.5e9;

    @Option(names = "--per-message", paramLabel = "DUR", converter = OptionValues.Nanos.class,
            description = "fixed cost of each message: encode, sign, thread hand-offs (default 100us)")
    long perMessage = 100_000;

    @Option(names = "--rack-size", paramLabel = "N", converter = OptionValues.PositiveInt.class,
            description = "members per rack, for a second level of network (default: one flat network)")
    int rackSize = Integer.MAX_VALUE;

    @Option(names = "--inter-rack-latency", paramLabel = "DUR", converter = OptionValues.Nanos.class,
            description = "one-way latency between racks (default: --latency)")
    long interRackLatency = -1;

    @Option(names = "--inter-rack-bandwidth", paramLabel = "SIZE", converter = OptionValues.Bandwidth.class,
            description = "bytes per second between racks (default: --bandwidth)")
    double interRackBandwidth = -1;

    // picocli's holders of the three membership options; what they set is in events, in the order written.
    @Option(names = "--expand", paramLabel = "TIME:N", parameterConsumer = OptionValues.Membership.class,
            description = "N workers join at TIME (repeatable)")
    private List<String> expand;

    @Option(names = "--shrink", paramLabel = "TIME:N", parameterConsumer = OptionValues.Membership.class,
            description = "N workers leave gracefully at TIME (repeatable)")
    private List<String> shrink;

    @Option(names = "--crash", paramLabel = "TIME:N", parameterConsumer = OptionValues.Membership.class,
            description = "N workers crash at TIME (repeatable)")
    private List<String> crash;

    /** The {@code --expand}, {@code --shrink} and {@code --crash} events, in the order written. */
    final List<MembershipEvent> events = new ArrayList<>();

    @Option(names = "--fail-after", paramLabel = "DUR", converter = OptionValues.Nanos.class,
            description = "how long owners take to notice a crash (default 5s)")
    long failAfter = SimConfig.DEFAULT_FAIL_AFTER_NANOS;

    @Option(names = "--input-cache", paramLabel = "SIZE", converter = OptionValues.Bytes.class,
            description = "each member's cache of the input arrays it received with stolen work; an owner sends a "
            + "reference instead of an array the thief holds (default 256MB, as the cluster; 0: no cache, every "
            + "array goes with its bytes)")
    long inputCache = InputCache.DEFAULT_CAPACITY_BYTES;

    @Option(names = "--order", paramLabel = "rank+priorities|rank|rank+streams|submission",
            converter = OptionValues.TaskOrder.class, description = "rank+priorities (default, as the cluster): "
            + "members run and give their ready tasks highest rank first (the rank of a task is its bottom level: "
            + "tasks on the longest chain from it to the end), ask for higher-ranked work when theirs is low, and put "
            + "each task on a stream of the priority level the scheduler gives its rank (against the lowest rank on "
            + "the streams); the device starts the highest level first. rank: the same with no stream priorities "
            + "(tasks start in the order put on the streams: the runs from before priorities); rank+streams: the "
            + "device starts the highest-ranked task on its streams first (a priority per rank, a what-if); "
            + "submission: oldest first, no ranks (the runs from before ranks)")
    SimConfig.Order order = SimConfig.Order.RANK_AND_PRIORITIES;

    @Option(names = "--priority-levels", paramLabel = "N", converter = OptionValues.Levels.class,
            description = "stream priority levels of each device with rank+priorities (default 6, as recent GPUs "
            + "and the CPU device; 2 on older GPUs; 1 to 16)")
    int priorityLevels = SimConfig.DEFAULT_PRIORITY_LEVELS;

    @Option(names = "--rank-factor", paramLabel = "F", converter = OptionValues.RankFactor.class,
            description = "a member that is not starving asks for tasks of rank above F x the rank of what it runs "
            + "(default 2; 0: only starving members ask)")
    double rankFactor = -1;

    @Option(names = "--stolen-overflow", paramLabel = "N", converter = OptionValues.NonNegativeInt.class,
            description = "a stolen task whose priority level is above 0 goes on the streams up to N beyond a full "
            + "window (default 1, as the cluster; 0: off)")
    int stolenOverflow = ClusterConfig.DEFAULT_STOLEN_OVERFLOW;

    @Option(names = "--forget-after", paramLabel = "N", converter = OptionValues.NonNegativeInt.class,
            description = "a thief forgets the member it asks first after N empty replies in a row through it, "
            + "forwarded ones included (default 0: only when that member replies empty itself, as the cluster node)")
    int forgetAfter;

    @Option(names = "--random-every", paramLabel = "N", converter = OptionValues.NonNegativeInt.class,
            description = "a thief sends every N-th request to a member drawn at random, and keeps the one it asks "
            + "first (default 8, as the cluster node; 0: never)")
    int randomEvery = ClusterConfig.DEFAULT_RANDOM_EVERY;

    @Option(names = "--directories", paramLabel = "N", converter = OptionValues.NonNegativeInt.class,
            description = "the first N members are directories; the others report their surplus and its highest "
            + "rank to them when the surplus doubles or halves or the rank moves by a quarter; a thief whose request "
            + "came back empty asks a directory next (by rank as when starving), and a directory forwards it to the "
            + "member with the most surplus of the rank asked for it knows (default 16, as the cluster node; 0: "
            + "none)")
    int directories = ClusterConfig.DEFAULT_DIRECTORIES;

    @Option(names = "--push-continuations", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "an owner sends the task a thief's result makes ready straight "
            + "to that thief, unasked, when the thief held no other stolen task (default on, as the cluster node; "
            + "false: never)")
    boolean pushContinuations = ClusterConfig.DEFAULT_PUSH_CONTINUATIONS;

    @Option(names = "--wake-thieves", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "--wake-thieves=false: a program that sent starving thieves "
            + "away with nothing does not send them work (or word of its surplus) when it has some again, so they "
            + "come back when their back-off ends (default on, as the cluster node)")
    boolean wakeThieves = ClusterConfig.DEFAULT_WAKE_THIEVES;

    @Option(names = "--thief-cap", paramLabel = "off|all|repeat", converter = OptionValues.Cap.class,
            description = "a victim gives a thief at most the thief's slots less the tasks of this victim it holds "
            + "(not yet back): all: on every request; repeat: only on a starving thief's request while it holds "
            + "some (default off, as the node)")
    ThiefCap thiefCap = ThiefCap.OFF;

    @Option(names = "--host-cpu-per-message", paramLabel = "DUR", converter = OptionValues.Nanos.class,
            description = "host CPU a member spends on each message it sends or receives (packing, HMAC, "
            + "transport), taken from its kernels: for CPU devices on the host's cores. While every slot runs a "
            + "kernel, each ends that time / slots later; with a slot free nothing waits (default 0: none, as on "
            + "GPUs). Measured on this code: 51us (HostCpuCalibrationTest, docs/simulator.md)")
    long hostCpuPerMessage;

    @Option(names = "--host-cpu-per-byte", paramLabel = "NS", converter = OptionValues.NanosPerByte.class,
            description = "the same per byte of each message, in nanoseconds (fractions allowed; default 0). "
            + "Measured on this code: 4.89")
    double hostCpuPerByte;

    // ---- output

    @Option(names = "--csv", paramLabel = "FILE", description = "one row per run")
    Path csv;

    @Option(names = "--plot", paramLabel = "FILE.svg", description = "efficiency against members")
    Path plot;

    @Option(names = "--central", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "after each run, the makespan of a central list schedule of the "
            + "same workload on the same slots (one scheduler that sees every task starts the highest-ranked ready "
            + "one on any free slot; nothing moves, no messages): how much of the gap to the lower bound the "
            + "protocol leaves")
    boolean central;

    @Option(names = "--quiet", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "no progress on stderr")
    boolean quiet;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
    private boolean help;

    /** The stealing settings of every member: the cluster's defaults for the window, with the options given. */
    StealSettings settings() {
        StealSettings s = StealSettings.defaults(window);
        if (threshold > 0) {
            s = s.withThreshold(threshold);
        }
        if (chunk > 0) {
            s = s.withChunk(chunk);
        }
        if (maxHops >= 0) {
            s = s.withMaxHops(maxHops);
        }
        if (rankFactor >= 0) {
            s = s.withRankFactor(rankFactor);
        }
        if (rankChunk > 0) {
            s = s.withRankChunk(rankChunk);
        }
        return s.withThiefCap(thiefCap).withPushContinuations(pushContinuations).withWakeThieves(wakeThieves);
    }

    /** The host CPU model of every member ({@code --host-cpu-per-message}, {@code --host-cpu-per-byte}). */
    HostCpu hostCpu() {
        return new HostCpu(hostCpuPerMessage, hostCpuPerByte);
    }

    /** Whether members steal: not with {@code --no-stealing}. */
    boolean stealing() {
        return !noStealing;
    }

    /**
     * Checks the options against each other and fills in the defaults that depend on others (the second level of
     * network from the first, learning speeds unless told them); an IllegalArgumentException says what to change.
     */
    void check() {
        if (interRackLatency < 0) {
            interRackLatency = latency;
        }
        if (interRackBandwidth < 0) {
            interRackBandwidth = bandwidth;
        }
        failAfter = Math.max(1, failAfter);
        if (central && !events.isEmpty()) {
            throw new IllegalArgumentException("--central compares with a cluster of fixed size; it cannot be "
                    + "combined with --expand, --shrink or --crash");
        }
        if (scaleBySpeed && Boolean.TRUE.equals(learnSpeeds)) {
            throw new IllegalArgumentException("--scale-by-speed tells each member its speed and --learn-speeds "
                    + "has it learn it: give one of them");
        }
        if (learnSpeeds == null) {
            learnSpeeds = !scaleBySpeed;
        }
        if (window < slots) {
            throw new IllegalArgumentException("--window (" + window + ") must be at least --slots (" + slots + ")");
        }
    }
}
