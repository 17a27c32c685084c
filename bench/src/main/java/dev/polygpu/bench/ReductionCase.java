package dev.polygpu.bench;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import java.util.SplittableRandom;

/** The sum of n floats: a shared-memory tree reduction per block, the host adds the block partial sums. */
final class ReductionCase extends BenchCase {
    private static final int BLOCK = 256;

    private final int n;
    private final int blocks;
    private float[] x;
    private float[] partials;
    private UnifiedBuffer dx;
    private UnifiedBuffer dPartial;
    private LaunchConfig config;
    private KernelArgs args;
    private double deviceSum;
    private double javaSum;

    ReductionCase(int n) {
        super("reduce", "reduce", Kernels.REDUCE, 4.0);
        this.n = n;
        this.blocks = ceilDiv(n, 2 * BLOCK);
    }

    @Override
    String size() {
        return Sizes.elements(n) + " floats";
    }

    @Override
    protected void allocate() {
        SplittableRandom rnd = new SplittableRandom(2);
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
        if (!(Math.abs(deviceSum - javaSum) <= 1e-5 * Math.abs(javaSum))) {
            throw new AssertionError("reduce: CPU device sum " + deviceSum + ", Java sum " + javaSum);
        }
    }
}
