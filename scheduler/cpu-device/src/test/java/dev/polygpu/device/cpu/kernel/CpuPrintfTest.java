package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream.Builder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code printf}, {@code assert} and {@code __trap} in kernels on the CPU device: formatting compared with
 * glibc's printf (a C program compiled with gcc prints the same formats and values), compile-time argument
 * checks, where and when the output is written, per-call atomicity across worker threads, the 1 MiB cap, and
 * failed assertions as cudaErrorAssert faults after which the device keeps working.
 */
class CpuPrintfTest {
    private CpuDevice device;
    private ByteArrayOutputStream sink;

    @BeforeEach
    void setUp() {
        device = new CpuDevice(4);
        sink = new ByteArrayOutputStream();
        device.setPrintfSink(sink);
    }

    @AfterEach
    void tearDown() {
        device.close();
    }

    private String output() {
        return sink.toString(StandardCharsets.ISO_8859_1);
    }

    private KernelFunction kernel(String src, String name) {
        return device.compile(src, "print.cu").function(name);
    }

    private void run(KernelFunction k, int grid, int block, KernelArgs args) {
        Stream s = device.defaultStream();
        s.launch(k, LaunchConfig.of(grid, block), args);
        s.synchronize();
    }

    // ---- formatting against glibc ---------------------------------------------------------------------------

    /** One printf call: the format (C source text of the literal) and its arguments as C source. */
    private record Call(String format, String... args) {
        String c() {
            return "printf(\"" + format + "\"" + (args.length == 0 ? "" : ", " + String.join(", ", args)) + ");";
        }
    }

    /** Fixed cases covering each conversion, flag, width, precision and length modifier. */
    private static List<Call> fixedCalls() {
        List<Call> calls = new ArrayList<>(List.of(
                new Call("plain text, no conversion\\n"),
                new Call("%%d literal percent: 100%%\\n"),
                new Call("[%d] [%i] [%5d] [%-5d|] [%05d] [%+d] [% d] [%.3d] [%.0d]\\n", "42", "-42", "42", "42", "-42",
                        "42", "42", "7", "0"),
                new Call("[%u] [%u] [%x] [%X] [%#x] [%#X] [%#o] [%o] [%#x]\\n", "3000000000u", "-1", "-1", "255",
                        "255", "255", "8", "8", "0"),
                new Call("[%lld] [%llu] [%llx] [%ld] [%lu] [%lx] [%zu] [%jd] [%td]\\n", "-9223372036854775807LL - 1",
                        "18446744073709551615ULL", "-2LL", "-5L", "5UL", "255UL", "(unsigned long) 77", "(long) -3",
                        "(long) 12"),
                new Call("[%hd] [%hu] [%hhd] [%hhu] [%hx]\\n", "70000", "70000", "200", "-1", "-1"),
                new Call("[%c] [%3c] [%-3c|] [%c]\\n", "'A'", "'b'", "'c'", "(char) 65"),
                new Call("[%s] [%10s] [%-10s|] [%.2s] [%*s] [%-*.*s|]\\n", "\"hello\"", "\"right\"", "\"left\"",
                        "\"truncate\"", "6", "\"star\"", "8", "3", "\"precise\""),
                new Call("[%f] [%.2f] [%10.3f] [%-10.1f|] [%05.1f] [%+.0f] [%#.0f] [% f]\\n", "3.14159", "2.675",
                        "-1.0005", "9.96", "2.25", "2.5", "3.0", "1.5f"),
                new Call("[%e] [%.3e] [%+.3e] [%E] [%.0e] [%#.0e] [%12.4e]\\n", "123456.789", "0.000123456",
                        "1e100", "-6.02214076e23", "5e-324", "8.0", "-0.0"),
                new Call("[%g] [%g] [%g] [%g] [%.3g] [%#g] [%G] [%g] [%.0g] [%#.3g]\\n", "100000.0", "1000000.0",
                        "0.0001", "0.00001", "3.14159", "1.0", "1e-10", "0.0", "15.0", "100.0"),
                new Call("[%a] [%A] [%.2a] [%.0a] [%a] [%a] [%a] [%.1a] [%#a]\\n", "1.0", "-255.5", "1.999", "1.5",
                        "0.0", "5e-324", "0.1", "1.96875", "2.0"),
                new Call("[%f] [%F] [%e] [%g] [%5.1f] [%-6f|] [%+f]\\n", "INFINITY", "-INFINITY", "NAN", "-INFINITY",
                        "NAN", "INFINITY", "INFINITY"),
                new Call("[%*d] [%-*d|] [%.*f] [%*.*e]\\n", "6", "12", "-6", "12", "3", "1.23456", "12", "2",
                        "98765.4321"),
                new Call("[%p]\\n", "(void*) 0"),
                new Call("[%08.3f] [%-+8d|] [%+ d] [% 05d] [%x] [%lld]\\n", "-3.14159", "5", "5", "5",
                        "0xDEADBEEF", "1234567890123LL")));
        return calls;
    }

    /** Seeded random values through all floating and integer conversions. */
    private static List<Call> randomCalls(long seed) {
        Random r = new Random(seed);
        List<Call> calls = new ArrayList<>();
        String[] fconv = {"f", "e", "E", "g", "G", "a", "A"};
        String[] iconv = {"d", "i", "u", "x", "X", "o"};
        String[] flags = {"", "-", "+", " ", "#", "0", "+0", "-#", " #"};
        for (int i = 0; i < 120; i++) {
            double v = switch (r.nextInt(4)) {
                case 0 -> r.nextGaussian() * Math.pow(10, r.nextInt(30) - 15);
                case 1 -> Double.longBitsToDouble(r.nextLong());
                case 2 -> Math.round(r.nextDouble() * 1000) / 8.0;
                default -> (r.nextBoolean() ? -1 : 1) * r.nextInt(100_000) / 1000.0;
            };
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                v = 1.0 / (i + 3);
            }
            String prec = r.nextBoolean() ? "" : "." + r.nextInt(17);
            String width = r.nextBoolean() ? "" : Integer.toString(r.nextInt(25));
            String conv = fconv[r.nextInt(fconv.length)];
            calls.add(new Call("<%" + flags[r.nextInt(flags.length)] + width + prec + conv + ">\\n",
                    Double.toHexString(v)));
            long n = r.nextLong();
            boolean wide = r.nextBoolean();
            String iprec = r.nextInt(3) == 0 ? "." + r.nextInt(12) : "";
            String iflag = flags[r.nextInt(flags.length)];
            String ic = iconv[r.nextInt(iconv.length)];
            String lit = wide ? "(long long) " + n + "LL" : Integer.toString((int) n);
            if (!wide && (int) n == Integer.MIN_VALUE) {
                lit = "(-2147483647 - 1)";
            }
            if (wide && n == Long.MIN_VALUE) {
                lit = "(-9223372036854775807LL - 1)";
            }
            calls.add(new Call("<%" + iflag + width + iprec + (wide ? "ll" : "") + ic + ">\\n", lit));
        }
        return calls;
    }

    private static String gccOutput(List<Call> calls, Path dir) throws IOException, InterruptedException {
        StringBuilder c = new StringBuilder("#include <stdio.h>\n#include <math.h>\nint main(void) {\n");
        for (Call call : calls) {
            c.append("  ").append(call.c()).append('\n');
        }
        c.append("  return 0;\n}\n");
        Path src = dir.resolve("formats.c");
        Files.writeString(src, c);
        Path exe = dir.resolve("formats");
        Process cc = new ProcessBuilder("gcc", "-w", "-o", exe.toString(), src.toString()).redirectErrorStream(true)
                .start();
        String ccOut = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, "gcc failed: " + ccOut);
        Process run = new ProcessBuilder(exe.toString()).start();
        byte[] out = run.getInputStream().readAllBytes();
        assertTrue(run.waitFor(60, TimeUnit.SECONDS) && run.exitValue() == 0);
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    private String kernelOutput(List<Call> calls) {
        StringBuilder k = new StringBuilder("__global__ void k() {\n");
        for (Call call : calls) {
            k.append("  ").append(call.c()).append('\n');
        }
        k.append("}\n");
        run(kernel(k.toString(), "k"), 1, 1, KernelArgs.builder().build());
        return output();
    }

    @Test
    void formatsAsGlibcDoes(@TempDir Path dir) throws Exception {
        assumeTrue(RoundingOracle.hasGcc(), "gcc is not installed: the expected output comes from glibc's printf");
        List<Call> calls = fixedCalls();
        assertLinesEqual(gccOutput(calls, dir), kernelOutput(calls), "fixed cases");
    }

    @Test
    void randomValuesFormatAsGlibcDoes(@TempDir Path dir) throws Exception {
        assumeTrue(RoundingOracle.hasGcc(), "gcc is not installed: the expected output comes from glibc's printf");
        long seed = 20250611L;
        List<Call> calls = randomCalls(seed);
        assertLinesEqual(gccOutput(calls, dir), kernelOutput(calls), "seed " + seed);
    }

    private static void assertLinesEqual(String expected, String actual, String context) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
            assertEquals(e[i], a[i], context + ", line " + (i + 1));
        }
        assertEquals(e.length, a.length, context + ": line count");
    }

    @Test
    void handDerivedCasesWithoutGcc() {
        // Expected strings worked out by hand from C11 7.21.6.1, independent of any printf implementation.
        String out = kernelOutput(List.of(
                new Call("%-5d|%05.1f|%c|%%|%u|%x|%#x|%+.3e\\n", "42", "3.14159", "'z'", "-1", "-1", "255",
                        "12345.678"),
                new Call("%g %g %a %.1a\\n", "0.0001", "1e-5", "1.0", "1.96875")));
        assertEquals("42   |003.1|z|%|4294967295|ffffffff|0xff|+1.235e+04\n0.0001 1e-05 0x1p+0 0x2.0p+0\n", out);
    }

    @Test
    void utf8AndEscapesInTheFormat() {
        String out = kernelOutput(List.of(new Call("caf\u00e9 \\x41\\101\\t|\\\"q\\\"\\n")));
        assertEquals("caf\u00e9 AA\t|\"q\"\n", new String(sink.toByteArray(), StandardCharsets.UTF_8));
        assertEquals(out, sink.toString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void returnsTheNumberOfArguments() {
        String src = """
                __device__ int show(float f) { return printf("%f %s\\n", f, "x"); }
                __global__ void k(int* r) {
                    r[0] = printf("none\\n");
                    r[1] = printf("%d %d %d\\n", 1, 2, 3);
                    r[2] = show(0.5f);
                }
                """;
        UnifiedBuffer r = KernelTestSupport.ints(device, new int[] {-9, -9, -9});
        run(kernel(src, "k"), 1, 1, KernelArgs.builder().pointer(r).build());
        assertEquals(List.of(0, 3, 2), List.of(KernelTestSupport.readInts(r, 3)[0], KernelTestSupport.readInts(r, 3)[1],
                KernelTestSupport.readInts(r, 3)[2]));
        assertEquals("none\n1 2 3\n0.500000 x\n", output());
    }

    @Test
    void pointersPrintTheirAddress() {
        String src = """
                __global__ void k(int* p) { printf("%p %p\\n", p + 2, (int*) 0); }
                """;
        UnifiedBuffer p = KernelTestSupport.ints(device, new int[] {1, 2, 3});
        run(kernel(src, "k"), 1, 1, KernelArgs.builder().pointer(p).build());
        long addr = p.hostView().address() + 8;
        assertEquals("0x" + Long.toHexString(addr) + " (nil)\n", output());
    }

    // ---- compile-time checks --------------------------------------------------------------------------------

    static java.util.stream.Stream<Arguments> mismatches() {
        Builder<Arguments> b = java.util.stream.Stream.builder();
        String k = "__global__ void k(int* p, float f, double d, long long ll, char c) {\n  ";
        b.add(Arguments.of(k + "printf(\"%f\\n\", 1);\n}", 2, 18,
                "printf conversion '%f' expects a double (a float is promoted to double), but argument 2 has type 'int'"));
        b.add(Arguments.of(k + "printf(\"%d\\n\", p);\n}", 2, 18,
                "printf conversion '%d' expects an int or unsigned int (char and short are promoted to int), but "
                        + "argument 2 has type 'int*'"));
        b.add(Arguments.of(k + "printf(\"%d %d\\n\", 1);\n}", 2, 3,
                "printf conversion '%d' has no argument: argument 3 is missing (the format is argument 1)"));
        b.add(Arguments.of(k + "printf(\"%d\\n\", 1, f);\n}", 2, 21,
                "printf argument 3 (type 'float') has no conversion in the format \"%d\\n\"; add one or remove the argument"));
        b.add(Arguments.of(k + "printf(\"%d\\n\", ll);\n}", 2, 18,
                "printf conversion '%d' expects an int or unsigned int (char and short are promoted to int), but "
                        + "argument 2 has type 'long long'"));
        b.add(Arguments.of(k + "printf(\"%lld\\n\", c);\n}", 2, 20,
                "printf conversion '%lld' expects a 64-bit integer (long, long long, size_t), but argument 2 has type 'char'"));
        b.add(Arguments.of(k + "printf(\"%s\\n\", p);\n}", 2, 18,
                "printf conversion '%s' with argument 2 of type 'int*' is not supported by the CPU device's kernel "
                        + "engine: '%s' takes a string literal argument only (printf(\"%s\", \"text\")); print "
                        + "characters of device memory with %c"));
        b.add(Arguments.of(k + "printf(\"%s\\n\", 5);\n}", 2, 18,
                "printf conversion '%s' expects a string literal, but argument 2 has type 'int'"));
        b.add(Arguments.of(k + "printf(\"%d\\n\", \"five\");\n}", 2, 18,
                "printf conversion '%d' expects an int or unsigned int (char and short are promoted to int), but "
                        + "argument 2 has type 'string literal'"));
        b.add(Arguments.of(k + "printf(\"%p\\n\", ll);\n}", 2, 18,
                "printf conversion '%p' expects a pointer, but argument 2 has type 'long long'"));
        b.add(Arguments.of(k + "printf(\"%*d\\n\", d, 1);\n}", 2, 19,
                "printf conversion '%*d' expects an int for its field width ('*'), but argument 2 has type 'double'"));
        b.add(Arguments.of(k + "printf(\"%Lf\\n\", d);\n}", 2, 19,
                "printf conversion '%Lf' expects a long double, which device code does not have; use '%f' for a "
                        + "float or double argument"));
        b.add(Arguments.of(k + "printf(\"%n\\n\", p);\n}", 2, 10,
                "printf format: '%n' (store the count of characters written) is not supported by CUDA's printf"));
        b.add(Arguments.of(k + "printf(\"%k\\n\", 1);\n}", 2, 10,
                "printf format: unknown conversion '%k'; CUDA's printf supports %d %i %u %x %X %o %c %s %f %F %e %E "
                        + "%g %G %a %A %p and %%"));
        b.add(Arguments.of(k + "printf(\"50%\");\n}", 2, 10,
                "printf format: incomplete conversion specification '%' at the end of the format; write %% for a "
                        + "percent sign"));
        b.add(Arguments.of(k + "printf(p);\n}", 2, 10,
                "the format of printf must be a string literal on the CPU device, which checks the arguments against "
                        + "it when the kernel compiles; write the format in the call (\"%d\\n\") instead of passing a "
                        + "variable"));
        b.add(Arguments.of(k + "printf();\n}", 2, 3, "printf needs a format string"));
        b.add(Arguments.of(k + "assert(p);\n  p[0] = \"x\";\n}", 3, 10,
                "string literals are not supported by the CPU device's kernel engine"));
        return b.build();
    }

    @ParameterizedTest
    @MethodSource("mismatches")
    void mismatchesAreCompileErrors(String src, int line, int column, String message) {
        CompileException e = assertThrows(CompileException.class, () -> device.compile(src, "k.cu"));
        CompileException.Diagnostic d = e.diagnostics().getFirst();
        assertEquals(message, d.message(), e.getMessage());
        assertEquals(line, d.line(), e.getMessage());
        assertEquals(column, d.column(), e.getMessage());
    }

    @Test
    void moreThan32ArgumentsIsACompileError() {
        String args = String.join(", ", java.util.Collections.nCopies(33, "1"));
        String fmt = "%d".repeat(33);
        CompileException e = assertThrows(CompileException.class, () -> device.compile(
                "__global__ void k() { printf(\"" + fmt + "\", " + args + "); }", "k.cu"));
        assertTrue(e.diagnostics().getFirst().message().contains("at most 32 arguments"), e.getMessage());
    }

    @Test
    void onlyKernelsThatPrintCollectOutput() {
        CompiledModule m = KernelEngine.compile("""
                __device__ void say(int i) { printf("%d\\n", i); }
                __device__ void check(int i) { assert(i > 0); }
                __global__ void quiet(int* p) { p[0] = 1; }
                __global__ void loud(int* p) { say(p[0]); }
                __global__ void checks(int* p) { check(p[0]); }
                """, "m.cu");
        assertFalse(m.kernel("quiet").prints());
        assertTrue(m.kernel("loud").prints());
        assertTrue(m.kernel("checks").prints());
    }

    // ---- when and where the output goes ---------------------------------------------------------------------

    @Test
    void outputIsWrittenBeforeTheLaunchCompletes() {
        String src = """
                __global__ void k(int n) {
                    for (int i = 0; i < n; i++) printf("block %d line %d\\n", blockIdx.x, i);
                }
                """;
        KernelFunction k = kernel(src, "k");
        Stream s = device.createStream();
        for (int round = 0; round < 20; round++) {
            sink.reset();
            s.launch(k, LaunchConfig.of(3, 1), KernelArgs.builder().i32(200).build());
            var ev = device.createEvent(false);
            s.record(ev);
            ev.synchronize();
            // The event completes after the launch did, which wrote its output first.
            assertEquals(600, output().lines().count(), "round " + round);
            ev.close();
        }
        s.close();
    }

    @Test
    void launchesOnAStreamPrintInOrderAndBlocksInBlockOrder() {
        String src = """
                __global__ void k(int tag) { printf("%d:%d\\n", tag, blockIdx.x); }
                """;
        KernelFunction k = kernel(src, "k");
        Stream s = device.defaultStream();
        s.launch(k, LaunchConfig.of(40, 1), KernelArgs.builder().i32(1).build());
        s.launch(k, LaunchConfig.of(40, 1), KernelArgs.builder().i32(2).build());
        s.synchronize();
        StringBuilder expected = new StringBuilder();
        for (int tag = 1; tag <= 2; tag++) {
            for (int b = 0; b < 40; b++) {
                expected.append(tag).append(':').append(b).append('\n');
            }
        }
        assertEquals(expected.toString(), output());
    }

    @Test
    void callsAreNeverInterleavedAcrossWorkerThreads() {
        String src = """
                __global__ void k(int* v) {
                    int t = threadIdx.x, b = blockIdx.x;
                    printf("<b=%d t=%d v=%d x=%08.2f %s>\\n", b, t, v[b * blockDim.x + t], b + t / 8.0,
                           "................................................................");
                }
                """;
        int blocks = 64;
        int threads = 96;
        int[] v = new int[blocks * threads];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 7 + 3;
        }
        UnifiedBuffer buf = KernelTestSupport.ints(device, v);
        run(kernel(src, "k"), blocks, threads, KernelArgs.builder().pointer(buf).build());
        Pattern line = Pattern.compile("<b=(\\d+) t=(\\d+) v=(\\d+) x=(\\d{5}\\.\\d\\d) \\.{64}>");
        Set<Integer> seen = new HashSet<>();
        for (String l : output().split("\n")) {
            Matcher m = line.matcher(l);
            assertTrue(m.matches(), "an interleaved or broken record: " + l);
            int b = Integer.parseInt(m.group(1));
            int t = Integer.parseInt(m.group(2));
            assertEquals(v[b * threads + t], Integer.parseInt(m.group(3)), l);
            // C rounds the exact value half to even (0.125 -> 0.12), unlike java.util.Formatter's HALF_UP.
            String x = new java.math.BigDecimal(b + t / 8.0).setScale(2, java.math.RoundingMode.HALF_EVEN)
                    .toPlainString();
            assertEquals("0".repeat(8 - x.length()) + x, m.group(4), l);
            assertTrue(seen.add(b * threads + t), "printed twice: " + l);
        }
        assertEquals(blocks * threads, seen.size());
    }

    @Test
    void outputBeyondOneMebibyteIsDroppedAndCounted() {
        // Each record is exactly 100 bytes; 64 blocks of 256 threads make 1,638,400 bytes.
        String src = """
                __global__ void k() {
                    printf("%06d %-92s\\n", blockIdx.x * blockDim.x + threadIdx.x, "padding");
                }
                """;
        run(kernel(src, "k"), 64, 256, KernelArgs.builder().build());
        String out = output();
        String[] lines = out.split("\n");
        String last = lines[lines.length - 1];
        int kept = lines.length - 1;
        assertEquals(PrintfOutput.FIFO_BYTES / 100, kept, "whole records that fit in 1 MiB");
        for (int i = 0; i < kept; i++) {
            assertEquals(99, lines[i].length(), lines[i]);
        }
        int dropped = 64 * 256 - kept;
        assertEquals("[polygpu] kernel 'k': " + dropped + " printf calls were dropped: the launch's output exceeded "
                + PrintfOutput.FIFO_BYTES + " bytes (cudaLimitPrintfFifoSize, 1 MiB by default on a GPU); print less,"
                + " or from fewer threads", last);
        // The next launch has a budget of its own.
        sink.reset();
        run(kernel("__global__ void q() { printf(\"again\\n\"); }", "q"), 1, 1, KernelArgs.builder().build());
        assertEquals("again\n", output());
    }

    // ---- assert and __trap ----------------------------------------------------------------------------------

    private static final String ASSERTS = """
            __device__ void check(const int* p, int i) {
                assert(p[i] >= 0 && "values are not negative");
            }
            __global__ void k(const int* p, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) check(p, i);
            }
            """;

    @Test
    void failedAssertPrintsCudasMessageAndFailsWithCudaErrorAssert() {
        int[] v = new int[64];
        for (int i = 0; i < v.length; i++) {
            v[i] = i + 1;
        }
        v[37] = -5;
        UnifiedBuffer p = KernelTestSupport.ints(device, v);
        KernelFunction k = device.compile(ASSERTS, "checks.cu").function("k");
        Stream s = device.defaultStream();
        s.launch(k, LaunchConfig.of(2, 32), KernelArgs.builder().pointer(p).i32(64).build());
        KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
        assertEquals(CudaError.ASSERT, e.error());
        assertEquals(710, e.error().code);
        assertTrue(e.getMessage().contains("kernel 'k'"), e.getMessage());
        assertTrue(e.getMessage().contains("at blockIdx (1,0,0) threadIdx (5,0,0)"), e.getMessage());
        assertTrue(e.getMessage().contains("device-side assert triggered: Assertion `p[i] >= 0 && \"values are not "
                + "negative\"` failed (checks.cu:2, in void check(int*, int))"), e.getMessage());
        assertEquals("checks.cu:2: void check(int*, int): block: [1,0,0], thread: [5,0,0] Assertion "
                + "`p[i] >= 0 && \"values are not negative\"` failed.\n", output());

        // The device keeps working, as after other kernel faults.
        v[37] = 1;
        UnifiedBuffer ok = KernelTestSupport.ints(device, v);
        sink.reset();
        s.launch(k, LaunchConfig.of(2, 32), KernelArgs.builder().pointer(ok).i32(64).build());
        s.synchronize();
        assertEquals("", output());
    }

    @Test
    void ndebugRemovesAsserts() {
        UnifiedBuffer p = KernelTestSupport.ints(device, new int[] {-1});
        KernelFunction k = device.compile("#define NDEBUG\n#include <assert.h>\n" + ASSERTS, "checks.cu").function("k");
        Stream s = device.defaultStream();
        s.launch(k, LaunchConfig.of(1, 1), KernelArgs.builder().pointer(p).i32(1).build());
        s.synchronize();
        assertEquals("", output());
    }

    @Test
    void trapFailsTheLaunch() {
        KernelFunction k = kernel("__global__ void k(int n) { if (threadIdx.x == n) __trap(); }", "k");
        Stream s = device.defaultStream();
        s.launch(k, LaunchConfig.of(1, 8), KernelArgs.builder().i32(3).build());
        KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
        assertEquals(CudaError.LAUNCH_FAILED, e.error());
        assertTrue(e.getMessage().contains("threadIdx (3,0,0): __trap() was called"), e.getMessage());
        s.launch(k, LaunchConfig.of(1, 8), KernelArgs.builder().i32(99).build());
        s.synchronize();
    }

    @Test
    void cooperativeKernelsPrintAndAssertWithTheRightThread() {
        String src = """
                __global__ void k(int bad) {
                    __shared__ int s[32];
                    s[threadIdx.x] = threadIdx.x;
                    __syncthreads();
                    int v = s[31 - threadIdx.x];
                    if (threadIdx.x % 8 == 0) printf("t%d sees %d\\n", threadIdx.x, v);
                    __syncthreads();
                    assert(threadIdx.x != bad);
                }
                """;
        KernelFunction k = kernel(src, "k");
        run(k, 1, 32, KernelArgs.builder().i32(-1).build());
        assertEquals("t0 sees 31\nt8 sees 23\nt16 sees 15\nt24 sees 7\n", output());
        sink.reset();
        Stream s = device.defaultStream();
        s.launch(k, LaunchConfig.of(1, 32), KernelArgs.builder().i32(17).build());
        KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
        assertEquals(CudaError.ASSERT, e.error());
        assertTrue(output().endsWith("print.cu:8: void k(int): block: [0,0,0], thread: [17,0,0] Assertion "
                + "`threadIdx.x != bad` failed.\n"), output());
    }
}
