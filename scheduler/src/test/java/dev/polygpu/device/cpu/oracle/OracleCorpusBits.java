package dev.polygpu.device.cpu.oracle;

import static dev.polygpu.device.cpu.oracle.CorpusInputs.ceilDiv;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.f32;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.f64;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.i32;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.launch;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.source;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.u32;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.u8;

import dev.polygpu.device.LaunchConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Corpus kernels whose work is integer arithmetic, bit manipulation, conversions, warp votes and control flow
 * (warp scans, a radix-sort split, median filter, Game of Life, Mandelbrot, random numbers, k-means, particles,
 * int8 quantization, bit tricks, votes, a double-precision gemv with a CAS maximum, recursion and a CSV
 * parser). All compare bit for bit.
 */
final class OracleCorpusBits {
    private OracleCorpusBits() {
    }

    static List<OracleCase> all(CorpusInputs in) {
        List<OracleCase> out = new ArrayList<>();
        scansAndSorts(in, out);
        images(in, out);
        numerics(in, out);
        integers(in, out);
        return out;
    }

    private static OracleCase kase(String file, String kernel, LaunchConfig config, OracleArg... args) {
        return new OracleCase(file + ":" + kernel, source(file), kernel, config, List.of(args));
    }

    private static OracleArg.Buffer u64(String name, long[] v) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(v.length * 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long x : v) {
            b.putLong(x);
        }
        return new OracleArg.Buffer(name, OracleType.U64, b.array(), 0);
    }

    private static OracleArg.Buffer i64(String name, int n) {
        return new OracleArg.Buffer(name, OracleType.I64, new byte[8 * n], 0);
    }

    private static void scansAndSorts(CorpusInputs in, List<OracleCase> out) {
        int n = 1000;
        out.add(kase("warpscan.cu", "warp_scan_i32", launch(ceilDiv(n, 256), 256, 0),
                i32("in", in.ints(n, -1000, 1000)), i32("out", in.ints(n, 0, 9)), i32("blockTotals",
                        in.ints(4, 0, 9)), i32(n)));
        out.add(kase("warpscan.cu", "warp_scan_f32", launch(ceilDiv(n, 192), 192, 0),
                f32("in", in.gaussian(n, 1)), f32("out", in.gaussian(n, 1)), f32("blockTotals",
                        in.gaussian(ceilDiv(n, 192), 1)), i32(n)));
        int blocks = 6;
        out.add(kase("radix.cu", "radix_split_bit", launch(blocks, 256, 0),
                u32("keys", in.ints(blocks * 256, 0, 1 << 20)), u32("out", new int[blocks * 256]),
                i32("zerosPerBlock", new int[blocks]), i32(5)));
    }

    private static void images(CorpusInputs in, List<OracleCase> out) {
        int w = 50;
        int h = 37;
        out.add(kase("median.cu", "median3x3", launch(ceilDiv(w, 16), ceilDiv(h, 16), 16, 16, 0),
                u8("src", in.skewedBytes(w * h)), u8("dst", new byte[w * h]), i32(w), i32(h)));
        byte[] cells = new byte[w * h];
        int[] alive = in.ints(w * h, 0, 3);
        for (int i = 0; i < cells.length; i++) {
            cells[i] = (byte) (alive[i] == 0 ? 1 : 0);
        }
        out.add(kase("life.cu", "life_step", launch(ceilDiv(w, 16), ceilDiv(h, 8), 16, 8, 0),
                u8("cells", cells), u8("next", in.skewedBytes(w * h)), i32(w), i32(h)));
        int mw = 64;
        int mh = 40;
        out.add(kase("mandelbrot.cu", "mandelbrot", launch(ceilDiv(mw, 32), ceilDiv(mh, 8), 32, 8, 0),
                i32("iterations", new int[mw * mh]), i32(mw), i32(mh), f32(-2.1f), f32(-1.2f), f32(0.0375f),
                i32(200)));
    }

    private static void numerics(CorpusInputs in, List<OracleCase> out) {
        int n = 777;
        out.add(kase("rng.cu", "rng_uniform", launch(ceilDiv(n, 128), 128, 0), f32("out", in.gaussian(n, 1)),
                u32("raw", new int[n]), i32(n), new OracleArg.Scalar(OracleType.U64, 0x1234_5678_9abc_def0L)));
        out.add(kase("rng.cu", "rng_pi", launch(4, 64, 0), u64("inside", new long[] {5}), i32(50),
                new OracleArg.Scalar(OracleType.U32, 0xdeadbeefL)));

        int points = 600;
        int k = 7;
        out.add(kase("kmeans.cu", "kmeans_assign", launch(ceilDiv(points, 128), 128, k * 12),
                f32("points", in.gaussian(3 * points, 5)), f32("centroids", in.gaussian(3 * k, 5)),
                i32("membership", in.ints(points, 0, 9)), i32("clusterSizes", new int[k]), i32(points), i32(k)));

        int particles = 300;
        float[] ps = new float[8 * particles];
        float[] rnd = in.uniform(8 * particles, -1, 1);
        for (int p = 0; p < particles; p++) {
            ps[8 * p] = rnd[8 * p] * 10;
            ps[8 * p + 1] = (rnd[8 * p + 1] + 1) * 10;
            ps[8 * p + 2] = rnd[8 * p + 2] * 10;
            ps[8 * p + 3] = rnd[8 * p + 3] * 30;
            ps[8 * p + 4] = rnd[8 * p + 4] * 30;
            ps[8 * p + 5] = rnd[8 * p + 5] * 30;
            ps[8 * p + 6] = (rnd[8 * p + 6] + 1) * 2.5f;
            ps[8 * p + 7] = Float.intBitsToFloat(p % 5 == 0 ? 0 : 1); // the int field 'alive'
        }
        out.add(kase("particles.cu", "particles_step", launch(ceilDiv(particles, 128), 128, 0),
                f32("particles", ps), i32(particles), f32(0.05f), f32(0.3f), f32(4.9f)));

        int rows = 40;
        int cols = 100;
        out.add(kase("gemv.cu", "gemv_warp_f64", launch(ceilDiv(rows * 32, 128), 128, 0),
                f64("A", in.gaussianDoubles(rows * cols, 1)), f64("x", in.gaussianDoubles(cols, 1)),
                f64("y", in.gaussianDoubles(rows, 1)), i32(rows), i32(cols),
                new OracleArg.Scalar(OracleType.F64, Double.doubleToRawLongBits(1.5)),
                new OracleArg.Scalar(OracleType.F64, Double.doubleToRawLongBits(-0.25))));
        out.add(kase("gemv.cu", "max_abs_f32", launch(6, 128, 0), f32("x", in.gaussian(5000, 4)),
                f32("result", new float[] {0}), i32(5000)));
    }

    private static void integers(CorpusInputs in, List<OracleCase> out) {
        int rows = 8;
        int cols = 300;
        float[] x = in.gaussian(rows * cols, 2);
        for (int i = 0; i < x.length; i += 9) {
            x[i] = Math.round(x[i] * 2) / 2f; // halves, so that rounding meets its ties
        }
        out.add(kase("quantize.cu", "quantize_rows", launch(rows, 128, 0), f32("x", x),
                u8("q", new byte[rows * cols]), f32("scales", new float[rows]), i32(cols)));
        byte[] qa = new byte[rows * cols];
        byte[] qb = new byte[rows * cols];
        int[] ra = in.ints(rows * cols, -127, 128);
        int[] rb = in.ints(rows * cols, -127, 128);
        for (int i = 0; i < qa.length; i++) {
            qa[i] = (byte) ra[i];
            qb[i] = (byte) rb[i];
        }
        out.add(kase("quantize.cu", "int8_dot_dequant", launch(1, 32, 0), u8("a", qa), u8("b", qb),
                f32("scaleA", in.uniform(rows, 0.001, 0.1)), f32("scaleB", in.uniform(rows, 0.001, 0.1)),
                i32("dots", new int[rows]), f32("out", new float[rows]), i32(rows), i32(cols)));
        int n = 200;
        float[] v = in.gaussian(n, 100);
        for (int i = 0; i < n; i += 4) {
            v[i] = Math.round(v[i]) + (i % 8 == 0 ? 0.5f : -0.5f); // ties for the roundings
        }
        for (int i = 1; i < n; i += 10) {
            v[i] = 3.5e6f + i; // |v| * 1000 between 2^31 and 2^32: a conversion to unsigned beyond int's range
        }
        out.add(kase("quantize.cu", "float_conversions", launch(ceilDiv(n, 64), 64, 0), f32("x", v),
                i32("ints", new int[8 * n]), u32("uints", new int[2 * n]), f32("rounded", new float[6 * n]),
                f64("widened", new double[n]), i64("wide", n), i32(n)));

        int bn = 300;
        int[] words = in.words(bn);
        words[0] = 0;
        words[1] = -1;
        out.add(kase("bits.cu", "bit_tricks", launch(ceilDiv(bn, 128), 128, 0), u32("in", words),
                i32("signedIn", in.ints(bn, -1_000_000, 1_000_000)), u32("out", new int[24 * bn]), i64("wide", 3 * bn),
                i32(bn)));

        int vn = 1000;
        int warps = ceilDiv(vn, 32);
        out.add(kase("vote.cu", "warp_votes", launch(ceilDiv(vn, 128), 128, 0), f32("x", in.gaussian(vn, 1)),
                f32(0.8f), i32(vn), u32("ballots", new int[ceilDiv(vn, 128) * 4]),
                i32("anyAll", new int[2 * ceilDiv(vn, 128) * 4]), i32("total", new int[] {warps})));

        int treeSize = 63;
        int trees = 40;
        int[] forest = in.ints(treeSize * trees, -20, 100);
        out.add(kase("tree.cu", "tree_sums", launch(1, 64, 0), i32("forest", forest), i32(treeSize), i32(trees),
                i32("sums", new int[trees]), i32("depths", new int[trees])));
        String csv = "a,b,c\n\"x,y\",2,3\n,,\n\"he said \"\"hi\"\"\",4\nplain\n\"\",\"\",\"\"\n1,2,3,4,5,6,7\n";
        String[] lines = csv.split("\n");
        int[] starts = new int[lines.length + 1];
        for (int l = 0; l < lines.length; l++) {
            starts[l + 1] = starts[l] + lines[l].length() + 1;
        }
        out.add(kase("tree.cu", "csv_fields", launch(1, 32, 0), u8("text", csv.getBytes(StandardCharsets.US_ASCII)),
                i32("lineStart", starts), i32(lines.length), i32("fields", new int[lines.length]),
                i32("quoted", new int[lines.length])));
    }
}
