package dev.polygpu.bench.fuzz;

import dev.polygpu.device.cpu.oracle.gen.Construct;
import dev.polygpu.device.cpu.oracle.gen.Profile;
import java.nio.file.Path;

/**
 * The command line of {@code bench/fuzz}. Each flag is described by {@link #HELP}; a bad flag or value is an
 * IllegalArgumentException that names it.
 */
record FuzzArgs(long seed, int count, int batch, Path out, boolean invalid, boolean hostile, String profile,
        Long only, Path replay, int shrinkCalls, boolean help, boolean helpConstructs) {

    static final String HELP = """
            bench/fuzz: random CUDA C kernels through the differential oracle (nvcc -> PTX on the PTX interpreter
            against the CUDA C engine), failing kernels shrunk and written out.

              --seed S          the run's seed (default 1); case I of seed S is always the same kernel
              --count N         how many kernels (default 100)
              --batch B         kernels per nvcc run (default 16)
              --out DIR         where failing cases go (default fuzz-out)
              --profile SPEC    constructs and weights (default "default"): a base (%s)
                                then +name, -name, name=weight, size=n (e.g. "default,+volatile-shared,size=40")
              --invalid         mutate kernels into invalid programs: the engine must give a compile error
                                with line:col and never another exception
              --hostile         with --invalid (implied): mutations written to hurt the compiler instead
                                (doubling macros and structs, deep nesting, huge arrays, endless template
                                recursion, too many statements, locals or kernels); each must compile or be
                                refused with line:col in bounded time
              --only I          run case I only (with --seed and --profile, as a replay)
              --replay FILE     run a case file written by an earlier run (its original and reduced kernel)
              --shrink-calls M  oracle calls to spend shrinking each failing kernel (default 40; 0: no shrinking)
              --help            this text; --help constructs lists the constructs

            Progress goes to stderr, the summary (Markdown tables) to stdout. Exit status 1 if a difference or
            an internal error nobody has explained was found, 2 on a usage error.
            """.formatted(String.join(", ", Profile.BASES.keySet()));

    static FuzzArgs parse(String[] a) {
        long seed = 1;
        int count = 100;
        int batch = 16;
        Path out = Path.of("fuzz-out");
        boolean invalid = false;
        boolean hostile = false;
        String profile = "default";
        Long only = null;
        Path replay = null;
        int shrinkCalls = 40;
        boolean help = false;
        boolean helpConstructs = false;
        for (int i = 0; i < a.length; i++) {
            switch (a[i]) {
                case "--seed" -> seed = longValue(a, ++i);
                case "--count" -> count = intValue(a, ++i, 1);
                case "--batch" -> batch = intValue(a, ++i, 1);
                case "--out" -> out = Path.of(value(a, ++i));
                case "--invalid" -> invalid = true;
                case "--hostile" -> {
                    hostile = true;
                    invalid = true;
                }
                case "--profile" -> {
                    profile = value(a, ++i);
                    Profile.parse(profile);
                }
                case "--only" -> only = longValue(a, ++i);
                case "--replay" -> replay = Path.of(value(a, ++i));
                case "--shrink-calls" -> shrinkCalls = intValue(a, ++i, 0);
                case "--help", "-h" -> {
                    help = true;
                    if (i + 1 < a.length && a[i + 1].equals("constructs")) {
                        helpConstructs = true;
                        i++;
                    }
                }
                default -> throw new IllegalArgumentException("unknown flag '" + a[i] + "'; bench/fuzz --help lists them");
            }
        }
        return new FuzzArgs(seed, count, batch, out, invalid, hostile, profile, only, replay, shrinkCalls, help,
                helpConstructs);
    }

    /** The list of constructs with their default weights, for {@code --help constructs}. */
    static String constructs() {
        StringBuilder sb = new StringBuilder("constructs (name, default weight, what):\n");
        for (Construct c : Construct.values()) {
            sb.append(String.format("  %-28s %3d  %s%n", c.flagName(), c.defaultWeight, c.description));
        }
        return sb.toString();
    }

    private static String value(String[] a, int i) {
        if (i >= a.length) {
            throw new IllegalArgumentException(a[i - 1] + " needs a value");
        }
        return a[i];
    }

    private static long longValue(String[] a, int i) {
        String v = value(a, i);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(a[i - 1] + " needs an integer, got '" + v + "'", e);
        }
    }

    private static int intValue(String[] a, int i, int min) {
        long v = longValue(a, i);
        if (v < min || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(a[i - 1] + " needs an integer >= " + min + ", got " + v);
        }
        return (int) v;
    }
}
