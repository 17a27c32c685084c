package dev.polygpu.cluster.sim;

import java.util.PriorityQueue;

/**
 * The reference a stealing run is measured against besides the lower bound: the makespan of a central list
 * schedule of the same workload on the same number of slots, in which one scheduler that sees every task starts
 * the highest-ranked ready task (its bottom level, as the members rank theirs; then the oldest) whenever a slot
 * is free, anywhere, with nothing to move and no message to send.
 *
 * <p>It says how much of the gap between a stealing run and the lower bound max(work / slots, critical path) any
 * scheduler of this kind must leave (the bound is not always reachable: a chain cannot start before its parents
 * end), and so how much is the protocol's: the time tasks wait for a thief to find them, queue at a thief, or
 * travel. It is a heuristic, not an optimum: list scheduling is within a factor 2 of the optimum (Graham), and
 * a distributed run, which orders its tasks differently, may come out a little shorter on small workloads.
 */
public final class CentralSchedule {

    private CentralSchedule() {
    }

    /**
     * The makespan of the central list schedule of {@code work} on {@code slots} identical slots.
     *
     * @param work the tasks
     * @param slots how many tasks run at once (members × slots per member); at least 1
     * @return the time the last task ends, in nanoseconds from 0
     * @throws IllegalArgumentException if {@code slots} is below 1
     */
    public static long makespan(Workload work, int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be >= 1, was " + slots);
        }
        return makespan(work, slots, 1, Speeds.UNIFORM);
    }

    /**
     * The makespan of the central list schedule of {@code work} on {@code members} members of {@code
     * slotsPerMember} slots each, member {@code i} running at {@code speeds.speed(i)}: a ready task goes to the
     * fastest free slot (then the lowest-numbered), and takes its duration / that slot's speed.
     *
     * @param work the tasks
     * @param members how many members; at least 1
     * @param slotsPerMember how many tasks each member runs at once; at least 1
     * @param speeds the members' speeds
     * @return the time the last task ends, in nanoseconds from 0
     * @throws IllegalArgumentException if {@code members} or {@code slotsPerMember} is below 1
     */
    public static long makespan(Workload work, int members, int slotsPerMember, Speeds speeds) {
        if (members < 1 || slotsPerMember < 1) {
            throw new IllegalArgumentException("members and slots per member must be >= 1, were " + members + " and "
                    + slotsPerMember);
        }
        int slots = Math.multiplyExact(members, slotsPerMember);
        int n = work.tasks();
        RankQueue ready = new RankQueue(Simulator.bottomLevels(work));
        int[] parentsLeft = new int[n];
        for (int t = 0; t < n; t++) {
            parentsLeft[t] = work.parentCount(t);
            if (parentsLeft[t] == 0) {
                ready.addLast(t);
            }
        }
        double[] speed = new double[slots];
        PriorityQueue<Integer> free = new PriorityQueue<>(slots, (a, b) -> speed[a] != speed[b]
                ? Double.compare(speed[b], speed[a]) : Integer.compare(a, b));
        for (int s = 0; s < slots; s++) {
            speed[s] = speeds.speed(s / slotsPerMember);
            free.add(s);
        }
        // Running tasks as {end, task, slot}: the earliest end first, then the lowest task id, so a run is
        // deterministic.
        PriorityQueue<long[]> running = new PriorityQueue<>(Math.max(1, Math.min(slots, n)),
                (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long now = 0;
        int done = 0;
        while (done < n) {
            while (!free.isEmpty() && !ready.isEmpty()) {
                int t = ready.pollFirst();
                int s = free.poll();
                running.add(new long[] {now + Math.round(work.durationNanos(t) / speed[s]), t, s});
            }
            long[] next = running.poll();
            if (next == null) {
                throw new IllegalStateException("the workload " + work.name() + " has tasks whose parents never end: "
                        + (n - done) + " of " + n + " were never ready");
            }
            now = next[0];
            done++;
            free.add((int) next[2]);
            int t = (int) next[1];
            for (int i = 0; i < work.childCount(t); i++) {
                int c = work.child(t, i);
                if (--parentsLeft[c] == 0) {
                    ready.addLast(c);
                }
            }
        }
        return now;
    }
}
