package dev.polygpu.grcuda.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bind} and {@code bindall} through the polyglot API: functions of a shared library built here from
 * {@code src/test/resources/bind} with the system's C and C++ compilers (skipped, with the reason, where there
 * is none), called on device arrays, in the DAG with kernels, and every error.
 */
class GrBindTest {
    private static final int N = 64;

    @TempDir
    static Path dir;
    private static Path library;
    private static String notBuilt;
    private static Engine engine;
    private Context c;
    private Value cu;

    @BeforeAll
    static void build() throws Exception {
        engine = Engine.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false").build();
        for (String f : List.of("hostlib.c", "hostlib.cpp", "hostlib.nidl")) {
            try (InputStream in = GrBindTest.class.getResourceAsStream("/bind/" + f)) {
                Files.copy(in, dir.resolve(f));
            }
        }
        library = dir.resolve("libhost.so");
        notBuilt = run("cc", "-c", "-fPIC", "-O1", "-o", dir.resolve("c.o").toString(), dir.resolve("hostlib.c")
                .toString());
        if (notBuilt == null) {
            notBuilt = run("c++", "-shared", "-fPIC", "-O1", "-o", library.toString(),
                    dir.resolve("hostlib.cpp").toString(), dir.resolve("c.o").toString());
        }
    }

    /** Runs a compiler; null when it worked, else why not. */
    private static String run(String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return String.join(" ", command) + " did not finish in 120 s";
            }
            return p.exitValue() == 0 ? null : String.join(" ", command) + " failed: " + out;
        } catch (IOException e) {
            return "no " + command[0] + " to build the test library (install gcc and g++): " + e.getMessage();
        }
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @BeforeEach
    void open() {
        assumeTrue(notBuilt == null, () -> notBuilt);
        c = Context.newBuilder("grcuda").engine(engine).allowAllAccess(true).build();
        cu = c.eval("grcuda", "CU");
    }

    @AfterEach
    void close() {
        if (c != null) {
            c.close();
        }
    }

    private Value bind(String signature) {
        return cu.getMember("bind").execute(library.toString(), signature);
    }

    private Value ints(int n) {
        Value a = cu.getMember("DeviceArray").execute("int", n);
        for (int i = 0; i < n; i++) {
            a.setArrayElement(i, i * 3 - 7);
        }
        return a;
    }

    private String error(Runnable r) {
        return assertThrows(PolyglotException.class, r::run).getMessage();
    }

    @Test
    void aCFunctionWritesADeviceArrayAndReturnsAValue() {
        Value f = bind("c_inc_host(a: inout pointer sint32, n: sint32, by: sint32): sint32");
        Value a = ints(N);
        assertEquals(N, f.execute(a, N, 5).asInt());
        for (int i = 0; i < N; i++) {
            assertEquals(i * 3 - 7 + 5, a.getArrayElement(i).asInt());
        }
        assertEquals("c_inc_host", f.getMember("symbol").asString());
        assertEquals(1, f.getMember("callCount").asLong());
    }

    @Test
    void everyScalarTypeAndReturnTypeCrossesTheCallIntact() {
        Value mixed = bind("c_mixed(a: sint8, b: sint16, c: sint32, d: sint64, e: uint8, f: uint16, g: uint32,"
                + " h: uint64, i: float, j: double, k: bool): double");
        double expected = -5 + -300 + -70000 + -5_000_000_000.0 + 200 + 60000 + 4_000_000_000.0
                + 9_000_000_000_000_000_000.0 + 0.5 + 0.25 + 1000;
        assertEquals(expected, mixed.execute(-5, -300, -70000, -5_000_000_000L, 200, 60000, 4_000_000_000L,
                new java.math.BigInteger("9000000000000000000"), 0.5, 0.25, true).asDouble(), 1e3);
        assertEquals("18446744073709551615", bind("c_all_ones(): uint64").execute().as(java.math.BigInteger.class)
                .toString());
        assertEquals(4_000_000_000L, bind("c_u32(): uint32").execute().asLong());
        assertEquals(-100, bind("c_negate8(x: sint8): sint8").execute(100).asInt());
        Value even = bind("c_is_even(x: sint32): bool");
        assertTrue(even.execute(10).asBoolean());
        assertFalse(even.execute(7).asBoolean());
        Value fill = bind("c_fill(out: out pointer float, n: sint32, v: float): void");
        Value x = cu.getMember("DeviceArray").execute("float", 8);
        assertTrue(fill.execute(x, 8, 1.5f).isNull());
        assertEquals(1.5f + 7, x.getArrayElement(7).asFloat());
    }

    @Test
    void cxxFunctionsAreFoundByTheirMangledNames() {
        Value inc = bind("cxx aa::bb::cxx_inc_host(a: inout pointer sint32, n: sint32, by: sint32): sint32");
        Value a = ints(N);
        inc.execute(a, N, 2);
        assertEquals(-7 + 2, a.getArrayElement(0).asInt());
        Value addInto = bind("cxx aa::bb::add_into(dst: inout pointer sint32, src: inout pointer sint32,"
                + " n: sint32): void");
        Value b = ints(N);
        addInto.execute(a, b, N);
        assertEquals(2 * (3 * 10 - 7) + 2, a.getArrayElement(10).asInt());
        Value dot = bind("cxx aa::bb::dot(x: in pointer float, y: in pointer float, n: sint64): float");
        Value x = cu.getMember("DeviceArray").execute("float", 4);
        for (int i = 0; i < 4; i++) {
            x.setArrayElement(i, i + 1);
        }
        assertEquals(1 + 4 + 9 + 16, dot.execute(x, x, 4).asDouble());
        Value top3 = bind("cxx top3(a: in pointer double, b: in pointer double, c: in pointer double, n: sint64):"
                + " double");
        Value d = cu.getMember("DeviceArray").execute("double", 3);
        for (int i = 0; i < 3; i++) {
            d.setArrayElement(i, 0.5 * i);
        }
        assertEquals(3 * (0 + 0.5 + 1.0), top3.execute(d, d, d, 3).asDouble());
        assertEquals(8, bind("cxx over(x: sint32): sint32").execute(7).asInt());
        assertEquals(14, bind("cxx over(x: double): sint32").execute(7.0).asInt());
    }

    @Test
    void theManglingAgreesWithTheCompilersSymbols() throws Exception {
        // nm lists what c++ wrote; each C++ function bound above must be the first spelling tried.
        Process p = new ProcessBuilder("nm", "-D", "--defined-only", library.toString()).start();
        String symbols = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor() == 0, "nm is not installed");
        for (String signature : List.of(
                "cxx aa::bb::cxx_inc_host(a: inout pointer sint32, n: sint32, by: sint32): sint32",
                "cxx aa::bb::add_into(dst: inout pointer sint32, src: inout pointer sint32, n: sint32)",
                "cxx aa::bb::dot(x: in pointer float, y: in pointer float, n: sint64): float",
                "cxx over(x: double): sint32")) {
            String first = CxxSymbols.candidates(NidlSignature.parse(signature)).getFirst();
            assertTrue(symbols.contains(" " + first + "\n"), first + " is not among\n" + symbols);
        }
        // top3's long long is the second spelling of sint64; const double* repeats as S0_.
        assertTrue(symbols.contains(" _Z4top3PKdS0_S0_x\n"), symbols);
        assertTrue(CxxSymbols.candidates(NidlSignature.parse("cxx top3(a: in pointer double, b: in pointer double,"
                + " c: in pointer double, n: sint64)")).contains("_Z4top3PKdS0_S0_x"));
    }

    @Test
    void aCallWaitsForTheKernelsItDependsOnAndKernelsAfterItWaitForIt() {
        Value inc = cu.getMember("buildkernel").execute("""
                __global__ void slow_inc(int *a, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        long long spin = 0;
                        for (int k = 0; k < 20000; k++) spin += k;
                        a[i] += 1 + (int) (spin & 0);
                    }
                }""", "slow_inc(a: inout pointer sint32, n: sint32)");
        Value prefix = bind("c_prefix(p: in pointer sint32, out: out pointer sint32, n: sint32): void");
        Value a = cu.getMember("DeviceArray").execute("int", N);
        Value out = cu.getMember("DeviceArray").execute("int", N);
        for (int round = 0; round < 5; round++) {
            inc.execute(2, 32).execute(a, N);       // queued: a += 1
            prefix.execute(a, out, N);              // must see every increment so far
            inc.execute(2, 32).execute(out, N);     // runs on what the call wrote
            int expectedLast = N * (round + 1) + 1;
            assertEquals(expectedLast, out.getArrayElement(N - 1).asInt(), "round " + round);
        }
    }

    @Test
    void addressesInsideArraysArePassedAsPointersToThatElement() {
        Value prefix = bind("c_prefix(p: in pointer sint32, out: out pointer sint32, n: sint32): void");
        Value a = ints(10);
        Value out = cu.getMember("DeviceArray").execute("int", 4);
        long start = a.getMember("pointer").asLong();
        prefix.execute(start + 4L * 6, out, 4);     // a[6..9]
        int expected = 0;
        for (int i = 6; i < 10; i++) {
            expected += i * 3 - 7;
        }
        assertEquals(expected, out.getArrayElement(3).asInt());
    }

    @Test
    void bindallBindsEveryFunctionOfANidlFileIntoANamespace() {
        Value ns = cu.getMember("bindall").execute("host", library.toString(), dir.resolve("hostlib.nidl").toString());
        assertTrue(cu.getMember("host").hasMember("cxx_inc_host"));
        Value a = ints(N);
        Value b = ints(N);
        assertEquals(N, cu.getMember("host").invokeMember("cxx_inc_host", a, N, 1).asInt());
        ns.invokeMember("add_into", a, b, N);
        assertEquals(2 * (3 * 5 - 7) + 1, a.getArrayElement(5).asInt());
        Value x = cu.getMember("DeviceArray").execute("double", 3);
        x.setArrayElement(0, 2.0);
        x.setArrayElement(2, 3.0);
        assertEquals(13.0, ns.invokeMember("c_dot", x, x, 3L).asDouble());
        // Binding again (a re-run cell) replaces the functions; CU's own names stay.
        cu.getMember("bindall").execute("host", library.toString(), dir.resolve("hostlib.nidl").toString());
        assertTrue(error(() -> cu.getMember("bindall").execute("buildkernel", library.toString(),
                dir.resolve("hostlib.nidl").toString())).contains("CU.buildkernel is already the builtin function"
                + " buildkernel"));
    }

    @Test
    void badNidlFilesSayWhereAndWhat() throws IOException {
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {"hostfunc { f(): void }", "bad.nidl:1: expected a scope (hostfuncs, chostfuncs,"
                + " kernels or ckernels), got 'hostfunc'"});
        cases.add(new String[] {"chostfuncs ns { f(): void }", "bad.nidl:1: a chostfuncs scope has C names, which"
                + " have no namespace; use hostfuncs ns for C++ names"});
        cases.add(new String[] {"chostfuncs {\n  f(a: pointer float): void\n}", "bad.nidl:2: signature error at"
                + " column 6: pointer parameter 'a' needs a direction"});
        cases.add(new String[] {"chostfuncs {\n f(): void\n", "bad.nidl:3: expected '}' to close the chostfuncs"
                + " scope that starts at line 1"});
        cases.add(new String[] {"ckernels {\n k(n: sint32): sint32 }", "bad.nidl:2: kernel k returns sint32, but"
                + " kernels return nothing"});
        cases.add(new String[] {"/* never closed", "bad.nidl:1: unclosed /* comment"});
        Path bad = dir.resolve("bad.nidl");
        for (String[] t : cases) {
            Files.writeString(bad, t[0]);
            String m = error(() -> cu.getMember("bindall").execute("x", library.toString(), bad.toString()));
            assertTrue(m.startsWith("bindall: " + t[1]), m + "\n expected: " + t[1]);
        }
        Files.writeString(bad, "chostfuncs {\n c_dot(x: in pointer double, y: in pointer double, n: sint64): double\n"
                + " missing(): void\n}");
        String m = error(() -> cu.getMember("bindall").execute("partial", library.toString(), bad.toString()));
        assertTrue(m.startsWith("bindall: bad.nidl:3: bind: " + library + " has no function 'missing'"), m);
        assertFalse(cu.hasMember("partial"), "a failed bindall registers nothing");
    }

    @Test
    void errorsSayWhatWasWrongAndWhatToDo() {
        assertTrue(error(() -> cu.getMember("bind").execute(dir.resolve("nope.so").toString(), "f(): void"))
                .contains("there is no such file"));
        assertTrue(error(() -> cu.getMember("bind").execute("libdoesnotexist.so", "f(): void"))
                .contains("the dynamic linker could not load it"));
        assertTrue(error(() -> bind("nosuch(a: sint32): sint32")).contains("has no function 'nosuch'. For a C++"
                + " function"));
        assertTrue(error(() -> bind("aa::bb::cxx_inc_host(a: inout pointer sint32, n: sint32, by: sint32)"))
                .contains("is a C++ name; write 'cxx aa::bb::cxx_inc_host(…)'"));
        String wrongTypes = error(() -> bind("cxx aa::bb::cxx_inc_host(a: inout pointer float, n: sint32,"
                + " by: sint32)"));
        assertTrue(wrongTypes.contains("has no C++ function aa::bb::cxx_inc_host with parameters of the"
                + " signature's types (looked for _ZN2aa2bb12cxx_inc_hostEPfii"), wrongTypes);
        assertTrue(error(() -> bind("c_inc_host(a inout pointer sint32)")).startsWith("bind: signature error at"
                + " column 14: expected ':' after parameter name 'a'"));
        Value f = bind("c_inc_host(a: inout pointer sint32, n: sint32, by: sint32): sint32");
        Value floats = cu.getMember("DeviceArray").execute("float", 4);
        assertTrue(error(() -> f.execute(floats, 4, 1)).contains("argument 1 ('a') of host function 'c_inc_host' is"
                + " a pointer to sint32, but the device array passed holds float"));
        Value a = ints(4);
        a.invokeMember("free");
        assertTrue(error(() -> f.execute(a, 4, 1)).contains("which was freed"));
        assertEquals(0, f.getMember("callCount").asLong());
    }

    /** The CUDA device's fixtures (nvcc 13.0 output of scheduler/fatbin/src/test/resources/bindkernel/increment.cu). */
    private static String fixture(String name) {
        return Path.of("..", "scheduler", "fatbin", "src", "test", "resources", "bindkernel", name).toAbsolutePath()
                .normalize().toString();
    }

    @Test
    void bindkernelRunsPtxOnTheCpuDeviceAndRefusesACubinSayingWhatToDo() {
        Value c = cu.getMember("bindkernel").execute(fixture("increment.ptx"), "c_inc(a: inout pointer sint32,"
                + " n: sint32)");
        Value inc = cu.getMember("bindkernel").execute(fixture("increment.ptx"), "cxx aa::bb::inc_kernel(a: inout"
                + " pointer sint32, n: sint32)");
        Value scale = cu.getMember("bindkernel").execute(fixture("increment.ptx"), "scale<float>(a: inout pointer"
                + " float, factor: float, n: sint32)");
        Value a = ints(N);
        c.execute(2, 32).execute(a, N);
        inc.execute(2, 32).execute(a, N - 1);
        assertEquals(3 * 5 - 7 + 1 + 2, a.getArrayElement(5).asInt());
        assertEquals(3 * (N - 1) - 7 + 1, a.getArrayElement(N - 1).asInt(), "n = N - 1 leaves the last one");
        Value f = cu.getMember("DeviceArray").execute("float", 10);
        for (int i = 0; i < 10; i++) {
            f.setArrayElement(i, i + 0.5f);
        }
        scale.execute(1, 32).execute(f, 4.0f, 10);
        assertEquals(4 * 9.5f, f.getArrayElement(9).asFloat());
        // a bound kernel has no CUDA C source, but its PTX
        assertTrue(c.getMember("ptx").asString().contains(".entry c_inc"));
        String wrongSize = error(() -> cu.getMember("bindkernel").execute(fixture("increment.ptx"),
                "c_inc(a: inout pointer sint32, n: sint64)"));
        assertTrue(wrongSize.contains("parameter 2 ('n') of kernel 'c_inc' of increment.ptx is sint64 (8 bytes) in"
                + " the signature, but the image declares"), wrongSize);
        String count = error(() -> cu.getMember("bindkernel").execute(fixture("increment.ptx"),
                "c_inc(a: inout pointer sint32)"));
        assertTrue(count.contains("has 1 parameter, but the image declares 2"), count);
        String cubin = error(() -> cu.getMember("bindkernel").execute(fixture("increment.cubin"),
                "c_inc(a: inout pointer sint32, n: sint32)"));
        assertTrue(cubin.contains("increment.cubin") && cubin.contains("nvcc -ptx"), cubin);
        String missing = error(() -> cu.getMember("bindkernel").execute(dir.resolve("none.ptx").toString(),
                "c_inc(a: inout pointer sint32, n: sint32)"));
        assertTrue(missing.startsWith("bindkernel: there is no file"), missing);
        String returns = error(() -> cu.getMember("bindkernel").execute(fixture("increment.ptx"),
                "c_inc(a: inout pointer sint32, n: sint32): sint32"));
        assertTrue(returns.contains("kernels return nothing"), returns);
    }

    @Test
    void bindkernelRunsTheCompressedPtxOfAFatbinaryOnTheCpuDevice() {
        // nvcc -fatbin -arch=sm_75 (zstd PTX beside the cubin) and -compress-mode=speed -Xfatbin -compress-all (LZ4)
        for (String file : List.of("increment.fatbin", "increment_speed.fatbin")) {
            Value c = cu.getMember("bindkernel").execute(fixture(file), "c_inc(a: inout pointer sint32, n: sint32)");
            Value scale = cu.getMember("bindkernel").execute(fixture(file), "scale<float>(a: inout pointer float,"
                    + " factor: float, n: sint32)");
            Value a = ints(N);
            c.execute(2, 32).execute(a, N - 1);
            assertEquals(3 * 5 - 7 + 1, a.getArrayElement(5).asInt(), file);
            assertEquals(3 * (N - 1) - 7, a.getArrayElement(N - 1).asInt(), file + ": n = N - 1 leaves the last one");
            Value f = cu.getMember("DeviceArray").execute("float", 10);
            for (int i = 0; i < 10; i++) {
                f.setArrayElement(i, i - 2.25f);
            }
            scale.execute(1, 32).execute(f, -3.0f, 10);
            for (int i = 0; i < 10; i++) {
                assertEquals((i - 2.25f) * -3.0f, f.getArrayElement(i).asFloat(), file + " [" + i + "]");
            }
            assertTrue(c.getMember("ptx").asString().contains(".entry c_inc"), file);
            String wrongSize = error(() -> cu.getMember("bindkernel").execute(fixture(file),
                    "c_inc(a: inout pointer sint32, n: sint64)"));
            assertTrue(wrongSize.contains("parameter 2 ('n') of kernel 'c_inc' of " + file), wrongSize);
        }
        String cubinsOnly = error(() -> cu.getMember("bindkernel").execute(fixture("increment_sm75only.fatbin"),
                "c_inc(a: inout pointer sint32, n: sint32)"));
        assertTrue(cubinsOnly.contains("fatbinary increment_sm75only.fatbin holds sm_75 cubin (zstd): the CPU device"
                + " runs PTX") && cubinsOnly.contains("-gencode arch=compute_75,code=compute_75"), cubinsOnly);
    }

    @Test
    void bindallBindsTheKernelsOfAnImage() throws IOException {
        Path nidl = Files.writeString(dir.resolve("kernels.nidl"), """
                kernels aa::bb {
                  inc_kernel(a: inout pointer sint32, n: sint32)
                }
                ckernels {
                  c_inc(a: inout pointer sint32, n: sint32)
                }
                """);
        cu.getMember("bindall").execute("incr", fixture("increment.ptx"), nidl.toString());
        Value ns = cu.getMember("incr");
        Value a = ints(N);
        ns.getMember("inc_kernel").execute(2, 32).execute(a, N);
        ns.getMember("c_inc").execute(2, 32).execute(a, N);
        assertEquals(3 * 7 - 7 + 3, a.getArrayElement(7).asInt());
    }

    @Test
    void aContextWithoutNativeAccessCannotBind() {
        try (Context closed = Context.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false")
                .allowIO(org.graalvm.polyglot.io.IOAccess.ALL).build()) {
            Value cu2 = closed.eval("grcuda", "CU");
            String m = assertThrows(PolyglotException.class, () -> cu2.getMember("bind").execute(library.toString(),
                    "c_u32(): uint32")).getMessage();
            assertTrue(m.contains("which this context may not do; build the context with allowNativeAccess(true)"),
                    m);
        }
    }
}
