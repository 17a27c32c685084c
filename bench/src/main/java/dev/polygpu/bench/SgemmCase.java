package dev.polygpu.bench;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * C = A * B for n x n row-major floats: a tiled kernel with TILE x TILE shared-memory tiles on the CPU device;
 * in Java a blocked i-k-j loop with the rows split across the threads.
 */
final class SgemmCase extends BenchCase implements NativeCase {
    /** Java's k blocking: a 128-row panel of B (512 KiB at n = 1024) stays in cache across a thread's rows. */
    private static final int K_BLOCK = 128;

    private final int n;
    private final int tile;
    private float[] a;
    private float[] b;
    private float[] c;
    private float[] deviceC;
    private UnifiedBuffer dc;
    private LaunchConfig config;
    private KernelArgs args;

    SgemmCase(int n, int tile) {
        super("sgemm" + tile, "sgemm", Kernels.sgemm(tile), 2.0);
        this.n = n;
        this.tile = tile;
    }

    @Override
    String size() {
        return n + "x" + n + ", tile " + tile + "x" + tile;
    }

    @Override
    protected void allocate() {
        SplittableRandom rnd = new SplittableRandom(4);
        a = new float[n * n];
        b = new float[n * n];
        for (int i = 0; i < n * n; i++) {
            a[i] = (float) rnd.nextDouble(-1, 1);
            b[i] = (float) rnd.nextDouble(-1, 1);
        }
        c = new float[n * n];
        deviceC = new float[n * n];
        UnifiedBuffer da = buffer(n * n * 4L);
        UnifiedBuffer db = buffer(n * n * 4L);
        dc = buffer(n * n * 4L);
        copyIn(a, da);
        copyIn(b, db);
        config = new LaunchConfig(new Dim3(ceilDiv(n, tile), ceilDiv(n, tile), 1), new Dim3(tile, tile, 1), 0);
        args = KernelArgs.builder().pointer(da).pointer(db).pointer(dc).i32(n).build();
    }

    @Override
    void reset() {
        dc.hostView().fill((byte) 0);
        Arrays.fill(c, Float.NaN);
    }

    @Override
    void runDevice() {
        stream.launch(kernel, config, args);
        stream.synchronize();
    }

    @Override
    void runJava() {
        float[] as = a;
        float[] bs = b;
        float[] cs = c;
        int size = n;
        pool.forRange(n, (from, to) -> multiplyRows(as, bs, cs, size, from, to));
    }

    /** Rows {@code [rowFrom, rowTo)} of C = A * B, blocked over k, i-k-j order (the j loop vectorizes). */
    static void multiplyRows(float[] a, float[] b, float[] c, int n, int rowFrom, int rowTo) {
        Arrays.fill(c, rowFrom * n, rowTo * n, 0f);
        for (int kk = 0; kk < n; kk += K_BLOCK) {
            int kEnd = Math.min(kk + K_BLOCK, n);
            for (int i = rowFrom; i < rowTo; i++) {
                int ci = i * n;
                for (int k = kk; k < kEnd; k++) {
                    float aik = a[ci + k];
                    int bk = k * n;
                    for (int j = 0; j < n; j++) {
                        c[ci + j] += aik * b[bk + j];
                    }
                }
            }
        }
    }

    @Override
    void verify() {
        copyOut(dc, deviceC);
        // Both sum over k in the same order; the tolerance allows for fused multiply-adds on either side.
        assertClose(name(), deviceC, c, 1e-3, 1e-4);
    }

    @Override
    public String nativeCase() {
        return "sgemm";
    }

    @Override
    public String openClOptions() {
        return "-DTILE=" + tile;
    }

    @Override
    public NativeData nativeInputs() {
        return new NativeData(new int[] {n, tile}, new double[0], List.of(a, b));
    }

    @Override
    public void verifyNative(String side, NativeData outputs) {
        assertClose(name(), side, outputs.floats(0), c, 1e-3, 1e-4);
    }
}
