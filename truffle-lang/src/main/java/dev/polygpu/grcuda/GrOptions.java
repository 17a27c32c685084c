package dev.polygpu.grcuda;

import com.oracle.truffle.api.Option;
import dev.polygpu.device.cpu.CpuDevice;
import org.graalvm.options.OptionCategory;
import org.graalvm.options.OptionKey;
import org.graalvm.options.OptionStability;
import org.graalvm.options.OptionType;

/**
 * The {@code grcuda.*} options, with GrCUDA's names and values plus {@code Device}. An unknown value is an
 * error that lists the valid ones (GrCUDA silently fell back to the default). Read once per context into
 * {@link GrSettings}.
 */
@Option.Group(GrCUDALanguage.ID)
public final class GrOptions {
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
            + " parent's stream, siblings spread) or same-as-parent (plus multi-GPU variants, as disjoint here).",
            category = OptionCategory.USER, stability = OptionStability.STABLE,
            usageSyntax = "same-as-parent|disjoint|multigpu-early-disjoint|multigpu-disjoint")
    public static final OptionKey<Policies.ParentStreamPolicy> RetrieveParentStreamPolicy =
            new OptionKey<>(Policies.ParentStreamPolicy.DISJOINT, Policies.type("RetrieveParentStreamPolicy", Policies.ParentStreamPolicy.class));

    @Option(help = "Which GPU runs a computation when there are several.", category = OptionCategory.USER,
            stability = OptionStability.STABLE,
            usageSyntax = "single-gpu|round-robin|stream-aware|min-transfer-size|minmin-transfer-time|minmax-transfer-time")
    public static final OptionKey<Policies.DeviceSelectionPolicy> DeviceSelectionPolicy =
            new OptionKey<>(Policies.DeviceSelectionPolicy.SINGLE_GPU, Policies.type("DeviceSelectionPolicy", Policies.DeviceSelectionPolicy.class));

    @Option(help = "Prefetch kernel inputs to the device before a launch.", category = OptionCategory.USER,
            stability = OptionStability.STABLE)
    public static final OptionKey<Boolean> InputPrefetch = new OptionKey<>(false);

    @Option(help = "Attach managed memory to streams explicitly (GrCUDA compatibility; no effect on the CPU device).",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    public static final OptionKey<Boolean> ForceStreamAttach = new OptionKey<>(false);

    @Option(help = "Time each computation on the device.", category = OptionCategory.USER,
            stability = OptionStability.STABLE)
    public static final OptionKey<Boolean> EnableComputationTimers = new OptionKey<>(false);

    @Option(help = "Number of GPUs to use.", category = OptionCategory.USER, stability = OptionStability.STABLE)
    public static final OptionKey<Integer> NumberOfGPUs = new OptionKey<>(1, positive("NumberOfGPUs"));

    @Option(help = "Write the computation DAG as a Graphviz .dot file at this path when the context closes"
            + " ('false': do not).", category = OptionCategory.USER, stability = OptionStability.STABLE,
            usageSyntax = "false|<path>")
    public static final OptionKey<String> ExportDAG = new OptionKey<>("false");

    @Option(help = "Write a Chrome trace (JSON; open it in ui.perfetto.dev) of every computation at this path when the"
            + " context closes ('false': do not).", category = OptionCategory.USER,
            stability = OptionStability.STABLE, usageSyntax = "false|<path>")
    public static final OptionKey<String> Timeline = new OptionKey<>("false");

    @Option(help = "Print a summary of the computation DAG (size, width, critical path, makespan) to standard error"
            + " when the context closes.", category = OptionCategory.USER, stability = OptionStability.STABLE)
    public static final OptionKey<Boolean> ScheduleReport = new OptionKey<>(false);

    @Option(help = "How many computations may be on the device's streams at once; the others wait, ready, in a queue"
            + " (where a cluster may take them). 0 (default): twice the device's multiprocessors, 4 to 32.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "<integer >= 0>")
    public static final OptionKey<Integer> InFlightWindow = new OptionKey<>(0, nonNegative("InFlightWindow"));

    @Option(help = "Chaos mode of the CPU device for testing: random delays and reordering across streams within CUDA's"
            + " rules. 'false' (default), a seed ('42') or 'seed=42,delay=<max microseconds>'.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE, usageSyntax = "false|<seed>|seed=<n>,delay=<us>")
    public static final OptionKey<String> DeviceChaos = new OptionKey<>("false", chaos());

    @Option(help = "How many thread blocks the CPU device runs at once, across all streams (one worker thread each;"
            + " the device reports as many multiprocessors). 0 (default): one per available processor. More than the"
            + " cores helps kernels that wait in __nanosleep, which holds a block's worker but no core.",
            category = OptionCategory.EXPERT, stability = OptionStability.STABLE,
            usageSyntax = "<integer from 0 to " + CpuDevice.MAX_CONCURRENT_BLOCKS + ">")
    public static final OptionKey<Integer> CpuBlocks = new OptionKey<>(0, cpuBlocks());

    @Option(help = "Which device runs kernels: auto (a GPU when one is usable, else the CPU device), cpu or cuda.",
            category = OptionCategory.USER, stability = OptionStability.STABLE, usageSyntax = "auto|cpu|cuda")
    public static final OptionKey<Policies.DeviceKind> Device =
            new OptionKey<>(Policies.DeviceKind.AUTO, Policies.type("Device", Policies.DeviceKind.class));

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
}
