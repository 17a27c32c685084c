package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static dev.polygpu.device.cpu.kernel.RoundingOracle.PER;
import static dev.polygpu.device.cpu.kernel.RoundingOracle.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.RoundingOracle;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code add}, {@code sub}, {@code mul} (f32 and f64) and {@code fma.f32} with the rounding modifiers
 * {@code .rz}, {@code .rp} and {@code .rm} against the x86-64 processor's own rounding modes
 * ({@link RoundingOracle}). Exact zero sums are -0 under {@code .rm}, finite overflow stops at the largest value
 * where the direction points toward zero, and a product whose exact error lies below the smallest subnormal
 * still rounds the right way: the campaign's first directed-rounding kernels found all three wrong.
 */
class PtxDirectedRoundingTest {
    /** The PTX modifier of each of {@link RoundingOracle#MODES} (rz, ru, rd). */
    private static final String[] PTX_MODES = {"rz", "rp", "rm"};
    /** The operations of {@link RoundingOracle#OPS} this test checks, by index, and their PTX opcodes. */
    private static final int[] CHECKED_F32 = {0, 1, 2, 4};
    private static final int[] CHECKED_F64 = {0, 1, 2};
    private static final String[] OPCODES = {"add", "sub", "mul", "div", "fma"};

    @Test
    void f32RoundsAsTheProcessorDoes(@TempDir Path dir) throws Exception {
        assumeTrue(RoundingOracle.hasGcc(), RoundingOracle.NO_GCC);
        float[][] in = RoundingOracle.floatOperands();
        int n = in[0].length;
        long[] got;
        try (CpuDevice device = new CpuDevice(2)) {
            UnifiedBuffer out = device.allocate(8L * PER * n);
            launch(device, kernel("f32", CHECKED_F32), floats(device, in[0]), floats(device, in[1]),
                    floats(device, in[2]), out, n);
            got = readLongs(out, PER * n);
        }
        long[] want = RoundingOracle.processor(dir, in, "float", "unsigned int", "%08x", "fmaf", "sqrtf", n);
        for (int i = 0; i < n; i++) {
            for (int m = 0; m < 3; m++) {
                for (int op : CHECKED_F32) {
                    int k = PER * i + 7 * m + op;
                    float w = Float.intBitsToFloat((int) want[k]);
                    float g = Float.intBitsToFloat((int) got[k]);
                    if (!(Float.isNaN(w) && Float.isNaN(g))) {
                        assertEquals(Long.toHexString(want[k]), Long.toHexString(got[k] & 0xFFFF_FFFFL),
                                describe(k, in[0][i], in[1][i], in[2][i]));
                    }
                }
            }
        }
    }

    @Test
    void f64RoundsAsTheProcessorDoes(@TempDir Path dir) throws Exception {
        assumeTrue(RoundingOracle.hasGcc(), RoundingOracle.NO_GCC);
        double[][] in = RoundingOracle.doubleOperands();
        int n = in[0].length;
        long[] got;
        try (CpuDevice device = new CpuDevice(2)) {
            UnifiedBuffer out = device.allocate(8L * PER * n);
            launch(device, kernel("f64", CHECKED_F64), doubles(device, in[0]), doubles(device, in[1]),
                    doubles(device, in[2]), out, n);
            got = readLongs(out, PER * n);
        }
        long[] want = RoundingOracle.processor(dir, in, "double", "unsigned long long", "%016llx", "fma", "sqrt", n);
        for (int i = 0; i < n; i++) {
            for (int m = 0; m < 3; m++) {
                for (int op : CHECKED_F64) {
                    int k = PER * i + 7 * m + op;
                    double w = Double.longBitsToDouble(want[k]);
                    double g = Double.longBitsToDouble(got[k]);
                    if (!(Double.isNaN(w) && Double.isNaN(g))) {
                        assertEquals(Long.toHexString(want[k]), Long.toHexString(got[k]),
                                describe(k, in[0][i], in[1][i], in[2][i]));
                    }
                }
            }
        }
    }

    private static void launch(CpuDevice device, String ptx, UnifiedBuffer a, UnifiedBuffer b, UnifiedBuffer c,
            UnifiedBuffer out, int n) {
        Module m = PtxTestSupport.ptx(device, ptx, "directed.ptx");
        PtxTestSupport.launch(m, "k", (n + 63) / 64, 64, KernelArgs.builder().pointer(a).pointer(b).pointer(c)
                .pointer(out).i32(n).build());
    }

    /**
     * A kernel that loads a[i], b[i], c[i] and stores, for each mode, each checked operation's result at
     * {@code out[PER·i + 7·mode + op]} (8-byte slots, so that the float and double kernels read back alike).
     */
    private static String kernel(String type, int[] ops) {
        int size = type.equals("f32") ? 4 : 8;
        StringBuilder k = new StringBuilder(".version 8.0\n.target sm_90\n.address_size 64\n"
                + ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po, .param .u32 pn)\n"
                + "{\n\t.reg .b64 %rd<16>;\n\t.reg .b32 %r<8>;\n\t.reg ." + type + " %f<40>;\n\t.reg .pred %p<2>;\n"
                + "\tld.param.u64 %rd1, [pa];\n\tld.param.u64 %rd2, [pb];\n\tld.param.u64 %rd3, [pc];\n"
                + "\tld.param.u64 %rd4, [po];\n\tld.param.u32 %r5, [pn];\n"
                + "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
                + "\tmad.lo.s32 %r4, %r2, %r3, %r1;\n\tsetp.ge.s32 %p1, %r4, %r5;\n\t@%p1 bra DONE;\n"
                + "\tmul.wide.s32 %rd5, %r4, " + size + ";\n"
                + "\tadd.s64 %rd6, %rd1, %rd5;\n\tld.global." + type + " %f1, [%rd6];\n"
                + "\tadd.s64 %rd7, %rd2, %rd5;\n\tld.global." + type + " %f2, [%rd7];\n"
                + "\tadd.s64 %rd8, %rd3, %rd5;\n\tld.global." + type + " %f3, [%rd8];\n"
                + "\tmul.wide.s32 %rd9, %r4, " + 8 * PER + ";\n\tadd.s64 %rd10, %rd4, %rd9;\n");
        int reg = 4;
        for (int m = 0; m < 3; m++) {
            for (int op : ops) {
                String operands = op == 4 ? "%f1, %f2, %f3" : "%f1, %f2";
                k.append('\t').append(OPCODES[op]).append('.').append(PTX_MODES[m]).append('.').append(type)
                        .append(" %f").append(reg).append(", ").append(operands).append(";\n");
                k.append("\tst.global.").append(type).append(" [%rd10+").append(8 * (7 * m + op)).append("], %f")
                        .append(reg).append(";\n");
                reg++;
            }
        }
        return k.append("DONE:\n\tret;\n}\n").toString();
    }
}
