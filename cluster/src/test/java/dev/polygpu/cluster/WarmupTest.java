package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.SharedSecret;
import dev.polygpu.device.CompileException;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.KernelSource;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.SchedulerConfig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A member's warm-up: the test element's whole path on the CPU device, and what makes it fail. */
class WarmupTest {
    private static final SharedSecret KEY = SharedSecret.of("warm-up test");

    private CpuDevice device;
    private Scheduler scheduler;

    @BeforeEach
    void open() {
        device = new CpuDevice(2);
        scheduler = new Scheduler(device, SchedulerConfig.DEFAULT);
    }

    @AfterEach
    void close() {
        scheduler.close();
        device.close();
    }

    private long run(String source) {
        return Warmup.run(scheduler, s -> KernelCache.build(device, new KernelSource(source, s.name(),
                s.signature())), KEY, 1 << 20);
    }

    @Test
    void theTestKernelRunsOnTheCpuDeviceAndLeavesNothingBehind() {
        long nanos = run(Warmup.SOURCE);
        assertTrue(nanos > 0, "took " + nanos + " ns");
        // Its arrays were released, and a second warm-up on the same scheduler works the same.
        assertEquals(0, scheduler.stats().outstanding(), scheduler.stats().toString());
        assertTrue(run(Warmup.SOURCE) > 0);
    }

    /** The kernel compiled as a broken toolchain or device might: each wrong in one place. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "(threadIdx.x + 1) % blockDim.x | (threadIdx.x + 2) % blockDim.x | y[0] is ",
        "v = sqrtf(fabsf(v)); | v = sqrtf(fabsf(v)) + 1e-3f; | y[",
        "atomicAdd(odd, 1); | atomicAdd(odd, 2); | the atomic count is 240, expected 120",
        "__syncthreads(); | ; | y[",
    })
    void aDeviceThatComputesAWrongResultFailsTheWarmUp(String right, String wrong, String says) {
        assertTrue(Warmup.SOURCE.contains(right), right);
        Warmup.Failed f = assertThrows(Warmup.Failed.class, () -> run(Warmup.SOURCE.replace(right, wrong)));
        assertTrue(f.getMessage().startsWith("the test kernel computed a wrong result on this device: "),
                f.getMessage());
        assertTrue(f.getMessage().contains(says), f.getMessage());
        assertEquals(0, scheduler.stats().outstanding());
    }

    @Test
    void aKernelThatDoesNotCompileFailsTheWarmUpSayingWhy() {
        Warmup.Failed f = assertThrows(Warmup.Failed.class, () -> run(Warmup.SOURCE.replace("sqrtf(", "sqrtf((")));
        assertTrue(f.getMessage().startsWith("the test kernel could not be built on this device: "), f.getMessage());
        assertTrue(f.getCause() instanceof CompileException, String.valueOf(f.getCause()));
    }

    @Test
    void aFrameLimitTooSmallForTheTestElementFailsTheWarmUp() {
        Warmup.Failed f = assertThrows(Warmup.Failed.class, () -> Warmup.run(scheduler,
                s -> KernelCache.build(device, s), KEY, 256));
        assertTrue(f.getMessage().startsWith("a steal reply did not survive the message codec: "), f.getMessage());
    }

    @Test
    void theCheckWantsBothArraysAtTheirSizes() {
        float[] x = new float[Warmup.N];
        int[] shift = new int[Warmup.N];
        java.util.Arrays.fill(shift, 1);
        byte[] y = new byte[4 * Warmup.N];
        byte[] odd = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, Warmup.N).array();
        // All zero inputs: every y is 0, and every shift is odd.
        assertNull(Warmup.check(x, shift, List.of(new ArrayData(3, 0, y), new ArrayData(4, 0, odd))));
        assertTrue(Warmup.check(x, shift, List.of(new ArrayData(3, 0, y))).startsWith(
                "the work result carries [3] instead of the arrays it writes (3, 4)"));
        assertTrue(Warmup.check(x, shift, List.of(new ArrayData(3, 0, new byte[4]), new ArrayData(4, 0, odd)))
                .contains("at their sizes"));
        byte[] nan = y.clone();
        ByteBuffer.wrap(nan).order(ByteOrder.nativeOrder()).putFloat(4 * 7, Float.NaN);
        assertEquals("y[7] is NaN, expected 0.0", Warmup.check(x, shift, List.of(new ArrayData(3, 0, nan),
                new ArrayData(4, 0, odd))));
    }
}
