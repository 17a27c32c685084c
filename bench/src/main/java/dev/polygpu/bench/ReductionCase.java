package dev.polygpu.bench;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The sum of n floats, per block on the device, the host adds the block partial sums. The grid-stride form
 * ({@code reduce}) accumulates many elements per thread first, then a shared-memory tree; the naive form
 * ({@code reduce-naive}) gives each thread one pair of elements, so the block's barriers dominate; the warp form
 * ({@code reduce-warp}) accumulates as the grid-stride one, then reduces with warp shuffles, as CUB and GrCUDA's
 * benchmarks do.
 */
final class ReductionCase extends BenchCase implements NativeCase {
    private static final int BLOCK = 256;
    /** The grid-stride form caps its grid, as CUDA's reduction samples do; each thread then sums ~64 elements. */
    private static final int MAX_BLOCKS = 1024;
    /** Relative difference allowed between a sum and Java's (float partial sums against a double one). */
    private static final double TOLERANCE = 1e-5;

    /** The three kernels. */
    enum Form {
        GRID_STRIDE("reduce", "reduce_gs", Kernels.REDUCE_GRID_STRIDE),
        TREE("reduce-naive", "reduce", Kernels.REDUCE),
        WARP("reduce-warp", "reduce_warp", Kernels.REDUCE_WARP);

        final String caseName;
        final String kernel;
        final String source;

        Form(String caseName, String kernel, String source) {
            this.caseName = caseName;
            this.kernel = kernel;
            this.source = source;
        }
    }

    private final int n;
    private final Form form;
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

    ReductionCase(int n, Form form) {
        super(form.caseName, form.kernel, form.source, form == Form.WARP ? 4.0 : 1.5);
        this.n = n;
        this.form = form;
        this.gridStride = form != Form.TREE;
    }

    @Override
    String size() {
        return Sizes.elements(n) + " floats" + switch (form) {
            case GRID_STRIDE -> ", grid-stride";
            case TREE -> ", 2 per thread";
            case WARP -> ", grid-stride, shuffles";
        };
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
        // The C loop is the same plain sum for every form.
        return gridStride ? "reduce_gs" : "reduce";
    }

    @Override
    public String notOnPocl() {
        return form == Form.WARP ? "no OpenCL C version: OpenCL C 1.2 has no warp shuffles, and pocl's"
                + " sub-groups (an extension) are not 32-lane warps" : null;
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
