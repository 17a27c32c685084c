package dev.polygpu.device.cpu.ptx;

/**
 * PTX numeric literals: integers (decimal, {@code 0x} hex, {@code 0b} binary, octal with a leading 0, an
 * optional {@code U} suffix, a leading {@code -}) and floats ({@code 0fXXXXXXXX} single and
 * {@code 0dXXXXXXXXXXXXXXXX} double bit patterns, or decimal {@code 1.5}, {@code 1e-3}). Stateless.
 */
final class PtxNumbers {
    private PtxNumbers() {
    }

    /** An integer literal as a 64-bit two's-complement value; INVALID_PTX if it is not one. */
    static long integer(String file, int line, String text) {
        String t = text;
        boolean neg = t.startsWith("-");
        if (neg) {
            t = t.substring(1);
        }
        if (t.endsWith("U") || t.endsWith("u")) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            long v;
            if (t.startsWith("0x") || t.startsWith("0X")) {
                v = Long.parseUnsignedLong(t.substring(2), 16);
            } else if (t.startsWith("0b") || t.startsWith("0B")) {
                v = Long.parseUnsignedLong(t.substring(2), 2);
            } else if (t.length() > 1 && t.startsWith("0")) {
                v = Long.parseUnsignedLong(t.substring(1), 8);
            } else {
                v = Long.parseUnsignedLong(t);
            }
            return neg ? -v : v;
        } catch (NumberFormatException e) {
            throw PtxSyntax.invalid(file, line, "'" + text + "' is not an integer literal");
        }
    }

    /** True for a float literal ({@code 0f…}, {@code 0d…}, or a decimal with a point or an exponent). */
    static boolean isFloat(String text) {
        String t = text.startsWith("-") ? text.substring(1) : text;
        return t.startsWith("0f") || t.startsWith("0F") || t.startsWith("0d") || t.startsWith("0D")
                || (!t.startsWith("0x") && (t.indexOf('.') >= 0 || t.indexOf('e') >= 0 || t.indexOf('E') >= 0));
    }

    /** The value of a float literal as a double (an {@code 0f} literal's single value widened exactly). */
    static double floating(String file, int line, String text) {
        boolean neg = text.startsWith("-");
        String t = neg ? text.substring(1) : text;
        double v;
        try {
            if (t.startsWith("0f") || t.startsWith("0F")) {
                v = Float.intBitsToFloat((int) Long.parseUnsignedLong(t.substring(2), 16));
            } else if (t.startsWith("0d") || t.startsWith("0D")) {
                v = Double.longBitsToDouble(Long.parseUnsignedLong(t.substring(2), 16));
            } else {
                v = Double.parseDouble(t);
            }
        } catch (NumberFormatException e) {
            throw PtxSyntax.invalid(file, line, "'" + text + "' is not a floating-point literal");
        }
        return neg ? -v : v;
    }

    /**
     * The register bits of literal {@code text} used as an operand of type {@code type}: a float type takes a
     * float literal (an integer literal is converted), an integer type an integer literal (an {@code 0f}/{@code 0d}
     * literal gives its bit pattern, as PTX allows for {@code .b} types).
     */
    static long bits(String file, int line, String text, String type) {
        if (type.equals("f32")) {
            double d = isFloat(text) ? floating(file, line, text) : integer(file, line, text);
            return Float.floatToRawIntBits((float) d) & 0xFFFF_FFFFL;
        }
        if (type.equals("f64")) {
            return Double.doubleToRawLongBits(isFloat(text) ? floating(file, line, text) : integer(file, line, text));
        }
        String t = text.startsWith("-") ? text.substring(1) : text;
        if (t.startsWith("0f") || t.startsWith("0F")) {
            return Float.floatToRawIntBits((float) floating(file, line, text)) & 0xFFFF_FFFFL;
        }
        if (t.startsWith("0d") || t.startsWith("0D")) {
            return Double.doubleToRawLongBits(floating(file, line, text));
        }
        if (isFloat(text)) {
            throw PtxSyntax.invalid(file, line, "float literal " + text + " where a ." + type + " integer is expected");
        }
        return integer(file, line, text);
    }
}
