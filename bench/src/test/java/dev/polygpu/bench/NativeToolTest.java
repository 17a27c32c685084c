package dev.polygpu.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.KernelEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native columns of {@code bench/run} without their timings: the check of a native side's outputs against
 * plain Java's, a missing tool reported instead of failing, and the C loops (and, where pocl is installed, the
 * OpenCL C kernels) giving plain Java's results on small sizes. The cases' inputs come from their fixed seeds
 * (1 to 4, in each case class).
 */
class NativeToolTest {

    private static final int THREADS = 2;

    @TempDir
    Path dir;

    private CpuDevice device;
    private JavaPool pool;

    @BeforeEach
    void open() {
        device = new CpuDevice(THREADS, KernelEngine::compile);
        pool = new JavaPool(THREADS);
    }

    @AfterEach
    void close() {
        pool.close();
        device.close();
    }

    /** Sets up {@code c} and runs its plain-Java side once, so that its Java results are there to compare. */
    private <C extends BenchCase> C javaResults(C c) {
        c.setUp(device, pool);
        c.reset();
        c.runJava();
        return c;
    }

    @Test
    void saxpyCheckAcceptsTheRightOutputAndRejectsOneUlpOff() {
        try (SaxpyCase c = javaResults(new SaxpyCase(4096))) {
            NativeData in = c.nativeInputs();
            float a = (float) in.doubles()[0];
            float[] x = in.floats(0);
            float[] y0 = in.floats(1);
            float[] right = new float[x.length];
            for (int i = 0; i < x.length; i++) {
                right[i] = a * x[i] + y0[i];
            }
            assertDoesNotThrow(() -> c.verifyNative("C", output(right)));
            float[] wrong = right.clone();
            wrong[1234] = Math.nextUp(wrong[1234]);
            AssertionError e = assertThrows(AssertionError.class, () -> c.verifyNative("pocl", output(wrong)));
            assertTrue(e.getMessage().contains("pocl") && e.getMessage().contains("first at 1234"), e.getMessage());
            float[] shorter = java.util.Arrays.copyOf(right, 4095);
            assertThrows(AssertionError.class, () -> c.verifyNative("C", output(shorter)));
        }
    }

    @Test
    void reductionCheckRejectsASumOutsideTheTolerance() {
        try (ReductionCase c = javaResults(new ReductionCase(100_000, ReductionCase.Form.GRID_STRIDE))) {
            float[] x = c.nativeInputs().floats(0);
            double sum = 0;
            for (float v : x) {
                sum += v;
            }
            double exact = sum;
            assertDoesNotThrow(() -> c.verifyNative("C", output(new double[] {exact})));
            // The tolerance is 1e-5 of the sum; 1e-4 off must be rejected.
            assertThrows(AssertionError.class, () -> c.verifyNative("C", output(new double[] {exact * (1 + 1e-4)})));
        }
    }

    @Test
    void dataFilesRoundTrip() throws IOException {
        NativeData d = new NativeData(new int[] {3, -7}, new double[] {0.25}, List.of(new float[] {1.5f, -2f},
                new double[] {Math.PI}));
        Path f = dir.resolve("d.pgb");
        d.write(f);
        NativeData back = NativeData.read(f);
        assertEquals(List.of(3, -7), java.util.Arrays.stream(back.ints()).boxed().toList());
        assertEquals(0.25, back.doubles()[0]);
        assertEquals(-2f, back.floats(0)[1]);
        assertEquals(Math.PI, back.doubles(1)[0]);
    }

    @Test
    void aMissingCompilerOrSourceFolderLeavesTheToolUnavailable() {
        NativeTool noGcc = NativeTool.prepare(NativeTool.Kind.C, NativeTool.defaultSourceDir(), dir,
                "gcc-that-is-not-installed");
        assertFalse(noGcc.available());
        assertTrue(noGcc.unavailableReason().contains("gcc-that-is-not-installed not found"),
                noGcc.unavailableReason());
        NativeTool noSources = NativeTool.prepare(NativeTool.Kind.POCL, dir.resolve("nowhere"), dir, "gcc");
        assertFalse(noSources.available());
        assertTrue(noSources.unavailableReason().contains("not found"), noSources.unavailableReason());
        assertThrows(IllegalStateException.class,
                () -> noGcc.start(new SaxpyCase(16), dir.resolve("in.pgb"), THREADS, dir));
    }

    @Test
    void cLoopsGiveJavasResults() throws IOException {
        NativeTool c = NativeTool.prepare(NativeTool.Kind.C, NativeTool.defaultSourceDir(), dir, "gcc");
        assumeTrue(c.available(), () -> "C not installed: " + c.unavailableReason());
        runAllCases(c);
    }

    @Test
    void openClKernelsOnPoclGiveJavasResults() throws IOException {
        NativeTool pocl = NativeTool.prepare(NativeTool.Kind.POCL, NativeTool.defaultSourceDir(), dir, "gcc");
        assumeTrue(pocl.available(), () -> "pocl not installed: " + pocl.unavailableReason());
        runAllCases(pocl);
    }

    /** Small sizes that are not multiples of the block or tile sizes, so that the bounds checks matter. */
    private void runAllCases(NativeTool tool) throws IOException {
        List<Supplier<BenchCase>> cases = List.of(() -> new SaxpyCase(5000), () -> new SaxpyCase(300_001, true),
                () -> new ReductionCase(100_003, ReductionCase.Form.GRID_STRIDE),
                () -> new ReductionCase(100_003, ReductionCase.Form.TREE), () -> new BlackScholesCase(3000),
                () -> new SgemmCase(70, 16), () -> new SgemmCase(70, 32));
        for (Supplier<BenchCase> make : cases) {
            try (BenchCase c = javaResults(make.get())) {
                NativeCase nc = (NativeCase) c;
                Path in = dir.resolve(c.name() + ".pgb");
                nc.nativeInputs().write(in);
                try (NativeSession s = tool.start(nc, in, THREADS, dir)) {
                    s.iteration();
                    s.iteration();
                    NativeData out = s.results();
                    assertDoesNotThrow(() -> nc.verifyNative(tool.label(), out), c.name());
                }
                Files.delete(in);
            }
        }
    }

    private static NativeData output(Object array) {
        return new NativeData(new int[0], new double[0], List.of(array));
    }
}
