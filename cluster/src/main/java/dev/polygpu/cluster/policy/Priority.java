package dev.polygpu.cluster.policy;

/**
 * Asking for work by rank: how a member that is busy, but only with work that can wait, takes urgent work from
 * others.
 *
 * <p>An element's <b>rank</b> is its bottom level: the number of elements on the longest chain of dependencies
 * from it to the end of the program as submitted so far, itself included (1 for an element nothing depends on
 * yet). Schedulers run their ready elements highest rank first, and victims give their highest-ranked ones
 * first: that is list scheduling by critical path (HLFET), which starts the long chains of an imbalanced
 * program early instead of at the end. Rank 0 means unknown (a member that does not rank its elements); it
 * never causes a request by rank.
 *
 * <p>Starvation alone ({@link Starvation}) lets a member ask for work only when it runs out. A program whose
 * members are all busy at first, most with short chains and a few with long ones, then keeps its long chains
 * waiting at their owners until the short ones are done, and finishes late (docs/benchmarks.md, "Figures behind
 * the stealing policy"). So a member also asks when the elements it would run next are of low rank: its
 * <b>floor rank</b> is the lowest rank among the {@code slots} highest-ranked elements it holds (ready or on
 * streams), and it asks for elements of rank above {@code rankFactor × floor}
 * ({@link StealSettings#rankFactor()}), which, once received, run ahead of its own.
 *
 * <p>Stateless and thread-safe.
 */
public final class Priority {

    private Priority() {
    }

    /**
     * The lowest rank a member may ask for without starving, or 0 when it should not ask by rank.
     *
     * @param floorRank the member's floor rank (the lowest of the ranks of its {@code slots} highest-ranked
     *     elements); below 1 when it holds fewer elements than slots or does not rank them
     * @param settings where the rank factor comes from
     * @return {@code floor(rankFactor × floorRank) + 1}, at most {@code Integer.MAX_VALUE}; 0 when the factor is
     *     0 or the floor rank is below 1
     */
    public static int minRankToAsk(int floorRank, StealSettings settings) {
        double factor = settings.rankFactor();
        if (factor == 0 || floorRank < 1) {
            return 0;
        }
        double above = Math.floor(factor * floorRank) + 1;
        return above >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) above;
    }

    /**
     * The floor rank of a member from the ranks of the elements it holds: the lowest of its {@code slots}
     * highest, or 0 if it holds fewer than {@code slots}.
     *
     * @param slots how many elements its device runs at once; at least 1
     * @param ranks the ranks of some elements it holds, any order; only the highest {@code slots} matter, so a
     *     caller may pass just the top few of each of its queues
     * @return the floor rank, or 0
     * @throws IllegalArgumentException if {@code slots} is below 1
     */
    public static int floorRank(int slots, int... ranks) {
        return floorRank(slots, ranks, ranks.length);
    }

    /**
     * {@link #floorRank(int, int...)} of the first {@code count} entries of {@code ranks}.
     *
     * @param slots how many elements its device runs at once; at least 1
     * @param ranks the ranks, in its first {@code count} entries
     * @param count how many entries count; 0 to {@code ranks.length}
     * @return the floor rank, or 0
     * @throws IllegalArgumentException if {@code slots} is below 1 or {@code count} out of range
     */
    public static int floorRank(int slots, int[] ranks, int count) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be >= 1, was " + slots);
        }
        if (count < 0 || count > ranks.length) {
            throw new IllegalArgumentException("count must be 0 to " + ranks.length + ", was " + count);
        }
        if (count < slots) {
            return 0;
        }
        int[] best = new int[slots];
        java.util.Arrays.fill(best, Integer.MIN_VALUE);
        for (int k = 0; k < count; k++) {
            int r = ranks[k];
            // Insertion into the descending top-slots list.
            for (int i = 0; i < slots && r > Integer.MIN_VALUE; i++) {
                if (r > best[i]) {
                    int displaced = best[i];
                    best[i] = r;
                    r = displaced;
                }
            }
        }
        return Math.max(0, best[slots - 1]);
    }
}
