package dev.polygpu.bench.fuzz;

import dev.polygpu.bench.BenchArgs;
import dev.polygpu.cli.CommandLines;
import dev.polygpu.device.cpu.oracle.gen.Construct;
import dev.polygpu.device.cpu.oracle.gen.Profile;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The command line of {@code bench/fuzz} (picocli, set up by {@link CommandLines} like every polygpu command):
 * the options, their defaults and checks. Running it hands the parsed options to the command's body.
 */
@CommandLine.Command(name = "bench/fuzz", sortOptions = false, synopsisHeading = "Usage: ",
        customSynopsis = "bench/fuzz [--seed S] [--count N | --only I] [--first I] [--profile SPEC] [--invalid [--hostile]] "
                + "[--batch B] [--out DIR] [--shrink-calls M] [--summary FILE [--resume]] | --replay FILE",
        description = {"Random CUDA C kernels through the differential oracle (nvcc -> PTX on the PTX interpreter "
                + "against the CUDA C engine), failing kernels shrunk and written out.",
            "Progress goes to stderr, the summary (Markdown tables) to stdout. Exit status 1 if a difference or an "
                + "internal error nobody has explained was found, 2 on a usage error or when nvcc is missing."},
        optionListHeading = "%nOptions:%n")
final class FuzzArgs implements Callable<Integer> {
    @Option(names = "--seed", paramLabel = "S", description = "the run's seed (default 1); case I of seed S is "
            + "always the same kernel")
    private long seed = 1;

    @Option(names = "--count", paramLabel = "N", converter = BenchArgs.Positive.class,
            description = "how many kernels (default 100)")
    private int count = 100;

    @Option(names = "--first", paramLabel = "I", description = "the first case index (default 0): cases I to "
            + "I+N-1 run, so a long campaign can be split into chunks")
    private long first;

    @Option(names = "--batch", paramLabel = "B", converter = BenchArgs.Positive.class,
            description = "kernels per nvcc run (default 16)")
    private int batch = 16;

    @Option(names = "--no-overlap", description = "compile each batch with nvcc only when it is checked, not "
            + "while the previous batch runs (to measure what the overlap gives)")
    private boolean noOverlap;

    @Option(names = "--out", paramLabel = "DIR", description = "where failing cases go (default fuzz-out)")
    private Path out = Path.of("fuzz-out");

    @Option(names = "--profile", paramLabel = "SPEC", converter = ProfileSpec.class,
            description = "constructs and weights (default \"default\"): a base (default, all, int, float, control, "
                    + "warp, known-bugs) then +name, -name, name=weight, size=n (e.g. \"default,+volatile-shared,"
                    + "size=40\")")
    private String profile = "default";

    @Option(names = "--invalid", description = "mutate kernels into invalid programs: the engine must give a "
            + "compile error with line:col and never another exception")
    private boolean invalid;

    @Option(names = "--hostile", description = "with --invalid (implied): mutations written to hurt the compiler "
            + "instead (doubling macros and structs, deep nesting, huge arrays, endless template recursion, too many "
            + "statements, locals or kernels); each must compile or be refused with line:col in bounded time")
    private boolean hostile;

    @Option(names = "--only", paramLabel = "I", description = "run case I only (with --seed and --profile, as a "
            + "replay)")
    private Long only;

    @Option(names = "--replay", paramLabel = "FILE", description = "run a case file written by an earlier run "
            + "(its original and reduced kernel)")
    private Path replay;

    @Option(names = "--shrink-calls", paramLabel = "M", converter = BenchArgs.NonNegative.class,
            description = "oracle calls to spend shrinking each failing kernel (default 40; 0: no shrinking)")
    private int shrinkCalls = 40;

    @Option(names = "--summary", paramLabel = "FILE", description = "append this run's figures (range, results "
            + "by kind, seconds, findings) as one JSON line to FILE, and print the totals of its runs of the same "
            + "seed, profile and mode")
    private Path summary;

    @Option(names = "--resume", description = "with --summary: start after the last case the summary's runs of "
            + "the same seed, profile and mode reached (instead of --first)")
    private boolean resume;

    @Option(names = {"-h", "--help"}, arity = "0..1", paramLabel = "constructs", fallbackValue = "options",
            description = "this text; --help constructs lists the constructs and their default weights")
    private String help;

    @Spec
    private CommandSpec spec;

    private final ToIntFunction<FuzzArgs> body;

    /** Options that {@code body} runs with once parsed. */
    FuzzArgs(ToIntFunction<FuzzArgs> body) {
        this.body = body;
    }

    /** Parses {@code argv} alone (no run); IllegalArgumentException with what was wrong, as the command says it. */
    static FuzzArgs parse(String[] argv) {
        FuzzArgs a = new FuzzArgs(x -> 0);
        try {
            new CommandLine(a).setExpandAtFiles(false).setOverwrittenOptionsAllowed(true).parseArgs(argv);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(CommandLines.problem(e, argv), e);
        }
        a.check();
        return a;
    }

    @Override
    public Integer call() {
        if (help != null) {
            switch (help) {
                case "options" -> spec.commandLine().usage(spec.commandLine().getOut());
                case "constructs" -> spec.commandLine().getOut().print(constructs());
                default -> throw new IllegalArgumentException("--help takes nothing or 'constructs', got '" + help
                        + "'");
            }
            spec.commandLine().getOut().flush();
            return 0;
        }
        check();
        return body.applyAsInt(this);
    }

    /** Combinations the options alone cannot refuse. */
    private void check() {
        if (resume && summary == null) {
            throw new IllegalArgumentException("--resume needs --summary FILE (the runs to resume from)");
        }
        if (first < 0) {
            throw new IllegalArgumentException("--first must be an integer >= 0, got " + first);
        }
    }

    /** The list of constructs with their default weights, for {@code --help constructs}. */
    static String constructs() {
        StringBuilder sb = new StringBuilder("constructs (name, default weight, what):\n");
        for (Construct c : Construct.values()) {
            sb.append(String.format("  %-28s %3d  %s%n", c.flagName(), c.defaultWeight, c.description));
        }
        return sb.toString();
    }

    /** A profile spec, checked by parsing it (its message names the bad part). */
    static final class ProfileSpec implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            Profile.parse(value);
            return value;
        }
    }

    long seed() {
        return seed;
    }

    int count() {
        return count;
    }

    long first() {
        return first;
    }

    /** Starts at {@code index} instead of {@link #first()} (a resumed run). */
    void startAt(long index) {
        first = index;
    }

    int batch() {
        return batch;
    }

    boolean noOverlap() {
        return noOverlap;
    }

    Path out() {
        return out;
    }

    String profile() {
        return profile;
    }

    boolean invalid() {
        return invalid || hostile;
    }

    boolean hostile() {
        return hostile;
    }

    Long only() {
        return only;
    }

    Path replay() {
        return replay;
    }

    int shrinkCalls() {
        return shrinkCalls;
    }

    Path summary() {
        return summary;
    }

    boolean resume() {
        return resume;
    }

    /** The first index and one past the last of the cases this run covers. */
    long[] range() {
        return only != null ? new long[] {only, only + 1} : new long[] {first, first + count};
    }
}
