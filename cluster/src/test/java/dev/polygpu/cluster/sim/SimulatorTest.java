package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {
    private static final long MS = 1_000_000L;
    /** A fast network: 10 µs latency, 10 GB/s. */
    private static final Network FAST = Network.flat(10_000, 10e9, 0);

    /** {@code n} independent tasks of {@code d} each, all owned by member 0, each reading its own array. */
    private static Workload independent(int n, long d, long bytes) {
        Workload.Builder b = Workload.builder("independent");
        int k = b.kernel("k");
        for (int i = 0; i < n; i++) {
            int a = b.array(bytes);
            b.task(0, k, d, bytes, new int[] {a});
        }
        return b.build();
    }

    @Test
    void withoutStealingOneOwnerRunsEverythingOnItsSlots() {
        // 100 tasks of 10 ms on 2 slots: 50 rounds of 10 ms, whatever the other members do.
        SimResult r = new Simulator(independent(100, 10 * MS, 1024), SimConfig.of(4, 2, 4, FAST, 1)
                .withStealing(false)).run();
        assertEquals(500 * MS, r.makespanNanos());
        assertEquals(0, r.stolen());
        assertEquals(0, r.requests());
        // The lower bound on 8 slots: 1,000 ms of work / 8 = 125 ms.
        assertEquals(125 * MS, r.lowerBoundNanos());
    }

    @Test
    void stealingSpreadsOneOwnersTasksOverTheCluster() {
        SimResult r = new Simulator(independent(400, 10 * MS, 1024), SimConfig.of(4, 2, 4, FAST, 1)).run();
        System.out.println(r);
        assertTrue(r.stolen() > 200, "most tasks should move, moved " + r.stolen());
        // 400 tasks of 10 ms on 8 slots: 500 ms at best; a few round trips of 20 µs and the ramp-up cost a little.
        assertTrue(r.efficiency() > 0.95, "efficiency " + r.efficiency());
    }

    @Test
    void aChainCannotBeatItsCriticalPath() {
        Workload.Builder b = Workload.builder("chain");
        int k = b.kernel("k");
        int prev = b.task(0, k, 5 * MS, 8, new int[0]);
        for (int i = 1; i < 20; i++) {
            prev = b.task(0, k, 5 * MS, 8, new int[0], prev);
        }
        SimResult r = new Simulator(b.build(), SimConfig.of(4, 2, 4, FAST, 1)).run();
        assertEquals(100 * MS, r.lowerBoundNanos());
        assertTrue(r.makespanNanos() >= 100 * MS);
    }

    @Test
    void theSameSeedGivesTheSameRun() {
        Workload w = independent(300, 3 * MS, 4096);
        SimResult a = new Simulator(w, SimConfig.of(8, 2, 4, FAST, 7)).run();
        SimResult b = new Simulator(w, SimConfig.of(8, 2, 4, FAST, 7)).run();
        assertEquals(a.makespanNanos(), b.makespanNanos());
        assertEquals(a.requests(), b.requests());
        assertEquals(a.events(), b.events());
    }

    @Test
    void crashedWorkersTasksRunAgainAtTheirOwner() {
        SimConfig c = SimConfig.of(4, 2, 4, FAST, 3).withEvents(List.of(
                new MembershipEvent(MembershipEvent.Kind.CRASH, 50 * MS, 3)));
        SimResult r = new Simulator(independent(400, 10 * MS, 1024), c).run();
        System.out.println(r);
        assertTrue(r.reruns() > 0, "the crashed workers held tasks");
        assertEquals(400, r.tasks());
    }

    @Test
    void tooFewMembersForTheOwnersIsAnError() {
        Workload.Builder b = Workload.builder("two owners");
        int k = b.kernel("k");
        b.task(0, k, MS, 0, new int[0]);
        b.task(1, k, MS, 0, new int[0]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Simulator(b.build(), SimConfig.of(1, 1, 1, FAST, 1)));
        assertTrue(e.getMessage().contains("owned by 2 members"), e.getMessage());
    }
}
