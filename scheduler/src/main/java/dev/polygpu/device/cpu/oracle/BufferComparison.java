package dev.polygpu.device.cpu.oracle;

import dev.polygpu.device.cpu.oracle.OracleOptions.NanComparison;

/**
 * Compares the final contents of one buffer as the two sides left it, element by element.
 *
 * <p>Integers compare bit for bit. Floating-point elements (F16, F32, F64) compare bit for bit when the buffer's
 * ulp bound is 0, so {@code -0.0} and {@code +0.0} differ; with a positive bound two finite or infinite values
 * are equal when at most that many representable values lie between them (counting across zero, where both
 * zeros count as one point, so the bound is the number of steps between them). A NaN equals only a NaN, bit for
 * bit under {@link NanComparison#BITS} and whatever its bits under {@link NanComparison#ANY}, with or without
 * an ulp bound.
 */
final class BufferComparison {
    /** The first element that differs: its index and each side's value as text. */
    record Mismatch(long index, String ptxValue, String engineValue) {
    }

    private BufferComparison() {
    }

    /**
     * The first element of {@code ptx} and {@code engine} (the same length, elements of {@code type},
     * little-endian) that differs beyond {@code maxUlp}, or null when none does.
     */
    static Mismatch firstMismatch(OracleType type, int maxUlp, NanComparison nans, byte[] ptx, byte[] engine) {
        if (ptx.length != engine.length) {
            throw new IllegalArgumentException("buffers of " + ptx.length + " and " + engine.length + " bytes");
        }
        int n = ptx.length / type.size;
        for (int i = 0; i < n; i++) {
            long a = element(type, ptx, i);
            long b = element(type, engine, i);
            if (a != b && !equivalent(type, maxUlp, nans, a, b)) {
                return new Mismatch(i, format(type, a), format(type, b));
            }
        }
        return null;
    }

    /** Whether two elements whose bits differ still count as equal. */
    static boolean equivalent(OracleType type, int maxUlp, NanComparison nans, long a, long b) {
        if (!type.isFloating()) {
            return false;
        }
        boolean nanA = isNaN(type, a);
        boolean nanB = isNaN(type, b);
        if (nanA || nanB) {
            return nanA && nanB && nans == NanComparison.ANY;
        }
        return maxUlp > 0 && ulps(type, a, b) <= maxUlp;
    }

    /** How many steps between adjacent values of {@code type} separate two non-NaN values (saturating). */
    static long ulps(OracleType type, long a, long b) {
        long x = ordered(type, a);
        long y = ordered(type, b);
        long d = x - y;
        if (((x ^ y) & (x ^ d)) < 0) {
            return Long.MAX_VALUE;
        }
        return Math.abs(d);
    }

    /** The value's place on the number line: its magnitude bits, negated when the sign bit is set. */
    private static long ordered(OracleType type, long bits) {
        int width = type.size * 8;
        long sign = 1L << (width - 1);
        long magnitude = bits & (sign - 1);
        return (bits & sign) != 0 ? -magnitude : magnitude;
    }

    static boolean isNaN(OracleType type, long bits) {
        return switch (type) {
            case F16 -> (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0;
            case F32 -> Float.isNaN(Float.intBitsToFloat((int) bits));
            case F64 -> Double.isNaN(Double.longBitsToDouble(bits));
            default -> false;
        };
    }

    /** Element {@code index} of {@code data}: its {@code type.size} little-endian bytes, zero-extended. */
    static long element(OracleType type, byte[] data, int index) {
        int at = index * type.size;
        long v = 0;
        for (int k = type.size - 1; k >= 0; k--) {
            v = (v << 8) | (data[at + k] & 0xff);
        }
        return v;
    }

    /**
     * A value in decimal and hexadecimal: {@code -7 (0xfffffff9)}, {@code 3.0f (0x40400000)}, {@code 0.1
     * (0x3fb999999999999a)}, {@code 1.5h (0x3e00)}; a NaN shows its bits.
     */
    static String format(OracleType type, long value) {
        long bits = type.size == 8 ? value : value & ((1L << (type.size * 8)) - 1);
        String hex = "0x" + String.format("%0" + (type.size * 2) + "x", bits);
        String dec = switch (type) {
            case I8 -> Byte.toString((byte) bits);
            case I16 -> Short.toString((short) bits);
            case I32 -> Integer.toString((int) bits);
            case I64 -> Long.toString(bits);
            case U8, U16, U32 -> Long.toString(bits);
            case U64 -> Long.toUnsignedString(bits);
            case F16 -> Float.float16ToFloat((short) bits) + "h";
            case F32 -> Float.intBitsToFloat((int) bits) + "f";
            case F64 -> Double.toString(Double.longBitsToDouble(bits));
        };
        return dec + " (" + hex + ")";
    }
}
