package dev.polygpu.runtime.trace;

import com.google.gson.JsonSyntaxException;
import com.google.gson.Strictness;
import com.google.gson.ToNumberPolicy;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as the tests read what the writers wrote, through Gson's reader in strict mode (RFC 8259: no raw control
 * characters in strings, no bad escapes, no trailing commas or text): objects become {@link LinkedHashMap}s,
 * arrays {@link List}s, numbers {@link Long} when integral else {@link Double}. Gson keeps the last of duplicate
 * names; a trace with two is a writer's bug, so this rejects them.
 */
final class StrictJson {
    private StrictJson() {
    }

    /** The value {@code text} holds; {@link JsonSyntaxException} saying where it is not strict JSON. */
    static Object parse(String text) {
        try (JsonReader reader = new JsonReader(new StringReader(text))) {
            reader.setStrictness(Strictness.STRICT);
            Object value = value(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new JsonSyntaxException("trailing text at " + reader.getPath());
            }
            return value;
        } catch (IOException e) {
            throw new JsonSyntaxException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object value) {
        return (List<Object>) value;
    }

    private static Object value(JsonReader reader) throws IOException {
        return switch (reader.peek()) {
            case BEGIN_OBJECT -> members(reader);
            case BEGIN_ARRAY -> {
                List<Object> elements = new ArrayList<>();
                reader.beginArray();
                while (reader.hasNext()) {
                    elements.add(value(reader));
                }
                reader.endArray();
                yield elements;
            }
            case STRING -> reader.nextString();
            case NUMBER -> ToNumberPolicy.LONG_OR_DOUBLE.readNumber(reader);
            case BOOLEAN -> reader.nextBoolean();
            case NULL -> {
                reader.nextNull();
                yield null;
            }
            default -> throw new JsonSyntaxException("a value expected at " + reader.getPath());
        };
    }

    private static Map<String, Object> members(JsonReader reader) throws IOException {
        Map<String, Object> members = new LinkedHashMap<>();
        reader.beginObject();
        while (reader.hasNext()) {
            String name = reader.nextName();
            if (members.containsKey(name)) {
                throw new JsonSyntaxException("duplicate name '" + name + "' at " + reader.getPath());
            }
            members.put(name, value(reader));
        }
        reader.endObject();
        return members;
    }
}
