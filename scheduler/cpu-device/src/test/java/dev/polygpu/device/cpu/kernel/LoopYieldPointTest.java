package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cuda.NvccTool;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Loops that hold a yield point run the iterations C gives them on the kernel engine: a thread resumed after a
 * barrier keeps the loop's variables (those of a for-init with several declarators included) and goes on from
 * the barrier, not from the loop's start. Each case is checked against its hand-worked model and, where the
 * PTX interpreter can run it, against nvcc's PTX of the same source run there (skipped without nvcc).
 */
// A loop that reruns its start never ends: the separate thread lets the timeout fail the test instead of hanging.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LoopYieldPointTest {
    private static Device dev;

    @BeforeAll
    static void start() {
        dev = new CpuDevice();
    }

    @AfterAll
    static void stop() {
        dev.close();
    }

    static List<LoopYieldCases.Case> cases() {
        return LoopYieldCases.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void engineGivesTheModelsValues(LoopYieldCases.Case c) {
        assertArrayEquals(expected(c), run(dev.compile(c.source(), c.name() + ".cu"), c), c.name());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void engineAgreesWithNvccPtx(LoopYieldCases.Case c) throws Exception {
        assumeTrue(c.noOracle() == null, () -> "no PTX oracle for " + c.name() + ": " + c.noOracle());
        String ptx = NvccTool.ptxOf(c.source(), "sm_90", List.of("-fmad=false"));
        Module m = dev.load(ptx.getBytes(StandardCharsets.UTF_8), c.name() + ".ptx");
        int[] oracle = run(m, c);
        assertArrayEquals(expected(c), oracle, "nvcc's PTX disagrees with the model of " + c.name());
        assertArrayEquals(oracle, run(dev.compile(c.source(), c.name() + ".cu"), c), c.name());
    }

    private static int[] expected(LoopYieldCases.Case c) {
        int[] r = new int[LoopYieldCases.THREADS * c.words()];
        for (int t = 0; t < LoopYieldCases.THREADS; t++) {
            System.arraycopy(c.model().of(t, c.n()), 0, r, t * c.words(), c.words());
        }
        return r;
    }

    private static int[] run(Module m, LoopYieldCases.Case c) {
        int n = LoopYieldCases.THREADS * c.words();
        UnifiedBuffer out = KernelTestSupport.ints(dev, new int[n]);
        try {
            dev.defaultStream().launch(m.function(c.name()), LaunchConfig.of(1, LoopYieldCases.THREADS),
                    KernelArgs.builder().pointer(out).i32(c.n()).build());
            dev.synchronize();
            return KernelTestSupport.readInts(out, n);
        } finally {
            out.free();
        }
    }
}
