package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ThiefCapTest {

    @ParameterizedTest(name = "{0}: offer {1}, slots {2}, held {3}, by rank {4} -> {5}")
    @CsvSource({
            // cap, offer, thief slots, held, by rank, given
            "OFF,    2, 2, 0, false, 2",  // off: what the victim offers
            "OFF,    2, 2, 6, false, 2",  // off: however many the thief holds
            "OFF,    2, 2, 6, true,  2",
            "ALL,    2, 2, 0, false, 2",  // a first request: slots 2, nothing held
            "ALL,    2, 2, 1, false, 1",  // one held: one more fills its slots
            "ALL,    2, 2, 2, false, 0",  // its slots are full of this victim's elements
            "ALL,    2, 2, 5, false, 0",  // more held than slots: nothing, never negative
            "ALL,    2, 2, 1, true,  1",  // by rank too
            "ALL,    0, 2, 0, false, 0",  // nothing offered: nothing
            "ALL,    3, 8, 2, false, 3",  // many slots: the offer limits
            "ALL,    3, 8, 6, false, 2",  // 8 - 6
            "ALL,    1, 1, 0, true,  1",
            "ALL,    1, 1, 1, true,  0",
            "REPEAT, 2, 2, 0, false, 2",  // a first request is unchanged
            "REPEAT, 2, 2, 1, false, 1",  // a starving thief that holds one: capped
            "REPEAT, 2, 2, 2, false, 0",
            "REPEAT, 2, 2, 4, false, 0",
            "REPEAT, 2, 2, 2, true,  2",  // a request by rank is unchanged
            "REPEAT, 2, 2, 9, true,  2",
            "REPEAT, 3, 8, 6, false, 2",
    })
    void capsByTheThiefsSlotsLessWhatItHolds(ThiefCap cap, int offer, int slots, int held, boolean byRank,
                                              int given) {
        assertEquals(given, cap.cap(offer, slots, held, byRank));
    }

    @ParameterizedTest
    @EnumSource(ThiefCap.class)
    void neverGivesMoreThanOfferedNorBelowZero(ThiefCap cap) {
        for (int offer = 0; offer <= 5; offer++) {
            for (int slots = 1; slots <= 5; slots++) {
                for (int held = 0; held <= 8; held++) {
                    for (boolean byRank : new boolean[] {false, true}) {
                        int n = cap.cap(offer, slots, held, byRank);
                        String where = cap + ": offer " + offer + ", slots " + slots + ", held " + held
                                + ", by rank " + byRank + " -> " + n;
                        assertEquals(true, n >= 0 && n <= offer, where);
                        if (cap != ThiefCap.OFF && n > 0 && (cap == ThiefCap.ALL || !byRank && held > 0)) {
                            assertEquals(true, held + n <= slots, "the thief's slots hold all it has: " + where);
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"-1, 2, 0, offer", "1, 0, 0, thiefSlots", "1, 2, -1, held"})
    void rejectsCountsOutOfRange(int offer, int slots, int held, String field) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ThiefCap.ALL.cap(offer, slots, held, false));
        assertEquals(true, e.getMessage().startsWith(field + " must be"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"off, OFF", "ALL, ALL", "Repeat, REPEAT"})
    void parsesTheOptionValues(String value, ThiefCap expected) {
        assertEquals(expected, ThiefCap.parse(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "on", "al"})
    void rejectsOtherValues(String value) {
        assertThrows(IllegalArgumentException.class, () -> ThiefCap.parse(value));
    }
}
