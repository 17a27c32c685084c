package dev.polygpu.device.cpu.oracle.gen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fixed set of generated kernels through the differential oracle (nvcc's PTX on the PTX interpreter against
 * the CUDA C engine): each must give equal buffers on both sides. The cases are ones both sides agree on
 * today, so a failure here is a regression of the engine, the PTX interpreter or the generator; the expected
 * values are nvcc's, not the engine's. Skipped without nvcc.
 */
@Timeout(240)
class GeneratedKernelsOracleTest {
    private static void check(long seed, String profile, long... indices) {
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

    @Test
    void defaultProfileKernelsAgree() {
        check(2024, "default", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    }

    @Test
    void warpHeavyKernelsAgree() {
        check(2025, "warp,size=16", 0, 1, 2, 3, 4, 5, 6, 7);
    }
}
