package dev.polygpu.cluster.sim;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of JSON text (RFC 8259) for {@link TraceReplay}; the cluster module takes no JSON library.
 * Values come back as {@link LinkedHashMap} (objects, names in order, no duplicates), {@link List} (arrays),
 * {@link String}, {@link Long} (integers that fit), {@link BigDecimal} (other numbers, exactly),
 * {@link Boolean} and {@link #NULL}. Besides whole values it reads step by step ({@link #expect},
 * {@link #consume}, {@link #string}), so a caller can walk a large document's outer structure itself.
 *
 * <p>Errors are {@link IllegalArgumentException}s naming the source, the line and column (from 1) and what
 * was expected there. Not thread-safe.
 */
final class JsonReader {
    /** The JSON {@code null}, as a value a map may hold. */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private final String text;
    private final String source;
    private int at;

    JsonReader(String text, String source) {
        this.text = text;
        this.source = source;
    }

    /** {@return the offset of the next non-blank character} */
    int offset() {
        skipBlanks();
        return at;
    }

    /** {@return an error at {@code offset}: the source, line and column, and {@code message}} */
    IllegalArgumentException error(int offset, String message) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new IllegalArgumentException(source + ": line " + line + ", column " + (offset - lineStart + 1)
                + ": " + message);
    }

    /** Skips blanks and reads {@code c}, or throws saying it was expected. */
    void expect(char c) {
        if (!consume(c)) {
            throw expected("'" + c + "'");
        }
    }

    /** {@return true, having read it, if the next non-blank character is {@code c}} */
    boolean consume(char c) {
        skipBlanks();
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    /** Throws unless only blanks are left. */
    void end() {
        skipBlanks();
        if (at < text.length()) {
            throw expected("the end of the text");
        }
    }

    /** Reads any value. */
    Object value() {
        skipBlanks();
        if (at >= text.length()) {
            throw expected("a value");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", NULL);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw expected("a value");
            }
        };
    }

    /** Reads a string. */
    String string() {
        skipBlanks();
        if (at >= text.length() || text.charAt(at) != '"') {
            throw expected("a string");
        }
        at++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw expected("the closing '\"' of the string");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                at--;
                throw expected("no raw control character in a string (escape it)");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = at < text.length() ? text.charAt(at++) : '\0';
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> out.append(hexChar());
                default -> {
                    at--;
                    throw expected("an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX");
                }
            }
        }
    }

    private char hexChar() {
        if (at + 4 > text.length()) {
            throw expected("four hex digits");
        }
        int code = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(at), 16);
            if (digit < 0) {
                throw expected("a hex digit");
            }
            code = code * 16 + digit;
            at++;
        }
        return (char) code;
    }

    private Map<String, Object> object() {
        at++;
        Map<String, Object> members = new LinkedHashMap<>();
        if (consume('}')) {
            return members;
        }
        do {
            int nameAt = offset();
            String name = string();
            expect(':');
            if (members.put(name, value()) != null) {
                throw error(nameAt, "the name '" + name + "' twice in one object");
            }
        } while (consume(','));
        expect('}');
        return members;
    }

    private List<Object> array() {
        at++;
        List<Object> items = new ArrayList<>();
        if (consume(']')) {
            return items;
        }
        do {
            items.add(value());
        } while (consume(','));
        expect(']');
        return items;
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw expected("a value");
        }
        at += word.length();
        return value;
    }

    private Object number() {
        int start = at;
        if (text.charAt(at) == '-') {
            at++;
        }
        if (at < text.length() && text.charAt(at) == '0') {
            at++;
        } else if (!digits()) {
            throw expected("a digit");
        }
        boolean integral = true;
        if (at < text.length() && text.charAt(at) == '.') {
            at++;
            integral = false;
            if (!digits()) {
                throw expected("a digit after the decimal point");
            }
        }
        if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            at++;
            integral = false;
            if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
                at++;
            }
            if (!digits()) {
                throw expected("a digit in the exponent");
            }
        }
        String literal = text.substring(start, at);
        if (integral && at - start <= 18) {
            return Long.parseLong(literal);
        }
        return new BigDecimal(literal);
    }

    private boolean digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        return at > start;
    }

    private void skipBlanks() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    private IllegalArgumentException expected(String what) {
        String found = at < text.length() ? "'" + text.charAt(at) + "'" : "the end of the text";
        return error(at, "expected " + what + ", found " + found);
    }
}
