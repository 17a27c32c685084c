package dev.polygpu.runtime.trace;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * A minimal streaming JSON writer for the trace exports (the scheduler module takes no JSON library): objects,
 * arrays, strings, integers and fixed-point numbers, with commas placed for the caller. Strings are escaped
 * per RFC 8259: quote, backslash and control characters, plus U+2028/U+2029 (which break JavaScript loaders)
 * and unpaired surrogates (which cannot be encoded in UTF-8), as {@code \}{@code uXXXX}. Misuse (a value where a
 * name is due, unbalanced ends) throws {@link IllegalStateException}. Not thread-safe.
 */
final class JsonWriter {
    private final Appendable out;
    /** One entry per open container: true while it has no member yet. */
    private final Deque<Boolean> empty = new ArrayDeque<>();
    private final Deque<Boolean> inObject = new ArrayDeque<>();
    private boolean nameWritten;
    private boolean breakDue;

    JsonWriter(Appendable out) {
        this.out = out;
    }

    JsonWriter beginObject() throws IOException {
        beforeValue();
        out.append('{');
        empty.push(true);
        inObject.push(true);
        return this;
    }

    JsonWriter endObject() throws IOException {
        return end(true, '}');
    }

    JsonWriter beginArray() throws IOException {
        beforeValue();
        out.append('[');
        empty.push(true);
        inObject.push(false);
        return this;
    }

    JsonWriter endArray() throws IOException {
        return end(false, ']');
    }

    JsonWriter name(String name) throws IOException {
        if (inObject.isEmpty() || !inObject.peek() || nameWritten) {
            throw new IllegalStateException("a name belongs directly in an object, once per member");
        }
        separate();
        appendString(name);
        out.append(':');
        nameWritten = true;
        return this;
    }

    JsonWriter value(String value) throws IOException {
        beforeValue();
        if (value == null) {
            out.append("null");
        } else {
            appendString(value);
        }
        return this;
    }

    JsonWriter value(long value) throws IOException {
        beforeValue();
        out.append(Long.toString(value));
        return this;
    }

    /** {@code nanos} as microseconds with up to three decimals and no trailing zeros: 1500 → {@code 1.5}. */
    JsonWriter micros(long nanos) throws IOException {
        beforeValue();
        out.append(microsText(nanos));
        return this;
    }

    /**
     * A line break for people reading the file, written before the next member or closing bracket (after the
     * comma that separates members), or at once outside any container.
     */
    JsonWriter lineBreak() throws IOException {
        if (inObject.isEmpty()) {
            out.append('\n');
        } else {
            breakDue = true;
        }
        return this;
    }

    /** True once every container opened has been closed. */
    boolean complete() {
        return empty.isEmpty();
    }

    private JsonWriter end(boolean object, char bracket) throws IOException {
        if (inObject.isEmpty() || inObject.peek() != object || nameWritten) {
            throw new IllegalStateException("no open " + (object ? "object" : "array") + " to end here");
        }
        inObject.pop();
        empty.pop();
        writeDueBreak();
        out.append(bracket);
        return this;
    }

    private void beforeValue() throws IOException {
        if (inObject.isEmpty()) {
            return;
        }
        if (inObject.peek()) {
            if (!nameWritten) {
                throw new IllegalStateException("an object member needs a name first");
            }
            nameWritten = false;
        } else {
            separate();
        }
    }

    private void separate() throws IOException {
        if (!empty.peek()) {
            out.append(',');
        }
        writeDueBreak();
        empty.pop();
        empty.push(false);
    }

    private void writeDueBreak() throws IOException {
        if (breakDue) {
            out.append('\n');
            breakDue = false;
        }
    }

    /** {@code nanos} in microseconds, exactly: at most three decimals, no trailing zeros. */
    static String microsText(long nanos) {
        long whole = nanos / 1000;
        int fraction = (int) Math.abs(nanos % 1000);
        String sign = nanos < 0 && whole == 0 ? "-" : "";
        if (fraction == 0) {
            return Long.toString(whole);
        }
        String decimals = String.format(Locale.ROOT, "%03d", fraction).replaceFirst("0+$", "");
        return sign + whole + "." + decimals;
    }

    private void appendString(String text) throws IOException {
        out.append(quote(text));
    }

    /** {@code text} as a JSON string literal, quotes included. */
    static String quote(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                case '\b' -> quoted.append("\\b");
                case '\f' -> quoted.append("\\f");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029' || isUnpairedSurrogate(text, i)) {
                        quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    private static boolean isUnpairedSurrogate(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
        }
        return false;
    }
}
