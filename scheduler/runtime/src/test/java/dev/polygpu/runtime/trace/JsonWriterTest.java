package dev.polygpu.runtime.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonWriterTest {
    private static final long SEED = 8_675_309L;

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        assertEquals("\"a\\\"b\\\\c\"", JsonWriter.quote("a\"b\\c"));
        assertEquals("\"\\n\\r\\t\\b\\f\\u0000\\u001f\"", JsonWriter.quote("\n\r\t\b\f\u0000\u001f"));
        assertEquals("\"\\u2028\\u2029\"", JsonWriter.quote("\u2028\u2029"));
        assertEquals("\"é 漢 \uD83D\uDE00 /\"", JsonWriter.quote("é 漢 \uD83D\uDE00 /"), "kept as they are");
        assertEquals("\"\\ud83d x \\ude00\"", JsonWriter.quote("\uD83D x \uDE00"), "unpaired surrogates");
    }

    @Test
    void randomStringsSurviveARoundTrip() {
        Random random = new Random(SEED);
        for (int round = 0; round < 2_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(20);
            for (int i = 0; i < length; i++) {
                text.append(switch (random.nextInt(4)) {
                    case 0 -> (char) random.nextInt(0x80);
                    case 1 -> "\"\\\n\u2028".charAt(random.nextInt(4));
                    case 2 -> (char) random.nextInt(0x10000);
                    default -> (char) (0x20 + random.nextInt(0x5f));
                });
            }
            String quoted = JsonWriter.quote(text.toString());
            assertEquals(text.toString(), StrictJson.parse(quoted), "round " + round + " (seed " + SEED + ")");
        }
    }

    @Test
    void microsecondsAreExactWithoutTrailingZeros() {
        assertEquals("0", JsonWriter.microsText(0));
        assertEquals("0.001", JsonWriter.microsText(1));
        assertEquals("0.12", JsonWriter.microsText(120));
        assertEquals("1", JsonWriter.microsText(1_000));
        assertEquals("1.5", JsonWriter.microsText(1_500));
        assertEquals("12345.678", JsonWriter.microsText(12_345_678));
        assertEquals("-0.5", JsonWriter.microsText(-500));
        assertEquals("-2.25", JsonWriter.microsText(-2_250));
        assertEquals("9223372036854775.807", JsonWriter.microsText(Long.MAX_VALUE));
    }

    @Test
    void placesCommasAndNestsContainers() throws IOException {
        StringBuilder out = new StringBuilder();
        JsonWriter json = new JsonWriter(out);
        json.beginObject().name("a").value(1).name("b").beginArray().value("x").beginObject().endObject()
                .beginArray().endArray().value(-7).endArray().name("c").value((String) null)
                .name("t").micros(2_500).endObject();
        assertTrue(json.complete());
        assertEquals("{\"a\":1,\"b\":[\"x\",{},[],-7],\"c\":null,\"t\":2.5}", out.toString());
        Map<String, Object> parsed = StrictJson.object(StrictJson.parse(out.toString()));
        assertEquals(List.of("a", "b", "c", "t"), List.copyOf(parsed.keySet()));
    }

    @Test
    void lineBreaksFollowTheCommas() throws IOException {
        StringBuilder out = new StringBuilder();
        new JsonWriter(out).beginArray().lineBreak().value(1).lineBreak().value(2).lineBreak().endArray().lineBreak();
        assertEquals("[\n1,\n2\n]\n", out.toString());
    }

    @Test
    void misuseIsRejected() throws IOException {
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginObject().value(1));
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginArray().name("a"));
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginArray().endObject());
        assertThrows(IllegalStateException.class,
                () -> new JsonWriter(new StringBuilder()).beginObject().name("a").endObject());
        assertThrows(IllegalStateException.class,
                () -> new JsonWriter(new StringBuilder()).beginObject().name("a").name("b"));
    }
}
