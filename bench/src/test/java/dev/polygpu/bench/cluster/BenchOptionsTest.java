package dev.polygpu.bench.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code bench/cluster}'s options for what to measure and how workers start. */
class BenchOptionsTest {

    @Test
    void byDefaultEverythingIsMeasuredWithWorkersThatWarmUp() {
        BenchOptions o = BenchOptions.parse(new String[0]);
        assertTrue(o.makespans());
        assertTrue(o.join());
        assertTrue(o.warmUp());
        assertEquals(3, o.joinReps());
        assertFalse(o.noWake(), "the program wakes the thieves it sent away, as by default");
        assertTrue(BenchOptions.parse(new String[] {"--no-wake"}).noWake());
    }

    @Test
    void joinOnlySkipsTheMakespansAndNoWarmUpStartsWorkersWithout() {
        BenchOptions o = BenchOptions.parse(new String[] {"--join-only", "--join-reps", "8", "--no-warm-up"});
        assertFalse(o.makespans());
        assertTrue(o.join());
        assertFalse(o.warmUp());
        assertEquals(8, o.joinReps());
    }

    @Test
    void noJoinWithJoinOnlyLeavesNothingToMeasure() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--join-only", "--no-join"}));
        assertEquals("--no-join and --join-only leave nothing to measure", e.getMessage());
    }
}
