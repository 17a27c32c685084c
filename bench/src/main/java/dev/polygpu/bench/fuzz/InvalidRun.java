package dev.polygpu.bench.fuzz;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.gen.GeneratedKernel;
import dev.polygpu.device.cpu.oracle.gen.HostileMutator;
import dev.polygpu.device.cpu.oracle.gen.InvalidMutator;
import dev.polygpu.device.cpu.oracle.gen.KernelGenerator;
import dev.polygpu.device.cpu.oracle.gen.Profile;
import dev.polygpu.device.cpu.oracle.gen.Rng;
import dev.polygpu.device.cpu.oracle.gen.TextShrinker;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --invalid}: each generated kernel mutated into a program that should not compile, compiled by the
 * engine alone. A compile error with a line and column is right; any other exception (or a hang) is a finding;
 * a program the engine accepts is checked with nvcc through the oracle, and a finding if nvcc refuses it.
 */
final class InvalidRun {
    /** How the engine answered a source. */
    enum Answer {
        COMPILE_ERROR("compile error with line:col", true),
        ACCEPTED("accepted (nvcc accepts it too)", true),
        ACCEPTED_INVALID("accepted a program nvcc refuses", false),
        NO_POSITION("compile error without line:col", false),
        CRASH("another exception (an internal error)", false),
        HANG("no answer within 30 s", false);

        final String label;
        final boolean fine;

        Answer(String label, boolean fine) {
            this.label = label;
            this.fine = fine;
        }
    }

    private final FuzzArgs args;
    private final PrintStream out;
    private final PrintStream err;
    private final ExecutorService compiler = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fuzz-invalid-compile");
        t.setDaemon(true);
        return t;
    });

    InvalidRun(FuzzArgs args, PrintStream out, PrintStream err) {
        this.args = args;
        this.out = out;
        this.err = err;
    }

    int run() {
        Profile profile = Profile.parse(args.profile());
        Map<Answer, Integer> tally = new LinkedHashMap<>();
        int findings = 0;
        long start = System.nanoTime();
        long first = args.range()[0];
        long end = args.range()[1];
        List<Long> found = new ArrayList<>();
        try (CpuDevice device = new CpuDevice(1); DifferentialOracle oracle = DifferentialOracle.unavailableReason()
                .isEmpty() ? DifferentialOracle.create() : null) {
            for (long i = first; i < end; i++) {
                GeneratedKernel k = KernelGenerator.generate(args.seed(), i, profile);
                String valid = k.toCase("k" + i + "_").source();
                InvalidMutator.Mutation m = args.hostile() ? HostileMutator.mutate(valid, Rng.caseSeed(args.seed(), i))
                        : InvalidMutator.mutate(valid, Rng.caseSeed(args.seed(), i) ^ 0xBADL);
                String[] detail = new String[1];
                Answer a = answer(device, oracle, m.source(), detail);
                tally.merge(a, 1, Integer::sum);
                if (!a.fine) {
                    findings++;
                    found.add(i);
                    write(device, oracle, i, profile, m, a, detail[0]);
                }
                if ((i - first + 1) % 10 == 0 || i == end - 1) {
                    double minutes = (System.nanoTime() - start) / 60e9;
                    err.printf("fuzz --invalid: %d/%d programs, %.1f/min, findings %d%n", i - first + 1, end - first,
                            (i - first + 1) / minutes, findings);
                }
            }
        } finally {
            compiler.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.println("## bench/fuzz --invalid" + (args.hostile() ? " --hostile" : "") + " --seed " + args.seed()
                + " --profile '" + args.profile() + "'");
        out.println();
        out.println("| engine's answer | programs |");
        out.println("|---|---:|");
        tally.forEach((a, n) -> out.println("| " + a.label + " | " + n + " |"));
        out.println();
        out.printf("%d programs in %.1f s (%.1f/minute); findings in %s%n", end - first, seconds,
                (end - first) * 60 / Math.max(seconds, 1e-9), args.out());
        if (args.summary() != null) {
            Map<String, Integer> results = new LinkedHashMap<>();
            tally.forEach((a, n) -> results.put(a.label, n));
            RunSummary.append(args.summary(), RunSummary.entry(args, profile.spec(), results, findings, seconds,
                    found));
        }
        return findings > 0 ? 1 : 0;
    }

    /** How the engine (and, for a program it accepts, nvcc) answers {@code source}. */
    Answer answer(CpuDevice device, DifferentialOracle oracle, String source, String[] detail) {
        Future<Throwable> f = compiler.submit(() -> {
            try {
                device.compile(source, "invalid.cu").close();
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        Throwable t;
        try {
            t = f.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            detail[0] = "the engine's compile did not end within 30 s";
            return Answer.HANG;
        } catch (Exception e) {
            detail[0] = e.toString();
            return Answer.CRASH;
        }
        if (t == null) {
            return acceptedAnswer(oracle, source, detail);
        }
        detail[0] = t.toString();
        if (t instanceof CompileException ce) {
            boolean placed = ce.diagnostics().stream().anyMatch(d -> d.line() > 0 && d.column() > 0);
            return placed ? Answer.COMPILE_ERROR : Answer.NO_POSITION;
        }
        return Answer.CRASH;
    }

    private static Answer acceptedAnswer(DifferentialOracle oracle, String source, String[] detail) {
        if (oracle == null) {
            return Answer.ACCEPTED;
        }
        String kernel = kernelName(source);
        OracleResult r = oracle.check(new OracleCase("invalid", source, kernel, LaunchConfig.of(1, 32), List.of()));
        if (r instanceof OracleResult.Rejected j && j.side() == OracleResult.Side.PTX
                && j.message().contains("nvcc: ")) {
            detail[0] = j.message();
            return Answer.ACCEPTED_INVALID;
        }
        return Answer.ACCEPTED;
    }

    private static String kernelName(String source) {
        Matcher m = Pattern.compile("__global__ void (\\w+)\\(").matcher(source);
        return m.find() ? m.group(1) : "kernel";
    }

    /**
     * What kind of problem a detail names, without where: the first error of nvcc's log, the exception's class,
     * so that shrinking keeps the same problem rather than finding another.
     */
    static String gist(String detail) {
        if (detail == null) {
            return "";
        }
        int e = detail.indexOf("error: ");
        String g = e >= 0 ? detail.substring(e + 7) : detail;
        int nl = g.indexOf('\n');
        g = nl >= 0 ? g.substring(0, nl) : g;
        int colon = g.indexOf(':');
        if (e < 0 && colon > 0) {
            g = g.substring(0, colon);
        }
        return g.replaceAll("[0-9]+", "#");
    }

    private void write(CpuDevice device, DifferentialOracle oracle, long index, Profile profile,
            InvalidMutator.Mutation m, Answer a, String detail) {
        String reduced = m.source();
        if (args.shrinkCalls() > 0) {
            String gist = gist(detail);
            reduced = TextShrinker.shrink(m.source(), s -> {
                String[] d = new String[1];
                return answer(device, oracle, s, d) == a && gist(d[0]).equals(gist);
            }, args.shrinkCalls() * 10);
        }
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("seed", args.seed());
        info.put("index", index);
        info.put("profile", profile.spec());
        info.put("invalid", true);
        info.put("mutation", m.kind());
        info.put("category", "front end");
        info.put("result", a.label + ": " + detail);
        Path file = CaseFiles.write(args.out(), index, info, m.source(), reduced);
        err.println("fuzz --invalid: case " + index + " (" + m.kind() + "): " + a.label + ", written to " + file);
    }
}
