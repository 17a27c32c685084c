package dev.polygpu.runtime.trace;

/**
 * Text put into XML markup (the SVG pictures of this package and of the cluster simulator): the one escape they
 * share, so that a name with {@code <}, {@code &} or a quote cannot break a picture or inject markup into it.
 */
public final class XmlText {
    private XmlText() {
    }

    /**
     * {@code text} escaped for an XML element's content or a quoted attribute value: the five characters XML
     * reserves become entities, and control characters XML 1.0 forbids even escaped become spaces.
     */
    public static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> b.append(c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? ' ' : c);
            }
        }
        return b.toString();
    }
}
