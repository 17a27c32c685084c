package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.DeviceProperties;
import dev.polygpu.device.Event;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.StreamPriorities;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Stream priorities in the scheduler: elements go on streams whose priority level follows their rank relative
 * to the lowest rank on the device's streams ({@link PriorityLevels}), children continue a parent's stream only
 * at the same level, and the stream limit is kept. Each test holds the CPU device's only worker with a gate,
 * so that nothing on the streams completes until it opens the gate. It waits until the gate's block runs
 * ({@link #hold}) before it submits more: a block of a higher-priority stream would otherwise take the worker
 * first, complete, and free its stream while the test still counts it as in flight.
 */
class SchedulerPriorityTest {
    private static final int N = SchedulerTest.N;

    private final CpuDevice cpu = new CpuDevice(1);
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
        cpu.close();
    }

    /** The CPU device as the scheduler sees it, reporting {@code range} and recording every stream it creates. */
    private static final class RecordingDevice implements Device {
        final CpuDevice inner;
        final StreamPriorities range;
        /** Stream id → the priority it was created with (0 for {@link #createStream()}). */
        final Map<Integer, Integer> priorities = new HashMap<>();
        int createdWithPriority;
        int created;

        RecordingDevice(CpuDevice inner, StreamPriorities range) {
            this.inner = inner;
            this.range = range;
        }

        @Override
        public StreamPriorities streamPriorities() {
            return range;
        }

        @Override
        public synchronized Stream createStream(int priority) {
            createdWithPriority++;
            created++;
            Stream s = inner.createStream(priority);
            priorities.put(s.id(), s.priority());
            return s;
        }

        @Override
        public synchronized Stream createStream() {
            created++;
            Stream s = inner.createStream();
            priorities.put(s.id(), 0);
            return s;
        }

        synchronized int priorityOf(int streamId) {
            return priorities.get(streamId);
        }

        @Override
        public int ordinal() {
            return 0;
        }

        @Override
        public String backend() {
            return inner.backend();
        }

        @Override
        public DeviceProperties properties() {
            return inner.properties();
        }

        @Override
        public long allocatedBytes() {
            return inner.allocatedBytes();
        }

        @Override
        public UnifiedBuffer allocate(long bytes) {
            return inner.allocate(bytes);
        }

        @Override
        public long freeMemory() {
            return inner.freeMemory();
        }

        @Override
        public Module compile(String source, String fileName) {
            return inner.compile(source, fileName);
        }

        @Override
        public Stream defaultStream() {
            return inner.defaultStream();
        }

        @Override
        public Event createEvent(boolean timing) {
            return inner.createEvent(timing);
        }

        @Override
        public void synchronize() {
            inner.synchronize();
        }

        @Override
        public void close() {
            // The test closes the CPU device.
        }
    }

    /** The stream each element was launched on, by id. */
    private static final class Launches implements ScheduleObserver {
        final Map<Long, Integer> streams = new HashMap<>();

        @Override
        public synchronized void launched(long id, String deviceName, int streamId, long nanos) {
            streams.put(id, streamId);
        }

        synchronized int streamOf(long id) {
            return streams.get(id);
        }

        synchronized boolean launched(long id) {
            return streams.containsKey(id);
        }
    }

    private UnifiedBuffer flag() {
        UnifiedBuffer f = cpu.allocate(8);
        flags.add(f);
        return f;
    }

    /** Submits a gate on {@code flag} and returns once its block holds the device's only worker. */
    private static void hold(Scheduler s, TestKernels k, UnifiedBuffer flag, TrackedArray x) {
        s.submit(k.hold(flag, x));
        TestKernels.awaitHolding(flag);
    }

    private Scheduler scheduler(Device d, SchedulerConfig config, Launches launches) {
        Scheduler s = new Scheduler(d, config);
        schedulers.add(s);
        s.addObserver(launches);
        return s;
    }

    /** The level by the definition: one less than the smallest e with lowest * 2^e >= rank, in 0 to 5. */
    private static int expectedLevel(int rank, int lowest) {
        int e = 0;
        while ((double) lowest * Math.pow(2, e) < rank) {
            e++;
        }
        return Math.max(0, Math.min(5, e - 1));
    }

    private static void awaitAll(List<CompletableFuture<DeviceException>> done) throws Exception {
        for (CompletableFuture<DeviceException> f : done) {
            assertNull(f.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void elementsGoOnStreamsOfTheLevelTheirRankGivesAboveTheLowestOnTheStreams() throws Exception {
        RecordingDevice d = new RecordingDevice(cpu, cpu.streamPriorities());
        TestKernels k = new TestKernels(d);
        Launches launches = new Launches();
        Scheduler s = scheduler(d, SchedulerConfig.DEFAULT.withInFlightWindow(16), launches);
        UnifiedBuffer flag = flag();
        TrackedArray g = k.array(s, "g");
        hold(s, k, flag, g); // element 1, rank 1, holds the only worker
        int[] ranks = {1, 5, 100, 3, 9, 2, 64, 33};
        List<TrackedArray> arrays = new ArrayList<>();
        List<CompletableFuture<DeviceException>> done = new ArrayList<>();
        for (int i = 0; i < ranks.length; i++) {
            TrackedArray a = k.array(s, "a" + i);
            arrays.add(a);
            CompletableFuture<DeviceException> f = new CompletableFuture<>();
            done.add(f);
            s.submitHere(k.inc(a), ranks[i], f::complete); // elements 2 ..
        }
        for (int i = 0; i < ranks.length; i++) {
            int stream = launches.streamOf(2 + i);
            // The gate (rank 1) is on the streams all along: every level is relative to rank 1.
            assertEquals(-expectedLevel(ranks[i], 1), d.priorityOf(stream), "rank " + ranks[i]);
        }
        assertEquals(0, d.priorityOf(launches.streamOf(1)), "the gate");
        // A child of the rank-100 element (level 5) ranking 99 is at level 5 too: it continues its parent's stream.
        CompletableFuture<DeviceException> same = new CompletableFuture<>();
        done.add(same);
        s.submitHere(k.inc(arrays.get(2)), 99, same::complete);
        long sameId = 2 + ranks.length;
        assertEquals(launches.streamOf(4), launches.streamOf(sameId), "a child at its parent's level");
        // A plain child of the rank-9 element (level 3) ranks 1, level 0: it goes on a stream of level 0.
        s.submit(k.inc(arrays.get(4)));
        long otherId = sameId + 1;
        assertNotEquals(launches.streamOf(6), launches.streamOf(otherId), "a child at another level");
        assertEquals(0, d.priorityOf(launches.streamOf(otherId)));
        flag.setInt(0, 1);
        s.synchronize();
        awaitAll(done);
        int[] expected = new int[N];
        int[] twice = new int[N];
        Arrays.fill(expected, 1);
        Arrays.fill(twice, 2);
        for (int i = 0; i < ranks.length; i++) {
            assertArrayEquals(i == 2 || i == 4 ? twice : expected, TestKernels.ints(arrays.get(i)), "a" + i);
        }
    }

    /**
     * A window of 2 filled by two local rank-1 elements (the gate holds the only worker), then three elements
     * handed here as stolen: rank 1 (id 3, level 0), rank 100 (id 4, level 5), rank 100 (id 5). Returns which of
     * 3, 4 and 5 went on the streams before the gate opened, after checking every result.
     */
    private boolean[] stolenBeyondAFullWindow(StreamPriorities range, int overflow, long expectOverflowed)
            throws Exception {
        RecordingDevice d = new RecordingDevice(cpu, range);
        TestKernels k = new TestKernels(d);
        Launches launches = new Launches();
        Scheduler s = scheduler(d, SchedulerConfig.DEFAULT.withInFlightWindow(2).withStolenOverflow(overflow),
                launches);
        UnifiedBuffer flag = flag();
        TrackedArray g = k.array(s, "g");
        TrackedArray local = k.array(s, "local");
        hold(s, k, flag, g); // element 1
        s.submit(k.inc(local)); // element 2: the window is full
        assertEquals(2, s.stats().inFlight());
        int[] ranks = {1, 100, 100};
        List<TrackedArray> arrays = new ArrayList<>();
        List<CompletableFuture<DeviceException>> done = new ArrayList<>();
        for (int i = 0; i < ranks.length; i++) {
            TrackedArray a = k.array(s, "stolen" + i);
            arrays.add(a);
            CompletableFuture<DeviceException> f = new CompletableFuture<>();
            done.add(f);
            s.submitHere(k.inc(a), ranks[i], f::complete); // elements 3, 4, 5
        }
        boolean[] launched = {launches.launched(3), launches.launched(4), launches.launched(5)};
        assertEquals(expectOverflowed, s.stats().overflowed(), "overflowed: " + s.stats());
        assertEquals(2 + expectOverflowed, s.stats().inFlight(), "in flight: " + s.stats());
        flag.setInt(0, 1);
        s.synchronize();
        awaitAll(done);
        int[] one = new int[N];
        Arrays.fill(one, 1);
        assertArrayEquals(one, TestKernels.ints(local), "local");
        for (int i = 0; i < ranks.length; i++) {
            assertArrayEquals(one, TestKernels.ints(arrays.get(i)), "stolen" + i);
        }
        assertEquals(0, s.stats().outstanding());
        return launched;
    }

    @Test
    void aStolenHighRankElementGoesOnTheStreamsBeyondAFullWindowWithTheOverflowOn() throws Exception {
        boolean[] launched = stolenBeyondAFullWindow(cpu.streamPriorities(), 1, 1);
        assertArrayEquals(new boolean[] {false, true, false}, launched,
                "level 0 waits; the first rank-100 element goes on; the second finds the overflow full");
    }

    @Test
    void withoutTheOverflowAStolenElementWaitsForTheWindow() throws Exception {
        assertArrayEquals(new boolean[] {false, false, false},
                stolenBeyondAFullWindow(cpu.streamPriorities(), 0, 0));
    }

    @Test
    void theOverflowTakesStolenElementsOnlyWhileItHasRoomAndNeedsLevelsAboveZero() throws Exception {
        assertArrayEquals(new boolean[] {false, true, true},
                stolenBeyondAFullWindow(cpu.streamPriorities(), 2, 2), "two beyond");
        assertArrayEquals(new boolean[] {false, false, false},
                stolenBeyondAFullWindow(StreamPriorities.NONE, 1, 0), "no priorities, no levels above 0");
    }

    @Test
    void aLocalHighRankElementNeverOverflows() throws Exception {
        RecordingDevice d = new RecordingDevice(cpu, cpu.streamPriorities());
        TestKernels k = new TestKernels(d);
        Launches launches = new Launches();
        Scheduler s = scheduler(d, SchedulerConfig.DEFAULT.withInFlightWindow(2).withStolenOverflow(1), launches);
        UnifiedBuffer flag = flag();
        hold(s, k, flag, k.array(s, "g")); // element 1
        s.submit(k.inc(k.array(s, "local"))); // element 2: the window is full
        TrackedArray chain = k.array(s, "chain");
        for (int i = 0; i < 8; i++) {
            s.submit(k.inc(chain)); // elements 3 to 10: the head ranks 8, level 2, but it is not stolen
        }
        assertTrue(!launches.launched(3), "a local head stays in the window's queue");
        assertEquals(0, s.stats().overflowed());
        flag.setInt(0, 1);
        s.synchronize();
        int[] eight = new int[N];
        Arrays.fill(eight, 8);
        assertArrayEquals(eight, TestKernels.ints(chain));
    }

    @Test
    void aDeviceWithoutPrioritiesGetsPlainStreams() throws Exception {
        RecordingDevice d = new RecordingDevice(cpu, StreamPriorities.NONE);
        TestKernels k = new TestKernels(d);
        Launches launches = new Launches();
        Scheduler s = scheduler(d, SchedulerConfig.DEFAULT.withInFlightWindow(16), launches);
        UnifiedBuffer flag = flag();
        hold(s, k, flag, k.array(s, "g"));
        List<CompletableFuture<DeviceException>> done = new ArrayList<>();
        for (int rank : new int[] {1, 50, 1000}) {
            CompletableFuture<DeviceException> f = new CompletableFuture<>();
            done.add(f);
            s.submitHere(k.inc(k.array(s, "r" + rank)), rank, f::complete);
        }
        flag.setInt(0, 1);
        s.synchronize();
        awaitAll(done);
        assertEquals(0, d.createdWithPriority, "streams created with a priority");
        assertTrue(d.created >= 2, "streams created: " + d.created);
    }

    @Test
    void atTheStreamLimitAFreeStreamOfAnotherLevelIsReplacedAndBusyOnesAreShared() throws Exception {
        RecordingDevice d = new RecordingDevice(cpu, cpu.streamPriorities());
        TestKernels k = new TestKernels(d);
        Launches launches = new Launches();
        Scheduler s = scheduler(d, SchedulerConfig.DEFAULT.withInFlightWindow(16).withMaxStreams(2), launches);
        UnifiedBuffer first = flag();
        hold(s, k, first, k.array(s, "g1")); // element 1: level 0
        CompletableFuture<DeviceException> c = new CompletableFuture<>();
        s.submitHere(k.inc(k.array(s, "c")), 9, c::complete); // element 2: level 3
        int levelThree = launches.streamOf(2);
        assertEquals(-3, d.priorityOf(levelThree));
        first.setInt(0, 1);
        s.synchronize();
        assertNull(c.get(30, TimeUnit.SECONDS));
        assertEquals(2, s.stats().streams());
        // Both streams are free now: one of level 0, one of level 3.
        UnifiedBuffer second = flag();
        hold(s, k, second, k.array(s, "g2")); // element 3: reuses the level-0 stream
        assertEquals(launches.streamOf(1), launches.streamOf(3));
        CompletableFuture<DeviceException> e = new CompletableFuture<>();
        s.submitHere(k.inc(k.array(s, "e")), 5, e::complete); // element 4: level 2, replaces the level-3 stream
        int levelTwo = launches.streamOf(4);
        assertEquals(-2, d.priorityOf(levelTwo));
        assertNotEquals(levelThree, levelTwo);
        assertEquals(2, s.stats().streams(), "streams held at the limit");
        CompletableFuture<DeviceException> f = new CompletableFuture<>();
        s.submitHere(k.inc(k.array(s, "f")), 17, f::complete); // element 5: level 4, no stream free: shares one
        int shared = launches.streamOf(5);
        assertTrue(shared == launches.streamOf(3) || shared == levelTwo, "shared stream " + shared);
        assertEquals(2, s.stats().streams(), "streams held at the limit");
        second.setInt(0, 1);
        s.synchronize();
        assertNull(e.get(30, TimeUnit.SECONDS));
        assertNull(f.get(30, TimeUnit.SECONDS));
    }
}
