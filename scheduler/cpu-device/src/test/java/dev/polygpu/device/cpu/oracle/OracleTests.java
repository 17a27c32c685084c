package dev.polygpu.device.cpu.oracle;

import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** What the tests that run the differential oracle share. */
public final class OracleTests {
    private OracleTests() {
    }

    /**
     * Skips the test, saying why, where nvcc cannot be run; where {@code POLYGPU_REQUIRE_NVCC=1} (CI, whose
     * machines have the CUDA toolkit) a missing nvcc fails it instead, so the oracle never silently stops running.
     */
    public static void assumeNvcc() {
        Optional<String> why = DifferentialOracle.unavailableReason();
        if (why.isPresent() && "1".equals(System.getenv("POLYGPU_REQUIRE_NVCC"))) {
            Assertions.fail("POLYGPU_REQUIRE_NVCC=1 but " + why.get());
        }
        Assumptions.assumeTrue(why.isEmpty(), () -> why.orElse(""));
    }
}
