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
        int n = work.tasks();
        RankQueue ready = new RankQueue(Simulator.bottomLevels(work));
        int[] parentsLeft = new int[n];
        for (int t = 0; t < n; t++) {
            parentsLeft[t] = work.parentCount(t);
            if (parentsLeft[t] == 0) {
                ready.addLast(t);
            }
        }
        // Running tasks as {end, task}: the earliest end first, then the lowest task id, so a run is deterministic.
        PriorityQueue<long[]> running = new PriorityQueue<>(Math.max(1, Math.min(slots, n)),
                (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long now = 0;
        int done = 0;
        while (done < n) {
            while (running.size() < slots && !ready.isEmpty()) {
                int t = ready.pollFirst();
                running.add(new long[] {now + work.durationNanos(t), t});
            }
            long[] next = running.poll();
            if (next == null) {
                throw new IllegalStateException("the workload " + work.name() + " has tasks whose parents never end: "
                        + (n - done) + " of " + n + " were never ready");
            }
            now = next[0];
            done++;
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
