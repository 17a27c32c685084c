package dev.polygpu.cluster.sim;

import java.util.Locale;

/**
 * A change of the cluster during a simulated run: workers join ({@code EXPAND}), leave gracefully
 * ({@code SHRINK}: they stop asking for work, finish what they hold and send its results home) or crash
 * ({@code CRASH}: what they hold is lost; each owner runs it again itself once it notices, {@code failAfter}
 * later). Only workers (members that own no task) leave or crash: an owner is a program, and its tasks go
 * with it.
 *
 * @param kind what happens
 * @param atNanos when, in simulated time from the start; at least 0
 * @param count how many members; at least 1
 */
public record MembershipEvent(Kind kind, long atNanos, int count) {

    /** What happens to the members. */
    public enum Kind {
        /** New workers join, with empty queues. */
        EXPAND,
        /** Workers leave gracefully. */
        SHRINK,
        /** Workers crash. */
        CRASH
    }

    /**
     * Validates the fields.
     *
     * @throws IllegalArgumentException if a field is out of range
     */
    public MembershipEvent {
        if (kind == null) {
            throw new IllegalArgumentException("a membership event needs a kind");
        }
        if (atNanos < 0) {
            throw new IllegalArgumentException("a membership event's time must be >= 0, was " + atNanos + " ns");
        }
        if (count < 1) {
            throw new IllegalArgumentException("a membership event's count must be >= 1, was " + count);
        }
    }

    /**
     * Parses {@code TIME:COUNT} (for example {@code 2s:64} or {@code 150ms:8}) for the given kind.
     *
     * @param kind what happens
     * @param spec the time (a duration, milliseconds without a unit) and the member count
     * @return the event
     * @throws IllegalArgumentException naming the spec and what is wrong
     */
    public static MembershipEvent parse(Kind kind, String spec) {
        String flag = "--" + kind.name().toLowerCase(Locale.ROOT);
        int colon = spec.lastIndexOf(':');
        if (colon <= 0 || colon == spec.length() - 1) {
            throw new IllegalArgumentException(flag + " takes TIME:COUNT (for example 2s:64), got '" + spec + "'");
        }
        long at;
        int count;
        try {
            at = Specs.nanos(spec.substring(0, colon));
            count = Integer.parseInt(spec.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + " takes TIME:COUNT (for example 2s:64), got '" + spec + "': "
                    + e.getMessage(), e);
        }
        return new MembershipEvent(kind, at, count);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + " " + count + " at " + Units.nanos(atNanos);
    }
}
