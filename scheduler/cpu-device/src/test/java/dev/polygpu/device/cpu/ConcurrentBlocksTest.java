package dev.polygpu.device.cpu;

import static dev.polygpu.device.cpu.DeviceConformanceTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.kernel.KernelEngine;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How many blocks a CPU device runs at once: the constructor's count, reported as multiprocessors, shared by
 * all streams, independent of the cores when blocks sleep in {@code __nanosleep}, and checked.
 *
 * <p>How many run at once is counted, not timed: in {@link #MEET} each block waits until the other blocks of its
 * round have arrived, so on a device that runs {@code N} at once the {@code N} blocks of a round are all running
 * at one moment however late the machine starts their threads, and a counter of running blocks reaches exactly
 * {@code N} (one that ran more at once would count more; one that ran fewer would leave blocks waiting in vain).
 * The timed tests read the clock only for lower bounds, which never fail by chance: a grid of {@code G} blocks
 * that each sleep {@code T} on a device running {@code N} at once cannot finish before {@code ceil(G / N) * T}
 * (sleeps wait for absolute deadlines). An upper bound on the time would fail on a loaded machine.
 */
@Timeout(60)
class ConcurrentBlocksTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** {@code nap(int *out, unsigned ms)}: every thread sleeps {@code ms} milliseconds, then marks its slot. */
    private static final String NAP = """
            __global__ void nap(int *out, unsigned ms) {
                for (unsigned i = 0; i < ms; i++) {
                    __nanosleep(1000000);
                }
                out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
            }
            """;
    private static final int THREADS = 32;
    /**
     * {@code meet(int *state, unsigned n, unsigned maxMs)}, one thread per block: {@code state[0]} counts the
     * blocks that arrived, {@code state[1]} those running now, {@code state[2]} is the most that ran at once and
     * {@code state[3]} counts the blocks that waited {@code maxMs} in vain. A block counts itself running, takes
     * a ticket, and waits until the {@code n} blocks of its round (tickets {@code r * n} to {@code r * n + n - 1})
     * have arrived: none of them can leave before the last one counted itself, so all {@code n} run at once.
     */
    private static final String MEET = """
            __global__ void meet(int *state, unsigned n, unsigned maxMs) {
                int now = atomicAdd(&state[1], 1) + 1;
                atomicMax(&state[2], now);
                unsigned ticket = atomicAdd(&state[0], 1);
                int roundEnd = (int) ((ticket / n + 1) * n);
                for (unsigned waited = 0; atomicAdd(&state[0], 0) < roundEnd; waited++) {
                    if (waited == maxMs) {
                        atomicAdd(&state[3], 1);
                        break;
                    }
                    __nanosleep(1000000);
                }
                atomicSub(&state[1], 1);
            }
            """;
    /** How long a block of {@link #MEET} waits for the others of its round: far longer than a loaded machine needs. */
    private static final int MEET_WAIT_MS = 20_000;

    @Test
    void theCountIsTheWorkerThreadsAndTheMultiprocessors() {
        try (CpuDevice d = new CpuDevice(64)) {
            assertEquals(64, d.concurrentBlocks());
            assertEquals(64, d.properties().multiProcessorCount());
        }
        try (CpuDevice d = new CpuDevice(3, new Chaos(7, 10))) {
            assertEquals(3, d.concurrentBlocks());
            assertEquals(3, d.properties().multiProcessorCount());
            assertTrue(d.chaos().isPresent());
        }
        try (CpuDevice d = new CpuDevice()) {
            assertEquals(CpuDevice.defaultConcurrentBlocks(), d.concurrentBlocks());
            assertEquals(Runtime.getRuntime().availableProcessors(), CpuDevice.defaultConcurrentBlocks());
        }
    }

    @Test
    void countsOutsideTheRangeAreRejectedNamingIt() {
        List<IntFunction<CpuDevice>> constructors = List.of(
                CpuDevice::new,
                n -> new CpuDevice(n, new Chaos(1, 10)),
                n -> new CpuDevice(n, KernelEngine::compile),
                n -> new CpuDevice(n, KernelEngine::compile, new Chaos(1, 10)));
        for (IntFunction<CpuDevice> constructor : constructors) {
            for (int bad : new int[] {0, -1, CpuDevice.MAX_CONCURRENT_BLOCKS + 1, Integer.MIN_VALUE}) {
                String message = assertThrows(IllegalArgumentException.class, () -> constructor.apply(bad))
                        .getMessage();
                assertContains(message, "concurrentBlocks");
                assertContains(message, "must be between 1 and " + CpuDevice.MAX_CONCURRENT_BLOCKS + ", got " + bad);
            }
        }
    }

    @Test
    void aGridTakesRoundsOfConcurrentBlocks() {
        // 8 blocks of 100 ms: 4 rounds with 2 at once (>= 400 ms), 1 round with 8 (>= 100 ms).
        assertAtLeast(400 * MS, napGrid(2, 8, 100), "8 blocks of 100 ms, 2 at once");
        assertAtLeast(100 * MS, napGrid(8, 8, 100), "8 blocks of 100 ms, 8 at once");
        // Counted: 2 at a time in 4 rounds, and all 8 at once in one.
        assertMetInRounds(2, meetGrid(2, 8), 8);
        assertMetInRounds(8, meetGrid(8, 8), 8);
    }

    @Test
    void streamsShareTheConcurrentBlocks() {
        // Two streams with 4 blocks of 100 ms each on a device running 4 at once: two rounds, not one.
        try (CpuDevice d = new CpuDevice(4)) {
            KernelFunction nap = d.compile(NAP, "nap.cu").function("nap");
            UnifiedBuffer out = d.allocate(4L * 8 * THREADS);
            Stream a = d.createStream();
            Stream b = d.createStream();
            long start = System.nanoTime();
            a.launch(nap, LaunchConfig.of(4, THREADS), KernelArgs.builder().pointer(out).u32(100).build());
            b.launch(nap, LaunchConfig.of(4, THREADS), KernelArgs.builder().pointer(out, 4L * 4 * THREADS)
                    .u32(100).build());
            a.synchronize();
            b.synchronize();
            assertAtLeast(200 * MS, System.nanoTime() - start, "2 streams x 4 blocks of 100 ms, 4 at once");
            assertAllMarked(out, 8 * THREADS);
        }
        // Counted: the blocks of both streams together meet in rounds of 4, never more at once (8 if each
        // stream had 4 of its own); and with 2 blocks per stream a round of 4 needs both streams running at once.
        try (CpuDevice d = new CpuDevice(4)) {
            KernelFunction meet = d.compile(MEET, "meet.cu").function("meet");
            UnifiedBuffer state = zeroedState(d);
            Stream a = d.createStream();
            Stream b = d.createStream();
            a.launch(meet, LaunchConfig.of(4, 1), KernelArgs.builder().pointer(state).u32(4).u32(MEET_WAIT_MS).build());
            b.launch(meet, LaunchConfig.of(4, 1), KernelArgs.builder().pointer(state).u32(4).u32(MEET_WAIT_MS).build());
            a.synchronize();
            b.synchronize();
            assertMetInRounds(4, readState(state), 8);
            state = zeroedState(d);
            a.launch(meet, LaunchConfig.of(2, 1), KernelArgs.builder().pointer(state).u32(4).u32(MEET_WAIT_MS).build());
            b.launch(meet, LaunchConfig.of(2, 1), KernelArgs.builder().pointer(state).u32(4).u32(MEET_WAIT_MS).build());
            a.synchronize();
            b.synchronize();
            assertMetInRounds(4, readState(state), 4);
        }
    }

    @Test
    void sleepingBlocksLeaveTheCoresFree() {
        // 8 blocks sleeping 200 ms side by side are 1.6 s of device time; burning a core each would cost 1.6 s
        // of CPU time. Parked workers cost next to none (the bound leaves room for the JIT and the collector).
        com.sun.management.OperatingSystemMXBean os =
                ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean o
                        ? o : null;
        assumeTrue(os != null && os.getProcessCpuTime() >= 0, "this JVM does not report the process's CPU time");
        try (CpuDevice d = new CpuDevice(8)) {
            KernelFunction nap = d.compile(NAP, "nap.cu").function("nap");
            UnifiedBuffer out = d.allocate(4L * 8 * THREADS);
            Stream s = d.defaultStream();
            s.launch(nap, LaunchConfig.of(8, THREADS), KernelArgs.builder().pointer(out).u32(1).build());
            s.synchronize();
            long cpuBefore = os.getProcessCpuTime();
            long start = System.nanoTime();
            s.launch(nap, LaunchConfig.of(8, THREADS), KernelArgs.builder().pointer(out).u32(200).build());
            s.synchronize();
            long wall = System.nanoTime() - start;
            long cpu = os.getProcessCpuTime() - cpuBefore;
            assertTrue(wall >= 200 * MS, "the kernel took " + wall / MS + " ms, less than its 200 ms of sleep");
            assertTrue(cpu < 800 * MS, "8 sleeping blocks used " + cpu / MS + " ms of CPU time in " + wall / MS
                    + " ms; sleeping should not burn cores");
        }
    }

    /** Runs {@code G} blocks that each sleep {@code ms} on a device running {@code n} at once; nanoseconds. */
    private static long napGrid(int n, int blocks, int ms) {
        try (CpuDevice d = new CpuDevice(n)) {
            KernelFunction nap = d.compile(NAP, "nap.cu").function("nap");
            UnifiedBuffer out = d.allocate(4L * blocks * THREADS);
            Stream s = d.defaultStream();
            long start = System.nanoTime();
            s.launch(nap, LaunchConfig.of(blocks, THREADS), KernelArgs.builder().pointer(out).u32(ms).build());
            s.synchronize();
            long took = System.nanoTime() - start;
            assertAllMarked(out, blocks * THREADS);
            return took;
        }
    }

    private static void assertAllMarked(UnifiedBuffer out, int n) {
        for (int i = 0; i < n; i++) {
            assertEquals(1, out.getInt(i), "out[" + i + "]");
        }
    }

    /**
     * Runs {@link #MEET} as a grid of {@code blocks} one-thread blocks on a device running {@code n} at once, in
     * rounds of {@code n}; returns its state: arrived, running at the end, most at once, waited in vain.
     */
    private static int[] meetGrid(int n, int blocks) {
        try (CpuDevice d = new CpuDevice(n)) {
            KernelFunction meet = d.compile(MEET, "meet.cu").function("meet");
            UnifiedBuffer state = zeroedState(d);
            Stream s = d.defaultStream();
            s.launch(meet, LaunchConfig.of(blocks, 1), KernelArgs.builder().pointer(state).u32(n).u32(MEET_WAIT_MS)
                    .build());
            s.synchronize();
            return readState(state);
        }
    }

    private static UnifiedBuffer zeroedState(CpuDevice d) {
        UnifiedBuffer state = d.allocate(16);
        for (int i = 0; i < 4; i++) {
            state.setInt(i, 0);
        }
        return state;
    }

    private static int[] readState(UnifiedBuffer state) {
        return new int[] {state.getInt(0), state.getInt(1), state.getInt(2), state.getInt(3)};
    }

    /** Every one of {@code blocks} blocks arrived, met the others of its round, and {@code n} ran at once at most. */
    private static void assertMetInRounds(int n, int[] state, int blocks) {
        String what = blocks + " blocks in rounds of " + n + ": arrived " + state[0] + ", running at the end "
                + state[1] + ", most at once " + state[2] + ", waited in vain " + state[3];
        assertEquals(blocks, state[0], what);
        assertEquals(0, state[1], what);
        assertEquals(0, state[3], what + " (fewer than " + n + " ran at once)");
        assertEquals(n, state[2], what);
    }

    private static void assertAtLeast(long lowNanos, long took, String what) {
        assertTrue(took >= lowNanos, what + " took " + took / MS + " ms; expected at least " + lowNanos / MS + " ms");
    }
}
