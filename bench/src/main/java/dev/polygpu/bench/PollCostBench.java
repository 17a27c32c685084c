package dev.polygpu.bench;

import dev.polygpu.cli.CommandLines;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.KernelEngine;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * What the CPU device's polls of a launch's stop request at loop back-edges cost: the same kernels compiled with
 * the polls ({@link KernelEngine#compile}) and without ({@link KernelEngine#compileWithoutLoopPolls}), each on
 * its own {@link CpuDevice} in this JVM, their launches alternated (in the order AB, BA, AB, ...) so that the load
 * of other processes and the JIT's state fall on both alike. Each launch is measured by the CPU time its device's
 * worker threads spent, which other processes' load does not add to (as wall time it would). Prints a Markdown
 * table to stdout, progress to stderr; checks each variant's result against plain Java after the rounds.
 */
public final class PollCostBench {

    private static final List<String> CASES = List.of("saxpy", "reduce", "reduce-naive", "blackscholes",
            "sgemm16", "sgemm32", "loop", "whileLoop", "tile");
    private static final String WORKER_PREFIX = "polygpu-cpu-worker-";

    private final int threads;
    private final boolean quick;
    private final int warmup;
    private final int rounds;
    private final List<String> selected;
    private final PrintStream out = System.out;
    private final PrintStream log = System.err;
    private final com.sun.management.ThreadMXBean threadBean =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private long[] workers;

    private PollCostBench(int threads, boolean quick, int warmup, int rounds, List<String> selected) {
        this.threads = threads;
        this.quick = quick;
        this.warmup = warmup;
        this.rounds = rounds;
        this.selected = selected;
    }

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new Command(), System.out, System.err, args));
    }

    /** The command line of {@code bench/poll-cost}. */
    @CommandLine.Command(name = "bench/poll-cost", sortOptions = false, synopsisHeading = "Usage: ",
            customSynopsis = "bench/poll-cost [--quick] [--threads N] [--case NAME]... [--warmup N] [--rounds N]",
            description = "Kernels with and without the stop polls at loop back-edges, launches alternated in one "
                    + "JVM, measured by the workers' CPU time (a Markdown table on stdout).",
            optionListHeading = "%nOptions:%n")
    private static final class Command implements Callable<Integer> {
        @Option(names = "--quick", description = "bench/run's quick sizes, for a smoke run")
        private boolean quick;

        @Option(names = "--threads", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "CPU device workers of each variant (default: available processors)")
        private int threads = Runtime.getRuntime().availableProcessors();

        @Option(names = "--case", paramLabel = "NAME", split = ",", description = "one of saxpy, reduce, "
                + "reduce-naive, blackscholes, sgemm16, sgemm32, loop, whileLoop, tile; repeatable or "
                + "comma-separated; default all")
        private List<String> cases = new ArrayList<>();

        @Option(names = "--warmup", paramLabel = "N", converter = BenchArgs.NonNegative.class,
                description = "warm-up launches per case and variant (default 5)")
        private int warmup = 5;

        @Option(names = "--rounds", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "measured launches per case and variant (default 20)")
        private int rounds = 20;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public Integer call() {
            for (String c : cases) {
                if (!CASES.contains(c)) {
                    throw new IllegalArgumentException("unknown case '" + c + "'; cases: " + String.join(", ", CASES));
                }
            }
            return new PollCostBench(threads, quick, warmup, rounds, cases.isEmpty() ? CASES : cases).run();
        }
    }

    private BenchCase makeCase(String name) {
        int vector = quick ? 1 << 20 : 16 << 20;
        int options = quick ? 256 << 10 : 4 << 20;
        int matrix = quick ? 256 : 1024;
        int loopThreads = quick ? 1 << 18 : 1 << 20;
        return switch (name) {
            case "saxpy" -> new SaxpyCase(vector);
            case "reduce" -> new ReductionCase(vector, ReductionCase.Form.GRID_STRIDE);
            case "reduce-naive" -> new ReductionCase(vector, ReductionCase.Form.TREE);
            case "blackscholes" -> new BlackScholesCase(options);
            case "sgemm16" -> new SgemmCase(matrix, 16);
            case "sgemm32" -> new SgemmCase(matrix, 32);
            case "loop", "whileLoop", "tile" -> new TightLoopCase(name, loopThreads);
            default -> throw new IllegalStateException(name);
        };
    }

    /** Worker CPU times (ms) of one case's launches, per variant, in round order; or why it failed. */
    private record Result(String name, String size, double[] polls, double[] noPolls, String failure) {
    }

    private int run() {
        log.printf("poll-cost: %d worker(s) per variant, %s sizes, %d warm-up + %d measured launches per case and"
                + " variant, load average %.2f%n", threads, quick ? "quick" : "full", warmup, rounds, load());
        List<Result> results = new ArrayList<>();
        try (CpuDevice withPolls = new CpuDevice(threads, KernelEngine::compile);
             CpuDevice withoutPolls = new CpuDevice(threads, KernelEngine::compileWithoutLoopPolls);
             JavaPool pool = new JavaPool(threads)) {
            workers = workerThreadIds();
            for (String name : selected) {
                results.add(runCase(name, withPolls, withoutPolls, pool));
            }
        }
        printReport(results);
        return results.stream().anyMatch(r -> r.failure != null) ? 1 : 0;
    }

    private Result runCase(String name, CpuDevice withPolls, CpuDevice withoutPolls, JavaPool pool) {
        try (BenchCase a = makeCase(name); BenchCase b = makeCase(name)) {
            a.setUp(withPolls, pool);
            b.setUp(withoutPolls, pool);
            for (int i = 0; i < warmup; i++) {
                launch(a);
                launch(b);
            }
            double[] polls = new double[rounds];
            double[] noPolls = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                if (r % 2 == 0) {
                    polls[r] = launch(a);
                    noPolls[r] = launch(b);
                } else {
                    noPolls[r] = launch(b);
                    polls[r] = launch(a);
                }
            }
            check(a);
            check(b);
            log.printf("%s: polls %s ms, no polls %s ms (medians of worker CPU time)%n", name,
                    Sizes.ms(Sizes.median(polls)), Sizes.ms(Sizes.median(noPolls)));
            return new Result(name, a.size(), polls, noPolls, null);
        } catch (RuntimeException | AssertionError e) {
            log.printf("%s: FAILED: %s%n", name, e);
            return new Result(name, "", null, null, String.valueOf(e.getMessage()));
        }
    }

    /** Runs one launch of {@code c}; returns the CPU time (ms) the workers of both devices spent meanwhile. */
    private double launch(BenchCase c) {
        c.reset();
        long before = workerCpuNanos();
        c.runDevice();
        return (workerCpuNanos() - before) / 1e6;
    }

    private static void check(BenchCase c) {
        c.reset();
        c.runDevice();
        c.runJava();
        c.verify();
    }

    private long workerCpuNanos() {
        long[] t = threadBean.getThreadCpuTime(workers);
        long sum = 0;
        for (long v : t) {
            if (v < 0) {
                throw new IllegalStateException("a CPU device worker thread ended during the benchmark");
            }
            sum += v;
        }
        return sum;
    }

    /** The ids of every CPU device worker thread alive now (the devices start theirs when created). */
    private static long[] workerThreadIds() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(WORKER_PREFIX))
                .mapToLong(Thread::threadId)
                .toArray();
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * The minimum is the launch least disturbed by other processes (their load adds cache misses and lost cycles to
     * a worker's CPU time, never takes any away), so the ratio of minima is the steadiest figure on a busy machine.
     */
    private void printReport(List<Result> results) {
        out.printf("## Stop polls at loop back-edges: worker CPU time per launch (%d workers per variant, %s"
                + " sizes, %d rounds, load average at the end %.2f)%n%n", threads, quick ? "quick" : "full",
                rounds, load());
        out.println("| case | size | with polls, median (min) ms | without, median (min) ms | ratio of medians"
                + " | ratio of minima | paired ratio: median (quartiles) |");
        out.println("|---|---|---:|---:|---:|---:|---:|");
        for (Result r : results) {
            if (r.failure != null) {
                out.printf("| %s | failed: %s | | | | | |%n", r.name, r.failure);
                continue;
            }
            double[] paired = pairedRatios(r.polls, r.noPolls);
            out.printf(Locale.ROOT, "| %s | %s | %s (%s) | %s (%s) | %.3f | %.3f | %.3f (%.3f–%.3f) |%n", r.name,
                    r.size, Sizes.ms(Sizes.median(r.polls)), Sizes.ms(Sizes.min(r.polls)),
                    Sizes.ms(Sizes.median(r.noPolls)), Sizes.ms(Sizes.min(r.noPolls)),
                    Sizes.median(r.polls) / Sizes.median(r.noPolls), Sizes.min(r.polls) / Sizes.min(r.noPolls),
                    Sizes.median(paired), quantile(paired, 0.25), quantile(paired, 0.75));
        }
    }

    /** With polls over without, launch by launch of the same round. */
    private static double[] pairedRatios(double[] polls, double[] noPolls) {
        double[] v = new double[polls.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = polls[i] / noPolls[i];
        }
        return v;
    }

    private static double quantile(double[] v, double q) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[(int) Math.min(s.length - 1, Math.round(q * (s.length - 1)))];
    }
}
