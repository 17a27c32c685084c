package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SentInputsTest {

    @Test
    void aThiefHoldsWhatItWasSentWithTheSameContentsOnly() {
        SentInputs<String> s = new SentInputs<>(100);
        assertFalse(s.holds("t1", 5, "v1"));
        s.sent("t1", 5, "v1", 10);
        assertTrue(s.holds("t1", 5, "v1"));
        assertFalse(s.holds("t1", 5, "v2"), "the array changed since: send it again");
        assertFalse(s.holds("t2", 5, "v1"), "another thief was not sent it");
    }

    @Test
    void perThiefTheLeastRecentlyUsedAreForgottenBeyondTheCapacity() {
        SentInputs<String> s = new SentInputs<>(30);
        s.sent("t", 1, "f", 10);
        s.sent("t", 2, "f", 10);
        s.sent("t", 3, "f", 10);
        assertTrue(s.holds("t", 1, "f"), "touches 1");
        s.sent("t", 4, "f", 10);
        assertFalse(s.holds("t", 2, "f"), "2 was the least recently used");
        assertTrue(s.holds("t", 1, "f"));
        assertTrue(s.holds("t", 3, "f"));
        assertTrue(s.holds("t", 4, "f"));
        s.sent("u", 9, "f", 30);
        assertEquals(3, s.arraysHeldBy("t"), "another thief's record is its own");
    }

    @Test
    void anArrayLargerThanTheCapacityIsNotRememberedAndZeroRemembersNothing() {
        SentInputs<String> s = new SentInputs<>(30);
        s.sent("t", 1, "f", 31);
        assertFalse(s.holds("t", 1, "f"));
        SentInputs<String> off = new SentInputs<>(0);
        off.sent("t", 1, "f", 1);
        assertFalse(off.holds("t", 1, "f"));
    }

    @Test
    void resendingReplacesTheRecordAndForgetDropsTheThief() {
        SentInputs<String> s = new SentInputs<>(30);
        s.sent("t", 1, "a", 20);
        s.sent("t", 1, "b", 20);
        assertTrue(s.holds("t", 1, "b"));
        assertFalse(s.holds("t", 1, "a"));
        assertEquals(1, s.arraysHeldBy("t"));
        s.forget("t");
        assertFalse(s.holds("t", 1, "b"));
        assertEquals(0, s.arraysHeldBy("t"));
        s.forget(null);
    }

    @Test
    void theCountPerThiefIsBoundedToo() {
        SentInputs<String> s = new SentInputs<>(Long.MAX_VALUE);
        for (int i = 0; i <= SentInputs.MAX_ARRAYS_PER_THIEF; i++) {
            s.sent("t", i, "f", 0);
        }
        assertEquals(SentInputs.MAX_ARRAYS_PER_THIEF, s.arraysHeldBy("t"));
        assertFalse(s.holds("t", 0, "f"), "the oldest went");
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SentInputs<String>(-1));
        SentInputs<String> s = new SentInputs<>(10);
        assertThrows(IllegalArgumentException.class, () -> s.sent("t", 1, "f", -1));
        assertThrows(NullPointerException.class, () -> s.holds(null, 1, "f"));
        assertThrows(NullPointerException.class, () -> s.sent("t", 1, null, 1));
    }
}
