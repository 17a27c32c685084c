package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * Predicates set from immediates: nvcc writes {@code mov.pred %p, -1} for true (seen in rotated loops, where a
 * {@code not.pred} of it then guards the loop's exit). The PTX ISA makes any nonzero immediate true, so
 * {@code not.pred} of it is false and {@code xor.pred} of it with true is false.
 */
class PtxPredicateTest {
    @Test
    void aPredicateMovedFromMinusOneIsTrueAndItsNegationFalse() {
        String text = ".version 8.0\n.target sm_75\n.address_size 64\n"
                + ".visible .entry k(.param .u64 k_out)\n{\n"
                + "\t.reg .b64 %rd<2>;\n\t.reg .b32 %w<4>;\n\t.reg .pred %p<5>;\n"
                + "\tld.param.u64 %rd1, [k_out];\n"
                + "\tmov.pred %p1, -1;\n\tnot.pred %p2, %p1;\n\tsetp.ne.u64 %p3, %rd1, 0;\n\txor.pred %p4, %p1, %p3;\n"
                + "\tselp.b32 %w1, 1, 0, %p1;\n\tselp.b32 %w2, 1, 0, %p2;\n\tselp.b32 %w3, 1, 0, %p4;\n"
                + "\tst.global.b32 [%rd1], %w1;\n\tst.global.b32 [%rd1+4], %w2;\n\tst.global.b32 [%rd1+8], %w3;\n"
                + "\tret;\n}\n";
        try (CpuDevice device = new CpuDevice(1)) {
            Module m = PtxTestSupport.ptx(device, text, "pred.ptx");
            UnifiedBuffer out = device.allocate(12);
            launch(m, "k", 1, 1, KernelArgs.builder().pointer(out).build());
            var seg = out.hostView();
            assertEquals(1, seg.get(ValueLayout.JAVA_INT_UNALIGNED, 0), "mov.pred %p, -1 is true");
            assertEquals(0, seg.get(ValueLayout.JAVA_INT_UNALIGNED, 4), "not.pred of true is false");
            assertEquals(0, seg.get(ValueLayout.JAVA_INT_UNALIGNED, 8), "true xor true is false");
        }
    }

    /**
     * Logic on a predicate and an immediate: nvcc writes {@code xor.pred %p, %q, -1} for a not when {@code %q}
     * is used elsewhere too (bench/fuzz seed 7 case 18282: {@code (bool)x == (short)(a <= b)}). With the bitwise
     * form, true xor -1 was -2, still true.
     */
    @Test
    void logicWithAnImmediateTruthValueGivesATruthValue() {
        String text = ".version 8.0\n.target sm_75\n.address_size 64\n"
                + ".visible .entry k(.param .u64 k_out)\n{\n"
                + "\t.reg .b64 %rd<2>;\n\t.reg .b32 %w<7>;\n\t.reg .pred %p<9>;\n"
                + "\tld.param.u64 %rd1, [k_out];\n"
                + "\tsetp.ne.u64 %p1, %rd1, 0;\n\tsetp.eq.u64 %p2, %rd1, 0;\n"
                + "\txor.pred %p3, %p1, -1;\n\txor.pred %p4, %p2, -1;\n\tand.pred %p5, %p1, -1;\n"
                + "\tand.pred %p6, %p2, -1;\n\tor.pred %p7, %p2, -1;\n\tor.pred %p8, %p2, 0;\n"
                + "\tselp.b32 %w1, 1, 0, %p3;\n\tselp.b32 %w2, 1, 0, %p4;\n\tselp.b32 %w3, 1, 0, %p5;\n"
                + "\tselp.b32 %w4, 1, 0, %p6;\n\tselp.b32 %w5, 1, 0, %p7;\n\tselp.b32 %w6, 1, 0, %p8;\n"
                + "\tst.global.v4.b32 [%rd1], {%w1, %w2, %w3, %w4};\n\tst.global.v2.b32 [%rd1+16], {%w5, %w6};\n"
                + "\tret;\n}\n";
        try (CpuDevice device = new CpuDevice(1)) {
            Module m = PtxTestSupport.ptx(device, text, "logic.ptx");
            UnifiedBuffer out = device.allocate(24);
            launch(m, "k", 1, 1, KernelArgs.builder().pointer(out).build());
            var seg = out.hostView();
            int[] got = new int[6];
            for (int i = 0; i < 6; i++) {
                got[i] = seg.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * i);
            }
            // %p1 is true (the pointer is not null), %p2 false: !true, !false, true & true, false & true,
            // false | true, false | false.
            org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {0, 1, 1, 0, 1, 0}, got);
        }
    }
}
