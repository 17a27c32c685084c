package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Kernel sources that once ended a script with "internal error", ran out of stack or never finished: a JS
 * {@code try/catch} and a Python {@code except polyglot.ForeignException} (how grcuda errors reach Python, see
 * the README) catch each as a guest error whose message names the problem
 * at a line and column, and the context builds and runs a kernel afterwards. A compile is also stopped by
 * {@code Context.interrupt}, leaving the context usable.
 */
class CompileErrorGuestTest {
    private static final String SIGNATURE = "k(a: inout pointer sint32)";

    /** {name, source, part of the message}; sources are made here and handed to the guest as they are. */
    private static List<String[]> cases() {
        List<String[]> cs = new ArrayList<>();
        cs.add(new String[] {"anonymous struct", "struct { int a; };\n__global__ void k(int* a) { a[0] = 1; }\n",
                "k.cu:1:1: error: an anonymous struct must be named by a typedef"});
        cs.add(new String[] {"huge shared array",
                "__global__ void k(int* a) { __shared__ float big[0x7fffffff]; a[0] = big[threadIdx.x]; }\n",
                "k.cu:1:50: error: array 'big' of 2147483647 elements of type 'float' has 8589934588 bytes"});
        cs.add(new String[] {"recursive template",
                "template <int N> __device__ int f() { return f<N + 1>() + 1; }\n"
                        + "__global__ void k(int* a) { a[0] = f<0>(); }\n",
                "k.cu:1:46: error: excessive recursion at instantiation of 'f<200>'"});
        cs.add(new String[] {"200,000 nested ifs",
                "__global__ void k(int* a) {\n" + "if (a[0])\n".repeat(200_000) + "a[1] = 1;\n}\n",
                "k.cu:10000:7: error: nesting too deep: more than 10000 levels"});
        StringBuilder macro = new StringBuilder("#define M0 1\n");
        StringBuilder struct = new StringBuilder("struct S0 { int x; };\n");
        for (int i = 1; i <= 40; i++) {
            macro.append("#define M").append(i).append(" (M").append(i - 1).append("+M").append(i - 1).append(")\n");
        }
        for (int i = 1; i <= 60; i++) {
            struct.append("struct S").append(i).append(" { S").append(i - 1).append(" a; S").append(i - 1)
                    .append(" b; };\n");
        }
        cs.add(new String[] {"doubling macro", macro + "__global__ void k(int* a) { a[0] = M40; }\n",
                "k.cu:42:36: error: macro expansion too large"});
        cs.add(new String[] {"doubling struct", struct + "__global__ void k(int* a) { a[0] = sizeof(S60); }\n",
                "k.cu:22:8: error: struct 'S21' holds 2097152 scalars"});
        cs.add(new String[] {"const without initializer", "__global__ void k(int* a) { const int c; a[0] = c; }\n",
                "k.cu:1:39: error: const variable 'c' requires an initializer"});
        return cs;
    }

    private static final String JS = """
            const cu = Polyglot.eval('grcuda', 'CU');
            const cases = Polyglot.import('cases');
            for (let i = 0; i < cases.length; i++) {
              const c = cases[i];
              try {
                cu.buildkernel(c[1], SIG);
                console.log(c[0] + ': accepted');
              } catch (e) {
                console.log(c[0] + ': ' + (String(e.message).includes(c[2]) ? 'caught' : 'other: ' + e.message));
              }
            }
            try {
              cu.bindkernel('/dev/zero', SIG);
              console.log('/dev/zero: accepted');
            } catch (e) {
              console.log('/dev/zero: ' + (String(e.message).includes('not a regular file') ? 'caught' : e.message));
            }
            const k = cu.buildkernel('\\uFEFF__global__ void k(int* a) { a[0] = 40 + 2; }', SIG);
            const a = cu.DeviceArray('int', 1);
            k(1, 1)(a);
            console.log('then: ' + a[0]);
            """.replace("SIG", "'" + SIGNATURE + "'");

    private static final String PY = """
            import polyglot
            cu = polyglot.eval(language="grcuda", string="CU")
            cases = polyglot.import_value("cases")
            for c in cases:
                try:
                    cu.buildkernel(c[1], SIG)
                    print(c[0] + ": accepted")
                except polyglot.ForeignException as e:
                    print(c[0] + ": " + ("caught" if c[2] in str(e) else "other: " + str(e)))
            try:
                cu.bindkernel("/dev/zero", SIG)
                print("/dev/zero: accepted")
            except polyglot.ForeignException as e:
                print("/dev/zero: " + ("caught" if "not a regular file" in str(e) else str(e)))
            k = cu.buildkernel("\\ufeff__global__ void k(int* a) { a[0] = 40 + 2; }", SIG)
            a = cu.DeviceArray("int", 1)
            k(1, 1)(a)
            print("then: " + str(a[0]))
            """.replace("SIG", "\"" + SIGNATURE + "\"");

    @TestFactory
    Stream<DynamicTest> everyCompileProblemIsCaughtAndTheContextGoesOn() {
        StringBuilder expected = new StringBuilder();
        for (String[] c : cases()) {
            expected.append(c[0]).append(": caught\n");
        }
        expected.append("/dev/zero: caught\nthen: 42\n");
        return Stream.of(new String[] {"js", JS}, new String[] {"python", PY}).map(l -> DynamicTest.dynamicTest(
                l[0], () -> assertEquals(expected.toString(), run(l[0], l[1]))));
    }

    private static String run(String language, String script) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Context context = context(out)) {
            context.getPolyglotBindings().putMember("cases", cases().toArray(new String[0][]));
            context.eval(Source.create(language, script));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Context context(ByteArrayOutputStream out) {
        return Context.newBuilder("python", "js", "grcuda")
                .engine(Guests.engine())
                .allowAllAccess(true)
                .allowPolyglotAccess(PolyglotAccess.ALL)
                .out(out)
                .build();
    }

    @Test
    void contextInterruptStopsACompileAndTheContextGoesOn() throws Exception {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            many.append("__global__ void k").append(i).append("(int* a) { a[").append(i % 7).append("] = ").append(i)
                    .append("; }\n");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Context context = context(out)) {
            context.getPolyglotBindings().putMember("many", many.toString());
            context.eval("js", "var cu = Polyglot.eval('grcuda', 'CU');");
            CompletableFuture<Object> compiling = CompletableFuture.supplyAsync(() -> context.eval("js",
                    "cu.buildkernel(Polyglot.import('many'), 'k0(a: inout pointer sint32)')"));
            awaitCompileThread();
            context.interrupt(Duration.ZERO);
            Throwable t = assertThrows(Exception.class, compiling::join);
            PolyglotException e = (PolyglotException) t.getCause();
            assertTrue(e.isInterrupted(), () -> "not an interrupt: " + e);
            Object v = context.eval("js", "const k = cu.buildkernel('__global__ void k(int* a) { a[0] = 7 * 6; }',"
                    + " 'k(a: inout pointer sint32)'); const a = cu.DeviceArray('int', 1); k(1, 1)(a); a[0]")
                    .asInt();
            assertEquals(42, v);
        }
    }

    /** Waits until the CPU device's compile thread runs (the compile under test started it). */
    private static void awaitCompileThread() throws InterruptedException {
        while (Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("polygpu-kernel-compile") && t.isAlive())) {
            Thread.sleep(5);
        }
    }
}
