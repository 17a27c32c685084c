package dev.polygpu.runtime.trace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws a recorded schedule as a standalone SVG timeline (no scripts): one row per stream of each device, one
 * for the host and one per cluster member that ran stolen work, with time running right from the earliest
 * start. Each completed element is a bar from its start to its end, in its stream's colour (grey on the host,
 * red when it failed), labelled when the bar is wide enough; hovering shows its name, id, start and duration.
 * Dependencies between completed elements are thin lines from the parent's end to the child's start. Elements
 * that had not completed are left out and counted in the heading. The same data, for zooming in, is what
 * {@link ChromeTraceWriter} writes.
 *
 * <p>Immutable, so one writer may be shared between threads.
 */
public final class SvgTimelineWriter implements DagFormat {
    private static final double LABEL_WIDTH = 150;
    private static final double PLOT_WIDTH = 760;
    private static final double ROW_HEIGHT = 24;
    private static final double BAR_HEIGHT = 16;
    private static final double TOP = 58;
    private static final double CHAR_WIDTH = 6.0;
    private static final int MAX_TICKS = 8;

    /** A row: how it sorts (host, then devices by name and stream, then members) and its label. */
    private record Row(String sortKey, String label) {
    }

    @Override
    public void write(RecordedDag dag, Appendable out) throws IOException {
        Map<String, Row> rows = new TreeMap<>();
        Map<Long, String> rowOf = new HashMap<>();
        List<RecordedElement> done = new ArrayList<>();
        long origin = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (RecordedElement e : dag.elements()) {
            if (!e.completed()) {
                continue;
            }
            done.add(e);
            long start = e.moved() ? e.move().startNanos() : e.run().startNanos();
            long stop = e.moved() ? e.move().endNanos() : e.run().endNanos();
            origin = Math.min(origin, Math.min(start, e.run().startNanos()));
            end = Math.max(end, Math.max(stop, e.run().endNanos()));
            Row row = rowOf(e);
            rows.putIfAbsent(row.sortKey(), row);
            rowOf.put(e.id(), row.sortKey());
        }
        List<String> order = new ArrayList<>(rows.keySet());
        long span = done.isEmpty() ? 1 : Math.max(1, end - origin);
        double height = TOP + Math.max(1, order.size()) * ROW_HEIGHT + 16;
        int left = dag.size() - done.size();
        String heading = done.size() + " computations over " + Svg.duration(done.isEmpty() ? 0 : span)
                + (left > 0 ? " (" + left + " not completed, not drawn)" : "");
        Svg.open(out, LABEL_WIDTH + PLOT_WIDTH + 20, height, "polygpu timeline: " + heading);
        Svg.text(out, 8, 18, "start", "font-size=\"13\" font-weight=\"bold\"", heading);
        axis(out, span, height);
        for (int r = 0; r < order.size(); r++) {
            double y = TOP + r * ROW_HEIGHT;
            if (r % 2 == 0) {
                out.append("<rect x=\"0\" y=\"").append(Svg.num(y)).append("\" width=\"")
                        .append(Svg.num(LABEL_WIDTH + PLOT_WIDTH + 20)).append("\" height=\"")
                        .append(Svg.num(ROW_HEIGHT)).append("\" fill=\"#f6f6f6\"/>\n");
            }
            Svg.text(out, 8, y + ROW_HEIGHT / 2 + 4, "start", "", rows.get(order.get(r)).label());
        }
        for (Dependency d : dag.dependencies()) {
            RecordedElement parent = dag.element(d.parentId());
            RecordedElement child = dag.element(d.childId());
            if (parent.completed() && child.completed()) {
                double x1 = x(barEnd(parent) - origin, span);
                double y1 = rowCentre(order.indexOf(rowOf.get(parent.id())));
                double x2 = x(barStart(child) - origin, span);
                double y2 = rowCentre(order.indexOf(rowOf.get(child.id())));
                out.append("<line x1=\"").append(Svg.num(x1)).append("\" y1=\"").append(Svg.num(y1))
                        .append("\" x2=\"").append(Svg.num(x2)).append("\" y2=\"").append(Svg.num(y2))
                        .append("\" stroke=\"#888\" stroke-width=\"0.8\" stroke-dasharray=\"3 2\"><title>#")
                        .append(Long.toString(child.id())).append(" waits for #").append(Long.toString(parent.id()))
                        .append("</title></line>\n");
            }
        }
        for (RecordedElement e : done) {
            bar(out, e, order.indexOf(rowOf.get(e.id())), origin, span);
        }
        out.append("</svg>\n");
    }

    private static Row rowOf(RecordedElement e) {
        if (e.moved()) {
            return new Row("3 " + e.move().member(), Svg.shorten("member " + e.move().member(), 24));
        }
        if (e.kind().onHost() || e.placement() == null) {
            return new Row("0 host", "host");
        }
        RecordedElement.Placement p = e.placement();
        return new Row(String.format("1 %s %09d", p.deviceName(), p.streamId()),
                Svg.shorten(p.deviceName(), 12) + " · stream " + p.streamId());
    }

    private static long barStart(RecordedElement e) {
        return e.moved() ? e.move().startNanos() : e.run().startNanos();
    }

    private static long barEnd(RecordedElement e) {
        return e.moved() ? e.move().endNanos() : e.run().endNanos();
    }

    private static double x(long nanosFromOrigin, long span) {
        return LABEL_WIDTH + PLOT_WIDTH * ((double) nanosFromOrigin / span);
    }

    private static double rowCentre(int row) {
        return TOP + row * ROW_HEIGHT + ROW_HEIGHT / 2;
    }

    /** Ticks at a 1-2-5 step chosen so that at most {@link #MAX_TICKS} fit, with grid lines down the rows. */
    private static void axis(Appendable out, long span, double height) throws IOException {
        long step = tickStep(span);
        for (long t = 0; t <= span; t += step) {
            double x = x(t, span);
            out.append("<line x1=\"").append(Svg.num(x)).append("\" y1=\"").append(Svg.num(TOP - 6))
                    .append("\" x2=\"").append(Svg.num(x)).append("\" y2=\"").append(Svg.num(height - 12))
                    .append("\" stroke=\"#ddd\"/>\n");
            Svg.text(out, x, TOP - 10, "middle", "font-size=\"10\" fill=\"#555\"", Svg.duration(t));
        }
    }

    /** The smallest step of 1, 2 or 5 times a power of ten that cuts {@code span} into at most MAX_TICKS. */
    static long tickStep(long span) {
        for (long decade = 1; ; decade *= 10) {
            for (long m : new long[] {1, 2, 5}) {
                if (span / (decade * m) <= MAX_TICKS) {
                    return decade * m;
                }
            }
        }
    }

    private static void bar(Appendable out, RecordedElement e, int row, long origin, long span) throws IOException {
        double x1 = x(barStart(e) - origin, span);
        double x2 = x(barEnd(e) - origin, span);
        double w = Math.max(1.5, x2 - x1);
        double y = TOP + row * ROW_HEIGHT + (ROW_HEIGHT - BAR_HEIGHT) / 2;
        String fill = e.failed() ? Svg.FAILED_FILL
                : e.kind().onHost() || e.placement() == null || e.moved() ? Svg.HOST_FILL
                : Svg.streamFill(e.placement().streamId());
        out.append("<g><title>").append(XmlText.escape(e.displayName() + " (#" + e.id() + ")\nstarts at "
                + Svg.duration(barStart(e) - origin) + ", runs " + Svg.duration(barEnd(e) - barStart(e))
                + (e.failed() ? "\nfailed: " + e.run().failure() : ""))).append("</title>");
        out.append("<rect x=\"").append(Svg.num(x1)).append("\" y=\"").append(Svg.num(y)).append("\" width=\"")
                .append(Svg.num(w)).append("\" height=\"").append(Svg.num(BAR_HEIGHT)).append("\" fill=\"")
                .append(fill).append("\" stroke=\"#444\" stroke-width=\"0.6\"/>");
        String label = e.displayName();
        if (w > label.length() * CHAR_WIDTH + 6) {
            out.append('\n');
            Svg.text(out, x1 + w / 2, y + BAR_HEIGHT - 4, "middle", "font-size=\"10\"", label);
        }
        out.append("</g>\n");
    }
}
