package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BandwidthEstimatorTest {

    private static final long SEED = 5_551_212L;

    @ParameterizedTest(name = "true {0} B/s, {1} ns latency, from {2} B/s, {3} ns")
    @CsvSource({
            // true bandwidth, true latency, initial bandwidth, initial latency
            "5e9,   40000,   1e9,   1000000",  // starts too slow and too far
            "1.2e8, 250000,  1e10,  1000",     // starts too fast and too close
            "2.5e10, 8000,   2.5e9, 8000",
    })
    void convergesToTheTrueLink(double trueBytesPerSecond, long trueLatencyNanos, double initialBytesPerSecond,
                                long initialLatencyNanos) {
        BandwidthEstimator estimator =
                new BandwidthEstimator(initialBytesPerSecond, initialLatencyNanos, 0.25);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int message = 0; message < 400; message++) {
            // Alternate control-sized and array-sized messages, each timed with +-3% noise.
            long bytes = message % 2 == 0 ? random.nextLong(16, 4_096) : random.nextLong(1 << 20, 64 << 20);
            double exactNanos = trueLatencyNanos + bytes / trueBytesPerSecond * 1e9;
            long nanos = Math.round(exactNanos * random.nextDouble(0.97, 1.03));
            estimator.observe(bytes, nanos);
        }
        double bandwidthError = Math.abs(estimator.bytesPerSecond() - trueBytesPerSecond) / trueBytesPerSecond;
        double latencyError = Math.abs(estimator.latencyNanos() - trueLatencyNanos) / (double) trueLatencyNanos;
        assertTrue(bandwidthError < 0.05, "bandwidth " + estimator.bytesPerSecond() + " vs " + trueBytesPerSecond
                + " (seed " + SEED + ")");
        assertTrue(latencyError < 0.10, "latency " + estimator.latencyNanos() + " vs " + trueLatencyNanos
                + " (seed " + SEED + ")");
        long bytes = 10_000_000L;
        double expectedTransfer = trueLatencyNanos + bytes / trueBytesPerSecond * 1e9;
        assertTrue(Math.abs(estimator.transferNanos(bytes) - expectedTransfer) < 0.06 * expectedTransfer);
    }

    @Test
    void eachObservationFollowsTheDocumentedRule() {
        BandwidthEstimator estimator = new BandwidthEstimator(1e9, 100_000, 0.5);
        // Small: latency sample = 300000 - 1000 bytes at 1 ns/byte = 299000; 100000 + 0.5 * 199000 = 199500.
        estimator.observe(1_000, 300_000);
        assertEquals(199_500, estimator.latencyNanos());
        assertEquals(1e9, estimator.bytesPerSecond());
        // Large: payload = 699500 - 199500 = 500000 ns, sample 2e9 B/s; 1e9 + 0.5 * 1e9 = 1.5e9.
        estimator.observe(1_000_000, 699_500);
        assertEquals(1.5e9, estimator.bytesPerSecond(), 1e-3);
        assertEquals(199_500, estimator.latencyNanos());
        // Large and faster than the latency estimate allows: payload is half of 300000 ns, sample 6.666e9 B/s;
        // 1.5e9 + 0.5 * (6.666e9 - 1.5e9) = 4.0833e9.
        estimator.observe(1_000_000, 300_000);
        assertEquals(1.5e9 + 0.5 * (1e6 / 150_000e-9 - 1.5e9), estimator.bytesPerSecond(), 1e-3);
        // A small message faster than its payload alone: the latency sample is 0, not negative.
        estimator.observe(60_000, 1_000);
        assertEquals(99_750, estimator.latencyNanos());
    }

    @ParameterizedTest(name = "{0} bytes -> latency changes {1}")
    @CsvSource({
            "0,     true",
            "65535, true",
            "65536, false",
            "65537, false",
    })
    void messagesBelow64KiBMeasureLatency(long bytes, boolean latencyChanges) {
        BandwidthEstimator estimator = new BandwidthEstimator(1e9, 500_000, 0.5);
        estimator.observe(bytes, 2_000_000);
        assertEquals(latencyChanges, estimator.latencyNanos() != 500_000);
        assertEquals(latencyChanges, estimator.bytesPerSecond() == 1e9);
    }

    @ParameterizedTest(name = "{0} bytes in {1} ns")
    @CsvSource({"100, 0", "100, -5", "1000000, 0", "1000000, -1"})
    void nonPositiveTimesAreIgnored(long bytes, long nanos) {
        BandwidthEstimator estimator = new BandwidthEstimator(3e9, 20_000, 0.25);
        estimator.observe(bytes, nanos);
        assertEquals(3e9, estimator.bytesPerSecond());
        assertEquals(20_000, estimator.latencyNanos());
    }

    @ParameterizedTest(name = "{0} bytes at {1} B/s + {2} ns -> {3} ns")
    @CsvSource({
            "0,          1e9,  50000, 50000",
            "1000,       1e9,  50000, 51000",
            "1000,       3e9,  0,     334",      // 333.33 rounded up
            "1000000000, 1e10, 1000,  100001000",
            "9223372036854775807, 1.0, 0, 9223372036854775807", // saturates
    })
    void transferIsLatencyPlusBytesOverBandwidth(long bytes, double bytesPerSecond, long latency, long expected) {
        assertEquals(expected, new BandwidthEstimator(bytesPerSecond, latency, 0.25).transferNanos(bytes));
    }

    @Test
    void invalidArgumentsAreRejected() {
        assertEquals("initialBytesPerSecond must be a finite number > 0, was 0.0",
                assertThrows(IllegalArgumentException.class, () -> new BandwidthEstimator(0, 1, 0.25)).getMessage());
        assertEquals("initialBytesPerSecond must be a finite number > 0, was Infinity",
                assertThrows(IllegalArgumentException.class,
                        () -> new BandwidthEstimator(Double.POSITIVE_INFINITY, 1, 0.25)).getMessage());
        assertEquals("initialLatencyNanos must be >= 0, was -1",
                assertThrows(IllegalArgumentException.class, () -> new BandwidthEstimator(1e9, -1, 0.25))
                        .getMessage());
        assertEquals("alpha must be in (0, 1], was 0.0",
                assertThrows(IllegalArgumentException.class, () -> new BandwidthEstimator(1e9, 1, 0)).getMessage());
        BandwidthEstimator estimator = new BandwidthEstimator(1e9, 1, 0.25);
        assertEquals("bytes must be >= 0, was -3",
                assertThrows(IllegalArgumentException.class, () -> estimator.observe(-3, 10)).getMessage());
        assertEquals("bytes must be >= 0, was -3",
                assertThrows(IllegalArgumentException.class, () -> estimator.transferNanos(-3)).getMessage());
    }
}
