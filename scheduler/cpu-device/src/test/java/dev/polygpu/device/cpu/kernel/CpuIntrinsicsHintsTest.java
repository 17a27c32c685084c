package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.longs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readDoubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cache-hint loads and stores ({@code __ldca}, {@code __ldcs}, {@code __stcs}, …: plain bounds-checked accesses
 * on the CPU) and {@code clock()}/{@code clock64()} on the CPU device's kernel engine.
 */
@Timeout(60)
class CpuIntrinsicsHintsTest {
    private static final long SEED = 20_250_612L;
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

    @ParameterizedTest
    @ValueSource(strings = {"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"})
    void cacheHintLoadsReadTheValue(String load) {
        String src = """
                __global__ void k(const float* x, const int* n, const double* d, float* y, int* m, double* e)
                {
                    int i = threadIdx.x;
                    y[i] = LOAD(&x[i]) * 2.0f;
                    m[i] = LOAD(n + i) - 1;
                    e[i] = LOAD(d + i) + 0.5;
                }
                """.replace("LOAD", load);
        int len = 64;
        Random r = new Random(SEED);
        float[] x = new float[len];
        int[] n = new int[len];
        double[] d = new double[len];
        for (int i = 0; i < len; i++) {
            x[i] = (float) r.nextGaussian();
            n[i] = r.nextInt();
            d[i] = r.nextGaussian() * 1e10;
        }
        UnifiedBuffer y = dev.allocate(4L * len);
        UnifiedBuffer m = dev.allocate(4L * len);
        UnifiedBuffer e = dev.allocate(8L * len);
        run(dev, kernel(dev, src, "ld.cu", "k"), 1, len, KernelArgs.builder().pointer(floats(dev, x))
                .pointer(ints(dev, n)).pointer(doubles(dev, d)).pointer(y).pointer(m).pointer(e).build());
        float[] ey = new float[len];
        int[] em = new int[len];
        double[] ee = new double[len];
        for (int i = 0; i < len; i++) {
            ey[i] = x[i] * 2.0f;
            em[i] = n[i] - 1;
            ee[i] = d[i] + 0.5;
        }
        assertArrayEquals(ey, readFloats(y, len), "seed " + SEED);
        assertArrayEquals(em, readInts(m, len), "seed " + SEED);
        assertArrayEquals(ee, readDoubles(e, len), "seed " + SEED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"__stwb", "__stcg", "__stcs", "__stwt"})
    void cacheHintStoresWriteTheValueConverted(String store) {
        String src = """
                __global__ void k(long long* q, unsigned char* b, float* f)
                {
                    int i = threadIdx.x;
                    STORE(&q[i], 3000000000LL * i - 7);
                    STORE(b + i, 250 + i);      // converted to unsigned char: wraps
                    STORE(&f[i], i / 4);        // int division, then float
                }
                """.replace("STORE", store);
        int len = 16;
        UnifiedBuffer q = dev.allocate(8L * len);
        UnifiedBuffer b = dev.allocate(len);
        UnifiedBuffer f = dev.allocate(4L * len);
        run(dev, kernel(dev, src, "st.cu", "k"), 1, len, KernelArgs.builder().pointer(q).pointer(b).pointer(f).build());
        long[] eq = new long[len];
        float[] ef = new float[len];
        for (int i = 0; i < len; i++) {
            eq[i] = 3_000_000_000L * i - 7;
            ef[i] = i / 4;
            assertEquals((byte) (250 + i), b.hostView().get(java.lang.foreign.ValueLayout.JAVA_BYTE, i), "byte " + i);
        }
        assertArrayEquals(eq, readLongs(q, len));
        assertArrayEquals(ef, readFloats(f, len));
    }

    @Test
    void cacheHintsOnVectorTypes() {
        String src = """
                __global__ void k(const float4* x, float4* y, const int2* a, int2* b)
                {
                    int i = threadIdx.x;
                    float4 v = __ldcs(x + i);
                    v.w = v.x + v.y;
                    __stcs(&y[i], v);
                    int2 w = __ldlu(&a[i]);
                    __stwt(b + i, make_int2(w.y, w.x));
                }
                """;
        int len = 8;
        float[] x = new float[4 * len];
        int[] a = new int[2 * len];
        for (int i = 0; i < x.length; i++) {
            x[i] = i * 1.25f - 3;
        }
        for (int i = 0; i < a.length; i++) {
            a[i] = i * 7 - 20;
        }
        UnifiedBuffer y = dev.allocate(16L * len);
        UnifiedBuffer b = dev.allocate(8L * len);
        run(dev, kernel(dev, src, "vec.cu", "k"), 1, len, KernelArgs.builder().pointer(floats(dev, x)).pointer(y)
                .pointer(ints(dev, a)).pointer(b).build());
        float[] ey = x.clone();
        int[] eb = new int[2 * len];
        for (int i = 0; i < len; i++) {
            ey[4 * i + 3] = x[4 * i] + x[4 * i + 1];
            eb[2 * i] = a[2 * i + 1];
            eb[2 * i + 1] = a[2 * i];
        }
        assertArrayEquals(ey, readFloats(y, 4 * len));
        assertArrayEquals(eb, readInts(b, 2 * len));
    }

    @Test
    void aCacheHintLoadOutOfBoundsFaultsNamingTheArgument() {
        String src = """
                __global__ void k(const float* x, float* y)
                {
                    int i = threadIdx.x;
                    y[i] = __ldcs(x + i + 1);
                }
                """;
        UnifiedBuffer y = dev.allocate(16);
        KernelFaultException e = assertThrows(KernelFaultException.class, () -> run(dev,
                kernel(dev, src, "oob.cu", "k"), 1, 4,
                KernelArgs.builder().pointer(floats(dev, new float[] {1, 2, 3, 4})).pointer(y).build()));
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error());
        assertContains("line 4", e.getMessage());
        assertContains("argument 'x'", e.getMessage());
    }

    @Test
    void aCacheHintStoreOutOfBoundsFaults() {
        String src = """
                __global__ void k(int* y)
                {
                    __stcg(y + threadIdx.x * 2, 5);
                }
                """;
        KernelFaultException e = assertThrows(KernelFaultException.class, () -> run(dev,
                kernel(dev, src, "oob2.cu", "k"), 1, 4, KernelArgs.builder().pointer(dev.allocate(16)).build()));
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error());
        assertContains("out-of-bounds write", e.getMessage());
        assertContains("argument 'y'", e.getMessage());
    }

    @Test
    void cacheHintCompileErrors() {
        CompileException a = assertThrows(CompileException.class,
                () -> dev.compile("__global__ void k(float* y) { y[0] = __ldcs(y[0]); }", "e.cu").function("k"));
        assertContains("__ldcs requires a pointer", a.diagnostics().getFirst().message());
        CompileException b = assertThrows(CompileException.class,
                () -> dev.compile("__global__ void k(float* y) { float v = __stcs(y, 1.0f); }", "e.cu").function("k"));
        assertContains("void", b.diagnostics().getFirst().message());
        CompileException c = assertThrows(CompileException.class,
                () -> dev.compile("__global__ void k(float* y) { __stcs(y); }", "e.cu").function("k"));
        assertContains("expects 2 arguments", c.diagnostics().getFirst().message());
    }

    // ---- clock -----------------------------------------------------------------------------------------------

    @Test
    void clock64IncreasesWithinAThreadAndShowsASleep() {
        String src = """
                __global__ void k(long long* dt, long long* busy, long* viaClock)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    long long t0 = clock64();
                    __nanosleep(1000000);
                    dt[i] = clock64() - t0;
                    long long t1 = clock64();
                    float s = 0;
                    for (int j = 0; j < 1000; j++) s += j * 0.5f;
                    busy[i] = clock64() - t1 + (s < 0 ? 1 : 0);
                    clock_t c0 = clock();
                    viaClock[i] = clock() - c0;
                }
                """;
        int blocks = 2;
        int threads = 64;
        int n = blocks * threads;
        UnifiedBuffer dt = longs(dev, new long[n]);
        UnifiedBuffer busy = longs(dev, new long[n]);
        UnifiedBuffer via = longs(dev, new long[n]);
        run(dev, kernel(dev, src, "clock.cu", "k"), blocks, threads,
                KernelArgs.builder().pointer(dt).pointer(busy).pointer(via).build());
        long[] d = readLongs(dt, n);
        long[] b = readLongs(busy, n);
        long[] v = readLongs(via, n);
        for (int i = 0; i < n; i++) {
            // Every thread slept 1 ms between its readings, whether or not it waited itself (the block's threads
            // share their waits): the counter is in nanoseconds.
            assertTrue(d[i] >= 1_000_000, "thread " + i + ": clock64 advanced by " + d[i] + " over a 1 ms sleep");
            assertTrue(b[i] >= 0, "thread " + i + ": clock64 went back by " + b[i]);
            assertTrue(v[i] >= 0, "thread " + i + ": clock went back by " + v[i]);
        }
    }

    @Test
    void clockIsLongAndClock64IsLongLong() {
        // sizeof shows the types: clock_t is long (8 bytes) on 64-bit Linux, as CUDA 13 declares clock().
        String src = """
                __global__ void k(int* s)
                {
                    s[0] = sizeof(clock());
                    s[1] = sizeof(clock64());
                    s[2] = clock() > 0;
                    s[3] = clock64() > 0;
                }
                """;
        UnifiedBuffer s = ints(dev, new int[4]);
        run(dev, kernel(dev, src, "sz.cu", "k"), 1, 1, KernelArgs.builder().pointer(s).build());
        int[] got = readInts(s, 4);
        assertEquals(8, got[0]);
        assertEquals(8, got[1]);
        assertEquals(1, got[2], "clock() is positive");
        assertEquals(1, got[3], "clock64() is positive");
    }

    @Test
    void globaltimerIsRefusedAsNvccRefusesIt() {
        CompileException e = assertThrows(CompileException.class, () -> dev.compile(
                "__global__ void k(unsigned long long* t) { t[0] = __globaltimer(); }", "g.cu").function("k"));
        assertContains("'__globaltimer' is not a CUDA C function", e.diagnostics().getFirst().message());
        assertContains("clock64()", e.diagnostics().getFirst().message());
    }
}
