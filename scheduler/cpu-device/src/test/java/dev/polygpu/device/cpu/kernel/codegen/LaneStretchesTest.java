package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.ANY_NAN;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.floatScalar;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.randomDoubles;
import static dev.polygpu.device.cpu.kernel.codegen.LaneFormTest.specialFloats;
import static dev.polygpu.device.cpu.kernel.codegen.NamedKernels.compile;
import static dev.polygpu.device.cpu.kernel.codegen.NamedKernels.named;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.exec.LaneRange;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Element-wise kernels whose lanes run across blocks ({@link LaneForm#acrossBlocks}, {@code LaneEmitter.emitRun}):
 * which kernels take the form; their results against nvcc's PTX on grids whose chunks hold several blocks; and the
 * stretches the run-time checks refuse, which run block by block as before: a buffer that ends inside one (the
 * blocks before it run as lanes, the fault is the scalar loop's), arrays a block apart (each block sees what the
 * block before it stored), and a grid of several rows (a stretch never passes a row's end).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LaneStretchesTest {
    private static final long SEED = 0x57e7c4L;

    private static boolean acrossBlocks(String source) {
        CompiledKernel k = compile(source, "k");
        assertTrue(KernelCompiler.lanes(k) > 0, "runs no lanes at all: " + source);
        return KernelCompiler.acrossBlocks(k);
    }

    @Test
    void kernelsWhoseOtherValuesDoNotDependOnTheBlockRunAcrossBlocks() {
        for (String src : List.of(LaneFormTest.SAXPY, LaneFormTest.LOCALS, LaneFormTest.DOUBLES, LaneFormTest.INTS,
                LaneFormTest.SHIFTS, LaneFormTest.WIDENED)) {
            assertTrue(acrossBlocks(src), src);
        }
        // a grid-stride loop already runs each block's iterations as lanes
        assertFalse(acrossBlocks(LaneFormTest.SAXPY_GS));
        assertFalse(acrossBlocks(LaneFormTest.UNSHARPEN));
        String head = "extern \"C\" __global__ void NAME(float *y, const float *x, const float *w, int n) {\n    ";
        String index = "int i = blockIdx.x * blockDim.x + threadIdx.x; ";
        String[] blockBound = {
            index + "if (i < n) y[i] = x[i] + (float) blockIdx.x;",      // a value of the block in the body
            index + "if (i < n - (int) blockIdx.x) y[i] = x[i];",         // in the guard
            index + "int b = blockIdx.x % 2; if (i < n + b) y[i] = x[i];", // in another declaration
            "int b = blockIdx.x * blockDim.x; int i = b + threadIdx.x; if (i < n) y[i] = x[i];",
            "int i = blockIdx.y * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i];", // another coordinate
            "int i = blockIdx.x * 64 + threadIdx.x; if (i < n) y[i] = x[i];",          // not the block's width
            "int m = min(n, 3000); " + index + "if (i < m) y[i] = x[i];",               // a call in the prefix
        };
        for (String body : blockBound) {
            assertFalse(acrossBlocks(head + body + "\n}\n"), body);
        }
        // values of other coordinates, and declarations computed from values alone, are the same across a row
        assertTrue(acrossBlocks(head + "int m = n / 2 + (int) gridDim.x; " + index
                + "if (i < m) y[i] = x[i] * (float) blockIdx.y + w[i];\n}\n"));
    }

    @Test
    void stretchesAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        Random r = new Random(SEED);
        List<OracleCase> cases = new ArrayList<>();
        // {grid, block, n} on the oracle's two workers (chunks of grid / 16 blocks): whole blocks; a bound inside a
        // block; a bound long before the grid ends; wider blocks; a block width that is not a multiple of the
        // lanes (block by block)
        int[][] shapes = {{64, 64, 4096}, {48, 64, 3000}, {40, 32, 700}, {36, 128, 4600}, {40, 100, 3900}};
        for (int[] sh : shapes) {
            int total = sh[0] * sh[1];
            int n = sh[2];
            LaunchConfig cfg = LaunchConfig.of(sh[0], sh[1]);
            String name = "saxpy" + cases.size();
            cases.add(new OracleCase(name, named(LaneFormTest.SAXPY, name), name, cfg,
                    List.of(specialFloats("y", r, total), specialFloats("x", r, total), floatScalar(2.5f),
                            OracleTests.intScalar(n))));
            name = "locals" + cases.size();
            cases.add(new OracleCase(name, named(LaneFormTest.LOCALS, name), name, cfg,
                    List.of(specialFloats("out", r, total), specialFloats("p", r, total), specialFloats("q", r, total),
                            floatScalar(-1.75f), OracleTests.intScalar(n), OracleTests.intScalar(3))));
            name = "doubles" + cases.size();
            cases.add(new OracleCase(name, named(LaneFormTest.DOUBLES, name), name, cfg,
                    List.of(randomDoubles("a", r, total), randomDoubles("b", r, total), randomDoubles("c", r, total),
                            new OracleArg.Scalar(OracleType.F64, Double.doubleToRawLongBits(0.3)))));
            name = "ints" + cases.size();
            cases.add(new OracleCase(name, named(LaneFormTest.INTS, name), name, cfg,
                    List.of(OracleTests.randomInts("a", r, total), OracleTests.randomInts("b", r, total),
                            OracleTests.intScalar(-7), OracleTests.intScalar(n))));
            // z written in three parts no thread shares, x read a little behind
            int e = Math.min(n, total);
            int m = 2 * e + 5;
            name = "shifts" + cases.size();
            cases.add(new OracleCase(name, named(LaneFormTest.SHIFTS, name), name, cfg,
                    List.of(specialFloats("z", r, m + e), specialFloats("x", r, e + 6), specialFloats("y", r, m + e),
                            OracleTests.intScalar(e), OracleTests.intScalar(-3), OracleTests.intScalar(m))));
        }
        long before = LaneRange.blocksRunTogether();
        OracleTests.assertAllEqual(cases, SEED, ANY_NAN);
        assertTrue(LaneRange.blocksRunTogether() > before, "no stretch of blocks ran");
    }

    @Test
    void aBufferThatEndsInsideAStretchFaultsWhereTheScalarLoopDoes() {
        try (CpuDevice dev = new CpuDevice(1)) {
            float[] y = new float[2048];
            float[] x = new float[1000];
            Random r = new Random(SEED + 1);
            for (int k = 0; k < y.length; k++) {
                y[k] = r.nextFloat();
                if (k < x.length) {
                    x[k] = r.nextFloat() - 0.5f;
                }
            }
            UnifiedBuffer yb = floats(dev, y);
            UnifiedBuffer xb = floats(dev, x);
            var s = dev.defaultStream();
            long lanesBefore = LaneRange.threadsRun();
            long together = LaneRange.blocksRunTogether();
            // one worker, chunks of 4 blocks: 0-3, 4-7 and 8-11 run as stretches; x ends at thread 40 of block 15,
            // so the last chunk's stretch is refused and its blocks run one by one: 12-14 as lanes, 15 in the
            // scalar loop up to the fault
            s.launch(dev.compile(named(LaneFormTest.SAXPY, "oob"), "s.cu").function("oob"), LaunchConfig.of(32, 64),
                    KernelArgs.builder().pointer(yb).pointer(xb).f32(1.5f).i32(2048).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertContains("blockIdx (15,0,0) threadIdx (40,0,0)", e.getMessage());
            assertContains("out-of-bounds read of 4 bytes at index 1000 of argument 'x'", e.getMessage());
            assertEquals(12, LaneRange.blocksRunTogether() - together);
            assertEquals(15 * 64, LaneRange.threadsRun() - lanesBefore);
            float[] want = y.clone();
            for (int k = 0; k < x.length; k++) {
                want[k] = 1.5f * x[k] + y[k];
            }
            assertArrayEquals(want, readFloats(yb, y.length));
        }
    }

    /**
     * y one block's width after x in one buffer: each block reads as x what the block before it stored as y. Within
     * a block the two do not overlap, so each block runs as lanes; over two blocks they do, so no stretch runs, and
     * every block sees its predecessor's stores, as when blocks run one after another.
     */
    @Test
    void blocksThatReadWhatTheBlockBeforeStoredRunOneByOne() {
        try (CpuDevice dev = new CpuDevice(1)) {
            float[] v = new float[16 * 64 + 64];
            for (int k = 0; k < v.length; k++) {
                v[k] = (k % 13) * 0.25f + 1f;
            }
            UnifiedBuffer buf = floats(dev, v);
            var s = dev.defaultStream();
            long lanesBefore = LaneRange.threadsRun();
            long together = LaneRange.blocksRunTogether();
            s.launch(dev.compile(named(LaneFormTest.SAXPY, "chain"), "s.cu").function("chain"),
                    LaunchConfig.of(16, 64),
                    KernelArgs.builder().pointer(buf, 64 * 4L).pointer(buf).f32(0.5f).i32(1024).build());
            s.synchronize();
            assertEquals(0, LaneRange.blocksRunTogether() - together);
            assertEquals(1024, LaneRange.threadsRun() - lanesBefore);
            float[] want = v.clone();
            for (int t = 0; t < 1024; t++) {
                want[t + 64] = 0.5f * want[t] + want[t + 64];
            }
            assertArrayEquals(want, readFloats(buf, v.length));
        }
    }

    /**
     * A grid of three rows of five blocks, each row adding {@code x * (blockIdx.y + 1)} to the same elements: chunks
     * of two blocks, one of which spans two rows, and a stretch never passes a row's end.
     */
    @Test
    void aStretchStaysInsideItsRowOfTheGrid() {
        String src = """
                extern "C" __global__ void rows(float *y, const float *x, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        y[i] = x[i] * (float) (blockIdx.y + 1) + y[i];
                    }
                }
                """;
        assertTrue(KernelCompiler.acrossBlocks(KernelCompiler.compile(FrontEnd.compile(src, "r.cu").kernel("rows"))));
        try (CpuDevice dev = new CpuDevice(1)) {
            Random r = new Random(SEED + 2);
            float[] y = new float[5 * 64];
            float[] x = new float[y.length];
            for (int k = 0; k < y.length; k++) {
                y[k] = r.nextFloat();
                x[k] = r.nextFloat() * 3f;
            }
            UnifiedBuffer yb = floats(dev, y);
            UnifiedBuffer xb = floats(dev, x);
            var s = dev.defaultStream();
            long together = LaneRange.blocksRunTogether();
            s.launch(dev.compile(src, "r.cu").function("rows"), new LaunchConfig(new Dim3(5, 3, 1), Dim3.of(64), 0),
                    KernelArgs.builder().pointer(yb).pointer(xb).i32(y.length).build());
            s.synchronize();
            // chunks {0,1} {2,3} {4,5} {6,7} {8,9} {10,11} {12,13} {14}: the stretches are blocks 0-1, 2-3, 6-7,
            // 8-9 (row 1's blocks 1-2, 3-4) and 10-11, 12-13 (row 2's 0-1, 2-3); {4,5} runs (4,0) then (0,1)
            assertEquals(12, LaneRange.blocksRunTogether() - together);
            float[] want = y.clone();
            for (int row = 0; row < 3; row++) {
                for (int k = 0; k < want.length; k++) {
                    want[k] = x[k] * (float) (row + 1) + want[k];
                }
            }
            assertArrayEquals(want, readFloats(yb, y.length));
        }
    }
}
