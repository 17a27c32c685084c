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
 * <p>Ulp bounds come from the CUDA C Programming Guide's table of single-precision functions: {@code expf}
 * at most 2 ulp from the correctly rounded result, {@code logf} 1 ulp, {@code sqrtf} and division 0 (IEEE, with
 * nvcc's default {@code -prec-sqrt=true -prec-div=true}). The engine's float functions compute in double and
 * round once (at most 1 ulp, see {@code CudaMath}), so the two sides' results of one call lie at most 2 + 1 = 3
 * ulp apart. How such differences grow through the rest of a kernel is derived at each case.
 */
final class OracleCorpusMath {
    /** expf: CUDA's 2 ulp plus the engine's 1. */
    static final int EXPF_APART = 3;
    /** logf: CUDA's 1 ulp plus the engine's 1. */
    static final int LOGF_APART = 2;

    private OracleCorpusMath() {
    }

    static List<OracleCase> all(CorpusInputs in) {
        List<OracleCase> cases = new ArrayList<>();
        cases.add(blackScholes(in));
        cases.add(softmax(in));
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
