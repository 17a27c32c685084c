package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.polygpu.device.cpu.Chaos;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.RandomProgram.Op;
import dev.polygpu.runtime.RandomProgram.Target;
import dev.polygpu.runtime.SchedulerConfig.DependencyPolicy;
import dev.polygpu.runtime.SchedulerConfig.NewStreamPolicy;
import dev.polygpu.runtime.SchedulerConfig.ParentStreamPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Thread-safety under stress: several threads submit interleaved random work on a chaos device, each on three
 * private arrays, all reading one shared constant array and adding to two shared counter arrays, with host
 * reads and writes and the odd synchronize. Each thread's host reads and private arrays must be what its
 * program means run alone (its program order is kept); the counters must hold every thread's additions
 * (commutative), and a host read of a counter must see at least the reader's own additions. No exception and
 * no hang: a generous timeout guards against a deadlock only, it measures nothing.
 */
class SchedulerStressTest {
    private static final long SEED = 0x57E55L;
    private static final int THREADS = 6;
    private static final int OPS_PER_THREAD = 200;
    private static final int N = 256;
    /** Each thread's view of the arrays: 0..2 its own, 3 the shared constant, 4 and 5 the shared counters. */
    private static final int OWN = 3;
    private static final int CONSTANT = 3;
    private static final int COUNTER = 4;
    private static final int COUNTERS = 2;

    static Stream<SchedulerConfig> configs() {
        return Stream.of(SchedulerConfig.DEFAULT,
                SchedulerConfig.DEFAULT.withDependencies(DependencyPolicy.NO_CONST)
                        .withParentStreams(ParentStreamPolicy.SAME_AS_PARENT)
                        .withNewStreams(NewStreamPolicy.ALWAYS_NEW).withInFlightWindow(2).withMaxQueued(8)
                        .withMaxStreams(3));
    }

    @ParameterizedTest
    @MethodSource("configs")
    void threadsSharingArraysKeepTheirOwnProgramOrderUnderChaos(SchedulerConfig config) {
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> stress(config),
                "hung (seed " + SEED + ", " + config + ")");
    }

    private static void stress(SchedulerConfig config) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(SEED);
        int[][] shared = new int[1 + COUNTERS][N];
        for (int[] a : shared) {
            for (int i = 0; i < N; i++) {
                a[i] = RandomProgram.nonZero(random, 1 << 20);
            }
        }
        long[] totals = new long[COUNTERS];
        List<RandomProgram> programs = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            programs.add(threadProgram(SEED + 1 + t, shared, totals));
        }
        Chaos chaos = new Chaos(SEED, 100);
        String context = "seed " + SEED + ", chaos " + chaos + ", " + config;
        try (CpuDevice device = new CpuDevice(chaos); Scheduler s = new Scheduler(device, config)) {
            DiffKernels kernels = new DiffKernels(device);
            TrackedArray[] sharedArrays = new TrackedArray[shared.length];
            for (int a = 0; a < shared.length; a++) {
                sharedArrays[a] = track(s, device, a == 0 ? "const" : "counter" + a, shared[a]);
            }
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            List<TrackedArray[]> views = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                RandomProgram p = programs.get(t);
                TrackedArray[] view = new TrackedArray[OWN + shared.length];
                for (int a = 0; a < OWN; a++) {
                    view[a] = track(s, device, "t" + t + ".own" + a, p.initial[a]);
                }
                System.arraycopy(sharedArrays, 0, view, OWN, shared.length);
                views.add(view);
                String who = "thread " + t + " (" + context + ")";
                threads.add(Thread.ofPlatform().daemon().name("stress-" + t).start(() -> {
                    try {
                        start.await();
                        runAndCheckReads(p, new Target(s, kernels, view, N), who);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            start.countDown();
            for (Thread th : threads) {
                th.join();
            }
            if (!failures.isEmpty()) {
                AssertionError e = new AssertionError(failures.size() + " thread(s) failed (" + context + ")",
                        failures.peek());
                failures.stream().skip(1).forEach(e::addSuppressed);
                throw e;
            }
            s.synchronize();
            Scheduler.Stats st = s.stats();
            assertEquals(0, st.outstanding(), st::toString);
            assertEquals(st.submitted(), st.completed(), st::toString);
            for (int t = 0; t < THREADS; t++) {
                int[][] expected = programs.get(t).model().finals();
                for (int a = 0; a < OWN; a++) {
                    assertArrayEquals(expected[a], RandomProgram.ints(views.get(t)[a], N),
                            "thread " + t + " own" + a + " (" + context + ")\n" + programs.get(t).listing());
                }
            }
            assertArrayEquals(shared[0], RandomProgram.ints(sharedArrays[0], N), "the constant changed");
            for (int c = 0; c < COUNTERS; c++) {
                int[] expected = shared[1 + c].clone();
                for (int i = 0; i < N; i++) {
                    expected[i] += (int) totals[c];
                }
                assertArrayEquals(expected, RandomProgram.ints(sharedArrays[1 + c], N),
                        "counter " + c + " lost or doubled additions (" + context + ")");
            }
        }
    }

    private static TrackedArray track(Scheduler s, CpuDevice device, String name, int[] values) {
        TrackedArray a = s.track(name, device.allocate(4L * N), 4L * N);
        for (int i = 0; i < N; i++) {
            a.buffer().setInt(i, values[i]);
        }
        return a;
    }

    private static void runAndCheckReads(RandomProgram p, Target target, String who) {
        List<int[]> reads = new ArrayList<>();
        for (Op op : p.ops) {
            op.run(target, reads);
        }
        List<int[]> expected = p.model().reads();
        assertEquals(expected.size(), reads.size(), who + ": host reads");
        for (int r = 0; r < expected.size(); r++) {
            String diff = RandomProgram.firstDiff(expected.get(r), reads.get(r));
            if (diff != null) {
                throw new AssertionError(who + ": host read #" + r + " " + diff + "\n" + p.listing());
            }
        }
    }

    /**
     * One thread's program. Its arrays are its own three, then the shared constant and counters (whose
     * initial values are {@code shared}); it writes only its own arrays and adds to the counters, whose totals
     * over all threads it adds to {@code totals}.
     */
    private static RandomProgram threadProgram(long seed, int[][] shared, long[] totals) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Op> ops = new ArrayList<>();
        long[] own = new long[COUNTERS];
        while (ops.size() < OPS_PER_THREAD) {
            int pick = r.nextInt(100);
            int x = r.nextInt(OWN);
            int y = r.nextInt(OWN + 1);
            int z = r.nextInt(OWN + 1);
            if (pick < 14) {
                ops.add(new RandomProgram.Step(x, RandomProgram.nonZero(r, 1000)));
            } else if (pick < 24) {
                ops.add(new RandomProgram.Scale(x, y, RandomProgram.nonZero(r, 9)));
            } else if (pick < 36) {
                ops.add(new RandomProgram.Add(x, y, z));
            } else if (pick < 44) {
                if (x != y && x != z) {
                    ops.add(new RandomProgram.Mix(x, y, z));
                }
            } else if (pick < 50) {
                if (x != y) {
                    int len = 1 + r.nextInt(N);
                    ops.add(new RandomProgram.Copy(x, r.nextInt(N - len + 1), y, r.nextInt(N - len + 1), len));
                }
            } else if (pick < 54) {
                int len = 1 + r.nextInt(N);
                ops.add(new RandomProgram.Fill(x, r.nextInt(N - len + 1), len, (byte) (1 + r.nextInt(255))));
            } else if (pick < 74) {
                int c = r.nextInt(COUNTERS);
                int add = 1 + r.nextInt(5);
                own[c] += add;
                totals[c] += add;
                ops.add(new AddToCounter(COUNTER + c, add));
            } else if (pick < 82) {
                ops.add(new RandomProgram.HostRead(r.nextInt(OWN + 1), r.nextBoolean()));
            } else if (pick < 88) {
                int c = r.nextInt(COUNTERS);
                ops.add(new CounterRead(COUNTER + c, shared[1 + c], own[c], totals, c));
            } else if (pick < 97) {
                int k = 1 + r.nextInt(8);
                int[] idx = new int[k];
                int[] values = new int[k];
                for (int j = 0; j < k; j++) {
                    idx[j] = r.nextInt(N);
                    values[j] = RandomProgram.nonZero(r, 1 << 20);
                }
                ops.add(new RandomProgram.HostWrite(x, idx, values));
            } else {
                ops.add(new RandomProgram.Sync());
            }
        }
        int[][] initial = new int[OWN + shared.length][];
        for (int a = 0; a < OWN; a++) {
            initial[a] = new int[N];
            for (int i = 0; i < N; i++) {
                initial[a][i] = RandomProgram.nonZero(r, 1 << 20);
            }
        }
        System.arraycopy(shared, 0, initial, OWN, shared.length);
        return RandomProgram.of(seed, initial, ops);
    }

    /** counter += add: commutative, so the threads' additions may land in any order. */
    record AddToCounter(int counter, int add) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
            // Other threads add too: the counters' values are checked against the totals at the end.
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            t.scheduler().submit(t.kernels().addc(t.at(counter), add, t.n()));
        }

        @Override
        public String toString() {
            return "a" + counter + " += " + add + " (shared counter)";
        }
    }

    /**
     * A host read of a shared counter: it waited for the reader's own additions, so every element is at least
     * the initial value plus them, and at most the initial value plus every thread's additions.
     */
    record CounterRead(int counter, int[] initial, long ownBefore, long[] totals, int index) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            TrackedArray array = t.at(counter);
            t.scheduler().awaitHost(array, AccessMode.READ, "read a" + counter);
            int[] got = RandomProgram.ints(array, t.n());
            for (int i = 0; i < got.length; i++) {
                long added = (long) got[i] - initial[i];
                if (added < ownBefore || added > totals[index]) {
                    throw new AssertionError("shared counter a" + counter + "[" + i + "] = " + got[i] + ": "
                            + added + " added, but this thread alone added " + ownBefore + " before reading and"
                            + " all threads add " + totals[index]);
                }
            }
        }

        @Override
        public String toString() {
            return "host read a" + counter + " (shared counter, at least " + ownBefore + " added)";
        }
    }
}
