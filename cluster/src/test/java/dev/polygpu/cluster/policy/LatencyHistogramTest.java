package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class LatencyHistogramTest {

    private static final long SEED = 31_337L;
    private static final double[] PERCENTILES = {0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100};

    static Stream<Arguments> distributions() {
        return Stream.of(
                distribution("log-uniform 1 ns .. 10 s",
                        random -> (long) Math.exp(random.nextDouble(0, Math.log(1e10)))),
                distribution("uniform 0 .. 1000 ns", random -> random.nextLong(0, 1_001)),
                distribution("steal-like: 100 us + exponential, 1% tail to 100 ms", random -> {
                    if (random.nextInt(100) == 0) {
                        return random.nextLong(10_000_000, 100_000_000);
                    }
                    return 100_000 + (long) (-50_000 * Math.log(1 - random.nextDouble()));
                }),
                distribution("few distinct values", random -> new long[] {7, 1_000, 123_456_789}[random.nextInt(3)]),
                distribution("near the top of long", random -> Long.MAX_VALUE - random.nextLong(0, 1L << 60)));
    }

    private static Arguments distribution(String name, ToLongFunction<SplittableRandom> draw) {
        return Arguments.of(name, draw);
    }

    /**
     * Percentiles against the exact nearest-rank value of the sorted data. Sample sizes are chosen so that
     * {@code p / 100 * n} is never an integer for a fractional p: a rank exactly on a boundary would depend on how
     * the decimal p rounds in binary, not on the histogram.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("distributions")
    void percentilesAreWithinFivePercentOfExact(String name, ToLongFunction<SplittableRandom> draw) {
        for (int n : new int[] {1, 7, 1_003, 100_003}) {
            SplittableRandom random = new SplittableRandom(SEED + n);
            LatencyHistogram histogram = new LatencyHistogram();
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = draw.applyAsLong(random);
                histogram.record(values[i]);
            }
            Arrays.sort(values);
            assertEquals(n, histogram.count());
            assertEquals(values[n - 1], histogram.max());
            assertEquals(values[0], histogram.min());
            for (double p : PERCENTILES) {
                long rank = Math.max(1, (long) Math.ceil(p / 100 * n));
                long exact = values[(int) rank - 1];
                long answered = histogram.percentile(p);
                double error = Math.abs((double) answered - exact);
                assertTrue(error <= 0.05 * exact, name + ", n " + n + ", p" + p + ": answered " + answered
                        + ", exact " + exact + " (seed " + (SEED + n) + ")");
            }
            assertEquals(histogram.percentile(50), histogram.median());
        }
    }

    @ParameterizedTest(name = "value {0} is exact")
    @CsvSource({"0", "1", "2", "31", "32", "63"})
    void smallValuesAreExact(long value) {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int i = 0; i < 10; i++) {
            histogram.record(value);
            histogram.record(value + 1_000_000);
        }
        assertEquals(value, histogram.percentile(25));
        assertEquals(value, histogram.percentile(50));
    }

    @Test
    void bucketsTileEveryLongWithinOneThirtySecondOfTheirStart() {
        int last = LatencyHistogram.bucketOf(Long.MAX_VALUE);
        assertEquals(0, LatencyHistogram.lowestOf(0));
        assertEquals(Long.MAX_VALUE, LatencyHistogram.highestOf(last));
        for (int bucket = 0; bucket <= last; bucket++) {
            long low = LatencyHistogram.lowestOf(bucket);
            long high = LatencyHistogram.highestOf(bucket);
            assertEquals(bucket, LatencyHistogram.bucketOf(low), "bucket " + bucket);
            assertEquals(bucket, LatencyHistogram.bucketOf(high), "bucket " + bucket);
            if (bucket < last) {
                assertEquals(high + 1, LatencyHistogram.lowestOf(bucket + 1), "no gap after bucket " + bucket);
            }
            assertTrue(high - low + 1 == 1 || (double) (high - low + 1) / low <= 1.0 / 32, "bucket " + bucket);
        }
    }

    @Test
    void emptyHistogramAnswersZero() {
        LatencyHistogram histogram = new LatencyHistogram();
        assertEquals(0, histogram.count());
        assertEquals(0, histogram.percentile(99));
        assertEquals(0, histogram.max());
        assertEquals(0, histogram.min());
    }

    @Test
    void resetForgetsEverything() {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(5_000_000);
        histogram.record(9_000_000);
        histogram.reset();
        assertEquals(0, histogram.count());
        assertEquals(0, histogram.max());
        histogram.record(400);
        assertEquals(1, histogram.count());
        assertEquals(400, histogram.max());
        assertEquals(400, histogram.min());
        assertEquals(400, histogram.percentile(50));
    }

    @Test
    void addAllMergesAsIfRecordedTogether() {
        SplittableRandom random = new SplittableRandom(SEED);
        LatencyHistogram left = new LatencyHistogram();
        LatencyHistogram right = new LatencyHistogram();
        LatencyHistogram together = new LatencyHistogram();
        for (int i = 0; i < 10_000; i++) {
            long value = random.nextLong(1, 50_000_000);
            (i % 3 == 0 ? left : right).record(value);
            together.record(value);
        }
        left.addAll(right);
        assertEquals(together.count(), left.count());
        assertEquals(together.max(), left.max());
        assertEquals(together.min(), left.min());
        for (double p : PERCENTILES) {
            assertEquals(together.percentile(p), left.percentile(p), "p" + p);
        }
        left.addAll(new LatencyHistogram());
        assertEquals(together.count(), left.count(), "adding an empty histogram changes nothing");
    }

    @Test
    void concurrentRecordsAreAllCounted() throws InterruptedException {
        LatencyHistogram histogram = new LatencyHistogram();
        int threads = 4;
        int perThread = 50_000;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long base = (t + 1) * 1_000L;
            workers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < perThread; i++) {
                    histogram.record(base + i % 100);
                }
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals((long) threads * perThread, histogram.count());
        assertEquals(threads * 1_000L + 99, histogram.max());
        assertEquals(1_000, histogram.min());
    }

    @ParameterizedTest(name = "p {0}")
    @CsvSource({"-0.01", "100.01", "NaN", "-Infinity"})
    void percentileOutOfRangeIsRejected(double p) {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(10);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> histogram.percentile(p));
        assertEquals("p must be in [0, 100], was " + p, error.getMessage());
    }

    @Test
    void negativeValuesAreRejected() {
        LatencyHistogram histogram = new LatencyHistogram();
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> histogram.record(-1));
        assertEquals("nanos must be >= 0, was -1", error.getMessage());
        assertEquals(0, histogram.count());
    }
}
