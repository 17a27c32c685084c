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

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.exec.LaneRange;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleTests;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Element-wise kernels whose lanes run across blocks ({@link LaneForm#acrossBlocks}, {@code LaneEmitter.emitRun}):
 * which kernels take the form; their results, straight and grid-stride, against nvcc's PTX on grids whose chunks
 * hold several blocks; and the stretches the run-time checks refuse, which run block by block as before: a buffer
 * that ends inside one (the blocks before it run as lanes, the fault is the scalar loop's), a grid-stride loop past
 * its buffer, a step below the stretch's threads, arrays a block apart (each block sees what the block before it
 * stored), and a grid of several rows (a stretch never passes a row's end).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LaneStretchesTest {
    private static final long SEED = 0x57e7c4L;

    /** A grid-stride loop whose step is a parameter: below the stretch's threads the blocks run one by one. */
    private static final String STEP = """
            extern "C" __global__ void NAME(double *y, const double *x, int n, int step) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
                    y[i] -= x[i] / 3.0;
                }
            }
            """;

    private static boolean acrossBlocks(String source) {
        CompiledKernel k = compile(source, "k");
        assertTrue(KernelCompiler.lanes(k) > 0, "runs no lanes at all: " + source);
        return KernelCompiler.acrossBlocks(k);
    }

    @Test
    void kernelsWhoseOtherValuesDoNotDependOnTheBlockRunAcrossBlocks() {
        for (String src : List.of(LaneFormTest.SAXPY, LaneFormTest.LOCALS, LaneFormTest.DOUBLES, LaneFormTest.INTS,
                LaneFormTest.SHIFTS, LaneFormTest.WIDENED, LaneFormTest.SAXPY_GS, LaneFormTest.UNSHARPEN,
                LaneFormTest.EXTEND, STEP)) {
            assertTrue(acrossBlocks(src), src);
        }
        // the index is blockIdx.x * blockDim.x * w + threadIdx.x: consecutive blocks are w widths apart
        assertFalse(acrossBlocks(LaneFormTest.STEP));
        // a step that differs from block to block
        assertFalse(acrossBlocks("extern \"C\" __global__ void NAME(float *y, int n) {\n    for (int i = blockIdx.x"
                + " * blockDim.x + threadIdx.x; i < n; i += blockIdx.x + 1) y[i] = 1.0f;\n}\n"));
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
            LaneFormTest.addStraightCases(cases, r, sh[0], sh[1], n);
            String name = "ints" + cases.size();
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

    /** {@code LaneFormTest}'s random element-wise kernels, on grids whose chunks hold several blocks. */
    @Test
    void randomElementWiseStretchesAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        long seed = SEED + 5;
        Random r = new Random(seed);
        List<OracleCase> cases = new ArrayList<>();
        for (int c = 0; c < 24; c++) {
            boolean dbl = c % 3 == 2;
            String t = dbl ? "double" : "float";
            String name = "rnd" + c;
            List<String> vars = new ArrayList<>(List.of("p[i]", "q[i]", "o[i]", "s", "k", "q[i + 1]"));
            String src = "extern \"C\" __global__ void " + name + "(" + t + " *o, " + t + " *p, const " + t + " *q, "
                    + t + " s, " + t + " k, int n) {\n"
                    + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    + "    if (i < n) {\n"
                    + "        p[i] = " + LaneFormTest.expression(r, vars, 3) + ";\n"
                    + "        o[i] = " + LaneFormTest.expression(r, vars, 3) + ";\n"
                    + "    }\n}\n";
            assertTrue(KernelCompiler.acrossBlocks(KernelCompiler.compile(FrontEnd.compile(src, "t.cu").kernel(name))),
                    src);
            int block = new int[] {32, 64, 128}[r.nextInt(3)];
            int grid = 20 + r.nextInt(45);
            int total = grid * block;
            int n = total / 2 + r.nextInt(total / 2 + 1);
            cases.add(new OracleCase(name, src, name, LaunchConfig.of(grid, block), List.of(
                    dbl ? randomDoubles("o", r, total) : specialFloats("o", r, total),
                    dbl ? randomDoubles("p", r, total) : specialFloats("p", r, total),
                    dbl ? randomDoubles("q", r, total + 1) : specialFloats("q", r, total + 1),
                    dbl ? LaneFormTest.doubleScalar(r.nextGaussian()) : floatScalar((float) r.nextGaussian()),
                    dbl ? LaneFormTest.doubleScalar(-1.5) : floatScalar(0.25f),
                    OracleTests.intScalar(n))));
        }
        long before = LaneRange.blocksRunTogether();
        OracleTests.assertAllEqual(cases, seed, ANY_NAN);
        assertTrue(LaneRange.blocksRunTogether() > before, "no stretch of blocks ran");
    }

    @Test
    void gridStrideStretchesAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        Random r = new Random(SEED + 3);
        List<OracleCase> cases = new ArrayList<>();
        // {grid, block, n}: several iterations, the last one inside a block; exactly one; a bound before the grid
        // ends; wide blocks; a block width that is not a multiple of the lanes
        int[][] shapes = {{48, 64, 10000}, {64, 32, 2048}, {40, 64, 1500}, {36, 128, 20000}, {40, 100, 9000}};
        for (int[] sh : shapes) {
            int n = sh[2];
            int threads = sh[0] * sh[1];
            LaunchConfig cfg = LaunchConfig.of(sh[0], sh[1]);
            String name = "gs" + cases.size();
            cases.add(new OracleCase(name, named(LaneFormTest.SAXPY_GS, name), name, cfg,
                    List.of(specialFloats("y", r, n), specialFloats("x", r, n), floatScalar(-0.75f),
                            OracleTests.intScalar(n))));
            name = "unsharpen" + cases.size();
            cases.add(new OracleCase(name, named(LaneFormTest.UNSHARPEN, name), name, cfg,
                    List.of(specialFloats("x", r, n), specialFloats("y", r, n), OracleTests.randomFloats("res", r, n),
                            floatScalar(0.5f), OracleTests.intScalar(n))));
            name = "extend" + cases.size();
            cases.add(new OracleCase(name, named(LaneFormTest.EXTEND, name), name, cfg,
                    List.of(specialFloats("x", r, n), specialFloats("minimum", r, 1), specialFloats("maximum", r, 1),
                            specialFloats("w", r, 8), OracleTests.intScalar(n), OracleTests.intScalar(5))));
            // a step of two grids (a smaller one lets blocks share elements, whose order between blocks running
            // at once is the race CUDA leaves undefined: aStepBelowAStretchsThreadsRunsItsBlocksOneByOne)
            int m = 3 * threads + n;
            name = "step" + cases.size();
            cases.add(new OracleCase(name, named(STEP, name), name, cfg,
                    List.of(randomDoubles("y", r, m), randomDoubles("x", r, m), OracleTests.intScalar(m),
                            OracleTests.intScalar(2 * threads))));
        }
        long before = LaneRange.blocksRunTogether();
        OracleTests.assertAllEqual(cases, SEED + 3, ANY_NAN);
        assertTrue(LaneRange.blocksRunTogether() > before, "no stretch of blocks ran");
    }

    /**
     * A step of one and a half blocks: two blocks' threads would share elements, so no stretch runs; each block
     * alone runs as lanes (a step of at least its width), one after another, every element getting each update.
     */
    @Test
    void aStepBelowAStretchsThreadsRunsItsBlocksOneByOne() {
        String src = """
                extern "C" __global__ void halves(float *y, const float *x, int n, int step) {
                    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
                        y[i] = y[i] * 0.5f + x[i];
                    }
                }
                """;
        try (CpuDevice dev = new CpuDevice(1)) {
            Random r = new Random(SEED + 4);
            int n = 3000;
            float[] y = new float[n];
            float[] x = new float[n];
            for (int k = 0; k < n; k++) {
                y[k] = r.nextFloat() * 100f;
                x[k] = r.nextFloat();
            }
            UnifiedBuffer yb = floats(dev, y);
            UnifiedBuffer xb = floats(dev, x);
            var s = dev.defaultStream();
            long lanesBefore = LaneRange.threadsRun();
            long together = LaneRange.blocksRunTogether();
            s.launch(dev.compile(src, "h.cu").function("halves"), LaunchConfig.of(16, 64),
                    KernelArgs.builder().pointer(yb).pointer(xb).i32(n).i32(96).build());
            s.synchronize();
            assertEquals(0, LaneRange.blocksRunTogether() - together);
            assertTrue(LaneRange.threadsRun() > lanesBefore, "no block ran as lanes");
            float[] want = y.clone();
            for (int b = 0; b < 16; b++) {
                for (int i = b * 64; i < b * 64 + 64; i++) {
                    for (int k = i; k < n; k += 96) {
                        want[k] = want[k] * 0.5f + x[k];
                    }
                }
            }
            assertArrayEquals(want, readFloats(yb, n));
        }
    }

    /**
     * A grid-stride loop past its buffer: neither a stretch nor a block passes the checks, so every block runs in the
     * thread loop, which faults at the first thread, in the blocks' order, that reaches past the buffer.
     */
    @Test
    void aGridStrideLoopPastItsBufferFaultsInTheThreadLoop() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer y = floats(dev, new float[2000]);
            UnifiedBuffer x = floats(dev, new float[1900]);
            var s = dev.defaultStream();
            long lanesBefore = LaneRange.threadsRun();
            long together = LaneRange.blocksRunTogether();
            s.launch(dev.compile(named(LaneFormTest.SAXPY_GS, "gsOob"), "s.cu").function("gsOob"),
                    LaunchConfig.of(16, 64), KernelArgs.builder().pointer(y).pointer(x).f32(1f).i32(2000).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            // block 13's thread 44 has index 876 and reaches x[1900] at its second iteration (876 + 1024)
            assertContains("blockIdx (13,0,0) threadIdx (44,0,0)", e.getMessage());
            assertContains("out-of-bounds read of 4 bytes at index 1900 of argument 'x'", e.getMessage());
            assertEquals(0, LaneRange.threadsRun() - lanesBefore);
            assertEquals(0, LaneRange.blocksRunTogether() - together);
        }
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
     * The stop request is polled before each stretch: a grid of 16M threads (at least several milliseconds of memory
     * traffic for one worker) under a time limit of 1 ms stops part way, its launch failing with LAUNCH_TIMEOUT.
     */
    @Test
    void aGridOfStretchesStopsAtTheKernelTimeLimit() {
        int n = 1 << 24;
        try (CpuDevice dev = new CpuDevice(1)) {
            dev.setKernelTimeout(Duration.ofMillis(1));
            UnifiedBuffer y = dev.allocate(4L * n);
            UnifiedBuffer x = dev.allocate(4L * n);
            var s = dev.defaultStream();
            long together = LaneRange.blocksRunTogether();
            s.launch(dev.compile(named(LaneFormTest.SAXPY, "wide"), "s.cu").function("wide"),
                    LaunchConfig.of(n / 256, 256), KernelArgs.builder().pointer(y).pointer(x).f32(2f).i32(n).build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertEquals(CudaError.LAUNCH_TIMEOUT, e.error(), e.getMessage());
            assertContains("ran longer than the kernel time limit of 1 ms", e.getMessage());
            assertTrue(LaneRange.blocksRunTogether() - together < n / 256, "every block ran");
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
