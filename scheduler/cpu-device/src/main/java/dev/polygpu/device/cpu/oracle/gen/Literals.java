package dev.polygpu.device.cpu.oracle.gen;

/**
 * Literals of an exact C type: values chosen to hit edges (0, ±1, the type's bounds, powers of two) and
 * spellings that exercise the lexer (suffixes, hex, octal, character literals, hex floats), each spelled so
 * that its C type is the one asked for.
 */
final class Literals {
    private final GenState g;

    Literals(GenState g) {
        this.g = g;
    }

    /** A literal of type {@code t} with an interesting value. */
    Expr of(Prim t) {
        if (t.isFloating()) {
            return floating(t, interestingDouble(t));
        }
        return integer(t, interesting(t));
    }

    /** An integer value of type {@code t} (as a long holding its bits) biased towards edge values. */
    long interesting(Prim t) {
        int k = g.rng.below(12);
        long v = switch (k) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> -1;
            case 3 -> t.max();
            case 4 -> t.min();
            case 5 -> 1L << g.rng.below(Math.max(1, t.width()));
            case 6 -> (1L << g.rng.below(Math.max(1, t.width()))) - 1;
            case 7 -> t.max() - g.rng.below(3);
            case 8 -> t.min() + g.rng.below(3);
            case 9, 10 -> g.rng.range(-100, 100);
            default -> g.rng.nextLong();
        };
        return t.wrap(v);
    }

    double interestingDouble(Prim t) {
        int k = g.rng.below(14);
        return switch (k) {
            case 0 -> 0.0;
            case 1 -> -0.0;
            case 2 -> 1.0;
            case 3 -> -1.0;
            case 4 -> 0.5;
            case 5 -> g.rng.range(-100, 100);
            case 6 -> t == Prim.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
            case 7 -> t == Prim.FLOAT ? Float.MIN_VALUE : Double.MIN_VALUE;
            case 8 -> t == Prim.FLOAT ? Float.MIN_NORMAL : Double.MIN_NORMAL;
            case 9 -> Math.scalb(1.0 + g.rng.below(1 << 20) / (double) (1 << 20), g.rng.range(-30, 30));
            case 10 -> 16777217.0;
            case 11 -> g.rng.range(-1000, 1000) / 8.0;
            default -> {
                double d = (g.rng.nextLong() >> 11) * 0x1p-40;
                yield t == Prim.FLOAT ? (float) d : d;
            }
        };
    }

    /** An integer literal of exactly type {@code t} with value {@code v} (t's bits). */
    Expr integer(Prim t, long v) {
        v = t.wrap(v);
        int bits = magnitudeBits(t, v);
        boolean exotic = g.on(Construct.LITERAL_FORMS) && g.rng.percent(25);
        String text = switch (t) {
            case BOOL -> v != 0 ? "true" : "false";
            case CHAR, SCHAR, UCHAR, SHORT, USHORT -> narrow(t, v, exotic);
            case INT -> signed(v, "", exotic);
            case LONG -> signed(v, g.rng.coin() ? "L" : "l", exotic);
            case LLONG -> signed(v, g.rng.coin() ? "LL" : "ll", exotic);
            case UINT -> unsigned(v, g.rng.pick("u", "U"), exotic);
            case ULONG -> unsigned(v, g.rng.pick("ul", "UL", "lu"), exotic);
            case ULLONG -> unsigned(v, g.rng.pick("ull", "ULL", "llu"), exotic);
            default -> throw new IllegalArgumentException("not an integer type: " + t.c());
        };
        if (exotic) {
            g.cover(Construct.LITERAL_FORMS);
        }
        return Expr.lit(t, text, bits);
    }

    /** |v| < 2^bits for v read in type t. */
    static int magnitudeBits(Prim t, long v) {
        if (!t.isSigned() && t.width() == 64) {
            return v == 0 ? 0 : 64 - Long.numberOfLeadingZeros(v);
        }
        long a = Math.abs(v);
        if (a < 0) {
            return 64;
        }
        return 64 - Long.numberOfLeadingZeros(a);
    }

    private String narrow(Prim t, long v, boolean exotic) {
        if (t == Prim.CHAR && exotic && v >= 32 && v < 127 && v != '\'' && v != '\\' && v != '@' && v != '$') {
            return "'" + (char) v + "'";
        }
        if (t == Prim.CHAR && exotic && v >= 0 && v < 128) {
            return "'\\x" + Long.toHexString(v) + "'";
        }
        return "(" + t.c() + ")" + (v < 0 ? "(" + v + ")" : Long.toString(v));
    }

    private String signed(long v, String suffix, boolean exotic) {
        if (v == Long.MIN_VALUE || (suffix.isEmpty() && v == Integer.MIN_VALUE)) {
            return "(" + (v + 1) + suffix + " - 1)";
        }
        if (v < 0) {
            return "(-" + (-v) + suffix + ")";
        }
        if (exotic && g.rng.coin()) {
            return "0x" + Long.toHexString(v) + suffix;
        }
        if (exotic && v > 7) {
            return "0" + Long.toOctalString(v) + suffix;
        }
        return v + suffix;
    }

    private String unsigned(long v, String suffix, boolean exotic) {
        if (exotic && g.rng.coin()) {
            return "0x" + Long.toHexString(v) + suffix;
        }
        return Long.toUnsignedString(v) + suffix;
    }

    /** A floating literal of type {@code t} (float or double) with value {@code d}, exact. */
    Expr floating(Prim t, double d) {
        String suffix = t == Prim.FLOAT ? "f" : "";
        if (t == Prim.FLOAT) {
            d = (float) d;
        }
        String body;
        boolean exotic = g.on(Construct.LITERAL_FORMS) && g.rng.percent(20);
        if (Double.isInfinite(d) || Double.isNaN(d)) {
            throw new IllegalArgumentException("no literal for " + d);
        }
        if (exotic) {
            g.cover(Construct.LITERAL_FORMS);
            body = t == Prim.FLOAT ? Float.toHexString((float) d) : Double.toHexString(d);
        } else {
            body = t == Prim.FLOAT ? Float.toString((float) d) : Double.toString(d);
        }
        String text = body + suffix;
        if (text.startsWith("-")) {
            text = "(" + text + ")";
        }
        return Expr.lit(t, text, 0);
    }
}
