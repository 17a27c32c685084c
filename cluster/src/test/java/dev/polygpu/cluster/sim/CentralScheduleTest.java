package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CentralScheduleTest {
    private static final long MS = 1_000_000L;

    /** Independent tasks of the given durations (ms), all owned by member 0, in that order. */
    private static Workload independent(long... millis) {
        Workload.Builder b = Workload.builder("independent");
        int k = b.kernel("k");
        for (long d : millis) {
            b.task(0, k, d * MS, 0, new int[0]);
        }
        return b.build();
    }

    @Test
    void equalRanksRunOldestFirstOnTheFirstFreeSlotWhichIsNotAlwaysOptimal() {
        // 2 slots: 3 and 3 at 0; at 3 both free: 2 and 2 until 5; the last 2 from 5 to 7. The optimum is 6
        // (3 + 3 on one slot, 2 + 2 + 2 on the other): list scheduling is a heuristic.
        assertEquals(7 * MS, CentralSchedule.makespan(independent(3, 3, 2, 2, 2), 2));
    }

    @Test
    void aChainTakesTheSumOfItsTasksWhateverTheSlots() {
        Workload.Builder b = Workload.builder("chain");
        int k = b.kernel("k");
        int prev = b.task(0, k, 4 * MS, 0, new int[0]);
        for (int i = 1; i < 5; i++) {
            prev = b.task(0, k, (4 + i) * MS, 0, new int[0], prev);
        }
        Workload w = b.build();
        for (int slots : new int[] {1, 2, 64}) {
            assertEquals((4 + 5 + 6 + 7 + 8) * MS, CentralSchedule.makespan(w, slots), "slots " + slots);
        }
    }

    @Test
    void theLongestChainStartsFirstEvenWhenSubmittedLast() {
        // Four independent tasks of 10 ms, then a chain of three: in submission order the chain would start at
        // 20 and end at 50; by rank it starts at 0 beside one independent task a round, and all ends at 40.
        Workload.Builder b = Workload.builder("chain last");
        int k = b.kernel("k");
        for (int i = 0; i < 4; i++) {
            b.task(0, k, 10 * MS, 0, new int[0]);
        }
        int a = b.task(0, k, 10 * MS, 0, new int[0]);
        int c = b.task(0, k, 10 * MS, 0, new int[0], a);
        b.task(0, k, 10 * MS, 0, new int[0], c);
        assertEquals(40 * MS, CentralSchedule.makespan(b.build(), 2));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void oneMemberWithoutStealingIsTheCentralScheduleOnItsSlots(int slots) {
        // Two implementations of the same rule: a lone member whose window is its slots, ranking its ready tasks
        // (the simulator), and the central schedule. A Cholesky DAG has forks, joins and unequal ranks.
        Workload w = Workloads.cholesky(6, 1, Distribution.parseDuration("lognormal:2ms:0.5"), 1024, 5);
        SimResult r = new Simulator(w, SimConfig.of(1, slots, slots, Network.flat(10_000, 10e9, 0), 1)
                .withStealing(false).withOrder(SimConfig.Order.RANK)).run();
        assertEquals(r.makespanNanos(), CentralSchedule.makespan(w, slots));
    }

    @Test
    void neverShorterThanTheLowerBoundAndWithinGrahamsBound() {
        Workload w = Workloads.blockSparseGemm(12, 0.25, 1.0, 4, Distribution.parseDuration("lognormal:2ms:0.5"),
                1024, 3);
        int slots = 8;
        long makespan = CentralSchedule.makespan(w, slots);
        long work = w.totalWorkNanos();
        long lower = Math.max((work + slots - 1) / slots, w.criticalPathNanos());
        assertTrue(makespan >= lower, makespan + " < " + lower);
        assertTrue(makespan <= work / slots + w.criticalPathNanos(), "Graham: at most work / slots + critical path");
    }

    @Test
    void slotsMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CentralSchedule.makespan(independent(1), 0));
        assertTrue(e.getMessage().contains("slots must be >= 1"), e.getMessage());
    }

    @Test
    void aReadyTaskTakesTheFastestFreeSlot() {
        // Member 0 at speed 0.5, member 1 at speed 1, one slot each. At 0: 10 ms on member 1 (10 ms), the next
        // 10 ms on member 0 (20 ms). At 10 member 1 is free: the third runs 10 to 20. Makespan 20 ms.
        Speeds slowFirst = Speeds.of(0.5, 1);
        assertEquals(20 * MS, CentralSchedule.makespan(independent(10, 10, 10), 2, 1, slowFirst));
        // One task: the fast member, whatever its number.
        assertEquals(10 * MS, CentralSchedule.makespan(independent(10), 2, 1, slowFirst));
        // All members at 2: twice as fast as on reference slots.
        assertEquals(CentralSchedule.makespan(independent(3, 3, 2, 2, 2), 2) / 2,
                CentralSchedule.makespan(independent(3, 3, 2, 2, 2), 1, 2, Speeds.of(2)));
        assertThrows(IllegalArgumentException.class,
                () -> CentralSchedule.makespan(independent(1), 0, 2, Speeds.UNIFORM));
    }
}
