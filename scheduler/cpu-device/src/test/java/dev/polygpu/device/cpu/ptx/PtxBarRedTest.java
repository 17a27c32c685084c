package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * {@code bar.red}, the barrier nvcc compiles {@code __syncthreads_count/_and/_or} to: each block reduces its own
 * threads' predicates (PTX ISA: popc counts the threads whose predicate is true, and/or combine them), with
 * the predicate operand negated where written {@code !%p}.
 */
class PtxBarRedTest {
    /** Two blocks of 96 threads; the predicate is gid &lt; 100: true for all 96 of block 0 and 4 of block 1. */
    private static final String KERNEL = ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".visible .entry k(.param .u64 k_out)\n{\n"
            + "\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<12>;\n\t.reg .pred %p<8>;\n"
            + "\tld.param.u64 %rd1, [k_out];\n"
            + "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
            + "\tmad.lo.s32 %r4, %r2, %r3, %r1;\n"
            + "\tsetp.lt.s32 %p1, %r4, 100;\n\tsetp.lt.s32 %p5, %r4, 1000;\n"
            + "\tbar.red.popc.u32 %r5, 0, %p1;\n"
            + "\tbar.red.popc.u32 %r6, 0, !%p1;\n"
            + "\tbar.red.and.pred %p2, 0, %p1;\n"
            + "\tbarrier.red.or.pred %p3, 0, %p1;\n"
            + "\tbar.red.and.pred %p4, 0, %p5;\n"
            + "\tbar.red.or.pred %p6, 0, !%p5;\n"
            + "\tselp.u32 %r7, 1, 0, %p2;\n\tselp.u32 %r8, 1, 0, %p3;\n"
            + "\tselp.u32 %r9, 1, 0, %p4;\n\tselp.u32 %r10, 1, 0, %p6;\n"
            + "\tmul.wide.s32 %rd2, %r4, 24;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
            + "\tst.global.u32 [%rd3], %r5;\n\tst.global.u32 [%rd3+4], %r6;\n\tst.global.u32 [%rd3+8], %r7;\n"
            + "\tst.global.u32 [%rd3+12], %r8;\n\tst.global.u32 [%rd3+16], %r9;\n\tst.global.u32 [%rd3+20], %r10;\n"
            + "\tret;\n}\n";

    @Test
    void eachBlockCountsAndCombinesItsOwnThreadsPredicates() {
        try (CpuDevice device = new CpuDevice(2)) {
            Module m = PtxTestSupport.ptx(device, KERNEL, "barred.ptx");
            UnifiedBuffer out = device.allocate(24L * 192);
            launch(m, "k", 2, 96, KernelArgs.builder().pointer(out).build());
            var seg = out.hostView();
            for (int gid = 0; gid < 192; gid++) {
                int[] got = new int[6];
                for (int k = 0; k < 6; k++) {
                    got[k] = seg.get(ValueLayout.JAVA_INT_UNALIGNED, 24L * gid + 4L * k);
                }
                // popc, popc of the negation, and, or, and of all-true, or of all-false
                int[] want = gid < 96 ? new int[] {96, 0, 1, 1, 1, 0} : new int[] {4, 92, 0, 1, 1, 0};
                assertArrayEquals(want, got, "thread " + gid);
            }
        }
    }

    @Test
    void aThreadCountOrARegisterBarrierNumberIsRefusedByName() {
        try (CpuDevice device = new CpuDevice(1)) {
            String counted = KERNEL.replace("bar.red.popc.u32 %r5, 0, %p1;", "bar.red.popc.u32 %r5, 0, 96, %p1;");
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> PtxTestSupport.ptx(device, counted, "barred.ptx").function("k"));
            assertTrue(e.getMessage().contains("thread count"), e.getMessage());
            String mismatched = KERNEL.replace("bar.red.popc.u32 %r5, 0, %p1;", "bar.red.popc.pred %p7, 0, %p1;");
            e = assertThrows(RuntimeException.class,
                    () -> PtxTestSupport.ptx(device, mismatched, "barred.ptx").function("k"));
            assertTrue(e.getMessage().contains(".popc.u32"), e.getMessage());
        }
    }
}
