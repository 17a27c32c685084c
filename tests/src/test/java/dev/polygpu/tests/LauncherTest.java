package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The polygpu command, run in-process: arguments, options, the device line, errors and exit codes. */
@Tag("slow")
class LauncherTest {
    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void pythonSeesItsArgumentsAndGrcuda() throws IOException {
        Path f = file("args.py", """
                import sys, polyglot
                cu = polyglot.eval(language="grcuda", string="CU")
                print(sys.argv[1:], "getoptions" in dir(cu))
                """);
        Guests.Run r = Guests.launch(f.toString(), "-n", "7");
        assertEquals(0, r.status(), r::toString);
        assertEquals("['-n', '7'] True\n", r.out(), r::toString);
        assertTrue(r.err().startsWith("polygpu: running kernels on the CPU device"), r::toString);
    }

    /**
     * GrCUDA's bind tutorial, as users run it: a C++ library with a namespaced and an extern "C" function, bound
     * from JavaScript and Python and called on device arrays between kernels; and a function of the C library.
     */
    @Test
    void bindCallsFunctionsOfASharedLibraryFromJavaScriptAndPython() throws Exception {
        Path src = file("increment.cpp", """
                namespace aa { namespace bb {
                int cxx_inc_host(int *a, int n, int by) { for (int i = 0; i < n; i++) a[i] += by; return n; }
                } }
                extern "C" int c_inc_host(int *a, int n, int by) { for (int i = 0; i < n; i++) a[i] += by; return n; }
                """);
        Path lib = dir.resolve("libincrement.so");
        Process cc;
        try {
            cc = new ProcessBuilder("c++", "-shared", "-fPIC", "-o", lib.toString(), src.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no C++ compiler (c++) to build the library: " + e.getMessage());
            return;
        }
        String log = new String(cc.getInputStream().readAllBytes());
        assertEquals(0, cc.waitFor(), log);
        String kernel = "__global__ void twice(int *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
                + " if (i < n) a[i] *= 2; }";
        Path js = file("bind.js", "const cu = Polyglot.eval('grcuda', 'CU');\n"
                + "const cxx = cu.bind('" + lib + "', `cxx aa::bb::cxx_inc_host(a: inout pointer sint32,"
                + " n: sint32, by: sint32): sint32`);\n"
                + "const c = cu.bind('" + lib + "', 'c_inc_host(a: inout pointer sint32, n: sint32, by: sint32):"
                + " sint32');\n"
                + "const twice = cu.buildkernel('" + kernel + "', 'twice(a: inout pointer sint32, n: sint32)');\n"
                + "const a = cu.DeviceArray('int', 100);\nfor (let i = 0; i < 100; i++) a[i] = i;\n"
                + "twice(4, 32)(a, 100);\nconst r1 = cxx(a, 100, 1);\ntwice(4, 32)(a, 100);\n"
                + "const r2 = c(a, 100, 3);\nconsole.log(r1, r2, a[0], a[99]);\n");
        Guests.Run r = Guests.launch(js.toString());
        assertEquals(0, r.status(), r::toString);
        // a[i] = ((2i + 1) * 2) + 3
        assertEquals("100 100 5 401\n", r.out(), r::toString);
        Path py = file("bind.py", "import polyglot\ncu = polyglot.eval(language='grcuda', string='CU')\n"
                + "inc = cu.bind('" + lib + "', 'cxx aa::bb::cxx_inc_host(a: inout pointer sint32, n: sint32,"
                + " by: sint32): sint32')\n"
                + "cos = cu.bind('libm.so.6', 'cos(x: double): double')\n"
                + "a = cu.DeviceArray('int', 10)\nfor i in range(10): a[i] = i\n"
                + "print(inc(a, 10, 5), a[9], cos(0.0), inc.name, inc.symbol)\n");
        r = Guests.launch(py.toString());
        assertEquals(0, r.status(), r::toString);
        assertEquals("10 14 1.0 aa::bb::cxx_inc_host _ZN2aa2bb12cxx_inc_hostEPiii\n", r.out(), r::toString);
    }

    /**
     * GrCUDA's JavaScript demos use require(), which GraalJS enables with --js.commonjs-require: a boolean option
     * written alone means true, as in GraalVM's own launchers; the module's folder is given by
     * --js.commonjs-require-cwd (the working folder by default).
     */
    @Test
    void javascriptRequiresModulesWithCommonjsRequire() throws IOException {
        file("twice.js", "module.exports = { twice: (x) => 2 * x };\n");
        Path main = file("main.js", """
                const lib = require('./twice.js');
                const cu = Polyglot.eval('grcuda', 'CU');
                const a = cu.DeviceArray('int', 3);
                a[2] = lib.twice(21);
                console.log(a[2]);
                """);
        for (String[] flags : new String[][] {{"--js.commonjs-require"}, {"--js.commonjs-require", "true"},
                {"--js.commonjs-require=true"}}) {
            List<String> args = new ArrayList<>(List.of(flags));
            args.add("--js.commonjs-require-cwd=" + dir);
            args.add(main.toString());
            Guests.Run r = Guests.launch(args.toArray(String[]::new));
            assertEquals(0, r.status(), r::toString);
            assertEquals("42\n", r.out(), r::toString);
        }
        Guests.Run r = Guests.launch("--js.commonjs-require-cwd", main.toString());
        assertFalse(r.status() == 0, r::toString);
        assertTrue(r.err().contains("--js.commonjs-require-cwd needs a value"), r::toString);
    }

    @Test
    void javascriptSeesItsArguments() throws IOException {
        Path f = file("args.js", """
                const cu = Polyglot.eval("grcuda", "CU");
                console.log(JSON.stringify(arguments), typeof cu.getoptions);
                """);
        Guests.Run r = Guests.launch(f.toString(), "--size", "large");
        assertEquals(0, r.status(), r::toString);
        assertEquals("[\"--size\",\"large\"] function\n", r.out(), r::toString);
    }

    /**
     * The case: what follows the file is the program's, options or not, as written ({@code @x} is no
     * argument file, {@code --} stays); a language option before it may take its value after a space.
     */
    @Test
    void everythingAfterTheFileIsTheProgramsUntouched() throws IOException {
        Path f = file("app.py", """
                import sys, polyglot
                cu = polyglot.eval(language="grcuda", string="CU")
                print(sys.argv, getattr(cu.getoptions(), "grcuda.ExecutionPolicy"))
                """);
        Guests.Run r = Guests.launch("--grcuda.ExecutionPolicy", "sync", f.toString(), "--foo", "-n", "3", "--",
                "--help", "@x", "--cluster=1");
        assertEquals(0, r.status(), r::toString);
        assertEquals("['" + f + "', '--foo', '-n', '3', '--', '--help', '@x', '--cluster=1'] sync\n", r.out(),
                r::toString);
        Guests.Run js = Guests.launch(file("args.js", "console.log(JSON.stringify(arguments));\n").toString(),
                "--grcuda.ExecutionPolicy=sync", "-h");
        assertEquals(0, js.status(), js::toString);
        assertEquals("[\"--grcuda.ExecutionPolicy=sync\",\"-h\"]\n", js.out(), js::toString);
    }

    /** The launcher's own flags and the language options take their value after = or a space, alike. */
    @Test
    void flagsTakeTheirValueAfterEqualsOrASpace() throws IOException {
        Path f = file("flags.py", """
                import polyglot
                o = polyglot.eval(language="grcuda", string="getoptions()")
                print(*(getattr(o, "grcuda." + n) for n in ("ClusterName", "ClusterPort", "ClusterHeartbeat",
                        "ExecutionPolicy", "ClusterStats")))
                """);
        Guests.Run spaced = Guests.launch("--cluster-name", "lab", "--grcuda.ClusterPort", "5990",
                "--grcuda.ClusterHeartbeat", "2s", "--grcuda.ExecutionPolicy", "sync", "--cluster-stats", "false",
                f.toString());
        Guests.Run attached = Guests.launch("--cluster-name=lab", "--grcuda.ClusterPort=5990",
                "--grcuda.ClusterHeartbeat=2s", "--grcuda.ExecutionPolicy=sync", "--cluster-stats=false",
                f.toString());
        for (Guests.Run r : List.of(spaced, attached)) {
            assertEquals(0, r.status(), r::toString);
            assertEquals("lab 5990 2s sync false\n", r.out(), r::toString);
            assertTrue(r.err().startsWith("polygpu: --cluster-name, --grcuda.ClusterPort, --grcuda.ClusterHeartbeat, "
                    + "--cluster-stats do nothing without --cluster=HOST:PORT,…"), r::toString);
        }
    }

    @Test
    void grcudaOptionsReachTheLanguage() throws IOException {
        Path f = file("opt.py", """
                import polyglot
                cu = polyglot.eval(language="grcuda", string="CU")
                print(getattr(cu.getoptions(), "grcuda.ExecutionPolicy"))
                """);
        Guests.Run r = Guests.launch("--grcuda.ExecutionPolicy=sync", f.toString());
        assertEquals(0, r.status(), r::toString);
        assertEquals("sync\n", r.out(), r::toString);
    }

    /**
     * GrCUDA's multi-GPU scripts set NumberOfGPUs; without a GPU they run on as many CPU devices standing in for
     * GPUs, and the start line says so.
     */
    @Test
    void moreThanOneGpuRunsOnCpuDevicesStandingInForThem() throws IOException {
        Path f = file("gpus.py", """
                import polyglot
                cu = polyglot.eval(language="grcuda", string="CU")
                a = cu.DeviceArray("int", 3)
                a[2] = 5
                print(a[2], cu.getoptions()["grcuda.NumberOfGPUs"])
                """);
        Guests.Run r = Guests.launch("--grcuda.Device=cpu", "--grcuda.NumberOfGPUs=2", f.toString());
        assertEquals(0, r.status(), r::toString);
        assertEquals("5 2\n", r.out(), r::toString);
        assertTrue(r.err().contains("2 CPU devices standing in for GPUs (grcuda.NumberOfGPUs=2)"), r::toString);
    }

    /** A file to write at the end is checked at the start: a long run must not end without it. */
    @Test
    void exportPathThatCannotBeWrittenIsRefusedAtTheStart() throws IOException {
        Path f = file("never.py", "print('ran')\n");
        Path missing = f.resolveSibling("no-such-folder").resolve("run.dot");
        Guests.Run r = Guests.launch("--grcuda.ExportDAG=" + missing, f.toString());
        assertEquals(2, r.status(), r::toString);
        assertEquals("", r.out(), r::toString);
        assertTrue(r.err().contains("grcuda.ExportDAG=" + missing + " cannot be written: the folder "
                + missing.getParent() + " does not exist"), r::toString);
        Guests.Run folder = Guests.launch("--grcuda.Timeline=" + f.getParent(), f.toString());
        assertEquals(2, folder.status(), folder::toString);
        assertTrue(folder.err().contains("cannot be written: it is a folder; name a file in it"), folder::toString);
        assertFalse(folder.err().contains("\tat "), folder::toString);
    }

    @Test
    void unknownOptionIsACleanError() throws IOException {
        Path f = file("x.js", "1");
        Guests.Run r = Guests.launch("--grcuda.NoSuchOption=1", f.toString());
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().contains("grcuda.NoSuchOption; polygpu --help lists the grcuda options"), r::toString);
        assertFalse(r.err().contains("\tat "), r::toString);
        // a near miss: polyglot suggests the name, and the pointer to the list is left out
        Guests.Run near = Guests.launch("--grcuda.ExecutionPolcy=sync", f.toString());
        assertEquals(2, near.status(), near::toString);
        assertTrue(near.err().contains("Did you mean") && near.err().contains("grcuda.ExecutionPolicy="),
                near::toString);
        assertFalse(near.err().contains("polygpu --help lists"), near::toString);
    }

    @Test
    void badOptionValueListsTheValidOnes() throws IOException {
        Path f = file("x.js", "1");
        Guests.Run r = Guests.launch("--grcuda.ExecutionPolicy=later", f.toString());
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().contains("async, sync"), r::toString);
    }

    @Test
    void pythonErrorIsAPythonTraceback() throws IOException {
        Path f = file("boom.py", "def f():\n    return 1 / 0\nf()\n");
        Guests.Run r = Guests.launch(f.toString());
        assertEquals(1, r.status(), r::toString);
        assertTrue(r.err().contains("Traceback (most recent call last):"), r::toString);
        assertTrue(r.err().contains("line 2, in f"), r::toString);
        assertTrue(r.err().contains("ZeroDivisionError: division by zero"), r::toString);
        assertFalse(r.err().contains("\tat "), r::toString);
    }

    /**
     * A SyntaxError has no "Traceback" header (the program never ran), but it is Python's own and names its line:
     * it is printed as CPython does, without the note about errors of other languages.
     */
    @Test
    void pythonSyntaxErrorIsPrintedAsCPythonPrintsIt() throws IOException {
        Path f = file("syntax.py", "x = 1\nprint(\"a\"\n");
        Guests.Run r = Guests.launch(f.toString());
        assertEquals(1, r.status(), r::toString);
        assertTrue(r.err().contains("syntax.py\", line 2"), r::toString);
        assertTrue(r.err().contains("SyntaxError: '(' was never closed"), r::toString);
        assertFalse(r.err().contains("Traceback") || r.err().contains("other languages"), r::toString);
    }

    @Test
    void grcudaErrorInPythonNamesTheFunctionsItWentThrough() throws IOException {
        Path f = file("bad.py", """
                import polyglot
                cu = polyglot.eval(language="grcuda", string="CU")
                def make(n):
                    return cu.DeviceArray("float", n)
                def main():
                    make(0)
                main()
                """);
        Guests.Run r = Guests.launch(f.toString());
        assertEquals(1, r.status(), r::toString);
        String err = r.err();
        int module = err.indexOf("in <module>");
        int main = err.indexOf("in main");
        int make = err.indexOf("in make");   // with the file name when GraalPy gives the frame a location
        assertTrue(err.contains("Traceback (most recent call last): (GraalPy keeps no line numbers") && module > 0
                && main > module && make > main, r::toString);
        assertTrue(err.contains("polyglot.ForeignException: DeviceArray: the size of dimension 1 must be positive,"
                + " got 0"), r::toString);
    }

    @Test
    void javascriptErrorIsAJavascriptStack() throws IOException {
        Path f = file("boom.js", "function f() { null.x; }\nf();\n");
        Guests.Run r = Guests.launch(f.toString());
        assertEquals(1, r.status(), r::toString);
        assertTrue(r.err().contains("TypeError: Cannot read property 'x' of null"), r::toString);
        assertTrue(r.err().contains("at f (boom.js:1:"), r::toString);
    }

    @Test
    void exitCodesComeThrough() throws IOException {
        assertEquals(3, Guests.launch(file("e.py", "import sys\nsys.exit(3)\n").toString()).status());
        assertEquals(4, Guests.launch(file("e.js", "quit(4);\n").toString()).status());
    }

    /**
     * {@code sys.exit} as CPython ends a program: a code that is neither None nor an integer is printed on
     * stderr (with str()) after what the program printed, and the status is 1; an integer is the status, with
     * nothing printed; None (or no argument) is status 0. A subclass of SystemExit is handled the same way.
     */
    @Test
    void sysExitEndsAPythonProgramAsCPythonDoes() throws IOException {
        Guests.Run message = Guests.launch(file("m.py", "import sys\nprint('before')\nsys.exit('no input file')\n")
                .toString());
        assertEquals(1, message.status(), message::toString);
        assertEquals("before\n", message.out(), message::toString);
        assertTrue(message.err().endsWith("\nno input file\n"), message::toString);
        assertFalse(message.err().contains("SystemExit"), message::toString);

        Guests.Run list = Guests.launch(file("l.py", "raise SystemExit([1, 'two'])\n").toString());
        assertEquals(1, list.status(), list::toString);
        assertTrue(list.err().endsWith("\n[1, 'two']\n"), list::toString);

        Guests.Run sub = Guests.launch(file("s.py", "class Usage(SystemExit):\n    pass\n"
                + "e = Usage('usage: s.py FILE')\ne.code = 'usage: s.py FILE (code)'\nraise e\n").toString());
        assertEquals(1, sub.status(), sub::toString);
        assertTrue(sub.err().endsWith("\nusage: s.py FILE (code)\n"), sub::toString);
        assertFalse(sub.err().contains("Traceback"), sub::toString);
        Guests.Run subCode = Guests.launch(file("t.py", "class Done(SystemExit):\n    pass\nraise Done(4)\n")
                .toString());
        assertEquals(4, subCode.status(), subCode::toString);
        assertEquals(1, subCode.err().lines().count(), subCode::toString);

        for (String code : new String[] {"sys.exit(5)", "sys.exit()", "sys.exit(None)", "sys.exit(0)"}) {
            Guests.Run r = Guests.launch(file("c.py", "import sys\n" + code + "\n").toString());
            assertEquals(code.equals("sys.exit(5)") ? 5 : 0, r.status(), () -> code + "\n" + r);
            // only the device line: nothing printed for an integer or None
            assertEquals(1, r.err().lines().count(), () -> code + "\n" + r);
            assertTrue(r.err().startsWith("polygpu: running kernels on"), () -> code + "\n" + r);
        }
    }

    /** The same as a process: the JVM exits with the status, after the message reached stderr. */
    @Test
    void sysExitWithAMessageEndsThePolygpuProcessWithStatus1() throws IOException {
        Path f = file("m.py", "import sys\nprint('before')\nsys.exit('no input file')\n");
        try (PolygpuProcess p = PolygpuProcess.start("sys-exit", Map.of(), List.of(f.toString()))) {
            assertEquals(1, p.awaitExit(Duration.ofSeconds(120), List.of(p)), p::toString);
            assertEquals("before\n", p.out(), p::toString);
            assertTrue(p.err().endsWith("\nno input file\n"), p::toString);
        }
    }

    @Test
    void helpListsTheGrcudaOptions() {
        Guests.Run r = Guests.launch("--help");
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().contains("--grcuda.ExecutionPolicy=async|sync"), r::toString);
        assertTrue(r.out().contains("--grcuda.Device="), r::toString);
        assertTrue(r.out().contains("--grcuda.CpuBlocks=<integer from 0 to 4096>"), r::toString);
    }

    @Test
    void versionNamesGraalvm() {
        Guests.Run r = Guests.launch("--version");
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().startsWith("polygpu ") && r.out().contains("GraalVM polyglot 25.0.1"), r::toString);
    }

    @Test
    void fileOfUnknownLanguageIsAUsageError() throws IOException {
        Guests.Run r = Guests.launch(file("x.rb", "1").toString());
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().contains(".py (Python) and .js (JavaScript)"), r::toString);
    }

    @Test
    void helpIsGeneratedFromTheOptions() {
        Guests.Run r = Guests.launch("--help");
        assertEquals(0, r.status(), r::toString);
        int options = r.out().indexOf("\nOptions:\n  -h, --help");
        int cluster = r.out().indexOf("\nCluster (docs/cluster.md):\n      --cluster=HOST:PORT,...");
        int language = r.out().indexOf("\nLanguage options (passed to GraalVM polyglot as written):\n");
        int grcuda = r.out().indexOf("\ngrcuda options:\n  --grcuda.");
        assertTrue(options > 0 && cluster > options && language > cluster && grcuda > language, r::toString);
        assertTrue(r.out().contains("--cluster-stats[=true|false]"), r::toString);
    }

    @Test
    void dashHPrintsTheHelpToo() {
        Guests.Run r = Guests.launch("-h");
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().startsWith("Usage: polygpu [options] FILE.py|FILE.js"), r::toString);
    }

    @Test
    void aMisspelledFlagIsUnknownAndTheClosestIsSuggested() throws IOException {
        Path f = file("x.js", "1");
        Guests.Run r = Guests.launch("--cluster-nam=lab", f.toString());
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().startsWith("polygpu: unknown option --cluster-nam (did you mean --cluster-name?); "),
                r::toString);
        Guests.Run stats = Guests.launch("--cluster-stat", f.toString());
        assertEquals(2, stats.status(), stats::toString);
        assertTrue(stats.err().startsWith("polygpu: unknown option --cluster-stat (did you mean --cluster-stats?)"),
                stats::toString);
        Guests.Run spaced = Guests.launch("--cluster-nam", "lab", f.toString());
        assertTrue(spaced.err().startsWith("polygpu: unknown option --cluster-nam (did you mean --cluster-name?); "),
                spaced::toString);
        Guests.Run bare = Guests.launch("--verbose", f.toString());
        assertEquals(2, bare.status(), bare::toString);
        assertTrue(bare.err().startsWith("polygpu: unknown option --verbose; polygpu takes --help, --version"),
                bare::toString);
        Guests.Run help = Guests.launch("--help=yes");
        assertEquals(2, help.status(), help::toString);
        assertTrue(help.err().startsWith("polygpu: --help takes no value"), help::toString);
        Guests.Run option = Guests.launch("--grcuda.ExecutionPolicy", f.toString());
        assertEquals(2, option.status(), option::toString);
        assertTrue(option.err().startsWith("polygpu: --grcuda.ExecutionPolicy needs a value: write "
                + "--grcuda.ExecutionPolicy=VALUE or --grcuda.ExecutionPolicy VALUE before the file\n"),
                option::toString);
    }

    @Test
    void doubleDashEndsTheOptions() throws IOException {
        Path f = file("args.js", "console.log(JSON.stringify(arguments));\n");
        Guests.Run r = Guests.launch("--grcuda.ExecutionPolicy=sync", "--", f.toString(), "--flag");
        assertEquals(0, r.status(), r::toString);
        assertEquals("[\"--flag\"]\n", r.out(), r::toString);
    }

    @Test
    void aDeviceThatCannotStartIsTheLaunchersErrorNotAGuestException() throws IOException {
        // Refused whether or not this machine has a GPU: chaos is a mode of the CPU device.
        Path f = file("x.py", "print('never')\n");
        Guests.Run r = Guests.launch("--grcuda.Device=cuda", "--grcuda.DeviceChaos=1", f.toString());
        assertEquals(1, r.status(), r::toString);
        assertEquals("polygpu: grcuda.DeviceChaos=1 is a mode of the CPU device, but grcuda.Device=cuda; use "
                + "grcuda.Device=cpu (or auto) with DeviceChaos\n", r.err(), r::toString);
        assertEquals("", r.out(), r::toString);
    }

    @Test
    void aMissingFileOrAFolderIsAUsageErrorThatSaysWhich() throws IOException {
        Path missing = dir.resolve("missing.py");
        Guests.Run r = Guests.launch(missing.toString());
        assertEquals(2, r.status(), r::toString);
        assertEquals("polygpu: no such file: " + missing + "\n", r.err(), r::toString);
        Path folder = Files.createDirectory(dir.resolve("looks_like_a.py"));
        Guests.Run f = Guests.launch(folder.toString());
        assertEquals(2, f.status(), f::toString);
        assertEquals("polygpu: " + folder + " is a folder, not a file to run\n", f.err(), f::toString);
    }
}
