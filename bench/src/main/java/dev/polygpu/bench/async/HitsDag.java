package dev.polygpu.bench.async;

import java.util.Arrays;
import java.util.Map;

/**
 * HITS: hub and authority scores of a generated weighted graph, 5 iterations of two CSR sparse matrix-vector
 * products (the transposed matrix for authorities, the matrix for hubs) with normalisation. The host resets
 * both norms every iteration: a host write waits for the kernels that still read them (a host sync point).
 *
 * <pre>
 * per iteration:  spmv(Aᵀ, hub → auth')      spmv(A, auth → hub')     width 2: the branches share no
 *                 host: auth_norm = 0, hub_norm = 0                     array within an iteration; the
 *                 sum(auth' → auth_norm)       sum(hub' → hub_norm)     next iteration crosses them (its
 *                 divide(auth', auth_norm → auth)  divide(hub', …)      auth' reads hub, and so on)
 * </pre>
 */
final class HitsDag extends DagCase {
    static final String KERNELS = """
            __global__ void spmv(const int *ptr, const int *idx, const float *val, const float *vec, float *res, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    float sum = 0.0f;
                    for (int j = ptr[i]; j < ptr[i + 1]; j++) {
                        sum += val[j] * vec[idx[j]];
                    }
                    res[i] = sum;
                }
            }

            __inline__ __device__ float warp_sum(float v) {
                for (int offset = warpSize / 2; offset > 0; offset /= 2) {
                    v += __shfl_down_sync(0xffffffff, v, offset);
                }
                return v;
            }

            __global__ void sum(const float *x, float *total, int n) {
                float partial = 0.0f;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    partial += x[i];
                }
                partial = warp_sum(partial);
                if ((threadIdx.x & (warpSize - 1)) == 0) {
                    atomicAdd(total, partial);
                }
            }

            __global__ void divide(const float *x, float *y, const float *total, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    y[i] = x[i] / total[0];
                }
            }
            """;
    private static final int ITERATIONS = 5;
    private static final int THREADS = 256;

    /** A sparse matrix in CSR form. */
    private record Csr(int[] ptr, int[] idx, float[] val) {
        static Csr of(int n, int[] rows, int[] cols, float[] weights) {
            int[] ptr = new int[n + 1];
            for (int r : rows) {
                ptr[r + 1]++;
            }
            for (int i = 0; i < n; i++) {
                ptr[i + 1] += ptr[i];
            }
            int[] fill = Arrays.copyOf(ptr, n);
            int[] idx = new int[rows.length];
            float[] val = new float[rows.length];
            for (int e = 0; e < rows.length; e++) {
                int at = fill[rows[e]]++;
                idx[at] = cols[e];
                val[at] = weights[e];
            }
            return new Csr(ptr, idx, val);
        }

        double[] times(double[] v) {
            double[] r = new double[ptr.length - 1];
            for (int i = 0; i < r.length; i++) {
                double s = 0;
                for (int j = ptr[i]; j < ptr[i + 1]; j++) {
                    s += val[j] * v[idx[j]];
                }
                r[i] = s;
            }
            return r;
        }
    }

    private final int n;
    private final Csr a;
    private final Csr at;

    HitsDag(boolean quick, int blocks) {
        super(quick, blocks);
        this.n = quick ? 1 << 14 : 1 << 18;
        Lcg rnd = new Lcg(5);
        int[] degree = new int[n];
        int edges = 0;
        for (int s = 0; s < n; s++) {
            degree[s] = 1 + (int) (rnd.next() * 8);
            edges += degree[s];
        }
        int[] src = new int[edges];
        int[] dst = new int[edges];
        float[] w = new float[edges];
        for (int s = 0, e = 0; s < n; s++) {
            for (int d = 0; d < degree[s]; d++, e++) {
                src[e] = s;
                dst[e] = (int) (rnd.next() * n);
                w[e] = (float) (0.5 + rnd.next());
            }
        }
        this.a = Csr.of(n, src, dst, w);
        this.at = Csr.of(n, dst, src, w);
    }

    @Override
    String name() {
        return "HITS";
    }

    @Override
    String size() {
        return String.format("%,d vertices, %,d edges, %d iterations", n, a.idx.length, ITERATIONS);
    }

    @Override
    int width(boolean withConst) {
        return 2;
    }

    @Override
    Program program(Session s) {
        Kernel spmv = s.kernel(KERNELS, "spmv(ptr: in pointer sint32, idx: in pointer sint32, val: in pointer float,"
                + " vec: in pointer float, res: out pointer float, n: sint32)");
        Kernel sum = s.kernel(KERNELS, "sum(x: in pointer float, total: inout pointer float, n: sint32)");
        Kernel divide = s.kernel(KERNELS, "divide(x: in pointer float, y: out pointer float,"
                + " total: in pointer float, n: sint32)");
        DevArray ptr = s.array("ptr", a.ptr);
        DevArray idx = s.array("idx", a.idx);
        DevArray val = s.array("val", a.val);
        DevArray ptrT = s.array("ptr_t", at.ptr);
        DevArray idxT = s.array("idx_t", at.idx);
        DevArray valT = s.array("val_t", at.val);
        DevArray hub = s.array("hub", "float", n);
        DevArray auth = s.array("auth", "float", n);
        DevArray hubNext = s.array("hub_next", "float", n);
        DevArray authNext = s.array("auth_next", "float", n);
        DevArray hubNorm = s.array("hub_norm", "float", 1);
        DevArray authNorm = s.array("auth_norm", "float", 1);
        float[] ones = new float[n];
        Arrays.fill(ones, 1f);
        return new Program(s) {
            @Override
            void reset() {
                s.write(hub, ones);
                s.write(auth, ones);
            }

            @Override
            void run() {
                for (int it = 0; it < ITERATIONS; it++) {
                    spmv.launch(blocks, THREADS, ptrT, idxT, valT, hub, authNext, n);
                    spmv.launch(blocks, THREADS, ptr, idx, val, auth, hubNext, n);
                    s.set(authNorm, 0, 0.0f);
                    s.set(hubNorm, 0, 0.0f);
                    sum.launch(blocks, THREADS, authNext, authNorm, n);
                    sum.launch(blocks, THREADS, hubNext, hubNorm, n);
                    divide.launch(blocks, THREADS, authNext, auth, authNorm, n);
                    divide.launch(blocks, THREADS, hubNext, hub, hubNorm, n);
                }
            }

            @Override
            Map<String, Object> results() {
                return copy(hub, auth);
            }
        };
    }

    @Override
    String check(Map<String, Object> results) {
        double[] h = new double[n];
        double[] au = new double[n];
        Arrays.fill(h, 1);
        Arrays.fill(au, 1);
        for (int it = 0; it < ITERATIONS; it++) {
            double[] authNext = at.times(h);
            double[] hubNext = a.times(au);
            double sa = Arrays.stream(authNext).sum();
            double sh = Arrays.stream(hubNext).sum();
            for (int i = 0; i < n; i++) {
                au[i] = authNext[i] / sa;
                h[i] = hubNext[i] / sh;
            }
        }
        double largest = Math.max(Arrays.stream(h).max().orElse(0), Arrays.stream(au).max().orElse(0));
        float[] hub = (float[]) results.get("hub");
        float[] auth = (float[]) results.get("auth");
        Errors e = new Errors("scores", 1e-4);
        for (int i = 0; i < n; i++) {
            e.add("hub[" + i + "]", hub[i], h[i], largest);
            e.add("auth[" + i + "]", auth[i], au[i], largest);
        }
        return e.verdict() + " (of the largest score)";
    }
}
