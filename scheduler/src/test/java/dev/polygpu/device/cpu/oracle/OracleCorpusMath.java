package dev.polygpu.device.cpu.oracle;

import static dev.polygpu.device.cpu.oracle.CorpusInputs.ceilDiv;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.f32;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.i32;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.launch;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.source;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.u8;

import dev.polygpu.device.LaunchConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The corpus kernels that call math functions (Black-Scholes, softmax) and the GrCUDA-style image pipeline.
 *
 * <p>Ulp bounds come from the CUDA C Programming Guide's tables of the maximum error of each function, in ulp
 * from the correctly rounded result: {@code expf}, {@code erff}, {@code tanhf}, {@code sinf}, {@code cosf},
 * {@code rsqrtf} 2, {@code logf}, {@code log1pf}, {@code expm1f} 1, {@code powf} 8; {@code sqrtf} and division
 * 0 (IEEE, with nvcc's default {@code -prec-sqrt=true -prec-div=true}). The engine's float functions compute in
 * double and round once, within 1 ulp of the correctly rounded result ({@code CudaMath}), so one call's results
 * on the two sides lie at most the CUDA bound + 1 apart. Where a value goes on through further operations, the
 * bound adds up relative differences in units of 2^-23 (each function's bound, one unit for each rounding of a
 * value that may already differ, times the amplification of a sum whose terms cancel) and doubles the total,
 * because a relative difference of d units is at most 2d ulp of the result (an ulp is between 2^-24 and 2^-23
 * of the value).
 */
final class OracleCorpusMath {
    /** expf: CUDA's 2 ulp plus the engine's 1. */
    static final int EXPF_APART = 3;
    /** logf: CUDA's 1 ulp plus the engine's 1. */
    static final int LOGF_APART = 2;
    /** erff, tanhf, sinf, cosf, rsqrtf: CUDA's 2 ulp plus the engine's 1. */
    static final int TWO_ULP_APART = 3;
    /** log1pf, expm1f: CUDA's 1 ulp plus the engine's 1. */
    static final int ONE_ULP_APART = 2;
    /** powf: CUDA's 8 ulp plus the engine's 1. */
    static final int POWF_APART = 9;

    private OracleCorpusMath() {
    }

    static List<OracleCase> all(CorpusInputs in) {
        List<OracleCase> cases = new ArrayList<>();
        cases.add(blackScholes(in));
        cases.add(softmax(in));
        cases.add(activations(in));
        cases.add(layerNorm(in));
        rope(in, cases);
        cases.add(doubleMath(in));
        image(in, cases);
        return cases;
    }

    private static OracleCase kase(String file, String kernel, LaunchConfig config, OracleArg... args) {
        return new OracleCase(file + ":" + kernel, source(file), kernel, config, List.of(args));
    }

    /**
     * Options near the money (strike within 0.8 to 1.25 of the spot) over a quarter to two years. Each product
     * {@code S * CND(d1)} and {@code X * exp(-rT) * CND(d2)} differs between the sides by at most about
     * {@link #TERM_APART} ulp (an expf inside CND, an expf for the discount, a logf feeding d1 and d2 whose
     * effect on CND is damped by the density, and the roundings after each); the price is the difference of
     * the two products, so that bound grows by (|A| + |B|) / |A - B|, computed here in double for every option.
     */
    private static OracleCase blackScholes(CorpusInputs in) {
        int n = 2000;
        float r = 0.02f;
        float v = 0.30f;
        float[] spot = in.uniform(n, 20, 40);
        float[] ratio = in.uniform(n, 0.8, 1.25);
        float[] strike = new float[n];
        for (int i = 0; i < n; i++) {
            strike[i] = spot[i] * ratio[i];
        }
        float[] years = in.uniform(n, 0.25, 2);
        double callGrowth = 1;
        double putGrowth = 1;
        for (int i = 0; i < n; i++) {
            double s = spot[i];
            double x = strike[i];
            double t = years[i];
            double d1 = (Math.log(s / x) + (r + 0.5 * v * v) * t) / (v * Math.sqrt(t));
            double d2 = d1 - v * Math.sqrt(t);
            double disc = Math.exp(-r * t);
            double a = s * normalCdf(d1);
            double b = x * disc * normalCdf(d2);
            callGrowth = Math.max(callGrowth, (a + b) / Math.abs(a - b));
            double pa = x * disc * (1 - normalCdf(d2));
            double pb = s * (1 - normalCdf(d1));
            putGrowth = Math.max(putGrowth, (pa + pb) / Math.abs(pa - pb));
        }
        return kase("blackscholes.cu", "black_scholes", launch(4, 128, 0),
                f32("call", in.gaussian(n, 1), (int) Math.ceil(TERM_APART * callGrowth)),
                f32("put", in.gaussian(n, 1), (int) Math.ceil(TERM_APART * putGrowth)),
                f32("spot", spot), f32("strike", strike), f32("years", years), f32(r), f32(v), i32(n));
    }

    /**
     * Ulp a Black-Scholes product may differ by: {@link #EXPF_APART} for the expf in CND, as much again for the
     * discount, {@link #LOGF_APART} from d1, and one per rounding of the products and sums that follow.
     */
    static final int TERM_APART = 2 * EXPF_APART + LOGF_APART + 4;

    /** The standard normal distribution function in double (Zelen and Severo's 26.2.17 is within 7.5e-8). */
    private static double normalCdf(double d) {
        double k = 1 / (1 + 0.2316419 * Math.abs(d));
        double poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978
                + k * 1.330274429))));
        double c = Math.exp(-0.5 * d * d) / Math.sqrt(2 * Math.PI) * poly;
        return d > 0 ? 1 - c : c;
    }

    /**
     * 16 rows of 300, one block of 128 per row. {@code y = e / sum}: e is one expf ({@link #EXPF_APART} ulp
     * apart; the argument {@code x - max} is the same rounded difference on both sides); the sum of positive
     * terms keeps their relative difference and adds at most one ulp per addition that differs, over the
     * three serial additions per thread and the seven tree levels; the quotient rounds once more. So the
     * quotient differs by at most 3 + 3 + 10 + 1 = 17 units of relative error 2^-24; ulp distance can be twice
     * that where the value lies just above a power of two.
     */
    private static OracleCase softmax(CorpusInputs in) {
        int rows = 16;
        int cols = 300;
        int bound = 2 * (EXPF_APART + EXPF_APART + 10 + 1);
        return kase("softmax.cu", "softmax_rows", launch(rows, 128, 128 * 4),
                f32("in", in.gaussian(rows * cols, 3)), f32("out", in.gaussian(rows * cols, 1), bound), i32(cols));
    }

    /**
     * Activations of pre-activation values in [-2, 4]. sigmoid: expf, then 1 + e (no cancellation, one
     * rounding) and the quotient (one more): 2 * (3 + 1 + 1). SiLU multiplies once more. softplus: log1pf of
     * expf's result, whose relative change is damped by e / ((1 + e) log1p(e)) &le; 1: 2 * (3 + 2). ELU is one
     * expm1f. The GELUs add 1 to erff or tanhf of values down to -1.9, which amplifies the function's difference
     * by |f| / |1 + f|, computed here for every input; then one rounding for the sum and one for the product.
     */
    private static OracleCase activations(CorpusInputs in) {
        int n = 3000;
        float[] x = in.uniform(n, -2, 4);
        double erfGrowth = 1;
        double tanhGrowth = 1;
        for (float v : x) {
            double e = erfEstimate(v * 0.70710678f);
            erfGrowth = Math.max(erfGrowth, Math.abs(e) / Math.abs(1 + e));
            double t = Math.tanh(0.7978845608f * (v + 0.044715f * v * v * v));
            tanhGrowth = Math.max(tanhGrowth, Math.abs(t) / Math.abs(1 + t));
        }
        return kase("activations.cu", "activations", launch(8, 128, 0), f32("x", x),
                f32("sigmoid", in.gaussian(n, 1), 2 * (EXPF_APART + 2)),
                f32("silu", in.gaussian(n, 1), 2 * (EXPF_APART + 3)),
                f32("geluErf", in.gaussian(n, 1), (int) Math.ceil(2 * (TWO_ULP_APART * erfGrowth + 2))),
                f32("geluTanh", in.gaussian(n, 1), (int) Math.ceil(2 * (TWO_ULP_APART * tanhGrowth + 2))),
                f32("softplus", in.gaussian(n, 1), 2 * (EXPF_APART + ONE_ULP_APART)),
                f32("elu", in.gaussian(n, 1), ONE_ULP_APART), i32(n));
    }

    /**
     * 12 rows of 500. The mean and variance are the same sums on both sides, so the one difference is rsqrtf
     * ({@link #TWO_ULP_APART}, also the bound of the stored reciprocal). Each output multiplies it twice and
     * adds beta: 2 * ((3 + 2) * amplification + 1), the amplification (|a| + |beta|) / |a + beta| of the final
     * sum computed here in double for every element.
     */
    private static OracleCase layerNorm(CorpusInputs in) {
        int rows = 12;
        int cols = 500;
        float[] x = in.gaussian(rows * cols, 2);
        float[] gamma = in.uniform(cols, 0.5, 1.5);
        float[] beta = in.uniform(cols, 6, 7);
        double growth = 1;
        for (int r = 0; r < rows; r++) {
            double mean = 0;
            for (int c = 0; c < cols; c++) {
                mean += x[r * cols + c];
            }
            mean /= cols;
            double var = 0;
            for (int c = 0; c < cols; c++) {
                var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
            }
            double inv = 1 / Math.sqrt(var / cols + 1e-5);
            for (int c = 0; c < cols; c++) {
                double a = (x[r * cols + c] - mean) * inv * gamma[c];
                growth = Math.max(growth, (Math.abs(a) + beta[c]) / Math.abs(a + beta[c]));
            }
        }
        return kase("layernorm.cu", "layernorm_rows", launch(rows, 128, 128 * 4), f32("x", x), f32("gamma", gamma),
                f32("beta", beta), f32("y", in.gaussian(rows * cols, 1), (int) Math.ceil(2 * (5 * growth + 1))),
                f32("rowInvStd", in.gaussian(rows, 1), TWO_ULP_APART), i32(cols), f32(1e-5f));
    }

    /**
     * RoPE for 40 tokens of 64 features. The inverse frequencies are one powf each; the cache one sincosf of an
     * angle that is the same product on both sides; the rotation only multiplies and adds given values (bits).
     */
    private static void rope(CorpusInputs in, List<OracleCase> out) {
        int tokens = 40;
        int half = 32;
        out.add(kase("rope.cu", "rope_inv_freq", launch(1, 64, 0), f32("invFreq", in.gaussian(half, 1), POWF_APART),
                i32(half), f32(10000f)));
        float[] inv = new float[half];
        for (int k = 0; k < half; k++) {
            inv[k] = (float) Math.pow(10000, -(double) k / half);
        }
        out.add(kase("rope.cu", "rope_cache", launch(tokens, half, 0), f32("invFreq", inv),
                f32("cos", in.gaussian(tokens * half, 1), TWO_ULP_APART),
                f32("sin", in.gaussian(tokens * half, 1), TWO_ULP_APART), i32(tokens), i32(half)));
        float[] angles = in.uniform(tokens * half, 0, 40);
        float[] cos = new float[angles.length];
        float[] sin = new float[angles.length];
        for (int i = 0; i < angles.length; i++) {
            cos[i] = (float) Math.cos(angles[i]);
            sin[i] = (float) Math.sin(angles[i]);
        }
        out.add(kase("rope.cu", "rope_rotate", launch(tokens, half, 0), f32("q", in.gaussian(2 * tokens * half, 1)),
                f32("cos", cos), f32("sin", sin), f32("out", in.gaussian(2 * tokens * half, 1)), i32(tokens),
                i32(half)));
    }

    /**
     * Each output is one function of arguments that both sides compute alike, so its bound is CUDA's plus the
     * engine's (java.lang.Math: 1 ulp for exp, log, log1p, sin, cos, tan, cbrt, pow and hypot, 2 for atan2; the
     * engine's erf 2 and erfc 3, measured in ErrorFunctionTest; rsqrt and sqrt round once): 1 + 1 for the first
     * group, 2 + 2 for the second, 4 + 3 for erfc.
     */
    private static OracleCase doubleMath(CorpusInputs in) {
        int n = 300;
        return kase("dmath.cu", "dmath", launch(ceilDiv(n, 128), 128, 0),
                CorpusInputs.f64("x", in.gaussianDoubles(n, 1.5)), CorpusInputs.f64("y", in.gaussianDoubles(n, 1.5)),
                f64("tight", 8 * n, 2), f64("loose", 5 * n, 4), f64("erfc", n, 7), i32(n));
    }

    private static OracleArg.Buffer f64(String name, int n, int maxUlp) {
        return new OracleArg.Buffer(name, OracleType.F64, new byte[8 * n], maxUlp);
    }

    /**
     * erf(x) within 1.5e-7 (Abramowitz and Stegun 7.1.26): enough to size the amplification |erf| / |1 + erf|,
     * which only needs a few correct digits.
     */
    private static double erfEstimate(double x) {
        double t = 1 / (1 + 0.3275911 * Math.abs(x));
        double poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
                + t * 1.061405429))));
        double y = 1 - poly * Math.exp(-x * x);
        return x >= 0 ? y : -y;
    }

    /** Every stage of the image pipeline on a 64 x 48 image; only sqrtf and IEEE operations, so bit for bit. */
    private static void image(CorpusInputs in, List<OracleCase> out) {
        int cols = 64;
        int rows = 48;
        int n = rows * cols;
        LaunchConfig flat = launch(4, 256, 0);
        out.add(kase("image.cu", "img_to_float", flat, u8("src", in.skewedBytes(n)),
                f32("dst", in.gaussian(n, 1)), i32(n)));
        int diameter = 5;
        float[] weights = new float[diameter * diameter];
        for (int y = 0; y < diameter; y++) {
            for (int x = 0; x < diameter; x++) {
                double r2 = (x - 2) * (x - 2) + (y - 2) * (y - 2);
                weights[y * diameter + x] = (float) Math.exp(-r2 / (2 * 1.5 * 1.5));
            }
        }
        LaunchConfig tiles = launch(ceilDiv(cols, 16), ceilDiv(rows, 16), 16, 16, diameter * diameter * 4);
        out.add(kase("image.cu", "img_gaussian_blur", tiles, f32("img", in.uniform(n, 0, 1)),
                f32("out", in.gaussian(n, 1)), i32(rows), i32(cols), f32("weights", weights), i32(diameter)));
        out.add(kase("image.cu", "img_sobel", launch(ceilDiv(cols, 16), ceilDiv(rows, 16), 16, 16, 0),
                f32("img", in.uniform(n, 0, 1)), f32("out", in.gaussian(n, 1)), i32(rows), i32(cols)));
        out.add(kase("image.cu", "img_extrema", launch(4, 128, 0), f32("img", in.uniform(n, 0, 3)), i32(n),
                i32("maxBits", new int[] {0}), i32("minBits", new int[] {0x7f800000})));
        out.add(kase("image.cu", "img_extend", flat, f32("img", in.uniform(n, 0, 1)), i32(n), f32(0.1f),
                f32(0.8f)));
        out.add(kase("image.cu", "img_unsharpen", flat, f32("img", in.uniform(n, 0, 1)),
                f32("blurred", in.uniform(n, 0, 1)), f32("out", in.gaussian(n, 1)), i32(n), f32(0.6f)));
        out.add(kase("image.cu", "img_combine", flat, f32("a", in.uniform(n, 0, 1)), f32("b", in.uniform(n, 0, 1)),
                f32("mask", in.uniform(n, 0, 1)), f32("out", in.gaussian(n, 1)), i32(n)));
        out.add(kase("image.cu", "img_to_bytes", flat, f32("src", in.uniform(n, -0.2, 1.2)),
                u8("dst", in.skewedBytes(n)), i32(n)));
    }
}
