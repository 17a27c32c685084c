package dev.polygpu.bench;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import java.util.List;
import java.util.SplittableRandom;

/**
 * y = a * x + y over n floats; y is restored before each iteration. One element per thread over a full grid
 * ({@code saxpy}), or grid-stride over a grid capped at 1024 blocks, as GrCUDA's benchmarks and CUDA's samples
 * launch it ({@code saxpy-gs}: 64 elements per thread for 16M floats).
 */
final class SaxpyCase extends BenchCase implements NativeCase {
    private static final int BLOCK = 256;
    /** The grid-stride form's grid cap (bench/native/oclhost.c has the same). */
    private static final int GS_BLOCKS = 1024;
    private static final float A = 2.5f;

    private final int n;
    private final boolean gridStride;
    private float[] x;
    private float[] y0;
    private float[] y;
    private float[] deviceY;
    private UnifiedBuffer dx;
    private UnifiedBuffer dy;
    private LaunchConfig config;
    private KernelArgs args;

    SaxpyCase(int n) {
        this(n, false);
    }

    SaxpyCase(int n, boolean gridStride) {
        super(gridStride ? "saxpy-gs" : "saxpy", gridStride ? "saxpy_gs" : "saxpy",
                gridStride ? Kernels.SAXPY_GRID_STRIDE : Kernels.SAXPY, gridStride ? 2.0 : 1.5);
        this.n = n;
        this.gridStride = gridStride;
    }

    @Override
    String size() {
        return Sizes.elements(n) + " floats" + (gridStride ? ", grid-stride, " + GS_BLOCKS + " blocks" : "");
    }

    @Override
    protected void allocate() {
        SplittableRandom rnd = new SplittableRandom(1);
        x = new float[n];
        y0 = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) rnd.nextDouble(-1, 1);
            y0[i] = (float) rnd.nextDouble(-1, 1);
        }
        y = new float[n];
        deviceY = new float[n];
        dx = buffer(n * 4L);
        dy = buffer(n * 4L);
        copyIn(x, dx);
        int blocks = ceilDiv(n, BLOCK);
        config = new LaunchConfig(Dim3.of(gridStride ? Math.min(blocks, GS_BLOCKS) : blocks), Dim3.of(BLOCK), 0);
        args = KernelArgs.builder().pointer(dy).pointer(dx).f32(A).i32(n).build();
    }

    @Override
    void reset() {
        copyIn(y0, dy);
        System.arraycopy(y0, 0, y, 0, n);
    }

    @Override
    void runDevice() {
        stream.launch(kernel, config, args);
        stream.synchronize();
    }

    @Override
    void runJava() {
        float[] xs = x;
        float[] ys = y;
        pool.forRange(n, (from, to) -> saxpy(A, xs, ys, from, to));
    }

    static void saxpy(float a, float[] x, float[] y, int from, int to) {
        for (int i = from; i < to; i++) {
            y[i] = a * x[i] + y[i];
        }
    }

    @Override
    void verify() {
        copyOut(dy, deviceY);
        assertClose("saxpy", deviceY, y, 0, 0);
    }

    @Override
    public String nativeCase() {
        // The C loop is the same for both forms; the OpenCL C is the kernel's, line for line.
        return gridStride ? "saxpy_gs" : "saxpy";
    }

    @Override
    public NativeData nativeInputs() {
        return new NativeData(new int[] {n}, new double[] {A}, List.of(x, y0));
    }

    @Override
    public void verifyNative(String side, NativeData outputs) {
        assertClose("saxpy", side, outputs.floats(0), y, 0, 0);
    }
}
