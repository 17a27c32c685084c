package dev.polygpu.runtime.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class XmlTextTest {

    @Test
    void theFiveReservedCharactersBecomeEntities() {
        assertEquals("a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;", XmlText.escape("a <b> & \"c\" 'd'"));
        assertEquals("&amp;amp;", XmlText.escape("&amp;"), "an entity in the text is text");
    }

    @Test
    void controlCharactersXmlForbidsBecomeSpacesAndTabsAndLineBreaksStay() {
        assertEquals("a b c\td\ne\rf", XmlText.escape("a\u0000b\u001fc\td\ne\rf"));
    }

    /** What a real XML parser reads back from an escaped attribute and element is the text itself. */
    @Test
    void anXmlParserReadsTheTextBack() throws Exception {
        String text = "k<float> & \"x\" 'y' </text><script>";
        String doc = "<t a=\"" + XmlText.escape(text) + "\">" + XmlText.escape(text) + "</t>";
        Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        assertEquals(text, root.getAttribute("a"));
        assertEquals(text, root.getTextContent());
    }
}
