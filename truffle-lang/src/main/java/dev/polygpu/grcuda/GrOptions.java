package dev.polygpu.grcuda;

import com.oracle.truffle.api.Option;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.CpuLink;
import org.graalvm.options.OptionCategory;
import org.graalvm.options.OptionKey;
import org.graalvm.options.OptionStability;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.graalvm.options.OptionType;

/**
 * The {@code grcuda.*} options, with GrCUDA's names and values plus polygpu's own ({@code Device}, the schedule
 * exports, and the {@code Cluster…} options of the cluster layer). An unknown value is an error that lists the
 * valid ones (GrCUDA silently fell back to the default); values of a fixed form (ports, durations, member
 * addresses) are checked when given. Read once per context into {@link GrSettings}.
 */
@Option.Group(GrCUDALanguage.ID)
public final class GrOptions {
    /** A duration as {@link #duration} accepts it: seconds, or a number with the unit {@code ms} or {@code s}. */
    private static final Pattern DURATION = Pattern.compile("\\d+(\\.\\d+)?\\s*(ms|s)?", Pattern.CASE_INSENSITIVE);

    private GrOptions() {
    }

    @Option(help = "Execution of kernels and array operations: async (default; scheduled on a DAG) or sync.",
            category = OptionCategory.USER, stability = OptionStability.STABLE, usageSyntax = "async|sync")
    public static final OptionKey<Policies.ExecutionPolicy> ExecutionPolicy =
            new OptionKey<>(Policies.ExecutionPolicy.ASYNC, Policies.type("ExecutionPolicy", Policies.ExecutionPolicy.class));

    @Option(help = "Dependencies between computations: with-const (default; two readers of an array may overlap)"
            + " or no-const (any shared array orders them).", category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "no-const|with-const")
    public static final OptionKey<Policies.DependencyPolicy> DependencyPolicy =
            new OptionKey<>(Policies.DependencyPolicy.WITH_CONST, Policies.type("DependencyPolicy", Policies.DependencyPolicy.class));

    @Option(help = "Streams for computations without parents: reuse (a pool of free streams; 'fifo' is an old"
            + " name) or always-new.", category = OptionCategory.USER, stability = OptionStability.STABLE,
            usageSyntax = "reuse|always-new")
    public static final OptionKey<Policies.NewStreamPolicy> RetrieveNewStreamPolicy =
            new OptionKey<>(Policies.NewStreamPolicy.REUSE, Policies.type("RetrieveNewStreamPolicy", Policies.NewStreamPolicy.class));

    @Option(help = "Streams for computations with parents: disjoint (default; the first child continues its"
            + " parent's stream, siblings spread), same-as-parent, or with several devices multigpu-early-disjoint"
            + " (device chosen first, then a free parent stream there) or multigpu-disjoint (device chosen among"
            + " the free parents' devices); the multi-GPU ones are disjoint on one device.",
            category = OptionCategory.USER, stability = OptionStability.STABLE,
            usageSyntax = "same-as-parent|disjoint|multigpu-early-disjoint|multigpu-disjoint")
    public static final OptionKey<Policies.ParentStreamPolicy> RetrieveParentStreamPolicy =
            new OptionKey<>(Policies.ParentStreamPolicy.DISJOINT, Policies.type("RetrieveParentStreamPolicy", Policies.ParentStreamPolicy.class));

    @Option(help = "Which device runs a computation when there are several (grcuda.NumberOfGPUs): single-gpu"
            + " (default: the current device, cudaSetDevice), round-robin, stream-aware (the least loaded),"
            + " min-transfer-size, minmin-transfer-time or minmax-transfer-time (GrCUDA's heuristics).",
            category = OptionCategory.USER,
            stability = OptionStability.STABLE,
            usageSyntax = "single-gpu|round-robin|stream-aware|min-transfer-size|minmin-transfer-time|minmax-transfer-time")
    public static final OptionKey<Policies.DeviceSelectionPolicy> DeviceSelectionPolicy =
            new OptionKey<>(Policies.DeviceSelectionPolicy.SINGLE_GPU, Policies.type("DeviceSelectionPolicy", Policies.DeviceSelectionPolicy.class));

    @Option(help = "Prefetch the arrays a kernel uses to the device before it launches (on a GPU that has concurrent"
            + " managed access; the CPU device has nothing to move).", category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "false|true")
    public static final OptionKey<Boolean> InputPrefetch = new OptionKey<>(false);

    @Option(help = "Accepted for GrCUDA's scripts and otherwise ignored: the scheduler already keeps the host off"
            + " memory that queued work uses, so there is no memory to attach to streams.",
            category = OptionCategory.USER, stability = OptionStability.STABLE, usageSyntax = "false|true")
    public static final OptionKey<Boolean> ForceStreamAttach = new OptionKey<>(false);

    @Option(help = "Accepted for GrCUDA's scripts and otherwise ignored: every computation is timed (see"
            + " grcuda.Timeline and grcuda.ScheduleReport).", category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "false|true")
    public static final OptionKey<Boolean> EnableComputationTimers = new OptionKey<>(false);

    @Option(help = "Number of GPUs to use: 1 (default). Without a GPU (grcuda.Device=cpu, or auto on a machine"
            + " without one), N CPU devices, each with its own memory and a share of the cores, stand in for N GPUs"
            + " (at most 63); on a GPU, polygpu uses one so far and says so.", category = OptionCategory.USER,
            stability = OptionStability.STABLE,
            usageSyntax = "<integer >= 1>")
    public static final OptionKey<Integer> NumberOfGPUs = new OptionKey<>(1, positive("NumberOfGPUs"));

    @Option(help = "GrCUDA's data-aware device selection: the share of a kernel's data (0 to 1) a device must hold"
            + " already to be considered (more than this). 0.1 (default); without effect on one device.",
            category = OptionCategory.USER, stability = OptionStability.STABLE, usageSyntax = "<number from 0 to 1>")
    public static final OptionKey<Double> DataThreshold = new OptionKey<>(0.1, fraction("DataThreshold"));

    @Option(help = "GrCUDA's cudaMemAdvise flag for arrays when several GPUs are used: none (default), read-mostly"
            + " or preferred-location; checked, and without effect on one device.", category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "none|read-mostly|preferred-location")
    public static final OptionKey<Policies.MemAdvisePolicy> MemAdvisePolicy = new OptionKey<>(
            Policies.MemAdvisePolicy.NONE, Policies.type("MemAdvisePolicy", Policies.MemAdvisePolicy.class));

    @Option(help = "GrCUDA's CSV of the bandwidth between CPU and GPUs, for the transfer-time device selection"
            + " policies and the choice of a transfer's source; accepted and unused on one device. Empty (default):"
            + " measured on the devices the first time, then cached (polygpu --bandwidth-matrix prints it).",
            category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "<path>")
    public static final OptionKey<String> BandwidthMatrix = new OptionKey<>("");

    @Option(help = "Write the computation DAG as a Graphviz .dot file at this path when the context closes"
            + " ('false': do not).", category = OptionCategory.USER, stability = OptionStability.STABLE,
            usageSyntax = "false|<path>")
    public static final OptionKey<String> ExportDAG = new OptionKey<>("false", outputPath("ExportDAG"));

    @Option(help = "Write a Chrome trace (JSON; open it in ui.perfetto.dev) of every computation at this path when the"
            + " context closes ('false': do not).", category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "false|<path>")
    public static final OptionKey<String> Timeline = new OptionKey<>("false", outputPath("Timeline"));

    @Option(help = "Print a summary of the computation DAG (size, width, critical path, makespan) to standard error"
            + " when the context closes.", category = OptionCategory.USER, stability = OptionStability.STABLE,
            usageSyntax = "false|true")
    public static final OptionKey<Boolean> ScheduleReport = new OptionKey<>(false);

    @Option(help = "Record every computation from the start, so that the program can draw the DAG and timeline of"
            + " what ran with polygpu_schedule(format) (the notebook kernel sets it).", category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "false|true")
    public static final OptionKey<Boolean> RecordSchedule = new OptionKey<>(false);

    @Option(help = "How many computations may be on the device's streams at once; the others wait, ready, in a queue"
            + " (where a cluster may take them). 0 (default): twice the device's multiprocessors, 4 to 32.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "<integer >= 0>")
    public static final OptionKey<Integer> InFlightWindow = new OptionKey<>(0, nonNegative("InFlightWindow"));

    @Option(help = "Chaos mode of the CPU device for testing: random delays and reordering across streams within CUDA's"
            + " rules. 'false' (default), a seed ('42') or 'seed=42,delay=<max microseconds>'.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "false|<seed>|seed=<n>,delay=<us>")
    public static final OptionKey<String> DeviceChaos = new OptionKey<>("false", chaos());

    @Option(help = "How many thread blocks the CPU device runs at once, across all streams (one worker thread each;"
            + " the device reports as many multiprocessors). 0 (default): one per available processor, or with several"
            + " CPU devices (grcuda.NumberOfGPUs) each its share of them, at least 1; a number: that many each. More"
            + " than the cores helps kernels that wait in __nanosleep, which holds a block's worker but no core.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE,
            usageSyntax = "<integer from 0 to " + CpuDevice.MAX_CONCURRENT_BLOCKS + ">")
    public static final OptionKey<Integer> CpuBlocks = new OptionKey<>(0, cpuBlocks());

    @Option(help = "The simulated link between CPU devices standing in for GPUs (grcuda.NumberOfGPUs): every copy"
            + " between two of them, or between one and the memory that serves as the host's, takes at least"
            + " latency + bytes / bandwidth. 'none' (default): no delay; or 'bandwidth=<GB/s>,latency=<microseconds>'.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE,
            usageSyntax = "none|bandwidth=<GB/s>,latency=<us>")
    public static final OptionKey<String> CpuDeviceLink = new OptionKey<>("none", cpuDeviceLink());

    @Option(help = "Longest a kernel launch may run on the CPU device before it is stopped and fails with"
            + " CUDA_ERROR_LAUNCH_TIMEOUT: milliseconds ('500') or a duration ('500ms', '2s', '1.5s'); 0 (default):"
            + " no limit. A GPU's own watchdog applies there instead.", category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "0|<milliseconds>|<duration>")
    public static final OptionKey<String> KernelTimeout = new OptionKey<>("0", kernelTimeout());

    @Option(help = "Which device runs kernels: auto (a GPU when one is usable, else the CPU device), cpu or cuda.",
            category = OptionCategory.USER, stability = OptionStability.STABLE, usageSyntax = "auto|cpu|cuda")
    public static final OptionKey<Policies.DeviceKind> Device =
            new OptionKey<>(Policies.DeviceKind.AUTO, Policies.type("Device", Policies.DeviceKind.class));

    @Option(help = "Join a polygpu cluster: the addresses (host:port, comma-separated) of members to look for, e.g."
            + " 127.0.0.1:5701,127.0.0.1:5702. Idle members then steal ready kernels from this program and run them."
            + " Empty (default): no cluster.", category = OptionCategory.USER, stability = OptionStability.STABLE,
            usageSyntax = "<host:port>,<host:port>,...")
    public static final OptionKey<String> Cluster = new OptionKey<>("", memberList());

    @Option(help = "Name of the cluster to join; members with different names never see each other.",
            category = OptionCategory.USER, stability = OptionStability.STABLE, usageSyntax = "<name>")
    public static final OptionKey<String> ClusterName = new OptionKey<>("polygpu", notBlank("ClusterName"));

    @Option(help = "Interface this member listens on for the cluster (127.0.0.1 by default; any other needs"
            + " grcuda.ClusterSecret).", category = OptionCategory.USER, stability = OptionStability.STABLE,
            usageSyntax = "<address>")
    public static final OptionKey<String> ClusterBind = new OptionKey<>("127.0.0.1", notBlank("ClusterBind"));

    @Option(help = "First port this member tries to listen on; the first free one of the 100 from there is taken.",
            category = OptionCategory.USER, stability = OptionStability.STABLE, usageSyntax = "<1..65436>")
    public static final OptionKey<Integer> ClusterPort = new OptionKey<>(5701, port("ClusterPort"));

    @Option(help = "Shared secret every cluster message proves; the same on every member. Empty (default): the"
            + " POLYGPU_CLUSTER_SECRET environment variable when set. Required unless bound to loopback.",
            category = OptionCategory.USER, stability = OptionStability.STABLE, usageSyntax = "<secret>")
    public static final OptionKey<String> ClusterSecret = new OptionKey<>("");

    @Option(help = "How often cluster members tell each other they are alive (whole seconds, e.g. 1s).",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "<duration>")
    public static final OptionKey<String> ClusterHeartbeat = new OptionKey<>("1s", duration("ClusterHeartbeat"));

    @Option(help = "A member silent this long is declared dead and the kernels it took from this program run here"
            + " again (whole seconds, at least two heartbeats).", category = OptionCategory.EXPERT,
            stability = OptionStability.STABLE, usageSyntax = "<duration>")
    public static final OptionKey<String> ClusterFailAfter = new OptionKey<>("5s", duration("ClusterFailAfter"));

    @Option(help = "Steal and give work in the cluster (default); false joins without stealing (a baseline).",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "true|false")
    public static final OptionKey<Boolean> ClusterStealing = new OptionKey<>(true);

    @Option(help = "Steal when fewer kernels than this are ready or running here. 0 (default): the in-flight window + 2.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "<integer >= 0>")
    public static final OptionKey<Integer> ClusterThreshold = new OptionKey<>(0, nonNegative("ClusterThreshold"));

    @Option(help = "Most kernels handed over in one steal. 0 (default): half the in-flight window.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "<integer >= 0>")
    public static final OptionKey<Integer> ClusterChunk = new OptionKey<>(0, nonNegative("ClusterChunk"));

    @Option(help = "While busy, ask other members for kernels whose rank (the longest chain of kernels from them to"
            + " the end of the program) is above this many times that of the kernels this member runs next."
            + " 2 (default); 0: off (ask only when starving); else at least 1.", category = OptionCategory.EXPERT,
            stability = OptionStability.STABLE, usageSyntax = "<0 or a number >= 1>")
    public static final OptionKey<Double> ClusterRankFactor = new OptionKey<>(2.0, rankFactor());

    @Option(help = "Kernels this member runs for others (stolen) whose stream priority would be above the lowest"
            + " may go on the device's streams up to this many beyond a full in-flight window, so that they wait only"
            + " for a free slot. 1 (default); 0: off.", category = OptionCategory.EXPERT,
            stability = OptionStability.STABLE, usageSyntax = "<integer >= 0>")
    public static final OptionKey<Integer> ClusterStolenOverflow = new OptionKey<>(1,
            nonNegative("ClusterStolenOverflow"));

    @Option(help = "Send every this many steal requests to a member drawn at random instead of the member that last"
            + " gave work (which stays the first asked otherwise). 8 (default); 0: off.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "<integer >= 0>")
    public static final OptionKey<Integer> ClusterRandomEvery = new OptionKey<>(8, nonNegative("ClusterRandomEvery"));

    @Option(help = "The most kernels a request by rank (made while this member is busy with lower-ranked work) asks"
            + " for. 1 (default); 0: the steal chunk.", category = OptionCategory.EXPERT,
            stability = OptionStability.STABLE, usageSyntax = "<integer >= 0>")
    public static final OptionKey<Integer> ClusterRankChunk = new OptionKey<>(1, nonNegative("ClusterRankChunk"));

    @Option(help = "How many members (the first programs to join) keep the load the others report and send thieves"
            + " that found nothing to the members with the most to give; every member must use the same number. 16"
            + " (default); 0: none.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "<integer >= 0>")
    public static final OptionKey<Integer> ClusterDirectories = new OptionKey<>(16, nonNegative("ClusterDirectories"));

    @Option(help = "Send the kernel that a thief's result has just made ready (the next link of a chain) straight to"
            + " that thief when it holds no other stolen kernel, instead of waiting for its next request (default);"
            + " false: never.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "true|false")
    public static final OptionKey<Boolean> ClusterPushContinuations = new OptionKey<>(true);

    @Option(help = "When this program has work again, tell the starving members it sent away with nothing, so that"
            + " they ask at once instead of waiting out their back-off of up to 50 ms (default); false: never.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "true|false")
    public static final OptionKey<Boolean> ClusterWakeThieves = new OptionKey<>(true);

    @Option(help = "Learn how fast this member's device is against the other members' (from run times of the"
            + " kernels they share) and, on a slower one, keep fewer kernels here: the steal threshold and in-flight"
            + " window scaled by the relative speed (default); false: keep the configured ones.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "true|false")
    public static final OptionKey<Boolean> ClusterLearnSpeeds = new OptionKey<>(true);

    @Option(help = "Bytes of other members' input arrays this member keeps when it runs their kernels, so that an"
            + " unchanged array is not sent again: a size such as 256MB (default), 1GB, or 0 (off).",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "<size>")
    public static final OptionKey<String> ClusterInputCache = new OptionKey<>("256MB");

    @Option(help = "Fault injection for testing: lose and delay this member's outgoing cluster messages."
            + " Empty (default): none.", category = OptionCategory.EXPERT, stability = OptionStability.STABLE,
            usageSyntax = "drop=<p>,delay=<ms>,seed=<n>")
    public static final OptionKey<String> ClusterFaults = new OptionKey<>("");

    @Option(help = "Print this member's cluster counters (kernels stolen and given, re-runs, bytes moved, steal"
            + " latency) to standard error when the context closes.", category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "false|true")
    public static final OptionKey<Boolean> ClusterStats = new OptionKey<>(false);

    /** The option type of {@link #CpuDeviceLink}: 'none' or what {@link CpuLink#parse} reads, checked when given. */
    static OptionType<String> cpuDeviceLink() {
        return new OptionType<>("CpuDeviceLink", s -> {
            String t = s.trim();
            if (!t.equals("none")) {
                try {
                    CpuLink.parse(t);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("grcuda.CpuDeviceLink: " + e.getMessage()
                            + "; or 'none' for no delay");
                }
            }
            return t;
        });
    }

    /** The simulated link {@code option} (a checked {@link #CpuDeviceLink} value) describes. */
    static CpuLink cpuLink(String option) {
        return option.equals("none") ? CpuLink.NONE : CpuLink.parse(option);
    }

    /** The option type of {@link #DeviceChaos}: checked when the option is given, so a bad value fails early. */
    static OptionType<String> chaos() {
        return new OptionType<>("DeviceChaos", s -> {
            String t = s.trim();
            if (!t.equals("false")) {
                try {
                    dev.polygpu.device.cpu.Chaos.parse(t);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("grcuda.DeviceChaos: " + e.getMessage());
                }
            }
            return t;
        });
    }

    /**
     * The option type of {@link #CpuBlocks}: 0 (the default) or a number of blocks the CPU device accepts,
     * with a message naming the option and the range.
     */
    static OptionType<Integer> cpuBlocks() {
        int max = CpuDevice.MAX_CONCURRENT_BLOCKS;
        String expected = "grcuda.CpuBlocks must be an integer from 0 (one block per processor) to " + max + ", got ";
        return new OptionType<>("CpuBlocks", s -> {
            int v;
            try {
                v = Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(expected + "'" + s + "'");
            }
            if (v < 0 || v > max) {
                throw new IllegalArgumentException(expected + v);
            }
            return v;
        });
    }

    /** The option type of an integer that must be 0 or more, with a message naming the option. */
    static OptionType<Integer> nonNegative(String name) {
        return new OptionType<>(name, s -> {
            int v;
            try {
                v = Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("grcuda." + name + " must be an integer of 0 or more, got '" + s + "'");
            }
            if (v < 0) {
                throw new IllegalArgumentException("grcuda." + name + " must be an integer of 0 or more, got " + v);
            }
            return v;
        });
    }

    /**
     * The option type of {@link #ClusterRankFactor}: 0, or a finite number of at least 1 (the cluster's own rule,
     * checked here so that a bad value fails when the context is created).
     */
    /** A number from 0 to 1. */
    static OptionType<Double> fraction(String option) {
        String expected = "grcuda." + option + " must be a number from 0 to 1, got ";
        return new OptionType<>(option, s -> {
            double v;
            try {
                v = Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(expected + "'" + s + "'");
            }
            if (!(v >= 0 && v <= 1)) {
                throw new IllegalArgumentException(expected + s);
            }
            return v;
        });
    }

    static OptionType<Double> rankFactor() {
        String expected = "grcuda.ClusterRankFactor must be 0 (off) or a number of at least 1, got ";
        return new OptionType<>("ClusterRankFactor", s -> {
            double v;
            try {
                v = Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(expected + "'" + s + "'");
            }
            if (!(v == 0 || v >= 1 && Double.isFinite(v))) {
                throw new IllegalArgumentException(expected + s.trim());
            }
            return v;
        });
    }

    /**
     * The option type of a file written when the context closes ({@code false}, or a path): the path is checked
     * when the context is created, so that a long run does not end without the file it was started for.
     */
    static OptionType<String> outputPath(String name) {
        return new OptionType<>(name, s -> {
            String t = s.trim();
            if (t.isEmpty() || t.equals("false")) {
                return s;
            }
            Path path;
            try {
                path = Path.of(t);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("grcuda." + name + "=" + s + " is not a valid path: "
                        + e.getReason());
            }
            // A relative path is the program's working directory's (a daemon-run program's is not this JVM's):
            // checked when the context is made (ScheduleExports), where that directory is known.
            String why = path.isAbsolute() ? unwritable(path) : null;
            if (why != null) {
                throw new IllegalArgumentException("grcuda." + name + "=" + s + " cannot be written: " + why);
            }
            return s;
        });
    }

    /** Why the file {@code path} (absolute) cannot be written, or null when it can. */
    static String unwritable(Path path) {
        Path folder = path.getParent();
        return Files.isDirectory(path) ? "it is a folder; name a file in it"
                : folder == null || !Files.isDirectory(folder) ? "the folder " + folder + " does not exist"
                : !Files.isWritable(folder) ? "the folder " + folder + " cannot be written"
                : Files.exists(path) && !Files.isWritable(path) ? "the file exists and cannot be written"
                : null;
    }

    /** The option type of an integer that must be positive, with a message naming the option. */
    static OptionType<Integer> positive(String name) {
        return new OptionType<>(name, s -> {
            int v;
            try {
                v = Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("grcuda." + name + " must be a positive integer, got '" + s + "'");
            }
            if (v <= 0) {
                throw new IllegalArgumentException("grcuda." + name + " must be a positive integer, got " + v);
            }
            return v;
        });
    }

    /**
     * The option type of {@link #Cluster}: comma-separated {@code host:port} addresses (a missing port is the
     * cluster's default). Only the form is checked here; the cluster module resolves and reaches them.
     */
    static OptionType<String> memberList() {
        return new OptionType<>("Cluster", s -> {
            String t = s.strip();
            if (t.isEmpty()) {
                return t;
            }
            int count = 0;
            for (String part : t.split(",")) {
                String m = part.strip();
                if (m.isEmpty()) {
                    continue;
                }
                count++;
                int colon = m.lastIndexOf(':');
                if (colon == 0) {
                    throw new IllegalArgumentException("grcuda.Cluster: member address '" + m
                            + "' has no host; write host:port, e.g. 127.0.0.1:5701");
                }
                if (colon > 0) {
                    String port = m.substring(colon + 1);
                    if (!validPort(port)) {
                        throw new IllegalArgumentException("grcuda.Cluster: member address '" + m + "' has port '"
                                + port + "', which is not a port number in 1..65535 (write host:port, e.g. "
                                + "127.0.0.1:5701; port ranges are not accepted: list the members one by one)");
                    }
                }
            }
            if (count == 0) {
                throw new IllegalArgumentException("grcuda.Cluster='" + s + "' names no member; give host:port"
                        + " addresses separated by commas, or leave it empty to run without a cluster");
            }
            return t;
        });
    }

    private static boolean validPort(String text) {
        try {
            int p = Integer.parseInt(text.strip());
            return p >= 1 && p <= 65535;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The option type of a port number, with a message naming the option. */
    static OptionType<Integer> port(String name) {
        return new OptionType<>(name, s -> {
            // A member tries 100 ports from this one (the cluster's ClusterConfig.PORT_COUNT): all must exist.
            if (!validPort(s) || Integer.parseInt(s.strip()) > LAST_FIRST_PORT) {
                throw new IllegalArgumentException("grcuda." + name + " must be a port number in 1.."
                        + LAST_FIRST_PORT + " (a member listens on the first free one of the 100 ports from there),"
                        + " got '" + s + "'");
            }
            return Integer.parseInt(s.strip());
        });
    }

    /** The highest port a member may start from: it tries 100 ports, and 65535 is the last. */
    private static final int LAST_FIRST_PORT = 65535 - 99;

    /** The option type of a string that must not be empty, with a message naming the option. */
    static OptionType<String> notBlank(String name) {
        return new OptionType<>(name, s -> {
            if (s.isBlank()) {
                throw new IllegalArgumentException("grcuda." + name + " must not be empty");
            }
            return s.strip();
        });
    }

    /**
     * The option type of a duration as the cluster reads it: a number of seconds with an optional unit,
     * {@code 500ms}, {@code 2s}, {@code 1.5s} or {@code 3}. Whether the value suits its use (whole seconds,
     * at least two heartbeats) is the cluster's to say when it is joined.
     */
    static OptionType<String> kernelTimeout() {
        return new OptionType<>("KernelTimeout", s -> {
            kernelTimeoutLimit(s);
            return s.strip();
        });
    }

    /**
     * The limit {@code grcuda.KernelTimeout} spells: a bare number is milliseconds, else a number with {@code ms}
     * or {@code s}; zero means none (returns {@link java.time.Duration#ZERO}).
     */
    static java.time.Duration kernelTimeoutLimit(String s) {
        String t = s.strip().toLowerCase(java.util.Locale.ROOT);
        if (!DURATION.matcher(t).matches()) {
            throw new IllegalArgumentException("grcuda.KernelTimeout must be 0 (no limit), milliseconds such as 500,"
                    + " or a duration such as 500ms, 2s or 1.5s, got '" + s + "'");
        }
        boolean seconds = t.endsWith("s") && !t.endsWith("ms");
        String number = t.replaceAll("\\s*(ms|s)$", "");
        java.math.BigDecimal ms = new java.math.BigDecimal(number).multiply(java.math.BigDecimal.valueOf(seconds
                ? 1000 : 1));
        java.math.BigDecimal nanos = ms.multiply(java.math.BigDecimal.valueOf(1_000_000));
        if (nanos.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("grcuda.KernelTimeout is too long: '" + s + "' (at most "
                    + Long.MAX_VALUE / 1_000_000_000L + " s)");
        }
        return java.time.Duration.ofNanos(nanos.longValue());
    }

    static OptionType<String> duration(String name) {
        return new OptionType<>(name, s -> {
            String t = s.strip();
            if (!DURATION.matcher(t).matches()) {
                throw new IllegalArgumentException("grcuda." + name + " must be a duration such as 500ms, 1s or 2.5s,"
                        + " got '" + s + "'");
            }
            return t;
        });
    }
}
