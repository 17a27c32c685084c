package dev.polygpu.device.cpu;

import static dev.polygpu.device.cpu.DeviceConformanceTest.assertContains;
import static dev.polygpu.device.cpu.DeviceConformanceTest.expect;
import static dev.polygpu.device.cpu.FakeKernels.ptr;
import static dev.polygpu.device.cpu.FakeKernels.scalar;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.Event;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.FakeKernels.FakeKernel;
import dev.polygpu.device.cpu.kernel.BlockRunner;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.KernelFault;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** CPU-device behaviour observed through Java stand-in kernels: overlap, ordering, faults, runners. */
class CpuDeviceTest {
    private static final int WORKERS = 2;

    /** Start and end {@link System#nanoTime()} of the launches of {@link #spin}, by slot. */
    private final AtomicLongArray times = new AtomicLongArray(16);
    /** Opened by a test to let {@link #gate} kernels finish. */
    private final CountDownLatch gateOpen = new CountDownLatch(1);
    private final AtomicLong faultBlocksRun = new AtomicLong();
    private final Map<BlockRunner, Set<Thread>> runnerThreads = new ConcurrentHashMap<>();
    private final AtomicInteger runnersCreated = new AtomicInteger();

    /** {@code spin(int slot, int millis)}: block 0 spins for {@code millis} and records its interval in {@code slot}. */
    private final FakeKernel spin = FakeKernel.of("spin", (f, bx, by, bz) -> {
        int slot = FakeKernels.intArg(f, 0);
        long start = System.nanoTime();
        times.set(2 * slot, start);
        long until = start + TimeUnit.MILLISECONDS.toNanos(FakeKernels.intArg(f, 1));
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        times.set(2 * slot + 1, System.nanoTime());
    }, scalar("slot", ElementType.INT32), scalar("millis", ElementType.INT32));

    /**
     * Counted down by each {@link #meet} kernel when it starts; {@code meet} kernels wait for the other so that
     * their intervals intersect when (and only when) the device runs them at once.
     */
    private final CountDownLatch bothStarted = new CountDownLatch(2);

    /**
     * {@code meet(int slot)}: records its start in {@code slot}, then waits until the other {@code meet} started
     * too (at most 30 s, far more than a loaded machine needs to start a thread) and records its end.
     */
    private final FakeKernel meet = FakeKernel.of("meet", (f, bx, by, bz) -> {
        int slot = FakeKernels.intArg(f, 0);
        times.set(2 * slot, System.nanoTime());
        bothStarted.countDown();
        try {
            bothStarted.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        times.set(2 * slot + 1, System.nanoTime());
    }, scalar("slot", ElementType.INT32));

    /** {@code gate()}: waits until the test opens {@link #gateOpen} (at most 60 s). */
    private final FakeKernel gate = FakeKernel.of("gate", (f, bx, by, bz) -> {
        try {
            if (!gateOpen.await(60, TimeUnit.SECONDS)) {
                throw new KernelFault(CudaError.LAUNCH_TIMEOUT, "gate was never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    });

    /** {@code fault(int* out, int block)}: faults like an out-of-bounds write in block {@code block}. */
    private final FakeKernel fault = FakeKernel.of("fault", (f, bx, by, bz) -> {
        faultBlocksRun.incrementAndGet();
        if (bx == FakeKernels.intArg(f, 1)) {
            throw new KernelFault(CudaError.ILLEGAL_ADDRESS, "invalid global write of size 4 in kernel 'fault' "
                    + "at block (" + bx + ",0,0) thread (3,0,0): index 1000 of 'out' (buffer #"
                    + f.bufferIds()[0] + ")");
        }
    }, ptr("out", ElementType.INT32), scalar("block", ElementType.INT32));

    /** {@code boom()}: fails with a plain Java exception, as a bug in generated code would. */
    private final FakeKernel boom = FakeKernel.of("boom", (f, bx, by, bz) -> {
        throw new IllegalStateException("boom in block " + bx);
    });

    /** {@code who()}: records which thread used which runner; a new runner per {@code newRunner()} call. */
    private final FakeKernel who = new FakeKernel("who", List.of(), 0, () -> {
        runnersCreated.incrementAndGet();
        return new BlockRunner() {
            @Override
            public void runBlock(dev.polygpu.device.cpu.kernel.LaunchFrame frame, int bx, int by, int bz) {
                runnerThreads.computeIfAbsent(this, r -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread());
            }
        };
    });

    private final CpuDevice device = new CpuDevice(WORKERS,
            FakeKernels.compiler(spin, meet, gate, fault, boom, who, FakeKernels.saxpy()));

    @AfterEach
    void closeDevice() {
        gateOpen.countDown();
        device.close();
    }

    private KernelFunction kernel(String name) {
        return device.compile("/* " + name + " */", name + ".cu").function(name);
    }

    private void spin(Stream s, int slot, int millis) {
        s.launch(kernel("spin"), LaunchConfig.of(1, 1), KernelArgs.builder().i32(slot).i32(millis).build());
    }

    private long start(int slot) {
        return times.get(2 * slot);
    }

    private long end(int slot) {
        return times.get(2 * slot + 1);
    }

    @Test
    void propertiesNameTheWorkerThreads() {
        var p = device.properties();
        assertEquals("cpu", device.backend());
        assertEquals(0, device.ordinal());
        assertEquals(WORKERS, p.multiProcessorCount());
        assertContains(p.name(), "CPU", WORKERS + " threads");
        assertEquals(7, p.computeCapabilityMajor());
        assertEquals(49152, p.sharedMemoryPerBlock());
        assertEquals(2400000, CpuDeviceProperties.parseClockKHz(List.of("model name : x", "cpu MHz\t\t: 2400.000")));
    }

    @Test
    void kernelsOnTwoStreamsOverlap() {
        // Each waits for the other to start (a fixed spin of both would not meet if the loaded machine started
        // the second worker only after the first had spun for its time).
        Stream a = device.createStream();
        Stream b = device.createStream();
        a.launch(kernel("meet"), LaunchConfig.of(1, 1), KernelArgs.builder().i32(0).build());
        b.launch(kernel("meet"), LaunchConfig.of(1, 1), KernelArgs.builder().i32(1).build());
        device.synchronize();
        assertTrue(start(0) < end(1) && start(1) < end(0),
                "the two kernels' intervals do not intersect: " + times);
    }

    @Test
    void kernelsOnOneStreamDoNotOverlap() {
        Stream s = device.createStream();
        spin(s, 0, 50);
        spin(s, 1, 50);
        spin(s, 2, 50);
        s.synchronize();
        assertTrue(end(0) <= start(1) && end(1) <= start(2), "kernels overlapped on one stream: " + times);
    }

    @Test
    void waitForOrdersWorkAcrossStreams() {
        Stream a = device.createStream();
        Stream b = device.createStream();
        Event e = device.createEvent(true);
        spin(a, 0, 100);
        a.record(e);
        b.waitFor(e);
        spin(b, 1, 1);
        device.synchronize();
        assertTrue(end(0) <= start(1), "stream b ran before the event it waits for: " + times);
    }

    @Test
    void waitForWaitsForTheRecordingLatestAtTheCall() throws InterruptedException {
        Stream a = device.createStream();
        Stream b = device.createStream();
        Event e = device.createEvent(false);
        a.record(e);
        a.synchronize();
        a.launch(kernel("gate"), LaunchConfig.of(1, 1), KernelArgs.builder().build());
        b.waitFor(e);
        a.record(e);
        assertFalse(e.isComplete());
        CountDownLatch bDone = new CountDownLatch(1);
        b.onComplete(bDone::countDown);
        assertTrue(bDone.await(30, TimeUnit.SECONDS), "b waited for a recording made after its waitFor");
        // Now the common case: b waits for the pending recording and must not run before the gate opens.
        AtomicLong sawOpen = new AtomicLong(-1);
        b.waitFor(e);
        b.onComplete(() -> sawOpen.set(gateOpen.getCount()));
        gateOpen.countDown();
        device.synchronize();
        assertEquals(0, sawOpen.get());
        assertTrue(e.isComplete());
    }

    @Test
    void aFaultIsReportedOnceAndEverythingKeepsWorking() {
        Stream s = device.createStream();
        Stream other = device.createStream();
        UnifiedBuffer out = device.allocate(64);
        s.launch(kernel("fault"), LaunchConfig.of(10_000, 32), KernelArgs.builder().pointer(out).i32(5).build());
        s.fill(out, 0, 64, (byte) 7);
        other.fill(out, 0, 4, (byte) 7);
        assertDoesNotThrow(other::synchronize);
        KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error());
        assertEquals("fault", e.kernel());
        assertContains(e.getMessage(), "kernel 'fault'", "block (5,0,0)", "buffer #" + out.id());
        assertTrue(faultBlocksRun.get() < 10_000, "the launch went on after its fault");
        assertDoesNotThrow(s::synchronize);
        assertDoesNotThrow(device::synchronize);
        assertEquals(7, out.getByte(63));
        s.launch(kernel("fault"), LaunchConfig.of(100, 32), KernelArgs.builder().pointer(out).i32(-1).build());
        assertDoesNotThrow(s::synchronize);
    }

    @Test
    void deviceSynchronizeReportsAKernelFault() {
        Stream s = device.createStream();
        UnifiedBuffer out = device.allocate(64);
        s.launch(kernel("fault"), LaunchConfig.of(3, 1), KernelArgs.builder().pointer(out).i32(2).build());
        KernelFaultException e = assertThrows(KernelFaultException.class, device::synchronize);
        assertContains(e.getMessage(), "block (2,0,0)");
        assertDoesNotThrow(s::synchronize);
    }

    @Test
    void aJavaExceptionInAKernelFailsTheLaunchNotTheWorkers() {
        Stream s = device.defaultStream();
        for (int round = 0; round < 3; round++) {
            s.launch(kernel("boom"), LaunchConfig.of(64, 1), KernelArgs.builder().build());
            KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
            assertEquals(CudaError.LAUNCH_FAILED, e.error());
            assertContains(e.getMessage(), "kernel 'boom' failed", "IllegalStateException", "boom in block");
        }
        UnifiedBuffer x = device.allocate(4096);
        UnifiedBuffer y = device.allocate(4096);
        x.setFloat(1000, 2f);
        s.launch(kernel("saxpy"), LaunchConfig.of(8, 128), KernelArgs.builder().pointer(y).pointer(x).f32(4f).i32(1024).build());
        s.synchronize();
        assertEquals(8f, y.getFloat(1000));
    }

    @Test
    void freeingABufferWaitsForTheQueuedKernelsThatUseIt() throws Exception {
        Stream s = device.createStream();
        UnifiedBuffer x = device.allocate(4096);
        UnifiedBuffer y = device.allocate(4096);
        x.setFloat(1000, 3f);
        s.launch(kernel("gate"), LaunchConfig.of(1, 1), KernelArgs.builder().build());
        s.launch(kernel("saxpy"), LaunchConfig.of(8, 128), KernelArgs.builder().pointer(y).pointer(x).f32(4f).i32(1024).build());
        CountDownLatch freed = new CountDownLatch(1);
        Thread freer = Thread.ofPlatform().start(() -> {
            x.free();
            freed.countDown();
        });
        // The gate holds the stream, so the saxpy that reads x has not run and free must still be waiting.
        assertFalse(freed.await(200, TimeUnit.MILLISECONDS), "free returned while a queued kernel used the buffer");
        gateOpen.countDown();
        assertTrue(freed.await(30, TimeUnit.SECONDS), "free did not return after the kernel ran");
        freer.join();
        s.synchronize();
        assertTrue(x.isFreed());
        assertEquals(12f, y.getFloat(1000));
    }

    @Test
    void eachWorkerThreadHasItsOwnRunner() {
        Stream a = device.createStream();
        Stream b = device.createStream();
        for (int i = 0; i < 20; i++) {
            (i % 2 == 0 ? a : b).launch(kernel("who"), LaunchConfig.of(500, 1), KernelArgs.builder().build());
        }
        device.synchronize();
        assertTrue(runnersCreated.get() <= WORKERS, runnersCreated + " runners for " + WORKERS + " workers");
        for (var threads : runnerThreads.values()) {
            assertEquals(1, threads.size(), "a runner was used by several threads: " + threads);
            assertTrue(threads.iterator().next() instanceof WorkerThread);
        }
    }

    @Test
    void runnerCacheIsBounded() {
        RunnerCache cache = new RunnerCache(2);
        BlockRunner r = (f, x, y, z) -> { };
        CompiledKernel k1 = FakeKernel.of("k1", r);
        CompiledKernel k2 = FakeKernel.of("k2", r);
        CompiledKernel k3 = FakeKernel.of("k3", r);
        cache.runner(k1);
        cache.runner(k2);
        cache.runner(k1);
        cache.runner(k3);
        assertEquals(2, cache.size());
        cache.runner(k1);
        assertEquals(3, cache.created());
        cache.runner(k2);
        assertEquals(4, cache.created());
    }

    @Test
    void callbacksMustNotCallIntoTheDevice() {
        Stream s = device.createStream();
        s.onComplete(s::synchronize);
        DeviceConformanceTest.assertContains(
                assertThrows(dev.polygpu.device.DeviceException.class, s::synchronize).getMessage(), "callback");
    }

    @Test
    void closingTheDeviceFreesBuffersAndRefusesWork() {
        UnifiedBuffer a = device.allocate(128);
        Stream s = device.createStream();
        s.fill(a, 0, 128, (byte) 1);
        device.close();
        device.close();
        assertTrue(a.isFreed());
        assertContains(expect(CudaError.INVALID_VALUE, a::hostView).getMessage(), "closing its device");
        expect(CudaError.INVALID_CONTEXT, () -> device.allocate(8));
        expect(CudaError.INVALID_CONTEXT, device::createStream);
        expect(CudaError.INVALID_HANDLE, () -> s.fill(a, 0, 1, (byte) 0));
    }

    @Test
    void defaultConstructorRunsOneWorkerPerProcessor() {
        try (CpuDevice real = new CpuDevice()) {
            assertEquals(Runtime.getRuntime().availableProcessors(), real.properties().multiProcessorCount());
        }
    }
}
