package dev.polygpu.device.cpu.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * Every kernel of the oracle corpus ({@link OracleCorpus}) through the differential oracle: nvcc's PTX on the
 * PTX interpreter and the CUDA C engine must leave every buffer equal (within the ulp bounds of the kernels
 * with math functions). All cases are compiled by one nvcc run. Skipped, saying why, where nvcc is missing.
 */
@Timeout(300)
class OracleCorpusTest {
    private static final long SEED = 20_260_314L;
    private static List<OracleCase> cases;
    private static List<OracleResult> results;
    private static int nvccRuns;

    @BeforeAll
    static void runCorpus() {
        Assumptions.assumeTrue(DifferentialOracle.unavailableReason().isEmpty(),
                () -> DifferentialOracle.unavailableReason().orElse(""));
        cases = OracleCorpus.all(SEED);
        try (DifferentialOracle oracle = DifferentialOracle.create()) {
            results = oracle.checkAll(cases);
            nvccRuns = oracle.nvccRuns();
        }
    }

    @TestFactory
    Stream<DynamicTest> bothSidesAgree() {
        return IntStream.range(0, cases.size()).mapToObj(i -> DynamicTest.dynamicTest(cases.get(i).name(),
                () -> assertEquals(new OracleResult.Equal(cases.get(i).name()), results.get(i),
                        "seed " + SEED)));
    }

    @Test
    void oneNvccRunCompilesTheWholeCorpus() {
        assertEquals(1, nvccRuns);
        assertTrue(cases.size() >= 30, "the corpus has " + cases.size() + " cases");
    }
}
