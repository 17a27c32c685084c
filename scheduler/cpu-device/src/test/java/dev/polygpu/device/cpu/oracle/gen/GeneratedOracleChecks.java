package dev.polygpu.device.cpu.oracle.gen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.OracleTests;
import java.util.ArrayList;
import java.util.List;

/** Runs fixed generated kernels through the differential oracle, for the tests that pin such cases. */
public final class GeneratedOracleChecks {
    private GeneratedOracleChecks() {
    }

    /**
     * Asserts that the kernels {@code indices} of {@code seed} under {@code profile} give equal buffers on both
     * sides (nvcc's PTX on the PTX interpreter and the CUDA C engine); a failure names each case with the
     * {@code bench/fuzz} command that replays it. Skipped without nvcc.
     */
    public static void assertAgree(long seed, String profile, long... indices) {
        OracleTests.assumeNvcc();
        List<OracleCase> cases = new ArrayList<>();
        for (long i : indices) {
            cases.add(KernelGenerator.generate(seed, i, Profile.parse(profile)).toCase("k" + i + "_"));
        }
        List<OracleResult> results;
        try (DifferentialOracle oracle = DifferentialOracle.create()) {
            results = oracle.checkAll(cases);
        }
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            if (!(results.get(i) instanceof OracleResult.Equal)) {
                bad.add(results.get(i) + "\n(replay: bench/fuzz --seed " + seed + " --only " + indices[i]
                        + " --profile '" + profile + "')");
            }
        }
        assertTrue(bad.isEmpty(), String.join("\n", bad));
    }
}
