package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class RankQueueTest {
    // task t has rank RANKS[t]
    private static final int[] RANKS = {1, 3, 1, 5, 3, 0, 1};

    @Test
    void highestRankFirstThenOldest() {
        RankQueue q = new RankQueue(RANKS);
        for (int t = 0; t < RANKS.length; t++) {
            q.addLast(t);
        }
        assertEquals(7, q.size());
        assertEquals(5, q.topRank());
        int[] expected = {3, 1, 4, 0, 2, 6, 5};
        for (int t : expected) {
            assertEquals(t, q.pollFirst());
        }
        assertTrue(q.isEmpty());
        assertEquals(-1, q.topRank());
        assertThrows(NoSuchElementException.class, q::pollFirst);
    }

    @Test
    void withoutRanksItIsFirstInFirstOut() {
        RankQueue q = new RankQueue(null);
        for (int t : new int[] {4, 0, 6, 3}) {
            q.addLast(t);
        }
        q.addFirst(5);
        for (int t : new int[] {5, 4, 0, 6, 3}) {
            assertEquals(t, q.pollFirst());
        }
    }

    @Test
    void aTaskPutBackGoesAheadOfItsRankOnly() {
        RankQueue q = new RankQueue(RANKS);
        q.addLast(1);
        q.addLast(3);
        q.addFirst(4);
        assertEquals(3, q.pollFirst(), "rank 5 before the rank-3 task put first");
        assertEquals(4, q.pollFirst());
        assertEquals(1, q.pollFirst());
    }

    @Test
    void rankAtCountsFromTheFront() {
        RankQueue q = new RankQueue(RANKS);
        for (int t : new int[] {0, 1, 3, 4, 5}) {
            q.addLast(t);
        }
        assertEquals(5, q.rankAt(0));
        assertEquals(3, q.rankAt(1));
        assertEquals(3, q.rankAt(2));
        assertEquals(1, q.rankAt(3));
        assertEquals(0, q.rankAt(4));
        assertEquals(-1, q.rankAt(5));
    }

    @Test
    void removeAtTakesFromTheMiddleOfARank() {
        RankQueue q = new RankQueue(RANKS);
        for (int t : new int[] {0, 2, 6, 1}) {
            q.addLast(t);
        }
        assertEquals(2, q.removeAt(1, 1));
        assertEquals(3, q.size());
        assertEquals(3, q.highestBucket());
        assertEquals(1, q.pollFirst());
        assertEquals(0, q.pollFirst());
        assertEquals(6, q.pollFirst());
    }

    @Test
    void clearEmptiesEveryRank() {
        RankQueue q = new RankQueue(RANKS);
        q.addLast(3);
        q.addLast(0);
        q.clear();
        assertTrue(q.isEmpty());
        q.addLast(2);
        assertEquals(2, q.pollFirst());
    }
}
