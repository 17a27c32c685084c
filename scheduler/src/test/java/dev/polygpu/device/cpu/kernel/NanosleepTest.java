package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
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
 * bounds cannot fail by chance, because a sleep waits for an absolute deadline; the upper bounds are at least
 * ten times the expected time, so a loaded machine does not break them, and still far below what a sleep
 * per thread one after another would take. The device runs one block at a time, so only the threads of a
 * block can overlap.
 */
@Timeout(30)
class NanosleepTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
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

    private static void assertBetween(long lowNanos, long highNanos, long took, String what) {
        assertTrue(took >= lowNanos && took < highNanos, what + " took " + took / 1000 + " µs; expected from "
                + lowNanos / 1000 + " µs to under " + highNanos / 1000 + " µs");
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
        long took = timed(src, 1, 256, 20, iota(256));
        assertBetween(20 * MS, 256 * 20 * MS / 10, took, "a block of 256 threads sleeping 20 ms each");
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
        long took = timed(src, 1, 128, 10, expected);
        assertBetween(20 * MS, 128 * 20 * MS / 10, took, "two phases of 10 ms sleeps by 128 threads");
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
        long took = timed(src, 1, 64, 15, iota(64));
        assertBetween(30 * MS, 300 * MS, took, "15 ms before and 15 ms after a barrier");
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
        long took = timed(src, 1, 32, 15, expected);
        assertBetween(30 * MS, 300 * MS, took, "15 ms before and 15 ms after a shuffle");
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
        long took = timed(src, 4, 32, 10, iota(128));
        assertBetween(40 * MS, 400 * MS, took, "4 blocks of 10 ms on one worker");
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
        long took = timed(src, 1, 32, -1, new int[] {7, 7, 7});
        assertBetween(2 * MS, 2_000 * MS, took, "two requests of 4.3 s");
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
        long took = timed(src, 1, 1, 2000, new int[] {3});
        assertBetween(2 * MS, 50 * MS, took, "2000 sleeps of 1 µs");
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
        long took = timed(src, 1, 64, 1000, expected);
        // 64 threads x 1000 calls; 667 of 100 ns each per thread: 67 µs of sleep per thread, side by side.
        assertBetween(0, 2_000 * MS, took, "1000 short sleeps per thread");
    }
}
