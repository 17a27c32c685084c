package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pointers a launch passes read-only ({@link KernelArgs#isReadOnly}) on the CUDA C engine: a store, a store
 * through pointer arithmetic, an atomic or a store after casting away {@code const} fails the launch with
 * NOT_PERMITTED naming the kernel, the source line and the parameter, reported at the synchronization, and the
 * device keeps working; kernels that only read, shared and local memory, and a buffer passed read-only and
 * writable at once are unaffected.
 */
@Timeout(60)
class ReadOnlyParamTest {
    private static final long SEED = 4_517L;
    private static final int N = 1000;
    private static Device dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    private static final String SCALE = """
            __global__ void scale(float* x, float* y, float a, int n)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    y[i] = a * x[i];
                    x[i] = 0.5f;
                }
            }
            """;

    private static float[] randomFloats(int n) {
        Random r = new Random(SEED);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(4000) / 16f - 125f;
        }
        return v;
    }

    /** Launches on a stream of its own; the launch returns, the stream's synchronize throws the fault, once. */
    private static KernelFaultException fault(KernelFunction k, int grid, int block, KernelArgs args) {
        try (Stream s = dev.createStream()) {
            assertDoesNotThrow(() -> s.launch(k, LaunchConfig.of(grid, block), args), "reported by the launch");
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertDoesNotThrow(s::synchronize, "a fault is reported once");
            return e;
        }
    }

    @Test
    void aStoreThroughAReadOnlyParameterFailsNamingKernelLineAndParameter() {
        KernelFunction k = kernel(dev, SCALE, "scale.cu", "scale");
        float[] in = randomFloats(N);
        UnifiedBuffer x = floats(dev, in);
        UnifiedBuffer y = dev.allocate(N * 4L);
        KernelFaultException e = fault(k, 8, 128,
                KernelArgs.builder().readOnlyPointer(x).pointer(y).f32(3f).i32(N).build());
        String m = e.getMessage();
        assertEquals(CudaError.NOT_PERMITTED, e.error(), m);
        assertEquals("scale", e.kernel());
        assertContains("kernel 'scale' (line 6, column", m);
        assertContains("wrote to its parameter 'x' (argument 1, buffer #" + x.id() + ")", m);
        assertContains("read-only ('in' or 'const')", m);
        assertContains("declare the parameter 'inout' (or 'out')", m);

        // The device keeps working: the same kernel with x writable computes y = 3x and sets x to 0.5.
        UnifiedBuffer x2 = floats(dev, in);
        run(dev, k, 8, 128, KernelArgs.builder().pointer(x2).pointer(y).f32(3f).i32(N).build());
        float[] got = readFloats(y, N);
        float[] half = new float[N];
        for (int i = 0; i < N; i++) {
            assertEquals(3f * in[i], got[i], "element " + i + " (seed " + SEED + ")");
            half[i] = 0.5f;
        }
        assertArrayEquals(half, readFloats(x2, N));
    }

    @Test
    void pointerArithmeticFromAReadOnlyParameterStaysReadOnly() {
        String src = """
                __global__ void shift(float* x, float* y, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    float* p = x + 4;
                    if (i < n - 4) {
                        y[i] = p[i];
                        p[i] = 1.0f;
                    }
                }
                """;
        UnifiedBuffer x = floats(dev, randomFloats(N));
        KernelFaultException e = fault(kernel(dev, src, "shift.cu", "shift"), 8, 128,
                KernelArgs.builder().readOnlyPointer(x).pointer(dev.allocate(N * 4L)).i32(N).build());
        assertEquals(CudaError.NOT_PERMITTED, e.error(), e.getMessage());
        assertContains("(line 7, column", e.getMessage());
        assertContains("parameter 'x' (argument 1", e.getMessage());
    }

    @Test
    void anAtomicOnAReadOnlyParameterFailsAndLeavesMemoryAsItWas() {
        String src = """
                __global__ void count(int* total, int* seen)
                {
                    seen[blockIdx.x * blockDim.x + threadIdx.x] = 1;
                    atomicAdd(total, 1);
                }
                """;
        KernelFunction k = kernel(dev, src, "count.cu", "count");
        UnifiedBuffer total = ints(dev, new int[] {7});
        KernelFaultException e = fault(k, 2, 64,
                KernelArgs.builder().readOnlyPointer(total).pointer(dev.allocate(128 * 4L)).build());
        assertEquals(CudaError.NOT_PERMITTED, e.error(), e.getMessage());
        assertContains("parameter 'total' (argument 1", e.getMessage());
        assertEquals(7, readInts(total, 1)[0]);
        run(dev, k, 2, 64, KernelArgs.builder().pointer(total).pointer(dev.allocate(128 * 4L)).build());
        assertEquals(7 + 128, readInts(total, 1)[0]);
    }

    @Test
    void castingAwayConstDoesNotEscapeTheCheck() {
        String src = """
                __global__ void sneak(const float* x, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        ((float*) x)[i] = 2.0f;
                    }
                }
                """;
        UnifiedBuffer x = floats(dev, randomFloats(N));
        KernelFaultException e = fault(kernel(dev, src, "sneak.cu", "sneak"), 8, 128,
                KernelArgs.builder().readOnlyPointer(x).i32(N).build());
        assertEquals(CudaError.NOT_PERMITTED, e.error(), e.getMessage());
        assertContains("kernel 'sneak' (line 5, column", e.getMessage());
        assertContains("parameter 'x' (argument 1", e.getMessage());
    }

    @Test
    void aKernelThatOnlyReadsComputesWithSharedAndLocalMemory() {
        // Block sums of x*x through a shared array and a local one: stores to both are not stores through x.
        String src = """
                __global__ void sums(const float* x, const float* w, float* out, int n)
                {
                    __shared__ float part[64];
                    float local[2];
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    local[0] = i < n ? x[i] * x[i] : 0.0f;
                    local[1] = w[0];
                    part[threadIdx.x] = local[0] * local[1];
                    __syncthreads();
                    if (threadIdx.x == 0) {
                        float s = 0.0f;
                        for (int t = 0; t < blockDim.x; t++) {
                            s += part[t];
                        }
                        out[blockIdx.x] = s;
                    }
                }
                """;
        float[] in = randomFloats(N);
        int blocks = (N + 63) / 64;
        UnifiedBuffer x = floats(dev, in);
        UnifiedBuffer out = dev.allocate(blocks * 4L);
        run(dev, kernel(dev, src, "sums.cu", "sums"), blocks, 64, KernelArgs.builder().readOnlyPointer(x)
                .readOnlyPointer(floats(dev, new float[] {2f})).pointer(out).i32(N).build());
        float[] got = readFloats(out, blocks);
        for (int b = 0; b < blocks; b++) {
            float s = 0;
            for (int t = 0; t < 64; t++) {
                int i = b * 64 + t;
                s += i < N ? in[i] * in[i] * 2f : 0f;
            }
            assertEquals(s, got[b], "block " + b + " (seed " + SEED + ")");
        }
        assertArrayEquals(in, readFloats(x, N), "a read-only buffer is left as it was");
    }

    @Test
    void aBufferPassedReadOnlyAndWritableIsWrittenThroughTheWritableOne() {
        // a and b are the same buffer; a is read-only. The pointers still compare equal, as on a GPU.
        String src = """
                __global__ void inc(const float* a, float* b, int* same, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        b[i] = a[i] + 1.0f;
                    }
                    if (i == 0) {
                        same[0] = a == b ? 1 : 2;
                        same[1] = a + 3 != b + 3 ? 1 : 2;
                    }
                }
                """;
        float[] in = randomFloats(N);
        UnifiedBuffer x = floats(dev, in);
        UnifiedBuffer same = dev.allocate(8);
        run(dev, kernel(dev, src, "inc.cu", "inc"), 8, 128,
                KernelArgs.builder().readOnlyPointer(x).pointer(x).pointer(same).i32(N).build());
        float[] got = readFloats(x, N);
        for (int i = 0; i < N; i++) {
            assertEquals(in[i] + 1f, got[i], "element " + i + " (seed " + SEED + ")");
        }
        assertArrayEquals(new int[] {1, 2}, readInts(same, 2), "a == b and a + 3 == b + 3");
    }

    @Test
    void marksAreOnlyForPointers() {
        KernelArgs args = KernelArgs.builder().pointer(dev.allocate(4)).i32(1).build();
        BitSet scalar = new BitSet();
        scalar.set(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> args.withReadOnly(scalar));
        assertContains("argument 2 (int 1) is marked read-only, but only a pointer can be", e.getMessage());
        BitSet first = new BitSet();
        first.set(0);
        KernelArgs marked = args.withReadOnly(first);
        assertTrue(marked.isReadOnly(0) && !marked.isReadOnly(1) && marked.hasReadOnly());
        assertTrue(marked.toString().startsWith("[const buffer#"), marked.toString());
        assertTrue(!args.hasReadOnly() && !marked.withReadOnly(new BitSet()).hasReadOnly());
    }
}
