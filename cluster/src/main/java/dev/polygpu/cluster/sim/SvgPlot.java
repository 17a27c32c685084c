package dev.polygpu.cluster.sim;

import dev.polygpu.runtime.trace.XmlText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line plot as a self-contained SVG (no scripts, no external fonts or styles), for efficiency against
 * members: the x axis is logarithmic (base 2) with a tick at each x that occurs in the data, the y axis
 * linear from 0 to 1 shown as a percentage, and an optional dashed goal line. Built once, written once.
 */
final class SvgPlot {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 440;
    private static final int LEFT = 70;
    private static final int RIGHT = 190;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

    /** One named line of (x, y) points, x above 0, y in [0, 1]. */
    record Series(String name, List<double[]> points) {
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();
    private double goal = Double.NaN;
    private String goalLabel = "";

    SvgPlot(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    SvgPlot add(Series s) {
        series.add(s);
        return this;
    }

    SvgPlot goal(double y, String label) {
        this.goal = y;
        this.goalLabel = label;
        return this;
    }

    String render() {
        double minX = Double.MAX_VALUE;
        double maxX = -Double.MAX_VALUE;
        java.util.TreeSet<Double> ticks = new java.util.TreeSet<>();
        for (Series s : series) {
            for (double[] p : s.points()) {
                minX = Math.min(minX, p[0]);
                maxX = Math.max(maxX, p[0]);
                ticks.add(p[0]);
            }
        }
        if (ticks.isEmpty()) {
            minX = 1;
            maxX = 2;
        }
        double lo = log2(minX);
        double hi = Math.max(log2(maxX), lo + 1);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder b = new StringBuilder();
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
                .append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        b.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        b.append(text(WIDTH / 2.0 - RIGHT / 2.0, 24, title, "middle", 15));
        // y grid and labels: 0 % … 100 % every 20 %.
        for (int pct = 0; pct <= 100; pct += 20) {
            double y = TOP + plotH * (1 - pct / 100.0);
            b.append(line(LEFT, y, LEFT + plotW, y, "#ddd", false));
            b.append(text(LEFT - 8, y + 4, pct + "%", "end", 12));
        }
        for (double x : ticks) {
            double px = LEFT + plotW * (log2(x) - lo) / (hi - lo);
            b.append(line(px, TOP, px, TOP + plotH, "#eee", false));
            b.append(text(px, TOP + plotH + 18, String.format(Locale.ROOT, "%,.0f", x), "middle", 12));
        }
        b.append(line(LEFT, TOP + plotH, LEFT + plotW, TOP + plotH, "#333", false));
        b.append(line(LEFT, TOP, LEFT, TOP + plotH, "#333", false));
        b.append(text(LEFT + plotW / 2.0, HEIGHT - 18, xLabel, "middle", 13));
        b.append(String.format(Locale.ROOT, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\" "
                + "transform=\"rotate(-90 18 %.1f)\">%s</text>%n", TOP + plotH / 2.0, TOP + plotH / 2.0,
                XmlText.escape(yLabel)));
        if (!Double.isNaN(goal)) {
            double y = TOP + plotH * (1 - goal);
            b.append(line(LEFT, y, LEFT + plotW, y, "#555", true));
            b.append(text(LEFT + plotW + 6, y + 4, goalLabel, "start", 11));
        }
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String colour = COLOURS[i % COLOURS.length];
            StringBuilder path = new StringBuilder();
            for (double[] p : s.points()) {
                double px = LEFT + plotW * (log2(p[0]) - lo) / (hi - lo);
                double py = TOP + plotH * (1 - Math.clamp(p[1], 0, 1));
                path.append(path.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.1f,%.1f", px, py));
                b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>%n",
                        px, py, colour));
            }
            b.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\" points=\"")
                    .append(path).append("\"/>\n");
            double ly = TOP + 14 + 20 * i;
            b.append(line(LEFT + plotW + 10, ly - 4, LEFT + plotW + 30, ly - 4, colour, false));
            b.append(text(LEFT + plotW + 36, ly, s.name(), "start", 12));
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    private static String line(double x1, double y1, double x2, double y2, String colour, boolean dashed) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>%n",
                x1, y1, x2, y2, colour, dashed ? " stroke-dasharray=\"6 4\"" : "");
    }

    private static String text(double x, double y, String s, String anchor, int size) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n",
                x, y, anchor, size, XmlText.escape(s));
    }
}
