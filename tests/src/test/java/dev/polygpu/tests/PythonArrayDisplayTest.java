package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * How device arrays print in Python ({@code str}, {@code repr}, {@code print}): the array's display string, as
 * in JavaScript and Java, and {@code [freed]} once freed, while every other use of a freed array still raises
 * the "was freed" error. The expected strings are written out by hand from docs/api.md's format: the type, the
 * shape, then the first 20 elements as nested lists.
 */
class PythonArrayDisplayTest {
    private static final String PY = "import polyglot\ncu = polyglot.eval(language=\"grcuda\", string=\"CU\")\n";
    /** A 1-D array [0.0, 0.5, 1.0], a 2 x 3 array m[i][j] = 10 i + j, and its row m[1], a view. */
    private static final String ARRAYS = PY + """
            a = cu.DeviceArray("float", 3)
            for i in range(3): a[i] = i * 0.5
            m = cu.DeviceArray("int", 2, 3)
            for i in range(2):
                for j in range(3): m[i][j] = 10 * i + j
            v = m[1]
            """;
    private static final String FREE = "a.free()\nm.free()\n";

    @Test
    void liveArraysPrintTheirDisplayString() {
        String out = Guests.eval("python", ARRAYS + """
                print(a)
                print(str(a), repr(a), f"{a}")
                print(m)
                print(v)
                print([a, v])
                """);
        assertEquals("""
                DeviceArray(float, 3)[0.0, 0.5, 1.0]
                DeviceArray(float, 3)[0.0, 0.5, 1.0] DeviceArray(float, 3)[0.0, 0.5, 1.0] \
                DeviceArray(float, 3)[0.0, 0.5, 1.0]
                DeviceArray(int, 2, 3)[[0, 1, 2], [10, 11, 12]]
                view [1] of DeviceArray(int, 2, 3)[10, 11, 12]
                [DeviceArray(float, 3)[0.0, 0.5, 1.0], view [1] of DeviceArray(int, 2, 3)[10, 11, 12]]
                """, out);
    }

    @Test
    void aLongArrayShowsItsFirstTwentyElements() {
        String out = Guests.eval("python", PY + """
                a = cu.DeviceArray("int", 25)
                for i in range(25): a[i] = i + 1
                print(repr(a))
                """);
        assertEquals("DeviceArray(int, 25)[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, …]\n",
                out);
    }

    @Test
    void freedArraysPrintThatTheyAreFreed() {
        String out = Guests.eval("python", ARRAYS + FREE + """
                print(a)
                print(str(a), repr(a))
                print(m)
                print(repr(v), str(v))
                print(a.isMemoryFreed)
                """);
        assertEquals("""
                DeviceArray(float, 3)[freed]
                DeviceArray(float, 3)[freed] DeviceArray(float, 3)[freed]
                DeviceArray(int, 2, 3)[freed]
                view [1] of DeviceArray(int, 2, 3)[freed] view [1] of DeviceArray(int, 2, 3)[freed]
                True
                """, out);
    }

    /** Every use of a freed array other than printing it is the "was freed" error. */
    @TestFactory
    Stream<DynamicTest> everythingElseOnAFreedArrayIsTheFreedError() {
        String kernel = """
                k = cu.buildkernel("__global__ void inc(float *x, int n) { if (threadIdx.x < n) x[threadIdx.x] += 1; }",
                                   "inc(x: inout pointer float, n: sint32)")
                """;
        String[][] uses = {
            {"len of a 1-D array", "len(a)", "DeviceArray(float, 3)"},
            {"len of a 2-D array", "len(m)", "DeviceArray(int, 2, 3)"},
            {"len of a view", "len(v)", "DeviceArray(int, 2, 3)"},
            {"an element", "a[0]", "DeviceArray(float, 3)"},
            {"a row", "m[0]", "DeviceArray(int, 2, 3)"},
            {"an element of a view", "v[0]", "DeviceArray(int, 2, 3)"},
            {"writing an element", "a[0] = 1.0", "DeviceArray(float, 3)"},
            {"iterating", "for x in a: pass", "DeviceArray(float, 3)"},
            {"list()", "list(v)", "DeviceArray(int, 2, 3)"},
            {"a kernel argument", kernel + "k(1, 32)(a, 3)", "DeviceArray(float, 3)"},
        };
        return Stream.of(uses).map(u -> DynamicTest.dynamicTest(u[0], () -> {
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> Guests.eval("python", ARRAYS + FREE + u[1]));
            String message = String.valueOf(e.getMessage());
            assertTrue(e.isGuestException() && message.contains(u[2]) && message.contains("was freed"),
                    () -> u[0] + ": " + e);
        }));
    }

    /** A Java embedder's own Python and grcuda context, printing into {@code out}. */
    private static Context embedderContext(ByteArrayOutputStream out) {
        return embedderContext(out, new ByteArrayOutputStream());
    }

    /** A Java embedder's own Python and grcuda context, printing into {@code out} and {@code err}. */
    private static Context embedderContext(ByteArrayOutputStream out, ByteArrayOutputStream err) {
        return Context.newBuilder("python", "grcuda")
                .engine(Guests.engine())
                .allowAllAccess(true) // as every context on the shared engine has it
                .allowPolyglotAccess(PolyglotAccess.ALL)
                .out(out)
                .err(err)
                .build();
    }

    /**
     * A Python whose foreign-list class does not take the display (here: {@code polyglot.ForeignList} replaced by
     * an object that refuses new attributes, as a future GraalPy might): grcuda still evaluates, says once on the
     * error stream that arrays print as lists, and they do.
     */
    @Test
    void aPythonThatRefusesTheDisplayKeepsListsAndSaysSo() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context context = embedderContext(out, err)) {
            context.eval("python", "import polyglot\npolyglot.ForeignList = object()\n" + ARRAYS.substring(
                    "import polyglot\n".length()) + "print(a)\nb = cu.DeviceArray('int', 2)\nb.free()\n");
        }
        assertEquals("[0.0, 0.5, 1.0]\n", out.toString(StandardCharsets.UTF_8));
        String warnings = err.toString(StandardCharsets.UTF_8);
        assertTrue(warnings.contains("polygpu: warning: Python's display of device arrays could not be set up"),
                warnings);
        assertEquals(warnings.indexOf("display of device arrays"), warnings.lastIndexOf("display of device arrays"),
                "warned once: " + warnings);
    }

    /**
     * An embedder's own context: Java makes and frees the arrays and hands them to Python. Python shows the
     * display string once it has evaluated grcuda itself, and registers it too when it frees an array.
     */
    @Test
    void javaEmbeddersGetTheDisplayOncePythonReachesGrcuda() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Context context = embedderContext(out)) {
            Value cu = context.eval("grcuda", "CU");
            Value made = cu.invokeMember("DeviceArray", "float", 2);
            made.setArrayElement(1, 2.5);
            Value freedByJava = cu.invokeMember("DeviceArray", "int", 2, 2);
            freedByJava.invokeMember("free");
            Value freedByPython = cu.invokeMember("DeviceArray", "float", 4);
            Value python = context.getBindings("python");
            python.putMember("made", made);
            python.putMember("freed_by_java", freedByJava);
            python.putMember("freed_by_python", freedByPython);
            // Python has not called grcuda yet; freeing is its first call
            context.eval("python", "freed_by_python.free()\nprint(freed_by_python)\nprint(made)");
            context.eval("python", "print(freed_by_java)");
        }
        assertEquals("""
                DeviceArray(float, 4)[freed]
                DeviceArray(float, 2)[0.0, 2.5]
                DeviceArray(int, 2, 2)[freed]
                """, out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void javaEmbeddersGetTheDisplayAfterPythonEvaluatesGrcuda() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Context context = embedderContext(out)) {
            Value freed = context.eval("grcuda", "CU").invokeMember("DeviceArray", "double", 3);
            freed.invokeMember("free");
            context.getBindings("python").putMember("freed", freed);
            context.eval("python", "import polyglot\npolyglot.eval(language='grcuda', string='CU')\nprint(freed)");
        }
        assertEquals("DeviceArray(double, 3)[freed]\n", out.toString(StandardCharsets.UTF_8));
    }

    /** A script run by the polygpu command: the display, and the error a freed array's length gives. */
    @Test
    void theLauncherPrintsFreedArrays(@TempDir Path dir) throws IOException {
        Path script = Files.writeString(dir.resolve("freed.py"), ARRAYS + """
                print(a, m)
                a.free()
                print(a)
                print(len(a))
                """);
        Guests.Run r = Guests.launch(script.toString());
        assertEquals(1, r.status(), r::toString);
        assertEquals("DeviceArray(float, 3)[0.0, 0.5, 1.0] DeviceArray(int, 2, 3)[[0, 1, 2], [10, 11, 12]]\n"
                + "DeviceArray(float, 3)[freed]\n", r.out(), r::toString);
        assertTrue(r.err().contains("DeviceArray(float, 3) (buffer ") && r.err().contains("was freed"),
                r::toString);
    }
}
