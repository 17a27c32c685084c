package dev.polygpu.bench;

/** Reading the values of bench command-line flags, with errors that name the flag. */
public final class BenchArgs {
    private BenchArgs() {
    }

    /** The value after the flag at {@code i - 1}; an error naming the flag if there is none. */
    public static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    /** The integer after the flag at {@code i - 1}, at least {@code min}; an error naming the flag otherwise. */
    public static int number(String[] args, int i, int min) {
        String v = value(args, i);
        try {
            int n = Integer.parseInt(v);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException(args[i - 1] + " needs an integer >= " + min + ", got " + v);
    }
}
