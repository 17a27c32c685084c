package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kernels that access {@code volatile} memory run their warps in lock step, the earliest lanes first, so lanes
 * that skipped a branch wait for the others where the branch reconverges, as on a GPU: the warp-synchronous
 * kernels of {@code warp.cu} (nvcc's PTX, {@code warp_sm90.ptx}) give the values plain Java computes, on every
 * launch (shared memory keeps what earlier blocks left in it, so a lane that read too early would see that).
 */
class PtxLockstepTest {
    private static final long SEED = 0x1D0CL;
    private static final int LAUNCHES = 5;
    private static CpuDevice device;
    private static Module warp;

    @BeforeAll
    static void start() {
        device = new CpuDevice();
        warp = device.load(PtxTestSupport.resource("warp_sm90.ptx"), "warp_sm90.ptx");
    }

    @AfterAll
    static void stop() {
        device.close();
    }

    @Test
    void lanesThatSkipAnIfReadTheSlotsItsLanesWrite() {
        int blocks = 16;
        int n = blocks * 256;
        Random r = new Random(SEED);
        int[] in = new int[n];
        int[] expected = new int[n];
        for (int i = 0; i < n; i++) {
            in[i] = r.nextInt(1000);
        }
        for (int g = 0; g < n; g++) {
            expected[g] = in[g & ~31] * 1000 + in[(g & ~31) + 1] + (g & 31);
        }
        for (int launch = 0; launch < LAUNCHES; launch++) {
            UnifiedBuffer out = ints(device, new int[n]);
            PtxTestSupport.launch(warp, "slots", blocks, 256,
                    KernelArgs.builder().pointer(ints(device, in)).pointer(out).build());
            assertArrayEquals(expected, readInts(out, n), "seed " + SEED + ", launch " + launch);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {32, 16})
    void csrProductWithAVectorOfLanesPerRow(int lanesPerRow) {
        int rows = 700;
        Random r = new Random(SEED + lanesPerRow);
        int[] ptr = new int[rows + 1];
        for (int i = 0; i < rows; i++) {
            ptr[i + 1] = ptr[i] + r.nextInt(70);
        }
        int[] cols = new int[ptr[rows]];
        int[] vals = new int[ptr[rows]];
        int[] x = new int[rows];
        for (int j = 0; j < cols.length; j++) {
            cols[j] = r.nextInt(rows);
            vals[j] = r.nextInt(201) - 100;
        }
        for (int i = 0; i < rows; i++) {
            x[i] = r.nextInt(201) - 100;
        }
        int[] expected = new int[rows];
        for (int i = 0; i < rows; i++) {
            for (int j = ptr[i]; j < ptr[i + 1]; j++) {
                expected[i] += vals[j] * x[cols[j]];
            }
        }
        for (int launch = 0; launch < LAUNCHES; launch++) {
            UnifiedBuffer y = ints(device, new int[rows]);
            PtxTestSupport.launch(warp, "spmv", 20, 256, KernelArgs.builder().pointer(ints(device, ptr))
                    .pointer(ints(device, cols)).pointer(ints(device, vals)).pointer(ints(device, x)).pointer(y)
                    .i32(rows).i32(lanesPerRow).build());
            assertArrayEquals(expected, readInts(y, rows), "seed " + (SEED + lanesPerRow) + ", launch " + launch);
        }
    }
}
