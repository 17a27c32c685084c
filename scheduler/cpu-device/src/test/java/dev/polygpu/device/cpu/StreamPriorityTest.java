package dev.polygpu.device.cpu;

import static dev.polygpu.device.cpu.FakeKernels.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.StreamPriorities;
import dev.polygpu.device.cpu.FakeKernels.FakeKernel;
import dev.polygpu.device.cpu.kernel.KernelFault;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Stream priorities on the CPU device: the range and clamping, and the worker pool taking the blocks of
 * higher-priority streams first, equal priorities in turns, with and without chaos.
 */
class StreamPriorityTest {
    private static final int BLOCKS = 16;

    /** Opened by a test to let {@link #gate} kernels finish; a new one for each run of a test. */
    private volatile CountDownLatch gateOpen = new CountDownLatch(1);
    /** Opened by a {@link #gate} kernel once it runs (and holds its worker); a new one with {@link #gateOpen}. */
    private volatile CountDownLatch gateEntered = new CountDownLatch(1);
    /** What {@link #record} kernels ran, in order: {@code tag * 1000 + block}. */
    private final List<Integer> ran = Collections.synchronizedList(new ArrayList<>());

    private final FakeKernel gate = FakeKernel.of("gate", (f, bx, by, bz) -> {
        gateEntered.countDown();
        try {
            if (!gateOpen.await(60, TimeUnit.SECONDS)) {
                throw new KernelFault(CudaError.LAUNCH_TIMEOUT, "gate was never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    });

    /** {@code record(int tag)}: appends {@code tag * 1000 + blockIdx.x} to {@link #ran}. */
    private final FakeKernel record = FakeKernel.of("record",
            (f, bx, by, bz) -> ran.add(FakeKernels.intArg(f, 0) * 1000 + bx), scalar("tag", ElementType.INT32));

    private final List<CpuDevice> devices = new ArrayList<>();

    @AfterEach
    void closeDevices() {
        gateOpen.countDown();
        devices.forEach(CpuDevice::close);
    }

    private CpuDevice oneWorker(Chaos chaos) {
        CpuDevice d = chaos == null ? new CpuDevice(1, FakeKernels.compiler(gate, record))
                : new CpuDevice(1, FakeKernels.compiler(gate, record), chaos);
        devices.add(d);
        return d;
    }

    private static KernelFunction kernel(Device d, String name) {
        return d.compile("/* " + name + " */", name + ".cu").function(name);
    }

    private static void launchRecord(Device d, Stream s, int tag) {
        s.launch(kernel(d, "record"), LaunchConfig.of(BLOCKS, 1), KernelArgs.builder().i32(tag).build());
    }

    /** Launches the gate on {@code g} and waits until it holds the device's only worker. */
    private void holdTheWorker(CpuDevice d, Stream g) {
        gateOpen = new CountDownLatch(1);
        gateEntered = new CountDownLatch(1);
        g.launch(kernel(d, "gate"), LaunchConfig.of(1, 1), KernelArgs.builder().build());
        try {
            assertTrue(gateEntered.await(30, TimeUnit.SECONDS), "the gate started");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertEquals(0, d.pool().queuedTasks(), "tasks queued while the gate holds the worker");
    }

    /**
     * Waits (up to 30 s) until {@code condition} holds, looking every millisecond: a busy loop would take a core
     * from the threads it waits for on a small machine.
     */
    private static void await(BooleanSupplier condition, String what) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out (30 s) waiting until " + what);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** The tags of {@link #ran}, in the order their blocks ran. */
    private List<Integer> tags() {
        synchronized (ran) {
            return ran.stream().map(x -> x / 1000).toList();
        }
    }

    @Test
    void theRangeIsARecentGpusAndPrioritiesAreClampedIntoIt() {
        CpuDevice d = oneWorker(null);
        assertEquals(new StreamPriorities(0, -5), d.streamPriorities());
        assertEquals(6, d.streamPriorities().levels());
        assertEquals(0, d.defaultStream().priority());
        assertEquals(0, d.createStream().priority());
        assertEquals(-3, d.createStream(-3).priority());
        assertEquals(-5, d.createStream(-100).priority());
        assertEquals(0, d.createStream(7).priority());
        assertEquals(-5, d.createStream(Integer.MIN_VALUE).priority());
    }

    @Test
    void theRangeRecordChecksItsOrderAndMapsLevels() {
        assertThrows(IllegalArgumentException.class, () -> new StreamPriorities(-5, 0));
        StreamPriorities cuda = new StreamPriorities(0, -5);
        assertEquals(0, cuda.priorityOfLevel(0));
        assertEquals(-5, cuda.priorityOfLevel(5));
        assertEquals(-5, cuda.priorityOfLevel(9));
        assertEquals(-2, cuda.priorityOfLevel(2));
        assertEquals(0, StreamPriorities.NONE.priorityOfLevel(3));
        assertEquals(1, StreamPriorities.NONE.levels());
        assertEquals(-1, new StreamPriorities(0, -1).clamp(-4));
    }

    @Test
    void aDeviceWithoutPrioritiesCreatesPlainStreamsAndOneThatClaimsThemMustOverride() {
        CpuDevice d = oneWorker(null);
        Device plain = new ForwardingDevice(d, StreamPriorities.NONE);
        Stream s = plain.createStream(-4);
        assertEquals(0, s.priority());
        s.close();
        Device claims = new ForwardingDevice(d, new StreamPriorities(0, -2));
        DeviceException e = assertThrows(DeviceException.class, () -> claims.createStream(-1));
        assertEquals(CudaError.NOT_SUPPORTED, e.error());
    }

    @Test
    void aHighPriorityLaunchQueuedBehindLowPriorityOnesStartsItsBlocksFirst() {
        runPriorityOrder(null);
    }

    @Test
    void inChaosModeHighPriorityStillGoesFirstAndEveryBlockRunsOnce() {
        for (long seed = 1; seed <= 4; seed++) {
            ran.clear();
            runPriorityOrder(new Chaos(seed, 100));
        }
    }

    /**
     * One worker held by a gate; two launches on priority-0 streams and then one on a priority -5 stream queue
     * behind it. Once the gate opens, every block of the high-priority launch runs before any further block of
     * the others, and every block of each runs exactly once.
     */
    private void runPriorityOrder(Chaos chaos) {
        CpuDevice d = oneWorker(chaos);
        Stream g = d.createStream();
        Stream low1 = d.createStream(0);
        Stream low2 = d.createStream(0);
        Stream high = d.createStream(-5);
        holdTheWorker(d, g);
        launchRecord(d, low1, 1);
        launchRecord(d, low2, 2);
        await(() -> d.pool().queuedTasks() == 2, "both low-priority launches wait for the worker");
        launchRecord(d, high, 3);
        await(() -> d.pool().queuedTasks() == 3, "the high-priority launch waits for the worker");
        assertTrue(ran.isEmpty(), "nothing ran while the gate held the only worker");
        gateOpen.countDown();
        d.synchronize();
        List<Integer> tags = tags();
        assertEquals(3 * BLOCKS, tags.size(), "blocks run: " + tags);
        assertEquals(List.of(3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3), tags.subList(0, BLOCKS),
                "the high-priority launch's blocks came first: " + tags);
        List<Integer> sorted;
        synchronized (ran) {
            sorted = new ArrayList<>(ran);
        }
        sorted.sort(Comparator.naturalOrder());
        List<Integer> expected = new ArrayList<>();
        for (int tag = 1; tag <= 3; tag++) {
            for (int b = 0; b < BLOCKS; b++) {
                expected.add(tag * 1000 + b);
            }
        }
        assertEquals(expected, sorted, "every block of every launch exactly once");
    }

    @Test
    void launchesOfEqualPriorityStillTakeTurnsChunkByChunk() {
        for (int priority : new int[] {0, -5}) {
            ran.clear();
            CpuDevice d = oneWorker(null);
            Stream g = d.createStream();
            Stream a = d.createStream(priority);
            Stream b = d.createStream(priority);
            holdTheWorker(d, g);
            launchRecord(d, a, 1);
            await(() -> d.pool().queuedTasks() == 1, "the first launch waits for the worker");
            launchRecord(d, b, 2);
            await(() -> d.pool().queuedTasks() == 2, "the second launch waits for the worker");
            gateOpen.countDown();
            d.synchronize();
            List<Integer> tags = tags();
            // One worker, 8 chunks per launch of 16 blocks: chunks of 2, first launch a, then b, in turns.
            List<Integer> turns = new ArrayList<>();
            for (int chunk = 0; chunk < 8; chunk++) {
                turns.addAll(List.of(1, 1, 2, 2));
            }
            assertEquals(turns, tags, "priority " + priority + ": chunks in turns");
        }
    }

    @Test
    void thePoolTakesHigherPrioritiesFirstAndEqualOnesInOrder() throws InterruptedException {
        checkPoolOrder(null);
    }

    @Test
    void inChaosModeThePoolKeepsPrioritiesAndShufflesEqualOnes() throws InterruptedException {
        List<int[]> order = checkPoolOrder(new Chaos(7, 0));
        // Among equal priorities the order is random: with 200 tasks over 6 priorities, some pair is inverted.
        boolean inverted = false;
        for (int i = 1; i < order.size(); i++) {
            inverted |= order.get(i)[0] == order.get(i - 1)[0] && order.get(i)[1] < order.get(i - 1)[1];
        }
        assertTrue(inverted, "chaos mode ran every priority's tasks first in first out");
    }

    /**
     * Queues 200 tasks of random priorities behind a task that holds the pool's only worker, and checks that
     * they run by priority (numerically lower first) and, without chaos, first in first out among equals.
     *
     * @return the (priority, submission index) pairs in the order they ran
     */
    private static List<int[]> checkPoolOrder(Chaos chaos) throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "priority-test-worker-", chaos);
        try {
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch finished = new CountDownLatch(200);
            List<int[]> order = Collections.synchronizedList(new ArrayList<>());
            pool.execute(() -> {
                holding.countDown();
                try {
                    gate.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, 0);
            assertTrue(holding.await(30, TimeUnit.SECONDS), "the gate task started");
            Random random = new Random(11);
            List<int[]> submitted = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int[] task = {-random.nextInt(6), i};
                submitted.add(task);
                pool.execute(() -> {
                    order.add(task);
                    finished.countDown();
                }, task[0]);
            }
            gate.countDown();
            assertTrue(finished.await(30, TimeUnit.SECONDS), "tasks finished");
            List<int[]> byPriority = new ArrayList<>(submitted);
            // A stable sort: equal priorities keep their submission order.
            byPriority.sort(Comparator.comparingInt(t -> t[0]));
            if (chaos == null) {
                assertEquals(byPriority, order, "by priority, then first in first out");
            } else {
                for (int i = 0; i < 200; i++) {
                    assertEquals(byPriority.get(i)[0], order.get(i)[0], "priority of the task run " + i + "th");
                }
                List<int[]> once = new ArrayList<>(order);
                once.sort(Comparator.comparingInt(t -> t[1]));
                assertEquals(submitted, once, "every task exactly once");
                assertNotEquals(byPriority, order, "chaos changed nothing");
            }
            return order;
        } finally {
            pool.shutdown();
        }
    }

    /**
     * A device that forwards everything to another but reports {@code range} and does not override
     * {@link Device#createStream(int)}: what the SPI's defaults do for a backend.
     */
    private record ForwardingDevice(Device inner, StreamPriorities range) implements Device {
        @Override
        public StreamPriorities streamPriorities() {
            return range;
        }

        @Override
        public int ordinal() {
            return inner.ordinal();
        }

        @Override
        public String backend() {
            return "forwarding";
        }

        @Override
        public dev.polygpu.device.DeviceProperties properties() {
            return inner.properties();
        }

        @Override
        public long allocatedBytes() {
            return inner.allocatedBytes();
        }

        @Override
        public dev.polygpu.device.UnifiedBuffer allocate(long bytes) {
            return inner.allocate(bytes);
        }

        @Override
        public long freeMemory() {
            return inner.freeMemory();
        }

        @Override
        public dev.polygpu.device.Module compile(String source, String fileName) {
            return inner.compile(source, fileName);
        }

        @Override
        public Stream defaultStream() {
            return inner.defaultStream();
        }

        @Override
        public Stream createStream() {
            return inner.createStream();
        }

        @Override
        public dev.polygpu.device.Event createEvent(boolean timing) {
            return inner.createEvent(timing);
        }

        @Override
        public void synchronize() {
            inner.synchronize();
        }

        @Override
        public void close() {
            // The inner device is the test's to close.
        }
    }
}
