package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.SchedulerConfig.DependencyPolicy;
import dev.polygpu.runtime.SchedulerConfig.ExecutionPolicy;
import dev.polygpu.runtime.SchedulerConfig.ParentStreamPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scheduler on the CPU device with real kernels: dependencies, streams, host waits, failures, stealing. */
class SchedulerTest {
    static final int N = 256;

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

    private Scheduler scheduler(SchedulerConfig config) {
        Scheduler s = new Scheduler(device, config);
        schedulers.add(s);
        return s;
    }

    private UnifiedBuffer flag() {
        UnifiedBuffer f = device.allocate(4);
        flags.add(f);
        return f;
    }

    @Test
    void dependentKernelsOnOneArrayRunInSubmissionOrder() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        TrackedArray x = k.array(s, "x");
        int[] expected = new int[N];
        for (int step = 1; step <= 60; step++) {
            s.submit(k.step(x, step));
            for (int i = 0; i < N; i++) {
                expected[i] = expected[i] * 31 + step;
            }
        }
        s.awaitHost(x, AccessMode.READ, "read x");
        assertArrayEquals(expected, TestKernels.ints(x));
        assertEquals(0, s.stats().outstanding());
    }

    @Test
    void withConstReadersDoNotOrderEachOtherAndAWriterFollowsAllOfThem() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withDependencies(DependencyPolicy.WITH_CONST));
        Recorder r = new Recorder();
        s.addObserver(r);
        TrackedArray x = k.array(s, "x");
        TrackedArray y1 = k.array(s, "y1");
        TrackedArray y2 = k.array(s, "y2");
        UnifiedBuffer flag = flag();
        s.submit(k.gate(flag, x));                 // 1
        s.submit(k.scale(y1, x, 2));               // 2
        s.submit(k.scale(y2, x, 3));               // 3
        s.submit(k.step(x, 5));                    // 4
        assertEquals(List.of(1L), r.parents(2));
        assertEquals(List.of(1L), r.parents(3));
        assertEquals(List.of(1L, 2L, 3L), r.parents(4).stream().sorted().toList());
        flag.setInt(0, 1);
        s.synchronize();
    }

    @Test
    void noConstOrdersReadersToo() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withDependencies(DependencyPolicy.NO_CONST));
        Recorder r = new Recorder();
        s.addObserver(r);
        TrackedArray x = k.array(s, "x");
        TrackedArray y1 = k.array(s, "y1");
        TrackedArray y2 = k.array(s, "y2");
        UnifiedBuffer flag = flag();
        s.submit(k.gate(flag, x));
        s.submit(k.scale(y1, x, 2));
        s.submit(k.scale(y2, x, 3));
        assertEquals(List.of(1L), r.parents(2));
        assertEquals(List.of(2L), r.parents(3));
        flag.setInt(0, 1);
        s.synchronize();
    }

    @Test
    void disjointPolicyContinuesTheFirstChildOnTheParentsStreamAndSpreadsSiblings() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withParentStreams(ParentStreamPolicy.DISJOINT));
        Recorder r = new Recorder();
        s.addObserver(r);
        TrackedArray x = k.array(s, "x");
        TrackedArray y1 = k.array(s, "y1");
        TrackedArray y2 = k.array(s, "y2");
        TrackedArray z = k.array(s, "z");
        UnifiedBuffer flag = flag();
        s.submit(k.gate(flag, x));
        s.submit(k.scale(y1, x, 2));
        s.submit(k.scale(y2, x, 3));
        // Gated too: a plain step on z could complete before the add is submitted, and a completed element
        // is no parent (z = 0 + 1 either way).
        s.submit(k.gate(flag, z));
        s.submit(k.add(z, y1, y2));
        int gateStream = r.stream(1);
        assertEquals(gateStream, r.stream(2), "the first child continues on its parent's stream");
        assertNotEquals(gateStream, r.stream(3), "a sibling gets a stream of its own");
        assertNotEquals(gateStream, r.stream(4), "independent work does not queue behind the gate");
        assertNotEquals(r.stream(3), r.stream(4));
        assertEquals(List.of(2L, 3L, 4L), r.parents(5).stream().sorted().toList());
        flag.setInt(0, 1);
        s.awaitHost(z, AccessMode.READ, "read z");
        int[] got = TestKernels.ints(z);
        for (int i = 0; i < N; i++) {
            assertEquals(1 + 2 + 3, got[i], "z = 1 + 2x + 3x where the gate made x 1");
        }
    }

    @Test
    void sameAsParentPolicyKeepsSiblingsOnTheParentsStream() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withParentStreams(ParentStreamPolicy.SAME_AS_PARENT));
        Recorder r = new Recorder();
        s.addObserver(r);
        TrackedArray x = k.array(s, "x");
        UnifiedBuffer flag = flag();
        s.submit(k.gate(flag, x));
        s.submit(k.scale(k.array(s, "y1"), x, 2));
        s.submit(k.scale(k.array(s, "y2"), x, 3));
        assertEquals(r.stream(1), r.stream(2));
        assertEquals(r.stream(1), r.stream(3));
        flag.setInt(0, 1);
        s.synchronize();
    }

    @Test
    void freeStreamsAreReusedWithoutAHostSynchronization() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        TrackedArray x = k.array(s, "x");
        TrackedArray y = k.array(s, "y");
        for (int i = 0; i < 200; i++) {
            s.submit(k.step(i % 2 == 0 ? x : y, i));
        }
        s.synchronize();
        assertTrue(s.stats().streams() <= 4, "streams: " + s.stats());
    }

    @Test
    void manyOutstandingReadersAreCountedOffAsTheyComplete() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        TrackedArray x = k.array(s, "x");
        TrackedArray[] outs = new TrackedArray[3];
        for (int i = 0; i < outs.length; i++) {
            outs[i] = k.array(s, "y" + i);
        }
        UnifiedBuffer flag = flag();
        s.submit(k.gate(flag, x));
        for (int i = 0; i < 100; i++) {          // more readers than the prune threshold, all outstanding
            s.submit(k.scale(outs[i % 3], x, i + 2));
        }
        assertTrue(x.hostReadReady() == false && x.hostWriteReady() == false);
        flag.setInt(0, 1);
        s.synchronize();
        assertTrue(x.hostReadReady(), "no outstanding writer");
        assertTrue(x.hostWriteReady(), "no outstanding reader left counted");
        assertEquals(99 + 2, TestKernels.ints(outs[99 % 3])[0], "the last reader wrote x * 101 with x = 1");
    }

    @Test
    void aHostReadWaitsOnlyForTheWritersOfItsArray() throws Exception {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        Recorder r = new Recorder();
        s.addObserver(r);
        TrackedArray x = k.array(s, "x");
        TrackedArray y = k.array(s, "y");
        UnifiedBuffer flag = flag();
        s.submit(k.gate(flag, y));      // 1: cannot complete until the flag is set
        s.submit(k.step(x, 7));         // 2: independent
        assertFalse(y.hostReadReady());
        s.awaitHost(x, AccessMode.READ, "read x");   // would hang if it waited for the gate
        assertEquals(7, TestKernels.ints(x)[3]);
        assertTrue(x.hostReadReady());
        assertFalse(r.completed(1), "the gate is still running");
        // A host write of x waits for x's outstanding readers: one that also waits for the gate.
        s.submit(k.addInto(y, x));      // 3 (reads x, writes y; after the gate)
        assertTrue(x.hostReadReady(), "a reader does not block host reads");
        assertFalse(x.hostWriteReady(), "but it blocks host writes");
        AtomicReference<Boolean> readerDoneAtWrite = new AtomicReference<>();
        Thread writer = Thread.ofPlatform().start(() -> {
            s.awaitHost(x, AccessMode.WRITE, "write x");
            readerDoneAtWrite.set(r.completed(3));
        });
        flag.setInt(0, 1);
        writer.join();
        assertEquals(Boolean.TRUE, readerDoneAtWrite.get());
        s.awaitHost(y, AccessMode.READ, "read y");
        assertEquals(1 + 7, TestKernels.ints(y)[5], "y = gate's 1 + x");
    }

    @Test
    void aFailureSurfacesOnceAtTheHostAccessThatNeedsItsResultNamingTheKernel() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        TrackedArray x = k.array(s, "x");
        TrackedArray z = k.array(s, "z");
        TrackedArray other = k.array(s, "other");
        s.submit(k.fault(x));
        s.submit(k.scale(z, x, 2));
        s.submit(k.step(other, 3));
        s.awaitHost(other, AccessMode.READ, "read other");   // unaffected
        DeviceException e = assertThrows(DeviceException.class, () -> s.awaitHost(x, AccessMode.READ, "read x"));
        assertTrue(e.getMessage().contains("kernel 'fault'"), e.getMessage());
        s.awaitHost(x, AccessMode.READ, "read x");           // reported once
        DeviceException child = assertThrows(DeviceException.class,
                () -> s.awaitHost(z, AccessMode.READ, "read z"));
        assertTrue(child.getMessage().contains("kernel 'scale'") && child.getMessage().contains("kernel 'fault'"),
                child.getMessage());
        s.synchronize();                                      // both were reported
        s.submit(k.step(x, 1));                               // and the scheduler keeps working
        s.awaitHost(x, AccessMode.READ, "read x");
    }

    @Test
    void synchronizeReportsAnUnreportedFailure() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        s.submit(k.fault(k.array(s, "x")));
        DeviceException e = assertThrows(DeviceException.class, s::synchronize);
        assertTrue(e.getMessage().contains("kernel 'fault'"), e.getMessage());
        s.synchronize();
    }

    @Test
    void theSyncPolicyCompletesEachElementBeforeSubmitReturnsAndThrowsItsFailure() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withExecution(ExecutionPolicy.SYNC));
        TrackedArray x = k.array(s, "x");
        for (int i = 0; i < 10; i++) {
            s.submit(k.step(x, i));
            assertEquals(0, s.stats().outstanding());
        }
        DeviceException e = assertThrows(DeviceException.class, () -> s.submit(k.fault(x)));
        assertTrue(e.getMessage().contains("kernel 'fault'"), e.getMessage());
        s.synchronize();
    }

    @Test
    void argumentErrorsAreThrownBySubmitAndLeaveTheSchedulerWorking() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        TrackedArray x = k.array(s, "x");
        ComputationalElement bad = ComputationalElement.kernel("step", List.of(new Access(x, AccessMode.READ_WRITE)),
                new Work.Kernel(k.stepFunction(), LaunchConfig.of(1, N), KernelArgs.builder().pointer(x.buffer()).build(),
                        null), null);
        DeviceException e = assertThrows(DeviceException.class, () -> s.submit(bad));
        assertTrue(e.getMessage().contains("kernel 'step'"), e.getMessage());
        s.submit(k.step(x, 2));
        s.awaitHost(x, AccessMode.READ, "read x");
        assertEquals(2, TestKernels.ints(x)[0]);
    }

    @Test
    void theWindowHoldsReadyWorkThatACLusterLayerMayStealAndComplete() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withInFlightWindow(1));
        Recorder r = new Recorder();
        s.addObserver(r);
        TrackedArray x = k.array(s, "x");
        TrackedArray y = k.array(s, "y");
        TrackedArray w = k.array(s, "w");
        UnifiedBuffer flag = flag();
        s.submit(k.gate(flag, x));      // 1 takes the only window slot
        s.submit(k.step(y, 4));         // 2 ready: no parents
        s.submit(k.scale(w, y, 10));    // 3 waits for 2
        s.submit(k.step(w, 1));         // 4 waits for 3
        assertEquals(1, s.readyCount());
        StolenElement stolen = s.steal();
        assertNotNull(stolen);
        assertEquals(2, stolen.id());
        ElementMessage m = stolen.message();
        assertEquals("step", m.label());
        assertEquals(ElementKind.KERNEL, m.kind());
        assertEquals(new ElementMessage.ArrayArg(y.id(), 4L * N, 0, AccessMode.READ_WRITE), m.args().get(0));
        assertEquals(new ElementMessage.ScalarArg(dev.polygpu.device.ElementType.INT32, 4), m.args().get(1));
        assertNotNull(m.source());
        assertNull(s.steal(), "3 and 4 are not ready while 2 is away");
        // The thief ran it elsewhere: it writes the results here, then completes.
        for (int i = 0; i < N; i++) {
            y.buffer().setInt(i, 4);
        }
        stolen.complete();
        assertThrows(IllegalStateException.class, stolen::complete);
        assertEquals(1, s.readyCount(), "3 is ready now");
        StolenElement back = s.steal();
        assertEquals(3, back.id());
        back.giveBack();
        flag.setInt(0, 1);
        s.awaitHost(w, AccessMode.READ, "read w");
        assertEquals(4 * 10 * 31 + 1, TestKernels.ints(w)[7]);
        assertEquals(1, s.stats().maxInFlight());
    }

    @Test
    void theWindowCanChangeWhileWorkRuns() throws InterruptedException {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withInFlightWindow(1));
        UnifiedBuffer flag = flag();
        TrackedArray[] xs = new TrackedArray[5];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = k.array(s, "x" + i);
        }
        for (int i = 0; i < 3; i++) {
            s.submit(k.gate(flag, xs[i]));
        }
        assertEquals(2, s.readyCount(), "one on the streams, two waiting for the window");
        assertThrows(IllegalArgumentException.class, () -> s.setInFlightWindow(0));
        s.setInFlightWindow(3);
        assertEquals(3, s.inFlightWindow());
        assertEquals(1, s.configuredInFlightWindow());
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (s.readyCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(0, s.readyCount(), "a wider window takes the waiting ones at once");
        s.setInFlightWindow(1);
        s.submit(k.gate(flag, xs[3]));
        s.submit(k.gate(flag, xs[4]));
        assertEquals(2, s.readyCount(), "three on the streams stay there; the narrower window takes no more");
        flag.setInt(0, 1);
        s.synchronize();
        assertEquals(3, s.stats().maxInFlight());
        for (TrackedArray x : xs) {
            assertEquals(1, TestKernels.ints(x)[0]);
        }
    }

    @Test
    void aClusterLayerHearsHowLongItsElementRanOnTheDevice() throws InterruptedException {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        UnifiedBuffer flag = flag();
        TrackedArray x = k.array(s, "x");
        java.util.concurrent.CompletableFuture<Long> ran = new java.util.concurrent.CompletableFuture<>();
        long submitted = System.nanoTime();
        s.submitHere(k.gate(flag, x), 0, (error, runNanos) -> {
            if (error != null) {
                ran.completeExceptionally(error);
            } else {
                ran.complete(runNanos);
            }
        });
        Thread.sleep(50);
        flag.setInt(0, 1);
        long runNanos = ran.join();
        long wall = System.nanoTime() - submitted;
        assertTrue(runNanos >= 40_000_000L && runNanos <= wall, "held 50 ms by its gate, within the " + wall
                + " ns since it was submitted: " + runNanos);
    }

    /**
     * A window of 1 held by a gate kernel (element 1) until {@link #open()}, with two ready kernels behind it:
     * 2 adds 3 to y, 3 increments z.
     */
    private final class TwoReadyBehindAGate {
        final Scheduler s = scheduler(SchedulerConfig.DEFAULT.withInFlightWindow(1));
        final TrackedArray y = k.array(s, "y");
        final TrackedArray z = k.array(s, "z");
        final UnifiedBuffer flag = flag();

        TwoReadyBehindAGate() {
            s.submit(k.gate(flag, k.array(s, "x")));
            s.submit(k.step(y, 3));
            s.submit(k.inc(z));
        }

        /** Lets the gate end, waits for everything and checks both kernels ran once. */
        void open() {
            flag.setInt(0, 1);
            s.synchronize();
            assertEquals(3, TestKernels.ints(y)[5]);
            assertEquals(1, TestKernels.ints(z)[5]);
        }
    }

    @Test
    void stealingSkipsRefusedElementsAndNeverTakesAGivenBackElementTwice() {
        TwoReadyBehindAGate g = new TwoReadyBehindAGate();
        Scheduler s = g.s;
        assertEquals(new Scheduler.Load(2, 2, 1), s.load());
        StolenElement taken = s.steal(e -> e.label().equals("inc"));
        assertEquals(3, taken.id(), "the predicate refused 'step'");
        assertNull(s.steal(e -> e.label().equals("inc")));
        assertTrue(taken.takenNanos() > 0);
        taken.giveBack();
        assertEquals(new Scheduler.Load(2, 1, 1), s.load(), "given back: ready, but pinned here");
        assertEquals(2, s.stats().ready(), "stats count every ready element: " + s.stats());
        assertEquals(1, s.stats().stealable(), "of which one may still be taken: " + s.stats());
        StolenElement other = s.steal();
        assertEquals(2, other.id(), "3 is never taken twice");
        assertNull(s.steal());
        other.giveBack();
        g.open();
    }

    @Test
    void anElementPutBackUnstartedMayBeTakenAgainInItsPlace() {
        TwoReadyBehindAGate g = new TwoReadyBehindAGate();
        Scheduler s = g.s;
        StolenElement first = s.steal();
        assertEquals(2, first.id());
        first.putBack();
        assertEquals(new Scheduler.Load(2, 2, 1), s.load(), "put back: ready and stealable again");
        StolenElement again = s.steal();
        assertEquals(2, again.id(), "back in its place, the oldest again");
        again.giveBack();
        assertEquals(new Scheduler.Load(2, 1, 1), s.load(), "given back: pinned");
        StolenElement other = s.steal();
        assertEquals(3, other.id());
        other.putBack();
        g.open();
    }

    /** What a thief does with step(y, s): y[i] = y[i] * 31 + s, written into y's host view. */
    private static void runStepElsewhere(TrackedArray y, int s) {
        for (int i = 0; i < N; i++) {
            y.buffer().setInt(i, y.buffer().getInt(i) * 31 + s);
        }
    }

    /** A window of 1 held by a gate kernel until the flag is set, and behind it a chain step(y, 3), step(y, 5). */
    private final class ChainBehindAGate {
        final Scheduler s = scheduler(SchedulerConfig.DEFAULT.withInFlightWindow(1));
        final TrackedArray y = k.array(s, "y");
        final UnifiedBuffer flag = flag();

        ChainBehindAGate() {
            s.submit(k.gate(flag, k.array(s, "x")));
            s.submit(k.step(y, 3));
            s.submit(k.step(y, 5));
        }
    }

    @Test
    void aCompletingElementHandsOverTheNextLinkOfItsChainBeforeItCanRunHere() {
        ChainBehindAGate g = new ChainBehindAGate();
        Scheduler s = g.s;
        TrackedArray y = g.y;
        UnifiedBuffer flag = g.flag;
        TrackedArray z = k.array(s, "z");
        s.submit(k.inc(z));
        assertEquals(2, s.topStealableRank(), "the chain's first link ranks 2, inc 1; the second link waits");
        StolenElement first = s.steal();
        assertEquals(2, first.id());
        assertEquals(1, s.topStealableRank(), "only inc is ready now");
        runStepElsewhere(y, 3);
        List<String> offered = new ArrayList<>();
        StolenElement next = first.completeAndTake("m", first.takenNanos(), System.nanoTime(), (child, load) -> {
            offered.add(child.label() + " " + load);
            return true;
        });
        assertEquals(List.of("step " + new Scheduler.Load(2, 2, 1)), offered,
                "only the child it made ready, counted as ready and stealable");
        assertNotNull(next);
        assertEquals(3, next.id());
        assertEquals(1, next.rank());
        assertEquals(new Scheduler.Load(1, 1, 1), s.load(), "taken: inc alone is ready");
        runStepElsewhere(y, 5);
        assertNull(next.completeAndTake("m", next.takenNanos(), System.nanoTime(), (child, load) -> true),
                "the chain's end: no child");
        flag.setInt(0, 1);
        s.synchronize();
        assertEquals(3 * 31 + 5, TestKernels.ints(y)[7]);
        assertEquals(1, TestKernels.ints(z)[7]);
    }

    @Test
    void aChildTheContinuationRefusesRunsHere() {
        ChainBehindAGate g = new ChainBehindAGate();
        Scheduler s = g.s;
        StolenElement first = s.steal();
        runStepElsewhere(g.y, 3);
        assertNull(first.completeAndTake("m", first.takenNanos(), System.nanoTime(), (child, load) -> false));
        assertEquals(new Scheduler.Load(1, 1, 1), s.load(), "the second link is ready here");
        assertThrows(IllegalStateException.class, () -> first.complete(), "settled once");
        StolenElement second = s.steal();
        assertThrows(IllegalArgumentException.class, () -> second.completeAndTake("m", 0, 0, null));
        second.putBack();
        g.flag.setInt(0, 1);
        s.synchronize();
        assertEquals(3 * 31 + 5, TestKernels.ints(g.y)[7]);
    }

    @Test
    void elementsRunForAnotherMemberCallBackOnceAndAreNeverStolen() throws Exception {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withInFlightWindow(1));
        TrackedArray x = k.array(s, "x");
        TrackedArray y = k.array(s, "y");
        UnifiedBuffer flag = flag();
        s.submit(k.gate(flag, x));
        java.util.concurrent.CompletableFuture<DeviceException> done = new java.util.concurrent.CompletableFuture<>();
        s.submitHere(k.step(y, 9), done::complete);
        assertEquals(new Scheduler.Load(1, 0, 1), s.load(), "ready but pinned: not stealable");
        assertNull(s.steal());
        assertFalse(done.isDone());
        flag.setInt(0, 1);
        assertNull(done.get(30, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(9, TestKernels.ints(y)[0]);
        // A failing element: the callback gets the error, and it does not surface again at synchronize.
        java.util.concurrent.CompletableFuture<DeviceException> failed = new java.util.concurrent.CompletableFuture<>();
        s.submitHere(k.fault(y), failed::complete);
        DeviceException e = failed.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertNotNull(e);
        assertTrue(e.getMessage().contains("fault"), e.getMessage());
        s.synchronize();
        assertThrows(IllegalArgumentException.class, () -> s.submitHere(k.inc(y), null));
    }

    @Test
    void observersSeeWhereAStolenElementRan() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withInFlightWindow(1));
        java.util.List<String> seen = new java.util.ArrayList<>();
        s.addObserver(new ScheduleObserver() {
            @Override
            public void ranRemotely(long id, String owner, String member, long taken, long start, long end) {
                seen.add(id + " " + member + " " + (taken <= start) + " " + (start <= end));
            }
        });
        TrackedArray x = k.array(s, "x");
        TrackedArray y = k.array(s, "y");
        UnifiedBuffer flag = flag();
        s.submit(k.gate(flag, x));
        s.submit(k.step(y, 2));
        StolenElement t = s.steal();
        // Times from another machine may fall outside the time it was away: they are clamped.
        t.complete("worker-1", t.takenNanos() - 1_000_000_000L, System.nanoTime() + 1_000_000_000L);
        assertEquals(java.util.List.of("2 worker-1 true true"), seen);
        flag.setInt(0, 1);
        s.synchronize();
    }

    @Test
    void manyThreadsMaySubmitAndKeepTheirOwnOrder() throws Exception {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        TrackedArray shared = k.array(s, "shared");
        int threads = 4;
        int each = 150;
        TrackedArray[] own = new TrackedArray[threads];
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            own[t] = k.array(s, "own" + t);
            TrackedArray mine = own[t];
            ts.add(Thread.ofPlatform().start(() -> {
                for (int i = 1; i <= each; i++) {
                    s.submit(k.step(mine, i));
                    s.submit(k.inc(shared));
                }
            }));
        }
        for (Thread t : ts) {
            t.join();
        }
        s.synchronize();
        int expected = 0;
        for (int i = 1; i <= each; i++) {
            expected = expected * 31 + i;
        }
        for (TrackedArray a : own) {
            assertEquals(expected, TestKernels.ints(a)[11]);
        }
        assertEquals(threads * each, TestKernels.ints(shared)[11]);
        assertEquals(2L * threads * each, s.stats().completed());
    }

    @Test
    void closeWaitsForOutstandingWork() {
        Scheduler s = new Scheduler(device, SchedulerConfig.DEFAULT);
        TrackedArray x = k.array(s, "x");
        for (int i = 0; i < 20; i++) {
            s.submit(k.step(x, 1));
        }
        s.close();
        int expected = 0;
        for (int i = 0; i < 20; i++) {
            expected = expected * 31 + 1;
        }
        assertEquals(expected, TestKernels.ints(x)[0]);
        assertThrows(DeviceException.class, () -> s.submit(k.step(x, 1)));
    }

    /** Records what observers see, for assertions on the DAG's shape. */
    static final class Recorder implements ScheduleObserver {
        private final java.util.Map<Long, long[]> parents = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Map<Long, Integer> streams = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Set<Long> done = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public void submitted(ElementInfo element, long[] p) {
            parents.put(element.id(), p);
        }

        @Override
        public void launched(long id, String deviceName, int streamId, long nanos) {
            streams.put(id, streamId);
        }

        @Override
        public void completed(long id, long startNanos, long endNanos, String failure) {
            done.add(id);
        }

        List<Long> parents(long id) {
            return java.util.Arrays.stream(parents.get(id)).boxed().toList();
        }

        int stream(long id) {
            return streams.get(id);
        }

        boolean completed(long id) {
            return done.contains(id);
        }
    }
}
