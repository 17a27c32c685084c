package dev.polygpu.cluster.sim;

import java.util.Locale;

/** Reading and writing the specs of {@link Distribution}. */
final class Specs {
    private Specs() {
    }

    static Distribution distribution(String spec, double plainScale) {
        if (spec == null) {
            throw new IllegalArgumentException("a distribution spec is needed; accepted: " + Distribution.FORMS);
        }
        String[] parts = spec.trim().split(":", -1);
        String kind = parts[0].toLowerCase(Locale.ROOT);
        int arity = switch (kind) {
            case "const", "exp" -> 1;
            case "uniform", "lognormal", "pareto" -> 2;
            default -> throw bad(spec, "unknown kind '" + parts[0] + "'");
        };
        if (parts.length != arity + 1) {
            throw bad(spec, kind + " takes " + arity + (arity == 1 ? " number" : " numbers") + ", got "
                    + (parts.length - 1));
        }
        double first = scaled(spec, parts[1], plainScale);
        try {
            return switch (kind) {
                case "const" -> Distribution.constant(first);
                case "exp" -> Distribution.exponential(first);
                case "uniform" -> Distribution.uniform(first, scaled(spec, parts[2], plainScale));
                case "lognormal" -> Distribution.lognormal(first, shape(spec, parts[2]));
                default -> Distribution.pareto(first, shape(spec, parts[2]));
            };
        } catch (IllegalArgumentException e) {
            throw bad(spec, e.getMessage());
        }
    }

    /** A number with an optional time unit: in nanoseconds when it has one, else times {@code plainScale}. */
    private static double scaled(String spec, String text, double plainScale) {
        String t = text.trim();
        int end = t.length();
        while (end > 0 && Character.isLetter(t.charAt(end - 1))) {
            end--;
        }
        if (end == 0) {
            throw bad(spec, "'" + text + "' is not a number");
        }
        String unit = t.substring(end).toLowerCase(Locale.ROOT);
        double scale = switch (unit) {
            case "" -> plainScale;
            case "ns" -> 1;
            case "us" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            default -> throw bad(spec, "unknown time unit '" + t.substring(end) + "' in '" + text
                    + "' (ns, us, ms or s)");
        };
        return parse(spec, t.substring(0, end)) * scale;
    }

    private static double shape(String spec, String text) {
        return parse(spec, text.trim());
    }

    private static double parse(String spec, String number) {
        try {
            double value = Double.parseDouble(number);
            if (!Double.isFinite(value)) {
                throw bad(spec, "'" + number + "' is not a finite number");
            }
            return value;
        } catch (NumberFormatException e) {
            throw bad(spec, "'" + number + "' is not a number");
        }
    }

    /**
     * One duration: a number with a time unit ({@code ns}, {@code us}, {@code ms}, {@code s}; milliseconds
     * without one), in nanoseconds, at least 0.
     */
    static long nanos(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("a duration is needed, such as 5us, 2ms or 1.5s");
        }
        double nanos;
        try {
            nanos = scaled(spec, spec, 1e6);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad duration '" + spec + "': a number with ns, us, ms or s "
                    + "(milliseconds without a unit), such as 5us, 2ms or 1.5s");
        }
        if (!(nanos >= 0 && nanos < 0x1p63)) {
            throw new IllegalArgumentException("bad duration '" + spec + "': it must be >= 0");
        }
        return Math.round(nanos);
    }

    /** A size as {@link dev.polygpu.cluster.ClusterConfig#parseSize} reads it (the cluster's options do the same). */
    static long bytes(String spec) {
        return dev.polygpu.cluster.ClusterConfig.parseSize(spec);
    }

    static void check(boolean ok, String kind, String what) {
        if (!ok) {
            throw new IllegalArgumentException(kind + ": " + what);
        }
    }

    /** {@code x} as the shortest text that reads back to it: whole numbers without a fraction. */
    static String number(double x) {
        if (x == Math.rint(x) && Math.abs(x) < 0x1p53) {
            return Long.toString((long) x);
        }
        return Double.toString(x);
    }

    private static IllegalArgumentException bad(String spec, String what) {
        return new IllegalArgumentException("bad distribution '" + spec + "': " + what + "; accepted: "
                + Distribution.FORMS);
    }
}
