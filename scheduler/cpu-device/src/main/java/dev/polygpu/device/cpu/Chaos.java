package dev.polygpu.device.cpu;

import java.util.Locale;

/**
 * The settings of the CPU device's <em>chaos mode</em>, for testing schedulers: a device created with a
 * {@code Chaos} delays and reorders work across streams, within what CUDA allows, so that a missing
 * dependency between streams shows up as a wrong result rather than passing by luck. See the scheduler
 * module's README for what is and is not reordered.
 *
 * <p>{@code seed} fixes the random delays and orders each stream and worker draws, so a failing run can be
 * repeated with the same choices; it cannot fix how the operating system interleaves threads, so runs with
 * one seed are alike, not identical. {@code maxDelayMicros} bounds the pause a stream takes before each of
 * its operations (0 turns the pauses off and keeps the reordering).
 *
 * <p>As an option string ({@link #parse}, and what {@link #toString()} returns): either a bare integer, the
 * seed ({@code "42"}), or comma-separated {@code key=value} pairs with the keys {@code seed} and {@code delay}
 * (microseconds), each at most once and in any order ({@code "seed=42,delay=2000"}, {@code "delay=500"}).
 * A missing seed is {@link #DEFAULT_SEED}, a missing delay {@link #DEFAULT_MAX_DELAY_MICROS}.
 *
 * @param seed           the seed of every random choice chaos mode makes
 * @param maxDelayMicros the longest pause before a stream operation, in microseconds, 0 to
 *                       {@link #MAX_DELAY_LIMIT_MICROS}
 */
public record Chaos(long seed, long maxDelayMicros) {
    /** The seed of an option string that names none. */
    public static final long DEFAULT_SEED = 0;
    /** The longest pause before a stream operation when the option string names none: 1 ms. */
    public static final long DEFAULT_MAX_DELAY_MICROS = 1_000;
    /** The largest {@code maxDelayMicros} accepted: 1 s, beyond which tests would only get slow. */
    public static final long MAX_DELAY_LIMIT_MICROS = 1_000_000;

    /** Checks the arguments. */
    public Chaos {
        if (maxDelayMicros < 0 || maxDelayMicros > MAX_DELAY_LIMIT_MICROS) {
            throw new IllegalArgumentException("chaos maxDelayMicros must be between 0 and "
                    + MAX_DELAY_LIMIT_MICROS + " (microseconds), got " + maxDelayMicros);
        }
    }

    /** Chaos with {@code seed} and the default delay. */
    public static Chaos withSeed(long seed) {
        return new Chaos(seed, DEFAULT_MAX_DELAY_MICROS);
    }

    /**
     * Reads an option string: {@code "42"} or {@code "seed=42,delay=2000"} (see the class comment); throws
     * {@link IllegalArgumentException} naming what is wrong.
     */
    public static Chaos parse(String option) {
        if (option == null || option.isBlank()) {
            throw new IllegalArgumentException("chaos option is empty; expected a seed such as \"42\" or "
                    + "\"seed=42,delay=2000\" (delay in microseconds)");
        }
        String text = option.strip();
        if (!text.contains("=")) {
            return withSeed(parseLong("seed", text, option));
        }
        Long seed = null;
        Long delay = null;
        for (String part : text.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("chaos option \"" + option + "\": \"" + part.strip()
                        + "\" is not key=value; the keys are seed and delay");
            }
            String key = part.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = part.substring(eq + 1).strip();
            switch (key) {
                case "seed" -> {
                    if (seed != null) {
                        throw duplicate(option, key);
                    }
                    seed = parseLong(key, value, option);
                }
                case "delay" -> {
                    if (delay != null) {
                        throw duplicate(option, key);
                    }
                    delay = parseLong(key, value, option);
                }
                default -> throw new IllegalArgumentException("chaos option \"" + option + "\": unknown key \""
                        + key + "\"; the keys are seed and delay");
            }
        }
        return new Chaos(seed == null ? DEFAULT_SEED : seed, delay == null ? DEFAULT_MAX_DELAY_MICROS : delay);
    }

    /** The option string that {@link #parse} reads back into this: {@code seed=<seed>,delay=<micros>}. */
    @Override
    public String toString() {
        return "seed=" + seed + ",delay=" + maxDelayMicros;
    }

    private static long parseLong(String key, String value, String option) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("chaos option \"" + option + "\": " + key + " must be an integer, got \""
                    + value + "\"", e);
        }
    }

    private static IllegalArgumentException duplicate(String option, String key) {
        return new IllegalArgumentException("chaos option \"" + option + "\": " + key + " is given twice");
    }
}
