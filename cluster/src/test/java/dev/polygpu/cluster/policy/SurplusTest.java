package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SurplusTest {

    private static final long SEED = 20_240_611L;

    @ParameterizedTest(name = "ready {0}, running {1}, T {2}, chunk {3} -> {4}")
    @CsvSource({
            // ready, running, threshold, chunk, giveable
            "0,  0,  6, 3, 0",   // nothing at all
            "0,  20, 6, 3, 0",   // busy but nothing ready: started CEs never move
            "5,  0,  6, 3, 0",   // below the threshold: the victim is itself starving
            "6,  0,  6, 3, 0",   // exactly at the threshold: giving one would starve it
            "7,  0,  6, 3, 1",   // one above: gives one
            "8,  1,  6, 3, 3",   // three above, chunk 3
            "20, 0,  6, 3, 3",   // plenty ready: the chunk limits
            "20, 0,  6, 50, 14", // large chunk: stops at the threshold
            "4,  10, 6, 8, 4",   // running above the threshold: all ready may go, no more than ready
            "4,  6,  6, 8, 4",   // running exactly at the threshold: all ready may go
            "4,  5,  6, 8, 3",   // running one below: one ready stays home
            "1,  100, 1, 1, 1",
            "2147483647, 2147483647, 1, 2147483647, 2147483647", // no overflow in ready + running
    })
    void neverStarvesTheVictim(int ready, int running, int threshold, int chunk, int giveable) {
        assertEquals(giveable, Surplus.giveable(ready, running, threshold, chunk));
        StealSettings settings = new StealSettings(threshold, chunk, 2, 1.0, 1, 1);
        assertEquals(giveable, Surplus.giveable(ready, running, settings));
    }

    @Test
    void randomCountsKeepEveryPartOfTheRule() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int round = 0; round < 20_000; round++) {
            int ready = random.nextInt(0, 60);
            int running = random.nextInt(0, 60);
            int threshold = random.nextInt(1, 40);
            int chunk = random.nextInt(1, 20);
            int given = Surplus.giveable(ready, running, threshold, chunk);
            String where = "ready " + ready + ", running " + running + ", T " + threshold + ", chunk " + chunk
                    + ", gave " + given + " (round " + round + ", seed " + SEED + ")";
            assertTrue(given >= 0, where);
            assertTrue(given <= chunk, "at most a chunk: " + where);
            assertTrue(given <= ready, "only ready CEs: " + where);
            if (given > 0) {
                assertTrue(ready - given + running >= threshold, "victim stays at or above T: " + where);
            }
            // As much as allowed: one more would break a limit.
            boolean oneMoreBreaksALimit = given + 1 > chunk || given + 1 > ready
                    || ready - (given + 1) + running < threshold;
            assertTrue(oneMoreBreaksALimit, "gives as much as allowed: " + where);
        }
    }

    @ParameterizedTest(name = "ready {0}, running {1}, T {2}, chunk {3}")
    @CsvSource({
            "-1, 0, 6, 3, 'ready must be >= 0, was -1'",
            "0, -1, 6, 3, 'running must be >= 0, was -1'",
            "0, 0, 0, 3, 'threshold must be >= 1, was 0'",
            "0, 0, 6, 0, 'chunk must be >= 1, was 0'",
    })
    void invalidCountsAreRejected(int ready, int running, int threshold, int chunk, String message) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> Surplus.giveable(ready, running, threshold, chunk));
        assertEquals(message, error.getMessage());
    }
}
