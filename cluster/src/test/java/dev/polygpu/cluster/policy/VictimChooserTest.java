package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class VictimChooserTest {

    private static final long SEED = 4_242_4242L;

    /** "a|b|c" to a list; "-" is the empty list. */
    static List<String> members(String text) {
        return text.equals("-") ? List.of() : Arrays.asList(text.split("\\|"));
    }

    /**
     * Each row: replies reported before choosing ("member:received" separated by spaces, "-" for none), the
     * candidates, and the expected choice when it is not random ("*" = any candidate but self).
     */
    @ParameterizedTest(name = "replies [{0}], candidates {1} -> {2}")
    @CsvSource({
            "-,                 b|c|d, *",
            "c:2,               b|c|d, c",   // last victim first
            "c:2 b:1,           b|c|d, b",   // the latest giver wins
            "c:2 c:0,           b|c|d, *",   // forgotten on an empty reply
            "c:2 b:0,           b|c|d, c",   // an empty reply from another member changes nothing
            "c:2,               b|d,   *",   // the last victim is no longer a candidate
            "c:2 b:0 c:3,       b|c|d, c",
            "a:5,               b|c|d, *",   // a reply from self is ignored
            "-,                 -,     null",
            "c:2,               -,     null",
            "-,                 a,     null", // only self listed
            "c:4,               a|c,   c",
    })
    void lastVictimFirstThenRandom(String replies, String candidates, String expected) {
        VictimChooser chooser = new VictimChooser("a");
        if (!replies.equals("-")) {
            for (String reply : replies.trim().split("\\s+")) {
                String[] parts = reply.split(":");
                chooser.onReply(parts[0], Integer.parseInt(parts[1]));
            }
        }
        List<String> listed = members(candidates);
        RandomGenerator rnd = new SplittableRandom(SEED);
        for (int draw = 0; draw < 50; draw++) {
            String chosen = chooser.choose(listed, rnd);
            switch (expected) {
                case "null" -> assertNull(chosen);
                case "*" -> {
                    assertTrue(listed.contains(chosen), chosen + " is a candidate");
                    assertNotEquals("a", chosen, "never self");
                }
                default -> assertEquals(expected, chosen);
            }
        }
    }

    static Stream<Arguments> candidateLists() {
        return Stream.of(
                Arguments.of(List.of("b", "c", "d", "e")),
                Arguments.of(List.of("b", "self", "c")),        // self listed by mistake: filtered
                Arguments.of(List.of("self", "m1", "m2", "m3", "m4", "m5", "m6", "self")),
                Arguments.of(List.of("only")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("candidateLists")
    void randomChoiceIsRoughlyUniform(List<String> candidates) {
        VictimChooser chooser = new VictimChooser("self");
        RandomGenerator rnd = RandomGeneratorFactory.of("L64X128MixRandom").create(SEED);
        List<String> eligible = candidates.stream().filter(member -> !member.equals("self")).toList();
        int draws = 40_000;
        Map<String, Integer> counts = new HashMap<>();
        for (int draw = 0; draw < draws; draw++) {
            counts.merge(chooser.choose(candidates, rnd), 1, Integer::sum);
        }
        assertEquals(eligible.size(), counts.size(), "every eligible member drawn, self never: " + counts);
        double expected = (double) draws / eligible.size();
        for (String member : eligible) {
            int drawn = counts.getOrDefault(member, 0);
            // The count is binomial; 5% of the mean is more than 5 standard deviations for these sizes.
            assertTrue(Math.abs(drawn - expected) <= 0.05 * expected,
                    member + " drawn " + drawn + " times, expected about " + expected + " (seed " + SEED + ")");
        }
    }

    @Test
    void theSameSeedGivesTheSameChoices() {
        List<String> candidates = List.of("m1", "m2", "m3", "m4", "m5", "m6", "m7");
        VictimChooser first = new VictimChooser("m0");
        VictimChooser second = new VictimChooser("m0");
        SplittableRandom firstRandom = new SplittableRandom(SEED);
        SplittableRandom secondRandom = new SplittableRandom(SEED);
        for (int draw = 0; draw < 100; draw++) {
            assertEquals(first.choose(candidates, firstRandom), second.choose(candidates, secondRandom));
        }
    }

    @Test
    void forgetClearsOnlyTheRememberedVictim() {
        VictimChooser chooser = new VictimChooser("a");
        chooser.onReply("c", 3);
        chooser.forget("b");
        assertEquals("c", chooser.lastVictim());
        chooser.forget(null);
        assertEquals("c", chooser.lastVictim());
        chooser.forget("c");
        assertNull(chooser.lastVictim());
    }

    @Test
    void invalidArgumentsAreRejected() {
        assertThrows(NullPointerException.class, () -> new VictimChooser(null));
        VictimChooser chooser = new VictimChooser("a");
        IllegalArgumentException negative =
                assertThrows(IllegalArgumentException.class, () -> chooser.onReply("b", -1));
        assertEquals("received must be >= 0, was -1", negative.getMessage());
        assertThrows(NullPointerException.class, () -> chooser.onReply(null, 1));
        NullPointerException nullCandidate = assertThrows(NullPointerException.class,
                () -> chooser.choose(Arrays.asList("b", null), new SplittableRandom(SEED)));
        assertEquals("candidates must not contain null", nullCandidate.getMessage());
    }
}
