package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ForwardingTest {

    private static final long SEED = 77_001L;

    /**
     * Each row: thief, self, hops, maxHops, self's last victim ("-" for none), candidates ("-" for none), and the
     * expected member: a name, "null" (reply empty) or "*" (random: any candidate but thief and self).
     */
    @ParameterizedTest(name = "thief {0} -> {1}, hops {2}/{3}, last {4}, candidates {5} -> {6}")
    @CsvSource({
            "t, v, 2, 2, w, t|v|w|x, null",    // hop limit reached
            "t, v, 3, 2, w, t|v|w|x, null",
            "t, v, 0, 0, w, t|v|w|x, null",    // forwarding off
            "t, v, 0, 2, w, t|v|w|x, w",       // prefers its own last victim
            "t, v, 1, 2, w, t|v|w|x, w",
            "t, v, 0, 2, -, t|v|w|x, *",       // no last victim: random
            "t, v, 0, 2, t, t|v|w|x, *",       // its last victim is the thief: never back to the thief
            "t, v, 0, 2, v, t|v|w|x, *",       // nor to itself
            "t, v, 0, 2, z, t|v|w|x, *",       // its last victim left
            "t, v, 0, 2, w, t|v,     null",    // only thief and self: nobody to forward to
            "t, v, 0, 2, -, -,       null",
            "t, v, 0, 2, -, x,       x",
            "t, v, 0, 1, -, v|x|t,   x",
    })
    void forwardsWithinTheHopLimit(String thief, String self, int hops, int maxHops, String lastVictim,
                                   String candidates, String expected) {
        List<String> listed = VictimChooserTest.members(candidates);
        String selfLastVictim = lastVictim.equals("-") ? null : lastVictim;
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (int draw = 0; draw < 50; draw++) {
            String next = Forwarding.next(thief, self, hops, maxHops, selfLastVictim, listed, rnd);
            switch (expected) {
                case "null" -> assertNull(next);
                case "*" -> assertTrue(listed.contains(next) && !next.equals(thief) && !next.equals(self),
                        next + " must be a candidate other than thief " + thief + " and self " + self);
                default -> assertEquals(expected, next);
            }
            StealSettings settings = StealSettings.defaults(4).withMaxHops(maxHops);
            SplittableRandom again = new SplittableRandom(SEED + draw);
            SplittableRandom same = new SplittableRandom(SEED + draw);
            assertEquals(Forwarding.next(thief, self, hops, maxHops, selfLastVictim, listed, again),
                    Forwarding.next(thief, self, hops, settings, selfLastVictim, listed, same));
        }
    }

    @Test
    void randomForwardingCoversEveryOtherMemberEvenly() {
        List<String> candidates = List.of("m0", "m1", "m2", "m3", "m4", "m5");
        SplittableRandom rnd = new SplittableRandom(SEED);
        Map<String, Integer> counts = new HashMap<>();
        int draws = 30_000;
        for (int draw = 0; draw < draws; draw++) {
            counts.merge(Forwarding.next("m1", "m4", 0, 2, null, candidates, rnd), 1, Integer::sum);
        }
        assertEquals(List.of("m0", "m2", "m3", "m5"), counts.keySet().stream().sorted().toList());
        double expected = draws / 4.0;
        counts.forEach((member, drawn) -> assertTrue(Math.abs(drawn - expected) <= 0.05 * expected,
                member + " drawn " + drawn + " times, expected about " + expected + " (seed " + SEED + ")"));
    }

    @Test
    void invalidArgumentsAreRejected() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        List<String> candidates = List.of("x");
        IllegalArgumentException hops = assertThrows(IllegalArgumentException.class,
                () -> Forwarding.next("t", "v", -1, 2, null, candidates, rnd));
        assertEquals("hops must be >= 0, was -1", hops.getMessage());
        IllegalArgumentException maxHops = assertThrows(IllegalArgumentException.class,
                () -> Forwarding.next("t", "v", 0, -1, null, candidates, rnd));
        assertEquals("maxHops must be >= 0, was -1", maxHops.getMessage());
        assertThrows(NullPointerException.class, () -> Forwarding.next(null, "v", 0, 2, null, candidates, rnd));
        assertThrows(NullPointerException.class, () -> Forwarding.next("t", null, 0, 2, null, candidates, rnd));
        assertThrows(NullPointerException.class, () -> Forwarding.next("t", "v", 0, 2, null, null, rnd));
    }
}
