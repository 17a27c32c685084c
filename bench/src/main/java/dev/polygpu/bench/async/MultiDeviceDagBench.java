package dev.polygpu.bench.async;

import dev.polygpu.bench.BenchArgs;
import dev.polygpu.cli.CommandLines;
import dev.polygpu.device.cpu.CpuLink;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.graalvm.polyglot.Engine;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The IPDPS 2021 paper's six DAGs over 1, 2 and 4 CPU devices standing in for GPUs ({@code grcuda.NumberOfGPUs}),
 * under each {@code grcuda.DeviceSelectionPolicy}, against the best static placement computed offline
 * ({@link StaticPlacement}). Run with {@code bench/multidev --dags} ({@code --help} lists the options).
 *
 * <p>Per DAG: a sync context on one device records the kernels, their arrays and their times (the median over the
 * measured runs), from which the best static placement on 1, 2 and 4 devices is searched. Then one async context per
 * device count and policy ({@code grcuda.DependencyPolicy=with-const}, {@code grcuda.CpuBlocks=1}: each device runs
 * one kernel at a time, as the model has it, and the DAGs launch one block per kernel; {@code grcuda.CpuDeviceLink}
 * the simulated link), each run timed from the first launch to the end of {@code cudaDeviceSynchronize()}. Before
 * each run, every array is read and written back on the host, so that every run starts with the arrays on the host
 * only, as the model does; transfers and bytes are those of {@code cu.polygpu_schedule("summary")} over the run.
 * Every run's results are checked with the DAG's own check and must be bit-identical to the sync run's. Markdown on
 * stdout, progress on stderr; exit status 1 when a check failed.
 */
public final class MultiDeviceDagBench {
    private static final Pattern TRANSFERS = Pattern.compile("(\\d+) transfers? of (\\d+) bytes");
    private static final List<String> POLICIES = List.of("single-gpu", "round-robin", "stream-aware",
            "min-transfer-size", "minmin-transfer-time", "minmax-transfer-time");
    private static final int[] DEVICES = {1, 2, 4};

    private final PrintStream out = System.out;
    private final PrintStream log = System.err;
    private final int warmup;
    private final int reps;
    private final String link;
    private final long budget;

    private MultiDeviceDagBench(int warmup, int reps, String link, long budget) {
        this.warmup = warmup;
        this.reps = reps;
        this.link = link;
        this.budget = budget;
    }

    public static void main(String[] args) {
        System.exit(CommandLines.execute(new Command(), System.out, System.err, args));
    }

    /** The command line of {@code bench/multidev --dags}. */
    @CommandLine.Command(name = "bench/multidev --dags", sortOptions = false, synopsisHeading = "Usage: ",
            customSynopsis = "bench/multidev --dags [--quick] [--dag NAME]... [--reps N] [--warmup N] [--link SPEC]"
                    + " [--budget N]",
            description = "The six paper DAGs over 1, 2 and 4 CPU devices under each device selection policy, "
                    + "against the best static placement computed offline (Markdown tables on stdout).",
            optionListHeading = "%nOptions:%n")
    private static final class Command implements Callable<Integer> {
        @Option(names = "--quick", description = "the DAGs' small sizes, 1 warm-up and 1 measured run")
        private boolean quick;

        @Option(names = "--dag", paramLabel = "NAME", description = "one of vec, bs, ml, hits, img, dl; repeatable "
                + "or comma-separated; default all")
        private List<String> dags = new ArrayList<>();

        @Option(names = "--reps", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "measured runs per configuration (default 3; --quick 1)")
        private Integer reps;

        @Option(names = "--warmup", paramLabel = "N", converter = BenchArgs.NonNegative.class,
                description = "warm-up runs per configuration (default 6; --quick 1): each device compiles its own "
                        + "copy of a kernel, which HotSpot's JIT warms up apart")
        private Integer warmup;

        @Option(names = "--link", paramLabel = "SPEC", description = "grcuda.CpuDeviceLink (default "
                + "bandwidth=1,latency=20: 1 GB/s, 20 µs)")
        private String link = "bandwidth=1,latency=20";

        @Option(names = "--budget", paramLabel = "N", converter = BenchArgs.Positive.class,
                description = "partial placements the offline search may try per DAG and device count "
                        + "(default 3000000)")
        private int budget = 3_000_000;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public Integer call() {
            CpuLink.parse(link);
            List<DagCase> cases = new ArrayList<>();
            for (String name : DagBench.selected(dags)) {
                cases.add(DagBench.newCase(name, quick, 1));
            }
            return new MultiDeviceDagBench(warmup != null ? warmup : quick ? 1 : 6,
                    reps != null ? reps : quick ? 1 : 3, link, budget).run(cases);
        }
    }

    /** The offline optimum of one DAG on one device count. */
    private record Model(DagCase dag, int devices, StaticPlacement.Best best, int kernels) {
    }

    /** One measured configuration. */
    private record Row(DagCase dag, int devices, String policy, double medianMs, double minMs, long transfers,
            long bytes, double modelMs) {
    }

    private int run(List<DagCase> cases) {
        List<Model> models = new ArrayList<>();
        List<Row> rows = new ArrayList<>();
        List<String> checks = new ArrayList<>();
        int status = 0;
        try (Engine engine = Engine.newBuilder().option("engine.WarnInterpreterOnly", "false").build()) {
            log.printf("multidev --dags: %d warm-up + %d measured runs per configuration, link %s, Truffle runtime:"
                    + " %s%n", warmup, reps, link, engine.getImplementationName());
            for (DagCase c : cases) {
                try {
                    measure(engine, c, models, rows, checks);
                } catch (RuntimeException | AssertionError e) {
                    status = 1;
                    log.printf("multidev --dags: %s FAILED: %s%n", c.name(), e);
                    checks.add(String.format("| %s | %s | FAILED: %s |", c.name(), c.size(), e.getMessage()));
                }
            }
        }
        print(models, rows, checks);
        return status;
    }

    private void measure(Engine engine, DagCase c, List<Model> models, List<Row> rows, List<String> checks) {
        log.printf("multidev --dags: %s (%s)%n", c.name(), c.size());
        List<Trace.Node> nodes;
        long[] bytes;
        Map<String, Object> reference;
        try (Session s = new Session(engine, new Policy("sync", "with-const"), options(1, "single-gpu"))) {
            DagCase.Program program = c.program(s);
            List<Trace> traces = new ArrayList<>();
            for (int r = 0; r < warmup + reps; r++) {
                program.reset();
                Trace t = new Trace();
                if (r >= warmup) {
                    traces.add(t);
                    s.record(t);
                }
                program.run();
                s.synchronize();
                s.record(null);
            }
            nodes = DagBench.medianNodes(traces);
            reference = program.results();
            checks.add(String.format("| %s | %s | %s |", c.name(), c.size(), c.check(reference)));
            bytes = s.arrays().stream().mapToLong(DevArray::bytes).toArray();
        }
        Map<Integer, Double> modelMs = new LinkedHashMap<>();
        for (int n : DEVICES) {
            StaticPlacement p = new StaticPlacement(nodes, bytes, n, CpuLink.parse(link), true);
            long t0 = System.nanoTime();
            StaticPlacement.Best best = p.search(budget);
            log.printf("  best static on %d: %.1f ms (%s, %,d partial placements, %.1f s)%n", n, best.makespanMs(),
                    best.exact() ? "exact" : "best found", best.searched(), (System.nanoTime() - t0) / 1e9);
            models.add(new Model(c, n, best, p.kernels()));
            modelMs.put(n, best.makespanMs());
        }
        for (int n : DEVICES) {
            for (String policy : n == 1 ? List.of("single-gpu") : POLICIES) {
                rows.add(measure(engine, c, n, policy, reference, modelMs.get(n)));
            }
        }
    }

    private Row measure(Engine engine, DagCase c, int n, String policy, Map<String, Object> reference,
            double modelMs) {
        List<Double> times = new ArrayList<>();
        long transfers = -1;
        long bytes = -1;
        try (Session s = new Session(engine, Policy.ASYNC_WITH_CONST, options(n, policy))) {
            DagCase.Program program = c.program(s);
            for (int r = 0; r < warmup + reps; r++) {
                for (DevArray a : s.arrays()) {
                    s.write(a, s.read(a));
                }
                program.reset();
                s.clearSchedule();
                long t0 = System.nanoTime();
                program.run();
                s.synchronize();
                double ms = (System.nanoTime() - t0) / 1e6;
                long[] moved = transfers(s.scheduleSummary());
                Map<String, Object> results = program.results();
                c.check(results);
                DagBench.sameContents(c, Policy.ASYNC_WITH_CONST, reference, results);
                if (r >= warmup) {
                    times.add(ms);
                    if (transfers >= 0 && (moved[0] != transfers || moved[1] != bytes)) {
                        log.printf("  note: %s on %d, %s: transfers differ between runs (%d, %d bytes; then %d, %d"
                                + " bytes)%n", c.name(), n, policy, transfers, bytes, moved[0], moved[1]);
                    }
                    transfers = moved[0];
                    bytes = moved[1];
                }
            }
        }
        log.printf("  %d device(s), %-20s %s ms, %d transfers, %d bytes%n", n, policy, times, transfers, bytes);
        return new Row(c, n, policy, DagBench.median(times), DagBench.min(times), transfers, bytes, modelMs);
    }

    private Map<String, String> options(int devices, String policy) {
        return Map.of("grcuda.Device", "cpu", "grcuda.NumberOfGPUs", Integer.toString(devices),
                "grcuda.DeviceSelectionPolicy", policy, "grcuda.CpuBlocks", "1", "grcuda.CpuDeviceLink", link,
                "grcuda.RecordSchedule", "true");
    }

    /** {transfers, bytes} from a schedule summary line; none on one device. */
    static long[] transfers(String summary) {
        Matcher m = TRANSFERS.matcher(summary);
        return m.find() ? new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))} : new long[] {0, 0};
    }

    private void print(List<Model> models, List<Row> rows, List<String> checks) {
        out.printf("Link %s; %d warm-up + %d measured runs per configuration; one kernel at a time per device.%n%n",
                link, warmup, reps);
        out.println("| DAG | devices | kernels | best static (model) ms | search | transfers | MiB | placement |");
        out.println("|---|---:|---:|---:|---|---:|---:|---|");
        for (Model m : models) {
            StaticPlacement.Best b = m.best;
            String search = b.exact() ? String.format("exact (%,d)", b.searched())
                    : String.format("best of %,d; bound %.1f", b.searched(), b.lowerBoundMs());
            StringBuilder placement = new StringBuilder();
            for (int d : b.devices()) {
                placement.append(d);
            }
            out.printf("| %s | %d | %d | %.1f | %s | %d | %.1f | %s |%n", m.dag.name(), m.devices, m.kernels,
                    b.makespanMs(), search, b.transfers(), b.bytes() / 1048576.0, placement);
        }
        out.println();
        out.println("| DAG | devices | policy | makespan ms median (min) | transfers | MiB moved "
                + "| policy makespan / best static (model) | ÷ the DAG's 1-device ratio |");
        out.println("|---|---:|---|---:|---:|---:|---:|---:|");
        Map<DagCase, Double> oneDevice = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.devices == 1) {
                oneDevice.put(r.dag, r.medianMs / r.modelMs);
            }
        }
        for (Row r : rows) {
            double ratio = r.medianMs / r.modelMs;
            out.printf("| %s | %d | %s | %.1f (%.1f) | %d | %.1f | %.2f | %.2f |%n", r.dag.name(), r.devices,
                    r.policy, r.medianMs, r.minMs, r.transfers, r.bytes / 1048576.0, ratio,
                    ratio / oneDevice.getOrDefault(r.dag, Double.NaN));
        }
        out.println();
        out.println("| DAG | size | check (sync on one device vs plain Java; every run bit-identical to it) |");
        out.println("|---|---|---|");
        checks.forEach(out::println);
    }
}
