package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Warp-cooperative CSR sparse matrix-vector products, as GrCUDA's HITS and conjugate-gradient benchmarks run
 * them: a vector of lanes (a warp or half a warp) per row; lanes 0 and 1 write the row's start and end into
 * {@code volatile __shared__} slots inside {@code if (lane < 2)} and every lane of the vector then reads them, with
 * no {@code __syncwarp}; each lane sums every 32nd (16th) product and the vector reduces the partial sums. This
 * works on a GPU because the lanes reconverge after the {@code if} before they read. Every row of every launch is
 * checked against plain Java summing in the same order and against nvcc's code on the PTX interpreter.
 */
@Timeout(300)
class WarpSpmvTest {
    private static final long SEED = 0x5EED_36L;
    private static final int ROWS = 1000;
    private static Device dev;
    private static Csr csr;

    /** A random CSR matrix; row lengths 0 to 80, so rows take one, two or three passes of a 32-lane vector. */
    private record Csr(int[] ptr, int[] cols, float[] vals, float[] x) {
        static Csr random(long seed, int n) {
            Random r = new Random(seed);
            int[] ptr = new int[n + 1];
            for (int i = 0; i < n; i++) {
                ptr[i + 1] = ptr[i] + r.nextInt(81);
            }
            int nnz = ptr[n];
            int[] cols = new int[nnz];
            for (int j = 0; j < nnz; j++) {
                cols[j] = r.nextInt(n);
            }
            return new Csr(ptr, cols, KernelTestSupport.gaussianFloats(r, nnz, 1.0),
                    KernelTestSupport.gaussianFloats(r, n, 1.0));
        }

        /**
         * y = A x as a vector of {@code v} lanes computes it: lane l sums products l, l + v, … of the row in
         * order, then the tree adds lane l + off into lane l for off = v/2 … 1; each float operation rounded.
         */
        int[] product(int v) {
            int n = ptr.length - 1;
            int[] y = new int[n];
            float[] part = new float[v];
            for (int row = 0; row < n; row++) {
                for (int l = 0; l < v; l++) {
                    float s = 0.0f;
                    for (int j = ptr[row] + l; j < ptr[row + 1]; j += v) {
                        s += vals[j] * x[cols[j]];
                    }
                    part[l] = s;
                }
                for (int off = v / 2; off > 0; off /= 2) {
                    for (int l = 0; l < off; l++) {
                        part[l] = part[l] + part[l + off];
                    }
                }
                y[row] = Float.floatToRawIntBits(part[0]);
            }
            return y;
        }
    }

    @BeforeAll
    static void start() {
        dev = new CpuDevice();
        csr = Csr.random(SEED, ROWS);
    }

    @AfterAll
    static void stop() {
        dev.close();
    }

    /** Grid-stride over rows; the vector reduces through volatile shared memory, as CUSP's csr_vector kernel. */
    private static String sharedReduction(int lanes) {
        return "#define V " + lanes + "\n" + """
                extern "C" __global__ void k(const int *ptr, const int *cols, const float *vals, const float *x,
                                             float *y, int n) {
                    __shared__ volatile int space[256 / V][2];
                    __shared__ volatile float red[256];
                    int t = threadIdx.x;
                    int lane = t % V;
                    int vec = t / V;
                    for (int row = blockIdx.x * (blockDim.x / V) + vec; row < n;
                            row += gridDim.x * (blockDim.x / V)) {
                        if (lane < 2) {
                            space[vec][lane] = ptr[row + lane];
                        }
                        int start = space[vec][0];
                        int end = space[vec][1];
                        float sum = 0.0f;
                        for (int j = start + lane; j < end; j += V) {
                            sum += vals[j] * x[cols[j]];
                        }
                        red[t] = sum;
                        if (V > 16 && lane < 16) red[t] = sum = sum + red[t + 16];
                        if (lane < 8) red[t] = sum = sum + red[t + 8];
                        if (lane < 4) red[t] = sum = sum + red[t + 4];
                        if (lane < 2) red[t] = sum = sum + red[t + 2];
                        if (lane < 1) red[t] = sum = sum + red[t + 1];
                        if (lane == 0) {
                            y[row] = red[t];
                        }
                    }
                }
                """;
    }

    /**
     * GrCUDA's spmv3 pattern: each warp takes rows from a global counter (lane 0's atomicAdd, broadcast with
     * __shfl_sync), the volatile row slots, and a shuffle reduction.
     */
    private static final String ROW_COUNTER = """
            extern "C" __global__ void k(int *counter, const int *ptr, const int *cols, const float *vals,
                                         const float *x, float *y, int n) {
                __shared__ volatile int space[8][2];
                int lane = threadIdx.x & 31;
                int vec = threadIdx.x >> 5;
                int row = 0;
                if (lane == 0) {
                    row = atomicAdd(counter, 1);
                }
                row = __shfl_sync(0xffffffff, row, 0);
                while (row < n) {
                    if (lane < 2) {
                        space[vec][lane] = ptr[row + lane];
                    }
                    int start = space[vec][0];
                    int end = space[vec][1];
                    float sum = 0.0f;
                    for (int j = start + lane; j < end; j += 32) {
                        sum += vals[j] * x[cols[j]];
                    }
                    for (int off = 16; off > 0; off >>= 1) {
                        sum += __shfl_down_sync(0xffffffff, sum, off);
                    }
                    if (lane == 0) {
                        y[row] = sum;
                    }
                    if (lane == 0) {
                        row = atomicAdd(counter, 1);
                    }
                    row = __shfl_sync(0xffffffff, row, 0);
                }
            }
            """;

    @Test
    void warpPerRowReducesThroughVolatileSharedMemory() {
        WarpOracle.check(dev, sharedReduction(32), m -> gridStride(m, 50), csr.product(32), "seed " + SEED);
    }

    @Test
    void halfWarpPerRowWithHalvesLeavingTheRowLoopAtDifferentTimes() {
        // Two rows per warp at a time: the halves' rows differ in length, and with 1000 rows and a stride of 800
        // some halves run the row loop twice and their neighbours once.
        WarpOracle.check(dev, sharedReduction(16), m -> gridStride(m, 50), csr.product(16), "seed " + SEED);
    }

    @Test
    void rowsFromAnAtomicCounterWithShuffleReduction() {
        WarpOracle.check(dev, ROW_COUNTER, WarpSpmvTest::rowCounter, csr.product(32), "seed " + SEED);
    }

    private static int[] gridStride(Module m, int blocks) {
        Buffers b = new Buffers(csr);
        KernelArgs args = KernelArgs.builder().pointer(b.ptr).pointer(b.cols).pointer(b.vals).pointer(b.x)
                .pointer(b.y).i32(ROWS).build();
        return b.launch(m, LaunchConfig.of(blocks, 256), args);
    }

    private static int[] rowCounter(Module m) {
        Buffers b = new Buffers(csr);
        UnifiedBuffer counter = ints(dev, new int[1]);
        KernelArgs args = KernelArgs.builder().pointer(counter).pointer(b.ptr).pointer(b.cols).pointer(b.vals)
                .pointer(b.x).pointer(b.y).i32(ROWS).build();
        try {
            return b.launch(m, LaunchConfig.of(8, 256), args);
        } finally {
            counter.free();
        }
    }

    /** The matrix, x, and y filled with NaN (so that a row nobody wrote shows), on the device. */
    private static final class Buffers {
        final UnifiedBuffer ptr;
        final UnifiedBuffer cols;
        final UnifiedBuffer vals;
        final UnifiedBuffer x;
        final UnifiedBuffer y;

        Buffers(Csr a) {
            ptr = ints(dev, a.ptr());
            cols = ints(dev, a.cols());
            vals = floats(dev, a.vals());
            x = floats(dev, a.x());
            float[] nan = new float[ROWS];
            java.util.Arrays.fill(nan, Float.NaN);
            y = floats(dev, nan);
        }

        int[] launch(Module m, LaunchConfig config, KernelArgs args) {
            try {
                var s = dev.defaultStream();
                s.launch(m.function("k"), config, args);
                s.synchronize();
                return readInts(y, ROWS);
            } finally {
                for (UnifiedBuffer u : new UnifiedBuffer[] {ptr, cols, vals, x, y}) {
                    u.free();
                }
            }
        }
    }
}
