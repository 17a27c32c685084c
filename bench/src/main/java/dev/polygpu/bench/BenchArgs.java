package dev.polygpu.bench;

import picocli.CommandLine.ITypeConverter;

/** The numbers the bench command lines take, as picocli converters whose messages say the range. */
public final class BenchArgs {
    private BenchArgs() {
    }

    /** An integer of at least 1. */
    public static final class Positive implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeast(value, 1);
        }
    }

    /** An integer of at least 0. */
    public static final class NonNegative implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeast(value, 0);
        }
    }

    /** {@code value} as an integer of at least {@code min}; an error that says so otherwise. */
    public static int atLeast(String value, int min) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below, with the value as written.
        }
        throw new IllegalArgumentException("must be an integer >= " + min + ", got '" + value + "'");
    }
}
