package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StarvationTest {

    @ParameterizedTest(name = "ready {0} + running {1} vs T {2} -> starving {3}")
    @CsvSource({
            // ready, running, threshold, starving
            "0, 0, 1, true",
            "0, 0, 6, true",
            "2, 3, 6, true",
            "5, 0, 6, true",
            "0, 5, 6, true",
            "3, 3, 6, false",   // exactly at the threshold: not starving
            "0, 6, 6, false",
            "6, 0, 6, false",
            "1, 0, 1, false",
            "40, 12, 6, false",
            "2147483647, 2147483647, 2147483647, false", // the sum must not overflow into a negative
    })
    void starvingBelowTheThreshold(int ready, int running, int threshold, boolean starving) {
        assertEquals(starving, Starvation.starving(ready, running, threshold));
        assertEquals(starving, Starvation.starving(ready, running, StealSettings.defaults(4).withThreshold(threshold)));
    }

    @ParameterizedTest(name = "ready {0}, running {1}, T {2}")
    @CsvSource({
            "-1, 0, 6, 'ready must be >= 0, was -1'",
            "0, -2, 6, 'running must be >= 0, was -2'",
            "0, 0, 0, 'threshold must be >= 1, was 0'",
    })
    void invalidCountsAreRejected(int ready, int running, int threshold, String message) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> Starvation.starving(ready, running, threshold));
        assertEquals(message, error.getMessage());
    }
}
