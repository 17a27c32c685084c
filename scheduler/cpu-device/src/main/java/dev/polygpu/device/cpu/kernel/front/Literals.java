package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType.Prim;

/** Decoding of numeric and character literals with the C typing rules (LP64). */
final class Literals {
    private Literals() {}

    record IntLit(long value, Prim type) {}

    record FloatLit(double value, Prim type) {}

    /** A pp-number that is a floating literal rather than an integer one. */
    static boolean isFloating(String text) {
        String t = text.toLowerCase();
        if (t.startsWith("0x")) {
            return t.contains("p") || t.contains(".");
        }
        return t.contains(".") || t.contains("e");
    }

    static FloatLit parseFloat(String text) {
        String t = text;
        Prim type = Prim.DOUBLE;
        char last = Character.toLowerCase(t.charAt(t.length() - 1));
        if (last == 'f') {
            type = Prim.FLOAT;
            t = t.substring(0, t.length() - 1);
        } else if (last == 'l') {
            t = t.substring(0, t.length() - 1); // long double is computed as double
        }
        if (!t.matches("(?i)(0x[0-9a-f]*\\.?[0-9a-f]*p[+-]?[0-9]+)|([0-9]*\\.?[0-9]*(e[+-]?[0-9]+)?)")) {
            throw new IllegalArgumentException("invalid floating constant '" + text + "'");
        }
        double v = Double.parseDouble(t);
        return new FloatLit(type == Prim.FLOAT ? (double) (float) v : v, type);
    }

    /** An integer literal: value (as 64 bits) and type by C11 6.4.4.1 with int 32 and long 64 bits. */
    static IntLit parseInt(String text) {
        String t = text.toLowerCase();
        int end = t.length();
        while (end > 0 && (t.charAt(end - 1) == 'u' || t.charAt(end - 1) == 'l')) {
            end--;
        }
        String suffix = t.substring(end);
        String digits = t.substring(0, end);
        boolean unsigned = suffix.contains("u");
        int longs = suffix.replace("u", "").length();
        if (suffix.chars().filter(c -> c == 'u').count() > 1 || longs > 2
                || (longs == 2 && !suffix.contains("ll"))) {
            throw new IllegalArgumentException("invalid suffix '" + text.substring(end) + "' on integer constant");
        }
        int radix = 10;
        if (digits.startsWith("0x")) {
            radix = 16;
            digits = digits.substring(2);
        } else if (digits.startsWith("0b")) {
            radix = 2;
            digits = digits.substring(2);
        } else if (digits.length() > 1 && digits.startsWith("0")) {
            radix = 8;
            digits = digits.substring(1);
        }
        digits = digits.replace("'", "");
        long v;
        try {
            v = Long.parseUnsignedLong(digits, radix);
        } catch (NumberFormatException e) {
            final int r = radix;
            if (digits.chars().allMatch(c -> Character.digit(c, r) >= 0) && !digits.isEmpty()) {
                throw new IllegalArgumentException("integer literal is too large to be represented in any integer type");
            }
            throw new IllegalArgumentException("invalid integer constant '" + text + "'");
        }
        boolean decimal = radix == 10;
        boolean fitsInt = Long.compareUnsigned(v, Integer.MAX_VALUE) <= 0;
        boolean fitsUint = Long.compareUnsigned(v, 0xFFFFFFFFL) <= 0;
        boolean fitsLong = v >= 0;
        Prim type;
        if (unsigned) {
            type = longs == 0 && fitsUint ? Prim.UINT : longs == 2 ? Prim.ULONGLONG : Prim.ULONG;
        } else if (longs == 0) {
            if (fitsInt) {
                type = Prim.INT;
            } else if (!decimal && fitsUint) {
                type = Prim.UINT;
            } else {
                type = fitsLong ? Prim.LONG : Prim.ULONG;
            }
        } else if (longs == 1) {
            type = fitsLong ? Prim.LONG : Prim.ULONG;
        } else {
            type = fitsLong ? Prim.LONGLONG : Prim.ULONGLONG;
        }
        return new IntLit(v, type);
    }

    /** Value of a character literal such as {@code 'a'}, {@code '\n'}, {@code '\x41'}, {@code '\0'}. */
    static long parseChar(String text) {
        if (text.length() < 3 || text.charAt(0) != '\'' || text.charAt(text.length() - 1) != '\'') {
            throw new IllegalArgumentException("invalid character constant " + text);
        }
        String body = text.substring(1, text.length() - 1);
        if (body.charAt(0) != '\\') {
            if (body.length() != 1) {
                throw new IllegalArgumentException("multi-character constants are not supported");
            }
            return body.charAt(0);
        }
        char e = body.charAt(1);
        long v = switch (e) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case '0', '1', '2', '3', '4', '5', '6', '7' -> Long.parseLong(body.substring(1), 8);
            case 'x' -> Long.parseLong(body.substring(2), 16);
            case 'a' -> 7;
            case 'b' -> 8;
            case 'f' -> 12;
            case 'v' -> 11;
            case '\\', '\'', '"', '?' -> e;
            default -> throw new IllegalArgumentException("unknown escape sequence '\\" + e + "'");
        };
        return (byte) v; // plain char is signed
    }

    /**
     * The bytes of a string literal as the parser keeps it (adjacent literals as written, {@code "ab" "c"}), as
     * a byte string: one char below 256 per byte, non-ASCII source characters as their UTF-8 bytes, escapes
     * decoded ({@code \\n}, octal, {@code \\x}); no terminating NUL.
     */
    static String parseString(String text) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char q = text.charAt(i);
            if (Character.isWhitespace(q)) {
                i++;
                continue;
            }
            if (q != '"') {
                throw new IllegalArgumentException("invalid string literal " + text);
            }
            i++;
            while (i < n && text.charAt(i) != '"') {
                char ch = text.charAt(i++);
                if (ch != '\\') {
                    if (ch < 0x80) {
                        out.append(ch);
                    } else {
                        int cp = Character.isHighSurrogate(ch) && i < n ? Character.toCodePoint(ch, text.charAt(i++)) : ch;
                        for (byte b : new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                            out.append((char) (b & 0xFF));
                        }
                    }
                    continue;
                }
                if (i >= n) {
                    throw new IllegalArgumentException("unterminated string literal " + text);
                }
                char e = text.charAt(i++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'a' -> out.append((char) 7);
                    case 'b' -> out.append((char) 8);
                    case 'f' -> out.append((char) 12);
                    case 'v' -> out.append((char) 11);
                    case '\\', '\'', '"', '?' -> out.append(e);
                    case 'x' -> {
                        int start = i;
                        while (i < n && Character.digit(text.charAt(i), 16) >= 0) {
                            i++;
                        }
                        if (i == start) {
                            throw new IllegalArgumentException("\\x used with no following hex digits in " + text);
                        }
                        out.append((char) (Long.parseUnsignedLong(text.substring(start, Math.min(i, start + 16)), 16)
                                & 0xFF));
                    }
                    default -> {
                        if (e >= '0' && e <= '7') {
                            int v = e - '0';
                            for (int k = 0; k < 2 && i < n && text.charAt(i) >= '0' && text.charAt(i) <= '7'; k++) {
                                v = v * 8 + (text.charAt(i++) - '0');
                            }
                            out.append((char) (v & 0xFF));
                        } else {
                            throw new IllegalArgumentException("unknown escape sequence '\\" + e + "' in " + text);
                        }
                    }
                }
            }
            if (i >= n) {
                throw new IllegalArgumentException("unterminated string literal " + text);
            }
            i++;
        }
        return out.toString();
    }
}
