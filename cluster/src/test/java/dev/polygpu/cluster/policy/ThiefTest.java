package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import org.junit.jupiter.api.Test;

class ThiefTest {
    private static final long MS = 1_000_000L;
    // window 4: threshold 6, chunk 2, 200 ms timeout
    private static final StealSettings SETTINGS = StealSettings.defaults(4);
    private static final List<String> OTHERS = List.of("a", "b", "c");

    private static RandomGenerator rnd() {
        return RandomGeneratorFactory.of("L64X128MixRandom").create(42);
    }

    @Test
    void aMemberAtItsThresholdDoesNotAsk() {
        Thief t = new Thief("me", SETTINGS);
        assertNull(t.begin(0, 4, 2, OTHERS, rnd()));
        assertFalse(t.outstanding());
    }

    @Test
    void aStarvingMemberAsksForWhatItLacksOnce() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request r = t.begin(0, 1, 2, OTHERS, rnd());
        assertNotNull(r);
        assertEquals(3, r.wanted(), "threshold 6 - ready 1 - running 2");
        assertTrue(OTHERS.contains(r.victim()));
        assertNull(t.begin(1, 0, 0, OTHERS, rnd()), "one request at a time");
    }

    @Test
    void anEmptyReplyBacksOffOneTwoFourMillisecondsUpToFifty() {
        Thief t = new Thief("me", SETTINGS);
        long now = 0;
        long[] expected = {1, 2, 4, 8, 16, 32, 50, 50};
        for (long wait : expected) {
            Thief.Request r = t.begin(now, 0, 0, OTHERS, rnd());
            assertNotNull(r, "a request goes once the back-off is over, at " + now);
            assertTrue(t.accept(r.requestId(), r.victim(), 0, now));
            assertEquals(now + wait * MS, t.quietUntil(now));
            assertNull(t.begin(now + wait * MS - 1, 0, 0, OTHERS, rnd()), "still backing off");
            assertFalse(t.idle(now + wait * MS - 1));
            now += wait * MS;
            assertTrue(t.idle(now));
        }
    }

    @Test
    void aReplyWithWorkEndsTheBackOffAndItsSenderIsAskedFirst() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request r = t.begin(0, 0, 0, OTHERS, rnd());
        t.accept(r.requestId(), r.victim(), 0, 0);
        r = t.begin(MS, 0, 0, OTHERS, rnd());
        assertTrue(t.accept(r.requestId(), "b", 2, 2 * MS));
        assertEquals(MS, t.lastLatencyNanos());
        assertEquals("b", t.lastVictim());
        assertTrue(t.idle(2 * MS));
        assertEquals("b", t.begin(2 * MS, 0, 0, OTHERS, rnd()).victim());
    }

    @Test
    void staleAndDuplicateRepliesAreRefused() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request r = t.begin(0, 0, 0, OTHERS, rnd());
        assertFalse(t.accept(r.requestId() + 1, "a", 1, 1));
        assertTrue(t.accept(r.requestId(), "a", 1, 1));
        assertFalse(t.accept(r.requestId(), "a", 1, 2), "a duplicate");
    }

    @Test
    void aTimedOutRequestCountsAsEmptyAndItsReplyIsStale() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request r = t.begin(0, 0, 0, OTHERS, rnd());
        assertFalse(t.expire(SETTINGS.requestTimeoutNanos() - 1));
        assertTrue(t.expire(SETTINGS.requestTimeoutNanos()));
        assertFalse(t.outstanding());
        assertFalse(t.idle(SETTINGS.requestTimeoutNanos()), "a timeout backs off like an empty reply");
        assertFalse(t.accept(r.requestId(), r.victim(), 2, SETTINGS.requestTimeoutNanos() + 1));
    }

    @Test
    void forgettingTheVictimOfTheOutstandingRequestGivesItUp() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request r = t.begin(0, 0, 0, OTHERS, rnd());
        String other = OTHERS.stream().filter(m -> !m.equals(r.victim())).findFirst().orElseThrow();
        assertFalse(t.forget(other));
        assertTrue(t.outstanding());
        assertTrue(t.forget(r.victim()));
        assertFalse(t.outstanding());
        assertTrue(t.idle(0), "giving up for a departure does not back off");
    }

    @Test
    void resetBackOffLetsARequestGoAtOnce() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request r = t.begin(0, 0, 0, OTHERS, rnd());
        t.accept(r.requestId(), r.victim(), 0, 0);
        assertFalse(t.idle(0));
        t.resetBackOff();
        assertTrue(t.idle(0));
    }

    @Test
    void withNobodyToAskNoRequestGoes() {
        Thief t = new Thief("me", SETTINGS);
        assertNull(t.begin(0, 0, 0, List.of("me"), rnd()));
        assertFalse(t.outstanding());
    }
}
