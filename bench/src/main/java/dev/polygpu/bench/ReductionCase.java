package dev.polygpu.bench;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The sum of n floats: a shared-memory tree reduction per block, the host adds the block partial sums. The
 * grid-stride form ({@code reduce}) accumulates many elements per thread first; the naive form
 * ({@code reduce-naive}) gives each thread one pair of elements, so the block's barriers dominate.
 */
final class ReductionCase extends BenchCase implements NativeCase {
    private static final int BLOCK = 256;
    /** The grid-stride form caps its grid, as CUDA's reduction samples do; each thread then sums ~64 elements. */
    private static final int MAX_BLOCKS = 1024;
    /** Relative difference allowed between a sum and Java's (float partial sums against a double one). */
    private static final double TOLERANCE = 1e-5;

    private final int n;
    private final boolean gridStride;
    private int blocks;
    private float[] x;
    private float[] partials;
    private UnifiedBuffer dx;
    private UnifiedBuffer dPartial;
    private LaunchConfig config;
    private KernelArgs args;
    private double deviceSum;
    private double javaSum;

    ReductionCase(int n, boolean gridStride) {
        super(gridStride ? "reduce" : "reduce-naive", gridStride ? "reduce_gs" : "reduce",
                gridStride ? Kernels.REDUCE_GRID_STRIDE : Kernels.REDUCE, 4.0);
        this.n = n;
        this.gridStride = gridStride;
    }

    @Override
    String size() {
        return Sizes.elements(n) + " floats" + (gridStride ? ", grid-stride" : ", 2 per thread");
    }

    @Override
    protected void allocate() {
        SplittableRandom rnd = new SplittableRandom(2);
        blocks = gridStride ? Math.min(MAX_BLOCKS, ceilDiv(n, BLOCK)) : ceilDiv(n, 2 * BLOCK);
        x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) rnd.nextDouble();
        }
        partials = new float[blocks];
        dx = buffer(n * 4L);
        dPartial = buffer(blocks * 4L);
        copyIn(x, dx);
        config = new LaunchConfig(Dim3.of(blocks), Dim3.of(BLOCK), BLOCK * 4);
        args = KernelArgs.builder().pointer(dx).pointer(dPartial).i32(n).build();
    }

    @Override
    void reset() {
        deviceSum = Double.NaN;
        javaSum = Double.NaN;
    }

    @Override
    void runDevice() {
        stream.launch(kernel, config, args);
        stream.synchronize();
        copyOut(dPartial, partials);
        double s = 0;
        for (float p : partials) {
            s += p;
        }
        deviceSum = s;
    }

    @Override
    void runJava() {
        float[] xs = x;
        javaSum = pool.sumRange(n, (from, to) -> sum(xs, from, to));
    }

    static double sum(float[] x, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += x[i];
        }
        return s;
    }

    @Override
    void verify() {
        assertSumClose(name(), "CPU device", deviceSum, javaSum, TOLERANCE);
    }

    @Override
    public String nativeCase() {
        return gridStride ? "reduce_gs" : "reduce";
    }

    @Override
    public NativeData nativeInputs() {
        return new NativeData(new int[] {n, blocks}, new double[0], List.of(x));
    }

    @Override
    public void verifyNative(String side, NativeData outputs) {
        assertSumClose(name(), side, outputs.doubles(0)[0], javaSum, TOLERANCE);
    }
}
