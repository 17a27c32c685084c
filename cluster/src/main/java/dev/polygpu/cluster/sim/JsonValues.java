package dev.polygpu.cluster.sim;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for {@link TraceReplay}, read by Gson's streaming {@link JsonReader} in strict mode (RFC 8259: no comments,
 * no trailing commas, no unquoted names, no raw control characters in strings, one value per text). The reader
 * hands out plain values: {@link LinkedHashMap} (objects, names in order), {@link List} (arrays), {@link String},
 * {@link Long} (integers of up to 18 digits), {@link BigDecimal} (other numbers, exactly as written: durations
 * are microseconds with decimals), {@link Boolean} and {@link #NULL}. An object that names a member twice is
 * refused, where Gson's own tree would keep the last silently.
 *
 * <p>Errors are {@link IllegalArgumentException}s that name the source and what Gson says was wrong, with its
 * line, column and JSON path. Stateless.
 */
final class JsonValues {
    /** The JSON {@code null}, as a value a map may hold. */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /** What Gson's strict reader says of malformed text, which speaks to a programmer choosing a mode. */
    private static final String GSON_LENIENT_HINT = "Use JsonReader.setStrictness(Strictness.LENIENT) to accept "
            + "malformed JSON";

    private JsonValues() {
    }

    /** A strict reader of {@code text}. */
    static JsonReader reader(String text) {
        JsonReader json = new JsonReader(new StringReader(text));
        json.setStrictness(Strictness.STRICT);
        return json;
    }

    /**
     * Reads the next value.
     *
     * @throws IOException if the text is not JSON there ({@link #malformed} makes the user's error of it)
     * @throws IllegalArgumentException if an object names a member twice
     */
    static Object value(JsonReader json, String source) throws IOException {
        return switch (json.peek()) {
            case BEGIN_OBJECT -> {
                Map<String, Object> members = new LinkedHashMap<>();
                json.beginObject();
                while (json.hasNext()) {
                    String name = json.nextName();
                    String at = json.getPath();
                    if (members.put(name, value(json, source)) != null) {
                        throw new IllegalArgumentException(source + ": at " + at + ": the name '" + name
                                + "' twice in one object");
                    }
                }
                json.endObject();
                yield members;
            }
            case BEGIN_ARRAY -> {
                List<Object> items = new ArrayList<>();
                json.beginArray();
                while (json.hasNext()) {
                    items.add(value(json, source));
                }
                json.endArray();
                yield items;
            }
            case STRING -> json.nextString();
            case NUMBER -> number(json.nextString());
            case BOOLEAN -> json.nextBoolean();
            case NULL -> {
                json.nextNull();
                yield NULL;
            }
            case END_DOCUMENT, END_ARRAY, END_OBJECT, NAME -> throw new IllegalStateException("expected a value but "
                    + "was " + json.peek() + " " + json.getPath());
        };
    }

    /** A number as written: a {@link Long} if it is an integer of up to 18 digits, else exactly. */
    private static Object number(String literal) {
        boolean integral = literal.indexOf('.') < 0 && literal.indexOf('e') < 0 && literal.indexOf('E') < 0;
        return integral && literal.length() <= 18 ? (Object) Long.parseLong(literal) : new BigDecimal(literal);
    }

    /**
     * The user's error for what Gson refused (malformed text, a value of the wrong kind where the trace's
     * structure needs another, the text ending early), with the place Gson names.
     */
    static IllegalArgumentException malformed(String source, Exception e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int tail = message.indexOf("\nSee ");
        if (tail >= 0) {
            message = message.substring(0, tail);
        }
        return new IllegalArgumentException(source + ": not a JSON trace: "
                + message.replace(GSON_LENIENT_HINT, "malformed JSON"), e);
    }
}
