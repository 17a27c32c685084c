package dev.polygpu.bench.async;

import dev.polygpu.bench.BenchArgs;
import dev.polygpu.cli.CommandLines;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import org.graalvm.polyglot.Engine;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Makespan of the IPDPS 2021 paper's six benchmark DAGs (VEC, B&amp;S, ML, HITS, IMG, DL) under
 * {@code grcuda.ExecutionPolicy=sync} and {@code async} (plus {@code async} with
 * {@code grcuda.DependencyPolicy=with-const} for the DAGs whose kernels share read-only arrays), on the
 * device {@code grcuda.Device=cpu} (or another, with {@code --device}), through the public polyglot API. Run with {@code bench/dags}
 * ({@code --help} lists the options).
 *
 * <p>Per DAG, one fresh context per policy on a shared {@link Engine}; the runs alternate between the
 * policies (warm-up runs first), each timed from the first launch to the end of a
 * {@code cudaDeviceSynchronize()}. After the runs, the output arrays of every policy must be bit-identical to
 * those of sync, and sync's are checked against plain Java. The sync runs also record each kernel's time, from
 * which {@link DagModel} derives the best speedup the graph allows on this many cores ("bound"). Prints
 * Markdown tables to stdout and progress to stderr; exits with 1 when a check failed, 2 on bad arguments.
 */
public final class DagBench {
    private static final Map<String, BiFunction<Boolean, Integer, DagCase>> CASES = new LinkedHashMap<>();

    static {
        CASES.put("vec", VecDag::new);
        CASES.put("bs", BlackScholesDag::new);
        CASES.put("ml", MlDag::new);
        CASES.put("hits", HitsDag::new);
        CASES.put("img", ImgDag::new);
        CASES.put("dl", DlDag::new);
    }

    private final PrintStream out = System.out;
    private final PrintStream log = System.err;
    private final int warmup;
    private final int reps;
    private final int cores;
    private final Path timelines;
    /** The grcuda.Device of every context: cpu (the figures in docs/benchmarks.md), cuda or auto. */
    private final String device;

    private DagBench(int warmup, int reps, int cores, Path timelines, String device) {
        this.warmup = warmup;
        this.reps = reps;
        this.cores = cores;
        this.timelines = timelines;
        this.device = device;
    }

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new Command(), System.out, System.err, args));
    }

    /** The command line of {@code bench/dags}. */
    @CommandLine.Command(name = "bench/dags", sortOptions = false, synopsisHeading = "Usage: ",
            customSynopsis = "bench/dags [--quick] [--dag NAME]... [--reps N] [--warmup N] [--blocks B] [--cores C] "
                    + "[--timeline DIR] [--device cpu|cuda|auto]",
            description = "Makespan of the IPDPS 2021 paper's six DAGs under grcuda.ExecutionPolicy=sync and async "
                    + "(Markdown tables on stdout). Options take their value as --name value or --name=value.",
            optionListHeading = "%nOptions:%n")
    private static final class Command implements Callable<Integer> {
        @Option(names = "--quick", description = "small sizes, 1 warm-up and 1 measured run (a smoke run)")
        private boolean quick;

        @Option(names = "--dag", paramLabel = "NAME", description = "one of vec, bs, ml, hits, img, dl; repeatable "
                + "or comma-separated; default all")
        private List<String> dags = new ArrayList<>();

        @Option(names = "--reps", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "measured runs per policy (default 10; --quick 1)")
        private Integer reps;

        @Option(names = "--warmup", paramLabel = "N", converter = BenchArgs.NonNegative.class,
                description = "warm-up runs per policy (default 3; --quick 1)")
        private Integer warmup;

        @Option(names = "--blocks", paramLabel = "B", converter = BenchArgs.Positive.class,
                description = "blocks per kernel launch (default 1: one kernel uses one core)")
        private int blocks = 1;

        @Option(names = "--cores", paramLabel = "C", converter = BenchArgs.Positive.class,
                description = "cores for the ideal speedup min(width, C) (default: available processors)")
        private int cores = Runtime.getRuntime().availableProcessors();

        @Option(names = "--timeline", paramLabel = "DIR", description = "write each context's grcuda.Timeline "
                + "(Chrome trace of every run) to DIR/<dag>-<policy>.json")
        private Path timelines;

        @Option(names = "--device", paramLabel = "cpu|cuda|auto", description = "grcuda.Device of every context "
                + "(default cpu; cuda or auto to measure a GPU)")
        private String device = "cpu";

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public Integer call() {
            String onDevice = deviceName(device);
            List<DagCase> cases = new ArrayList<>();
            for (String name : selected(dags)) {
                cases.add(newCase(name, quick, blocks));
            }
            DagBench bench = new DagBench(Objects.requireNonNullElse(warmup, quick ? 1 : 3),
                    Objects.requireNonNullElse(reps, quick ? 1 : 10), cores, timelines, onDevice);
            return bench.run(cases, blocks);
        }
    }

    /** The DAG names {@code --dag} values select (each a name or a comma-separated list); all when none. */
    static Set<String> selected(List<String> dags) {
        Set<String> selected = new LinkedHashSet<>();
        for (String d : dags) {
            selected.addAll(dagNames(d));
        }
        if (selected.isEmpty()) {
            selected.addAll(CASES.keySet());
        }
        return selected;
    }

    /** The DAG {@code name} (one of {@link #selected}'s), at its small sizes if {@code quick}. */
    static DagCase newCase(String name, boolean quick, int blocks) {
        return CASES.get(name).apply(quick, blocks);
    }

    private static String deviceName(String v) {
        String d = v.trim().toLowerCase(Locale.ROOT);
        if (!d.equals("cpu") && !d.equals("cuda") && !d.equals("auto")) {
            throw new IllegalArgumentException("--device must be cpu, cuda or auto, got '" + v + "'");
        }
        return d;
    }

    private static List<String> dagNames(String v) {
        List<String> names = new ArrayList<>();
        for (String part : v.split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT).replace("&", "");
            if (!CASES.containsKey(name)) {
                throw new IllegalArgumentException("unknown DAG '" + part + "'; DAGs: "
                        + String.join(", ", CASES.keySet()));
            }
            names.add(name);
        }
        return names;
    }

    /** The measurements of one DAG under one policy. */
    private record Row(DagCase dag, Policy policy, int width, DagModel model, double syncMs, double syncMin,
            double asyncMs, double asyncMin, double probe) {
    }

    private int run(List<DagCase> cases, int blocks) {
        List<Row> rows = new ArrayList<>();
        List<String> checks = new ArrayList<>();
        int status = 0;
        try (Engine engine = Engine.newBuilder().option("engine.WarnInterpreterOnly", "false").build()) {
            // "Interpreted" here means Truffle's JIT is off and every figure is 10-60x too slow
            log.printf("dags: %d warm-up + %d measured runs per policy, %d block(s) per launch, %d cores,"
                    + " grcuda.Device=%s, Truffle runtime: %s%n", warmup, reps, blocks, cores, device,
                    engine.getImplementationName());
            for (DagCase c : cases) {
                try {
                    measure(engine, c, rows, checks);
                } catch (RuntimeException | AssertionError e) {
                    status = 1;
                    log.printf("dags: %s FAILED: %s%n", c.name(), e);
                    checks.add(String.format("| %s | %s | FAILED: %s |", c.name(), c.size(), e.getMessage()));
                }
            }
        }
        out.println("| DAG | dependency policy | kernels | width | ideal | bound | t_sync ms median (min)"
                + " | t_async ms median (min) | speedup | % of ideal | I | speedup of mins | probe |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Row r : rows) {
            int ideal = Math.min(r.width, cores);
            double speedup = r.syncMs / r.asyncMs;
            out.printf("| %s | %s | %d | %d | %d | %.2fx | %.1f (%.1f) | %.1f (%.1f) | %.2fx | %.0f%% | %.2f | %.2fx |"
                    + " %.2fx |%n", r.dag.name(), r.policy.dependency(), r.model.kernels(), r.width, ideal,
                    r.model.boundSpeedup(cores), r.syncMs, r.syncMin, r.asyncMs, r.asyncMin, speedup,
                    100 * speedup / ideal, 1 - r.asyncMs / r.syncMs, r.syncMin / r.asyncMin, r.probe);
        }
        out.println();
        out.println("| DAG | size | check (sync vs plain Java; every policy bit-identical to sync) |");
        out.println("|---|---|---|");
        checks.forEach(out::println);
        return status;
    }

    private void measure(Engine engine, DagCase c, List<Row> rows, List<String> checks) {
        List<Policy> policies = new ArrayList<>(List.of(Policy.SYNC, Policy.ASYNC));
        if (c.sharesReadOnlyArrays()) {
            policies.add(Policy.ASYNC_WITH_CONST);
        }
        log.printf("dags: %s (%s)%n", c.name(), c.size());
        List<Session> sessions = new ArrayList<>();
        try {
            List<DagCase.Program> programs = new ArrayList<>();
            for (Policy p : policies) {
                Session s = new Session(engine, p, timelineOption(c, p));
                sessions.add(s);
                programs.add(c.program(s));
            }
            List<Trace> traces = new ArrayList<>();
            List<List<Double>> times = timeRuns(sessions, programs, traces);
            Map<String, Object> reference = programs.get(0).results();
            for (int k = 1; k < policies.size(); k++) {
                sameContents(c, policies.get(k), reference, programs.get(k).results());
            }
            String verdict = c.check(reference);
            log.printf("  check: %s%n", verdict);
            checks.add(String.format("| %s | %s | %s |", c.name(), c.size(), verdict));
            List<Trace.Node> nodes = medianNodes(traces);
            logKernelTimes(nodes);
            double probe = MachineProbe.parallelSpeedup(cores, 7);
            log.printf("  machine probe: %d one-core plain-Java tasks ran %.2fx faster at once%n", cores, probe);
            for (int k = 1; k < policies.size(); k++) {
                boolean withConst = policies.get(k).withConst();
                DagModel model = DagModel.of(nodes, withConst);
                int width = c.width(withConst);
                if (model.width() != width) {
                    log.printf("dags: WARNING: %s under %s: width %d counted by hand, %d in the recorded graph%n",
                            c.name(), policies.get(k).dependency(), width, model.width());
                }
                rows.add(new Row(c, policies.get(k), width, model, median(times.get(0)), min(times.get(0)),
                        median(times.get(k)), min(times.get(k)), probe));
            }
        } finally {
            sessions.forEach(Session::close);
        }
    }

    private Map<String, String> timelineOption(DagCase c, Policy p) {
        if (timelines == null) {
            return Map.of("grcuda.Device", device);
        }
        String file = c.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "") + "-" + p.execution() + "-"
                + p.dependency() + ".json";
        return Map.of("grcuda.Timeline", timelines.resolve(file).toAbsolutePath().toString(), "grcuda.Device", device);
    }

    /**
     * Runs every session's program {@code warmup + reps} times, alternating between the sessions, and returns
     * the measured times (ms) per session. The first session (sync) records each measured run into
     * {@code traces}.
     */
    private List<List<Double>> timeRuns(List<Session> sessions, List<DagCase.Program> programs, List<Trace> traces) {
        List<List<Double>> times = new ArrayList<>();
        sessions.forEach(s -> times.add(new ArrayList<>()));
        for (int r = 0; r < warmup + reps; r++) {
            boolean measured = r >= warmup;
            for (int k = 0; k < sessions.size(); k++) {
                Session s = sessions.get(k);
                DagCase.Program program = programs.get(k);
                program.reset();
                if (measured && k == 0) {
                    Trace t = new Trace();
                    traces.add(t);
                    s.record(t);
                }
                long t0 = System.nanoTime();
                program.run();
                s.synchronize();
                double ms = (System.nanoTime() - t0) / 1e6;
                s.record(null);
                if (measured) {
                    times.get(k).add(ms);
                }
                log.printf("  %-18s %s %8.1f ms%n", s.policy(), measured ? "run   " : "warm-up", ms);
            }
        }
        return times;
    }

    private void logKernelTimes(List<Trace.Node> nodes) {
        StringBuilder kernels = new StringBuilder("  kernel ms (sync, median):");
        for (Trace.Node node : nodes) {
            if (!node.host()) {
                kernels.append(String.format(" %s %.1f", node.label(), node.nanos() / 1e6));
            }
        }
        log.println(kernels);
    }

    /** Throws {@link AssertionError} unless {@code actual} holds the same arrays, bit for bit, as {@code expected}. */
    static void sameContents(DagCase c, Policy p, Map<String, Object> expected, Map<String, Object> actual) {
        for (Map.Entry<String, Object> e : expected.entrySet()) {
            Object a = actual.get(e.getKey());
            boolean same = switch (e.getValue()) {
                case float[] f -> a instanceof float[] g && Arrays.equals(f, g);
                case double[] d -> a instanceof double[] g && Arrays.equals(d, g);
                case int[] i -> a instanceof int[] g && Arrays.equals(i, g);
                default -> false;
            };
            if (!same) {
                throw new AssertionError(c.name() + ": array " + e.getKey() + " differs between sync and " + p);
            }
        }
    }

    /** The recorded nodes with each kernel's time the median over the runs (all runs record the same graph). */
    static List<Trace.Node> medianNodes(List<Trace> traces) {
        List<Trace.Node> first = traces.getFirst().nodes();
        List<Trace.Node> nodes = new ArrayList<>();
        for (int i = 0; i < first.size(); i++) {
            List<Double> ns = new ArrayList<>();
            for (Trace t : traces) {
                ns.add((double) t.nodes().get(i).nanos());
            }
            Trace.Node n = first.get(i);
            nodes.add(new Trace.Node(n.label(), n.host(), n.uses(), (long) median(ns)));
        }
        return nodes;
    }

    static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
