package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgPlotTest {
    // The plot area: 720 × 440 less margins of 70 left, 190 right, 50 top, 60 bottom.
    private static final double LEFT = 70;
    private static final double TOP = 50;
    private static final double WIDTH = 720 - 70 - 190;
    private static final double HEIGHT = 440 - 50 - 60;

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> attributes(Document d, String tag, String name) {
        NodeList nodes = d.getElementsByTagName(tag);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(((Element) nodes.item(i)).getAttribute(name));
        }
        return out;
    }

    private static List<String> texts(Document d) {
        NodeList nodes = d.getElementsByTagName("text");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(nodes.item(i).getTextContent());
        }
        return out;
    }

    private static String point(double x, double y) {
        return String.format(java.util.Locale.ROOT, "%.1f,%.1f", x, y);
    }

    @Test
    void eachSeriesIsAPolylineOnALogarithmicAxis() throws Exception {
        String svg = new SvgPlot("a <title> & more", "members", "efficiency")
                .add(new SvgPlot.Series("stealing", List.of(new double[] {2, 0.5}, new double[] {4, 0.75},
                        new double[] {8, 1.5})))
                .add(new SvgPlot.Series("no stealing", List.of(new double[] {2, 0.25}, new double[] {8, -1})))
                .goal(0.9, "goal: 90%")
                .render();
        Document d = parse(svg);
        assertEquals("svg", d.getDocumentElement().getTagName());
        // x = 2, 4, 8 are 0, 1/2 and 1 of the way on a log2 axis; y is clamped to [0, 1].
        assertEquals(List.of(
                String.join(" ", point(LEFT, TOP + HEIGHT / 2), point(LEFT + WIDTH / 2, TOP + HEIGHT / 4),
                        point(LEFT + WIDTH, TOP)),
                String.join(" ", point(LEFT, TOP + HEIGHT * 0.75), point(LEFT + WIDTH, TOP + HEIGHT))),
                attributes(d, "polyline", "points"));
        assertEquals(5, d.getElementsByTagName("circle").getLength(), "a dot per point");
        assertEquals(List.of("6 4"), attributes(d, "line", "stroke-dasharray").stream()
                .filter(s -> !s.isEmpty()).toList(), "one dashed goal line");
        List<String> texts = texts(d);
        assertEquals("a <title> & more", texts.getFirst(), "the title survives escaping");
        for (String label : List.of("stealing", "no stealing", "goal: 90%", "members", "efficiency", "2", "4", "8",
                "0%", "100%")) {
            assertEquals(1, texts.stream().filter(label::equals).count(), label);
        }
    }

    @Test
    void anEmptyPlotIsStillADocument() throws Exception {
        Document d = parse(new SvgPlot("nothing", "x", "y").render());
        assertEquals(0, d.getElementsByTagName("polyline").getLength());
        assertEquals(0, d.getElementsByTagName("circle").getLength());
    }
}
