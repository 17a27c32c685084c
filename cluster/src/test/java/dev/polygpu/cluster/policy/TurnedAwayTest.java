package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TurnedAwayTest {

    @Test
    void thievesAreWokenOldestFirstAtMostAsManyAsAsked() {
        TurnedAway t = new TurnedAway(8);
        assertTrue(t.isEmpty());
        t.add("a");
        t.add("b");
        t.add("c");
        assertEquals(List.of("a", "b"), t.take(2));
        assertEquals(1, t.size());
        assertEquals(List.of("c"), t.take(5));
        assertTrue(t.isEmpty());
        assertEquals(List.of(), t.take(3));
    }

    @Test
    void aThiefTurnedAwayAgainMovesToTheBackAndIsKeptOnce() {
        TurnedAway t = new TurnedAway(8);
        t.add("a");
        t.add("b");
        t.add("a");
        assertEquals(2, t.size());
        assertEquals(List.of("b", "a"), t.take(2));
    }

    @Test
    void beyondItsCapacityTheThiefTurnedAwayLongestAgoIsForgotten() {
        TurnedAway t = new TurnedAway(2);
        t.add("a");
        t.add("b");
        t.add("c");
        assertEquals(List.of("b", "c"), t.take(3));
    }

    @Test
    void aThiefThatGotWorkOrLeftIsNotWoken() {
        TurnedAway t = new TurnedAway(4);
        t.add("a");
        t.add("b");
        t.remove("a");
        t.remove("never-added");
        t.remove(null);
        assertEquals(List.of("b"), t.take(4));
    }

    @Test
    void takingNoneOrLessTakesNothing() {
        TurnedAway t = new TurnedAway(4);
        t.add("a");
        assertEquals(List.of(), t.take(0));
        assertEquals(List.of(), t.take(-1));
        assertFalse(t.isEmpty());
        assertTrue(t.toString().contains("a"), t.toString());
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TurnedAway(0));
        assertThrows(NullPointerException.class, () -> new TurnedAway(1).add(null));
    }
}
