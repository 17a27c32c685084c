package dev.polygpu.cluster.policy;

/**
 * Whether a victim caps what it gives one thief by what that thief can run at once, and when (an option of
 * {@link StealSettings}, {@link #OFF} by default; see docs/benchmarks.md, issue #7).
 *
 * <p>The cap: a thief may hold at most as many of this victim's elements as it has slots, so a reply carries at
 * most {@code max(0, slots - held)} elements, where {@code held} counts the elements this victim gave that
 * thief and has not got back (no result, no hand-back yet). Without it, a thief that keeps asking the member
 * that last gave it work gets the next links of the chains it already runs, and they queue at its slots while
 * other members are idle.
 *
 * <p>The victim does not know the thief's slot count unless the request carries it; callers pass the best they
 * know (the simulator: the slots every member has; a node: its own).
 *
 * <p>Stateless and pure.
 */
public enum ThiefCap {

    /** No cap: a reply carries what {@link Surplus} and the chunk allow (the behaviour before the option). */
    OFF,

    /** Every request is capped. */
    ALL,

    /**
     * Only a request from a starving thief (one that asks for any element, not by rank) that already holds
     * elements of this victim is capped: a thief's first request, and requests by rank, are as with {@link #OFF}.
     */
    REPEAT;

    /**
     * How many elements a reply may carry under this cap.
     *
     * @param offer what the victim would give without a cap; at least 0
     * @param thiefSlots how many elements the thief runs at once; at least 1
     * @param held how many of this victim's elements the thief holds now (given, not yet back); at least 0
     * @param byRank whether the thief asked by rank (it is not starving)
     * @return from 0 to {@code offer}
     * @throws IllegalArgumentException if a count is out of range
     */
    public int cap(int offer, int thiefSlots, int held, boolean byRank) {
        if (offer < 0) {
            throw new IllegalArgumentException("offer must be >= 0, was " + offer);
        }
        if (thiefSlots < 1) {
            throw new IllegalArgumentException("thiefSlots must be >= 1, was " + thiefSlots);
        }
        if (held < 0) {
            throw new IllegalArgumentException("held must be >= 0, was " + held);
        }
        boolean applies = switch (this) {
            case OFF -> false;
            case ALL -> true;
            case REPEAT -> !byRank && held > 0;
        };
        return applies ? Math.min(offer, Math.max(0, thiefSlots - held)) : offer;
    }

    /**
     * The cap named by an option value: {@code off}, {@code all} or {@code repeat} (any case).
     *
     * @param name the value
     * @return the cap
     * @throws IllegalArgumentException naming the accepted values if {@code name} is none of them
     */
    public static ThiefCap parse(String name) {
        for (ThiefCap c : values()) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("a thief cap is off, all or repeat, not '" + name + "'");
    }
}
