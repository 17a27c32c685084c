package dev.polygpu.bench.fuzz;

import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleOptions;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.gen.GeneratedKernel;
import dev.polygpu.device.cpu.oracle.gen.KernelGenerator;
import dev.polygpu.device.cpu.oracle.gen.Profile;
import dev.polygpu.device.cpu.oracle.gen.Shrinker;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The default mode: generated kernels through the differential oracle in batches (one nvcc run each), then
 * every finding shrunk and written out.
 */
final class OracleRun {
    /**
     * The most shrinking candidates per nvcc run: more would make each of the --shrink-calls oracle calls
     * slower without making the search better.
     */
    private static final int SHRINK_BATCH = 16;

    private final FuzzArgs args;
    private final PrintStream out;
    private final PrintStream err;

    OracleRun(FuzzArgs args, PrintStream out, PrintStream err) {
        this.args = args;
        this.out = out;
        this.err = err;
    }

    /** A failing case waiting to be shrunk, with its kind after the second opinion. */
    private record Pending(GeneratedKernel kernel, OracleResult result, Triage.Kind kind) {
    }

    /** nvcc's unoptimized ({@code -G}) PTX, asked only about differences; created on the first one. */
    private DifferentialOracle unoptimized;

    /** The generated kernels of one nvcc run and their cases. */
    private record Batch(List<GeneratedKernel> kernels, List<OracleCase> cases) {
    }

    private Batch batch(List<Long> indices, int from, Profile profile) {
        List<GeneratedKernel> ks = new ArrayList<>();
        List<OracleCase> cases = new ArrayList<>();
        for (long i : indices.subList(from, Math.min(indices.size(), from + args.batch()))) {
            GeneratedKernel k = KernelGenerator.generate(args.seed(), i, profile);
            ks.add(k);
            cases.add(k.toCase("k" + i + "_"));
        }
        return new Batch(ks, cases);
    }

    int run() {
        Profile profile = Profile.parse(args.profile());
        List<Long> indices = new ArrayList<>();
        long[] range = args.range();
        for (long i = range[0]; i < range[1]; i++) {
            indices.add(i);
        }
        FuzzReport report = new FuzzReport();
        List<Pending> pending = new ArrayList<>();
        try (DifferentialOracle oracle = DifferentialOracle.create()) {
            long start = System.nanoTime();
            Batch next = batch(indices, 0, profile);
            for (int from = 0; from < indices.size(); from += args.batch()) {
                Batch current = next;
                if (from + args.batch() < indices.size()) {
                    next = batch(indices, from + args.batch(), profile);
                    if (!args.noOverlap()) {
                        // nvcc compiles the next batch while this one runs
                        oracle.prepare(next.cases());
                    }
                }
                List<OracleResult> results = oracle.checkAll(current.cases());
                for (int j = 0; j < current.kernels().size(); j++) {
                    Triage.Kind kind = Triage.kind(results.get(j));
                    OracleCase c = current.cases().get(j);
                    if (kind == Triage.Kind.DIFFER && unoptimizedAgrees(c)) {
                        kind = notInlinedAgrees(oracle, c) ? Triage.Kind.NVCC_INLINING : Triage.Kind.OPTIMIZED_ONLY;
                    }
                    report.add(kind, current.kernels().get(j).coverage());
                    if (!kind.explained) {
                        pending.add(new Pending(current.kernels().get(j), results.get(j), kind));
                    }
                }
                double minutes = (System.nanoTime() - start) / 60e9;
                int done = Math.min(indices.size(), from + args.batch());
                err.printf("fuzz: %d/%d kernels, %.1f/min, differences %d, other findings %d, explained %d%n", done,
                        indices.size(), done / minutes, report.count(Triage.Kind.DIFFER),
                        report.unexplained() - report.count(Triage.Kind.DIFFER),
                        report.count(Triage.Kind.PTX_GAP) + report.count(Triage.Kind.ENGINE_LIMIT)
                                + report.count(Triage.Kind.NVCC_INLINING));
            }
            double checkSeconds = (System.nanoTime() - start) / 1e9;
            int checkRuns = oracle.nvccRuns();
            long shrinkStart = System.nanoTime();
            List<Long> found = new ArrayList<>();
            for (int i = 0; i < pending.size(); i++) {
                err.printf("fuzz: shrinking %d/%d (case %s: %s)%n", i + 1, pending.size(), pending.get(i).kernel().name(),
                        pending.get(i).kind().label);
                report.finding(shrinkAndWrite(oracle, profile, pending.get(i)));
                found.add(pending.get(i).kernel().index());
            }
            report.print(out, "bench/fuzz --seed " + args.seed() + " --profile '" + args.profile() + "'"
                    + (range[0] != 0 ? " --first " + range[0] : ""), checkSeconds,
                    (System.nanoTime() - shrinkStart) / 1e9, checkRuns);
            if (args.summary() != null) {
                RunSummary.append(args.summary(), RunSummary.entry(args, profile.spec(), report.byLabel(),
                        report.unexplained(), checkSeconds, found));
            }
        } finally {
            if (unoptimized != null) {
                unoptimized.close();
            }
        }
        return report.unexplained() > 0 ? 1 : 0;
    }

    /**
     * Whether nvcc's {@code -G} PTX of a case that differs agrees with the engine: then the difference comes from
     * nvcc's optimizer (a miscompile, or undefined behaviour in the generated kernel that it exploits), a lead
     * for the diagnosis that the finding still needs.
     */
    private boolean unoptimizedAgrees(OracleCase c) {
        if (unoptimized == null) {
            unoptimized = DifferentialOracle.create(OracleOptions.DEFAULTS.withOptimized(false));
        }
        return unoptimized.check(c) instanceof OracleResult.Equal;
    }

    /** Whether nvcc's optimized PTX agrees with the engine once the case's template functions stay calls. */
    private static boolean notInlinedAgrees(DifferentialOracle oracle, OracleCase c) {
        String source = Triage.notInlined(c.source());
        return source != null && oracle.check(new OracleCase(c.name(), source, c.kernel(), c.config(), c.args()))
                instanceof OracleResult.Equal;
    }

    private FuzzReport.Finding shrinkAndWrite(DifferentialOracle oracle, Profile profile, Pending p) {
        GeneratedKernel k = p.kernel();
        String prefix = "k" + k.index() + "_";
        OracleCase original = k.toCase(prefix);
        OracleCase reduced = original;
        OracleResult reducedResult = p.result();
        if (args.shrinkCalls() > 0) {
            Shrinker.Result r = new Shrinker(oracle::checkAll, Math.min(args.batch(), SHRINK_BATCH), args.shrinkCalls())
                    .shrink(k.name(), k.program(), p.result());
            reduced = GeneratedKernel.toCase(k.name(), r.program(), prefix);
            reducedResult = r.result();
        }
        String category = Triage.category(p.kind(), p.result(), reduced.source());
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("seed", args.seed());
        info.put("index", k.index());
        info.put("profile", profile.spec());
        info.put("invalid", false);
        info.put("category", category);
        info.put("result", p.result().toString());
        info.put("reducedResult", reducedResult.toString());
        info.putAll(CaseFiles.caseInfo(reduced));
        info.put("originalCase", CaseFiles.caseInfo(original));
        Path file = CaseFiles.write(args.out(), k.index(), info, original.source(), reduced.source());
        return new FuzzReport.Finding(k.index(), category, p.kind().label + ": " + brief(p.result()),
                lines(reduced.source()), lines(original.source()), file.toString());
    }

    static String brief(OracleResult r) {
        String s = switch (r) {
            case OracleResult.Differ d -> d.buffer() + "[" + d.index() + "]: PTX " + d.ptxValue() + ", engine "
                    + d.engineValue();
            case OracleResult.Rejected j -> j.side() + ": " + j.message();
            case OracleResult.Internal i -> i.side() + ": " + i.exceptionText();
            case OracleResult.Equal e -> "equal";
        };
        s = s.lines().findFirst().orElse("");
        return s.length() > 160 ? s.substring(0, 160) + "…" : s;
    }

    static int lines(String s) {
        return (int) s.lines().count();
    }
}
