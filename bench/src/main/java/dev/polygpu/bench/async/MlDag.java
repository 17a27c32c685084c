package dev.polygpu.bench.async;

import java.util.Map;

/**
 * ML: an ensemble classifier. A ridge regression branch (standardize, dot products, intercept) and a naive
 * Bayes branch (log-likelihoods, row max, log-sum-exp, exp), a softmax on each, then the argmax of their sum.
 *
 * <pre>
 * rr_1(x → z)        nb_1(x → nb)          width 2: one kernel of each branch at a time;
 * rr_2(z → rr)       nb_2(nb → max)        both first kernels read x, so under no-const
 * rr_3(rr)           nb_3(nb, max → lse)   nb_1 waits for rr_1 (with-const: it does not)
 * softmax(rr)        nb_4(nb, lse)
 *      \             softmax(nb)
 *       argmax(rr, nb → label)
 * </pre>
 */
final class MlDag extends DagCase {
    static final String KERNELS = """
            __global__ void nb_1(const float *x, const float *feature_log_prob, const float *class_log_prior,
                                 float *ret, int n, int features, int classes) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    for (int c = 0; c < classes; c++) {
                        float s = class_log_prior[c];
                        for (int f = 0; f < features; f++) {
                            s += x[i * features + f] * feature_log_prob[c * features + f];
                        }
                        ret[i * classes + c] = s;
                    }
                }
            }

            __global__ void nb_2(const float *ret, float *row_max, int n, int classes) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    float m = ret[i * classes];
                    for (int c = 1; c < classes; c++) {
                        m = fmaxf(m, ret[i * classes + c]);
                    }
                    row_max[i] = m;
                }
            }

            __global__ void nb_3(const float *ret, const float *row_max, float *lse, int n, int classes) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    float s = 0.0f;
                    for (int c = 0; c < classes; c++) {
                        s += expf(ret[i * classes + c] - row_max[i]);
                    }
                    lse[i] = logf(s) + row_max[i];
                }
            }

            __global__ void nb_4(float *ret, const float *lse, int n, int classes) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    for (int c = 0; c < classes; c++) {
                        ret[i * classes + c] = expf(ret[i * classes + c] - lse[i]);
                    }
                }
            }

            __global__ void rr_1(const float *x, float *z, const float *mean, const float *stdev, int n, int features) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n * features; i += blockDim.x * gridDim.x) {
                    int f = i % features;
                    z[i] = (x[i] - mean[f]) / stdev[f];
                }
            }

            __global__ void rr_2(const float *z, const float *coef, float *ret, int n, int features, int classes) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    for (int c = 0; c < classes; c++) {
                        float s = 0.0f;
                        for (int f = 0; f < features; f++) {
                            s += z[i * features + f] * coef[c * features + f];
                        }
                        ret[i * classes + c] = s;
                    }
                }
            }

            __global__ void rr_3(float *ret, const float *intercept, int n, int classes) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n * classes; i += blockDim.x * gridDim.x) {
                    ret[i] += intercept[i % classes];
                }
            }

            __global__ void softmax(float *ret, int n, int classes) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    float m = ret[i * classes];
                    for (int c = 1; c < classes; c++) {
                        m = fmaxf(m, ret[i * classes + c]);
                    }
                    float s = 0.0f;
                    for (int c = 0; c < classes; c++) {
                        s += expf(ret[i * classes + c] - m);
                    }
                    for (int c = 0; c < classes; c++) {
                        ret[i * classes + c] = expf(ret[i * classes + c] - m) / s;
                    }
                }
            }

            __global__ void argmax(const float *a, const float *b, int *label, int n, int classes) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    int best = 0;
                    float best_score = a[i * classes] + b[i * classes];
                    for (int c = 1; c < classes; c++) {
                        float score = a[i * classes + c] + b[i * classes + c];
                        if (score > best_score) {
                            best = c;
                            best_score = score;
                        }
                    }
                    label[i] = best;
                }
            }
            """;
    private static final int FEATURES = 32;
    private static final int CLASSES = 8;
    private static final int THREADS = 256;

    private final int n;
    private final float[] x;
    private final float[] featureLogProb;
    private final float[] classLogPrior;
    private final float[] mean;
    private final float[] stdev;
    private final float[] coef;
    private final float[] intercept;

    MlDag(boolean quick, int blocks) {
        super(quick, blocks);
        this.n = quick ? 1 << 11 : 1 << 15;
        Lcg rnd = new Lcg(11);
        x = new float[n * FEATURES];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) Math.floor(rnd.next() * 10);
        }
        featureLogProb = new float[CLASSES * FEATURES];
        for (int i = 0; i < featureLogProb.length; i++) {
            featureLogProb[i] = (float) (Math.log(0.02 + rnd.next()) - 2.0);
        }
        classLogPrior = new float[CLASSES];
        java.util.Arrays.fill(classLogPrior, (float) Math.log(1.0 / CLASSES));
        mean = rnd.floats(FEATURES, 4.5, 4.6);
        stdev = rnd.floats(FEATURES, 2.5, 3.0);
        coef = rnd.floats(CLASSES * FEATURES, -0.5, 0.5);
        intercept = rnd.floats(CLASSES, -0.5, 0.5);
    }

    @Override
    String name() {
        return "ML";
    }

    @Override
    String size() {
        return String.format("%,d rows x %d features, %d classes", n, FEATURES, CLASSES);
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
        Kernel nb1 = s.kernel(KERNELS, "nb_1(x: in pointer float, feature_log_prob: in pointer float,"
                + " class_log_prior: in pointer float, ret: out pointer float, n: sint32, features: sint32,"
                + " classes: sint32)");
        Kernel nb2 = s.kernel(KERNELS, "nb_2(ret: in pointer float, row_max: out pointer float, n: sint32,"
                + " classes: sint32)");
        Kernel nb3 = s.kernel(KERNELS, "nb_3(ret: in pointer float, row_max: in pointer float,"
                + " lse: out pointer float, n: sint32, classes: sint32)");
        Kernel nb4 = s.kernel(KERNELS, "nb_4(ret: inout pointer float, lse: in pointer float, n: sint32,"
                + " classes: sint32)");
        Kernel rr1 = s.kernel(KERNELS, "rr_1(x: in pointer float, z: out pointer float, mean: in pointer float,"
                + " stdev: in pointer float, n: sint32, features: sint32)");
        Kernel rr2 = s.kernel(KERNELS, "rr_2(z: in pointer float, coef: in pointer float, ret: out pointer float,"
                + " n: sint32, features: sint32, classes: sint32)");
        Kernel rr3 = s.kernel(KERNELS, "rr_3(ret: inout pointer float, intercept: in pointer float, n: sint32,"
                + " classes: sint32)");
        Kernel softmax = s.kernel(KERNELS, "softmax(ret: inout pointer float, n: sint32, classes: sint32)");
        Kernel argmax = s.kernel(KERNELS, "argmax(a: in pointer float, b: in pointer float,"
                + " label: out pointer sint32, n: sint32, classes: sint32)");
        DevArray dx = s.array("x", x);
        DevArray flp = s.array("feature_log_prob", featureLogProb);
        DevArray prior = s.array("class_log_prior", classLogPrior);
        DevArray dmean = s.array("mean", mean);
        DevArray dstdev = s.array("stdev", stdev);
        DevArray dcoef = s.array("coef", coef);
        DevArray dintercept = s.array("intercept", intercept);
        DevArray z = s.array("z", "float", n * FEATURES);
        DevArray rr = s.array("rr", "float", n * CLASSES);
        DevArray nb = s.array("nb", "float", n * CLASSES);
        DevArray rowMax = s.array("row_max", "float", n);
        DevArray lse = s.array("lse", "float", n);
        DevArray label = s.array("label", "int", n);
        return new Program(s) {
            @Override
            void run() {
                rr1.launch(blocks, THREADS, dx, z, dmean, dstdev, n, FEATURES);
                rr2.launch(blocks, THREADS, z, dcoef, rr, n, FEATURES, CLASSES);
                rr3.launch(blocks, THREADS, rr, dintercept, n, CLASSES);
                nb1.launch(blocks, THREADS, dx, flp, prior, nb, n, FEATURES, CLASSES);
                nb2.launch(blocks, THREADS, nb, rowMax, n, CLASSES);
                nb3.launch(blocks, THREADS, nb, rowMax, lse, n, CLASSES);
                nb4.launch(blocks, THREADS, nb, lse, n, CLASSES);
                softmax.launch(blocks, THREADS, rr, n, CLASSES);
                softmax.launch(blocks, THREADS, nb, n, CLASSES);
                argmax.launch(blocks, THREADS, rr, nb, label, n, CLASSES);
            }

            @Override
            Map<String, Object> results() {
                return copy(rr, nb, label);
            }
        };
    }

    @Override
    String check(Map<String, Object> results) {
        float[] rr = (float[]) results.get("rr");
        float[] nb = (float[]) results.get("nb");
        int[] label = (int[]) results.get("label");
        Errors probabilities = new Errors("probabilities", 2e-4);
        int wrongLabels = 0;
        double[] r = new double[CLASSES];
        double[] b = new double[CLASSES];
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < CLASSES; c++) {
                double sr = 0;
                double sb = classLogPrior[c];
                for (int f = 0; f < FEATURES; f++) {
                    float xf = x[i * FEATURES + f];
                    sr += (xf - mean[f]) / stdev[f] * coef[c * FEATURES + f];
                    sb += xf * featureLogProb[c * FEATURES + f];
                }
                r[c] = sr + intercept[c];
                b[c] = sb;
            }
            softmax(r);
            softmax(b);
            softmax(b);
            int best = 0;
            for (int c = 0; c < CLASSES; c++) {
                probabilities.add("rr[" + i + "][" + c + "]", rr[i * CLASSES + c], r[c], 1);
                probabilities.add("nb[" + i + "][" + c + "]", nb[i * CLASSES + c], b[c], 1);
                if (r[c] + b[c] > r[best] + b[best]) {
                    best = c;
                }
            }
            int l = label[i];
            if (l != best && Math.abs(r[l] + b[l] - r[best] - b[best]) > 1e-5) {
                wrongLabels++;
            }
        }
        if (wrongLabels > 0) {
            throw new AssertionError(wrongLabels + " labels differ from plain Java");
        }
        return probabilities.verdict() + ", labels equal";
    }

    private static void softmax(double[] v) {
        double m = Double.NEGATIVE_INFINITY;
        for (double d : v) {
            m = Math.max(m, d);
        }
        double s = 0;
        for (int c = 0; c < v.length; c++) {
            v[c] = Math.exp(v[c] - m);
            s += v[c];
        }
        for (int c = 0; c < v.length; c++) {
            v[c] /= s;
        }
    }
}
