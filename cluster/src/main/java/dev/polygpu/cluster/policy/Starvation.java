package dev.polygpu.cluster.policy;

/**
 * When a member is short of work and should ask another member for some (the thief side of the never-starve
 * rule; {@link Surplus} is the victim side).
 *
 * <p>The two counts a member reports about itself:
 * <ul>
 *   <li><em>ready</em>: computational elements (CEs) whose parents are all done but which are not yet on a
 *       stream; these wait in the member's bounded ready queue and are the only CEs another member may take;
 *   <li><em>running</em>: CEs on the member's streams, plus stolen CEs the member is running for their owners.
 * </ul>
 *
 * <p>Stateless and pure.
 */
public final class Starvation {

    private Starvation() {
    }

    /**
     * Whether a member is starving: {@code ready + running < threshold}. The sum is taken in {@code long}, so it
     * cannot overflow.
     *
     * @param ready CEs whose parents are done, not yet on a stream; at least 0
     * @param running CEs on streams or stolen work being run; at least 0
     * @param threshold the starvation threshold T ({@link StealSettings#threshold()}); at least 1
     * @return true when the member should ask for work
     * @throws IllegalArgumentException if a count is negative or the threshold is below 1
     */
    public static boolean starving(int ready, int running, int threshold) {
        Surplus.checkCounts(ready, running, threshold);
        return (long) ready + running < threshold;
    }

    /**
     * {@link #starving(int, int, int)} with the threshold of {@code settings}.
     *
     * @param ready CEs whose parents are done, not yet on a stream; at least 0
     * @param running CEs on streams or stolen work being run; at least 0
     * @param settings where the threshold comes from
     * @return true when the member should ask for work
     */
    public static boolean starving(int ready, int running, StealSettings settings) {
        return starving(ready, running, settings.threshold());
    }
}
