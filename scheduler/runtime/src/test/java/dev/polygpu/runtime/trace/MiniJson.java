package dev.polygpu.runtime.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON reader for tests: objects become {@link LinkedHashMap}s, arrays {@link List}s, numbers
 * {@link Long} when integral else {@link Double}, strings with every escape decoded. It rejects what RFC 8259
 * rejects that the writers could get wrong: raw control characters in strings, bad escapes, trailing commas,
 * duplicate names, trailing text.
 */
final class MiniJson {
    private final String text;
    private int at;

    private MiniJson(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        MiniJson reader = new MiniJson(text);
        Object value = reader.value();
        reader.skipSpace();
        if (reader.at != text.length()) {
            throw reader.error("trailing text");
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object value) {
        return (List<Object>) value;
    }

    private Object value() {
        skipSpace();
        if (at >= text.length()) {
            throw error("value expected");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> objectValue();
            case '[' -> arrayValue();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> objectValue() {
        Map<String, Object> members = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek() == '}') {
            at++;
            return members;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("name expected");
            }
            String name = string();
            skipSpace();
            expect(':');
            if (members.containsKey(name)) {
                throw error("duplicate name " + name);
            }
            members.put(name, value());
            skipSpace();
            if (peek() == ',') {
                at++;
            } else {
                expect('}');
                return members;
            }
        }
    }

    private List<Object> arrayValue() {
        List<Object> items = new ArrayList<>();
        at++;
        skipSpace();
        if (peek() == ']') {
            at++;
            return items;
        }
        while (true) {
            items.add(value());
            skipSpace();
            if (peek() == ',') {
                at++;
            } else {
                expect(']');
                return items;
            }
        }
    }

    private String string() {
        StringBuilder result = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return result.toString();
            }
            if (c < 0x20) {
                throw error("raw control character in a string");
            }
            if (c != '\\') {
                result.append(c);
                continue;
            }
            char escape = text.charAt(at++);
            switch (escape) {
                case '"', '\\', '/' -> result.append(escape);
                case 'b' -> result.append('\b');
                case 'f' -> result.append('\f');
                case 'n' -> result.append('\n');
                case 'r' -> result.append('\r');
                case 't' -> result.append('\t');
                case 'u' -> {
                    result.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> throw error("bad escape \\" + escape);
            }
        }
    }

    private Object number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        while (at < text.length() && "0123456789.eE+-".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String number = text.substring(start, at);
        if (!number.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            throw error("bad number " + number);
        }
        return number.matches("-?[0-9]+") ? (Object) Long.parseLong(number) : (Object) Double.parseDouble(number);
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("bad literal");
        }
        at += word.length();
        return value;
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("'" + c + "' expected");
        }
        at++;
    }

    private void skipSpace() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private IllegalArgumentException error(String message) {
        return new IllegalArgumentException(message + " at " + at + ": "
                + text.substring(Math.max(0, at - 20), Math.min(text.length(), at + 20)));
    }
}
