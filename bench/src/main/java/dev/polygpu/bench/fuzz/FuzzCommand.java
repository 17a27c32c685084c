package dev.polygpu.bench.fuzz;

import dev.polygpu.cli.CommandLines;
import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleOptions;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.gen.GeneratedKernel;
import dev.polygpu.device.cpu.oracle.gen.KernelGenerator;
import dev.polygpu.device.cpu.oracle.gen.Profile;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code bench/fuzz}: random CUDA C kernels (dev.polygpu.device.cpu.oracle.gen) through the differential oracle,
 * failing ones shrunk and written out ({@link FuzzArgs} has the options). Exit status: 0 when nothing
 * unexplained was found, 1 when something was, 2 on a usage error or when nvcc is missing.
 */
public final class FuzzCommand {
    /**
     * The engine's compiler warns of kernels too large for HotSpot to JIT-compile; generated kernels are large
     * and run once, so the warning says nothing here and would bury the progress lines. Held so that the
     * logger's level outlives garbage collection.
     */
    private static final Logger COMPILER_LOG =
            Logger.getLogger("dev.polygpu.device.cpu.kernel.codegen.KernelCompiler");

    private FuzzCommand() {
    }

    public static void main(String[] argv) {
        COMPILER_LOG.setLevel(Level.SEVERE);
        System.exit(run(argv, System.out, System.err));
    }

    static int run(String[] argv, PrintStream out, PrintStream err) {
        return CommandLines.execute(new FuzzArgs(a -> execute(a, out, err)), out, err, argv);
    }

    private static int execute(FuzzArgs args, PrintStream out, PrintStream err) {
        Optional<String> missing = DifferentialOracle.unavailableReason();
        if (missing.isPresent() && !args.invalid()) {
            err.println("bench/fuzz: the differential oracle needs nvcc: " + missing.get());
            return 2;
        }
        if (args.replay() != null) {
            return replay(args.replay(), out, err);
        }
        String profile = Profile.parse(args.profile()).spec();
        if (args.resume()) {
            args.startAt(RunSummary.resumeFrom(RunSummary.read(args.summary()), args.seed(), profile,
                    args.invalid()));
            err.println("bench/fuzz: resuming at case " + args.first());
        }
        int status = args.invalid() ? new InvalidRun(args, out, err).run() : new OracleRun(args, out, err).run();
        if (args.summary() != null) {
            out.println(RunSummary.totals(RunSummary.read(args.summary()), args.seed(), profile, args.invalid()));
        }
        return status;
    }

    /**
     * Runs a case file's original kernel and its reduced one, both as stored (so a replay does not depend on the
     * generator staying the same), and says whether the seed still generates that original; 1 if either still
     * fails.
     */
    private static int replay(Path file, PrintStream out, PrintStream err) {
        Map<String, Object> m;
        try {
            m = CaseFiles.read(file);
        } catch (RuntimeException e) {
            err.println("bench/fuzz: " + e.getMessage());
            return 2;
        }
        long seed = ((Number) m.get("seed")).longValue();
        long index = ((Number) m.get("index")).longValue();
        String profile = (String) m.get("profile");
        if (Boolean.TRUE.equals(m.get("invalid"))) {
            String[] argv = {"--invalid", "--seed", Long.toString(seed), "--only", Long.toString(index), "--profile",
                profile, "--shrink-calls", "0", "--out", file.toAbsolutePath().getParent().resolve("replay").toString()};
            return run(argv, out, err);
        }
        GeneratedKernel k = KernelGenerator.generate(seed, index, Profile.parse(profile));
        try (DifferentialOracle oracle = DifferentialOracle.create()) {
            OracleCase reduced = CaseFiles.reducedCase(file, m);
            OracleCase stored = CaseFiles.originalCase(file, m);
            OracleResult original = oracle.check(stored);
            OracleResult small = oracle.check(reduced);
            out.println("case " + seed + ":" + index + " (profile '" + profile + "')");
            out.println(k.toCase("k" + index + "_").source().equals(stored.source())
                    ? "  the seed still generates this kernel"
                    : "  the generator has changed since: --seed " + seed + " --only " + index + " now makes another kernel");
            out.println("  recorded: " + m.get("result"));
            out.println("  original now: " + original);
            out.println("  reduced now:  " + small);
            if (original instanceof OracleResult.Differ || small instanceof OracleResult.Differ) {
                try (DifferentialOracle g = DifferentialOracle.create(OracleOptions.DEFAULTS.withOptimized(false))) {
                    out.println("  with nvcc -G: original " + g.check(stored) + ", reduced " + g.check(reduced));
                }
                out.println("  template functions not inlined: original " + notInlined(oracle, stored) + ", reduced "
                        + notInlined(oracle, reduced));
            }
            boolean fails = !Triage.kind(original).explained || !Triage.kind(small).explained;
            out.println(fails ? "  still failing" : "  both pass now");
            return fails ? 1 : 0;
        }
    }

    private static String notInlined(DifferentialOracle oracle, OracleCase c) {
        String source = Triage.notInlined(c.source());
        return source == null ? "(no template functions)"
                : oracle.check(new OracleCase(c.name(), source, c.kernel(), c.config(), c.args())).toString();
    }
}
