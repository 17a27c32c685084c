package dev.polygpu.device.cpu.oracle;

import dev.polygpu.device.cpu.kernel.KernelTestSupport;
import dev.polygpu.device.cpu.oracle.gen.InputData;
import dev.polygpu.device.cpu.oracle.gen.Prim;
import dev.polygpu.device.cpu.oracle.gen.Rng;
import java.util.Optional;
import java.util.Random;
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

    /**
     * Runs {@code cases} through the differential oracle (one nvcc run) and fails on the first that is not equal,
     * naming {@code seed}, the seed that drew them.
     */
    public static void assertAllEqual(java.util.List<OracleCase> cases, long seed) {
        assertAllEqual(cases, seed, OracleOptions.DEFAULTS);
    }

    /** As {@link #assertAllEqual(java.util.List, long)}, with the oracle's {@code options}. */
    public static void assertAllEqual(java.util.List<OracleCase> cases, long seed, OracleOptions options) {
        try (DifferentialOracle oracle = DifferentialOracle.create(options)) {
            for (OracleResult res : oracle.checkAll(cases)) {
                Assertions.assertInstanceOf(OracleResult.Equal.class, res, "seed " + seed + ": " + res);
            }
        }
    }

    /** An {@code int} buffer argument of {@code n} values from -1000 to 1000 drawn from {@code r}. */
    public static OracleArg.Buffer randomInts(String name, Random r, int n) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(2001) - 1000;
        }
        return new OracleArg.Buffer(name, OracleType.I32, KernelTestSupport.littleEndianInts(v), 0);
    }

    /** A {@code float} buffer argument of {@code n} values drawn from a normal distribution of deviation 4. */
    public static OracleArg.Buffer randomFloats(String name, Random r, int n) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            b.putFloat((float) (r.nextGaussian() * 4));
        }
        return new OracleArg.Buffer(name, OracleType.F32, b.array(), 0);
    }

    /**
     * A {@code float} or {@code double} buffer argument ({@code type} F32 or F64) of {@code n} values biased towards
     * edge values (±0, infinities, NaNs with payloads, subnormals, the largest finite value), as the fuzzer's.
     */
    public static OracleArg.Buffer edgeValues(String name, OracleType type, Random r, int n) {
        Prim p = type == OracleType.F64 ? Prim.DOUBLE : Prim.FLOAT;
        return new OracleArg.Buffer(name, type, InputData.random(new Rng(r.nextLong()), p, n), 0);
    }

    /** An {@code int} scalar argument. */
    public static OracleArg.Scalar intScalar(int v) {
        return new OracleArg.Scalar(OracleType.I32, v);
    }
}
