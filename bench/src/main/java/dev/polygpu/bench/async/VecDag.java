package dev.polygpu.bench.async;

import java.util.Map;

/**
 * VEC: square two vectors, then reduce sum(x² − y²) with warp shuffles and atomicAdd.
 *
 * <pre>
 * square(x → x2)   square(y → y2)      width 2: the squares share no array
 *          \          /
 *       diff_sum(x2, y2 → z)           (the host zeroes z first)
 * </pre>
 */
final class VecDag extends DagCase {
    static final String SQUARE = """
            __global__ void square(const float *x, float *y, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    y[i] = x[i] * x[i];
                }
            }
            """;
    static final String DIFF_SUM = """
            __inline__ __device__ float warp_sum(float v) {
                for (int offset = warpSize / 2; offset > 0; offset /= 2) {
                    v += __shfl_down_sync(0xffffffff, v, offset);
                }
                return v;
            }

            __global__ void diff_sum(const float *x, const float *y, float *z, int n) {
                float partial = 0.0f;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    partial += x[i] - y[i];
                }
                partial = warp_sum(partial);
                if ((threadIdx.x & (warpSize - 1)) == 0) {
                    atomicAdd(z, partial);
                }
            }
            """;
    private static final int THREADS = 256;

    private final int n;
    private final float[] x;
    private final float[] y;

    VecDag(boolean quick, int blocks) {
        super(quick, blocks);
        this.n = quick ? 1 << 15 : 1 << 19;
        Lcg rnd = new Lcg(42);
        this.x = rnd.floats(n, 0, 1);
        this.y = rnd.floats(n, 0, 1);
    }

    @Override
    String name() {
        return "VEC";
    }

    @Override
    String size() {
        return String.format("2 vectors of %,d floats", n);
    }

    @Override
    int width(boolean withConst) {
        return 2;
    }

    @Override
    Program program(Session s) {
        Kernel square = s.kernel(SQUARE, "square(x: in pointer float, y: out pointer float, n: sint32)");
        Kernel diffSum = s.kernel(DIFF_SUM,
                "diff_sum(x: in pointer float, y: in pointer float, z: inout pointer float, n: sint32)");
        DevArray dx = s.array("x", x);
        DevArray dy = s.array("y", y);
        DevArray x2 = s.array("x2", "float", n);
        DevArray y2 = s.array("y2", "float", n);
        DevArray z = s.array("z", "float", 1);
        return new Program(s) {
            @Override
            void run() {
                s.set(z, 0, 0.0f);
                square.launch(blocks, THREADS, dx, x2, n);
                square.launch(blocks, THREADS, dy, y2, n);
                diffSum.launch(blocks, THREADS, x2, y2, z, n);
            }

            @Override
            Map<String, Object> results() {
                return copy(x2, y2, z);
            }
        };
    }

    @Override
    String check(Map<String, Object> results) {
        float[] x2 = (float[]) results.get("x2");
        float[] y2 = (float[]) results.get("y2");
        float z = ((float[]) results.get("z"))[0];
        Errors squares = new Errors("squares", 0);
        double sum = 0;
        double magnitude = 0;
        for (int i = 0; i < n; i++) {
            squares.add("x2[" + i + "]", x2[i], x[i] * x[i], 1);
            squares.add("y2[" + i + "]", y2[i], y[i] * y[i], 1);
            sum += (double) (x[i] * x[i]) - (double) (y[i] * y[i]);
            magnitude += (double) (x[i] * x[i]) + (double) (y[i] * y[i]);
        }
        Errors total = new Errors("sum", 1e-6);
        total.add("z", z, sum, magnitude);
        return squares.verdict() + ", " + total.verdict();
    }
}
