package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A host access or host call whose wait is interrupted and then resumed (what a guest runtime's thread-local
 * action does to a waiting thread: GraalPy handing its GIL to another Python thread) stays one element of the
 * DAG, and work queued by another thread meanwhile still follows it; one given up ends as it did before.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SchedulerResumedWaitTest {
    private static final int N = SchedulerTest.N;

    private final CpuDevice device = new CpuDevice();
    private final TestKernels k = new TestKernels(device);
    private final Scheduler s = new Scheduler(device, SchedulerConfig.DEFAULT);
    private final UnifiedBuffer flag = device.allocate(4);
    private final Outcomes outcomes = new Outcomes();

    SchedulerResumedWaitTest() {
        s.addObserver(outcomes);
    }

    @AfterEach
    void close() {
        flag.setInt(0, 1);
        s.close();
        device.close();
    }

    /** Every element observers were told of, and how each ended ("" for success). */
    private static final class Outcomes implements ScheduleObserver {
        final Map<Long, String> labels = new ConcurrentHashMap<>();
        final Map<Long, long[]> parents = new ConcurrentHashMap<>();
        final Map<Long, String> ended = new ConcurrentHashMap<>();

        @Override
        public void submitted(ElementInfo element, long[] p) {
            labels.put(element.id(), element.label());
            parents.put(element.id(), p);
        }

        @Override
        public void completed(long id, long startNanos, long endNanos, String failure) {
            ended.put(id, failure == null ? "" : failure);
        }
    }

    /**
     * Runs {@code waiter} on a thread of its own; once it blocks, interrupts it once, waits until it is
     * blocked again (it resumes its wait on the interrupt), runs {@code meanwhile}, and opens the gate.
     */
    private void interruptOnceThenOpen(Thread waiter, CountDownLatch resumed, Runnable meanwhile)
            throws InterruptedException {
        awaitBlocked(waiter);
        waiter.interrupt();
        assertTrue(resumed.await(60, TimeUnit.SECONDS), "the waiter did not see the interrupt");
        awaitBlocked(waiter);
        meanwhile.run();
        flag.setInt(0, 1);
        waiter.join(60_000);
        assertFalse(waiter.isAlive());
    }

    private static void awaitBlocked(Thread t) throws InterruptedException {
        while (t.isAlive() && t.getState() != Thread.State.WAITING) {
            Thread.sleep(2);
        }
    }

    @Test
    void aResumedHostReadIsOneElementOfTheDag() throws Exception {
        TrackedArray x = k.array(s, "x");
        s.submit(k.gate(flag, x));                                             // 1
        CountDownLatch resumed = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread reader = Thread.ofPlatform().start(() -> {
            try {
                HostStep read = s.beginHostAccess(x, AccessMode.READ, "read x");  // 2
                try {
                    while (true) {
                        try {
                            s.finishHostAccess(read, true);
                            break;
                        } catch (InterruptedException e) {
                            resumed.countDown();
                        }
                    }
                } finally {
                    s.abandon(read);
                }
                assertThrows(IllegalStateException.class, () -> s.finishHostAccess(read, true));
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        interruptOnceThenOpen(reader, resumed, () -> { });
        assertNull(thrown.get());
        assertEquals(Map.of(1L, "gate", 2L, "read x"), outcomes.labels);
        assertArrayEquals(new long[] {1}, outcomes.parents.get(2L));
        assertEquals(Map.of(1L, "", 2L, ""), outcomes.ended);
        int[] gated = new int[N];
        Arrays.fill(gated, 1);
        assertArrayEquals(gated, TestKernels.ints(x));
    }

    @Test
    void workQueuedWhileAResumedCallWaitsFollowsTheCall() throws Exception {
        TrackedArray x = k.array(s, "x");
        s.submit(k.gate(flag, x));                                             // 1
        CountDownLatch resumed = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                HostStep call = s.beginHostCall(ComputationalElement.hostCall("fill",
                        List.of(new Access(x, AccessMode.WRITE))));             // 2
                try {
                    while (true) {
                        try {
                            s.runHostCall(call, () -> {
                                for (int i = 0; i < N; i++) {
                                    x.buffer().setInt(i, 5);
                                }
                                return null;
                            }, true);
                            break;
                        } catch (InterruptedException e) {
                            resumed.countDown();
                        }
                    }
                } finally {
                    s.abandon(call);
                }
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        // Queued by this thread between the interrupt and the call's run: it must run after the call's fill.
        interruptOnceThenOpen(caller, resumed, () -> s.submit(k.step(x, 1)));   // 3
        assertNull(thrown.get());
        s.awaitHost(x, AccessMode.READ, "read x");                              // 4
        int[] stepped = new int[N];
        Arrays.fill(stepped, 5 * 31 + 1);
        assertArrayEquals(stepped, TestKernels.ints(x));
        assertEquals(List.of("gate", "fill", "step", "read x"),
                List.of(outcomes.labels.get(1L), outcomes.labels.get(2L), outcomes.labels.get(3L),
                        outcomes.labels.get(4L)));
        assertEquals(4, outcomes.labels.size());
        assertArrayEquals(new long[] {2}, outcomes.parents.get(3L));
        assertEquals(Map.of(1L, "", 2L, "", 3L, "", 4L, ""), outcomes.ended);
    }

    @Test
    void anAbandonedAccessEndsFailedAndAnAbandonedCallNeverRuns() throws Exception {
        TrackedArray x = k.array(s, "x");
        s.submit(k.gate(flag, x));                                             // 1
        HostStep read = s.beginHostAccess(x, AccessMode.READ, "read x");       // 2
        HostStep call = s.beginHostCall(ComputationalElement.hostCall("g",
                List.of(new Access(x, AccessMode.WRITE))));                     // 3
        s.abandon(read);
        s.abandon(call);
        s.abandon(call);
        assertThrows(IllegalStateException.class, () -> s.finishHostAccess(read, false));
        assertThrows(IllegalStateException.class, () -> s.runHostCall(call, () -> {
            throw new AssertionError("an abandoned call ran");
        }, false));
        assertThrows(IllegalArgumentException.class, () -> s.finishHostAccess(call, false));
        assertThrows(IllegalArgumentException.class, () -> s.runHostCall(read, () -> null, false));
        assertEquals("interrupted while waiting", outcomes.ended.get(2L));
        assertEquals("", outcomes.ended.get(3L));
        flag.setInt(0, 1);
        s.synchronize();
        assertEquals(0, s.stats().outstanding());
    }
}
