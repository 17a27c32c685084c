package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CompileInterruptedException;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.front.Limits;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sources a user or an attacker may write that once ended the caller with an internal error, ran out of stack
 * or never finished: each is a {@link CompileException} at a line and column whose message names the problem or
 * the limit, and a compile stops when its thread is interrupted.
 */
@Timeout(120)
class CompileRobustnessTest {

    /** The single diagnostic of compiling {@code source}; asserts it has a position and names {@code part}. */
    private static CompileException.Diagnostic refused(String source, String part) {
        CompileException e = assertThrows(CompileException.class, () -> KernelEngine.compile(source, "t.cu"));
        CompileException.Diagnostic d = e.diagnostics().getFirst();
        assertTrue(d.line() > 0 && d.column() > 0, () -> "no line:col in " + e.getMessage());
        assertContains(part, d.message());
        return d;
    }

    private static String repeat(String s, int n) {
        return s.repeat(n);
    }

    @Test
    void anonymousStructAtTheStartOfTheFileIsAnError() {
        CompileException.Diagnostic d = refused("struct { int a; };\n__global__ void k(int* a) { a[0] = 1; }\n",
                "anonymous struct must be named by a typedef");
        assertEquals(1, d.line());
        assertEquals(1, d.column());
    }

    @Test
    void aTemplateWhoseParameterListIsNotClosedIsAnError() {
        // it once took the rest of the file into its body, so the kernel after it silently vanished
        CompileException.Diagnostic d = refused("template <typename T> __device__ T f(T x { return x; }\n"
                + "__global__ void g(float* a) { a[0] = f(a[0]); }\n", "expected ')' at the end of the parameter"
                + " list of template 'f'");
        assertEquals(1, d.line());
        assertEquals(42, d.column());
    }

    @Test
    void arraysLargerThanTwoGibibytesAreRefusedWithTheirSize() {
        // 0x7fffffff floats are 4 * 2147483647 = 8589934588 bytes
        CompileException.Diagnostic shared = refused(
                "__global__ void k(float* a) { __shared__ float big[0x7fffffff]; a[0] = big[threadIdx.x]; }\n",
                "8589934588 bytes, more than the 2147483647 bytes");
        assertEquals(52, shared.column());
        refused("__global__ void k(float* a) { double big[0x10000000]; a[0] = big[threadIdx.x]; }\n",
                "'big' of 268435456 elements of type 'double' has 2147483648 bytes");
        refused("struct S { float x[0x10000000]; float y[0x10000000]; float z[0x10000000]; };\n"
                + "__global__ void k(S* s) { }\n",
                "struct 'S' has about");
    }

    @Test
    void sharedVariablesTogetherLargerThanTwoGibibytesAreRefused() {
        String src = "__global__ void k(char* a) { __shared__ char x[0x60000000]; __shared__ char y[0x60000000];\n"
                + "  a[0] = x[threadIdx.x] + y[threadIdx.x]; }\n";
        refused(src, "the __shared__ variables of kernel 'k' need");
    }

    @Test
    void recursiveTemplateInstantiationStopsAtNvccsDepth() {
        CompileException.Diagnostic d = refused(
                "template <int N> __device__ int f() { return f<N + 1>() + 1; }\n"
                        + "__global__ void k(int* a) { a[0] = f<0>(); }\n",
                "excessive recursion at instantiation of 'f<" + Limits.MAX_TEMPLATE_DEPTH + ">'");
        assertEquals(1, d.line());
        assertEquals(46, d.column());
    }

    @Test
    void templateRecursionBelowTheLimitCompiles() {
        String src = "template <int N> __device__ int f() { if constexpr (N == 0) { return 0; } else {"
                + " return f<N - 1>() + 1; } }\n__global__ void k(int* a) { a[0] = f<150>(); }\n";
        Device dev = new CpuDevice(1);
        try {
            UnifiedBuffer out = ints(dev, new int[1]);
            KernelTestSupport.run(dev, KernelTestSupport.kernel(dev, src, "t.cu", "k"), Dim3.of(1), Dim3.of(1), 0,
                    KernelArgs.builder().pointer(out).build());
            assertArrayEquals(new int[] {150}, readInts(out, 1)); // f<N> adds one per level down to f<0> = 0
        } finally {
            dev.close();
        }
    }

    @Test
    void deepNestingIsRefusedAtTheLevelPastTheLimit() {
        int depth = Limits.MAX_NESTING + 10;
        String parens = "__global__ void k(int* a) { a[0] = " + repeat("(", depth) + "1" + repeat(")", depth) + "; }\n";
        CompileException.Diagnostic d = refused(parens, "nesting too deep: more than " + Limits.MAX_NESTING);
        assertEquals(1, d.line());
        String ifs = "__global__ void k(int* a) {\n" + repeat("if (a[0])\n", 200_000) + "a[1] = 1;\n}\n";
        d = refused(ifs, "nesting too deep");
        // if number n (on line n + 1) is at level n, the '0' of a[0] in its condition two deeper (the operand
        // a[0], then its index): the condition of if number MAX_NESTING - 1 is the first past the limit
        assertEquals(Limits.MAX_NESTING, d.line());
        assertEquals(7, d.column());
        String chain = "__global__ void k(int* a) { a[0] = 1" + repeat(" + 1", Limits.MAX_NESTING + 5) + "; }\n";
        refused(chain, "nesting too deep");
    }

    @Test
    void nestingJustBelowTheLimitCompilesOnAnyCallerStack() throws Exception {
        // a caller with a small stack: the compile runs on a thread of its own, so only the limit decides
        int depth = Limits.MAX_NESTING / 2 - 10;
        String src = "__global__ void k(int* a) { a[0] = " + repeat("(", depth) + "7" + repeat(")", depth) + "; }\n";
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                result.set(KernelEngine.compile(src, "t.cu").kernelNames());
            } catch (Throwable e) {
                result.set(e);
            }
        }, "small-stack", 256 * 1024);
        t.start();
        t.join();
        assertEquals(java.util.List.of("k"), result.get());
    }

    @Test
    void doublingMacroIsStoppedByTheExpansionLimit() {
        StringBuilder src = new StringBuilder("#define M0 1\n");
        for (int i = 1; i <= 40; i++) {
            src.append("#define M").append(i).append(" (M").append(i - 1).append("+M").append(i - 1).append(")\n");
        }
        src.append("__global__ void k(int* a) { a[0] = M40; }\n");
        CompileException.Diagnostic d = refused(src.toString(), "macro expansion too large");
        assertEquals(42, d.line());
        assertContains(Integer.toString(Limits.MAX_EXPANDED_TOKENS), d.message());
    }

    @Test
    void doublingStructIsStoppedByTheSizeLimit() {
        StringBuilder src = new StringBuilder("struct S0 { int x; };\n");
        for (int i = 1; i <= 60; i++) {
            src.append("struct S").append(i).append(" { S").append(i - 1).append(" a; S").append(i - 1)
                    .append(" b; };\n");
        }
        src.append("__global__ void k(int* a) { a[0] = sizeof(S60); }\n");
        // S_n holds 2^n ints: S21 is the first past 2^20 scalars
        CompileException.Diagnostic d = refused(src.toString(), "struct 'S21' holds 2097152 scalars");
        assertEquals(22, d.line());
    }

    @Test
    void aByteOrderMarkIsIgnored() throws Exception {
        Device dev = new CpuDevice(1);
        try {
            UnifiedBuffer out = ints(dev, new int[1]);
            KernelTestSupport.run(dev, KernelTestSupport.kernel(dev, "\uFEFF__global__ void k(int* a) { a[0] = 41 + 1; }\n",
                    "t.cu", "k"), Dim3.of(1), Dim3.of(1), 0, KernelArgs.builder().pointer(out).build());
            assertArrayEquals(new int[] {42}, readInts(out, 1));
        } finally {
            dev.close();
        }
        CompileException.Diagnostic d = refused("\uFEFF__global__ void k(int* a) { a[0] = ; }\n", "expected");
        CompileException.Diagnostic plain = refused("__global__ void k(int* a) { a[0] = ; }\n", "expected");
        assertEquals(plain.column(), d.column()); // counted from after the mark, as an editor shows it
    }

    @Test
    void constWithoutInitializerIsAnError() {
        CompileException.Diagnostic d = refused("__global__ void k(int* a) { const int c; a[0] = c; }\n",
                "const variable 'c' requires an initializer");
        assertEquals(39, d.column());
        refused("__global__ void k(int* a) { const int c[3]; a[0] = c[0]; }\n", "requires an initializer");
    }

    @Test
    void externSharedWithoutDynamicBytesFaultsNamingTheLaunchSize() {
        Device dev = new CpuDevice(1);
        try {
            String src = "extern __shared__ float s[];\n"
                    + "__global__ void k(float* a) { s[threadIdx.x] = 1.0f; a[0] = s[0]; }\n";
            UnifiedBuffer out = floats(dev, new float[1]);
            KernelFaultException e = assertThrows(KernelFaultException.class, () -> KernelTestSupport.run(dev,
                    KernelTestSupport.kernel(dev, src, "t.cu", "k"), Dim3.of(1), Dim3.of(1), 0,
                    KernelArgs.builder().pointer(out).build()));
            assertContains("extern __shared__ array 's'", e.getMessage());
            assertContains("0 bytes (the launch gave none", e.getMessage());
            assertFalse(e.getMessage().contains("null pointer"), e.getMessage());
        } finally {
            dev.close();
        }
    }

    @Test
    void anInterruptedCallerGetsCompileInterruptedAndTheCompileStops() throws Exception {
        StringBuilder src = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            src.append("__global__ void k").append(i).append("(int* a) { a[").append(i % 7).append("] = ").append(i)
                    .append("; }\n");
        }
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                KernelEngine.compile(src.toString(), "many.cu");
            } catch (Throwable e) {
                thrown.set(e);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        }, "caller");
        caller.start();
        Thread compiler = awaitCompileThread();
        caller.interrupt();
        caller.join();
        assertTrue(thrown.get() instanceof CompileInterruptedException, () -> "got " + thrown.get());
        assertContains("compilation of many.cu was interrupted", thrown.get().getMessage());
        assertTrue(stillInterrupted.get(), "the caller's interrupted status is set again");
        compiler.join(); // it stops at its next check instead of compiling the other kernels
    }

    /** The compile thread once it has started (polled: it is created by the call under test). */
    private static Thread awaitCompileThread() throws InterruptedException {
        while (true) {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("polygpu-kernel-compile") && t.isAlive()) {
                    return t;
                }
            }
            Thread.sleep(5);
        }
    }

    @Test
    void anAlreadyInterruptedCallerDoesNotStartACompile() {
        Thread.currentThread().interrupt();
        try {
            assertThrows(CompileInterruptedException.class,
                    () -> KernelEngine.compile("__global__ void k(int* a) { a[0] = 1; }\n", "t.cu"));
        } finally {
            assertTrue(Thread.interrupted());
        }
    }

    @Test
    void compileErrorsStayDeviceExceptions() {
        DeviceException e = assertThrows(DeviceException.class,
                () -> KernelEngine.compile("__global__ void k(int* a) { a[0] = ; }\n", "t.cu"));
        assertTrue(e instanceof CompileException, e::toString);
    }
}
