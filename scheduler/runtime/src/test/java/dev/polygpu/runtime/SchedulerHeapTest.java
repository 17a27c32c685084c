package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.cpu.CpuDevice;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.lang.ref.WeakReference;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's memory is proportional to outstanding work, not to its history: a long run of tiny
 * launches over three arrays in a cycle ({@code b = f(a)}, {@code c = f(b)}, {@code a = f(c)}, each a
 * read-after-write on the last and a write-after-read on the one before) retains no more heap after a
 * garbage collection at the end than it did early on, and the stream pool stays small. The host cost per
 * launch is printed for information, never asserted.
 */
@Tag("slow")
class SchedulerHeapTest {
    private static final long SEED = 0x4EA9L;
    /** Ints per array: the one block's threads. */
    private static final int N = 4;
    /** How much more heap the later measurement may retain than the early one. */
    private static final long MAX_GROWTH_BYTES = 8L << 20;
    /** The chain keeps one stream busy; a few more may be picked up when a parent completed just before. */
    private static final int MAX_STREAMS = 4;

    /** Well under a minute on two cores, so it stays in the default suite. */
    @Test
    void aMillionLaunchesRetainNoMoreHeapThanAHundredThousand() {
        launchInACycle(1_000_000, 100_000);
    }

    private static void launchInACycle(int launches, int early) {
        SplittableRandom random = new SplittableRandom(SEED);
        int[][] model = new int[3][N];
        try (CpuDevice device = new CpuDevice(); Scheduler s = new Scheduler(device, SchedulerConfig.DEFAULT)) {
            DiffKernels kernels = new DiffKernels(device);
            TrackedArray[] arrays = new TrackedArray[3];
            for (int a = 0; a < 3; a++) {
                arrays[a] = s.track("abc".substring(a, a + 1), device.allocate(4L * N), 4L * N);
                for (int i = 0; i < N; i++) {
                    model[a][i] = RandomProgram.nonZero(random, 1 << 20);
                    arrays[a].buffer().setInt(i, model[a][i]);
                }
            }
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long earlyHeap = 0;
            long loopNanos = 0;
            long loopCpuNanos = 0;
            long t0 = System.nanoTime();
            long c0 = threads.getCurrentThreadCpuTime();
            for (int launch = 1; launch <= launches; launch++) {
                int src = (launch - 1) % 3;
                int dst = launch % 3;
                int k = 1 + launch % 1000;
                s.submit(kernels.chain(arrays[dst], arrays[src], k, N));
                for (int i = 0; i < N; i++) {
                    model[dst][i] = model[src][i] * 31 + k;
                }
                if (launch == early) {
                    s.synchronize();
                    loopNanos += System.nanoTime() - t0;
                    loopCpuNanos += threads.getCurrentThreadCpuTime() - c0;
                    assertQuiet(s, launch);
                    earlyHeap = retainedHeap();
                    t0 = System.nanoTime();
                    c0 = threads.getCurrentThreadCpuTime();
                }
            }
            s.synchronize();
            loopNanos += System.nanoTime() - t0;
            loopCpuNanos += threads.getCurrentThreadCpuTime() - c0;
            assertQuiet(s, launches);
            long lateHeap = retainedHeap();
            for (int a = 0; a < 3; a++) {
                assertArrayEquals(model[a], RandomProgram.ints(arrays[a], N), "array " + arrays[a] + " (seed " + SEED
                        + ")");
            }
            System.out.printf("%,d launches: %.1f s, %.2f µs wall and %.2f µs submitting-thread CPU per launch; "
                    + "retained heap %,d KiB after %,d launches, %,d KiB after %,d; %s%n", launches,
                    loopNanos / 1e9, loopNanos / 1e3 / launches, loopCpuNanos / 1e3 / launches, earlyHeap >> 10,
                    early, lateHeap >> 10, launches, s.stats());
            assertTrue(lateHeap - earlyHeap < MAX_GROWTH_BYTES, "retained heap grew from " + earlyHeap + " bytes after "
                    + early + " launches to " + lateHeap + " after " + launches);
        }
    }

    /** After a synchronize: nothing outstanding, on streams or waiting, every launch counted, few streams. */
    private static void assertQuiet(Scheduler s, int launches) {
        Scheduler.Stats st = s.stats();
        assertEquals(launches, st.submitted(), st::toString);
        assertEquals(launches, st.completed(), st::toString);
        assertEquals(0, st.outstanding(), st::toString);
        assertEquals(0, st.inFlight(), st::toString);
        assertEquals(0, st.waiting(), st::toString);
        assertTrue(st.maxInFlight() <= s.inFlightWindow(), st::toString);
        assertTrue(st.streams() <= MAX_STREAMS, () -> "streams grew: " + st);
    }

    /**
     * The heap in use after full collections: the smallest of three readings, each taken after a collection
     * that is known to have happened because it cleared a weak reference.
     */
    private static long retainedHeap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            WeakReference<Object> sentinel = new WeakReference<>(new Object());
            for (int tries = 0; sentinel.get() != null && tries < 100; tries++) {
                System.gc();
            }
            assertNull(sentinel.get(), "System.gc() did not collect; is -XX:+DisableExplicitGC set?");
            least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
