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
 * <p>The timed tests read the clock because waiting is what is under test. A grid of {@code G} blocks that
 * each sleep {@code T} on a device running {@code N} at once cannot finish before {@code ceil(G / N) * T}
 * (sleeps wait for absolute deadlines), so those lower bounds never fail by chance; the upper bounds are half
 * of what running the blocks one after another would take, far above the expected time.
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
        // 8 blocks of 100 ms: 4 rounds with 2 at once (>= 400 ms), 1 round with 8 (well under the 800 ms serial).
        assertBetween(400 * MS, Long.MAX_VALUE, napGrid(2, 8, 100), "8 blocks of 100 ms, 2 at once");
        assertBetween(100 * MS, 400 * MS, napGrid(8, 8, 100), "8 blocks of 100 ms, 8 at once");
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
            assertBetween(200 * MS, 400 * MS, System.nanoTime() - start, "2 streams x 4 blocks of 100 ms, 4 at once");
            assertAllMarked(out, 8 * THREADS);
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

    private static void assertBetween(long lowNanos, long highNanos, long took, String what) {
        assertTrue(took >= lowNanos && took < highNanos, what + " took " + took / MS + " ms; expected from "
                + lowNanos / MS + " ms" + (highNanos == Long.MAX_VALUE ? "" : " to under " + highNanos / MS + " ms"));
    }
}
