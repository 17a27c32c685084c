package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static dev.polygpu.device.cpu.kernel.RoundingOracle.MODES;
import static dev.polygpu.device.cpu.kernel.RoundingOracle.PER;
import static dev.polygpu.device.cpu.kernel.RoundingOracle.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.cpu.CpuDevice;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The directed-rounding intrinsics ({@code __fadd_rz} … {@code __drcp_rd}: add, sub, mul, div, fma, sqrt and
 * rcp, toward zero, +infinity and -infinity) against the x86-64 processor's own rounding modes
 * ({@link RoundingOracle}); NaN results compare equal whatever their payload.
 */
class DirectedRoundingTest {
    @Test
    void floatsRoundAsTheProcessorDoes(@TempDir Path dir) throws Exception {
        assumeTrue(RoundingOracle.hasGcc(), RoundingOracle.NO_GCC);
        float[][] in = RoundingOracle.floatOperands();
        int n = in[0].length;
        StringBuilder k = new StringBuilder("__global__ void k(const float* a, const float* b, const float* c,"
                + " unsigned int* out, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                + "    if (i >= n) return;\n    float x = a[i], y = b[i], z = c[i];\n"
                + "    unsigned int* o = out + " + PER + " * i;\n");
        for (int m = 0; m < 3; m++) {
            String r = MODES[m];
            String[] calls = {"__fadd_" + r + "(x, y)", "__fsub_" + r + "(x, y)", "__fmul_" + r + "(x, y)",
                "__fdiv_" + r + "(x, y)", "__fmaf_" + r + "(x, y, z)", "__fsqrt_" + r + "(x)", "__frcp_" + r + "(x)"};
            for (int j = 0; j < calls.length; j++) {
                k.append("    o[").append(7 * m + j).append("] = __float_as_uint(").append(calls[j]).append(");\n");
            }
        }
        k.append("}\n");
        int[] got;
        try (CpuDevice dev = new CpuDevice(2)) {
            var out = dev.allocate(4L * PER * n);
            KernelTestSupport.run(dev, KernelTestSupport.kernel(dev, k.toString(), "directed.cu", "k"), (n + 63) / 64,
                    64, KernelArgs.builder().pointer(floats(dev, in[0])).pointer(floats(dev, in[1]))
                            .pointer(floats(dev, in[2])).pointer(out).i32(n).build());
            got = readInts(out, PER * n);
        }
        long[] want = RoundingOracle.processor(dir, in, "float", "unsigned int", "%08x", "fmaf", "sqrtf", n);
        for (int i = 0; i < PER * n; i++) {
            float w = Float.intBitsToFloat((int) want[i]);
            float g = Float.intBitsToFloat(got[i]);
            if (!(Float.isNaN(w) && Float.isNaN(g))) {
                assertEquals(Integer.toHexString((int) want[i]), Integer.toHexString(got[i]),
                        describe(i, in[0][i / PER], in[1][i / PER], in[2][i / PER]));
            }
        }
    }

    @Test
    void doublesRoundAsTheProcessorDoes(@TempDir Path dir) throws Exception {
        assumeTrue(RoundingOracle.hasGcc(), RoundingOracle.NO_GCC);
        double[][] in = RoundingOracle.doubleOperands();
        int n = in[0].length;
        StringBuilder k = new StringBuilder("__global__ void k(const double* a, const double* b, const double* c,"
                + " unsigned long long* out, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                + "    if (i >= n) return;\n    double x = a[i], y = b[i], z = c[i];\n"
                + "    unsigned long long* o = out + " + PER + " * i;\n");
        for (int m = 0; m < 3; m++) {
            String r = MODES[m];
            String[] calls = {"__dadd_" + r + "(x, y)", "__dsub_" + r + "(x, y)", "__dmul_" + r + "(x, y)",
                "__ddiv_" + r + "(x, y)", "__fma_" + r + "(x, y, z)", "__dsqrt_" + r + "(x)", "__drcp_" + r + "(x)"};
            for (int j = 0; j < calls.length; j++) {
                k.append("    o[").append(7 * m + j).append("] = __double_as_longlong(").append(calls[j])
                        .append(");\n");
            }
        }
        k.append("}\n");
        long[] got;
        try (CpuDevice dev = new CpuDevice(2)) {
            var out = dev.allocate(8L * PER * n);
            KernelTestSupport.run(dev, KernelTestSupport.kernel(dev, k.toString(), "directed.cu", "k"), (n + 63) / 64,
                    64, KernelArgs.builder().pointer(doubles(dev, in[0])).pointer(doubles(dev, in[1]))
                            .pointer(doubles(dev, in[2])).pointer(out).i32(n).build());
            got = readLongs(out, PER * n);
        }
        long[] want = RoundingOracle.processor(dir, in, "double", "unsigned long long", "%016llx", "fma", "sqrt", n);
        for (int i = 0; i < PER * n; i++) {
            double w = Double.longBitsToDouble(want[i]);
            double g = Double.longBitsToDouble(got[i]);
            if (!(Double.isNaN(w) && Double.isNaN(g))) {
                assertEquals(Long.toHexString(want[i]), Long.toHexString(got[i]),
                        describe(i, in[0][i / PER], in[1][i / PER], in[2][i / PER]));
            }
        }
    }

}
