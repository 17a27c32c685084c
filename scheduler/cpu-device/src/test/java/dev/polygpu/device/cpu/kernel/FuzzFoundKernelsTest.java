package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kernels reduced from bench/fuzz's findings ({@code oracle-corpus/fuzzfound.cu}, where OracleCorpusTest
 * also checks them against nvcc's PTX) on the CUDA C engine alone, against values derived by hand from C++'s and
 * PTX's rules (each derivation is beside its check), so that they run without nvcc too.
 */
class FuzzFoundKernelsTest {
    private static final long SEED = 3_600_036L;
    private static CpuDevice dev;
    private static Module module;

    @BeforeAll
    static void compile() throws IOException {
        dev = new CpuDevice(2);
        try (InputStream in = FuzzFoundKernelsTest.class.getResourceAsStream("/oracle-corpus/fuzzfound.cu")) {
            module = dev.compile(new String(in.readAllBytes(), StandardCharsets.UTF_8), "fuzzfound.cu");
        }
    }

    @AfterAll
    static void close() {
        dev.close();
    }

    private static int[] inputs(int n, int bound) {
        Random r = new Random(SEED);
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(2 * bound + 1) - bound;
        }
        return v;
    }

    /** m(a, b) = a b + 1 and via(x) = m(x, 5): each call's parameters are its own, whatever its arguments call. */
    @Test
    void aCallInTheArgumentsOfACallOfTheSameFunctionKeepsTheOuterParameters() {
        int n = 64;
        int[] x = inputs(n, 1000);
        UnifiedBuffer in = ints(dev, x);
        UnifiedBuffer out = dev.allocate(8L * 4 * n);
        run(dev, module.function("nested_same_call"), 2, 32, KernelArgs.builder().pointer(in).pointer(out).build());
        long[] got = readLongs(out, 4 * n);
        for (int i = 0; i < n; i++) {
            long v = x[i];
            assertEquals(33, got[4 * i], "m(2, m(3, 5)) = 2 * 16 + 1");
            assertEquals(v * ((v + 1) * 5 + 1) + 1, got[4 * i + 1], "m(x, via(x + 1)), x = " + v + ", seed " + SEED);
            assertEquals((2 * v + 1) * (3 * v + 1) + 1, got[4 * i + 2], "m(m(x, 2), m(3, x)), x = " + v);
            assertEquals((5 * v + 1) * (11 * v + 1) + 1, got[4 * i + 3], "m(via(x), m(x, via(2))), x = " + v);
        }
    }

    /**
     * PTX's shfl takes the low 5 bits of its lane or offset operand (b[4:0]); CUDA's width w makes segments of
     * w lanes from base = lane &amp; ~(w-1): up reads lane - b if that is not below base, down and xor read
     * lane + b and lane ^ b if that is not above base + w - 1 (xor may so read an earlier segment), idx reads
     * base + (b &amp; (w-1)); otherwise a lane gets its own value.
     */
    @Test
    void shuffleLanesAndDeltasUseTheirLowFiveBits() {
        int n = 128;
        int[] v = inputs(n, 1 << 29);
        UnifiedBuffer in = ints(dev, v);
        UnifiedBuffer out = dev.allocate(4L * 8 * n);
        run(dev, module.function("wide_lane_args"), 2, 64, KernelArgs.builder().pointer(in).pointer(out).build());
        int[] got = readInts(out, 8 * n);
        for (int t = 0; t < n; t++) {
            int lane = t & 31;
            int w = t - lane;
            int b8 = lane & ~7;
            int b16 = lane & ~15;
            int[] want = {
                v[w + (lane + 1 <= 31 ? lane + 1 : lane)], // down by 33: b = 1
                v[w + (lane >= 31 ? lane - 31 : lane)], // up by 0xffffffff: b = 31
                v[w + (lane ^ 5)], // xor 37: b = 5
                v[w + ((lane + 8) & 31)], // idx lane + 40: b = (lane + 8) & 31
                v[w + (lane + 2 <= b8 + 7 ? lane + 2 : lane)], // down by 34 in 8 lanes: b = 2
                v[w + (lane - 1 >= b16 ? lane - 1 : lane)], // up by 65 in 16 lanes: b = 1
                v[w + ((lane ^ 16) <= b16 + 15 ? lane ^ 16 : lane)], // xor 48 in 16 lanes: b = 16
                v[w + b8 + 7], // idx -1 in 8 lanes: b = 31, & 7
            };
            for (int k = 0; k < 8; k++) {
                assertEquals(want[k], got[8 * t + k], "thread " + t + ", shuffle " + k + ", seed " + SEED);
            }
        }
    }

    /**
     * C++ [expr.cond]: operands of one type give a result of that type (so sizeof is 2 for two shorts, and T
     * deduces short); mixed types go through the usual arithmetic conversions (short and int give int), and
     * arithmetic on the result promotes it. Explicit template arguments are not deduced again: the arguments
     * convert to them (70000 to short is 70000 - 65536 = 4464; 2.5f to int is 2).
     */
    @Test
    void conditionalsOfOneTypeKeepItAndExplicitTemplateArgumentsConvert() {
        int n = 96;
        int[] c = inputs(n, 50000);
        UnifiedBuffer in = ints(dev, c);
        UnifiedBuffer out = dev.allocate(4L * 8 * n);
        run(dev, module.function("conditional_and_template_types"), 2, 48,
                KernelArgs.builder().pointer(in).pointer(out).build());
        int[] got = readInts(out, 8 * n);
        for (int i = 0; i < n; i++) {
            short s = (short) (c[i] >> 4);
            int u = c[i] & 255;
            short a = c[i] > 0 ? 5 : s;
            int[] want = {
                2,
                Math.abs(a - s),
                1 + 10 * 4,
                ((c[i] & 2) != 0 ? 200 : u) + 100,
                (u + 3) & 255,
                (short) (s + 4464),
                (short) (20 + (short) c[i]),
                1 + 10 * 1,
            };
            for (int k = 0; k < 8; k++) {
                assertEquals(want[k], got[8 * i + k], "c = " + c[i] + ", slot " + k + ", seed " + SEED);
            }
        }
    }

    /**
     * The whole kernel, functions inlined, is one JVM method, which may not exceed 65,535 bytes of code; 4,000
     * statements of a few operations each exceed it. That is a compile error at the kernel, not an internal one
     * (found by bench/fuzz in a large generated kernel with barriers).
     */
    @Test
    void aKernelTooLargeForOneJvmMethodIsACompileErrorAtTheKernel() {
        StringBuilder src = new StringBuilder("\n__global__ void big(int* o, int n) {\n");
        for (int i = 0; i < 4000; i++) {
            src.append("    o[(n + ").append(i).append(") & 7] += n * ").append(i).append(";\n");
        }
        src.append("}\n");
        CompileException e = assertThrows(CompileException.class, () -> dev.compile(src.toString(), "big.cu"));
        CompileException.Diagnostic d = e.diagnostics().getFirst();
        assertTrue(d.message().contains("kernel 'big' is too large for the CPU device's kernel engine"), d.message());
        assertEquals(2, d.line(), d.toString());
        assertTrue(d.column() > 0, d.toString());
    }
}
