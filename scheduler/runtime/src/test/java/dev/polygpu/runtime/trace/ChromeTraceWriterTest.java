package dev.polygpu.runtime.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChromeTraceWriterTest {
    private final ScheduleRecorder recorder = new ScheduleRecorder();
    private final SyntheticSchedule schedule = new SyntheticSchedule(recorder);

    /** host write → square (stream 1) → {left (stream 1), copy (stream 2)} → join (gpu1) → host read. */
    private void diamond() {
        long x = schedule.array("x");
        long y = schedule.array("y");
        long z = schedule.array("z");
        long w = schedule.array("w");
        schedule.element(ElementKind.HOST_WRITE, "").writes(x).takes(5).submit();
        schedule.kernel("square").readsWrites(x).on(1).takes(100).submit();
        schedule.kernel("left").reads(x).writes(y).on(1).takes(40).submit();
        schedule.element(ElementKind.COPY, "").reads(x).writes(z).on(2).takes(30).submit();
        schedule.kernel("join").reads(y, z).writes(w).on("gpu1", 3).takes(20).fails("fault in \"join\"\n").submit();
        schedule.element(ElementKind.HOST_READ, "result").reads(w).takes(5).submit();
    }

    private List<Map<String, Object>> events() {
        String trace = new ChromeTraceWriter().export(recorder.snapshot());
        Map<String, Object> root = StrictJson.object(StrictJson.parse(trace));
        assertEquals(Set.of("traceEvents"), root.keySet());
        return StrictJson.array(root.get("traceEvents")).stream().map(StrictJson::object).toList();
    }

    private static List<Map<String, Object>> phase(List<Map<String, Object>> events, String ph) {
        return events.stream().filter(e -> ph.equals(e.get("ph"))).toList();
    }

    private static Map<String, Object> slice(List<Map<String, Object>> events, long id) {
        return phase(events, "X").stream().filter(e -> StrictJson.object(e.get("args")).get("id").equals(id))
                .findFirst().orElseThrow();
    }

    private static double number(Object value) {
        return ((Number) value).doubleValue();
    }

    @Test
    void aStolenElementRunsInItsMembersProcessWithStealFlowsOutAndHome() {
        long x = schedule.array("x");
        long y = schedule.array("y");
        schedule.kernel("make").writes(x).on(1).takes(10).submit();
        long moved = schedule.kernel("tile").reads(x).writes(y).stolenBy("m2").takes(100).submit();
        schedule.kernel("use").reads(y).on(1).takes(10).submit();
        List<Map<String, Object>> events = events();
        Map<Object, Object> processNames = phase(events, "M").stream()
                .filter(e -> e.get("name").equals("process_name"))
                .collect(Collectors.toMap(e -> e.get("pid"), e -> StrictJson.object(e.get("args")).get("name")));
        List<Map<String, Object>> tiles = phase(events, "X").stream()
                .filter(e -> StrictJson.object(e.get("args")).get("id").equals(moved)).toList();
        assertEquals(2, tiles.size(), "one slice at the owner (time away), one where it ran");
        Map<String, Object> away = tiles.get(0);
        Map<String, Object> there = tiles.get(1);
        assertEquals("cpu0", processNames.get(away.get("pid")));
        assertEquals("member m2", processNames.get(there.get("pid")));
        assertEquals(100.0, number(away.get("dur")), 1e-9);
        assertEquals(50.0, number(there.get("dur")), 1e-9, "it ran in the middle half");
        assertEquals(number(away.get("ts")) + 25, number(there.get("ts")), 1e-9);
        List<Map<String, Object>> steals = events.stream().filter(e -> "steal".equals(e.get("cat"))).toList();
        assertEquals(List.of("s", "f", "s", "f"), steals.stream().map(e -> e.get("ph")).toList());
        assertEquals(List.of(away.get("pid"), there.get("pid"), there.get("pid"), away.get("pid")),
                steals.stream().map(e -> e.get("pid")).toList());
        // Dependencies attach to the owner's slice: make → tile and tile → use.
        List<Map<String, Object>> deps = events.stream().filter(e -> "dependency".equals(e.get("cat"))).toList();
        assertEquals(4, deps.size());
        assertTrue(deps.stream().filter(e -> e.get("pid").equals(away.get("pid")))
                .allMatch(e -> e.get("tid").equals(away.get("tid")) || !e.get("tid").equals(there.get("tid"))));
        assertFalse(deps.stream().anyMatch(e -> e.get("pid").equals(there.get("pid"))));
    }

    @Test
    void devicesAreProcessesAndStreamsThreads() {
        diamond();
        List<Map<String, Object>> events = events();
        List<Map<String, Object>> metadata = phase(events, "M");
        Map<Object, Object> processNames = metadata.stream().filter(e -> e.get("name").equals("process_name"))
                .collect(Collectors.toMap(e -> e.get("pid"), e -> StrictJson.object(e.get("args")).get("name")));
        assertEquals(Map.of(1L, "host", 2L, "cpu0", 3L, "gpu1"), processNames);
        Map<String, List<Object>> threads = new HashMap<>();
        for (Map<String, Object> e : metadata) {
            if (e.get("name").equals("thread_name")) {
                threads.put(StrictJson.object(e.get("args")).get("name") + "@" + processNames.get(e.get("pid")),
                        List.of(e.get("pid"), e.get("tid")));
            }
        }
        assertEquals(Map.of("host@host", List.of(1L, 1L), "stream 1@cpu0", List.of(2L, 2L),
                "stream 2@cpu0", List.of(2L, 3L), "stream 3@gpu1", List.of(3L, 4L)), threads);
        assertEquals((3 + 4) * 2, metadata.size(), "a name and a sort index per process and thread");

        assertEquals(List.of(1L, 1L), List.of(slice(events, 1).get("pid"), slice(events, 1).get("tid")));
        assertEquals(List.of(2L, 2L), List.of(slice(events, 3).get("pid"), slice(events, 3).get("tid")));
        assertEquals(List.of(2L, 3L), List.of(slice(events, 4).get("pid"), slice(events, 4).get("tid")));
        assertEquals(List.of(3L, 4L), List.of(slice(events, 5).get("pid"), slice(events, 5).get("tid")));
        assertEquals(List.of(1L, 1L), List.of(slice(events, 6).get("pid"), slice(events, 6).get("tid")));
    }

    @Test
    void elementsAreCompleteEventsInMicrosecondsFromTheFirstStart() {
        diamond();
        List<Map<String, Object>> events = events();
        List<Map<String, Object>> slices = phase(events, "X");
        assertEquals(6, slices.size());
        assertEquals(0.0, slices.stream().mapToDouble(e -> number(e.get("ts"))).min().orElseThrow());
        // host write 0–5, square 5–105, left 105–145, copy 105–135, join 145–165, read 165–170
        assertEquals(List.of(0L, 5L, 105L, 105L, 145L, 165L), slices.stream().map(e -> e.get("ts")).toList());
        assertEquals(List.of(5L, 100L, 40L, 30L, 20L, 5L), slices.stream().map(e -> e.get("dur")).toList());
        assertEquals(List.of("host write", "square", "left", "copy", "join", "result"),
                slices.stream().map(e -> e.get("name")).toList());
        assertEquals(List.of("host write", "kernel", "kernel", "copy", "kernel", "host read"),
                slices.stream().map(e -> e.get("cat")).toList());

        Map<String, Object> args = StrictJson.object(slice(events, 3).get("args"));
        assertEquals(3L, args.get("id"));
        assertEquals("KERNEL", args.get("kind"));
        assertEquals(List.of(2L), args.get("parents"));
        assertEquals(List.of(Map.of("id", 100L, "name", "x", "mode", "READ"),
                Map.of("id", 101L, "name", "y", "mode", "WRITE")), args.get("arrays"));
        assertFalse(args.containsKey("failure"));
        assertFalse(slice(events, 3).containsKey("cname"));
    }

    @Test
    void anArrayOfKnownSizeCarriesItsBytes() {
        ElementInfo info = new ElementInfo(1, ElementKind.KERNEL, "k", List.of(
                new ArrayUse(7, "a", AccessMode.READ, 4096), new ArrayUse(8, "b", AccessMode.WRITE)));
        recorder.submitted(info, new long[0]);
        recorder.launched(1, "gpu0", 1, 10);
        recorder.completed(1, 10, 20, null);
        Map<String, Object> args = StrictJson.object(phase(events(), "X").getFirst().get("args"));
        assertEquals(List.of(Map.of("id", 7L, "name", "a", "mode", "READ", "bytes", 4096L),
                Map.of("id", 8L, "name", "b", "mode", "WRITE")), args.get("arrays"), "no bytes where unknown");
    }

    @Test
    void failuresAreInTheArgsAndColoured() {
        diamond();
        Map<String, Object> join = slice(events(), 5);
        assertEquals("fault in \"join\"\n", StrictJson.object(join.get("args")).get("failure"));
        assertEquals("terrible", join.get("cname"));
    }

    @Test
    void dependenciesAreFlowsFromTheParentsEndToTheChildsStart() {
        diamond();
        List<Map<String, Object>> events = events();
        List<Map<String, Object>> starts = phase(events, "s");
        List<Map<String, Object>> finishes = phase(events, "f");
        assertEquals(recorder.snapshot().dependencies().size(), starts.size());
        assertEquals(starts.size(), finishes.size());
        Set<Object> ids = new HashSet<>();
        for (int i = 0; i < starts.size(); i++) {
            Map<String, Object> s = starts.get(i);
            Map<String, Object> f = finishes.get(i);
            assertEquals(s.get("id"), f.get("id"));
            assertTrue(ids.add(s.get("id")), "flow ids are unique");
            assertEquals(List.of("dependency", "dependency"), List.of(s.get("cat"), s.get("name")));
            assertEquals(List.of(s.get("cat"), s.get("name")), List.of(f.get("cat"), f.get("name")));
            assertEquals("e", f.get("bp"));
            assertFalse(s.containsKey("bp"));
            Dependency edge = recorder.snapshot().dependencies().get(i);
            assertInside(s, slice(events, edge.parentId()));
            assertInside(f, slice(events, edge.childId()));
            assertTrue(number(s.get("ts")) <= number(f.get("ts")));
        }
        Map<String, Object> fromSquareToCopy = starts.get(2);
        assertEquals(104.999, number(fromSquareToCopy.get("ts")), "a nanosecond before the parent's end");
        assertEquals(105.001, number(finishes.get(2).get("ts")), "a nanosecond after the child's start");
    }

    private static void assertInside(Map<String, Object> flow, Map<String, Object> slice) {
        assertEquals(List.of(slice.get("pid"), slice.get("tid")), List.of(flow.get("pid"), flow.get("tid")));
        double ts = number(flow.get("ts"));
        double start = number(slice.get("ts"));
        assertTrue(start <= ts && ts <= start + number(slice.get("dur")), flow + " inside " + slice);
    }

    @Test
    void incompleteElementsAndTheirFlowsAreLeftOut() {
        long x = schedule.array("x");
        long done = schedule.kernel("done").writes(x).submit();
        recorder.submitted(new ElementInfo(50, ElementKind.KERNEL, "running", List.of()), new long[] {done});
        recorder.launched(50, "cpu0", 1, SyntheticSchedule.ORIGIN_NANOS);
        List<Map<String, Object>> events = events();

        assertEquals(1, phase(events, "X").size());
        assertTrue(phase(events, "s").isEmpty());
        assertTrue(phase(events, "f").isEmpty());
    }

    @Test
    void zeroLengthSlicesKeepTheirFlowsInside() {
        long x = schedule.array("x");
        schedule.kernel("empty").writes(x).takes(0).submit();
        schedule.kernel("next").readsWrites(x).takes(0).submit();
        List<Map<String, Object>> events = events();

        assertEquals(List.of(0L, 0L), phase(events, "X").stream().map(e -> e.get("ts")).toList());
        assertEquals(0L, phase(events, "s").getFirst().get("ts"));
        assertEquals(0L, phase(events, "f").getFirst().get("ts"));
    }

    @Test
    void anEmptyScheduleIsAnEmptyTrace() {
        assertEquals(List.of(), events());
        assertEquals("{\"traceEvents\":[\n]}\n", new ChromeTraceWriter().export(recorder.snapshot()));
    }

    @Test
    void namesAreEscaped() {
        recorder.submitted(new ElementInfo(1, ElementKind.KERNEL, "k<\"T\\\">\u0001", List.of()), new long[0]);
        recorder.launched(1, "dev \"0\"", 1, 10);
        recorder.completed(1, 10, 20, "line1\nline2\ttab");
        List<Map<String, Object>> events = events();

        assertEquals("k<\"T\\\">\u0001", phase(events, "X").getFirst().get("name"));
        assertTrue(phase(events, "M").stream()
                .anyMatch(e -> "dev \"0\"".equals(StrictJson.object(e.get("args")).get("name"))));
        assertEquals("line1\nline2\ttab", StrictJson.object(phase(events, "X").getFirst().get("args")).get("failure"));
    }

    @Test
    void writesAFileWithOneEventPerLine(@TempDir Path dir) throws IOException {
        diamond();
        Path file = dir.resolve("trace.json");
        new ChromeTraceWriter().write(recorder.snapshot(), file);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertEquals(new ChromeTraceWriter().export(recorder.snapshot()), text);
        int events = events().size();
        assertEquals(events + 2, text.split("\n").length, "the opening line, the events, the closing line");
        assertNotEquals(-1, text.indexOf("\"ph\":\"X\""));
    }
}
