package dev.polygpu.device.cpu.oracle;

import static dev.polygpu.device.cpu.oracle.CorpusInputs.f64;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.i32;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.launch;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.source;
import static dev.polygpu.device.cpu.oracle.CorpusInputs.u32;

import dev.polygpu.device.LaunchConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The corpus kernels reduced from bench/fuzz's findings ({@code oracle-corpus/fuzzfound.cu}): a call nested in
 * the arguments of a call of the same function, shuffles with lanes of 32 and more, the type of {@code ?:} and
 * explicit template arguments, erfcinv at subnormal arguments and just above 1, and
 * {@code __syncthreads_count/_and/_or} (PTX's {@code bar.red}). Integer buffers compare bit for bit; erfcinv
 * within CUDA's 6 ulp plus the engine's 1.
 */
final class OracleCorpusFuzzFound {
    /** erfcinv (double): CUDA's 6 ulp plus the engine's 1. */
    static final int ERFCINV_APART = 7;

    private OracleCorpusFuzzFound() {
    }

    static List<OracleCase> all(CorpusInputs in) {
        List<OracleCase> cases = new ArrayList<>();
        int n = 96;
        cases.add(kase("nested_same_call", launch(3, 32, 0), i32("in", in.ints(n, -1000, 1000)),
                i64("out", 4 * n)));
        cases.add(kase("wide_lane_args", launch(2, 64, 0), u32("in", in.words(128)), u32("out", in.words(8 * 128))));
        cases.add(kase("conditional_and_template_types", launch(2, 48, 0), i32("in", in.ints(n, -50000, 50000)),
                i32("out", in.words(8 * n))));
        double[] args = erfcinvArguments(in);
        cases.add(kase("erfcinv_edges", launch(2, 32, 0), f64("in", args),
                new OracleArg.Buffer("out", OracleType.F64, new byte[8 * args.length], ERFCINV_APART)));
        cases.add(kase("syncthreads_votes", launch(3, 64, 0), i32("in", in.ints(192, -1000, 1000)),
                i32("out", in.words(4 * 192))));
        return cases;
    }

    private static OracleCase kase(String kernel, LaunchConfig config, OracleArg... args) {
        return new OracleCase("fuzzfound.cu:" + kernel, source("fuzzfound.cu"), kernel, config, List.of(args));
    }

    private static OracleArg.Buffer i64(String name, int n) {
        return new OracleArg.Buffer(name, OracleType.I64, new byte[8 * n], 0);
    }

    /** 64 arguments: the subnormal range at each power of two from the smallest, and just above and below 1. */
    private static double[] erfcinvArguments(CorpusInputs in) {
        double[] v = new double[64];
        for (int i = 0; i < 24; i++) {
            v[i] = Math.scalb(1.0, -1074 + 2 * i);
        }
        double[] near = in.gaussianDoubles(40, 0.01);
        for (int i = 0; i < 40; i++) {
            v[24 + i] = 1 + near[i];
        }
        return v;
    }
}
