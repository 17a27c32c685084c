package dev.polygpu.bench;

import dev.polygpu.device.Device;
import dev.polygpu.device.Module;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cuda.CudaDevice;
import dev.polygpu.device.cpu.kernel.KernelEngine;
import dev.polygpu.cli.CommandLines;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Benchmark of the CPU device against plain multi-threaded Java on the same number of threads: SAXPY, a
 * shared-memory reduction, Black-Scholes and tiled SGEMM (16x16 and 32x32 tiles), plus the kernel engine's
 * compile times. Prints Markdown tables to stdout and progress to stderr.
 *
 * <p>Each case runs its warm-up iterations and then its measured ones; every iteration runs the CPU device
 * and then plain Java, each timed by wall clock from the call to the finished result, and compares the two
 * results (untimed), so neither side can be skipped or wrong. Where gcc and pocl are installed, two more
 * columns run the same case natively after each iteration ({@link NativeTool}: idiomatic C loops with OpenMP,
 * and the kernels in OpenCL C on pocl), on the same number of threads, their last outputs checked against plain
 * Java's. Exits with 1 if any case failed (on any side), 2 on bad arguments; a tool that is not installed is
 * noted and its column left empty.
 */
public final class CpuDeviceBench {

    private static final List<String> CASES = List.of("saxpy", "saxpy-gs", "reduce", "reduce-naive", "reduce-warp",
            "blackscholes", "sgemm16", "sgemm32");
    private static final double COMPILE_GOAL_MS = 50;

    private final int threads;
    private final boolean quick;
    private final int warmup;
    private final int iterations;
    private final Set<String> selected;
    /** "cpu" (the CPU device, with its goals) or "cuda" (CUDA device 0: the same kernels on a GPU, no goals). */
    private final String device;
    private final PrintStream out = System.out;
    private final PrintStream log = System.err;
    private final List<NativeTool> tools = new ArrayList<>();
    /** The system load average (1 min) when the cases started, for the report: the machine may be shared. */
    private double loadBefore;

    private CpuDeviceBench(int threads, boolean quick, int warmup, int iterations, Set<String> selected,
            String device) {
        this.threads = threads;
        this.quick = quick;
        this.warmup = warmup;
        this.iterations = iterations;
        this.selected = selected;
        this.device = device;
    }

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new Command(), System.out, System.err, args));
    }

    /** The command line of {@code bench/run}. */
    @CommandLine.Command(name = "bench/run", sortOptions = false, synopsisHeading = "Usage: ",
            customSynopsis = "bench/run [--quick] [--threads N] [--case NAME]... [--warmup N] [--iterations N] "
                    + "[--device cpu|cuda]",
            description = "The CPU device against plain multi-threaded Java on the same threads (Markdown tables on "
                    + "stdout). Options take their value as --name value or --name=value.",
            optionListHeading = "%nOptions:%n")
    private static final class Command implements Callable<Integer> {
        @Option(names = "--quick", description = "smaller sizes, for a smoke run")
        private boolean quick;

        @Option(names = "--threads", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "CPU device workers and Java threads (default: available processors)")
        private int threads = Runtime.getRuntime().availableProcessors();

        @Option(names = "--case", paramLabel = "NAME", description = "one of saxpy, saxpy-gs, reduce, reduce-naive, "
                + "reduce-warp, blackscholes, sgemm16, sgemm32 or sgemm (both tile sizes); repeatable or "
                + "comma-separated; default all")
        private List<String> cases = new ArrayList<>();

        @Option(names = "--warmup", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "warm-up iterations per case (default 5)")
        private int warmup = 5;

        @Option(names = "--iterations", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "measured iterations per case (default 10)")
        private int iterations = 10;

        @Option(names = "--device", paramLabel = "cpu|cuda", description = "cpu (default) or cuda: run the kernels "
                + "on CUDA device 0 instead (the CPU-device goals do not apply; plain Java still checks every result)")
        private String device = "cpu";

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public Integer call() {
            Set<String> selected = new LinkedHashSet<>();
            for (String c : cases) {
                selected.addAll(caseNames(c));
            }
            if (selected.isEmpty()) {
                selected.addAll(CASES);
            }
            return new CpuDeviceBench(threads, quick, warmup, iterations, selected, deviceName(device)).run();
        }
    }

    private static String deviceName(String v) {
        if (!v.equals("cpu") && !v.equals("cuda")) {
            throw new IllegalArgumentException("--device must be cpu or cuda, got '" + v + "'");
        }
        return v;
    }

    private String label() {
        return device.equals("cuda") ? "CUDA device" : "CPU device";
    }

    private Device openDevice() {
        return device.equals("cuda") ? CudaDevice.open(0) : new CpuDevice(threads, KernelEngine::compile);
    }

    private static List<String> caseNames(String v) {
        List<String> names = new ArrayList<>();
        for (String part : v.split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (name.equals("sgemm")) {
                names.add("sgemm16");
                names.add("sgemm32");
            } else if (CASES.contains(name)) {
                names.add(name);
            } else {
                throw new IllegalArgumentException("unknown case '" + part + "'; cases: " + String.join(", ", CASES)
                        + ", sgemm");
            }
        }
        return names;
    }

    private List<BenchCase> makeCases() {
        int vector = quick ? 1 << 20 : 16 << 20;
        int options = quick ? 256 << 10 : 4 << 20;
        int matrix = quick ? 256 : 1024;
        List<BenchCase> cases = new ArrayList<>();
        for (String name : CASES) {
            if (!selected.contains(name)) {
                continue;
            }
            cases.add(switch (name) {
                case "saxpy" -> new SaxpyCase(vector);
                case "saxpy-gs" -> new SaxpyCase(vector, true);
                case "reduce" -> new ReductionCase(vector, ReductionCase.Form.GRID_STRIDE);
                case "reduce-naive" -> new ReductionCase(vector, ReductionCase.Form.TREE);
                case "reduce-warp" -> new ReductionCase(vector, ReductionCase.Form.WARP);
                case "blackscholes" -> new BlackScholesCase(options);
                case "sgemm16" -> new SgemmCase(matrix, 16);
                case "sgemm32" -> new SgemmCase(matrix, 32);
                default -> throw new IllegalStateException(name);
            });
        }
        return cases;
    }

    /** Timings of one case, or the reason it failed; the native columns' times and failures. */
    private record Result(BenchCase c, double[] device, double[] java, String failure, double[][] nativeTimes,
                          String[] nativeFailures) {
    }

    /** Compile times of one kernel, or the reason compiling failed. */
    private record CompileTimes(BenchCase c, double cold, double[] warm, String failure) {
    }

    private int run() {
        List<BenchCase> cases = makeCases();
        List<CompileTimes> compiles = new ArrayList<>();
        List<Result> results = new ArrayList<>();
        log.printf("bench: %s, %d thread(s), %s sizes, %d warm-up + %d measured iterations per case%n",
                label(), threads, quick ? "quick" : "full", warmup, iterations);
        Path work = prepareNativeTools();
        loadBefore = loadAverage();
        try (Device dev = openDevice(); JavaPool pool = new JavaPool(threads)) {
            compileTimes(dev, cases, compiles);
            for (BenchCase c : cases) {
                results.add(runCase(dev, pool, c, work));
            }
        }
        printReport(results, compiles);
        boolean failed = results.stream().anyMatch(r -> r.failure != null
                        || java.util.Arrays.stream(r.nativeFailures).anyMatch(f -> f != null))
                || compiles.stream().anyMatch(t -> t.failure != null);
        return failed ? 1 : 0;
    }

    /**
     * Cold: each kernel's first compile in this JVM, in case order (so the first also pays for loading and
     * interpreting the engine). Warm: after every kernel compiled once and {@link #warmup} more compiles, the
     * times of {@link #iterations} compiles; each warm compile gets a distinct trailing comment so that no
     * cache keyed on the source can answer it.
     */
    private void compileTimes(Device dev, List<BenchCase> cases, List<CompileTimes> compiles) {
        double[] cold = new double[cases.size()];
        String[] failure = new String[cases.size()];
        for (int i = 0; i < cases.size(); i++) {
            BenchCase c = cases.get(i);
            try {
                cold[i] = compileOnce(dev, c, c.source());
                log.printf("compile %s: cold %s ms%n", c.name(), Sizes.ms(cold[i]));
            } catch (RuntimeException | Error e) {
                failure[i] = describe(e);
                log.printf("compile %s: FAILED: %s%n", c.name(), failure[i]);
            }
        }
        int variant = 0;
        for (int i = 0; i < cases.size(); i++) {
            BenchCase c = cases.get(i);
            double[] warm = new double[iterations];
            if (failure[i] == null) {
                try {
                    for (int w = 0; w < warmup; w++) {
                        compileOnce(dev, c, c.source() + "\n// compile " + variant++ + "\n");
                    }
                    for (int k = 0; k < iterations; k++) {
                        warm[k] = compileOnce(dev, c, c.source() + "\n// compile " + variant++ + "\n");
                    }
                    log.printf("compile %s: warm median %s ms%n", c.name(), Sizes.ms(Sizes.median(warm)));
                } catch (RuntimeException | Error e) {
                    failure[i] = describe(e);
                }
            }
            compiles.add(new CompileTimes(c, cold[i], warm, failure[i]));
        }
    }

    private static double compileOnce(Device dev, BenchCase c, String source) {
        long t0 = System.nanoTime();
        try (Module m = dev.compile(source, c.fileName())) {
            m.function(c.kernelName());
            return (System.nanoTime() - t0) / 1e6;
        }
    }

    /** Builds the C and pocl programs (bench/native into bench/target/native); returns their work folder. */
    private Path prepareNativeTools() {
        Path source = NativeTool.defaultSourceDir();
        Path build = NativeTool.defaultBuildDir();
        for (NativeTool.Kind kind : NativeTool.Kind.values()) {
            NativeTool tool = NativeTool.prepare(kind, source, build, "gcc");
            tools.add(tool);
            log.printf("native %s: %s%n", tool.label(), tool.available() ? tool.describe(threads)
                    : "not installed (" + tool.unavailableReason() + ")");
        }
        try {
            Files.createDirectories(build);
            return Files.createTempDirectory(build, "run-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a work folder in " + build, e);
        }
    }

    private Result runCase(Device dev, JavaPool pool, BenchCase c, Path work) {
        double[] device = new double[iterations];
        double[] java = new double[iterations];
        NativeRuns natives = null;
        try (c) {
            c.setUp(dev, pool);
            natives = new NativeRuns(tools, (NativeCase) c, c.name(), threads, iterations, work);
            for (int i = 0; i < warmup + iterations; i++) {
                boolean measured = i >= warmup;
                c.reset();
                long t0 = System.nanoTime();
                c.runDevice();
                long t1 = System.nanoTime();
                c.runJava();
                long t2 = System.nanoTime();
                c.verify();
                double d = (t1 - t0) / 1e6;
                double j = (t2 - t1) / 1e6;
                if (measured) {
                    device[i - warmup] = d;
                    java[i - warmup] = j;
                }
                String others = natives.iteration(measured ? i - warmup : -1);
                log.printf("%s %s %d/%d: %s %s ms, Java %s ms%s%n", c.name(),
                        measured ? "measured" : "warm-up", measured ? i - warmup + 1 : i + 1,
                        measured ? iterations : warmup, label(), Sizes.ms(d), Sizes.ms(j), others);
            }
            natives.verify((NativeCase) c);
            return result(c, device, java, null, natives);
        } catch (RuntimeException | Error | IOException e) {
            String why = describe(e);
            log.printf("%s: FAILED: %s%n", c.name(), why);
            return result(c, device, java, why, natives);
        } finally {
            closeNatives(natives);
        }
    }

    private Result result(BenchCase c, double[] device, double[] java, String failure, NativeRuns natives) {
        double[][] times = new double[tools.size()][];
        String[] failures = new String[tools.size()];
        for (int t = 0; t < tools.size(); t++) {
            times[t] = natives == null ? new double[iterations] : natives.times(t);
            failures[t] = natives == null ? null : natives.failure(t);
            if (failures[t] != null) {
                log.printf("%s: %s FAILED: %s%n", c.name(), tools.get(t).label(), failures[t]);
            }
        }
        return new Result(c, device, java, failure, times, failures);
    }

    private void closeNatives(NativeRuns natives) {
        if (natives != null) {
            try {
                natives.close();
            } catch (IOException e) {
                log.printf("closing the native programs: %s%n", describe(e));
            }
        }
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m.replace('\n', ' '));
    }

    private void printReport(List<Result> results, List<CompileTimes> compiles) {
        out.printf("## polygpu %s vs plain Java, C and pocl (%s sizes)%n%n", label(), quick ? "quick" : "full");
        out.printf(Locale.ROOT, "Load average (1 min): %.2f when the cases started, %.2f when they ended.%n%n",
                loadBefore, loadAverage());
        out.printf("JDK %s, %d available processors, %d thread(s) on each side; %d warm-up + %d measured "
                        + "iterations; times are wall-clock ms per run, median (min); ratio = median / median.%n%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), threads, warmup, iterations);
        printNativeNotes();
        StringBuilder head = new StringBuilder("| case | size | threads | " + label()
                + " median ms (min) | plain Java median ms (min) |");
        StringBuilder rule = new StringBuilder("|---|---|---:|---:|---:|");
        for (NativeTool t : tools) {
            head.append(' ').append(t.label()).append(" median ms (min) |");
            rule.append("---:|");
        }
        head.append(" polygpu/Java | goal | met? |");
        rule.append("---:|---:|---|");
        for (NativeTool t : tools) {
            head.append(" polygpu/").append(t.label()).append(" |");
            rule.append("---:|");
        }
        head.append(" polygpu/pocl <= 1? |");
        rule.append("---|");
        out.println(head);
        out.println(rule);
        for (Result r : results) {
            out.println(row(r));
        }
        out.println();
        out.println("Compile times per kernel (dev.compile + module.function; cold = first compile in this JVM, "
                + "in case order):");
        out.println();
        out.println("| kernel | cold ms | warm median ms (min) | goal | met? |");
        out.println("|---|---:|---:|---:|---|");
        for (CompileTimes t : compiles) {
            if (t.failure != null) {
                out.printf("| %s | FAILED | | warm < %s ms | no: %s |%n", t.c.name(), fmtGoal(COMPILE_GOAL_MS),
                        t.failure.replace('|', '/'));
                continue;
            }
            double wm = Sizes.median(t.warm);
            out.printf("| %s | %s | %s (%s) | warm < %s ms | %s |%n", t.c.name(), Sizes.ms(t.cold), Sizes.ms(wm),
                    Sizes.ms(Sizes.min(t.warm)), fmtGoal(COMPILE_GOAL_MS), wm < COMPILE_GOAL_MS ? "yes" : "no");
        }
        out.flush();
    }

    /** One line per native tool: how it ran, or why its column is empty. */
    private void printNativeNotes() {
        for (NativeTool t : tools) {
            out.printf("%s: %s.%n%n", t.label(), t.available() ? t.describe(threads)
                    : "not installed (" + t.unavailableReason() + "); its column is empty");
        }
    }

    private String row(Result r) {
        boolean goals = device.equals("cpu");
        String goal = goals ? "<= " + fmtGoal(r.c.goal()) + "x" : "-";
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "| %s | %s | %d |", r.c.name(),
                r.c.size(), threads));
        if (r.failure != null) {
            line.append(" FAILED | |");
            line.append(" |".repeat(tools.size()));
            line.append(" | ").append(goal).append(" | no: ").append(r.failure.replace('|', '/')).append(" |");
            line.append(" |".repeat(tools.size() + 1));
            return line.toString();
        }
        double dm = Sizes.median(r.device);
        double jm = Sizes.median(r.java);
        double ratio = dm / jm;
        line.append(' ').append(timing(r.device)).append(" | ").append(timing(r.java)).append(" |");
        for (int t = 0; t < tools.size(); t++) {
            line.append(' ').append(nativeCell(r, t)).append(" |");
        }
        String met = !goals ? "-" : ratio <= r.c.goal() ? "yes"
                : String.format(Locale.ROOT, "no (%.1fx over)", ratio / r.c.goal());
        line.append(String.format(Locale.ROOT, " %.2fx | %s | %s |", ratio, goal, met));
        String poclMet = "-";
        for (int t = 0; t < tools.size(); t++) {
            if (!nativeOk(r, t)) {
                line.append(" - |");
                continue;
            }
            double nr = dm / Sizes.median(r.nativeTimes[t]);
            line.append(String.format(Locale.ROOT, " %.2fx |", nr));
            if (tools.get(t).kind() == NativeTool.Kind.POCL && goals) {
                poclMet = nr <= 1.0 ? "yes" : "no";
            }
        }
        return line.append(' ').append(poclMet).append(" |").toString();
    }

    private boolean nativeOk(Result r, int t) {
        return tools.get(t).available() && r.nativeFailures[t] == null;
    }

    private String nativeCell(Result r, int t) {
        if (!tools.get(t).available()) {
            return "not installed";
        }
        if (r.nativeFailures[t] != null) {
            return "FAILED: " + r.nativeFailures[t].replace('|', '/');
        }
        return timing(r.nativeTimes[t]);
    }

    private static String timing(double[] v) {
        return Sizes.ms(Sizes.median(v)) + " (" + Sizes.ms(Sizes.min(v)) + ")";
    }

    private static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static String fmtGoal(double g) {
        return g == Math.rint(g) ? Long.toString((long) g) : Double.toString(g);
    }
}
