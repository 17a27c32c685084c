package dev.polygpu.cluster.policy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The starving thieves a member sent away because it had nothing to give, so that it can wake them when it has
 * work again instead of leaving them to come back when their back-off ends.
 *
 * <p>Why: a thief that meets only empty replies backs off up to {@link Thief#MAX_BACKOFF_NANOS}. When a program
 * that had nothing then submits a burst of kernels (its first launches, or the next iteration after a host
 * synchronization), its idle thieves would each wait out the rest of their back-off, on average half of it,
 * before asking again. A member that remembers whom it turned away wakes them as soon as its surplus is above 0:
 * it sends each the work it can give, as the reply to its request would have carried it (a pushed
 * {@code StealReply}: no request and reply before the thief's first kernel), or, where its cost gate keeps every
 * element home, a {@code LoadReport} of its surplus; either ends the thief's back-off ({@link Thief#wake}).
 * Nothing is sent while nothing changes, so an idle cluster stays as quiet as the back-off makes it.
 *
 * <p>Bounded: it keeps the {@code capacity} thieves turned away most recently (a thief turned away again moves
 * to the back), and the member wakes them oldest first, at most as many per turn of its stealing loop as it has
 * surplus. A thief that got work, or left, is removed. Which thieves count as turned away is the
 * {@link Victim}'s decision ({@link Victim#answer}): only a starving thief sent away by a program with no surplus
 * at all, since one whose surplus the cost gate kept home would wake it at once, and it would be refused again.
 *
 * <p>Thread-safe: every method holds the instance's lock.
 */
public final class TurnedAway {

    /** How many thieves a member remembers by default. */
    public static final int DEFAULT_CAPACITY = 64;

    private final int capacity;
    private final LinkedHashSet<String> thieves = new LinkedHashSet<>();

    /**
     * An empty list that keeps at most {@code capacity} thieves.
     *
     * @param capacity at least 1
     * @throws IllegalArgumentException if {@code capacity} is below 1
     */
    public TurnedAway(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Remembers that {@code thief} was sent away with nothing; if that makes more than the capacity, the thief
     * turned away longest ago is forgotten.
     *
     * @param thief the thief's member id; not null
     */
    public synchronized void add(String thief) {
        Objects.requireNonNull(thief, "thief");
        thieves.remove(thief);
        thieves.add(thief);
        if (thieves.size() > capacity) {
            Iterator<String> oldest = thieves.iterator();
            oldest.next();
            oldest.remove();
        }
    }

    /**
     * Forgets {@code thief}: it got work, or it left.
     *
     * @param thief the thief's member id; null changes nothing
     */
    public synchronized void remove(String thief) {
        if (thief != null) {
            thieves.remove(thief);
        }
    }

    /**
     * Takes the thieves to wake now: the {@code n} turned away longest ago (all, if fewer), removed from the
     * list.
     *
     * @param n how many at most; below 1 takes none
     * @return the thieves, oldest first
     */
    public synchronized List<String> take(int n) {
        List<String> out = new ArrayList<>(Math.max(0, Math.min(n, thieves.size())));
        for (Iterator<String> it = thieves.iterator(); it.hasNext() && out.size() < n; ) {
            out.add(it.next());
            it.remove();
        }
        return out;
    }

    /** {@return whether no thief waits to be woken} */
    public synchronized boolean isEmpty() {
        return thieves.isEmpty();
    }

    /** {@return how many thieves wait to be woken} */
    public synchronized int size() {
        return thieves.size();
    }

    @Override
    public synchronized String toString() {
        return "TurnedAway" + thieves;
    }
}
