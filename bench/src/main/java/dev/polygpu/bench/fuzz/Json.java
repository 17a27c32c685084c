package dev.polygpu.bench.fuzz;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the fuzz command writes and reads back for replays: objects, arrays, strings, integers and
 * booleans (no floating-point numbers: values that need exact bits are stored as integers or base64).
 */
final class Json {
    private Json() {
    }

    /** {@code value} (a Map, List, String, Number, Boolean or null) as indented JSON. */
    static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(value, sb, "");
        return sb.append('\n').toString();
    }

    private static void write(Object v, StringBuilder sb, String indent) {
        switch (v) {
            case null -> sb.append("null");
            case String s -> string(s, sb);
            case Number n -> sb.append(n.longValue());
            case Boolean b -> sb.append(b);
            case Map<?, ?> m -> {
                sb.append("{");
                String inner = indent + "  ";
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    sb.append(first ? "\n" : ",\n").append(inner);
                    string(e.getKey().toString(), sb);
                    sb.append(": ");
                    write(e.getValue(), sb, inner);
                    first = false;
                }
                sb.append(first ? "}" : "\n" + indent + "}");
            }
            case List<?> l -> {
                sb.append("[");
                String inner = indent + "  ";
                for (int i = 0; i < l.size(); i++) {
                    sb.append(i == 0 ? "\n" : ",\n").append(inner);
                    write(l.get(i), sb, inner);
                }
                sb.append(l.isEmpty() ? "]" : "\n" + indent + "]");
            }
            default -> throw new IllegalArgumentException("cannot write " + v.getClass().getSimpleName() + " as JSON");
        }
    }

    private static void string(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** Parses what {@link #write} writes; IllegalArgumentException with the offset where it is not JSON. */
    static Object parse(String text) {
        Json.Reader r = new Json.Reader(text);
        Object v = r.value();
        r.space();
        if (r.pos != text.length()) {
            throw r.error("trailing text");
        }
        return v;
    }

    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("not valid JSON at offset " + pos + ": " + what);
        }

        void space() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        Object value() {
            space();
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            if (c == '{') {
                pos++;
                Map<String, Object> m = new LinkedHashMap<>();
                space();
                if (s.charAt(pos) == '}') {
                    pos++;
                    return m;
                }
                while (true) {
                    space();
                    String k = (String) value();
                    space();
                    expect(':');
                    m.put(k, value());
                    space();
                    if (s.charAt(pos) == ',') {
                        pos++;
                    } else {
                        expect('}');
                        return m;
                    }
                }
            }
            if (c == '[') {
                pos++;
                List<Object> l = new ArrayList<>();
                space();
                if (s.charAt(pos) == ']') {
                    pos++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    space();
                    if (s.charAt(pos) == ',') {
                        pos++;
                    } else {
                        expect(']');
                        return l;
                    }
                }
            }
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", pos) || s.startsWith("false", pos) || s.startsWith("null", pos)) {
                String w = s.startsWith("true", pos) ? "true" : s.startsWith("false", pos) ? "false" : "null";
                pos += w.length();
                return w.equals("null") ? null : Boolean.valueOf(w);
            }
            int start = pos;
            while (pos < s.length() && (Character.isDigit(s.charAt(pos)) || s.charAt(pos) == '-')) {
                pos++;
            }
            if (start == pos) {
                throw error("unexpected character '" + c + "'");
            }
            return Long.parseLong(s.substring(start, pos));
        }

        private void expect(char c) {
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (pos < s.length() && s.charAt(pos) != '"') {
                char c = s.charAt(pos++);
                if (c == '\\') {
                    char e = s.charAt(pos++);
                    switch (e) {
                        case 'n' -> sb.append('\n');
                        case 't' -> sb.append('\t');
                        case 'r' -> sb.append('\r');
                        case 'u' -> {
                            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                            pos += 4;
                        }
                        default -> sb.append(e);
                    }
                } else {
                    sb.append(c);
                }
            }
            expect('"');
            return sb.toString();
        }
    }
}
