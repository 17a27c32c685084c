package dev.polygpu.device.cpu.oracle;

import static dev.polygpu.device.cpu.oracle.CorpusInputs.ceilDiv;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.f32;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.f64;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.i32;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.launch;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.source;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.u32;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.u8;

import java.util.ArrayList;
import java.util.List;

/**
 * The corpus of real-world kernels for the differential oracle: the kinds of kernels users run (the sources
 * are {@code src/test/resources/oracle-corpus/*.cu}), each launched once on inputs drawn from one seed. Output
 * buffers start with random contents too, so an element a side forgets to write, or writes where it should
 * not, shows. Every buffer here compares bit for bit: the kernels use only operations CUDA defines exactly
 * (IEEE adds, multiplies, divisions and {@code sqrtf}, no contraction with {@code -fmad=false}), sum floats in
 * a fixed order and use atomics only on integers. The kernels with math functions, and their ulp bounds, are
 * in {@link OracleCorpusMath}.
 */
final class OracleCorpus {
    private OracleCorpus() {
    }

    /** Every corpus case, from {@code seed}. */
    static List<OracleCase> all(long seed) {
        CorpusInputs in = new CorpusInputs(seed);
        List<OracleCase> cases = new ArrayList<>();
        matmul(in, cases);
        stencilAndConvolution(in, cases);
        histogramAndScan(in, cases);
        sorting(in, cases);
        sparseAndGraph(in, cases);
        nbodyReduceTranspose(in, cases);
        cases.addAll(OracleCorpusMath.all(in));
        cases.addAll(OracleCorpusBits.all(in));
        cases.addAll(OracleCorpusFuzzFound.all(in));
        return cases;
    }

    private static OracleCase kase(String file, String kernel, dev.polygpu.device.LaunchConfig config,
            OracleArg... args) {
        return new OracleCase(file + ":" + kernel, source(file), kernel, config, List.of(args));
    }

    private static void matmul(CorpusInputs in, List<OracleCase> out) {
        int m = 48;
        int n = 40;
        int k = 70;
        for (int tile : new int[] {16, 32}) {
            out.add(kase("matmul.cu", "mm_tiled" + tile,
                    launch(ceilDiv(n, tile), ceilDiv(m, tile), tile, tile, 0),
                    f32("A", in.gaussian(m * k, 1)), f32("B", in.gaussian(k * n, 1)),
                    f32("C", in.gaussian(m * n, 1)), i32(m), i32(n), i32(k)));
        }
    }

    private static void stencilAndConvolution(CorpusInputs in, List<OracleCase> out) {
        int w = 45;
        int h = 37;
        out.add(kase("stencil.cu", "stencil2d_5pt", launch(ceilDiv(w, 16), ceilDiv(h, 16), 16, 16, 0),
                f32("in", in.uniform(w * h, -1, 1)), f32("out", in.gaussian(w * h, 1)), i32(w), i32(h),
                f32(0.5f), f32(0.125f)));
        int cw = 80;
        int ch = 50;
        out.add(kase("convolution.cu", "conv_rows", launch(ceilDiv(cw, 32), ceilDiv(ch, 4), 32, 4, 0),
                f32("src", in.uniform(cw * ch, 0, 1)), f32("dst", in.gaussian(cw * ch, 1)), i32(cw), i32(ch)));
        out.add(kase("convolution.cu", "conv_cols", launch(ceilDiv(cw, 16), ceilDiv(ch, 32), 16, 16, 0),
                f32("src", in.uniform(cw * ch, 0, 1)), f32("dst", in.gaussian(cw * ch, 1)), i32(cw), i32(ch)));
    }

    private static void histogramAndScan(CorpusInputs in, List<OracleCase> out) {
        int n = 6000;
        out.add(kase("histogram.cu", "hist256_shared", launch(6, 128, 0),
                u8("data", in.skewedBytes(n)), i32(n), u32("hist", in.ints(256, 0, 50))));
        int sn = 1000;
        out.add(kase("scan.cu", "scan_block", launch(ceilDiv(sn, 256), 128, 256 * 4),
                f32("in", in.gaussian(sn, 1)), f32("out", in.gaussian(sn, 1)),
                f32("blockSums", in.gaussian(ceilDiv(sn, 256), 1)), i32(sn)));
        int blocks = ceilDiv(sn, 128);
        out.add(kase("scan.cu", "scan_chained", launch(blocks, 128, 0),
                f32("in", in.gaussian(sn, 1)), f32("out", in.gaussian(sn, 1)), i32(sn),
                u32("ticketCounter", new int[1]), i32("ready", new int[blocks]),
                f32("runningTotal", in.gaussian(blocks, 1))));
    }

    private static void sorting(CorpusInputs in, List<OracleCase> out) {
        int blocks = 2;
        int threads = 256;
        int n = blocks * 2 * threads;
        float[] keys = in.gaussian(n, 100);
        for (int i = 0; i < n; i += 7) {
            keys[i] = Math.round(keys[i] / 50) * 50f; // repeated keys, so ties are decided by the network
        }
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = i;
        }
        out.add(kase("bitonic.cu", "bitonic_sort_shared", launch(blocks, threads, 2 * threads * 8),
                f32("keys", keys), u32("values", values)));
        int m = 2048;
        out.add(kase("bitonic.cu", "bitonic_merge_step", launch(m / 256, 256, 0),
                u32("keys", in.ints(m, 0, 1 << 30)), i32(64), i32(512)));
    }

    private static void sparseAndGraph(CorpusInputs in, List<OracleCase> out) {
        int rows = 160;
        CorpusInputs.Csr a = in.sparse(rows, 300, 60);
        float[] x = in.gaussian(300, 1);
        out.add(kase("spmv.cu", "spmv_csr_scalar", launch(ceilDiv(rows, 128), 128, 0), i32(rows),
                i32("rowStart", a.rowStart()), i32("colIndex", a.columns()), f32("values", a.values()),
                f32("x", x), f32("y", in.gaussian(rows, 1))));
        out.add(kase("spmv.cu", "spmv_csr_vector", launch(ceilDiv(rows * 32, 128), 128, 0), i32(rows),
                i32("rowStart", a.rowStart()), i32("colIndex", a.columns()), f32("values", a.values()),
                f32("x", x), f32("y", in.gaussian(rows, 1))));

        int v = 500;
        int[][] g = in.graph(v, 4);
        int[] dist = CorpusInputs.distances(g[0], g[1], 0);
        // the state after two levels: frontier = distance 2, visited = distance <= 2, next empty
        int[] frontier = new int[v];
        int[] visited = new int[v];
        int[] level = new int[v];
        int[] nextMarks = new int[v];
        for (int i = 0; i < v; i++) {
            frontier[i] = dist[i] == 2 ? 1 : 0;
            visited[i] = dist[i] >= 0 && dist[i] <= 2 ? 1 : 0;
            level[i] = visited[i] == 1 ? dist[i] : -1;
            nextMarks[i] = dist[i] == 3 ? 1 : 0;
        }
        out.add(kase("bfs.cu", "bfs_expand", launch(ceilDiv(v, 128), 128, 0), i32(v),
                i32("rowStart", g[0]), i32("adjacency", g[1]), i32("frontier", frontier),
                i32("visited", visited), i32("level", level), i32("next", new int[v])));
        out.add(kase("bfs.cu", "bfs_advance", launch(ceilDiv(v, 128), 128, 0), i32(v),
                i32("frontier", new int[v]), i32("visited", visited), i32("next", nextMarks),
                i32("count", new int[] {17})));
    }

    private static void nbodyReduceTranspose(CorpusInputs in, List<OracleCase> out) {
        int bodies = 200;
        float[] pos = in.gaussian(4 * bodies, 10);
        for (int i = 3; i < pos.length; i += 4) {
            pos[i] = Math.abs(pos[i]) + 0.1f; // masses
        }
        out.add(kase("nbody.cu", "nbody_accel", launch(ceilDiv(bodies, 128), 128, 128 * 16),
                f32("bodies", pos), f32("accel", in.gaussian(3 * bodies, 1)), i32(bodies), f32(0.01f)));

        int n = 5000;
        out.add(kase("reduce.cu", "reduce_sum_f32", launch(8, 256, 0), f32("in", in.gaussian(n, 1)),
                f32("blockSums", in.gaussian(8, 1)), i32(n)));
        out.add(kase("reduce.cu", "reduce_sum_f64", launch(6, 192, 0), f64("in", in.gaussianDoubles(n, 1)),
                f64("blockSums", in.gaussianDoubles(6, 1)), i32(n)));
        int mn = 7777;
        out.add(kase("reduce.cu", "reduce_max_i32", launch(5, 160, 0), i32("in", in.ints(mn, -1_000_000, 1_000_000)),
                i32("result", new int[] {Integer.MIN_VALUE}), i32(mn)));

        int w = 70;
        int h = 45;
        out.add(kase("transpose.cu", "transpose_padded", launch(ceilDiv(w, 32), ceilDiv(h, 32), 32, 8, 0),
                f32("in", in.gaussian(w * h, 1)), f32("out", in.gaussian(w * h, 1)), i32(w), i32(h)));
    }
}
