package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ranks (bottom levels) in the scheduler: how they are kept as elements are submitted, the order the window
 * places elements in, what a cluster layer may steal, and the floor rank. Each test holds a window of 1 with a
 * gate kernel, so that nothing completes (and no rank goes stale) until it opens the gate.
 */
class SchedulerRankTest {
    private static final int N = SchedulerTest.N;

    private final CpuDevice device = new CpuDevice();
    private final TestKernels k = new TestKernels(device);
    private final List<Scheduler> schedulers = new ArrayList<>();
    private final List<UnifiedBuffer> flags = new ArrayList<>();

    @AfterEach
    void close() {
        for (UnifiedBuffer f : flags) {
            f.setInt(0, 1);
        }
        for (Scheduler s : schedulers) {
            s.close();
        }
        device.close();
    }

    /** A scheduler with a window of 1 whose first element (id 1) is a gate that holds it until the flag is set. */
    private Scheduler gated(UnifiedBuffer flag, ScheduleObserver observer) {
        Scheduler s = new Scheduler(device, SchedulerConfig.DEFAULT.withInFlightWindow(1));
        schedulers.add(s);
        if (observer != null) {
            s.addObserver(observer);
        }
        s.submit(k.gate(flag, k.array(s, "gate")));
        return s;
    }

    private UnifiedBuffer flag() {
        UnifiedBuffer f = device.allocate(4);
        flags.add(f);
        return f;
    }

    /** What the observers see: every element's parents, and the order elements are launched in. */
    private static final class Dag implements ScheduleObserver {
        final Map<Long, long[]> parents = new TreeMap<>();
        final List<Long> launches = new ArrayList<>();

        @Override
        public synchronized void submitted(ElementInfo element, long[] p) {
            parents.put(element.id(), p.clone());
        }

        @Override
        public synchronized void launched(long id, String deviceName, int streamId, long nanos) {
            launches.add(id);
        }

        synchronized List<Long> launches() {
            return List.copyOf(launches);
        }

        /**
         * Bottom levels straight from the definition, over the recorded DAG: 1 for an element no other depends
         * on, else 1 + the highest of its children's. Every element's children were submitted after it, so
         * going from the newest to the oldest sees each child before its parents.
         */
        synchronized Map<Long, Integer> bottomLevels() {
            Map<Long, List<Long>> children = new HashMap<>();
            for (Map.Entry<Long, long[]> e : parents.entrySet()) {
                for (long p : e.getValue()) {
                    children.computeIfAbsent(p, x -> new ArrayList<>()).add(e.getKey());
                }
            }
            Map<Long, Integer> level = new TreeMap<>();
            List<Long> ids = new ArrayList<>(parents.keySet());
            for (int i = ids.size() - 1; i >= 0; i--) {
                long id = ids.get(i);
                int best = 0;
                for (long c : children.getOrDefault(id, List.of())) {
                    best = Math.max(best, level.get(c));
                }
                level.put(id, best + 1);
            }
            return level;
        }
    }

    @Test
    void aChainRanksByItsLengthBelowEachElementAndThousandsDoNotOverflowTheStack() {
        UnifiedBuffer flag = flag();
        Dag dag = new Dag();
        Scheduler s = gated(flag, dag);
        TrackedArray x = k.array(s, "x");
        int length = 3000;
        int[] expected = new int[N];
        for (int step = 1; step <= length; step++) {
            s.submit(k.step(x, step));
            for (int i = 0; i < N; i++) {
                expected[i] = expected[i] * 31 + step;
            }
        }
        Map<Long, Integer> ranks = s.ranks();
        assertEquals(length + 1, ranks.size());
        assertEquals(1, (int) ranks.get(1L), "the gate: nothing depends on it");
        for (long id = 2; id <= length + 1; id++) {
            // Element id is step id - 1 of the chain: length - (id - 2) elements from it to the end.
            assertEquals(length - (int) (id - 2), (int) ranks.get(id), "element " + id);
        }
        assertEquals(dag.bottomLevels(), ranks);
        flag.setInt(0, 1);
        s.awaitHost(x, AccessMode.READ, "read x");
        assertArrayEquals(expected, TestKernels.ints(x));
    }

    @Test
    void aFanOutAndFanInRanksByItsLongestPathAsItGrows() {
        UnifiedBuffer flag = flag();
        Dag dag = new Dag();
        Scheduler s = gated(flag, dag);
        TrackedArray x = k.array(s, "x");
        TrackedArray y1 = k.array(s, "y1");
        TrackedArray y2 = k.array(s, "y2");
        TrackedArray z = k.array(s, "z");
        s.submit(k.step(x, 2));          // 2: writes x
        s.submit(k.scale(y1, x, 3));     // 3: reads x (after 2)
        s.submit(k.scale(y2, x, 5));     // 4: reads x (after 2)
        s.submit(k.add(z, y1, y2));      // 5: reads y1 and y2 (after 3 and 4)
        assertEquals(Map.of(1L, 1, 2L, 3, 3L, 2, 4L, 2, 5L, 1), s.ranks());
        s.submit(k.step(y2, 7));         // 6: writes y2 (after its writer 4 and its reader 5)
        assertEquals(Map.of(1L, 1, 2L, 4, 3L, 3, 4L, 3, 5L, 2, 6L, 1), s.ranks());
        s.submit(k.step(y2, 11));        // 7: after 6
        assertEquals(Map.of(1L, 1, 2L, 5, 3L, 4, 4L, 4, 5L, 3, 6L, 2, 7L, 1), s.ranks());
        s.submit(k.step(z, 13));         // 8: after 5, which already has a longer way down: nothing rises
        assertEquals(Map.of(1L, 1, 2L, 5, 3L, 4, 4L, 4, 5L, 3, 6L, 2, 7L, 1, 8L, 1), s.ranks());
        assertEquals(dag.bottomLevels(), s.ranks());
        flag.setInt(0, 1);
        s.synchronize();
        int[] zs = TestKernels.ints(z);
        int[] ys = TestKernels.ints(y2);
        for (int i = 0; i < N; i++) {
            // x = 0 * 31 + 2 = 2; y1 = 6; y2 = 10, then (10 * 31 + 7) * 31 + 11; z = (0 + 6 + 10) * 31 + 13.
            assertEquals(16 * 31 + 13, zs[i], "z[" + i + "]");
            assertEquals((10 * 31 + 7) * 31 + 11, ys[i], "y2[" + i + "]");
        }
    }

    @Test
    void randomProgramsRankAsTheirRecordedDagSays() {
        SplittableRandom random = new SplittableRandom(0x5EED_4A4BL);
        for (int round = 0; round < 6; round++) {
            UnifiedBuffer flag = flag();
            Dag dag = new Dag();
            Scheduler s = gated(flag, dag);
            TrackedArray[] a = new TrackedArray[5];
            for (int i = 0; i < a.length; i++) {
                a[i] = k.array(s, "a" + i);
            }
            for (int op = 0; op < 120; op++) {
                TrackedArray p = a[random.nextInt(a.length)];
                TrackedArray q = a[random.nextInt(a.length)];
                TrackedArray r = a[random.nextInt(a.length)];
                switch (random.nextInt(4)) {
                    case 0 -> s.submit(k.step(p, op));
                    case 1 -> s.submit(k.inc(p));
                    case 2 -> s.submit(p == q ? k.inc(p) : k.scale(p, q, 3));
                    default -> s.submit(p == q || p == r || q == r ? k.step(p, 1) : k.add(p, q, r));
                }
                if (op % 17 == 0) {
                    assertEquals(dag.bottomLevels(), s.ranks(), "round " + round + ", after op " + op);
                }
            }
            assertEquals(dag.bottomLevels(), s.ranks(), "round " + round);
            flag.setInt(0, 1);
            s.synchronize();
        }
    }

    /**
     * Ranks stay right while elements complete, are taken, put back, given back and completed elsewhere as the
     * program grows. A window of 1 makes elements complete in the order of their dependencies (the next one
     * is launched only after the one before completed), so an outstanding element's descendants are all
     * outstanding and its rank is its bottom level in the whole recorded DAG. Each phase starts with a gate
     * (on an array of its own) that holds the window for the first half of the phase, so that work is
     * outstanding when ranks are compared, and lets it go for the second half, so that elements complete
     * meanwhile.
     */
    @Test
    void ranksStayRightWhileElementsCompleteAndMoveAsTheProgramGrows() {
        SplittableRandom random = new SplittableRandom(0x0DDBA11L);
        Dag dag = new Dag();
        Scheduler s = new Scheduler(device, SchedulerConfig.DEFAULT.withInFlightWindow(1));
        schedulers.add(s);
        s.addObserver(dag);
        TrackedArray[] a = new TrackedArray[4];
        for (int i = 0; i < a.length; i++) {
            a[i] = k.array(s, "a" + i);
        }
        int checked = 0;
        for (int phase = 0; phase < 10; phase++) {
            UnifiedBuffer flag = flag();
            s.submit(k.gate(flag, k.array(s, "gate" + phase)));
            for (int op = 0; op < 40; op++) {
                if (op == 20) {
                    flag.setInt(0, 1);
                }
                TrackedArray p = a[random.nextInt(a.length)];
                TrackedArray q = a[random.nextInt(a.length)];
                int kind = random.nextInt(10);
                if (kind < 5) {
                    s.submit(k.step(p, op));     // mostly chains: runs
                } else if (kind < 7) {
                    s.submit(p == q ? k.inc(p) : k.scale(q, p, 2));
                } else if (kind < 8) {
                    s.submit(p == q ? k.inc(p) : k.addInto(q, p));
                } else {
                    StolenElement e = s.steal();
                    if (e != null) {
                        switch (random.nextInt(3)) {
                            case 0 -> e.putBack();
                            case 1 -> e.giveBack();
                            default -> e.complete();
                        }
                    }
                }
                Map<Long, Integer> ranks = s.ranks();
                Map<Long, Integer> levels = dag.bottomLevels();
                for (Map.Entry<Long, Integer> r : ranks.entrySet()) {
                    assertEquals(levels.get(r.getKey()), r.getValue(),
                            "element " + r.getKey() + " in phase " + phase + " after op " + op);
                    checked++;
                }
            }
        }
        s.synchronize();
        assertEquals(Map.of(), s.ranks());
        // Not vacuous: at least the first half of each phase compared what waited behind its gate.
        org.junit.jupiter.api.Assertions.assertTrue(checked > 10 * 20 * 5, "compared " + checked + " ranks");
    }

    @Test
    void theWindowPlacesTheHighestRankFirstAndEqualRanksInSubmissionOrder() throws Exception {
        UnifiedBuffer flag = flag();
        Dag dag = new Dag();
        Scheduler s = gated(flag, dag);
        TrackedArray a = k.array(s, "a");
        TrackedArray b = k.array(s, "b");
        TrackedArray c = k.array(s, "c");
        TrackedArray w = k.array(s, "w");
        s.submit(k.inc(a));              // 2: rank 1
        s.submit(k.step(b, 1));          // 3: rank 3, head of a chain of three
        s.submit(k.step(b, 2));          // 4: rank 2
        s.submit(k.step(b, 3));          // 5: rank 1
        s.submit(k.inc(c));              // 6: rank 1
        CompletableFuture<DeviceException> done = new CompletableFuture<>();
        s.submitHere(k.inc(w), 9, done::complete);  // 7: came with rank 9 from elsewhere
        assertEquals(List.of(7L, 3L, 2L, 6L), s.placeableOrder(), "4 and 5 wait for their parents");
        assertEquals(List.of(1L), dag.launches());
        flag.setInt(0, 1);
        s.synchronize();
        assertNull(done.get(30, TimeUnit.SECONDS));
        // In submission order it would have been 1, 2, 3, 4, 5, 6, 7.
        assertEquals(List.of(1L, 7L, 3L, 4L, 2L, 5L, 6L), dag.launches());
        int[] bs = TestKernels.ints(b);
        for (int i = 0; i < N; i++) {
            assertEquals((1 * 31 + 2) * 31 + 3, bs[i], "b[" + i + "]");
            assertEquals(1, TestKernels.ints(a)[i]);
            assertEquals(1, TestKernels.ints(w)[i]);
        }
    }

    @Test
    void stealTakesTheHighestRankAndHonoursTheMinimum() {
        UnifiedBuffer flag = flag();
        Scheduler s = gated(flag, null);
        TrackedArray a = k.array(s, "a");
        TrackedArray b = k.array(s, "b");
        TrackedArray c = k.array(s, "c");
        s.submit(k.inc(a));              // 2: rank 1
        s.submit(k.step(b, 1));          // 3: rank 3
        s.submit(k.step(b, 2));          // 4: rank 2, not ready while 3 is not done
        s.submit(k.step(b, 3));          // 5: rank 1, not ready
        s.submit(k.inc(c));              // 6: rank 1
        assertNull(s.steal(4, e -> true), "nothing of rank 4 or more");
        assertNull(s.steal(3, e -> !e.label().equals("step")), "the only rank-3 element is refused");
        StolenElement head = s.steal(3, e -> true);
        assertNotNull(head);
        assertEquals(3, head.id());
        assertEquals(3, head.rank());
        assertNull(s.steal(2, e -> true), "4 has rank 2 but is not ready while 3 is away");
        // The taker ran 3 elsewhere: b = 0 * 31 + 1.
        for (int i = 0; i < N; i++) {
            b.buffer().setInt(i, 1);
        }
        head.complete();
        StolenElement next = s.steal(2, e -> true);
        assertEquals(4, next.id(), "ready now, and of rank 2");
        assertEquals(2, next.rank());
        next.putBack();
        StolenElement any = s.steal();
        assertEquals(4, any.id(), "without a minimum, still the highest rank first");
        any.giveBack();
        StolenElement oldest = s.steal();
        assertEquals(2, oldest.id(), "4 is pinned now; of the rank-1 elements 2 and 6, the oldest");
        assertEquals(1, oldest.rank());
        oldest.giveBack();
        flag.setInt(0, 1);
        s.synchronize();
        for (int i = 0; i < N; i++) {
            assertEquals((1 * 31 + 2) * 31 + 3, TestKernels.ints(b)[i]);
            assertEquals(1, TestKernels.ints(a)[i]);
            assertEquals(1, TestKernels.ints(c)[i]);
        }
    }

    @Test
    void theFloorRankIsTheLowestOfTheHighestHeldOnStreamsOrReady() throws Exception {
        UnifiedBuffer flag = flag();
        Scheduler s = gated(flag, null);
        assertEquals(1, s.floorRank(1), "the gate on its stream");
        assertEquals(0, s.floorRank(2), "one element held: fewer than two slots");
        TrackedArray y = k.array(s, "y");
        for (int i = 1; i <= 4; i++) {
            s.submit(k.step(y, i));      // 2..5: ranks 4..1; only 2 is ready
        }
        assertEquals(4, s.floorRank(1));
        assertEquals(1, s.floorRank(2), "the chain's head and the gate");
        assertEquals(0, s.floorRank(3), "the rest of the chain is not ready");
        TrackedArray z = k.array(s, "z");
        s.submit(k.inc(z));              // 6: rank 2, ready
        s.submit(k.inc(z));              // 7: rank 1, not ready
        assertEquals(2, s.floorRank(2), "ranks 4 and 2 ready, 1 on the stream");
        assertEquals(1, s.floorRank(3));
        assertEquals(0, s.floorRank(4));
        CompletableFuture<DeviceException> done = new CompletableFuture<>();
        s.submitHere(k.inc(k.array(s, "w")), 7, done::complete);
        assertEquals(7, s.floorRank(1));
        assertEquals(4, s.floorRank(2));
        assertEquals(2, s.floorRank(3));
        assertEquals(1, s.floorRank(4));
        assertEquals(0, s.floorRank(5));
        assertThrows(IllegalArgumentException.class, () -> s.floorRank(0));
        assertThrows(IllegalArgumentException.class, () -> s.submitHere(k.inc(z), -1, e -> { }));
        flag.setInt(0, 1);
        s.synchronize();
        assertNull(done.get(30, TimeUnit.SECONDS));
        assertEquals(0, s.floorRank(1), "nothing held");
        assertEquals(Map.of(), s.ranks());
    }
}
