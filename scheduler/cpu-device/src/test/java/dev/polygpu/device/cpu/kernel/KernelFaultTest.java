package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.longs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.Arrays;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What goes wrong, and how it is reported: memory faults with compute-sanitizer-like messages, recovery after
 * a fault, barriers and shuffles with exited threads, division by zero, compile errors with positions, and
 * launch-time argument checks.
 */
@Timeout(30)
class KernelFaultTest {
    private static Device dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice();
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    private static void assertFinds(String regex, String message) {
        assertTrue(Pattern.compile(regex).matcher(message).find(), () -> "expected /" + regex + "/ in: " + message);
    }

    /** Launches on the default stream, expects the launch to return and synchronize() to throw the fault. */
    private static KernelFaultException fault(KernelFunction k, Dim3 grid, Dim3 block, KernelArgs args) {
        Stream s = dev.defaultStream();
        assertDoesNotThrow(() -> s.launch(k, new LaunchConfig(grid, block, 0), args), "a fault is not reported by launch");
        KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
        assertDoesNotThrow(s::synchronize, "a fault is reported once");
        return e;
    }

    private static final String COPY = """
            __global__ void copy(const int* src, int* dst, int n)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    dst[i] = src[i] * 2;
                }
            }
            """;

    /** A correct launch right after a fault: the device and its streams keep working. */
    private static void assertStillWorks(Stream s) {
        int n = 3000;
        int[] in = new int[n];
        Arrays.setAll(in, i -> i * 7 - 5);
        UnifiedBuffer dst = dev.allocate(n * 4L);
        s.launch(kernel(dev, COPY, "copy.cu", "copy"), LaunchConfig.of((n + 127) / 128, 128),
                KernelArgs.builder().pointer(ints(dev, in)).pointer(dst).i32(n).build());
        s.synchronize();
        int[] got = readInts(dst, n);
        for (int i = 0; i < n; i++) {
            assertEquals(in[i] * 2, got[i], "copy after a fault, element " + i);
        }
    }

    // ---- memory faults -------------------------------------------------------------------------------------

    @Test
    void outOfBoundsGlobalRead() {
        String src = """
                __global__ void readPast(const float* src, float* dst, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        dst[i] = src[i + 1];
                    }
                }
                """;
        UnifiedBuffer in = dev.allocate(256 * 4);
        UnifiedBuffer out = dev.allocate(256 * 4);
        KernelFaultException e = fault(kernel(dev, src, "read-past.cu", "readPast"), Dim3.of(4), Dim3.of(64),
                KernelArgs.builder().pointer(in).pointer(out).i32(256).build());
        String m = e.getMessage();
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error(), m);
        assertEquals("readPast", e.kernel());
        assertContains("readPast", m);
        assertFinds("blockIdx \\(3,\\s*0,\\s*0\\)", m);
        assertFinds("threadIdx \\(63,\\s*0,\\s*0\\)", m);
        assertContains("'src'", m);
        assertContains("index 256", m);
        assertFinds("(?i)read", m);
        assertStillWorks(dev.defaultStream());
    }

    @Test
    void outOfBoundsGlobalWrite() {
        String src = """
                __global__ void writePast(float* out, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i == n - 1) {
                        out[i + 7] = 2.0f;
                    } else if (i < n) {
                        out[i] = 1.0f;
                    }
                }
                """;
        UnifiedBuffer out = dev.allocate(200 * 4);
        KernelFaultException e = fault(kernel(dev, src, "write-past.cu", "writePast"), Dim3.of(2), Dim3.of(128),
                KernelArgs.builder().pointer(out).i32(200).build());
        String m = e.getMessage();
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error(), m);
        assertContains("writePast", m);
        assertFinds("blockIdx \\(1,\\s*0,\\s*0\\)", m);
        assertFinds("threadIdx \\(71,\\s*0,\\s*0\\)", m);
        assertContains("'out'", m);
        assertContains("index 206", m);
        assertFinds("(?i)write", m);
        assertStillWorks(dev.defaultStream());
    }

    @Test
    void outOfBoundsThroughAnOffsetPointerIn2d() {
        String src = """
                __global__ void tile2d(const float* img, float* out, int width)
                {
                    int x = blockIdx.x * blockDim.x + threadIdx.x;
                    int y = blockIdx.y * blockDim.y + threadIdx.y;
                    float v = img[y * width + x];
                    if (x == 11 && y == 6) {
                        v += img[y * width + x + 100];
                    }
                    out[y * width + x] = v;
                }
                """;
        // 16 x 8 pixels after a 64-byte header: the kernel sees 128 floats from the pointer passed.
        UnifiedBuffer img = dev.allocate(64 + 16 * 8 * 4);
        UnifiedBuffer out = dev.allocate(16 * 8 * 4);
        KernelFaultException e = fault(kernel(dev, src, "tile2d.cu", "tile2d"), new Dim3(2, 2, 1), new Dim3(8, 4, 1),
                KernelArgs.builder().pointer(img, 64).pointer(out).i32(16).build());
        String m = e.getMessage();
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error(), m);
        assertFinds("blockIdx \\(1,\\s*1,\\s*0\\)", m);
        assertFinds("threadIdx \\(3,\\s*2,\\s*0\\)", m);
        assertContains("'img'", m);
        assertContains("index " + (6 * 16 + 11 + 100), m);
        assertStillWorks(dev.defaultStream());
    }

    @Test
    void outOfBoundsSharedArray() {
        String src = """
                __global__ void sharedPast(float* out)
                {
                    __shared__ float buf[64];
                    buf[threadIdx.x + 1] = threadIdx.x;
                    __syncthreads();
                    out[threadIdx.x] = buf[threadIdx.x];
                }
                """;
        UnifiedBuffer out = dev.allocate(64 * 4);
        KernelFaultException e = fault(kernel(dev, src, "shared-past.cu", "sharedPast"), Dim3.of(1), Dim3.of(64),
                KernelArgs.builder().pointer(out).build());
        String m = e.getMessage();
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error(), m);
        assertContains("sharedPast", m);
        assertFinds("threadIdx \\(63,\\s*0,\\s*0\\)", m);
        assertContains("buf", m);
        assertContains("index 64", m);
        assertStillWorks(dev.defaultStream());
    }

    @Test
    void outOfBoundsLocalArray() {
        String src = """
                __global__ void localPast(int* out, int idx)
                {
                    int scratch[4];
                    for (int k = 0; k < 4; k++) {
                        scratch[k] = k;
                    }
                    if (threadIdx.x == 5) {
                        scratch[idx] = 1;
                    }
                    out[threadIdx.x] = scratch[threadIdx.x & 3];
                }
                __global__ void localBefore(int* out, int idx)
                {
                    int scratch[4] = {1, 2, 3, 4};
                    out[threadIdx.x] = scratch[idx + (int) threadIdx.x];
                }
                """;
        Module mod = dev.compile(src, "local-past.cu");
        UnifiedBuffer out = dev.allocate(32 * 4);
        KernelFaultException e = fault(mod.function("localPast"), Dim3.of(1), Dim3.of(32),
                KernelArgs.builder().pointer(out).i32(4).build());
        String m = e.getMessage();
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error(), m);
        assertContains("localPast", m);
        assertFinds("threadIdx \\(5,\\s*0,\\s*0\\)", m);
        assertContains("scratch", m);
        assertContains("index 4", m);

        // Thread 0 reads scratch[-1].
        KernelFaultException before = fault(mod.function("localBefore"), Dim3.of(1), Dim3.of(4),
                KernelArgs.builder().pointer(out).i32(-1).build());
        assertContains("scratch", before.getMessage());
        assertContains("index -1", before.getMessage());
        assertFinds("threadIdx \\(0,\\s*0,\\s*0\\)", before.getMessage());
        assertStillWorks(dev.defaultStream());
    }

    @Test
    void nullPointerArgument() {
        String src = """
                __global__ void useNull(float* p, int n)
                {
                    if (blockIdx.x == 0 && threadIdx.x == 0) {
                        p[3] = 1.0f;
                    }
                }
                """;
        KernelFaultException e = fault(kernel(dev, src, "null.cu", "useNull"), Dim3.of(2), Dim3.of(32),
                KernelArgs.builder().pointer((UnifiedBuffer) null).i32(10).build());
        String m = e.getMessage();
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error(), m);
        assertContains("useNull", m);
        assertFinds("(?i)null", m);
        assertFinds("blockIdx \\(0,\\s*0,\\s*0\\)", m);
        assertStillWorks(dev.defaultStream());
    }

    @Test
    void faultOnOneStreamLeavesOtherStreamsWorking() {
        String src = """
                __global__ void readPast(const int* src, int* dst, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    dst[i] = src[i + n];
                }
                """;
        Stream side = dev.createStream();
        try {
            UnifiedBuffer b = dev.allocate(64 * 4);
            assertDoesNotThrow(() -> side.launch(kernel(dev, src, "side.cu", "readPast"), LaunchConfig.of(1, 64),
                    KernelArgs.builder().pointer(b).pointer(b).i32(64).build()));
            assertStillWorks(dev.defaultStream());
            KernelFaultException e = assertThrows(KernelFaultException.class, side::synchronize);
            assertEquals(CudaError.ILLEGAL_ADDRESS, e.error(), e.getMessage());
            assertContains("'src'", e.getMessage());
            assertStillWorks(side);
            assertStillWorks(dev.defaultStream());
            assertDoesNotThrow(dev::synchronize);
        } finally {
            side.close();
        }
    }

    // ---- exited threads ---------------------------------------------------------------------------------------

    @Test
    void earlyReturnBeforeSyncthreadsDoesNotHang() {
        String src = """
                __global__ void earlyExit(const int* in, int* out, int n)
                {
                    __shared__ int s[256];
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i >= n) {
                        return;
                    }
                    s[threadIdx.x] = in[i];
                    __syncthreads();
                    int next = (threadIdx.x + 1 < blockDim.x && i + 1 < n) ? s[threadIdx.x + 1] : 0;
                    out[i] = s[threadIdx.x] + next;
                }
                """;
        int n = 1000;
        int[] in = new int[n];
        Arrays.setAll(in, i -> i * 3 + 1);
        UnifiedBuffer out = dev.allocate(n * 4L);
        run(dev, kernel(dev, src, "early.cu", "earlyExit"), 4, 256, KernelArgs.builder().pointer(ints(dev, in)).pointer(out).i32(n).build());
        int[] got = readInts(out, n);
        for (int i = 0; i < n; i++) {
            int next = (i % 256) + 1 < 256 && i + 1 < n ? in[i + 1] : 0;
            assertEquals(in[i] + next, got[i], "element " + i);
        }
    }

    @Test
    void returnBetweenBarriersDoesNotHang() {
        String src = """
                __global__ void exitBetween(int* out)
                {
                    __shared__ int s[128];
                    int t = threadIdx.x;
                    s[t] = t;
                    __syncthreads();
                    if (t % 3 == 0) {
                        return;
                    }
                    s[t] += 1000;
                    __syncthreads();
                    out[blockIdx.x * blockDim.x + t] = s[t] + s[(t + 1) % blockDim.x];
                }
                """;
        UnifiedBuffer out = dev.allocate(3 * 128 * 4);
        dev.defaultStream().fill(out, 0, out.byteSize(), (byte) 0xFF);
        run(dev, kernel(dev, src, "between.cu", "exitBetween"), 3, 128, KernelArgs.builder().pointer(out).build());
        int[] got = readInts(out, 3 * 128);
        for (int b = 0; b < 3; b++) {
            for (int t = 0; t < 128; t++) {
                int nb = (t + 1) % 128;
                int expected = t % 3 == 0 ? -1 : t + 1000 + nb + (nb % 3 == 0 ? 0 : 1000);
                assertEquals(expected, got[b * 128 + t], "block " + b + " thread " + t);
            }
        }
    }

    @Test
    void shuffleNamingAnExitedLaneFails() {
        String src = """
                __global__ void shflExited(const int* in, int* out, unsigned int mask)
                {
                    int lane = threadIdx.x;
                    if (lane >= 16) {
                        return;
                    }
                    out[lane] = __shfl_sync(mask, in[lane], 0);
                }
                """;
        KernelFunction k = kernel(dev, src, "shfl-exited.cu", "shflExited");
        int[] in = new int[32];
        Arrays.setAll(in, i -> 100 + i);
        UnifiedBuffer bin = ints(dev, in);
        UnifiedBuffer out = dev.allocate(32 * 4);

        // The lanes that remain name only themselves: fine.
        run(dev, k, 1, 32, KernelArgs.builder().pointer(bin).pointer(out).u32(0x0000FFFF).build());
        int[] got = readInts(out, 16);
        int[] expected = new int[16];
        Arrays.fill(expected, 100);
        assertArrayEquals(expected, got, "__shfl_sync from lane 0 with mask 0xffff");

        // The full mask names lanes 16..31, which have returned: a fault, not a hang.
        KernelFaultException e = fault(k, Dim3.of(1), Dim3.of(32), KernelArgs.builder().pointer(bin).pointer(out).u32(0xFFFFFFFF).build());
        String m = e.getMessage();
        assertContains("shflExited", m);
        assertContains("__shfl_sync", m);
        assertFinds("(?i)0xffffffff", m);
        assertFinds("(?i)exited", m);
        assertContains("lane 16", m);
        assertStillWorks(dev.defaultStream());
    }

    // ---- arithmetic faults ------------------------------------------------------------------------------------

    @Test
    void integerDivisionByZeroIsAFault() {
        String src = """
                __global__ void divide(const int* a, const int* b, int* q, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        q[i] = a[i] / b[i];
                    }
                }
                __global__ void modulo(const int* a, const int* b, int* q, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        q[i] = a[i] % b[i];
                    }
                }
                __global__ void divideWide(const long long* a, const long long* b, long long* q, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        q[i] = a[i] / b[i];
                    }
                }
                """;
        Module mod = dev.compile(src, "div.cu");
        int n = 200;
        int[] a = new int[n];
        int[] b = new int[n];
        long[] la = new long[n];
        long[] lb = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = 1000 + i;
            b[i] = i == 77 ? 0 : 1 + i % 9;
            la[i] = a[i];
            lb[i] = b[i];
        }
        UnifiedBuffer ba = ints(dev, a);
        UnifiedBuffer bb = ints(dev, b);
        UnifiedBuffer q = dev.allocate(n * 8L);
        for (String name : new String[] {"divide", "modulo", "divideWide"}) {
            KernelArgs args = name.equals("divideWide")
                    ? KernelArgs.builder().pointer(longs(dev, la)).pointer(longs(dev, lb)).pointer(q).i32(n).build()
                    : KernelArgs.builder().pointer(ba).pointer(bb).pointer(q).i32(n).build();
            KernelFaultException e = fault(mod.function(name), Dim3.of(4), Dim3.of(64), args);
            String m = e.getMessage();
            assertEquals(name, e.kernel());
            assertContains(name, m);
            assertFinds("(?i)division|divide|remainder", m);
            assertFinds("(?i)zero", m);
            assertFinds("blockIdx \\(1,\\s*0,\\s*0\\)", m);
            assertFinds("threadIdx \\(13,\\s*0,\\s*0\\)", m);
        }
        assertStillWorks(dev.defaultStream());
    }

    // ---- compile errors ---------------------------------------------------------------------------------------

    private static CompileException compileError(String src, String file) {
        CompileException e = assertThrows(CompileException.class, () -> dev.compile(src, file).function("k"));
        assertEquals(CudaError.COMPILATION_ERROR, e.error());
        assertFalse(e.diagnostics().isEmpty(), "diagnostics of: " + e.getMessage());
        assertEquals(file, e.diagnostics().get(0).file(), e.getMessage());
        return e;
    }

    @Test
    void missingSemicolon() {
        String src = """
                __global__ void k(int* p)
                {
                    int x = 1
                    p[0] = x;
                }
                """;
        CompileException e = compileError(src, "semicolon.cu");
        CompileException.Diagnostic d = e.diagnostics().get(0);
        assertTrue(d.line() == 3 || d.line() == 4, "line of the missing ';': " + e.getMessage());
        assertTrue(d.column() > 0, "column: " + e.getMessage());
        assertFinds("(?i)';'|semicolon", d.message());
        assertContains("semicolon.cu:" + d.line() + ":" + d.column(), e.getMessage());
    }

    @Test
    void undeclaredIdentifier() {
        String src = """
                __global__ void k(int* p)
                {
                    p[0] = undeclaredThing + 1;
                }
                """;
        CompileException e = compileError(src, "undeclared.cu");
        CompileException.Diagnostic d = e.diagnostics().get(0);
        assertEquals(3, d.line(), e.getMessage());
        assertEquals(12, d.column(), e.getMessage());
        assertContains("undeclaredThing", d.message());
        assertFinds("(?i)undeclared|not declared|undefined|unknown|identifier", d.message());
        assertContains("undeclaredThing", String.valueOf(d.sourceLine()));
    }

    @Test
    void unionIsUnsupported() {
        String src = """
                // a float or its bits
                union Pair { float a; int b; };
                __global__ void k(float* p)
                {
                    p[0] = 1.0f;
                }
                """;
        CompileException e = compileError(src, "union.cu");
        CompileException.Diagnostic d = e.diagnostics().get(0);
        assertEquals(2, d.line(), e.getMessage());
        assertTrue(d.column() > 0, e.getMessage());
        assertContains("unions are not supported", d.message());
    }

    @Test
    void printfWithAFormatThatIsNotALiteralIsRejected() {
        String src = """
                __global__ void k(int* p)
                {
                    int x = p[0];
                    printf(x);
                }
                """;
        CompileException e = compileError(src, "printf.cu");
        CompileException.Diagnostic d = e.diagnostics().get(0);
        assertEquals(4, d.line(), e.getMessage());
        assertEquals(12, d.column(), e.getMessage());
        assertContains("string literal", d.message());
    }

    // ---- lookup and launch checks -------------------------------------------------------------------------------

    @Test
    void unknownKernelNameListsTheKernels() {
        String src = """
                extern "C" __global__ void alpha(float* p) { p[0] = 1.0f; }
                __global__ void beta(float* p) { p[0] = 2.0f; }
                """;
        Module m = dev.compile(src, "names.cu");
        assertEquals("alpha", m.function("alpha").name());
        assertEquals("beta", m.function("beta").name());
        DeviceException e = assertThrows(DeviceException.class, () -> m.function("gamma"));
        assertEquals(CudaError.NOT_FOUND, e.error(), e.getMessage());
        assertContains("gamma", e.getMessage());
        assertContains("alpha", e.getMessage());
        assertContains("beta", e.getMessage());
    }

    @Test
    void wrongArgumentsAreRejectedAtLaunch() {
        String src = """
                __global__ void scaleBy(float* data, float factor, int count)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < count) {
                        data[i] *= factor;
                    }
                }
                """;
        KernelFunction k = kernel(dev, src, "scale-by.cu", "scaleBy");
        assertEquals(3, k.parameters().size());
        assertEquals("factor", k.parameters().get(1).name());
        Stream s = dev.defaultStream();
        UnifiedBuffer data = floats(dev, new float[] {1, 2, 3, 4});
        LaunchConfig cfg = LaunchConfig.of(1, 32);

        DeviceException count = assertThrows(DeviceException.class,
                () -> s.launch(k, cfg, KernelArgs.builder().pointer(data).f32(2f).build()));
        assertEquals(CudaError.INVALID_VALUE, count.error(), count.getMessage());
        assertContains("scaleBy", count.getMessage());
        assertContains("count", count.getMessage());
        assertContains("3", count.getMessage());

        DeviceException type = assertThrows(DeviceException.class,
                () -> s.launch(k, cfg, KernelArgs.builder().pointer(data).i32(2).i32(4).build()));
        assertEquals(CudaError.INVALID_VALUE, type.error(), type.getMessage());
        assertContains("'factor'", type.getMessage());

        DeviceException notPointer = assertThrows(DeviceException.class,
                () -> s.launch(k, cfg, KernelArgs.builder().f32(1f).f32(2f).i32(4).build()));
        assertEquals(CudaError.INVALID_VALUE, notPointer.error(), notPointer.getMessage());
        assertContains("'data'", notPointer.getMessage());

        DeviceException pointerForScalar = assertThrows(DeviceException.class,
                () -> s.launch(k, cfg, KernelArgs.builder().pointer(data).f32(2f).pointer(data).build()));
        assertEquals(CudaError.INVALID_VALUE, pointerForScalar.error(), pointerForScalar.getMessage());
        assertContains("'count'", pointerForScalar.getMessage());

        // Nothing was queued by the rejected launches; a correct one runs.
        run(dev, k, 1, 32, KernelArgs.builder().pointer(data).f32(2f).i32(4).build());
        assertArrayEquals(new float[] {2, 4, 6, 8}, readFloats(data, 4));
    }
}
