package dev.polygpu.cluster.sim;

import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * A member's ready tasks, highest rank first and, within a rank, oldest first: one {@link IntRing} per rank.
 * With every rank 0 it is a plain first-in first-out queue. Internal.
 */
final class RankQueue {
    /** Each task's rank (its bottom level), or null: every task ranks 0. */
    private final int[] ranks;
    private IntRing[] buckets = new IntRing[1];
    /** No bucket above this one holds a task; -1 when the queue is empty. */
    private int top = -1;
    private int size;

    RankQueue(int[] ranks) {
        this.ranks = ranks;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int rank(int t) {
        return ranks == null ? 0 : ranks[t];
    }

    void addLast(int t) {
        bucketFor(t).addLast(t);
        size++;
    }

    /** Puts {@code t} ahead of the tasks of its rank (a task that came back). */
    void addFirst(int t) {
        bucketFor(t).addFirst(t);
        size++;
    }

    /** Removes the oldest task of the highest rank. */
    int pollFirst() {
        if (size == 0) {
            throw new NoSuchElementException("the queue is empty");
        }
        settleTop();
        size--;
        return buckets[top].pollFirst();
    }

    /** {@return the highest rank present, or -1 when empty} */
    int topRank() {
        if (size == 0) {
            return -1;
        }
        settleTop();
        return top;
    }

    /** {@return the rank of the {@code i}-th task from the front (0: the first), or -1 if there are fewer} */
    int rankAt(int i) {
        if (i >= size) {
            return -1;
        }
        int seen = 0;
        for (int r = top; r >= 0; r--) {
            if (buckets[r] != null) {
                seen += buckets[r].size();
                if (seen > i) {
                    return r;
                }
            }
        }
        throw new IllegalStateException("size " + size + " does not match the buckets");
    }

    /** {@return the highest rank that may hold a task: where a walk from the front starts} */
    int highestBucket() {
        return top;
    }

    /** {@return the tasks of rank {@code r}, oldest first (possibly empty), or null if none ever had it} */
    IntRing bucket(int r) {
        return r < buckets.length ? buckets[r] : null;
    }

    /** Removes and returns the {@code i}-th oldest task of rank {@code r}. */
    int removeAt(int r, int i) {
        size--;
        return buckets[r].removeAt(i);
    }

    void clear() {
        for (IntRing b : buckets) {
            if (b != null) {
                b.clear();
            }
        }
        size = 0;
        top = -1;
    }

    private void settleTop() {
        while (buckets[top] == null || buckets[top].isEmpty()) {
            top--;
        }
    }

    private IntRing bucketFor(int t) {
        int r = rank(t);
        if (r >= buckets.length) {
            buckets = Arrays.copyOf(buckets, Math.max(r + 1, 2 * buckets.length));
        }
        if (buckets[r] == null) {
            buckets[r] = new IntRing();
        }
        top = Math.max(top, r);
        return buckets[r];
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("[");
        for (int r = buckets.length - 1; r >= 0; r--) {
            if (buckets[r] != null && !buckets[r].isEmpty()) {
                b.append(b.length() > 1 ? ", " : "").append("rank ").append(r).append(": ").append(buckets[r]);
            }
        }
        return b.append(']').toString();
    }
}
