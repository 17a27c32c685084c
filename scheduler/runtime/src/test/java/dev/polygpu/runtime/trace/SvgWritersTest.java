package dev.polygpu.runtime.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgWritersTest {
    private final ScheduleRecorder recorder = new ScheduleRecorder();
    private final SyntheticSchedule schedule = new SyntheticSchedule(recorder);

    /** A fork-join: a host write, three branches on streams 1 to 3 reading it, a join (fails), a host read. */
    private void forkJoin() {
        long source = schedule.array("source");
        long[] branches = {schedule.array("b0"), schedule.array("b1"), schedule.array("b2")};
        long result = schedule.array("result");
        schedule.element(ElementKind.HOST_WRITE, "").writes(source).takes(5).submit();
        for (int k = 0; k < branches.length; k++) {
            schedule.kernel("branch" + k).reads(source).writes(branches[k]).on(k + 1).takes(40 + 30 * k).submit();
        }
        schedule.kernel("join<a&b>").reads(branches).writes(result).on(1).takes(20).fails("fault in \"join\"")
                .submit();
        schedule.element(ElementKind.HOST_READ, "read result").reads(result).takes(5).submit();
    }

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document d = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", d.getDocumentElement().getLocalName());
        assertEquals("http://www.w3.org/2000/svg", d.getDocumentElement().getNamespaceURI());
        return d;
    }

    /** The groups ({@code <g>}) that draw elements, by the element id their tooltip names. */
    private static Map<Long, Element> groupsById(Document d) {
        Map<Long, Element> m = new HashMap<>();
        NodeList groups = d.getElementsByTagName("g");
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            String title = g.getElementsByTagName("title").item(0).getTextContent();
            int hash = title.indexOf("(#");
            long id = Long.parseLong(title.substring(hash + 2).split("[,)]")[0]);
            m.put(id, g);
        }
        return m;
    }

    private static double attr(Element e, String name) {
        return Double.parseDouble(e.getAttribute(name));
    }

    private static Element rect(Element g) {
        return (Element) g.getElementsByTagName("rect").item(0);
    }

    private static List<Element> arrows(Document d) {
        List<Element> paths = new ArrayList<>();
        NodeList all = d.getElementsByTagName("path");
        for (int i = 0; i < all.getLength(); i++) {
            Element p = (Element) all.item(i);
            if (p.hasAttribute("marker-end")) {
                paths.add(p);
            }
        }
        return paths;
    }

    @Test
    void dagHasOneBoxPerElementOneArrowPerDependencyAndChildrenBelowParents() throws Exception {
        forkJoin();
        RecordedDag dag = recorder.snapshot();
        Document d = parse(new SvgDagWriter().export(dag));
        Map<Long, Element> boxes = groupsById(d);
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L), boxes.keySet());
        assertEquals(dag.dependencies().size(), arrows(d).size());
        for (Dependency dep : dag.dependencies()) {
            double parentBottom = attr(rect(boxes.get(dep.parentId())), "y") + LayeredLayout.NODE_HEIGHT;
            assertTrue(attr(rect(boxes.get(dep.childId())), "y") > parentBottom,
                    "#" + dep.childId() + " is drawn below its parent #" + dep.parentId());
        }
        assertEquals(Svg.FAILED_FILL, rect(boxes.get(5L)).getAttribute("fill"));
        assertEquals(Svg.streamFill(2), rect(boxes.get(3L)).getAttribute("fill"));
        assertEquals(Svg.HOST_FILL, rect(boxes.get(1L)).getAttribute("fill"));
        String text = boxes.get(5L).getTextContent();
        assertTrue(text.contains("join<a&b>") && text.contains("#5 · stream 1"), text);
        assertTrue(text.contains("failed: fault in \"join\""), text);
        assertTrue(d.getDocumentElement().getTextContent().contains("6 computations, "
                + dag.dependencies().size() + " dependencies"));
    }

    @Test
    void boxesOfOneLayerDoNotOverlap() throws Exception {
        // a random DAG of 60 elements over 8 arrays; the seed is printed on failure
        long seed = 20250117L;
        Random random = new Random(seed);
        long[] arrays = new long[8];
        for (int i = 0; i < arrays.length; i++) {
            arrays[i] = schedule.array("a" + i);
        }
        for (int i = 0; i < 60; i++) {
            schedule.kernel("k" + i).reads(arrays[random.nextInt(8)]).writes(arrays[random.nextInt(8)])
                    .on(1 + random.nextInt(4)).takes(1 + random.nextInt(50)).submit();
        }
        Document d = parse(new SvgDagWriter().export(recorder.snapshot()));
        List<double[]> boxes = new ArrayList<>();
        for (Element g : groupsById(d).values()) {
            Element r = rect(g);
            boxes.add(new double[] {attr(r, "x"), attr(r, "y"), attr(r, "width")});
        }
        assertEquals(60, boxes.size());
        for (double[] a : boxes) {
            for (double[] b : boxes) {
                if (a != b && a[1] == b[1]) {
                    assertTrue(a[0] + a[2] <= b[0] || b[0] + b[2] <= a[0], "seed " + seed + ": boxes overlap");
                }
            }
        }
    }

    @Test
    void onlyTheLastElementsAreDrawnPastTheLimit() throws Exception {
        forkJoin();
        Document d = parse(new SvgDagWriter().maxElements(4).export(recorder.snapshot()));
        assertEquals(Set.of(3L, 4L, 5L, 6L), groupsById(d).keySet());
        assertTrue(d.getDocumentElement().getTextContent().contains("(the first 2 are not drawn)"));
        assertThrows(IllegalArgumentException.class, () -> new SvgDagWriter().maxElements(0));
    }

    @Test
    void anEdgeOverSeveralLayersIsRoutedThroughEachLayer() {
        // 0 → 1 → 2 and 0 → 2: the long edge gets one routing point on layer 1
        LayeredLayout layout = new LayeredLayout(new double[] {80, 80, 80},
                List.of(new int[] {0, 1}, new int[] {1, 2}, new int[] {0, 2}), 0);
        assertEquals(3, layout.layerCount());
        assertEquals(List.of(0, 1, 2), List.of(layout.layer(0), layout.layer(1), layout.layer(2)));
        int[] longEdge = layout.paths().get(2);
        assertEquals(3, longEdge.length);
        assertEquals(1, layout.layer(longEdge[1]));
        assertTrue(Math.abs(layout.x(longEdge[1]) - layout.x(1)) >= 40, "the routing point passes beside node 1");
        assertThrows(IllegalArgumentException.class,
                () -> new LayeredLayout(new double[] {80, 80}, List.of(new int[] {1, 0}), 0));
    }

    @Test
    void timelineHasOneBarPerCompletedElementOnItsStreamsRow() throws Exception {
        forkJoin();
        recorder.submitted(new ElementInfo(99, ElementKind.KERNEL, "pending", List.of()), new long[0]);
        Document d = parse(new SvgTimelineWriter().export(recorder.snapshot()));
        Map<Long, Element> bars = groupsById(d);
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L), bars.keySet());
        String all = d.getDocumentElement().getTextContent();
        assertTrue(all.contains("6 computations over ") && all.contains("(1 not completed, not drawn)"), all);
        Set<String> rows = new HashSet<>();
        NodeList texts = d.getElementsByTagName("text");
        for (int i = 0; i < texts.getLength(); i++) {
            rows.add(texts.item(i).getTextContent());
        }
        assertTrue(rows.containsAll(List.of("host", "cpu0 · stream 1", "cpu0 · stream 2", "cpu0 · stream 3")),
                rows.toString());
        // branch0 (40 µs) and the join (20 µs) share stream 1's row; the join starts after the longest branch
        Element branch0 = rect(bars.get(2L));
        Element join = rect(bars.get(5L));
        Element branch2 = rect(bars.get(4L));
        assertEquals(attr(branch0, "y"), attr(join, "y"));
        assertTrue(attr(join, "x") >= attr(branch2, "x") + attr(branch2, "width") - 0.1);
        assertEquals(2.0, attr(branch0, "width") / attr(join, "width"), 0.05);
        assertTrue(attr(branch2, "y") != attr(branch0, "y"), "branch2 is on stream 3's row");
    }

    @Test
    void tickStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        long[][] cases = {{1, 1}, {8, 1}, {9, 2}, {17, 2}, {18, 5}, {44, 5}, {45, 10}, {89, 10}, {90, 20},
            {9_000_000, 2_000_000}};
        for (long[] c : cases) {
            assertEquals(c[1], SvgTimelineWriter.tickStep(c[0]), "span " + c[0]);
        }
    }

    @Test
    void anEmptyScheduleIsAValidPicture() throws Exception {
        RecordedDag empty = recorder.snapshot();
        assertTrue(parse(new SvgDagWriter().export(empty)).getDocumentElement().getTextContent()
                .contains("0 computations, 0 dependencies"));
        assertTrue(parse(new SvgTimelineWriter().export(empty)).getDocumentElement().getTextContent()
                .contains("0 computations"));
    }

    @Test
    void clearForgetsWhatWasRecorded() {
        forkJoin();
        recorder.clear();
        assertEquals(0, recorder.snapshot().size());
        long a = schedule.array("a");
        schedule.kernel("after").writes(a).on(1).takes(3).submit();
        assertEquals(1, recorder.snapshot().size());
        assertEquals("after", recorder.snapshot().elements().get(0).label());
    }
}
