package dev.polygpu.bench;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import java.util.SplittableRandom;

/**
 * Kernels whose time is one short loop per thread, where a poll at the loop's back-edge weighs most
 * ({@link PollCostBench}): {@code loop} (a counted {@code for} of 64 loads), {@code whileLoop} (the same loop as a
 * {@code while}, which is not counted) and {@code tile} (16 rounds of a shared-memory store, a barrier, a load and
 * a barrier). Each thread {@code i} sums 0.5 times elements of {@code x} near {@code i}; plain Java computes the
 * same sums for the check.
 */
final class TightLoopCase extends BenchCase {
    private static final int BLOCK = 256;
    private static final int LOOP_TRIPS = 64;
    private static final int TILE_ROUNDS = 16;

    private static final String SOURCE = """
            __global__ void loop(const float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                float acc = 0.0f;
                for (int k = 0; k < 64; k++) {
                    acc += x[(i + k) & (n - 1)] * 0.5f;
                }
                y[i] = acc;
            }

            __global__ void whileLoop(const float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                float acc = 0.0f;
                int k = 0;
                while (k < 64) {
                    acc += x[(i + k) & (n - 1)] * 0.5f;
                    k++;
                }
                y[i] = acc;
            }

            __global__ void tile(const float *x, float *y, int n) {
                __shared__ float s[256];
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                float acc = 0.0f;
                for (int r = 0; r < 16; r++) {
                    s[threadIdx.x] = x[(i + r) & (n - 1)];
                    __syncthreads();
                    acc += s[(threadIdx.x + r) & 255] * 0.5f;
                    __syncthreads();
                }
                y[i] = acc;
            }
            """;

    private final int n;
    private float[] x;
    private float[] deviceY;
    private float[] javaY;
    private UnifiedBuffer dx;
    private UnifiedBuffer dy;
    private LaunchConfig config;
    private KernelArgs args;

    /** {@code kernel} is loop, whileLoop or tile; {@code n} a power of two and a multiple of 256. */
    TightLoopCase(String kernel, int n) {
        super(kernel, kernel, SOURCE, Double.NaN);
        if (Integer.bitCount(n) != 1 || n < BLOCK) {
            throw new IllegalArgumentException("n must be a power of two of at least " + BLOCK + ", got " + n);
        }
        this.n = n;
    }

    @Override
    String size() {
        return Sizes.elements(n) + " threads, " + (kernelName().equals("tile") ? TILE_ROUNDS + " rounds"
                : LOOP_TRIPS + " iterations");
    }

    @Override
    protected void allocate() {
        SplittableRandom rnd = new SplittableRandom(3);
        x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) rnd.nextDouble(-1, 1);
        }
        deviceY = new float[n];
        javaY = new float[n];
        dx = buffer(n * 4L);
        dy = buffer(n * 4L);
        copyIn(x, dx);
        config = new LaunchConfig(Dim3.of(n / BLOCK), Dim3.of(BLOCK), 0);
        args = KernelArgs.builder().pointer(dx).pointer(dy).i32(n).build();
    }

    @Override
    void runDevice() {
        stream.launch(kernel, config, args);
        stream.synchronize();
        copyOut(dy, deviceY);
    }

    @Override
    void runJava() {
        boolean tile = kernelName().equals("tile");
        for (int i = 0; i < n; i++) {
            float acc = 0;
            if (tile) {
                // Thread i reads, in round r, what thread (i's block start + ((i + r) & 255)) stored: x at that + r.
                int blockStart = i & -BLOCK;
                for (int r = 0; r < TILE_ROUNDS; r++) {
                    int j = blockStart + ((i + r) & (BLOCK - 1));
                    acc += x[(j + r) & (n - 1)] * 0.5f;
                }
            } else {
                for (int k = 0; k < LOOP_TRIPS; k++) {
                    acc += x[(i + k) & (n - 1)] * 0.5f;
                }
            }
            javaY[i] = acc;
        }
    }

    @Override
    void verify() {
        // The engine may contract acc + a * 0.5f into one fused multiply-add, as nvcc does by default.
        assertClose(kernelName(), deviceY, javaY, 1e-4, 1e-5);
    }
}
