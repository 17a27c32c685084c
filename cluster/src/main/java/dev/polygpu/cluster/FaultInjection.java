package dev.polygpu.cluster;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Message faults for testing the steal protocol: each outgoing message is dropped with probability
 * {@code drop}, and otherwise delayed by a uniform random time up to {@code maxDelayMillis}. Seeded, so a
 * failing run can be repeated (message timing still depends on threads).
 *
 * @param drop           probability in [0, 1) that a message is lost
 * @param maxDelayMillis upper bound of the random delay added to each delivered message
 * @param seed           seed of the random choices
 */
public record FaultInjection(double drop, long maxDelayMillis, long seed) {

    public FaultInjection {
        if (!(drop >= 0 && drop < 1)) {
            throw new IllegalArgumentException("drop (a probability) must be in [0, 1), got " + drop);
        }
        if (maxDelayMillis < 0 || maxDelayMillis > 60_000) {
            throw new IllegalArgumentException("delay must be in 0..60000 ms, got " + maxDelayMillis);
        }
    }

    /**
     * Parses {@code drop=0.1,delay=50,seed=7} (delay in milliseconds; every key optional). Errors name the key;
     * the caller says which option the spec came from.
     */
    public static FaultInjection parse(String spec) {
        double drop = 0;
        long delay = 0;
        long seed = 1;
        for (String part : spec.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("'" + p + "' must be key=value (drop, delay, seed)");
            }
            String key = p.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = p.substring(eq + 1).strip();
            try {
                switch (key) {
                    case "drop" -> drop = Double.parseDouble(value);
                    case "delay" -> delay = Long.parseLong(value.endsWith("ms") ? value.substring(0, value.length() - 2)
                            : value);
                    case "seed" -> seed = Long.parseLong(value);
                    default -> throw new IllegalArgumentException("unknown key '" + key
                            + "'; known: drop, delay, seed");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a number, got '" + value + "'");
            }
        }
        return new FaultInjection(drop, delay, seed);
    }

    /** A fresh random source for one member (the seed mixed with the member's id). */
    SplittableRandom random(String memberId) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + memberId.hashCode());
    }

    @Override
    public String toString() {
        return "drop=" + drop + ",delay=" + maxDelayMillis + ",seed=" + seed;
    }
}
