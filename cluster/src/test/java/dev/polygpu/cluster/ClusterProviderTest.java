package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code grcuda} option names that cluster errors use for the options the language passes. */
class ClusterProviderTest {

    @ParameterizedTest
    @CsvSource({"members,grcuda.Cluster", "name,grcuda.ClusterName", "bind,grcuda.ClusterBind",
        "failAfter,grcuda.ClusterFailAfter", "inputCache,grcuda.ClusterInputCache",
        "pushContinuations,grcuda.ClusterPushContinuations", "faults,grcuda.ClusterFaults"})
    void eachClusterOptionIsNamedAsTheGrcudaOptionThatSetsIt(String option, String grcuda) {
        assertEquals(grcuda, ClusterProvider.grcudaOption(option));
    }
}
