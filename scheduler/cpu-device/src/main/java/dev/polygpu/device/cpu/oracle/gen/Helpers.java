package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code __device__} helper functions that make operations safe (Csmith's safe math, adapted): checked or
 * wrapping signed arithmetic, division with a guarded divisor, left shifts of signed values done unsigned,
 * floating-to-integer conversions clamped into range, and the hashing of values. Each is emitted once per
 * program, when first used, named after the operation and type ({@code @addc_i32}).
 */
final class Helpers {
    private final Map<String, Program.Item> items = new LinkedHashMap<>();

    /** The helper items used so far, in first-use order. */
    List<Program.Item> items() {
        return new ArrayList<>(items.values());
    }

    /** Short type codes for helper names. */
    static String code(Prim t) {
        return switch (t) {
            case BOOL -> "b";
            case CHAR -> "c8";
            case SCHAR -> "s8";
            case UCHAR -> "u8";
            case SHORT -> "s16";
            case USHORT -> "u16";
            case INT -> "i32";
            case UINT -> "u32";
            case LONG -> "l64";
            case ULONG -> "ul64";
            case LLONG -> "i64";
            case ULLONG -> "u64";
            case HALF -> "f16";
            case FLOAT -> "f32";
            case DOUBLE -> "f64";
        };
    }

    /** C text of the smallest value of a signed type (INT_MIN is not a literal). */
    static String minText(Prim t) {
        return switch (t) {
            case INT -> "(-2147483647 - 1)";
            case LONG -> "(-9223372036854775807L - 1)";
            case LLONG -> "(-9223372036854775807LL - 1)";
            default -> throw new IllegalArgumentException("no min text for " + t.c());
        };
    }

    static String maxText(Prim t) {
        return switch (t) {
            case INT -> "2147483647";
            case LONG -> "9223372036854775807L";
            case LLONG -> "9223372036854775807LL";
            default -> throw new IllegalArgumentException("no max text for " + t.c());
        };
    }

    private String add(String name, String text) {
        items.putIfAbsent(name, new Program.Item(name, text, null));
        return "@" + name;
    }

    /**
     * A signed {@code op} ("add", "sub", "mul") on {@code t} (int, long or long long) that never overflows:
     * {@code checked} returns the left operand where the result would not fit, else the operation wraps
     * through the unsigned type.
     */
    String arith(String op, Prim t, boolean checked) {
        String name = op + (checked ? "c_" : "w_") + code(t);
        String c = t.c();
        String sym = switch (op) {
            case "add" -> "+";
            case "sub" -> "-";
            case "mul" -> "*";
            default -> throw new IllegalArgumentException(op);
        };
        if (!checked) {
            String u = t.toUnsigned().c();
            return add(name, "__device__ " + c + " @" + name + "(" + c + " a, " + c + " b) { return (" + c + ")(("
                    + u + ")a " + sym + " (" + u + ")b); }");
        }
        String mx = maxText(t);
        String mn = minText(t);
        String cond = switch (op) {
            case "add" -> "(b > 0 && a > " + mx + " - b) || (b < 0 && a < " + mn + " - b)";
            case "sub" -> "(b < 0 && a > " + mx + " + b) || (b > 0 && a < " + mn + " + b)";
            default -> "(a > 0 && b > 0 && a > " + mx + " / b) || (a > 0 && b <= 0 && b < " + mn + " / a)"
                    + " || (a <= 0 && b > 0 && a < " + mn + " / b) || (a < 0 && b <= 0 && b < " + mx + " / a)";
        };
        return add(name, "__device__ " + c + " @" + name + "(" + c + " a, " + c + " b) {\n    return (" + cond
                + ") ? a : a " + sym + " b;\n}");
    }

    /** {@code a / b} or {@code a % b} in {@code t} ({@code op} "div" or "mod"), the left operand where undefined. */
    String divide(String op, Prim t) {
        String name = op + "_" + code(t);
        String c = t.c();
        String sym = op.equals("div") ? "/" : "%";
        String bad = t.isSigned() ? "b == 0 || (a == " + minText(t) + " && b == -1)" : "b == 0";
        return add(name, "__device__ " + c + " @" + name + "(" + c + " a, " + c + " b) { return (" + bad
                + ") ? a : a " + sym + " b; }");
    }

    /** {@code -a} in a signed {@code t}, {@code a} itself for the minimum. */
    String negate(Prim t) {
        String name = "neg_" + code(t);
        String c = t.c();
        return add(name, "__device__ " + c + " @" + name + "(" + c + " a) { return a == " + minText(t)
                + " ? a : -a; }");
    }

    /** {@code a << (b mod width)} for a signed {@code t}, shifted in the unsigned type and converted back. */
    String shiftLeft(Prim t) {
        String name = "shl_" + code(t);
        String c = t.c();
        String u = t.toUnsigned().c();
        return add(name, "__device__ " + c + " @" + name + "(" + c + " a, unsigned int b) { return (" + c + ")(("
                + u + ")a << (b & " + (t.width() - 1) + "u)); }");
    }

    /**
     * {@code x} (of floating type {@code from}) converted to integer type {@code to}: truncated where that is in
     * range, else the nearest bound; NaN gives 0. C leaves the conversion of out-of-range values undefined.
     */
    String floatToInt(Prim from, Prim to) {
        String name = "f2i_" + code(from) + "_" + code(to);
        String f = from.c();
        String t = to.c();
        String x = from == Prim.HALF ? "__half2float(x)" : "x";
        String lo;
        String hi;
        String loVal;
        String hiVal;
        if (to == Prim.BOOL) {
            return add(name, "__device__ bool @" + name + "(" + f + " x) { return " + x + " != 0.0f; }");
        }
        if (to.isSigned()) {
            long min = to.min();
            // x > min - 1, written so that the bound is exact in double: min - 1 is exact up to 2^53.
            lo = to.width() == 64 ? "v >= " + dbl(-0x1p63) : "v > " + dbl((double) min - 1);
            hi = "v < " + dbl(to.width() == 64 ? 0x1p63 : (double) to.max() + 1);
            loVal = to.width() == 64 ? minText(Prim.LLONG) : Long.toString(min);
            hiVal = to.width() == 64 ? maxText(Prim.LLONG) : Long.toString(to.max());
        } else {
            lo = "v > -1.0";
            hi = "v < " + dbl(to.width() == 64 ? 0x1p64 : (double) to.max() + 1);
            loVal = "0";
            hiVal = to.width() == 64 ? "18446744073709551615ull" : to.max() + "u";
        }
        return add(name, "__device__ " + t + " @" + name + "(" + f + " x) {\n    double v = " + x
                + ";\n    return (" + lo + " && " + hi + ") ? (" + t + ")v : (v != v ? (" + t + ")0 : (v > 0.0 ? ("
                + t + ")" + hiVal + " : (" + t + ")" + loVal + "));\n}");
    }

    private static String dbl(double d) {
        return Double.toHexString(d).replace("0x1.0p", "0x1p");
    }

    /** The bits of a float with every NaN made the one canonical NaN (NaN payloads and signs differ by path). */
    String floatBits(Prim t) {
        if (t == Prim.DOUBLE) {
            return add("dbits", "__device__ unsigned long long @dbits(double x) { return x != x ? "
                    + "0x7ff8000000000000ull : (unsigned long long)__double_as_longlong(x); }");
        }
        return add("fbits", "__device__ unsigned int @fbits(float x) { return x != x ? 0x7fc00000u : "
                + "__float_as_uint(x); }");
    }

    /** {@code x} with every NaN made the canonical NaN, for stores into float output buffers. */
    String canonical(Prim t) {
        if (t == Prim.DOUBLE) {
            return add("dcan", "__device__ double @dcan(double x) { return x != x ? "
                    + "__longlong_as_double(0x7ff8000000000000ll) : x; }");
        }
        return add("fcan", "__device__ float @fcan(float x) { return x != x ? __int_as_float(0x7fc00000) : x; }");
    }

    /** The hash step: mixes a value's bits into the thread's running hash. */
    String mix() {
        return add("mix", "__device__ unsigned long long @mix(unsigned long long h, unsigned long long v) {\n"
                + "    h = (h ^ v) * 0x100000001b3ull;\n    return h ^ (h >> 29);\n}");
    }
}
