package dev.polygpu.cluster.sim;

import dev.polygpu.cluster.policy.StealSettings;
import dev.polygpu.cluster.policy.ThiefCap;
import dev.polygpu.runtime.PriorityLevels;
import java.util.ArrayList;
import java.util.List;
import java.util.Stack;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The values {@code polygpu simulate}'s options take ({@link SimulateOptions}), as picocli converters: each checks
 * its range and says what is wrong in a message that starts with "must" (the command line puts the option's name in
 * front) or names the option itself.
 */
final class OptionValues {
    /** The most seeds one command runs: enough for a spread, few enough that a typo cannot run for days. */
    static final int MAX_SEEDS = 100;

    private OptionValues() {
    }

    /** A whole number from 1 to {@link Integer#MAX_VALUE}. */
    static final class PositiveInt implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long n = positiveLong(value);
            if (n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("must be at most " + Integer.MAX_VALUE + ", got " + n);
            }
            return (int) n;
        }
    }

    /** A whole number of at least 1. */
    static final class PositiveLong implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return positiveLong(value);
        }
    }

    /** A whole number from 0 to {@link Integer#MAX_VALUE}. */
    static final class NonNegativeInt implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long n = parseLong(value);
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("must be a whole number >= 0, got '" + value + "'");
            }
            return (int) n;
        }
    }

    /** A number in (0, 1]. */
    static final class Fraction implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double d = parseDouble(value);
            if (!(d > 0 && d <= 1)) {
                throw new IllegalArgumentException("must be in (0, 1], got '" + value + "'");
            }
            return d;
        }
    }

    /** A finite number of at least 0. */
    static final class NonNegative implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double d = parseDouble(value);
            if (!(d >= 0) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("must be a number >= 0, got '" + value + "'");
            }
            return d;
        }
    }

    /** A duration in nanoseconds, such as {@code 5us}, {@code 2ms} or {@code 1.5s} ({@link Specs#nanos}). */
    static final class Nanos implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return Specs.nanos(value);
        }
    }

    /** A size in bytes, such as {@code 64KB} or {@code 256MB} ({@link Specs#bytes}). */
    static final class Bytes implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return Specs.bytes(value);
        }
    }

    /** Bytes per second, such as {@code 12.5GB} or {@code 500MB/s}. */
    static final class Bandwidth implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            String v = value.endsWith("/s") ? value.substring(0, value.length() - 2) : value;
            long bytes;
            try {
                bytes = Specs.bytes(v);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("must be bytes per second such as 12.5GB or 500MB/s, got '"
                        + value + "'", e);
            }
            if (bytes < 1) {
                throw new IllegalArgumentException("must be above 0 bytes per second, got '" + value + "'");
            }
            return (double) bytes;
        }
    }

    /** Nanoseconds per byte: a number, fractions allowed, with an optional {@code ns}. */
    static final class NanosPerByte implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            String v = value.endsWith("ns") ? value.substring(0, value.length() - 2) : value;
            double d;
            try {
                d = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                d = Double.NaN;
            }
            if (!(d >= 0) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("must be nanoseconds per byte, a number >= 0 such as 4.89 or "
                        + "4.89ns, got '" + value + "'");
            }
            return d;
        }
    }

    /** A task duration distribution ({@link Distribution#parseDuration}). */
    static final class TileTime implements ITypeConverter<Distribution> {
        @Override
        public Distribution convert(String value) {
            return Distribution.parseDuration(value);
        }
    }

    /** The kinds of workload: generated ones, or a Chrome trace to replay. */
    static final class WorkloadKind implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (List.of("bspgemm", "bspgemm-tiles", "gemm", "cholesky").contains(value)
                    || value.startsWith("trace:") && value.length() > "trace:".length()) {
                return value;
            }
            throw new IllegalArgumentException("must be bspgemm, bspgemm-tiles, gemm, cholesky or trace:FILE, got '"
                    + value + "'");
        }
    }

    /** {@code N}, {@code N,M,...} or {@code A-B} (A to B, both included), at most {@link #MAX_SEEDS}. */
    static final class Seeds implements ITypeConverter<List<Long>> {
        @Override
        public List<Long> convert(String value) {
            List<Long> out = new ArrayList<>();
            for (String part : value.split(",")) {
                String p = part.strip();
                int dash = p.indexOf('-', 1);
                if (dash < 0) {
                    out.add(parseLong(p));
                } else {
                    long from = parseLong(p.substring(0, dash));
                    long to = parseLong(p.substring(dash + 1));
                    if (to < from || to - from >= MAX_SEEDS) {
                        throw new IllegalArgumentException("--seed range " + p + " must go up, with at most "
                                + MAX_SEEDS + " seeds");
                    }
                    for (long seed = from; seed <= to; seed++) {
                        out.add(seed);
                    }
                }
                if (out.size() > MAX_SEEDS) {
                    throw new IllegalArgumentException("--seed: at most " + MAX_SEEDS + " seeds, got more in '"
                            + value + "'");
                }
            }
            return List.copyOf(out);
        }
    }

    /** Member counts: {@code N,N,...}, each at least 1. */
    static final class MemberCounts implements ITypeConverter<List<Integer>> {
        @Override
        public List<Integer> convert(String value) {
            List<Integer> out = new ArrayList<>();
            for (String part : value.split(",")) {
                out.add(new PositiveInt().convert(part.strip()));
            }
            return List.copyOf(out);
        }
    }

    /** Device speeds per member ({@link Speeds#parse}). */
    static final class SpeedList implements ITypeConverter<Speeds> {
        @Override
        public Speeds convert(String value) {
            return Speeds.parse(value);
        }
    }

    /** The order members run and give their ready tasks in. */
    static final class TaskOrder implements ITypeConverter<SimConfig.Order> {
        @Override
        public SimConfig.Order convert(String value) {
            return switch (value) {
                case "rank+priorities" -> SimConfig.Order.RANK_AND_PRIORITIES;
                case "rank" -> SimConfig.Order.RANK;
                case "rank+streams" -> SimConfig.Order.RANK_AND_STREAMS;
                case "submission" -> SimConfig.Order.SUBMISSION;
                default -> throw new IllegalArgumentException("must be rank+priorities, rank, rank+streams or "
                        + "submission, got '" + value + "'");
            };
        }
    }

    /** Stream priority levels: 1 to {@link PriorityLevels#MAX_LEVELS}. */
    static final class Levels implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long n = parseLong(value);
            if (n < 1 || n > PriorityLevels.MAX_LEVELS) {
                throw new IllegalArgumentException("must be 1 to " + PriorityLevels.MAX_LEVELS + ", got '" + value
                        + "'");
            }
            return (int) n;
        }
    }

    /** 0 (no requests by rank) or a number of at least 1. */
    static final class RankFactor implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double d = parseDouble(value);
            if (!StealSettings.validRankFactor(d)) {
                throw new IllegalArgumentException("must be 0 (no requests by rank) or a number >= 1, got '" + value
                        + "'");
            }
            return d;
        }
    }

    /** {@code off}, {@code all} or {@code repeat}. */
    static final class Cap implements ITypeConverter<ThiefCap> {
        @Override
        public ThiefCap convert(String value) {
            try {
                return ThiefCap.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("must be off, all or repeat, got '" + value + "'", e);
            }
        }
    }

    /**
     * {@code --expand}, {@code --shrink} and {@code --crash} ({@code TIME:N}, repeatable): each adds its event to
     * {@link SimulateOptions#events}, so the events keep the order they were written in whatever their kind.
     */
    static final class Membership implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            String name = ((OptionSpec) argSpec).longestName();
            if (args.isEmpty()) {
                throw new IllegalArgumentException(name + " needs a value: write " + name + "=TIME:N or " + name
                        + " TIME:N");
            }
            MembershipEvent.Kind kind = switch (name) {
                case "--expand" -> MembershipEvent.Kind.EXPAND;
                case "--shrink" -> MembershipEvent.Kind.SHRINK;
                default -> MembershipEvent.Kind.CRASH;
            };
            MembershipEvent event;
            try {
                event = MembershipEvent.parse(kind, args.pop());
            } catch (IllegalArgumentException e) {
                if (e.getMessage() != null && e.getMessage().contains(name)) {
                    throw e;
                }
                throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
            }
            ((SimulateOptions) commandSpec.userObject()).events.add(event);
        }
    }

    private static long positiveLong(String value) {
        long n = parseLong(value);
        if (n < 1) {
            throw new IllegalArgumentException("must be a whole number >= 1, got '" + value + "'");
        }
        return n;
    }

    private static long parseLong(String value) {
        try {
            return Long.parseLong(value.strip().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a whole number, got '" + value + "'", e);
        }
    }

    private static double parseDouble(String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a number, got '" + value + "'", e);
        }
    }
}
