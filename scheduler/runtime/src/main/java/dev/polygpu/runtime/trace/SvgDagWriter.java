package dev.polygpu.runtime.trace;

import dev.polygpu.runtime.ArrayUse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws a recorded DAG as a standalone SVG picture, laid out by {@link LayeredLayout} (sources at the top, each
 * element one layer below its lowest parent), with no Graphviz and no scripts, so it shows inside a notebook
 * as it is. Each element is a box filled with its stream's colour (grey: on the host or not launched; red:
 * failed), labelled with its name, id and placement; hovering shows its arrays with their access modes, its
 * duration and its failure. Each dependency is an arrow from parent to child. A legend names the stream
 * colours.
 *
 * <p>Only the last {@link #maxElements(int)} elements are drawn (a picture of thousands of boxes helps no one);
 * the heading says how many were left out. Immutable, so one writer may be shared between threads.
 */
public final class SvgDagWriter implements DagFormat {
    /** The most elements drawn by default. */
    public static final int DEFAULT_MAX_ELEMENTS = 150;
    private static final int MAX_LABEL_CHARS = 26;
    private static final double CHAR_WIDTH = 6.3;
    private static final double MIN_NODE_WIDTH = 76;
    private static final double HEADING = 46;

    private final int maxElements;

    public SvgDagWriter() {
        this(DEFAULT_MAX_ELEMENTS);
    }

    private SvgDagWriter(int maxElements) {
        this.maxElements = maxElements;
    }

    /** A writer like this one that draws at most the last {@code n} elements. */
    public SvgDagWriter maxElements(int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("maxElements must be positive, got " + n);
        }
        return new SvgDagWriter(n);
    }

    @Override
    public void write(RecordedDag dag, Appendable out) throws IOException {
        List<RecordedElement> all = dag.elements();
        int skipped = Math.max(0, all.size() - maxElements);
        List<RecordedElement> shown = all.subList(skipped, all.size());
        List<int[]> edges = new ArrayList<>();
        List<Dependency> drawn = new ArrayList<>();
        for (Dependency d : dag.dependencies()) {
            int parent = dag.indexOf(d.parentId()) - skipped;
            int child = dag.indexOf(d.childId()) - skipped;
            if (parent >= 0 && child >= 0) {
                edges.add(new int[] {parent, child});
                drawn.add(d);
            }
        }
        String[][] labels = new String[shown.size()][];
        double[] widths = new double[shown.size()];
        for (int i = 0; i < shown.size(); i++) {
            labels[i] = labels(shown.get(i));
            int chars = Math.max(labels[i][0].length(), labels[i][1].length());
            widths[i] = Math.max(MIN_NODE_WIDTH, chars * CHAR_WIDTH + 16);
        }
        LayeredLayout layout = new LayeredLayout(widths, edges, HEADING);
        Map<Integer, String> streams = streamsUsed(shown);
        double legendWidth = 230 + 90.0 * (streams.size() + 1);
        double width = Math.max(layout.width(), legendWidth);
        String heading = shown.size() + " computations, " + edges.size() + " dependencies"
                + (skipped > 0 ? " (the first " + skipped + " are not drawn)" : "");
        Svg.open(out, width, Math.max(layout.height(), HEADING + 20), "polygpu computation DAG: " + heading);
        out.append("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\""
                + " markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\""
                + " fill=\"#555\"/></marker></defs>\n");
        Svg.text(out, LayeredLayout.MARGIN, 18, "start", "font-size=\"13\" font-weight=\"bold\"", heading);
        legend(out, streams, 30);
        for (int k = 0; k < drawn.size(); k++) {
            edge(out, layout, layout.paths().get(k), drawn.get(k));
        }
        for (int i = 0; i < shown.size(); i++) {
            node(out, layout, i, shown.get(i), labels[i]);
        }
        out.append("</svg>\n");
    }

    /** Two lines: the name, then id and where it ran. */
    private static String[] labels(RecordedElement e) {
        String where;
        if (e.moved()) {
            where = "member " + e.move().member();
        } else if (e.kind().onHost()) {
            where = "host";
        } else if (e.placement() == null) {
            where = "not launched";
        } else {
            where = "stream " + e.placement().streamId();
        }
        return new String[] {Svg.shorten(e.displayName(), MAX_LABEL_CHARS), "#" + e.id() + " · " + where};
    }

    private static Map<Integer, String> streamsUsed(List<RecordedElement> shown) {
        Map<Integer, String> streams = new TreeMap<>();
        for (RecordedElement e : shown) {
            if (!e.kind().onHost() && e.placement() != null && !e.moved()) {
                streams.put(e.placement().streamId(), Svg.streamFill(e.placement().streamId()));
            }
        }
        return streams;
    }

    private static void legend(Appendable out, Map<Integer, String> streams, double y) throws IOException {
        double x = LayeredLayout.MARGIN;
        for (Map.Entry<Integer, String> s : streams.entrySet()) {
            swatch(out, x, y, s.getValue(), "stream " + s.getKey());
            x += 90;
        }
        swatch(out, x, y, Svg.HOST_FILL, "host / waiting");
        swatch(out, x + 110, y, Svg.FAILED_FILL, "failed");
    }

    private static void swatch(Appendable out, double x, double y, String fill, String name) throws IOException {
        out.append("<rect x=\"").append(Svg.num(x)).append("\" y=\"").append(Svg.num(y - 9))
                .append("\" width=\"12\" height=\"10\" fill=\"").append(fill).append("\" stroke=\"#555\"/>\n");
        Svg.text(out, x + 16, y, "start", "", name);
    }

    private static String fill(RecordedElement e) {
        if (e.failed()) {
            return Svg.FAILED_FILL;
        }
        if (e.kind().onHost() || e.placement() == null || e.moved()) {
            return Svg.HOST_FILL;
        }
        return Svg.streamFill(e.placement().streamId());
    }

    private static void node(Appendable out, LayeredLayout layout, int i, RecordedElement e, String[] label)
            throws IOException {
        double w = layout.nodeWidth(i);
        double x = layout.x(i) - w / 2;
        double y = layout.y(i);
        // kernels are boxes, host accesses pills, copies, fills and prefetches rounded boxes
        double radius = e.kind().onHost() ? LayeredLayout.NODE_HEIGHT / 2 : e.kind().name().equals("KERNEL") ? 2 : 9;
        out.append("<g><title>").append(XmlText.escape(tooltip(e))).append("</title>");
        out.append("<rect x=\"").append(Svg.num(x)).append("\" y=\"").append(Svg.num(y)).append("\" width=\"")
                .append(Svg.num(w)).append("\" height=\"").append(Svg.num(LayeredLayout.NODE_HEIGHT))
                .append("\" rx=\"").append(Svg.num(radius)).append("\" fill=\"").append(fill(e))
                .append("\" stroke=\"").append(e.failed() ? "#b00000" : "#444").append("\"/>\n");
        Svg.text(out, layout.x(i), y + 14, "middle", "font-weight=\"bold\"", label[0]);
        Svg.text(out, layout.x(i), y + 27, "middle", "font-size=\"10\" fill=\"#333\"", label[1]);
        out.append("</g>\n");
    }

    private static String tooltip(RecordedElement e) {
        StringBuilder t = new StringBuilder(e.displayName()).append(" (#").append(e.id()).append(", ")
                .append(RecordedElement.kindName(e.kind())).append(')');
        if (e.placement() != null) {
            t.append("\non ").append(e.placement().deviceName()).append(", stream ").append(e.placement().streamId());
        }
        if (e.moved()) {
            t.append("\nran on cluster member ").append(e.move().member());
        }
        if (e.completed()) {
            t.append("\nran for ").append(Svg.duration(e.durationNanos()));
        } else {
            t.append("\nnot completed");
        }
        for (ArrayUse use : e.arrays()) {
            t.append('\n').append(use.mode().name().toLowerCase(java.util.Locale.ROOT)).append(' ')
                    .append(use.arrayName()).append(" #").append(use.arrayId());
        }
        if (e.failed()) {
            t.append("\nfailed: ").append(e.run().failure());
        }
        return t.toString();
    }

    /** An arrow from the parent's bottom through the routing points to the child's top. */
    private static void edge(Appendable out, LayeredLayout layout, int[] path, Dependency dependency)
            throws IOException {
        int parent = path[0];
        StringBuilder d = new StringBuilder();
        double x0 = layout.x(parent);
        double y0 = layout.y(parent) + LayeredLayout.NODE_HEIGHT;
        d.append("M ").append(Svg.num(x0)).append(' ').append(Svg.num(y0));
        for (int k = 1; k < path.length; k++) {
            int n = path[k];
            double x1 = layout.x(n);
            double y1 = k == path.length - 1 ? layout.y(n) : layout.y(n) + LayeredLayout.NODE_HEIGHT / 2;
            double mid = (y0 + y1) / 2;
            d.append(" C ").append(Svg.num(x0)).append(' ').append(Svg.num(mid)).append(' ')
                    .append(Svg.num(x1)).append(' ').append(Svg.num(mid)).append(' ')
                    .append(Svg.num(x1)).append(' ').append(Svg.num(y1));
            x0 = x1;
            y0 = y1;
        }
        out.append("<path d=\"").append(d).append("\" fill=\"none\" stroke=\"#555\" stroke-width=\"1.2\"")
                .append(" marker-end=\"url(#arrow)\"><title>")
                .append(XmlText.escape(edgeTitle(dependency)))
                .append("</title></path>\n");
    }

    private static String edgeTitle(Dependency dependency) {
        StringBuilder t = new StringBuilder("#").append(dependency.childId()).append(" waits for #")
                .append(dependency.parentId());
        for (ArrayUse use : dependency.arrays()) {
            t.append('\n').append(use.arrayName()).append(" #").append(use.arrayId());
        }
        return t.toString();
    }
}
