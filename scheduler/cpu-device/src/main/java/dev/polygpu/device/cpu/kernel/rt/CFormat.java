package dev.polygpu.device.cpu.kernel.rt;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * C's {@code printf} formatting as glibc does it (CUDA formats a kernel's printf records with the host's C
 * library): conversions {@code d i u x X o c s f F e E g G a A p %}, flags {@code - + space # 0}, width and
 * precision (numbers or {@code *}) and the length modifiers {@code hh h l ll z t j L}. Both engines of the
 * CPU device use it: the kernel engine's front end {@linkplain #parse parses} a literal format at compile time
 * to check the arguments, and the runtime {@linkplain #format formats} each call.
 *
 * <p>Text is handled as bytes: a "byte string" here is a {@code String} whose chars are all below 256, one per
 * byte of the C string (a string literal's non-ASCII characters are its UTF-8 bytes). {@code %c} writes one
 * byte, {@code %.3s} keeps three bytes. Floating conversions are exact: the decimal expansion of the double
 * rounded half-to-even, as glibc rounds in the default rounding mode. Stateless and thread-safe.
 */
public final class CFormat {
    private CFormat() {
    }

    /** The conversions CUDA's printf accepts, besides {@code %%}. */
    public static final String CONVERSIONS = "diouxXcsfFeEgGaAp";

    /**
     * One conversion specification. {@code width} and {@code precision} are -1 when absent and {@link #STAR}
     * when given by an argument; {@code length} is "" when absent.
     */
    public record Spec(int start, int end, String text, String flags, int width, int precision, String length,
                       char conversion) {
        public boolean has(char flag) {
            return flags.indexOf(flag) >= 0;
        }

        /** True for the integer conversions {@code d i o u x X}. */
        public boolean isInteger() {
            return "diouxX".indexOf(conversion) >= 0;
        }

        /** True for the floating conversions {@code f F e E g G a A}. */
        public boolean isFloating() {
            return "fFeEgGaA".indexOf(conversion) >= 0;
        }

        /** True when the integer argument is 64 bits wide ({@code l ll z t j}). */
        public boolean isWide() {
            return length.startsWith("l") || length.equals("z") || length.equals("t") || length.equals("j");
        }
    }

    /** {@link Spec#width()} or {@link Spec#precision()} taken from an {@code int} argument. */
    public static final int STAR = -2;

    /** Where the formatter takes the values of a call's arguments from, in order. */
    public interface Args {
        /** The next integer argument: 4 bytes (sign-extended) unless {@code wide}. */
        long nextInt(boolean wide);

        /** The next floating argument (a double after C's default argument promotions). */
        double nextDouble();

        /** The next {@code %s} argument as a byte string. */
        String nextString();

        /** The next {@code %p} argument: the address (0 for a null pointer). */
        long nextPointer();
    }

    /**
     * The format split into literal byte strings and {@link Spec}s (a {@code %%} is a literal "%"); throws
     * {@link IllegalArgumentException} with a message naming the problem for a malformed specification, an
     * unknown conversion or {@code %n}.
     */
    public static List<Object> parse(String format) {
        List<Object> out = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int i = 0;
        int n = format.length();
        while (i < n) {
            char ch = format.charAt(i);
            if (ch != '%') {
                lit.append(ch);
                i++;
                continue;
            }
            int start = i++;
            if (i < n && format.charAt(i) == '%') {
                lit.append('%');
                i++;
                continue;
            }
            int flagsStart = i;
            while (i < n && "-+ #0".indexOf(format.charAt(i)) >= 0) {
                i++;
            }
            String flags = format.substring(flagsStart, i);
            int width = -1;
            if (i < n && format.charAt(i) == '*') {
                width = STAR;
                i++;
            } else {
                int ws = i;
                while (i < n && Character.isDigit(format.charAt(i))) {
                    i++;
                }
                if (i > ws) {
                    width = parseNumber(format, ws, i);
                }
            }
            int precision = -1;
            if (i < n && format.charAt(i) == '.') {
                i++;
                if (i < n && format.charAt(i) == '*') {
                    precision = STAR;
                    i++;
                } else {
                    int ps = i;
                    while (i < n && Character.isDigit(format.charAt(i))) {
                        i++;
                    }
                    precision = i > ps ? parseNumber(format, ps, i) : 0;
                }
            }
            int ls = i;
            while (i < n && "hlLztjq".indexOf(format.charAt(i)) >= 0) {
                i++;
            }
            String length = format.substring(ls, i);
            if (!length.isEmpty() && !List.of("hh", "h", "l", "ll", "L", "z", "t", "j").contains(length)) {
                throw new IllegalArgumentException("invalid length modifier '" + length + "' in '"
                        + format.substring(start, i) + "'");
            }
            if (i >= n) {
                throw new IllegalArgumentException("incomplete conversion specification '" + format.substring(start)
                        + "' at the end of the format; write %% for a percent sign");
            }
            char conv = format.charAt(i++);
            String text = format.substring(start, i);
            if (conv == 'n') {
                throw new IllegalArgumentException("'" + text + "' (store the count of characters written) is not"
                        + " supported by CUDA's printf");
            }
            if (CONVERSIONS.indexOf(conv) < 0) {
                throw new IllegalArgumentException("unknown conversion '" + text + "'; CUDA's printf supports %d %i"
                        + " %u %x %X %o %c %s %f %F %e %E %g %G %a %A %p and %%");
            }
            if (!lit.isEmpty()) {
                out.add(lit.toString());
                lit.setLength(0);
            }
            out.add(new Spec(start, i, text, flags, width, precision, length, conv));
        }
        if (!lit.isEmpty()) {
            out.add(lit.toString());
        }
        return out;
    }

    private static int parseNumber(String s, int from, int to) {
        try {
            return Integer.parseInt(s, from, to, 10);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("field width or precision '" + s.substring(from, to) + "' is too large");
        }
    }

    /** Formats {@code format} with values from {@code args} (which must match it; see {@link #parse}). */
    public static String format(String format, Args args) {
        return format(parse(format), args);
    }

    /** Formats a {@linkplain #parse parsed} format with values from {@code args}. */
    public static String format(List<Object> parsed, Args args) {
        StringBuilder sb = new StringBuilder();
        for (Object o : parsed) {
            if (o instanceof String s) {
                sb.append(s);
            } else {
                convert(sb, (Spec) o, args);
            }
        }
        return sb.toString();
    }

    private static void convert(StringBuilder sb, Spec s, Args args) {
        int width = s.width();
        boolean left = s.has('-');
        if (width == STAR) {
            width = (int) args.nextInt(false);
            if (width < 0) {
                left = true;
                width = width == Integer.MIN_VALUE ? Integer.MAX_VALUE : -width;
            }
        }
        int precision = s.precision();
        if (precision == STAR) {
            precision = (int) args.nextInt(false);
            if (precision < 0) {
                precision = -1;
            }
        }
        char c = s.conversion();
        switch (c) {
            case 'd', 'i', 'u', 'o', 'x', 'X' -> integer(sb, s, args.nextInt(s.isWide()), width, left, precision);
            case 'c' -> pad(sb, String.valueOf((char) (args.nextInt(false) & 0xFF)), "", width, left, false);
            case 's' -> {
                String str = args.nextString();
                if (precision >= 0 && precision < str.length()) {
                    str = str.substring(0, precision);
                }
                pad(sb, str, "", width, left, false);
            }
            case 'p' -> {
                long p = args.nextPointer();
                if (p == 0) {
                    pad(sb, "(nil)", "", width, left, false);
                } else {
                    pad(sb, Long.toHexString(p), sign(s, false) + "0x", width, left, s.has('0') && precision < 0);
                }
            }
            default -> floating(sb, s, args.nextDouble(), width, left, precision);
        }
    }

    private static String sign(Spec s, boolean negative) {
        return negative ? "-" : s.has('+') ? "+" : s.has(' ') ? " " : "";
    }

    private static void integer(StringBuilder sb, Spec s, long raw, int width, boolean left, int precision) {
        char c = s.conversion();
        boolean signed = c == 'd' || c == 'i';
        long v = switch (s.length()) {
            case "hh" -> signed ? (byte) raw : raw & 0xFF;
            case "h" -> signed ? (short) raw : raw & 0xFFFF;
            case "" -> signed ? (int) raw : raw & 0xFFFFFFFFL;
            default -> raw;
        };
        boolean negative = signed && v < 0;
        String digits = switch (c) {
            case 'o' -> Long.toOctalString(v);
            case 'x' -> Long.toHexString(v);
            case 'X' -> Long.toHexString(v).toUpperCase(java.util.Locale.ROOT);
            case 'u' -> Long.toUnsignedString(v);
            default -> Long.toUnsignedString(negative ? -v : v);
        };
        if (precision == 0 && v == 0) {
            digits = "";
        }
        if (precision > digits.length()) {
            digits = "0".repeat(precision - digits.length()) + digits;
        }
        String prefix = "";
        if (signed) {
            prefix = sign(s, negative);
        } else if (s.has('#')) {
            if (c == 'o' && !digits.startsWith("0")) {
                digits = "0" + digits;
            } else if ((c == 'x' || c == 'X') && v != 0) {
                prefix = c == 'x' ? "0x" : "0X";
            }
        }
        pad(sb, digits, prefix, width, left, s.has('0') && precision < 0);
    }

    /** Appends prefix + body padded to {@code width}: spaces left or right, or zeros between them. */
    private static void pad(StringBuilder sb, String body, String prefix, int width, boolean left, boolean zeros) {
        int fill = Math.max(0, width - prefix.length() - body.length());
        if (left) {
            sb.append(prefix).append(body).repeat(' ', fill);
        } else if (zeros) {
            sb.append(prefix).repeat('0', fill).append(body);
        } else {
            sb.repeat(' ', fill).append(prefix).append(body);
        }
    }

    private static void floating(StringBuilder sb, Spec s, double d, int width, boolean left, int precision) {
        char c = s.conversion();
        boolean upper = Character.isUpperCase(c);
        boolean negative = Double.doubleToRawLongBits(d) < 0;
        String sign = sign(s, negative);
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            String t = Double.isNaN(d) ? "nan" : "inf";
            pad(sb, upper ? t.toUpperCase(java.util.Locale.ROOT) : t, sign, width, left, false);
            return;
        }
        double a = Math.abs(d);
        boolean alt = s.has('#');
        String body;
        String prefix = sign;
        switch (Character.toLowerCase(c)) {
            case 'f' -> body = fixed(a, precision < 0 ? 6 : precision, alt);
            case 'e' -> body = exponential(a, precision < 0 ? 6 : precision, alt, upper);
            case 'g' -> body = general(a, precision < 0 ? 6 : precision == 0 ? 1 : precision, alt, upper);
            default -> {
                prefix = sign + (upper ? "0X" : "0x");
                body = hex(a, precision, alt, upper);
            }
        }
        pad(sb, body, prefix, width, left, s.has('0'));
    }

    private static String fixed(double a, int precision, boolean alt) {
        String t = new BigDecimal(a).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        return precision == 0 && alt ? t + "." : t;
    }

    /** {@code a} rounded to {@code digits} significant digits: the digit string (exactly that long) and exponent. */
    private static String[] significant(double a, int digits) {
        if (a == 0) {
            return new String[] {"0".repeat(digits), "0"};
        }
        BigDecimal r = new BigDecimal(a).round(new MathContext(digits, RoundingMode.HALF_EVEN));
        String u = r.unscaledValue().toString();
        int exp = u.length() - 1 - r.scale();
        if (u.length() < digits) {
            u = u + "0".repeat(digits - u.length());
        } else if (u.length() > digits) {
            u = u.substring(0, digits); // only trailing zeros are cut
        }
        return new String[] {u, Integer.toString(exp)};
    }

    private static String exponential(double a, int precision, boolean alt, boolean upper) {
        String[] r = significant(a, precision + 1);
        return mantissa(r[0], alt) + exponent(Integer.parseInt(r[1]), upper ? 'E' : 'e', 2);
    }

    private static String mantissa(String digits, boolean alt) {
        String m = digits.substring(0, 1);
        if (digits.length() > 1 || alt) {
            m += "." + digits.substring(1);
        }
        return m;
    }

    private static String exponent(int e, char letter, int minDigits) {
        String mag = Integer.toString(Math.abs(e));
        if (mag.length() < minDigits) {
            mag = "0".repeat(minDigits - mag.length()) + mag;
        }
        return letter + (e < 0 ? "-" : "+") + mag;
    }

    private static String general(double a, int p, boolean alt, boolean upper) {
        int x = Integer.parseInt(significant(a, p)[1]);
        String t;
        if (p > x && x >= -4) {
            t = fixed(a, p - 1 - x, alt);
        } else {
            t = exponential(a, p - 1, alt, upper);
        }
        if (alt) {
            return t;
        }
        int e = Math.max(t.indexOf('e'), t.indexOf('E'));
        String m = e < 0 ? t : t.substring(0, e);
        String tail = e < 0 ? "" : t.substring(e);
        if (m.indexOf('.') >= 0) {
            int end = m.length();
            while (m.charAt(end - 1) == '0') {
                end--;
            }
            if (m.charAt(end - 1) == '.') {
                end--;
            }
            m = m.substring(0, end);
        }
        return m + tail;
    }

    /** The part of {@code %a} after "0x": glibc's form, a leading 1 for normal numbers and 0 for subnormals. */
    private static String hex(double a, int precision, boolean alt, boolean upper) {
        long bits = Double.doubleToRawLongBits(a);
        long mant = bits & 0xFFFFFFFFFFFFFL;
        int biased = (int) (bits >>> 52);
        long lead;
        int exp;
        if (biased == 0) {
            lead = 0;
            exp = mant == 0 ? 0 : -1022;
        } else {
            lead = 1;
            exp = biased - 1023;
        }
        String frac;
        if (precision < 0) {
            frac = String.format("%013x", mant);
            int end = frac.length();
            while (end > 0 && frac.charAt(end - 1) == '0') {
                end--;
            }
            frac = frac.substring(0, end);
        } else if (precision >= 13) {
            frac = String.format("%013x", mant) + "0".repeat(precision - 13);
        } else {
            int drop = 4 * (13 - precision);
            long kept = mant >>> drop;
            long rest = mant & ((1L << drop) - 1);
            long half = 1L << (drop - 1);
            long parity = precision == 0 ? lead : kept;
            if (rest > half || rest == half && (parity & 1) == 1) {
                kept++;
            }
            if (precision == 0 ? kept > 0 : kept >>> (4 * precision) != 0) {
                lead++;
                kept &= precision == 0 ? 0 : (1L << (4 * precision)) - 1;
            }
            frac = precision == 0 ? "" : String.format("%0" + precision + "x", kept);
        }
        String t = Long.toString(lead) + (frac.isEmpty() && !alt ? "" : "." + frac) + exponent(exp, 'p', 1);
        return upper ? t.toUpperCase(java.util.Locale.ROOT) : t;
    }
}
