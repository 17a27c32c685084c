package dev.polygpu.bench.async;

import java.util.Map;

/**
 * DL: a small Siamese convolutional network. Two images go through the same two 3x3 convolutions with ReLU
 * (weights in dynamic shared memory, 3-D blocks of 8x8x4 threads: x, y and output channel), a 2x2 max pool
 * and a global average per channel (warp shuffles and atomicAdd); the two feature vectors are concatenated
 * and a dense layer gives the scores.
 *
 * <pre>
 * conv(a, w1 → a1)    conv(b, w1 → b1)       width 2: one kernel of each branch; the branches share
 * conv(a1, w2 → a2)   conv(b1, w2 → b2)      the read-only weights w1 and w2, so under no-const
 * pool(a2 → a3)       pool(b2 → b3)          conv(b, w1) waits for conv(a, w1), and conv(b1, w2) for
 * gap(a3 → ga)        gap(b3 → gb)           conv(a1, w2): still width 2, with less overlap
 *        concat(ga, gb → v)
 *        dense(v, wd → scores)
 * </pre>
 */
final class DlDag extends DagCase {
    static final String KERNELS = """
            __global__ void conv(const float *in, const float *w, float *out, int cin, int cout, int h, int wd) {
                extern __shared__ float ws[];
                int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
                int nthreads = blockDim.x * blockDim.y * blockDim.z;
                for (int i = tid; i < cout * cin * 9; i += nthreads) {
                    ws[i] = w[i];
                }
                __syncthreads();
                for (int co = blockIdx.z * blockDim.z + threadIdx.z; co < cout; co += blockDim.z * gridDim.z) {
                    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += blockDim.y * gridDim.y) {
                        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < wd; x += blockDim.x * gridDim.x) {
                            float s = 0.0f;
                            for (int ci = 0; ci < cin; ci++) {
                                for (int ky = -1; ky <= 1; ky++) {
                                    int yy = y + ky;
                                    if (yy < 0 || yy >= h) {
                                        continue;
                                    }
                                    for (int kx = -1; kx <= 1; kx++) {
                                        int xx = x + kx;
                                        if (xx >= 0 && xx < wd) {
                                            s += ws[((co * cin + ci) * 3 + ky + 1) * 3 + kx + 1] * in[(ci * h + yy) * wd + xx];
                                        }
                                    }
                                }
                            }
                            out[(co * h + y) * wd + x] = fmaxf(s, 0.0f);
                        }
                    }
                }
            }

            __global__ void pool(const float *in, float *out, int c, int h, int wd) {
                int ho = h / 2;
                int wo = wd / 2;
                for (int ch = blockIdx.z * blockDim.z + threadIdx.z; ch < c; ch += blockDim.z * gridDim.z) {
                    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < ho; y += blockDim.y * gridDim.y) {
                        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < wo; x += blockDim.x * gridDim.x) {
                            const float *p = in + (ch * h + 2 * y) * wd + 2 * x;
                            out[(ch * ho + y) * wo + x] = fmaxf(fmaxf(p[0], p[1]), fmaxf(p[wd], p[wd + 1]));
                        }
                    }
                }
            }

            __global__ void gap(const float *in, float *out, int c, int size) {
                for (int ch = 0; ch < c; ch++) {
                    float partial = 0.0f;
                    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += blockDim.x * gridDim.x) {
                        partial += in[ch * size + i];
                    }
                    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
                        partial += __shfl_down_sync(0xffffffff, partial, offset);
                    }
                    if ((threadIdx.x & (warpSize - 1)) == 0) {
                        atomicAdd(out + ch, partial / size);
                    }
                }
            }

            __global__ void concat(const float *a, const float *b, float *out, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 2 * n; i += blockDim.x * gridDim.x) {
                    out[i] = i < n ? a[i] : b[i - n];
                }
            }

            __global__ void dense(const float *v, const float *w, float *out, int n, int outputs) {
                for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < outputs; k += blockDim.x * gridDim.x) {
                    float s = 0.0f;
                    for (int j = 0; j < n; j++) {
                        s += v[j] * w[k * n + j];
                    }
                    out[k] = s;
                }
            }
            """;
    private static final int C1 = 8;
    private static final int C2 = 8;
    private static final int OUTPUTS = 10;
    private static final int THREADS = 256;
    private static final int[] BLOCK_3D = {8, 8, 4};

    private final int side;
    private final float[] imageA;
    private final float[] imageB;
    private final float[] w1;
    private final float[] w2;
    private final float[] wd;

    DlDag(boolean quick, int blocks) {
        super(quick, blocks);
        this.side = quick ? 32 : 128;
        Lcg rnd = new Lcg(13);
        imageA = rnd.floats(side * side, 0, 1);
        imageB = rnd.floats(side * side, 0, 1);
        w1 = rnd.floats(C1 * 9, -0.3, 0.5);
        w2 = rnd.floats(C2 * C1 * 9, -0.1, 0.15);
        wd = rnd.floats(OUTPUTS * 2 * C2, -1, 1);
    }

    @Override
    String name() {
        return "DL";
    }

    @Override
    String size() {
        return String.format("2 images %dx%d, %d and %d channels", side, side, C1, C2);
    }

    @Override
    int width(boolean withConst) {
        return 2;
    }

    @Override
    boolean sharesReadOnlyArrays() {
        return true;
    }

    @Override
    Program program(Session s) {
        Kernel conv = s.kernel(KERNELS, "conv(in: in pointer float, w: in pointer float, out: out pointer float,"
                + " cin: sint32, cout: sint32, h: sint32, wd: sint32)");
        Kernel pool = s.kernel(KERNELS, "pool(in: in pointer float, out: out pointer float, c: sint32, h: sint32,"
                + " wd: sint32)");
        Kernel gap = s.kernel(KERNELS, "gap(in: in pointer float, out: inout pointer float, c: sint32,"
                + " size: sint32)");
        Kernel concat = s.kernel(KERNELS, "concat(a: in pointer float, b: in pointer float, out: out pointer float,"
                + " n: sint32)");
        Kernel dense = s.kernel(KERNELS, "dense(v: in pointer float, w: in pointer float, out: out pointer float,"
                + " n: sint32, outputs: sint32)");
        int pixels = side * side;
        int pooled = pixels / 4;
        DevArray a = s.array("image_a", imageA);
        DevArray b = s.array("image_b", imageB);
        DevArray dw1 = s.array("w1", w1);
        DevArray dw2 = s.array("w2", w2);
        DevArray dwd = s.array("w_dense", wd);
        DevArray a1 = s.array("a1", "float", C1 * pixels);
        DevArray b1 = s.array("b1", "float", C1 * pixels);
        DevArray a2 = s.array("a2", "float", C2 * pixels);
        DevArray b2 = s.array("b2", "float", C2 * pixels);
        DevArray a3 = s.array("a3", "float", C2 * pooled);
        DevArray b3 = s.array("b3", "float", C2 * pooled);
        DevArray ga = s.array("gap_a", "float", C2);
        DevArray gb = s.array("gap_b", "float", C2);
        DevArray v = s.array("features", "float", 2 * C2);
        DevArray scores = s.array("scores", "float", OUTPUTS);
        int[] grid = {blocks, 1, 1};
        float[] zeros = new float[C2];
        return new Program(s) {
            @Override
            void run() {
                s.write(ga, zeros);
                s.write(gb, zeros);
                conv.launchShared(grid, BLOCK_3D, 4 * C1 * 9, a, dw1, a1, 1, C1, side, side);
                conv.launchShared(grid, BLOCK_3D, 4 * C1 * 9, b, dw1, b1, 1, C1, side, side);
                conv.launchShared(grid, BLOCK_3D, 4 * C2 * C1 * 9, a1, dw2, a2, C1, C2, side, side);
                conv.launchShared(grid, BLOCK_3D, 4 * C2 * C1 * 9, b1, dw2, b2, C1, C2, side, side);
                pool.launch(grid, BLOCK_3D, a2, a3, C2, side, side);
                pool.launch(grid, BLOCK_3D, b2, b3, C2, side, side);
                gap.launch(blocks, THREADS, a3, ga, C2, pooled);
                gap.launch(blocks, THREADS, b3, gb, C2, pooled);
                concat.launch(blocks, THREADS, ga, gb, v, C2);
                dense.launch(blocks, THREADS, v, dwd, scores, 2 * C2, OUTPUTS);
            }

            @Override
            Map<String, Object> results() {
                return copy(a2, b2, v, scores);
            }
        };
    }

    @Override
    String check(Map<String, Object> results) {
        float[] a2 = conv(conv(imageA, w1, 1, C1), w2, C1, C2);
        float[] b2 = conv(conv(imageB, w1, 1, C1), w2, C1, C2);
        double[] v = new double[2 * C2];
        int ho = side / 2;
        for (int ch = 0; ch < C2; ch++) {
            v[ch] = poolAverage(a2, ch, ho);
            v[C2 + ch] = poolAverage(b2, ch, ho);
        }
        Errors maps = new Errors("feature maps", 1e-4);
        float[] da2 = (float[]) results.get("a2");
        float[] db2 = (float[]) results.get("b2");
        for (int i = 0; i < a2.length; i++) {
            maps.add("a2[" + i + "]", da2[i], a2[i], 1);
            maps.add("b2[" + i + "]", db2[i], b2[i], 1);
        }
        Errors out = new Errors("features and scores", 1e-4);
        float[] dv = (float[]) results.get("features");
        for (int i = 0; i < v.length; i++) {
            out.add("features[" + i + "]", dv[i], v[i], 1);
        }
        float[] scores = (float[]) results.get("scores");
        for (int k = 0; k < OUTPUTS; k++) {
            double s = 0;
            for (int j = 0; j < 2 * C2; j++) {
                s += v[j] * wd[k * 2 * C2 + j];
            }
            out.add("scores[" + k + "]", scores[k], s, 1);
        }
        return maps.verdict() + ", " + out.verdict();
    }

    private float[] conv(float[] in, float[] w, int cin, int cout) {
        float[] out = new float[cout * side * side];
        for (int co = 0; co < cout; co++) {
            for (int y = 0; y < side; y++) {
                for (int x = 0; x < side; x++) {
                    double s = 0;
                    for (int ci = 0; ci < cin; ci++) {
                        for (int ky = -1; ky <= 1; ky++) {
                            for (int kx = -1; kx <= 1; kx++) {
                                int yy = y + ky;
                                int xx = x + kx;
                                if (yy >= 0 && yy < side && xx >= 0 && xx < side) {
                                    s += w[((co * cin + ci) * 3 + ky + 1) * 3 + kx + 1]
                                            * in[(ci * side + yy) * side + xx];
                                }
                            }
                        }
                    }
                    out[(co * side + y) * side + x] = (float) Math.max(s, 0);
                }
            }
        }
        return out;
    }

    private double poolAverage(float[] map, int ch, int ho) {
        double sum = 0;
        for (int y = 0; y < ho; y++) {
            for (int x = 0; x < ho; x++) {
                int k = (ch * side + 2 * y) * side + 2 * x;
                sum += Math.max(Math.max(map[k], map[k + 1]), Math.max(map[k + side], map[k + side + 1]));
            }
        }
        return sum / (ho * ho);
    }
}
