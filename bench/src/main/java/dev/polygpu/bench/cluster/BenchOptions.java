package dev.polygpu.bench.cluster;

import dev.polygpu.bench.BenchArgs;
import dev.polygpu.cli.CommandLines;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options of {@code bench/cluster}, parsed and checked once.
 *
 * @param tiles         T: A, B and C are T × T grids of tiles
 * @param tileSize      a tile is tileSize × tileSize floats (one thread per element)
 * @param zeroFraction  the share of A's tiles that are zero
 * @param seed          the sparsity pattern's and the values' seed
 * @param msPerProduct  device time (sleep) per tile product, in ms
 * @param cpuBlocks     concurrent blocks of every member's CPU device
 * @param kernelBlocks  blocks per kernel launch (each block sleeps the kernel's whole time)
 * @param workers       worker processes besides the program's member
 * @param warmup        untimed runs per configuration, at least
 * @param warmupMillis  and untimed runs until this much time has passed in them: every member's JIT compiler
 *                      busy through the measured runs is what the members wait for on two cores
 * @param reps          measured runs per configuration
 * @param joinReps      join-to-work measurements (a late worker each)
 * @param threshold     steal threshold on every member, 0 = the cluster's default
 * @param chunk         most kernels per steal reply on every member, 0 = the cluster's default
 * @param inputCache    the input cache of every member in bytes ({@code ClusterConfig.inputCacheBytes}), -1 = the
 *                      cluster's default
 * @param port          the first port to look for a free one from
 * @param join          whether to measure join-to-work
 * @param bColumns      each kernel reads only B's tile column j instead of all of B
 * @param trace         print every kernel's placement and times of every run on stderr
 * @param chromeTraces  null, or a folder where the last measured run of each configuration is written as a
 *                      Chrome trace (the program's scheduler), for {@code polygpu simulate --workload=trace:FILE}
 * @param oldPolicies   every member runs without the five policies of issue #7 (stolen overflow, random
 *                      requests, rank chunk 1, directories, pushed continuations), as the defaults were before
 * @param noWake        the program does not wake the thieves it sent away ({@code ClusterConfig.wakeThieves})
 * @param noLearn       no member learns its speed ({@code ClusterConfig.learnSpeeds}): thresholds and windows
 *                      stay as configured
 */
record BenchOptions(int tiles, int tileSize, double zeroFraction, long seed, int msPerProduct, int cpuBlocks,
        int kernelBlocks, int workers, int warmup, long warmupMillis, int reps, int joinReps, int threshold, int chunk,
        long inputCache, int port, boolean join, boolean makespans, boolean warmUp, boolean bColumns, boolean trace,
        Path chromeTraces, boolean oldPolicies, boolean noWake, boolean noLearn) {

    static final long DEFAULT_SEED = 8;
    static final double DEFAULT_WARMUP_SECONDS = 4;

    BenchOptions {
        if (tileSize % kernelBlocks != 0 || (long) tileSize * tileSize / kernelBlocks > 1024) {
            throw new IllegalArgumentException("a block is tile-size x (tile-size / kernel-blocks) threads: tile size "
                    + tileSize + " must be a multiple of --kernel-blocks " + kernelBlocks + " and a block at most 1024"
                    + " threads");
        }
        if (cpuBlocks % kernelBlocks != 0) {
            throw new IllegalArgumentException("--cpu-blocks " + cpuBlocks + " must be a multiple of --kernel-blocks "
                    + kernelBlocks + " (so that a member runs a whole number of kernels at once)");
        }
    }

    /** Kernels one member runs at once. */
    int slotsPerMember() {
        return cpuBlocks / kernelBlocks;
    }

    /**
     * Parses and checks {@code bench/cluster}'s arguments; an IllegalArgumentException says what was wrong and what
     * to write.
     */
    static BenchOptions parse(String[] args) {
        Flags flags = new Flags(null);
        CommandLine commandLine = new CommandLine(flags).setExpandAtFiles(false).setOverwrittenOptionsAllowed(true);
        try {
            commandLine.parseArgs(args);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(CommandLines.problem(e, args), e);
        }
        return flags.options();
    }

    /** The command line of {@code bench/cluster}, which runs the benchmark with the options it read. */
    @CommandLine.Command(name = "bench/cluster", sortOptions = false, synopsisHeading = "Usage: ",
            customSynopsis = "bench/cluster [--quick] [options]",
            description = "Issue #8's cluster benchmark: a block-sparse matrix product spread by work stealing over "
                    + "worker processes on loopback (Markdown tables on stdout). Options take their value as --name "
                    + "value or --name=value.", optionListHeading = "%nOptions:%n")
    static final class Flags implements Callable<Integer> {
        private final Function<BenchOptions, Integer> bench;

        @Option(names = "--quick", description = "a smoke run: 2 ms per product, 1 warm-up + 3 runs, 1 join "
                + "measurement")
        private boolean quick;
        @Option(names = "--tiles", paramLabel = "T", converter = BenchArgs.Positive.class,
                description = "T x T tiles (default 8)")
        private int tiles = 8;
        @Option(names = "--tile-size", paramLabel = "S", converter = BenchArgs.Positive.class,
                description = "S x S floats per tile, one thread each (default 32)")
        private int tileSize = 32;
        @Option(names = "--zero-fraction", paramLabel = "F", description = "share of A's tiles that are zero "
                + "(default 0.5)")
        private String zeroFraction = "0.5";
        @Option(names = "--seed", paramLabel = "N", description = "sparsity and values (default " + DEFAULT_SEED
                + ")")
        private long seed = DEFAULT_SEED;
        @Option(names = "--ms-per-product", paramLabel = "M", converter = BenchArgs.Positive.class,
                description = "device time per tile product (default 4; --quick 2)")
        private Integer msPerProduct;
        @Option(names = "--cpu-blocks", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "concurrent blocks of every member's CPU device (default 2)")
        private int cpuBlocks = 2;
        @Option(names = "--kernel-blocks", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "blocks per kernel (default 1)")
        private int kernelBlocks = 1;
        @Option(names = "--workers", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "worker processes besides the program (default 3)")
        private int workers = 3;
        @Option(names = "--warmup", paramLabel = "N", converter = BenchArgs.NonNegative.class,
                description = "at least N untimed runs per configuration (default 3; --quick 1)")
        private Integer warmup;
        @Option(names = "--warmup-time", paramLabel = "S", description = "and untimed runs until S seconds have "
                + "passed in them (default 4; --quick 0)")
        private String warmupSeconds;
        @Option(names = "--reps", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "measured runs per configuration (default 20; --quick 3)")
        private Integer reps;
        @Option(names = "--join-reps", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "join-to-work measurements (default 3; --quick 1)")
        private Integer joinReps;
        @Option(names = "--no-join", description = "skip the join-to-work measurement")
        private boolean noJoin;
        @Option(names = "--old-policies", description = "every member without the five policies of issue #7 (the "
                + "defaults before them)")
        private boolean oldPolicies;
        @Option(names = "--no-wake", description = "the program does not wake the thieves it sent away when it has "
                + "work again")
        private boolean noWake;
        @Option(names = "--no-learn", description = "no member learns its speed (thresholds and windows stay as "
                + "configured)")
        private boolean noLearn;
        @Option(names = "--join-only", description = "only the join-to-work measurement (no makespans)")
        private boolean joinOnly;
        @Option(names = "--no-warm-up", description = "workers skip their warm-up (worker --warm-up=false)")
        private boolean noWarmUp;
        @Option(names = "--threshold", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "steal threshold on every member (default: the cluster's, window + 2)")
        private int threshold;
        @Option(names = "--chunk", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "most kernels per steal reply on every member (default: window / 2)")
        private int chunk;
        @Option(names = "--input-cache", paramLabel = "SIZE", description = "every member's input cache (default: "
                + "the cluster's, 256MB; 0: off)")
        private String inputCache;
        @Option(names = "--port", paramLabel = "P", description = "look for free ports from P (default 18200)")
        private String port = "18200";
        @Option(names = "--b-columns", description = "each kernel reads only B's tile column j (T tiles), not all "
                + "of B")
        private boolean bColumns;
        @Option(names = "--trace", description = "every kernel of every run on stderr: where, when taken, started, "
                + "ended")
        private boolean trace;
        @Option(names = "--chrome-trace", paramLabel = "DIR", description = "write the last measured run of each "
                + "configuration as a Chrome trace in DIR (the program's schedule; polygpu simulate "
                + "--workload=trace:FILE replays it)")
        private Path chromeTraces;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        /** @param bench what runs the benchmark with the options read, or null where only parsing is wanted */
        Flags(Function<BenchOptions, Integer> bench) {
            this.bench = bench;
        }

        @Override
        public Integer call() {
            return bench.apply(options());
        }

        /** The options read, checked against each other. */
        BenchOptions options() {
            if (noJoin && joinOnly) {
                throw new IllegalArgumentException("--no-join and --join-only leave nothing to measure");
            }
            int firstPort = number("--port", port, 1024);
            if (firstPort > 65535 - 1000) {
                throw new IllegalArgumentException("--port must leave room for 1000 ports above it, got " + firstPort);
            }
            return new BenchOptions(tiles, tileSize, fraction("--zero-fraction", zeroFraction), seed,
                    msPerProduct != null ? msPerProduct : quick ? 2 : 4, cpuBlocks, kernelBlocks, workers,
                    warmup != null ? warmup : quick ? 1 : 3, Math.round(1000 * (warmupSeconds != null
                    ? seconds("--warmup-time", warmupSeconds) : quick ? 0 : DEFAULT_WARMUP_SECONDS)),
                    reps != null ? reps : quick ? 3 : 20, joinReps != null ? joinReps : quick ? 1 : 3, threshold,
                    chunk, inputCache == null ? -1 : size("--input-cache", inputCache), firstPort, !noJoin,
                    !joinOnly, !noWarmUp, bColumns, trace, chromeTraces, oldPolicies, noWake, noLearn);
        }
    }

    private static int number(String name, String value, int min) {
        try {
            return BenchArgs.atLeast(value, min);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " " + e.getMessage(), e);
        }
    }

    private static long size(String name, String v) {
        try {
            return dev.polygpu.cluster.ClusterConfig.parseSize(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    private static double seconds(String name, String v) {
        try {
            double s = Double.parseDouble(v);
            if (s >= 0 && s <= 3600) {
                return s;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException(name + " needs seconds from 0 to 3600, got " + v);
    }

    private static double fraction(String name, String v) {
        try {
            double f = Double.parseDouble(v);
            if (f >= 0 && f < 1) {
                return f;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException(name + " needs a number in [0, 1), got " + v);
    }
}
