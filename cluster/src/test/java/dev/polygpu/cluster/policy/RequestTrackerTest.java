package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestTrackerTest {

    @Test
    void idsStartAtOneAndIncrease() {
        RequestTracker tracker = new RequestTracker();
        assertFalse(tracker.outstanding());
        assertEquals(0, tracker.requestId());
        assertEquals(1, tracker.begin("b", 100));
        assertTrue(tracker.accept(1, 150));
        assertEquals(2, tracker.begin("c", 200));
        assertTrue(tracker.expire(10_000, 1_000));
        assertEquals(3, tracker.begin("d", 20_000));
        assertTrue(tracker.abandon("d"));
        assertEquals(4, tracker.begin("b", 30_000));
    }

    @Test
    void atMostOneRequestIsOutstanding() {
        RequestTracker tracker = new RequestTracker();
        long id = tracker.begin("victim-7", 1_000);
        assertTrue(tracker.outstanding());
        assertEquals("victim-7", tracker.victim());
        assertEquals(id, tracker.requestId());
        IllegalStateException error = assertThrows(IllegalStateException.class, () -> tracker.begin("b", 2_000));
        assertEquals("steal request 1 to victim-7 is still outstanding; accept, expire or abandon it before "
                + "starting another", error.getMessage());
        assertEquals("victim-7", tracker.victim(), "the refused request changed nothing");
    }

    @Test
    void acceptedReplyClearsTheRequestAndGivesItsLatency() {
        RequestTracker tracker = new RequestTracker();
        assertEquals(-1, tracker.lastLatencyNanos());
        long id = tracker.begin("b", 5_000);
        assertTrue(tracker.accept(id, 5_750));
        assertFalse(tracker.outstanding());
        assertNull(tracker.victim());
        assertEquals(750, tracker.lastLatencyNanos());
    }

    @ParameterizedTest(name = "reply with id {0}")
    @CsvSource({"0", "2", "99", "-1"})
    void repliesToOtherIdsAreDropped(long replyId) {
        RequestTracker tracker = new RequestTracker();
        long first = tracker.begin("b", 0);
        assertTrue(tracker.accept(first, 10));
        long current = tracker.begin("c", 100);
        assertEquals(2, current);
        boolean matches = replyId == current;
        assertEquals(matches, tracker.accept(replyId, 200));
        assertEquals(!matches, tracker.outstanding());
    }

    @Test
    void staleAndDuplicateRepliesAreDropped() {
        RequestTracker tracker = new RequestTracker();
        long first = tracker.begin("b", 0);
        assertTrue(tracker.accept(first, 40));
        assertFalse(tracker.accept(first, 50), "duplicate of an accepted reply, nothing outstanding");
        long second = tracker.begin("c", 100);
        assertFalse(tracker.accept(first, 120), "stale: answers the earlier request");
        assertTrue(tracker.outstanding());
        assertTrue(tracker.accept(second, 130));
        assertFalse(tracker.accept(second, 140), "duplicate");
        assertEquals(30, tracker.lastLatencyNanos(), "duplicates do not overwrite the latency");
    }

    @ParameterizedTest(name = "sent at {0}, now {1}, timeout {2} -> expired {3}")
    @CsvSource({
            "1000, 1000, 100, false",
            "1000, 1099, 100, false",
            "1000, 1100, 100, true",   // waited the whole timeout
            "1000, 5000, 100, true",
            "-50,  49,   100, false",
            "-50,  50,   100, true",
            // A clock reading that wrapped past Long.MAX_VALUE: 100 ns later.
            "9223372036854775797, -9223372036854775719, 100, true",
            "9223372036854775797, -9223372036854775720, 100, false",
    })
    void expiresAfterTheTimeout(long sentNanos, long nowNanos, long timeoutNanos, boolean expired) {
        RequestTracker tracker = new RequestTracker();
        long id = tracker.begin("b", sentNanos);
        assertEquals(expired, tracker.expire(nowNanos, timeoutNanos));
        assertEquals(!expired, tracker.outstanding());
        // Once expired, the reply is stale; otherwise it is still accepted.
        assertEquals(!expired, tracker.accept(id, nowNanos));
    }

    @Test
    void expireWithNothingOutstandingDoesNothing() {
        RequestTracker tracker = new RequestTracker();
        assertFalse(tracker.expire(1_000_000, 1));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> tracker.expire(5, 0));
        assertEquals("timeoutNanos must be > 0, was 0", error.getMessage());
    }

    @Test
    void abandonOnlyForTheVictimThatLeft() {
        RequestTracker tracker = new RequestTracker();
        long id = tracker.begin("b", 0);
        assertFalse(tracker.abandon("c"));
        assertFalse(tracker.abandon(null));
        assertTrue(tracker.outstanding());
        assertTrue(tracker.abandon("b"));
        assertFalse(tracker.outstanding());
        assertFalse(tracker.accept(id, 10), "a reply forwarded through the member that left is stale");
    }

    @Test
    void nullVictimIsRejected() {
        RequestTracker tracker = new RequestTracker();
        assertThrows(NullPointerException.class, () -> tracker.begin(null, 0));
        assertFalse(tracker.outstanding());
    }
}
