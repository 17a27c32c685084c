package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
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

    /** Makes "b" the remembered victim of {@code t}: a request answered with work by "b" at {@code now}. */
    private static long rememberB(Thief t, long now) {
        Thief.Request r = t.begin(now, 0, 0, OTHERS, rnd());
        assertTrue(t.accept(r.requestId(), "b", 2, now));
        assertEquals("b", t.lastVictim());
        return now;
    }

    /** Asks (at {@code now}, after any back-off) and gets an empty reply from {@code sender}; returns the victim asked. */
    private static String emptyFrom(Thief t, String sender, long now) {
        Thief.Request r = t.begin(now, 0, 0, OTHERS, rnd());
        assertNotNull(r, "a request at " + now);
        assertTrue(t.accept(r.requestId(), sender, 0, now));
        return r.victim();
    }

    @Test
    void byDefaultForwardedEmptyRepliesKeepTheRememberedVictim() {
        Thief t = new Thief("me", SETTINGS);
        long now = rememberB(t, 0);
        for (int i = 0; i < 20; i++) {
            now += Thief.MAX_BACKOFF_NANOS;
            assertEquals("b", emptyFrom(t, "c", now), "b forwarded to c, which had nothing");
        }
        assertEquals("b", t.lastVictim());
    }

    @Test
    void forgetAfterNEmptyRepliesThroughTheRememberedVictim() {
        Thief t = new Thief("me", SETTINGS, 3);
        long now = rememberB(t, 0);
        now += Thief.MAX_BACKOFF_NANOS;
        assertEquals("b", emptyFrom(t, "c", now));
        now += Thief.MAX_BACKOFF_NANOS;
        assertEquals("b", emptyFrom(t, "a", now));
        assertEquals("b", t.lastVictim(), "two in a row: kept");
        now += Thief.MAX_BACKOFF_NANOS;
        assertEquals("b", emptyFrom(t, "c", now));
        assertNull(t.lastVictim(), "the third in a row: forgotten, the next request goes to a random member");
    }

    @Test
    void workThroughTheRememberedVictimStartsTheCountAgain() {
        Thief t = new Thief("me", SETTINGS, 2);
        long now = rememberB(t, 0);
        now += Thief.MAX_BACKOFF_NANOS;
        assertEquals("b", emptyFrom(t, "c", now));
        now += Thief.MAX_BACKOFF_NANOS;
        Thief.Request r = t.begin(now, 0, 0, OTHERS, rnd());
        assertEquals("b", r.victim());
        assertTrue(t.accept(r.requestId(), "b", 1, now), "b gave this time");
        now += MS;
        assertEquals("b", emptyFrom(t, "a", now));
        assertEquals("b", t.lastVictim(), "one empty reply since the work: kept");
        now += Thief.MAX_BACKOFF_NANOS;
        assertEquals("b", emptyFrom(t, "a", now));
        assertNull(t.lastVictim());
    }

    @Test
    void aNegativeForgetCountIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Thief("me", SETTINGS, -1));
        assertThrows(IllegalArgumentException.class, () -> new Thief("me", SETTINGS, 0, -1));
    }

    @Test
    void everyNthRequestGoesToARandomMemberAndTheRememberedOneIsKept() {
        List<String> many = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        RandomGenerator random = rnd();
        Thief t = new Thief("me", SETTINGS, 0, 2);
        Thief.Request first = t.begin(0, 0, 0, many, random);
        assertTrue(t.accept(first.requestId(), "b", 2, 0), "request 1: b gives and is remembered");
        long now = 0;
        int elsewhere = 0;
        for (int i = 2; i <= 21; i++) {
            now += Thief.MAX_BACKOFF_NANOS;
            Thief.Request r = t.begin(now, 0, 0, many, random);
            if (i % 2 == 1) {
                assertEquals("b", r.victim(), "request " + i + " goes to the remembered member");
            } else if (!r.victim().equals("b")) {
                elsewhere++;
            }
            assertTrue(t.accept(r.requestId(), "h".equals(r.victim()) ? "g" : "h", 0, now), "forwarded, empty");
            assertEquals("b", t.lastVictim());
        }
        assertTrue(elsewhere >= 5, "of 10 random draws among 8 members, " + elsewhere + " were not b");
        Thief plain = new Thief("me", SETTINGS);
        rememberB(plain, 0);
        for (int i = 0; i < 10; i++) {
            assertEquals("b", emptyFrom(plain, "h", (i + 1) * Thief.MAX_BACKOFF_NANOS));
        }
    }

    @Test
    void withDirectoriesARequestAfterAnEmptyReplyOfItsKindGoesToADirectoryUntilWorkComes() {
        List<String> many = List.of("a", "b", "me", "c", "d", "e");
        RandomGenerator random = rnd();
        Thief t = new Thief("me", SETTINGS.withRankChunk(1), 0, 0, 3);
        Thief.Request first = t.begin(0, 0, 0, many, random);
        assertTrue(t.accept(first.requestId(), "d", 2, 0), "d gives and is remembered");
        Thief.Request r = t.begin(0, 0, 0, many, random);
        assertEquals("d", r.victim(), "after work: the remembered member");
        long now = 0;
        assertTrue(t.accept(r.requestId(), "e", 0, now), "empty, forwarded from d to e");
        Set<String> asked = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            now += Thief.MAX_BACKOFF_NANOS;
            Thief.Request next = t.begin(now, 0, 0, many, random);
            assertTrue(List.of("a", "b").contains(next.victim()), "a directory (the first 3 members, not me): "
                    + next.victim());
            asked.add(next.victim());
            assertTrue(t.accept(next.requestId(), "c", 0, now));
        }
        assertEquals(Set.of("a", "b"), asked, "drawn at random");
        Thief.Request byRank = t.begin(now + Thief.MAX_BACKOFF_NANOS, 4, 2, 3, many, random);
        assertEquals("d", byRank.victim(), "an empty starving reply does not send a request by rank to a directory");
        assertTrue(t.accept(byRank.requestId(), "d", 0, now + Thief.MAX_BACKOFF_NANOS));
        now += 2 * Thief.MAX_BACKOFF_NANOS;
        Thief.Request byRankAgain = t.begin(now, 4, 2, 3, many, random);
        assertTrue(List.of("a", "b").contains(byRankAgain.victim()),
                "after an empty reply by rank, the next request by rank goes to a directory: " + byRankAgain.victim());
        assertEquals(1, byRankAgain.wanted(), "by rank, for the settings' rank chunk");
        assertTrue(t.accept(byRankAgain.requestId(), "c", 1, now), "a directory forwarded it to c, which gave");
        Thief.Request starving = t.begin(now, 0, 0, many, random);
        assertTrue(List.of("a", "b").contains(starving.victim()), "still after an empty starving reply");
        assertTrue(t.accept(starving.requestId(), "c", 2, now), "a directory forwarded it to c, which gave");
        assertEquals("c", t.begin(now, 0, 0, many, random).victim(), "after work: the member that gave it");
        assertThrows(IllegalArgumentException.class, () -> new Thief("me", SETTINGS, 0, 0, -1));
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
    void aWakeUpEndsTheBackOffAndTheNextRequestChoosesAsAlways() {
        List<String> many = List.of("a", "b", "me", "c", "d");
        RandomGenerator random = rnd();
        Thief t = new Thief("me", SETTINGS, 0, 0, 2);
        long now = 0;
        // Eight empty replies: the back-off is at its 50 ms.
        for (int i = 0; i < 8; i++) {
            Thief.Request r = t.begin(now, 0, 0, many, random);
            assertNotNull(r, "a request at " + now);
            assertTrue(t.accept(r.requestId(), "a", 0, now));
            if (i < 7) {
                now = t.quietUntil(now);
            }
        }
        assertEquals(now + Thief.MAX_BACKOFF_NANOS, t.quietUntil(now));
        assertFalse(t.wake("me", now + MS), "woken by itself: nothing changes");
        assertFalse(t.idle(now + MS));
        assertTrue(t.wake("d", now + MS));
        assertTrue(t.idle(now + MS), "no back-off left");
        Thief.Request r = t.begin(now + MS, 0, 0, many, random);
        assertTrue(List.of("a", "b").contains(r.victim()), "after an empty reply: a directory (a or b), whose "
                + "table knows where the most surplus is: " + r.victim());
        assertEquals(SETTINGS.threshold(), r.wanted());
        assertTrue(t.accept(r.requestId(), "d", 0, now + 2 * MS), "nothing left by then");
        assertEquals(now + 3 * MS, t.quietUntil(now + 2 * MS), "the back-off starts again from 1 ms");
    }

    @Test
    void aWakeUpChangesNothingForAThiefThatIsNotBackingOff() {
        Thief t = new Thief("me", SETTINGS);
        assertFalse(t.wake("c", 0), "never asked: not backing off");
        Thief.Request r = t.begin(0, 0, 0, List.of("a", "b"), rnd());
        assertFalse(t.wake("c", 0), "a request is out");
        assertTrue(t.accept(r.requestId(), "b", 2, MS));
        assertEquals("b", t.begin(MS, 0, 0, OTHERS, rnd()).victim(), "the member that gave");
        Thief u = new Thief("me", SETTINGS);
        Thief.Request s = u.begin(0, 0, 0, OTHERS, rnd());
        assertTrue(u.accept(s.requestId(), s.victim(), 0, 0));
        assertFalse(u.wake("c", MS), "the 1 ms back-off is over: it asks anyway");
        assertThrows(NullPointerException.class, () -> u.wake(null, 0));
    }

    @Test
    void aWakeUpDoesNotEndTheBackOffOfRequestsByRank() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request byRank = t.begin(0, 4, 2, 3, OTHERS, rnd());
        assertTrue(byRank.minRank() > 0);
        assertTrue(t.accept(byRank.requestId(), "a", 0, 0));
        assertFalse(t.wake("c", 0), "not starving: nothing to end");
        assertNull(t.begin(0, 4, 2, 3, OTHERS, rnd()), "requests by rank still back off");
    }

    @Test
    void withNobodyToAskNoRequestGoes() {
        Thief t = new Thief("me", SETTINGS);
        assertNull(t.begin(0, 0, 0, List.of("me"), rnd()));
        assertFalse(t.outstanding());
    }

    @Test
    void aBusyMemberWithLowRankedWorkAsksForTwiceItsRankAndAChunk() {
        Thief t = new Thief("me", SETTINGS);
        assertNull(t.begin(0, 4, 2, 0, OTHERS, rnd()), "busy, ranks unknown: no request");
        Thief.Request r = t.begin(0, 4, 2, 3, OTHERS, rnd());
        assertNotNull(r);
        assertEquals(7, r.minRank(), "above 2 x floor 3");
        assertEquals(2, r.wanted(), "the chunk");
        assertNull(t.begin(1, 4, 2, 3, OTHERS, rnd()), "one request at a time");
    }

    @Test
    void aStarvingMemberAsksForAnyRank() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request r = t.begin(0, 1, 2, 3, OTHERS, rnd());
        assertEquals(0, r.minRank());
        assertEquals(3, r.wanted());
    }

    @Test
    void withTheRankFactorZeroOnlyStarvingMembersAsk() {
        Thief t = new Thief("me", SETTINGS.withRankFactor(0));
        assertNull(t.begin(0, 4, 2, 3, OTHERS, rnd()));
        assertNotNull(t.begin(0, 1, 2, 3, OTHERS, rnd()));
    }

    @Test
    void requestsByRankBackOffOnTheirOwnSoAStarvingMemberStillAsksAtOnce() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request r = t.begin(0, 4, 2, 3, OTHERS, rnd());
        assertTrue(t.accept(r.requestId(), r.victim(), 0, 0));
        assertNull(t.begin(MS - 1, 4, 2, 3, OTHERS, rnd()), "requests by rank back off 1 ms");
        assertEquals(MS, t.nextRequestAt(0));
        assertEquals(0, t.quietUntil(0), "a starving member's requests do not wait");
        Thief.Request starving = t.begin(1, 0, 1, 3, OTHERS, rnd());
        assertNotNull(starving);
        assertEquals(0, starving.minRank());
        assertTrue(t.accept(starving.requestId(), starving.victim(), 0, 1));
        assertEquals(1 + MS, t.quietUntil(1), "its own back-off starts at 1 ms");
        assertEquals(MS, t.nextRequestAt(1), "the earlier of the two");
        Thief.Request again = t.begin(MS, 4, 2, 3, OTHERS, rnd());
        assertNotNull(again, "the rank back-off is over");
        assertTrue(t.accept(again.requestId(), again.victim(), 0, MS));
        assertEquals(1 + MS, t.nextRequestAt(MS), "the starving back-off still ends first");
        assertEquals(3 * MS, t.nextRequestAt(1 + MS), "then 2 ms after the second empty reply by rank");
    }

    @Test
    void workFromAStarvingRequestDoesNotEndTheBackOffOfRequestsByRank() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request byRank = t.begin(0, 4, 2, 3, OTHERS, rnd());
        assertTrue(t.accept(byRank.requestId(), byRank.victim(), 0, 0));
        Thief.Request starving = t.begin(10, 0, 0, 3, OTHERS, rnd());
        assertTrue(t.accept(starving.requestId(), starving.victim(), 2, 20));
        assertNull(t.begin(30, 4, 2, 3, OTHERS, rnd()), "still backing off by rank");
        assertEquals(MS, t.nextRequestAt(30));
    }

    @Test
    void requestsByRankBackOffUpToOneSecond() {
        Thief t = new Thief("me", SETTINGS);
        long now = 0;
        for (int i = 0; i < 12; i++) {
            now = t.nextRequestAt(now);
            Thief.Request r = t.begin(now, 4, 2, 3, OTHERS, rnd());
            assertNotNull(r, "at " + now);
            assertTrue(t.accept(r.requestId(), r.victim(), 0, now));
        }
        assertEquals(now + Thief.MAX_RANK_BACKOFF_NANOS, t.nextRequestAt(now), "1, 2 … 512 ms, then 1 s");
    }

    @Test
    void workFromARequestByRankEndsBothBackOffs() {
        Thief t = new Thief("me", SETTINGS);
        Thief.Request starving = t.begin(0, 0, 0, 0, OTHERS, rnd());
        assertTrue(t.accept(starving.requestId(), starving.victim(), 0, 0));
        Thief.Request byRank = t.begin(0, 4, 2, 3, OTHERS, rnd());
        assertNotNull(byRank, "the starving back-off does not hold requests by rank");
        assertTrue(t.accept(byRank.requestId(), byRank.victim(), 2, 10));
        assertEquals(10, t.nextRequestAt(10));
        assertTrue(t.idle(10));
    }

    @Test
    void aReplyIsStaleEmptyOrWorkAndPushedWorkEndsTheBackOffWithWakeUpsOn() {
        Thief t = new Thief("me", SETTINGS.withWakeThieves(true));
        assertEquals(Thief.Reply.STALE, t.onReply(1, "a", 2, false, 0), "no request is out");
        Thief.Request r = t.begin(0, 0, 0, OTHERS, rnd());
        assertEquals(Thief.Reply.EMPTY, t.onReply(r.requestId(), r.victim(), 0, false, 0));
        assertEquals(MS, t.quietUntil(0), "an empty reply: 1 ms of back-off");
        assertEquals(Thief.Reply.STALE, t.onReply(r.requestId(), r.victim(), 1, false, 0), "answered already");
        assertEquals(Thief.Reply.WORK, t.onReply(0, "b", 1, true, 0), "pushed: answers no request");
        assertEquals(0, t.quietUntil(0), "work pushed by b ended the back-off");
        Thief.Request next = t.begin(0, 0, 0, OTHERS, rnd());
        assertEquals(Thief.Reply.WORK, t.onReply(next.requestId(), next.victim(), 2, false, 5));
        assertEquals(5, t.lastLatencyNanos(), "asked at 0, answered at 5");
    }

    @Test
    void pushedWorkLeavesTheBackOffAloneWithWakeUpsOff() {
        Thief t = new Thief("me", SETTINGS.withWakeThieves(false));
        Thief.Request r = t.begin(0, 0, 0, OTHERS, rnd());
        t.onReply(r.requestId(), r.victim(), 0, false, 0);
        assertEquals(Thief.Reply.WORK, t.onReply(0, "b", 1, true, 0));
        assertEquals(MS, t.quietUntil(0), "still backing off");
    }

    @Test
    void aLoadReportWithSurplusWakesAThiefThatMayAskAndBacksOff() {
        Thief t = new Thief("me", SETTINGS.withWakeThieves(true));
        Thief.Request r = t.begin(0, 0, 0, OTHERS, rnd());
        t.onReply(r.requestId(), r.victim(), 0, false, 0);
        assertFalse(t.onLoadReport("b", 0, true, 0), "no surplus");
        assertFalse(t.onLoadReport("b", 3, false, 0), "not stealing, or leaving");
        assertTrue(t.onLoadReport("b", 3, true, 0));
        assertFalse(t.onLoadReport("b", 3, true, 0), "no longer backing off");
        Thief off = new Thief("me", SETTINGS.withWakeThieves(false));
        Thief.Request q = off.begin(0, 0, 0, OTHERS, rnd());
        off.onReply(q.requestId(), q.victim(), 0, false, 0);
        assertFalse(off.onLoadReport("b", 3, true, 0), "wake-ups off");
    }
}
