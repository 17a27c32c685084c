package dev.polygpu.runtime.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DotExporterTest {
    private final ScheduleRecorder recorder = new ScheduleRecorder();
    private final SyntheticSchedule schedule = new SyntheticSchedule(recorder);

    /** A diamond with a host write before it and a host read after it. */
    private void diamond() {
        long x = schedule.array("x");
        long y = schedule.array("y");
        long z = schedule.array("z");
        long w = schedule.array("w");
        schedule.element(ElementKind.HOST_WRITE, "").writes(x).submit();
        schedule.kernel("square").readsWrites(x).on(1).submit();
        schedule.kernel("left").reads(x).writes(y).on(1).submit();
        schedule.element(ElementKind.COPY, "").reads(x).writes(z).on(2).submit();
        schedule.kernel("join").reads(y, z).writes(w).on(1).submit();
        schedule.element(ElementKind.HOST_READ, "result").reads(w).submit();
    }

    @Test
    void nodesCarryLabelIdPlacementAndShape() {
        diamond();
        String dot = new DotExporter().export(recorder.snapshot());

        assertTrue(dot.startsWith("digraph schedule {\n"), dot);
        assertTrue(dot.endsWith("}\n"), dot);
        assertTrue(dot.contains("  \"e1\" [label=\"host write #1\\nhost\", shape=ellipse];\n"), dot);
        assertTrue(dot.contains("  \"e2\" [label=\"square #2\\nstream 1\"];\n"), dot);
        assertTrue(dot.contains("  \"e4\" [label=\"copy #4\\nstream 2\", style=\"rounded\"];\n"), dot);
        assertTrue(dot.contains("  \"e6\" [label=\"result #6\\nhost read\", shape=ellipse];\n"), dot);
        assertEquals(6, count(dot, "[label=\"") - count(dot, " -> "), "one node per element");
    }

    @Test
    void edgesGoFromParentToChildLabelledWithTheirArrays() {
        diamond();
        String dot = new DotExporter().export(recorder.snapshot());

        assertTrue(dot.contains("  \"e1\" -> \"e2\" [label=\"x\"];\n"), dot);
        assertTrue(dot.contains("  \"e2\" -> \"e3\" [label=\"x\"];\n"), dot);
        assertTrue(dot.contains("  \"e2\" -> \"e4\" [label=\"x\"];\n"), dot);
        assertTrue(dot.contains("  \"e3\" -> \"e5\" [label=\"y\"];\n"), dot);
        assertTrue(dot.contains("  \"e4\" -> \"e5\" [label=\"z\"];\n"), dot);
        assertTrue(dot.contains("  \"e5\" -> \"e6\" [label=\"w\"];\n"), dot);
        assertEquals(6, count(dot, " -> "));
    }

    @Test
    void edgesWithoutASharedArrayHaveNoLabelAndSameNamesGetIds() {
        long a = schedule.array("DeviceArray(float, 10)");
        long b = schedule.array("DeviceArray(float, 10)");
        long first = schedule.kernel("first").writes(a, b).submit();
        schedule.kernel("second").readsWrites(a, b).submit();
        schedule.kernel("sync").after(first).submit();
        String dot = new DotExporter().export(recorder.snapshot());

        assertTrue(dot.contains("\"e1\" -> \"e2\" [label=\"DeviceArray(float, 10) #100, DeviceArray(float, 10) #101\"];"),
                dot);
        assertTrue(dot.contains("  \"e1\" -> \"e3\";\n"), dot);
    }

    @Test
    void failedElementsAreHighlightedWithTheirError() {
        long x = schedule.array("x");
        schedule.kernel("bad").writes(x).fails("index 12 out of bounds of \"x\"").submit();
        String dot = new DotExporter().export(recorder.snapshot());

        assertTrue(dot.contains("\"e1\" [label=\"bad #1\\nstream 1\\nfailed: index 12 out of bounds of \\\"x\\\"\", "
                + "style=\"filled\", color=\"#c00000\", fillcolor=\"#f8d0d0\", penwidth=2];"), dot);
    }

    @Test
    void quotesBackslashesAndControlCharactersAreEscaped() {
        assertEquals("\"a\\\"b\\\\c\\nd e\"", DotExporter.quote(List.of("a\"b\\c\r\nd\te")));
        assertEquals("\"one\\ntwo\"", DotExporter.quote(List.of("one", "two")));
        assertEquals("\"\\\\N is not the node name\"", DotExporter.quote(List.of("\\N is not the node name")));

        ArrayUse use = new ArrayUse(1, "arr \"q\" \\", AccessMode.READ_WRITE);
        recorder.submitted(new ElementInfo(1, ElementKind.KERNEL, "k<\"T\\\">", List.of(use)), new long[0]);
        recorder.submitted(new ElementInfo(2, ElementKind.KERNEL, "k2", List.of(use)), new long[] {1});
        String dot = new DotExporter().export(recorder.snapshot());

        assertTrue(dot.contains("\"e1\" [label=\"k<\\\"T\\\\\\\"> #1\\nnot launched\"];"), dot);
        assertTrue(dot.contains("\"e1\" -> \"e2\" [label=\"arr \\\"q\\\" \\\\\"];"), dot);
        assertBalancedQuotes(dot);
    }

    @Test
    void clustersGroupTheNodesOfEachStreamAndTheHost() {
        diamond();
        String dot = new DotExporter().clusterByStream(true).export(recorder.snapshot());

        assertEquals(3, count(dot, "subgraph cluster_"), dot);
        assertTrue(dot.contains("  subgraph cluster_0 {\n    label=\"host\"; style=rounded; color=\"#999999\";\n"
                + "    \"e1\" [label=\"host write #1\\nhost\", shape=ellipse];\n"
                + "    \"e6\" [label=\"result #6\\nhost read\", shape=ellipse];\n  }\n"), dot);
        assertTrue(dot.contains("label=\"stream 1\";"), dot);
        int stream2 = dot.indexOf("label=\"stream 2\";");
        assertTrue(stream2 > 0 && dot.indexOf("\"e4\" [label", stream2) > stream2, dot);
        assertEquals(6, count(dot, " -> "));
        assertFalse(new DotExporter().export(recorder.snapshot()).contains("subgraph"));
    }

    @Test
    void severalDevicesAreNamedInThePlacement() {
        long x = schedule.array("x");
        schedule.kernel("a").writes(x).on("gpu0", 1).submit();
        schedule.kernel("b").reads(x).on("gpu1", 1).submit();
        String dot = new DotExporter().clusterByStream(true).export(recorder.snapshot());

        assertTrue(dot.contains("\"e1\" [label=\"a #1\\ngpu0 stream 1\"];"), dot);
        assertTrue(dot.contains("label=\"gpu1 stream 1\";"), dot);
    }

    @Test
    void writesAFile(@TempDir Path dir) throws IOException {
        diamond();
        Path file = dir.resolve("dag.dot");
        new DotExporter().write(recorder.snapshot(), file);
        assertEquals(new DotExporter().export(recorder.snapshot()), Files.readString(file, StandardCharsets.UTF_8));
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            count++;
        }
        return count;
    }

    /** Every line has an even number of unescaped quotes: no string runs past its line. */
    private static void assertBalancedQuotes(String dot) {
        for (String line : dot.split("\n")) {
            int quotes = 0;
            for (int i = 0; i < line.length(); i++) {
                if (line.charAt(i) == '\\') {
                    i++;
                } else if (line.charAt(i) == '"') {
                    quotes++;
                }
            }
            assertEquals(0, quotes % 2, line);
        }
    }
}
