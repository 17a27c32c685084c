package dev.polygpu.cluster.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a thief finds work in a large cluster: a few members, the <i>directories</i>, keep the surplus (and its
 * highest rank) that the others report, and forward a thief's request that they cannot serve themselves to a
 * member that reported enough of what it asks for.
 *
 * <p>Why: thieves ask the member that last gave them work, and a victim with nothing to give forwards to the
 * member that last gave <i>it</i> work. At the end of a large run those paths lead to members whose work is
 * done, and an owner with dozens of ready tasks can go unnoticed while much of the cluster idles. Mid-run the
 * same paths lead busy members that ask by rank to the few owners of the longest chains, while an owner of medium
 * chains that holds more than its slots can run in the time left is found only when its chains have become the
 * longest left. A directory is what a thief asks after an empty reply, by rank as when starving. (The simulated
 * runs that showed both: docs/benchmarks.md, "Figures behind the stealing policy".)
 *
 * <p>The protocol, as the cluster node and the simulator run it ({@code directories} above 0):
 * <ul>
 *   <li>The directories are the first {@code count} programs (members that may have work) of the cluster's
 *       member list (every member sees the same list, in join order), {@link #directories}; member {@code m}
 *       reports to {@link #directoryFor}{@code (m)}, and again at once when members join or leave.
 *   <li>A member reports its {@link #surplus} (what it could give: ready, stealable, above its threshold) and
 *       the highest rank among its stealable elements when the surplus runs out or comes back, doubles or
 *       halves, or the rank moves to another band of ranks {@link #RANK_STEP} times wider each
 *       ({@link #reportDue}), so a member sends a report every few dozen tasks, not one per task. In the
 *       simulator, a member whose replies already queued on its link would take longer than
 *       {@link #backlogLimitNanos} to leave reports 0: a directory must not send thieves to wait behind them
 *       (the node cannot see its link's queue: Hazelcast sends for it).
 *   <li>After an empty reply, a thief's next request of the same kind (starving, or by rank) goes to a directory
 *       drawn at random ({@link Thief}); its back-off is unchanged.
 *   <li>A directory that cannot give work itself forwards the request to the member with the largest surplus
 *       among those whose reported rank reaches what the request asks for ({@link #take}; any rank for a
 *       starving request), counting what it sends there against that member's report so that the next thieves
 *       go elsewhere; with no such member, it forwards as any victim does.
 * </ul>
 *
 * <p>Thread-safe: the table's methods are synchronized.
 */
public final class LoadDirectory {

    /**
     * How much wider each band of ranks is than the one below ({@link #rankBand}): a member's highest stealable
     * rank that moves to another band is reported (a chain of 200 links about every 40 links at first, every
     * link near its end).
     */
    public static final double RANK_STEP = 1.25;

    /** What a member last reported: its surplus (above 0) and the highest rank among its stealable elements. */
    private record Report(int surplus, int topRank) {
    }

    private final Map<String, Report> reports = new HashMap<>();

    /**
     * Whether a member that last reported {@code reported} surplus of highest rank {@code reportedTop} should
     * report {@code surplus} of highest rank {@code topRank} now: when it has none left or some again, when it
     * has doubled or halved since, or, with a surplus, when the rank has moved into another band
     * ({@link #rankBand}: bands {@link #RANK_STEP} times wider each). The factor of 2 both ways keeps a surplus
     * that moves between two neighbouring values from sending a report each time. Bands rather than "moved by
     * the factor since the last report", which did a little worse in the simulator (docs/benchmarks.md, "Figures
     * behind the stealing policy"): a rank that goes back and forth across a band's edge reports each time, but a
     * member's top rank mostly falls, link by link.
     *
     * @param reported the surplus last reported (0 if none yet); at least 0
     * @param reportedTop the highest rank last reported; at least 0 (0: none or unknown)
     * @param surplus the surplus now; at least 0
     * @param topRank the highest rank among the stealable elements now; at least 0
     * @return whether a report is due
     */
    public static boolean reportDue(int reported, int reportedTop, int surplus, int topRank) {
        if (reported < 0 || surplus < 0) {
            throw new IllegalArgumentException("surpluses must be >= 0, were " + reported + " and " + surplus);
        }
        if (reportedTop < 0 || topRank < 0) {
            throw new IllegalArgumentException("ranks must be >= 0, were " + reportedTop + " and " + topRank);
        }
        if (reported == 0 || surplus == 0) {
            return reported != surplus;
        }
        if (surplus >= 2L * reported || 2L * surplus <= reported) {
            return true;
        }
        return rankBand(topRank) != rankBand(reportedTop);
    }

    /**
     * What a member reports as its surplus: the stealable elements it could give without dropping below its
     * threshold, {@code min(stealable, ready + running - threshold)}, at least 0.
     *
     * @param ready ready elements there
     * @param stealable how many of them may move
     * @param running elements on its streams
     * @param settings its stealing settings (the threshold)
     * @return the surplus
     */
    public static int surplus(int ready, int stealable, int running, StealSettings settings) {
        return surplus(ready, stealable, running, settings.threshold());
    }

    /**
     * {@link #surplus(int, int, int, StealSettings)} with a threshold of its own (a member's learnt one).
     *
     * @param ready ready elements there
     * @param stealable how many of them may move
     * @param running elements on its streams
     * @param threshold its threshold
     * @return the surplus
     */
    public static int surplus(int ready, int stealable, int running, int threshold) {
        long above = (long) ready + running - threshold;
        return (int) Math.max(0, Math.min(stealable, above));
    }

    /**
     * The band of a rank for {@link #reportDue}: {@code floor(log(rank) / log(RANK_STEP))}, so bands are
     * {@link #RANK_STEP} times wider each (rank 1 is band 0, 5 band 7, 6–7 band 8, 87–108 band 20, 170–211
     * band 23); -1 for 0, no rank.
     *
     * @param rank a rank; at least 0
     * @return its band
     */
    static int rankBand(int rank) {
        return rank <= 0 ? -1 : (int) Math.floor(Math.log(rank) / Math.log(RANK_STEP));
    }

    /**
     * How long a member's queued replies may take to leave before it reports no surplus: a tenth of the request
     * timeout, so that a thief sent there is answered well before it gives up.
     *
     * @param settings the stealing settings
     * @return the limit in nanoseconds
     */
    public static long backlogLimitNanos(StealSettings settings) {
        return settings.requestTimeoutNanos() / 10;
    }

    /**
     * The directories among {@code members}: the first {@code count} of them (all, if fewer).
     *
     * @param members the cluster's members in the order every member sees
     * @param count how many directories; at least 1
     * @return the directories, a view of {@code members}
     */
    public static List<String> directories(List<String> members, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, was " + count);
        }
        return members.subList(0, Math.min(count, members.size()));
    }

    /**
     * The directory {@code member} reports to: one of {@link #directories}, by a hash of its id.
     *
     * @param member the reporting member
     * @param members the cluster's members in the order every member sees
     * @param count how many directories; at least 1
     * @return the directory, or null when there are no members
     */
    public static String directoryFor(String member, List<String> members, int count) {
        Objects.requireNonNull(member, "member");
        List<String> dirs = directories(members, count);
        return dirs.isEmpty() ? null : dirs.get(Math.floorMod(member.hashCode(), dirs.size()));
    }

    /**
     * Records {@code member}'s latest report.
     *
     * @param member the member that reported
     * @param surplus its surplus; at least 0 (0 removes it)
     * @param topRank the highest rank among its stealable elements; at least 0 (0: unknown, which only a
     *     starving request accepts)
     */
    public synchronized void report(String member, int surplus, int topRank) {
        Objects.requireNonNull(member, "member");
        if (surplus < 0 || topRank < 0) {
            throw new IllegalArgumentException("reported surplus and rank must be >= 0, were " + surplus + " and "
                    + topRank);
        }
        if (surplus == 0) {
            reports.remove(member);
        } else {
            reports.put(member, new Report(surplus, topRank));
        }
    }

    /**
     * The member to forward {@code thief}'s request to: of the members still in {@code members} other than the
     * thief and this directory whose reported rank is at least {@code minRank}, the one with the largest
     * recorded surplus (ties: the smallest id, so a run is deterministic), whose record then counts
     * {@code wanted} fewer.
     *
     * @param thief the thief
     * @param self this directory
     * @param wanted how many elements the thief asks for; at least 1 is counted
     * @param minRank the lowest rank the request accepts; 0 (a starving request) accepts any
     * @param members the live members a thief may ask
     * @return the member, or null if no member it knows has such surplus
     */
    public synchronized String take(String thief, String self, int wanted, int minRank, List<String> members) {
        while (true) {
            String best = null;
            Report most = null;
            for (Map.Entry<String, Report> e : reports.entrySet()) {
                String m = e.getKey();
                Report r = e.getValue();
                if (r.topRank() < minRank || m.equals(thief) || m.equals(self)) {
                    continue;
                }
                if (most == null || r.surplus() > most.surplus()
                        || r.surplus() == most.surplus() && m.compareTo(best) < 0) {
                    best = m;
                    most = r;
                }
            }
            if (best == null) {
                return null;
            }
            if (!Candidates.contains(members, best)) {
                // Gone, or no longer a member a thief may ask (leaving): its report is void.
                reports.remove(best);
                continue;
            }
            report(best, Math.max(0, most.surplus() - Math.max(1, wanted)), most.topRank());
            return best;
        }
    }

    /**
     * Forgets a member that left.
     *
     * @param member the member
     */
    public synchronized void forget(String member) {
        reports.remove(member);
    }

    /** {@return how many members have a surplus recorded} */
    public synchronized int size() {
        return reports.size();
    }
}
