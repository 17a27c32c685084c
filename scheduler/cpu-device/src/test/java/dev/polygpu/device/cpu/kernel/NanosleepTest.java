package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code __nanosleep} in kernels run by the CPU device: every thread waits, the threads of a block wait side by
 * side (a block takes about one thread's sleep, not the sum), barriers and warp intrinsics order sleeps as on a
 * GPU, and one call sleeps at most about a millisecond.
 *
 * <p>These tests read the clock, which tests here otherwise do not: sleeping is what is under test. The lower
 * bounds cannot fail by chance, because a sleep waits for an absolute deadline, and every run must keep them.
 * The upper bounds are at least ten times the expected time and still far below what a sleep per thread one
 * after another would take; a loaded machine can still stall a run past one (the thread that sleeps is not
 * given a core in time), so a run over it is tried again, up to {@link #TRIES} runs, and one must come in under
 * it. That does not weaken the check: a wrong implementation's sleeps, one after another, wait for absolute
 * deadlines too, so each of its runs takes at least that long. The device runs one block at a time, so only
 * the threads of a block can overlap.
 */
@Timeout(30)
class NanosleepTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Runs of a kernel of which one must come in under its upper bound. */
    private static final int TRIES = 5;
    private static CpuDevice dev;

    @BeforeAll
    static void start() {
        dev = new CpuDevice(1);
    }

    @AfterAll
    static void stop() {
        dev.close();
    }

    /** Runs kernel {@code k(int *out, unsigned n)} with {@code out} of one int per thread; returns nanoseconds. */
    private static long timed(String src, int blocks, int threads, int n, int[] expectedOut) {
        UnifiedBuffer out = dev.allocate(4L * blocks * threads);
        try {
            Stream s = dev.defaultStream();
            var k = dev.compile(src, "sleep.cu").function("k");
            long start = System.nanoTime();
            s.launch(k, LaunchConfig.of(blocks, threads), KernelArgs.builder().pointer(out).u32(n).build());
            s.synchronize();
            long took = System.nanoTime() - start;
            for (int i = 0; i < expectedOut.length; i++) {
                assertEquals(expectedOut[i], out.getInt(i), "out[" + i + "]");
            }
            return took;
        } finally {
            out.free();
        }
    }

    private static int[] iota(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    /**
     * Times {@code src} as {@link #timed} does, up to {@link #TRIES} times: every run must take at least
     * {@code lowNanos} and one must take less than {@code highNanos}.
     */
    private static void assertTimedBetween(long lowNanos, long highNanos, String src, int blocks, int threads, int n,
            int[] expectedOut, String what) {
        List<Long> runs = new ArrayList<>();
        for (int run = 0; run < TRIES; run++) {
            long took = timed(src, blocks, threads, n, expectedOut);
            runs.add(took / 1000);
            assertTrue(took >= lowNanos, what + " took " + took / 1000 + " µs, less than the " + lowNanos / 1000
                    + " µs it sleeps");
            if (took < highNanos) {
                return;
            }
        }
        fail(what + " took " + runs + " µs in " + TRIES + " runs; expected one under " + highNanos / 1000 + " µs");
    }

    @Test
    void theThreadsOfABlockSleepSideBySide() {
        // 256 threads each sleep 20 ms (20 calls of 1 ms): about 20 ms for the block; 5.1 s if they took turns.
        String src = """
                __global__ void k(int *out, unsigned n) {
                    for (unsigned i = 0; i < n; i++) {
                        __nanosleep(1000000);
                    }
                    out[threadIdx.x] = threadIdx.x;
                }
                """;
        assertTimedBetween(20 * MS, 256 * 20 * MS / 10, src, 1, 256, 20, iota(256),
                "a block of 256 threads sleeping 20 ms each");
    }

    @Test
    void sleepsOfABlockOverlapAcrossItsWarpsInACooperativeKernel() {
        // A barrier makes the kernel cooperative: threads run warp by warp. Each phase is one thread's sleep.
        String src = """
                __global__ void k(int *out, unsigned n) {
                    __shared__ int s[128];
                    for (unsigned i = 0; i < n; i++) {
                        __nanosleep(1000000);
                    }
                    s[threadIdx.x] = threadIdx.x;
                    __syncthreads();
                    for (unsigned i = 0; i < n; i++) {
                        __nanosleep(1000000);
                    }
                    out[threadIdx.x] = s[127 - threadIdx.x];
                }
                """;
        int[] expected = new int[128];
        for (int t = 0; t < 128; t++) {
            expected[t] = 127 - t;
        }
        assertTimedBetween(20 * MS, 128 * 20 * MS / 10, src, 1, 128, 10, expected,
                "two phases of 10 ms sleeps by 128 threads");
    }

    @Test
    void aSleepAfterABarrierStartsWhenTheBarrierOpens() {
        // Thread 0 sleeps before the barrier and thread 1 after it: on a GPU that is 2 sleeps in a row.
        String src = """
                __global__ void k(int *out, unsigned n) {
                    if (threadIdx.x == 0) {
                        for (unsigned i = 0; i < n; i++) __nanosleep(1000000);
                    }
                    __syncthreads();
                    if (threadIdx.x == 1) {
                        for (unsigned i = 0; i < n; i++) __nanosleep(1000000);
                    }
                    out[threadIdx.x] = threadIdx.x;
                }
                """;
        assertTimedBetween(30 * MS, 300 * MS, src, 1, 64, 15, iota(64),
                "15 ms before and 15 ms after a barrier");
    }

    @Test
    void lanesLeaveAWarpIntrinsicTogether() {
        // Lane 0 sleeps before the shuffle, lane 1 after it: lane 1 cannot pass the shuffle before lane 0.
        String src = """
                __global__ void k(int *out, unsigned n) {
                    int lane = threadIdx.x;
                    if (lane == 0) {
                        for (unsigned i = 0; i < n; i++) __nanosleep(1000000);
                    }
                    int v = __shfl_sync(0xffffffffu, lane, (lane + 1) % 32);
                    if (lane == 1) {
                        for (unsigned i = 0; i < n; i++) __nanosleep(1000000);
                    }
                    out[lane] = v;
                }
                """;
        int[] expected = new int[32];
        for (int t = 0; t < 32; t++) {
            expected[t] = (t + 1) % 32;
        }
        assertTimedBetween(30 * MS, 300 * MS, src, 1, 32, 15, expected,
                "15 ms before and 15 ms after a shuffle");
    }

    @Test
    void blocksSleepOneAfterAnotherOnOneWorker() {
        // A device with one concurrent block: 4 blocks of 10 ms take 40 ms or more.
        String src = """
                __global__ void k(int *out, unsigned n) {
                    for (unsigned i = 0; i < n; i++) __nanosleep(1000000);
                    out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x;
                }
                """;
        assertTimedBetween(40 * MS, 400 * MS, src, 4, 32, 10, iota(128),
                "4 blocks of 10 ms on one worker");
    }

    @Test
    void oneCallSleepsAtMostAboutAMillisecond() {
        // As on a GPU, a longer request is cut to about 1 ms: 0xffffffff ns (4.3 s) and -1 (the same unsigned).
        String src = """
                __global__ void k(int *out, unsigned n) {
                    __nanosleep(n);
                    __nanosleep(-1);
                    out[threadIdx.x] = 7;
                }
                """;
        assertTimedBetween(2 * MS, 2_000 * MS, src, 1, 32, -1, new int[] {7, 7, 7},
                "two requests of 4.3 s");
    }

    @Test
    void theLatenessOfShortSleepsDoesNotAddUp() {
        // 2000 sleeps of 1 µs: a wait ends some 50 µs late, but the next ones are then already due, so the
        // loop takes about 2 ms; parking anew for each call would take 100 ms or more.
        String src = """
                __global__ void k(int *out, unsigned n) {
                    for (unsigned i = 0; i < n; i++) {
                        __nanosleep(1000);
                    }
                    out[threadIdx.x] = 3;
                }
                """;
        assertTimedBetween(2 * MS, 50 * MS, src, 1, 1, 2000, new int[] {3},
                "2000 sleeps of 1 µs");
    }

    @Test
    void zeroAndShortSleepsReturn() {
        String src = """
                __global__ void k(int *out, unsigned n) {
                    unsigned long long sum = 0;
                    for (unsigned i = 0; i < n; i++) {
                        __nanosleep(i % 3 == 0 ? 0u : 100u);
                        sum += i;
                    }
                    out[threadIdx.x] = (int) sum;
                }
                """;
        int[] expected = new int[64];
        java.util.Arrays.fill(expected, 1000 * 999 / 2);
        // 64 threads x 1000 calls; 667 of 100 ns each per thread: 67 µs of sleep per thread, side by side.
        assertTimedBetween(0, 2_000 * MS, src, 1, 64, 1000, expected,
                "1000 short sleeps per thread");
    }
}
