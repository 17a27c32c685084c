package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Host calls ({@link Scheduler#callOnHost}): a host function on arrays is an element of the DAG that runs on the
 * calling thread — after the work it depends on, and before the work that depends on it, whichever thread
 * submits that work.
 */
class SchedulerHostCallTest {
    private static final int N = SchedulerTest.N;

    private final CpuDevice device = new CpuDevice();
    private final TestKernels k = new TestKernels(device);
    private final Scheduler s = new Scheduler(device, SchedulerConfig.DEFAULT);
    private final UnifiedBuffer flag = device.allocate(4);

    @AfterEach
    void close() {
        flag.setInt(0, 1);
        s.close();
        device.close();
    }

    private static ComputationalElement call(String label, TrackedArray x, AccessMode mode) {
        return ComputationalElement.hostCall(label, List.of(new Access(x, mode)));
    }

    @Test
    void aHostCallRunsAfterTheKernelsThatWriteItsArrays() throws InterruptedException {
        TrackedArray x = k.array(s, "x");
        s.submit(k.gate(flag, x));
        s.submit(k.step(x, 7));
        Thread opener = Thread.ofVirtual().start(() -> {
            sleep(100);
            flag.setInt(0, 1);
        });
        // gate: x = 1; step: x = 1 * 31 + 7 = 38 — both must be done when the call reads x.
        int[] seen = s.callOnHost(call("sum", x, AccessMode.READ), () -> TestKernels.ints(x), false);
        int[] expected = new int[N];
        java.util.Arrays.fill(expected, 38);
        assertArrayEquals(expected, seen);
        opener.join();
        assertEquals(0, s.stats().outstanding());
    }

    @Test
    void workSubmittedWhileTheCallRunsWaitsForItToReturn() throws Exception {
        TrackedArray x = k.array(s, "x");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch mayReturn = new CountDownLatch(1);
        AtomicReference<int[]> atReturn = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                s.callOnHost(call("fill", x, AccessMode.WRITE), () -> {
                    running.countDown();
                    await(mayReturn);
                    for (int i = 0; i < N; i++) {
                        x.buffer().setInt(i, 5);
                    }
                    atReturn.set(TestKernels.ints(x));
                    return null;
                }, false);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        assertTrue(running.await(30, TimeUnit.SECONDS));
        // Another thread queues a kernel on x while the call runs: it must not start before the call returns.
        s.submit(k.step(x, 1));
        AtomicBoolean released = new AtomicBoolean();
        Thread releaser = Thread.ofVirtual().start(() -> {
            s.release(x);
            released.set(true);
        });
        Thread.sleep(150);
        assertFalse(released.get(), "release() must wait for the running host call");
        assertEquals(2, s.stats().outstanding(), "the call and the kernel behind it");
        mayReturn.countDown();
        caller.join();
        releaser.join();
        int[] untouched = new int[N];
        java.util.Arrays.fill(untouched, 5);
        assertArrayEquals(untouched, atReturn.get(), "the kernel ran while the call was writing x");
        s.awaitHost(x, AccessMode.READ, "read x");
        int[] stepped = new int[N];
        java.util.Arrays.fill(stepped, 5 * 31 + 1);
        assertArrayEquals(stepped, TestKernels.ints(x));
    }

    @Test
    void theCallIsInTheDagWithItsParentsAndChildren() throws InterruptedException {
        SchedulerTest.Recorder r = new SchedulerTest.Recorder();
        s.addObserver(r);
        TrackedArray x = k.array(s, "x");
        TrackedArray y = k.array(s, "y");
        s.submit(k.step(x, 1));                                               // 1
        s.callOnHost(ComputationalElement.hostCall("f", List.of(new Access(x, AccessMode.READ),
                new Access(y, AccessMode.WRITE))), () -> null, false);      // 2
        s.submit(k.addInto(x, y));                                            // 3
        assertEquals(List.of(1L), r.parents(2));
        // x: written by 1 and read by the call since; y: written by the call.
        assertEquals(List.of(1L, 2L), r.parents(3).stream().sorted().toList());
        s.synchronize();
        assertTrue(r.completed(2));
    }

    @Test
    void aFailedParentIsThrownOnceAndTheCallDoesNotRun() throws InterruptedException {
        TrackedArray x = k.array(s, "x");
        s.submit(k.fault(x));
        AtomicBoolean ran = new AtomicBoolean();
        DeviceException e = assertThrows(DeviceException.class, () -> s.callOnHost(call("g", x,
                AccessMode.READ_WRITE), () -> {
                    ran.set(true);
                    return null;
                }, false));
        assertTrue(e.getMessage().contains("fault"), e.getMessage());
        assertFalse(ran.get());
        // Reported once: neither a synchronize nor the next call sees it again.
        s.synchronize();
        assertEquals(1, (int) s.callOnHost(call("g", x, AccessMode.READ_WRITE), () -> 1, false));
    }

    @Test
    void anExceptionOfTheActionCompletesTheCallAndIsThrownAsItIs() throws InterruptedException {
        TrackedArray x = k.array(s, "x");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.callOnHost(call("h", x,
                AccessMode.WRITE), () -> {
                    throw new IllegalStateException("from the action");
                }, false));
        assertEquals("from the action", e.getMessage());
        s.submit(k.step(x, 2));
        s.synchronize();
        assertEquals(2, TestKernels.ints(x)[0]);
        assertEquals(0, s.stats().outstanding());
    }

    @Test
    void anInterruptEndsTheWaitAndTheActionDoesNotRun() throws Exception {
        TrackedArray x = k.array(s, "x");
        s.submit(k.gate(flag, x));
        AtomicBoolean ran = new AtomicBoolean();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                s.callOnHost(call("i", x, AccessMode.READ), () -> {
                    ran.set(true);
                    return null;
                }, true);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        Thread.sleep(100);
        caller.interrupt();
        caller.join(30_000);
        assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
        assertFalse(ran.get());
        flag.setInt(0, 1);
        s.synchronize();
        assertEquals(0, s.stats().outstanding());
    }

    @Test
    void onlyHostCallsRunOnTheHost() {
        TrackedArray x = k.array(s, "x");
        assertThrows(IllegalArgumentException.class, () -> s.callOnHost(k.step(x, 1), () -> null, false));
        assertThrows(IllegalStateException.class, () -> Work.HostCall.INSTANCE.enqueue(device.defaultStream()));
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
