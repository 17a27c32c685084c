package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KernelCostModelTest {

    @ParameterizedTest(name = "samples {0}, alpha {1} -> {2}")
    @CsvSource({
            // samples (ns), alpha, expected estimate worked out by hand
            "500,             0.25, 500",   // the first sample sets the estimate
            "1000|2000,       0.5,  1500",
            "1000|3000|3000,  0.5,  2500",  // 1000 -> 2000 -> 2500
            "100|200|300|400, 0.25, 227",   // 100 -> 125 -> 168.75 -> 226.5625, rounded
            "800|0,           1.0,  0",     // alpha 1 keeps only the latest sample
            "1000|1000|1000,  0.1,  1000",
    })
    void estimateIsAnExponentialAverage(String samples, double alpha, long expected) {
        KernelCostModel model = new KernelCostModel(alpha);
        for (String sample : samples.split("\\|")) {
            model.observe("saxpy", Long.parseLong(sample));
        }
        assertEquals(expected, model.expectedNanos("saxpy"));
        assertEquals(-1, model.expectedNanos("never-seen"));
        assertEquals(1, model.size());
    }

    @Test
    void keysAreIndependent() {
        KernelCostModel model = new KernelCostModel();
        model.observe("a", 1_000);
        model.observe("b", 9_000);
        model.observe("a", 3_000);
        assertEquals(1_500, model.expectedNanos("a"), "1000 + 0.25 * (3000 - 1000)");
        assertEquals(9_000, model.expectedNanos("b"));
        assertEquals(2, model.size());
    }

    @Test
    void evictsTheLeastRecentlyUsedKernel() {
        KernelCostModel model = new KernelCostModel(0.25, 3);
        model.observe("a", 10);
        model.observe("b", 20);
        model.observe("c", 30);
        model.observe("d", 40);
        assertEquals(-1, model.expectedNanos("a"), "a was the oldest");
        assertEquals(3, model.size());
        model.observe("b", 20);
        model.observe("e", 50);
        assertEquals(-1, model.expectedNanos("c"), "b was observed again, so c was the oldest");
        assertEquals(20, model.expectedNanos("b"));
        // Looking a kernel up counts as a use: d is now the most recent, so e goes next.
        assertEquals(40, model.expectedNanos("d"));
        model.observe("f", 60);
        assertEquals(-1, model.expectedNanos("e"));
        assertEquals(3, model.size());
    }

    @Test
    void defaultBoundIs4096Kernels() {
        KernelCostModel model = new KernelCostModel();
        int observed = 5_000;
        for (int kernel = 1; kernel <= observed; kernel++) {
            model.observe("k" + kernel, kernel);
        }
        assertEquals(4_096, model.size());
        int evicted = observed - 4_096;
        assertEquals(-1, model.expectedNanos("k" + evicted));
        assertEquals(evicted + 1, model.expectedNanos("k" + (evicted + 1)));
        assertEquals(observed, model.expectedNanos("k" + observed));
    }

    @ParameterizedTest(name = "alpha {0}")
    @CsvSource({"0", "-0.1", "1.01", "NaN"})
    void alphaOutOfRangeIsRejected(double alpha) {
        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> new KernelCostModel(alpha));
        assertEquals("alpha must be in (0, 1], was " + alpha, error.getMessage());
    }

    @Test
    void invalidArgumentsAreRejected() {
        IllegalArgumentException maxKeys =
                assertThrows(IllegalArgumentException.class, () -> new KernelCostModel(0.25, 0));
        assertEquals("maxKeys must be >= 1, was 0", maxKeys.getMessage());
        KernelCostModel model = new KernelCostModel();
        IllegalArgumentException negative =
                assertThrows(IllegalArgumentException.class, () -> model.observe("gemm", -5));
        assertEquals("nanos must be >= 0, was -5 (kernel gemm)", negative.getMessage());
        assertThrows(NullPointerException.class, () -> model.observe(null, 5));
        assertThrows(NullPointerException.class, () -> model.expectedNanos(null));
    }
}
