package dev.polygpu.runtime.trace;

import java.io.IOException;
import java.util.Locale;

/**
 * What the two SVG formats share: number formatting, the colours of streams and kinds, and the
 * document's opening. SVG here is plain markup with no scripts, so notebook front ends that refuse scripts
 * (JupyterLab) and image viewers show it as it is.
 */
final class Svg {
    static final String FONT = "font-family=\"Helvetica, Arial, sans-serif\"";
    /** Host elements and elements not launched. */
    static final String HOST_FILL = "#e0e0e0";
    static final String FAILED_FILL = "#f4a3a3";
    /** One colour per stream, cycled: light enough for black text. */
    private static final String[] STREAM_FILLS = {
        "#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6", "#ffff99", "#8dd3c7", "#fccde5", "#d9d9d9", "#bebada", "#80b1d3",
    };

    private Svg() {
    }

    /** The fill of stream {@code streamId}'s elements. */
    static String streamFill(int streamId) {
        return STREAM_FILLS[Math.floorMod(streamId, STREAM_FILLS.length)];
    }

    /** {@code text} cut to {@code max} characters, with an ellipsis where it was cut. */
    static String shorten(String text, int max) {
        return text.length() <= max ? text : text.substring(0, Math.max(1, max - 1)) + "…";
    }

    /** A coordinate with at most one decimal, in the C locale. */
    static String num(double v) {
        double r = Math.round(v * 10) / 10.0;
        return r == Math.rint(r) ? Long.toString((long) r) : String.format(Locale.ROOT, "%.1f", r);
    }

    /** The SVG root element of a {@code width} × {@code height} picture, with a white background. */
    static void open(Appendable out, double width, double height, String title) throws IOException {
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(num(width))
                .append("\" height=\"").append(num(height)).append("\" viewBox=\"0 0 ").append(num(width))
                .append(' ').append(num(height)).append("\" ").append(FONT).append(" font-size=\"11\">\n");
        out.append("<title>").append(XmlText.escape(title)).append("</title>\n");
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    }

    /** A text element at ({@code x}, {@code y}); {@code anchor} is {@code start}, {@code middle} or {@code end}. */
    static void text(Appendable out, double x, double y, String anchor, String attributes, String text)
            throws IOException {
        out.append("<text x=\"").append(num(x)).append("\" y=\"").append(num(y)).append("\" text-anchor=\"")
                .append(anchor).append('"');
        if (!attributes.isEmpty()) {
            out.append(' ').append(attributes);
        }
        out.append('>').append(XmlText.escape(text)).append("</text>\n");
    }

    /** A duration in the unit that suits it: {@code 850 ns}, {@code 12.5 µs}, {@code 3.2 ms}, {@code 1.25 s}. */
    static String duration(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        if (nanos < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
        }
        if (nanos < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }
}
