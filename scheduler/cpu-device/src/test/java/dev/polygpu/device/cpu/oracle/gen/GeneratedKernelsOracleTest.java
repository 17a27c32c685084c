package dev.polygpu.device.cpu.oracle.gen;

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
        GeneratedOracleChecks.assertAgree(seed, profile, indices);
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
