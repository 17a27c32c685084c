package dev.polygpu.cluster.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a starving thief finds work in a large cluster: a few members, the <i>directories</i>, keep the surplus
 * that the others report, and forward a starving thief's request that they cannot serve themselves to the member
 * with the largest surplus they know of.
 *
 * <p>Why: thieves ask the member that last gave them work, and a victim with nothing to give forwards to the
 * member that last gave <i>it</i> work. At the end of a run at 1,024 members those paths lead to members whose
 * work is done, and an owner with dozens of ready tasks can go unnoticed while a tenth of the cluster idles (the
 * simulator's bspgemm, seed 7: one thief found such an owner; efficiency 86.5%, where the same run with every
 * starving thief told the true best owner gives 96.6%). A directory is what such a thief asks after an empty
 * reply.
 *
 * <p>The protocol, as the simulator runs it (a what-if: the cluster node does not have it yet):
 * <ul>
 *   <li>The directories are the first {@code count} members of the cluster's member list (every member sees the
 *       same list, in join order), {@link #directories}; member {@code m} reports to
 *       {@link #directoryFor}{@code (m)}.
 *   <li>A member reports its surplus (what it could give: ready, stealable, above its threshold) when it runs
 *       out or has some again, and when it has doubled or halved since its last report ({@link #reportDue}),
 *       so a member sends a few reports in a run, not one per task. A member whose replies already queued on its link would take longer than
 *       {@link #backlogLimitNanos} to leave reports 0: a directory must not send thieves to wait behind them.
 *   <li>After an empty reply to a starving request, a thief's next starving request goes to a directory drawn
 *       at random ({@link Thief}); its back-off is unchanged.
 *   <li>A directory that cannot give work itself forwards a starving request to the member with the largest
 *       surplus it knows ({@link #take}), counting what it sends there against that member's report so that
 *       the next thieves go elsewhere; with no such member, it forwards as any victim does.
 * </ul>
 *
 * <p>Thread-safe: the table's methods are synchronized.
 */
public final class LoadDirectory {

    private final Map<String, Integer> surplus = new HashMap<>();

    /**
     * Whether a member that last reported {@code reported} should report {@code surplus} now: when it has none
     * left or some again, or when it has doubled or halved since. The factor of 2 both ways keeps a surplus that
     * moves between two neighbouring values from sending a report each time.
     *
     * @param reported the surplus last reported (0 if none yet); at least 0
     * @param surplus the surplus now; at least 0
     * @return whether a report is due
     */
    public static boolean reportDue(int reported, int surplus) {
        if (reported < 0 || surplus < 0) {
            throw new IllegalArgumentException("surpluses must be >= 0, were " + reported + " and " + surplus);
        }
        if (reported == 0 || surplus == 0) {
            return reported != surplus;
        }
        return surplus >= 2L * reported || 2L * surplus <= reported;
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
     * @param reported its surplus; at least 0 (0 removes it)
     */
    public synchronized void report(String member, int reported) {
        Objects.requireNonNull(member, "member");
        if (reported < 0) {
            throw new IllegalArgumentException("reported surplus must be >= 0, was " + reported);
        }
        if (reported == 0) {
            surplus.remove(member);
        } else {
            surplus.put(member, reported);
        }
    }

    /**
     * The member to forward {@code thief}'s starving request to: of the members still in {@code members} other
     * than the thief and this directory, the one with the largest recorded surplus (ties: the smallest id, so a
     * run is deterministic), whose record then counts {@code wanted} fewer.
     *
     * @param thief the thief
     * @param self this directory
     * @param wanted how many elements the thief asks for; at least 1 is counted
     * @param members the live members a thief may ask
     * @return the member, or null if no member it knows has surplus
     */
    public synchronized String take(String thief, String self, int wanted, List<String> members) {
        while (true) {
            String best = null;
            int most = 0;
            for (Map.Entry<String, Integer> e : surplus.entrySet()) {
                String m = e.getKey();
                int s = e.getValue();
                if ((s > most || s == most && best != null && m.compareTo(best) < 0) && !m.equals(thief)
                        && !m.equals(self)) {
                    best = m;
                    most = s;
                }
            }
            if (best == null) {
                return null;
            }
            if (!Candidates.contains(members, best)) {
                // Gone, or no longer a member a thief may ask (leaving): its report is void.
                surplus.remove(best);
                continue;
            }
            report(best, Math.max(0, most - Math.max(1, wanted)));
            return best;
        }
    }

    /**
     * Forgets a member that left.
     *
     * @param member the member
     */
    public synchronized void forget(String member) {
        surplus.remove(member);
    }

    /** {@return how many members have a surplus recorded} */
    public synchronized int size() {
        return surplus.size();
    }
}
