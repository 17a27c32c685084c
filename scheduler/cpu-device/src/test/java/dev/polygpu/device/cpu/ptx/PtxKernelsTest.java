package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.longs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readDoubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ulpsFloat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.ImageParam;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kernels of {@code ptx/kernels.cu} run from the committed PTX (sm_75 and sm_90) and, for comparison, from
 * the source through the CPU device's CUDA C engine; each result is checked against values computed here in
 * Java, and the PTX results against the engine's.
 */
class PtxKernelsTest {
    private static final long SEED = 20261121L;
    private static CpuDevice device;
    /** label → module: the two PTX fixtures and the CUDA C engine's build of the source. */
    private static final Map<String, Module> MODULES = new LinkedHashMap<>();

    @BeforeAll
    static void load() {
        device = new CpuDevice(4);
        MODULES.put("ptx sm_75", device.load(PtxTestSupport.resource("kernels_sm75.ptx"), "kernels_sm75.ptx"));
        MODULES.put("ptx sm_90", device.load(PtxTestSupport.resource("kernels_sm90.ptx"), "kernels_sm90.ptx"));
        MODULES.put("cuda c", device.compile(PtxTestSupport.text("kernels.cu"), "kernels.cu"));
    }

    @AfterAll
    static void close() {
        device.close();
    }

    private static boolean isPtx(String label) {
        return label.startsWith("ptx");
    }

    @Test
    void saxpy() {
        int n = 1000;
        Random rnd = new Random(SEED);
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = rnd.nextFloat() * 20 - 10;
            y[i] = rnd.nextFloat() * 100 - 50;
        }
        float a = 2.5f;
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            expected[i] = Math.fma(a, x[i], y[i]); // nvcc contracts a * x + y into fma.rn.f32
        }
        Map<String, float[]> results = new LinkedHashMap<>();
        MODULES.forEach((label, m) -> {
            UnifiedBuffer yb = floats(device, y);
            UnifiedBuffer xb = floats(device, x);
            launch(m, "saxpy", (n + 127) / 128, 128, KernelArgs.builder().pointer(yb).pointer(xb).f32(a).i32(n)
                    .build());
            results.put(label, readFloats(yb, n));
            yb.free();
            xb.free();
        });
        results.forEach((label, r) -> {
            for (int i = 0; i < n; i++) {
                if (isPtx(label)) {
                    assertEquals(expected[i], r[i], label + " seed " + SEED + " i=" + i);
                } else {
                    // the engine may or may not contract a * x + y, as C allows: either rounding is right
                    float unfused = a * x[i] + y[i];
                    assertTrue(r[i] == expected[i] || r[i] == unfused, label + " i=" + i + ": " + r[i]);
                }
            }
        });
    }

    @Test
    void gridStrideLoopOverLongIndex() {
        int n = 5000;
        double[] a = new double[n];
        double[] b = new double[n];
        Random rnd = new Random(SEED);
        for (int i = 0; i < n; i++) {
            a[i] = rnd.nextDouble() * 1e3;
            b[i] = rnd.nextDouble() * -1e3;
        }
        MODULES.forEach((label, m) -> {
            UnifiedBuffer out = device.allocate(8L * n);
            launch(m, "grid_stride_add", 4, 64, KernelArgs.builder().pointer(out).pointer(doubles(device, a))
                    .pointer(doubles(device, b)).i64(n).build());
            double[] r = readDoubles(out, n);
            for (int i = 0; i < n; i++) {
                assertEquals(a[i] + b[i] * 0.5, r[i], label + " i=" + i);
            }
        });
    }

    @Test
    void matmul2d() {
        int m = 37;
        int k = 19;
        int n = 23;
        Random rnd = new Random(SEED);
        float[] a = new float[m * k];
        float[] b = new float[k * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = rnd.nextInt(21) - 10;
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = rnd.nextInt(21) - 10;
        }
        float[] expected = new float[m * n];
        for (int r = 0; r < m; r++) {
            for (int c = 0; c < n; c++) {
                long acc = 0; // small integers: every partial sum is exact in float
                for (int i = 0; i < k; i++) {
                    acc += (long) a[r * k + i] * (long) b[i * n + c];
                }
                expected[r * n + c] = acc;
            }
        }
        MODULES.forEach((label, mod) -> {
            UnifiedBuffer cb = device.allocate(4L * m * n);
            launch(mod, "matmul", new LaunchConfig(Dim3.of((n + 7) / 8, (m + 7) / 8), Dim3.of(8, 8), 0),
                    KernelArgs.builder().pointer(floats(device, a)).pointer(floats(device, b)).pointer(cb).i32(m)
                            .i32(k).i32(n).build());
            assertArrayEquals(expected, readFloats(cb, m * n), label);
        });
    }

    @Test
    void blockReductionWithSharedMemoryAndBarriers() {
        int n = 1000;
        int[] in = new int[n];
        Random rnd = new Random(SEED);
        for (int i = 0; i < n; i++) {
            in[i] = rnd.nextInt(2001) - 1000;
        }
        int blocks = 4;
        int[] expected = new int[blocks];
        for (int i = 0; i < n; i++) {
            expected[i / 256] += in[i];
        }
        MODULES.forEach((label, m) -> {
            UnifiedBuffer out = device.allocate(4L * blocks);
            launch(m, "block_sum", blocks, 256, KernelArgs.builder().pointer(ints(device, in)).pointer(out).i32(n)
                    .build());
            assertArrayEquals(expected, readInts(out, blocks), label);
        });
    }

    @Test
    void dynamicSharedMemory() {
        int block = 128;
        int n = block * 3;
        float[] data = new float[n];
        for (int i = 0; i < n; i++) {
            data[i] = i * 1.5f + 1;
        }
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            int b = i / block;
            expected[i] = data[b * block + block - 1 - i % block];
        }
        MODULES.forEach((label, m) -> {
            UnifiedBuffer d = floats(device, data);
            launch(m, "reverse_dyn", new LaunchConfig(Dim3.of(3), Dim3.of(block), block * 4),
                    KernelArgs.builder().pointer(d).i32(n).build());
            assertArrayEquals(expected, readFloats(d, n), label);
        });
    }

    @Test
    void atomicsOnIntFloatDoubleAndCasLoop() {
        int n = 3000;
        int expectedMax = 0;
        for (int i = 0; i < n; i++) {
            expectedMax = Math.max(expectedMax, i * 7 % 1000);
        }
        int max = expectedMax;
        MODULES.forEach((label, m) -> {
            UnifiedBuffer ic = device.allocate(4);
            UnifiedBuffer fs = device.allocate(4);
            UnifiedBuffer ds = device.allocate(8);
            UnifiedBuffer um = device.allocate(4);
            UnifiedBuffer cas = device.allocate(4);
            launch(m, "atomics", 12, 256, KernelArgs.builder().pointer(ic).pointer(fs).pointer(ds).pointer(um)
                    .pointer(cas).i32(n).build());
            assertEquals(n, readInts(ic, 1)[0], label);
            assertEquals(0.5f * n, readFloats(fs, 1)[0], label);
            assertEquals((double) n * (n - 1) / 2, readDoubles(ds, 1)[0], label);
            assertEquals(max, readInts(um, 1)[0], label);
            assertEquals(3 * n, readInts(cas, 1)[0], label);
        });
    }

    @Test
    void warpShuffleReductionAndBallot() {
        int n = 200;
        int threads = 256;
        int[] in = new int[n];
        Random rnd = new Random(SEED);
        for (int i = 0; i < n; i++) {
            in[i] = rnd.nextInt(1000);
        }
        int warps = threads / 32;
        int[] sums = new int[warps];
        int[] ballots = new int[warps];
        for (int i = 0; i < n; i++) {
            sums[i / 32] += in[i];
            if (in[i] % 2 != 0) {
                ballots[i / 32] |= 1 << (i % 32);
            }
        }
        MODULES.forEach((label, m) -> {
            UnifiedBuffer s = device.allocate(4L * warps);
            UnifiedBuffer b = device.allocate(4L * warps);
            launch(m, "warp_reduce", threads / 64, 64, KernelArgs.builder().pointer(ints(device, in)).pointer(s)
                    .pointer(b).i32(n).build());
            assertArrayEquals(sums, readInts(s, warps), label);
            assertArrayEquals(ballots, readInts(b, warps), label);
        });
    }

    @Test
    void singlePrecisionMath() {
        int n = 64;
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = 0.1f + i * 0.37f;
        }
        Map<String, float[]> results = new LinkedHashMap<>();
        MODULES.forEach((label, m) -> {
            UnifiedBuffer out = device.allocate(4L * 5 * n);
            launch(m, "math_f", 1, 64, KernelArgs.builder().pointer(floats(device, x)).pointer(out).i32(n).build());
            results.put(label, readFloats(out, 5 * n));
        });
        results.forEach((label, r) -> {
            for (int i = 0; i < n; i++) {
                float v = x[i];
                assertEquals((float) Math.sqrt(v), r[5 * i], label + " sqrtf(" + v + ")");
                assertTrue(ulpsFloat((float) Math.exp(v * 0.25f), r[5 * i + 1]) <= 2, label + " expf " + v);
                assertTrue(ulpsFloat((float) Math.sin(v), r[5 * i + 2]) <= 2 || Math.abs(Math.sin(v) - r[5 * i + 2])
                        < 1e-6, label + " sinf(" + v + ") = " + r[5 * i + 2]);
                assertTrue(ulpsFloat((float) Math.pow(v, 1.5), r[5 * i + 3]) <= 2, label + " powf " + v);
                assertEquals(Math.fma(v, 2.0f, 1.0f), r[5 * i + 4], label + " fmaf " + v);
            }
        });
        float[] c = results.get("cuda c");
        for (String label : List.of("ptx sm_75", "ptx sm_90")) {
            float[] p = results.get(label);
            for (int i = 0; i < 5 * n; i++) {
                assertTrue(ulpsFloat(c[i], p[i]) <= 2, label + " vs the CUDA C engine at " + i + ": " + p[i] + " / "
                        + c[i]);
            }
        }
    }

    @Test
    void doublePrecisionMath() {
        int n = 50;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = 0.3 + i * 1.7;
        }
        MODULES.forEach((label, m) -> {
            UnifiedBuffer out = device.allocate(8L * 3 * n);
            launch(m, "math_d", 1, 64, KernelArgs.builder().pointer(doubles(device, x)).pointer(out).i32(n).build());
            double[] r = readDoubles(out, 3 * n);
            for (int i = 0; i < n; i++) {
                assertEquals(Math.sqrt(x[i]), r[3 * i], label);
                assertEquals(x[i] / (x[i] + 1.0), r[3 * i + 1], label);
                assertEquals(Math.fma(x[i], x[i], -1.0), r[3 * i + 2], label);
            }
        });
    }

    @Test
    void int64UnsignedCharAndShortParameters() {
        int n = 100;
        long[] a = new long[n];
        Random rnd = new Random(SEED);
        for (int i = 0; i < n; i++) {
            a[i] = rnd.nextLong() >> 3;
        }
        int u = 0xF00D_BEEF;
        byte c = -5;
        short s = 300;
        long[] expected = new long[n];
        int[] uexpected = new int[n];
        for (int i = 0; i < n; i++) {
            expected[i] = a[i] * 3 + c - s + a[i] / 7 - (a[i] % 5);
            uexpected[i] = (u >>> (i % 7)) ^ i;
        }
        MODULES.forEach((label, m) -> {
            UnifiedBuffer out = device.allocate(8L * n);
            UnifiedBuffer uout = device.allocate(4L * n);
            launch(m, "ints", 1, 128, KernelArgs.builder().pointer(out).pointer(uout).pointer(longs(device, a))
                    .u32(u).i8(c).i16(s).i32(n).build());
            assertArrayEquals(expected, readLongs(out, n), label);
            assertArrayEquals(uexpected, readInts(uout, n), label);
        });
    }

    @Test
    void templateInstantiations() {
        int n = 40;
        float[] f = new float[n];
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            f[i] = i * 0.5f + 0.25f;
            d[i] = i * 0.25 + 1;
        }
        MODULES.forEach((label, m) -> {
            UnifiedBuffer fb = floats(device, f);
            launch(m, "scale<float>", 1, 64, KernelArgs.builder().pointer(fb).f32(3f).i32(n).build());
            UnifiedBuffer db = doubles(device, d);
            launch(m, "scale<double>", 1, 64, KernelArgs.builder().pointer(db).f64(-2.0).i32(n).build());
            float[] fr = readFloats(fb, n);
            double[] dr = readDoubles(db, n);
            for (int i = 0; i < n; i++) {
                assertEquals(f[i] * 3f, fr[i], label);
                assertEquals(d[i] * -2.0, dr[i], label);
            }
        });
        Module ptx = MODULES.get("ptx sm_75");
        assertEquals("_Z5scaleIfEvPT_S0_i", ptx.function("_Z5scaleIfEvPT_S0_i").name());
    }

    @Test
    void namespacedKernelFromCxxPtx() {
        Module m = device.load(PtxTestSupport.resource("cxx_sm75.ptx"), "cxx_sm75.ptx");
        int n = 70;
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i * 3 - 17;
        }
        UnifiedBuffer pb = ints(device, p);
        launch(m, "aa::bb::inc_kernel", 2, 64, KernelArgs.builder().pointer(pb).i32(n).build());
        int[] pr = readInts(pb, n);
        for (int i = 0; i < n; i++) {
            assertEquals(i * 3 - 17 + 1, pr[i]);
        }
        assertEquals("_ZN2aa2bb10inc_kernelEPii", m.function("_ZN2aa2bb10inc_kernelEPii").name());
        DeviceException e = org.junit.jupiter.api.Assertions.assertThrows(DeviceException.class,
                () -> m.function("aa::inc_kernel"));
        assertEquals(CudaError.NOT_FOUND, e.error());
    }

    @Test
    void nonInlinedDeviceFunction() {
        int n = 300;
        int[] in = new int[n];
        int[] expected = new int[n];
        for (int i = 0; i < n; i++) {
            in[i] = i + 1;
            int v = in[i];
            int steps = 0;
            while (v != 1 && steps < 1000) {
                v = v % 2 == 0 ? v / 2 : 3 * v + 1;
                steps++;
            }
            expected[i] = steps;
        }
        MODULES.forEach((label, m) -> {
            UnifiedBuffer out = device.allocate(4L * n);
            launch(m, "collatz", 3, 128, KernelArgs.builder().pointer(ints(device, in)).pointer(out).i32(n).build());
            assertArrayEquals(expected, readInts(out, n), label);
        });
    }

    @Test
    void imageParametersAndStructByValue() {
        Module m = MODULES.get("ptx sm_75");
        Module cxx = device.load(PtxTestSupport.resource("cxx_sm75.ptx"), "cxx_sm75.ptx");
        List<ImageParam> saxpy = m.function("saxpy").imageParameters();
        assertEquals(List.of(new ImageParam("saxpy_param_0", 8, 8, ".u64"), new ImageParam("saxpy_param_1", 8, 8,
                ".u64"), new ImageParam("saxpy_param_2", 4, 4, ".f32"), new ImageParam("saxpy_param_3", 4, 4,
                ".u32")), saxpy);
        assertTrue(m.function("saxpy").parameters().isEmpty());
        List<ImageParam> affine = cxx.function("affine").imageParameters();
        assertEquals(new ImageParam("affine_param_1", 12, 4, ".align 4 .b8[12]"), affine.get(1));
        UnifiedBuffer p = device.allocate(64);
        DeviceException e = org.junit.jupiter.api.Assertions.assertThrows(DeviceException.class,
                () -> device.defaultStream().launch(cxx.function("affine"), LaunchConfig.of(1, 1),
                        KernelArgs.builder().pointer(p).f32(1f).build()));
        assertEquals(CudaError.INVALID_VALUE, e.error());
        assertTrue(e.getMessage().contains("12-byte aggregate"), e.getMessage());
        assertTrue(m.intermediateCode().contains(".entry saxpy"));
    }
}
