package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * PTX kernels (nvcc's, {@code ptx/readonly.cu}) that store through a pointer their launch passes read-only:
 * plain, vector and atomic stores fail with NOT_PERMITTED naming the kernel, the PTX line and the parameter,
 * reported at the synchronization, and the device keeps working; reading a read-only buffer, or writing one
 * passed writable as well, is unaffected.
 */
@Timeout(60)
class PtxReadOnlyParamTest {
    private static final long SEED = 7_211L;
    private static final int N = 300;
    private static CpuDevice device;
    private static Module module;

    @BeforeAll
    static void open() {
        device = new CpuDevice(2);
        module = device.load(PtxTestSupport.resource("readonly_sm75.ptx"), "readonly_sm75.ptx");
    }

    @AfterAll
    static void close() {
        device.close();
    }

    private static float[] randomFloats(int n) {
        Random r = new Random(SEED);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(2000) / 8f - 125f;
        }
        return v;
    }

    private static KernelFaultException fails(String kernel, int grid, int block, KernelArgs args) {
        return assertThrows(KernelFaultException.class, () -> launch(module, kernel, grid, block, args));
    }

    private static void assertContains(String part, String message) {
        assertTrue(message.contains(part), () -> "expected '" + part + "' in: " + message);
    }

    /** y = 2x through the reading kernel: the device still works after a fault. */
    private static void assertStillWorks() {
        float[] x = randomFloats(N);
        UnifiedBuffer y = device.allocate(N * 4L);
        launch(module, "twice", 3, 128, KernelArgs.builder().readOnlyPointer(floats(device, x)).pointer(y).i32(N)
                .build());
        float[] got = readFloats(y, N);
        for (int i = 0; i < N; i++) {
            assertEquals(x[i] + x[i], got[i], "element " + i + " (seed " + SEED + ")");
        }
    }

    @Test
    void plainStoreThroughAReadOnlyParameterFails() {
        UnifiedBuffer x = floats(device, randomFloats(N));
        UnifiedBuffer y = device.allocate(N * 4L);
        KernelFaultException e = fails("twice_both", 3, 128,
                KernelArgs.builder().readOnlyPointer(x).pointer(y).i32(N).build());
        String m = e.getMessage();
        assertEquals(CudaError.NOT_PERMITTED, e.error(), m);
        assertEquals("twice_both", e.kernel());
        assertContains("kernel 'twice_both' (readonly_sm75.ptx line 45: st.global.f32", m);
        assertContains("parameter 'twice_both_param_0' (argument 1, buffer #" + x.id() + ")", m);
        assertContains("read-only", m);
        assertContains("'inout'", m);
        assertStillWorks();
    }

    @Test
    void vectorStoreThroughAReadOnlyParameterFails() {
        UnifiedBuffer x = floats(device, randomFloats(4 * N));
        KernelFaultException e = fails("bump4", 3, 128, KernelArgs.builder().readOnlyPointer(x).i32(N).build());
        assertEquals(CudaError.NOT_PERMITTED, e.error(), e.getMessage());
        assertContains("st.global.v4.f32", e.getMessage());
        assertContains("parameter 'bump4_param_0' (argument 1", e.getMessage());
        assertStillWorks();
    }

    @Test
    void atomicThroughAReadOnlyParameterFails() {
        UnifiedBuffer x = ints(device, new int[] {5});
        KernelFaultException e = fails("count", 2, 64, KernelArgs.builder().readOnlyPointer(x).build());
        assertEquals(CudaError.NOT_PERMITTED, e.error(), e.getMessage());
        assertContains("atom.global.add.u32", e.getMessage());
        assertEquals(5, readInts(x, 1)[0], "a refused atomic leaves memory as it was");
        // The same launch with the pointer writable counts every thread.
        launch(module, "count", 2, 64, KernelArgs.builder().pointer(x).build());
        assertEquals(5 + 2 * 64, readInts(x, 1)[0]);
    }

    @Test
    void theSameLaunchWithWritablePointersComputes() {
        float[] in = randomFloats(N);
        UnifiedBuffer x = floats(device, in);
        UnifiedBuffer y = device.allocate(N * 4L);
        launch(module, "twice_both", 3, 128, KernelArgs.builder().pointer(x).pointer(y).i32(N).build());
        float[] twice = new float[N];
        for (int i = 0; i < N; i++) {
            twice[i] = in[i] * 2;
        }
        assertArrayEquals(twice, readFloats(y, N));
        assertArrayEquals(twice, readFloats(x, N));
    }

    @Test
    void aBufferPassedReadOnlyAndWritableMayBeWritten() {
        // twice(x, y) with y = x: reads through the read-only pointer, writes through the writable one (an address
        // does not say which parameter it came from, so the buffer is writable through both).
        float[] in = randomFloats(N);
        UnifiedBuffer x = floats(device, in);
        launch(module, "twice", 3, 128, KernelArgs.builder().readOnlyPointer(x).pointer(x).i32(N).build());
        float[] got = readFloats(x, N);
        for (int i = 0; i < N; i++) {
            assertEquals(in[i] * 2, got[i], "element " + i + " (seed " + SEED + ")");
        }
    }

    @Test
    void aReadOnlyBufferOfAnEarlierLaunchIsWritableInTheNext() {
        // Each worker caches the regions it found; a launch that passes x writable must not see the read-only one.
        float[] in = randomFloats(N);
        UnifiedBuffer x = floats(device, in);
        UnifiedBuffer y = device.allocate(N * 4L);
        launch(module, "twice", 3, 128, KernelArgs.builder().readOnlyPointer(x).pointer(y).i32(N).build());
        launch(module, "twice_both", 3, 128, KernelArgs.builder().pointer(x).pointer(y).i32(N).build());
        float[] got = readFloats(x, N);
        for (int i = 0; i < N; i++) {
            assertEquals(in[i] * 2, got[i], "element " + i + " (seed " + SEED + ")");
        }
    }
}
