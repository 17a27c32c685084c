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
    void warmUpIsAtLeastARunCountAndATime() {
        BenchOptions o = BenchOptions.parse(new String[0]);
        assertEquals(3, o.warmup());
        assertEquals(4000, o.warmupMillis());
        assertEquals(20, o.reps());
        BenchOptions quick = BenchOptions.parse(new String[] {"--quick"});
        assertEquals(1, quick.warmup());
        assertEquals(0, quick.warmupMillis());
        BenchOptions set = BenchOptions.parse(new String[] {"--quick", "--warmup", "0", "--warmup-time", "2.5"});
        assertEquals(0, set.warmup());
        assertEquals(2500, set.warmupMillis());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--warmup-time", "-1"}));
        assertEquals("--warmup-time needs seconds from 0 to 3600, got -1", e.getMessage());
    }

    @Test
    void aValueFollowsItsOptionAfterASpaceOrEquals() {
        BenchOptions spaced = BenchOptions.parse(new String[] {"--tiles", "4", "--join-reps", "8", "--input-cache",
                "1MB", "--port", "19000", "--zero-fraction", "0.25"});
        BenchOptions attached = BenchOptions.parse(new String[] {"--tiles=4", "--join-reps=8", "--input-cache=1MB",
                "--port=19000", "--zero-fraction=0.25"});
        assertEquals(spaced, attached);
        assertEquals(4, attached.tiles());
        assertEquals(1 << 20, attached.inputCache());
        assertEquals(19000, attached.port());
        assertEquals(0.25, attached.zeroFraction());
    }

    @Test
    void aMisspeltOptionNamesTheClosestAndABadNumberItsRange() {
        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--join-rep", "8"}));
        assertEquals("unknown option --join-rep (did you mean --join-reps?)", typo.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--workers", "0"}));
        assertEquals("--workers must be an integer >= 1, got '0'", zero.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--tiles"}));
        assertEquals("--tiles needs a value: write --tiles=T or --tiles T", missing.getMessage());
    }

    @Test
    void noJoinWithJoinOnlyLeavesNothingToMeasure() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--join-only", "--no-join"}));
        assertEquals("--no-join and --join-only leave nothing to measure", e.getMessage());
    }
}
