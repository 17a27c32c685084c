package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SpeedEstimateTest {

    @Test
    void withNoPeerCountedAMemberRunsAtFullSpeed() {
        SpeedEstimate e = new SpeedEstimate();
        assertEquals(1.0, e.relative());
        for (int i = 0; i < e.minSamples() - 1; i++) {
            assertTrue(e.observe("fast", 4_000, 1_000));
        }
        assertEquals(1.0, e.relative(), "one sample short of counting");
        assertTrue(Double.isNaN(e.against("fast")));
        assertTrue(e.observe("fast", 4_000, 1_000));
        assertEquals(0.25, e.relative(), 1e-12, "identical samples: no margin for noise");
        assertEquals(0.25, e.against("fast"), 1e-12);
    }

    @Test
    void theFastestPeerSetsTheSpeedAndASlowerOneDoesNot() {
        SpeedEstimate e = new SpeedEstimate();
        for (int i = 0; i < 10; i++) {
            e.observe("slow", 1_000, 3_000);
            e.observe("twice", 2_000, 1_000);
            e.observe("alike", 1_000, 1_000);
        }
        assertEquals(0.5, e.relative(), 1e-9);
        assertEquals(3.0, e.against("slow"), 1e-9);
        e.forget("twice");
        assertEquals(1.0, e.relative(), "the fast peer left");
    }

    @ParameterizedTest(name = "a peer {0}x as fast: relative {1}")
    @CsvSource({"1.0, 1.0", "1.2, 1.0", "1.3, 0.769230769", "2, 0.5", "10, 0.1", "5000, 0.001"})
    void theDeadBandAndTheFloor(double peerFaster, double expected) {
        SpeedEstimate e = new SpeedEstimate();
        for (int i = 0; i < 20; i++) {
            e.observe("p", Math.round(1_000_000 * peerFaster), 1_000_000);
        }
        assertEquals(expected, e.relative(), 1e-6);
    }

    @Test
    void samplesWithoutATimeAreIgnored() {
        SpeedEstimate e = new SpeedEstimate();
        assertFalse(e.observe("p", 0, 100));
        assertFalse(e.observe("p", 100, -1));
        assertTrue(Double.isNaN(e.against("p")));
        assertFalse(e.observeShape("p", "k/64", 100), "this member never ran that shape");
    }

    @Test
    void ownTimesAreAGeometricMeanByShape() {
        SpeedEstimate e = new SpeedEstimate();
        assertEquals(-1, e.expectedOwn("k/64"));
        e.recordOwn("k/64", 100);
        assertEquals(100, e.expectedOwn("k/64"));
        e.recordOwn("k/64", 400);
        // The log moves by alpha towards the new sample: exp(ln 100 + 0.1 (ln 400 - ln 100)) = 100 * 4^0.1.
        assertEquals(Math.round(100 * Math.pow(4, SpeedEstimate.DEFAULT_ALPHA)), e.expectedOwn("k/64"));
        assertEquals(-1, e.expectedOwn("k/128"), "another shape");
        e.recordOwn("k/128", 0);
        assertEquals(-1, e.expectedOwn("k/128"), "a time of 0 says nothing");
        for (int i = 0; i < 10; i++) {
            assertTrue(e.observeShape("fast", "k/64", e.expectedOwn("k/64") / 2));
        }
        assertEquals(0.5, e.relative(), 0.01);
    }

    /**
     * Run times of one shape vary; many peers of the same speed must not make a member think itself slow (the
     * least of many noisy estimates would), while a peer truly faster shows through the same noise.
     */
    @Test
    void noiseAcrossManyPeersOfTheSameSpeedIsNotTakenForSpeed() {
        Random r = new Random(42);
        SpeedEstimate alike = new SpeedEstimate();
        SpeedEstimate slow = new SpeedEstimate();
        for (int peer = 0; peer < 300; peer++) {
            int samples = SpeedEstimate.DEFAULT_MIN_SAMPLES + r.nextInt(20);
            for (int i = 0; i < samples; i++) {
                // Log-normal run times, sigma 0.5, on both sides.
                long mine = Math.round(1e6 * Math.exp(0.5 * r.nextGaussian()));
                long theirs = Math.round(1e6 * Math.exp(0.5 * r.nextGaussian()));
                alike.observe("m" + peer, mine, theirs);
                slow.observe("m" + peer, 4 * mine, theirs);
            }
        }
        assertEquals(1.0, alike.relative(), "300 peers of this member's speed");
        assertTrue(slow.relative() > 0.15 && slow.relative() < 0.35, "four times slower than 300 peers: "
                + slow.relative());
    }

    @ParameterizedTest(name = "threshold {0} at speed {1}: {2}")
    @CsvSource({"6, 1.0, 6", "6, 0.5, 3", "6, 0.25, 2", "6, 0.1, 1", "6, 0.001, 1", "1, 0.25, 1", "10, 0.26, 3"})
    void thresholds(int threshold, double relative, int expected) {
        assertEquals(expected, SpeedEstimate.threshold(threshold, relative));
    }

    @ParameterizedTest(name = "window {0} with {1} slots at speed {2}: {3}")
    @CsvSource({"8, 4, 1.0, 8", "8, 4, 0.75, 6", "8, 4, 0.25, 4", "8, 2, 0.25, 2", "4, 2, 0.5, 2",
        "1, 2, 0.1, 1", "16, 1, 0.001, 1"})
    void windows(int window, int slots, double relative, int expected) {
        assertEquals(expected, SpeedEstimate.window(window, slots, relative));
    }

    @Test
    void badTuningIsRefusedByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SpeedEstimate(0, 4, 0.8, 10))
                .getMessage().contains("alpha"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SpeedEstimate(0.1, 0, 0.8, 10))
                .getMessage().contains("minSamples"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SpeedEstimate(0.1, 4, 1.5, 10))
                .getMessage().contains("deadBand"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SpeedEstimate(0.1, 4, 0.8, 0))
                .getMessage().contains("maxPeers"));
    }

    @Test
    void theLeastRecentlyObservedPeerIsForgottenBeyondTheBound() {
        SpeedEstimate e = new SpeedEstimate(0.5, 1, 0.8, 2);
        e.observe("fast", 4, 1);
        e.observe("a", 1, 1);
        e.observe("b", 1, 1);
        assertTrue(Double.isNaN(e.against("fast")), "evicted");
        assertEquals(1.0, e.relative());
    }
}
