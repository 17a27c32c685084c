package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.trace.ChromeTraceWriter;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReplayTest {
    private static final long X = 10;
    private static final long Y = 11;
    private static final long Z = 12;
    private static final long W = 13;

    @TempDir
    Path dir;

    private final ScheduleRecorder recorder = new ScheduleRecorder();

    private void element(long id, ElementKind kind, String label, List<ArrayUse> arrays, long... parents) {
        recorder.submitted(new ElementInfo(id, kind, label, arrays), parents);
    }

    private void ran(long id, long start, long end) {
        recorder.launched(id, "gpu0", 1, start);
        recorder.completed(id, start, end, null);
    }

    /**
     * A host write of x → square(x) → {copy x to z, left(x → y) stolen by m2} → join(y, z → w) → host read of
     * w, and a kernel that never completed. Times in nanoseconds.
     */
    private Path recordedTrace() throws IOException {
        element(1, ElementKind.HOST_WRITE, "", List.of(new ArrayUse(X, "x", AccessMode.WRITE, 400)));
        recorder.completed(1, 0, 500, null);
        element(2, ElementKind.KERNEL, "square", List.of(new ArrayUse(X, "x", AccessMode.READ_WRITE, 400)), 1);
        ran(2, 1_000, 3_500);
        element(3, ElementKind.COPY, "", List.of(new ArrayUse(X, "x", AccessMode.READ, 400),
                new ArrayUse(Z, "z", AccessMode.WRITE, 800)), 2);
        ran(3, 3_500, 4_000);
        element(4, ElementKind.KERNEL, "left", List.of(new ArrayUse(X, "x", AccessMode.READ, 400),
                new ArrayUse(Y, "y", AccessMode.WRITE, 1_200)), 2);
        recorder.ranRemotely(4, "gpu0", "m2", 4_000, 5_000, 7_250);
        recorder.completed(4, 4_000, 10_000, null);
        element(5, ElementKind.KERNEL, "join", List.of(new ArrayUse(Y, "y", AccessMode.READ, 1_200),
                new ArrayUse(Z, "z", AccessMode.READ, 800), new ArrayUse(W, "w", AccessMode.WRITE, 16)), 4, 3);
        ran(5, 10_000, 10_333);
        element(6, ElementKind.HOST_READ, "result", List.of(new ArrayUse(W, "w", AccessMode.READ, 16)), 5);
        recorder.completed(6, 10_400, 10_500, null);
        element(7, ElementKind.KERNEL, "lost", List.of(new ArrayUse(W, "w", AccessMode.READ, 16)), 6);
        Path file = dir.resolve("trace.json");
        new ChromeTraceWriter().write(recorder.snapshot(), file);
        return file;
    }

    private static int[] parents(Workload w, int t) {
        return IntStream.range(0, t)
                .filter(p -> IntStream.range(0, w.childCount(p)).anyMatch(c -> w.child(p, c) == t)).toArray();
    }

    private static int[] inputs(Workload w, int t) {
        int[] in = new int[w.inputCount(t)];
        Arrays.setAll(in, i -> w.input(t, i));
        return in;
    }

    @Test
    void aRecordedScheduleReplaysItsKernels() throws IOException {
        Workload w = TraceReplay.read(recordedTrace());
        assertEquals(3, w.tasks(), "square, left, join: host elements and the copy contracted, lost not run");
        assertEquals(List.of("square", "left", "join"),
                List.of(0, 1, 2).stream().map(t -> w.kernelName(w.kernel(t))).toList());
        assertEquals(2_500, w.durationNanos(0));
        assertEquals(2_250, w.durationNanos(1), "the member's slice, not the time away");
        assertEquals(333, w.durationNanos(2), "microseconds to the nanosecond");
        // Arrays by first use among kernels: x 0, y 1, z 2, w 3.
        assertEquals(4, w.arrays());
        assertArrayEquals(new long[] {400, 1_200, 800, 16}, new long[] {w.arrayBytes(0), w.arrayBytes(1),
                w.arrayBytes(2), w.arrayBytes(3)});
        assertArrayEquals(new int[] {0}, inputs(w, 0), "READ_WRITE reads");
        assertArrayEquals(new int[] {0}, inputs(w, 1), "a written array is no input");
        assertArrayEquals(new int[] {1, 2}, inputs(w, 2));
        assertArrayEquals(new long[] {400, 1_200, 16}, new long[] {w.outputBytes(0), w.outputBytes(1),
                w.outputBytes(2)});
        assertArrayEquals(new int[] {}, parents(w, 0), "the host write had no parent");
        assertArrayEquals(new int[] {0}, parents(w, 1));
        assertArrayEquals(new int[] {0, 1}, parents(w, 2), "left, and square through the copy");
        assertEquals(1, w.owners());
        assertEquals(2_500 + 2_250 + 333, w.totalWorkNanos());
        assertEquals(2_500 + 2_250 + 333, w.criticalPathNanos());
    }

    @Test
    void copiesAreIndependentAndDealtToOwners() throws IOException {
        Workload w = TraceReplay.read(recordedTrace(), 3, 2);
        assertEquals(9, w.tasks());
        assertEquals(12, w.arrays());
        assertEquals(List.of(0, 0, 0, 1, 1, 1, 0, 0, 0),
                IntStream.range(0, 9).map(w::owner).boxed().toList());
        assertArrayEquals(new int[] {3, 4}, parents(w, 5));
        assertArrayEquals(new int[] {9, 10}, inputs(w, 8), "copy 2's own y and z");
        assertEquals(3 * (2_500 + 2_250 + 333), w.totalWorkNanos());
        assertEquals(2_500 + 2_250 + 333, w.criticalPathNanos());
        assertThrows(IllegalArgumentException.class, () -> TraceReplay.read(recordedTrace(), 0, 1));
    }

    private static String trace(String... events) {
        return "{\"traceEvents\":[\n" + String.join(",\n", events) + "\n]}\n";
    }

    private static String kernel(long id, long tsMicros, long durMicros) {
        return "{\"name\":\"k\",\"ph\":\"X\",\"ts\":" + tsMicros + ",\"dur\":" + durMicros
                + ",\"pid\":1,\"tid\":1,\"args\":{\"id\":" + id + ",\"kind\":\"KERNEL\",\"parents\":[],"
                + "\"arrays\":[]}}";
    }

    @Test
    void deviceSlotsTakeTheWaitForTheDeviceOutOfEachSlice() {
        // Launched at 0, 0 and 5 µs; ended at 10, 25 and 45 µs.
        String text = trace(kernel(1, 0, 10), kernel(2, 0, 25), kernel(3, 5, 40));
        Workload asRecorded = TraceReplay.replay(text, "t", 1, 1, 0);
        assertEquals(List.of(10_000L, 25_000L, 40_000L), durations(asRecorded));
        // One at a time: the second starts when the first ends (10), the third when the second ends (25).
        Workload oneSlot = TraceReplay.replay(text, "t", 1, 1, 1);
        assertEquals(List.of(10_000L, 15_000L, 20_000L), durations(oneSlot));
        // Two at a time: the first two start at once; the third when the first of them ends (10).
        Workload twoSlots = TraceReplay.replay(text, "t", 1, 1, 2);
        assertEquals(List.of(10_000L, 25_000L, 35_000L), durations(twoSlots));
    }

    private static List<Long> durations(Workload w) {
        List<Long> out = new java.util.ArrayList<>();
        for (int t = 0; t < w.tasks(); t++) {
            out.add(w.durationNanos(t));
        }
        return out;
    }

    @Test
    void anArrayWithoutBytesCountsAsZeroAndOtherEventsAreSkipped() {
        String text = trace(
                "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"gpu0\"}}",
                "{\"name\":\"k\",\"cat\":\"kernel\",\"ph\":\"X\",\"ts\":0,\"dur\":1.5,\"pid\":1,\"tid\":1,"
                        + "\"args\":{\"id\":4,\"kind\":\"KERNEL\",\"parents\":[],"
                        + "\"arrays\":[{\"id\":1,\"name\":\"a\",\"mode\":\"READ_WRITE\"}]}}",
                "{\"name\":\"dependency\",\"cat\":\"dependency\",\"ph\":\"s\",\"id\":1,\"ts\":1,\"pid\":1,\"tid\":1}");
        Workload w = TraceReplay.replay(text, "old.json", 1, 1);
        assertEquals(1, w.tasks());
        assertEquals(1_500, w.durationNanos(0));
        assertEquals(0, w.arrayBytes(0));
        assertEquals(0, w.outputBytes(0));
        assertTrue(w.name().contains("old.json"), w.name());
    }

    @Test
    void malformedTracesNameTheFileThePlaceAndWhatWasExpected() {
        String kernel = "{\"name\":\"k\",\"ph\":\"X\",\"dur\":1,\"pid\":1,"
                + "\"args\":{\"id\":1,\"kind\":\"KERNEL\",\"parents\":[],\"arrays\":[]}}";
        // Gson counts a column as the one after the character it stopped at.
        String[][] table = {
            {"[1, 2]", "Expected BEGIN_OBJECT but was BEGIN_ARRAY at line 1 column 2 path $"},
            {"{\"traceEvents\":[" + kernel + ",]}", "malformed JSON at line 1 column " + (19 + kernel.length())
                + " path $.traceEvents[1]"},
            {"{\"traceEvents\":[\n" + kernel + "\n", "End of input at line 3 column 1 path $.traceEvents[1]"},
            {"{\"other\":1}", "expected an object with a traceEvents array"},
            {trace(), "expected at least one completed KERNEL element, found none"},
            {trace(kernel.replace("\"id\":1,", "")), "in the event at $.traceEvents[0], id must be an integer"},
            {trace(kernel.replace("KERNEL", "LAUNCH")), "kind must be one of [KERNEL, COPY"},
            {trace(kernel.replace("\"dur\":1", "\"dur\":-2")), "dur must be >= 0"},
            {trace(kernel.replace("\"dur\":1", "\"dur\":\"1\"")), "dur must be a number of microseconds"},
            {trace(kernel.replace("\"arrays\":[]", "\"arrays\":[{\"id\":1,\"mode\":\"RW\"}]")),
                "mode must be one of [READ, WRITE, READ_WRITE], was 'RW'"},
            {trace(kernel.replace("\"name\":\"k\"", "\"name\":\"k\\q\"")), "Invalid escape sequence at line 2"},
            {trace(kernel.replace("\"pid\":1", "\"pid\":1,\"pid\":2")),
                "at $.traceEvents[0].pid: the name 'pid' twice in one object"},
            {trace(kernel) + "x", "malformed JSON at line 4"},
        };
        for (String[] row : table) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TraceReplay.replay(row[0], "bad.json", 1, 1), row[0]);
            assertTrue(e.getMessage().startsWith("bad.json: "), e.getMessage());
            assertTrue(e.getMessage().contains(row[1]), "wanted '" + row[1] + "' in: " + e.getMessage());
            assertFalse(e.getMessage().contains("setStrictness") || e.getMessage().contains("\n"),
                    "no advice meant for Gson's users: " + e.getMessage());
        }
    }

    @Test
    void aMissingFileIsAnIoError() {
        assertThrows(NoSuchFileException.class, () -> TraceReplay.read(dir.resolve("none.json")));
    }

    @Test
    void jsonIsReadStrictlyAsTheStandardSays() throws IOException {
        JsonReader json = JsonValues.reader(" {\"a\": [1, -2.5e1, 0.125, true, false, null, \"\\u00e9\\n\\/\"],"
                + " \"b\": {}, \"c\": [], \"d\": 12345678901234567890} ");
        Object value = JsonValues.value(json, "t");
        assertEquals(JsonToken.END_DOCUMENT, json.peek());
        assertEquals("{a=[1, -25, 0.125, true, false, null, é\n/], b={}, c=[], d=12345678901234567890}",
                value.toString(), "integers as Long, others as exact BigDecimal");
        assertEquals(Long.class, ((List<?>) ((java.util.Map<?, ?>) value).get("a")).get(0).getClass());
        for (String bad : new String[] {"01", "1.", "-", "\"a\tb\"", "tru", "{\"a\" 1}", "[1 2]", "\"\\u12g4\"",
                "{\"a\":1,}", "{'a':1}", "{\"a\":1} // c"}) {
            assertThrows(IOException.class, () -> {
                JsonReader reader = JsonValues.reader(bad);
                JsonValues.value(reader, "t");
                reader.peek();
            }, bad);
        }
        assertThrows(IllegalArgumentException.class, () -> JsonValues.value(JsonValues.reader("{\"a\":1,\"a\":2}"),
                "t"), "a name twice");
    }
}
