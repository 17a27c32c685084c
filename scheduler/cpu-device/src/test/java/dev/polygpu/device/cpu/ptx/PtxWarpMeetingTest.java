package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which lanes execute a warp collective together. From sm_70 on, the lanes a member mask names may reach
 * different instructions of the same operation (nvcc's optimized code does, where it duplicates a block that
 * holds a {@code shfl.sync}), and each lane uses its own instruction's operands; lanes at one instruction with
 * disjoint masks form separate groups. Every kernel runs free-running and in lock step (a volatile load turns
 * lock step on); expected values are worked out by hand in the comments.
 */
class PtxWarpMeetingTest {
    private static final String HEAD = ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".visible .entry k(.param .u64 k_out)\n{\n"
            + "\t.reg .b64 %rd<8>;\n\t.reg .b32 %r<16>;\n\t.reg .pred %p<4>;\n"
            + "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n";
    private static final String TAIL = "\tmul.wide.u32 %rd2, %r1, 8;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
            + "\tst.global.u32 [%rd3], %r4;\n\tst.global.u32 [%rd3+4], %r5;\n\tret;\n}\n";

    /**
     * Even lanes shuffle {@code lane + 1000} at one {@code shfl.sync.bfly 1}, odd lanes {@code lane + 2000} at
     * another; then each half takes a ballot of "lane is even" at its own {@code vote.sync}.
     */
    private static final String TWO_COPIES = HEAD
            + "\tmov.u32 %r9, -1;\n\tand.b32 %r2, %r1, 1;\n\tsetp.eq.s32 %p1, %r2, 0;\n"
            + "VOLATILE"
            + "\t@%p1 bra EVEN;\n"
            + "\tadd.s32 %r3, %r1, 2000;\n\tshfl.sync.bfly.b32 %r4, %r3, 1, 31, %r9;\n"
            + "\tvote.sync.ballot.b32 %r5, %p1, %r9;\n\tbra DONE;\n"
            + "EVEN:\n\tadd.s32 %r6, %r1, 1000;\n\tshfl.sync.bfly.b32 %r4, %r6, 1, 31, %r9;\n"
            + "\tvote.sync.ballot.b32 %r5, %p1, %r9;\n"
            + "DONE:\n" + TAIL;

    /** Lanes 0-15 and 16-31 each sum their own lane numbers at one {@code redux.sync} with their half's mask. */
    private static final String HALVES = HEAD
            + "\tsetp.lt.u32 %p1, %r1, 16;\n\tselp.b32 %r2, 65535, -65536, %p1;\n"
            + "VOLATILE"
            + "\tredux.sync.add.u32 %r4, %r1, %r2;\n"
            + "\tand.b32 %r3, %r1, 1;\n\tsetp.eq.s32 %p2, %r3, 1;\n\tvote.sync.ballot.b32 %r5, %p2, %r2;\n"
            + TAIL;

    private static String mode(String kernel, boolean lockstep) {
        return kernel.replace("VOLATILE", lockstep ? "\tld.volatile.global.u32 %r12, [%rd1];\n" : "");
    }

    private static int[] run(String kernel, int threads) {
        try (CpuDevice device = new CpuDevice(1)) {
            Module m = PtxTestSupport.ptx(device, kernel, "meeting.ptx");
            UnifiedBuffer out = device.allocate(8L * threads);
            launch(m, "k", 1, threads, KernelArgs.builder().pointer(out).build());
            int[] got = new int[2 * threads];
            for (int i = 0; i < got.length; i++) {
                got[i] = out.hostView().get(ValueLayout.JAVA_INT_UNALIGNED, 4L * i);
            }
            return got;
        }
    }

    @ParameterizedTest(name = "lock step {0}")
    @ValueSource(booleans = {false, true})
    void lanesAtTwoCopiesOfAShuffleExchangeTheirOwnOperands(boolean lockstep) {
        int[] got = run(mode(TWO_COPIES, lockstep), 64);
        for (int t = 0; t < 64; t++) {
            int lane = t % 32;
            // bfly 1 reads lane ^ 1, which sits at the other copy and contributes that copy's operand
            int partner = lane ^ 1;
            int want = (partner % 2 == 0 ? 1000 : 2000) + (t - lane) + partner;
            assertEquals(want, got[2 * t], "shuffled value of thread " + t);
            assertEquals(0x55555555, got[2 * t + 1], "ballot of thread " + t);
        }
    }

    @ParameterizedTest(name = "lock step {0}")
    @ValueSource(booleans = {false, true})
    void lanesAtOneInstructionWithDisjointMasksFormSeparateGroups(boolean lockstep) {
        int[] got = run(mode(HALVES, lockstep), 32);
        for (int lane = 0; lane < 32; lane++) {
            // 0 + 1 + ... + 15 = 120 and 16 + ... + 31 = 376; the odd lanes of each half
            assertEquals(lane < 16 ? 120 : 376, got[2 * lane], "sum of lane " + lane);
            assertEquals(lane < 16 ? 0xAAAA : 0xAAAA0000, got[2 * lane + 1], "ballot of lane " + lane);
        }
    }

    @ParameterizedTest(name = "lock step {0}")
    @ValueSource(booleans = {false, true})
    void aLaneGivingAnotherMaskIsAFaultNamingBoth(boolean lockstep) {
        String odd = mode(HALVES, lockstep).replace("\tredux.sync",
                "\tsetp.eq.u32 %p3, %r1, 5;\n\t@%p3 mov.b32 %r2, -1;\n\tredux.sync");
        Throwable e = assertThrows(RuntimeException.class, () -> run(odd, 32));
        while (!(e instanceof KernelFaultException) && e.getCause() != null) {
            e = e.getCause();
        }
        assertTrue(e.getMessage().contains("names lane 5") && e.getMessage().contains("with mask 0xffffffff")
                && e.getMessage().contains("must give the same mask"), e.getMessage());
    }
}
