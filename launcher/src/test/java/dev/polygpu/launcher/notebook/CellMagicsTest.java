package dev.polygpu.launcher.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CellMagicsTest {
    /** Table: cell text, default language, expected language, timed, expected code. */
    private static final Object[][] CASES = {
        {"x = 1\nx", "python", "python", false, "x = 1\nx"},
        {"%%js\nvar a = 1;", "python", "js", false, "\nvar a = 1;"},
        {"%%javascript\n1", "python", "js", false, "\n1"},
        {"%%python\nprint(1)", "js", "python", false, "\nprint(1)"},
        {"%%time\n%%js\n1 + 1", "python", "js", true, "\n\n1 + 1"},
        {"\n  %%js  \n2", "python", "js", false, "\n\n2"},
        {"x = 1\n%%js\n", "python", "python", false, "x = 1\n%%js\n"},
        {"", "js", "js", false, ""},
    };

    @Test
    void magicsChooseTheLanguageAndKeepLineNumbers() throws Exception {
        for (Object[] c : CASES) {
            CellMagics.Cell cell = CellMagics.parse((String) c[0], (String) c[1]);
            String what = "cell " + c[0].toString().replace("\n", "\\n");
            assertEquals(c[2], cell.language(), what);
            assertEquals(c[3], cell.timed(), what);
            assertEquals(c[4], cell.code(), what);
            assertEquals(c[0].toString().split("\n", -1).length, cell.code().split("\n", -1).length, what);
        }
    }

    @Test
    void badMagicsSayWhatIsWrong() {
        String unknown = assertThrows(CellMagics.MagicException.class, () -> CellMagics.parse("%%R\n1", "python"))
                .getMessage();
        assertTrue(unknown.contains("unknown cell magic %%R") && unknown.contains("%%python, %%js"), unknown);
        String two = assertThrows(CellMagics.MagicException.class,
                () -> CellMagics.parse("%%js\n%%python\n1", "python")).getMessage();
        assertTrue(two.contains("one language"), two);
        String args = assertThrows(CellMagics.MagicException.class,
                () -> CellMagics.parse("%%time 5\n1", "python")).getMessage();
        assertTrue(args.contains("takes no arguments"), args);
    }
}
