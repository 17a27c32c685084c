package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runaway kernels end: a launch that never finishes by itself (an endless loop, with or without barriers, in
 * CUDA C or in PTX) is stopped by the device's kernel time limit, by {@link CpuDevice#stopLaunches} and by
 * {@link CpuDevice#stopAllLaunches} before a close, with a fault naming the kernel; the device then runs later
 * kernels right. Each test runs on a thread of its own with a time limit, so a stop that does not work fails
 * the test instead of hanging the suite (the device's workers are daemon threads).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class KernelStopTest {
    private static final String SOURCE = """
            __global__ void spin(int* flag)
            {
                flag[0] = 1;
                while (1) {
                }
            }

            __global__ void spinBarrier(int* flag)
            {
                __shared__ int s[64];
                flag[0] = 1;
                int i = 0;
                while (1) {
                    s[threadIdx.x] = i++;
                    __syncthreads();
                }
            }

            // Only thread 0 loops, without a barrier inside; the others wait at the barrier after the loop.
            __global__ void spinOne(int* flag)
            {
                flag[0] = 1;
                if (threadIdx.x == 0) {
                    for (int k = 0; k >= 0; k = k * 0) {
                    }
                }
                __syncthreads();
            }

            // A for loop whose bound the body raises never ends: not a counted loop, so it is polled.
            __global__ void growingBound(int* flag)
            {
                flag[0] = 1;
                int n = 10;
                for (int k = 0; k < n; k++) {
                    n++;
                }
            }

            // A counted loop (not polled) inside an endless one (polled).
            __global__ void countedInside(int* flag)
            {
                flag[0] = 1;
                int acc = 0;
                while (acc >= 0) {
                    for (int k = 0; k < 1000; k++) {
                        acc = (acc + k) & 0xffff;
                    }
                }
                flag[1] = acc;
            }

            // Innermost loops poll every so many back-edges (LoopPolls): a do-while, a loop left by continue.
            __global__ void spinDo(int* flag)
            {
                flag[0] = 1;
                int i = 0;
                do {
                    i = (i + 1) & 7;
                } while (1);
            }

            __global__ void spinContinue(int* flag)
            {
                flag[0] = 1;
                int i = 0;
                while (1) {
                    i++;
                    if (i & 1) {
                        continue;
                    }
                    flag[1] = i;
                }
            }

            // A loop in an inlined function makes the calling loop poll at every back-edge.
            __device__ int mix(int a)
            {
                for (int k = 0; k < 100; k++) {
                    a = (a * 3 + k) & 0xffff;
                }
                return a;
            }

            __global__ void spinCallingLoop(int* flag)
            {
                flag[0] = 1;
                int acc = 1;
                while (acc != -1) {
                    acc = mix(acc);
                }
                flag[1] = acc;
            }

            // A counted loop has no poll of its own; a million sleeps of 1 ms take 1000 s unless the sleep polls.
            __global__ void sleepInCountedLoop(int* flag)
            {
                flag[0] = 1;
                for (int k = 0; k < 1000000; k++) {
                    __nanosleep(1000000);
                }
            }

            // Loops that run past a poll budget: each poll re-enters the loop, which must go on where it was.
            __global__ void longLoops(int* out)
            {
                int i = 0;
                int s = 0;
                while (i < 5000) {
                    s += i;
                    i++;
                }
                out[0] = s;
                int j = 0;
                int t = 0;
                do {
                    j++;
                    if (j % 3 == 0) {
                        continue;
                    }
                    t += j;
                } while (j < 4000);
                out[1] = t;
                int u = 0;
                for (int k = 1; k <= 3000; k += 2) {
                    u += k;
                }
                out[2] = u;
            }

            // Strided loops (i += s) run without the countdown only when their entry check shows they end; these two
            // do not end, so they must take the polled copy: an unsigned index that wraps past its bound, a zero step.
            __global__ void stridedWrap(int* flag)
            {
                flag[0] = 1;
                unsigned int t = 0;
                for (unsigned int i = 0; i < 0xffffffffu; i += 0x80000000u) {
                    t += i;
                }
                flag[1] = t;
            }

            __global__ void stridedZero(int* flag)
            {
                flag[0] = 1;
                int z = flag[0] - 1;
                int t = 0;
                for (int i = 0; i < 10; i += z) {
                    t++;
                }
                flag[1] = t;
            }

            // Strided loops that end, past a poll budget, with continue and break, in each index type; the long one
            // fails its entry check (a bound near the maximum) and ends by its break, in the polled copy.
            __global__ void stridedLoops(int* out, int st)
            {
                int a = 0;
                for (int k = -7; k < 9000; k += st) {
                    if (k % 5 == 0) {
                        continue;
                    }
                    a += k;
                }
                out[0] = a;
                unsigned int b = 0;
                for (unsigned int k = 4000000000u; k < 4294000000u; k += (unsigned int) st * 100000u) {
                    b += k >> 20;
                }
                out[1] = (int) b;
                long long c = 0;
                for (long long k = 9223372036854770000ll; k < 9223372036854775807ll; k += st) {
                    c += k & 255;
                    if (c > 200000) {
                        break;
                    }
                }
                out[2] = (int) c;
                unsigned long long d = 0;
                for (unsigned long long k = 0; k < 5000ull; k += (unsigned long long) (short) st) {
                    d += k;
                }
                out[3] = (int) d;
            }

            __global__ void twice(const int* src, int* dst, int n)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    dst[i] = src[i] * 2;
                }
            }
            """;

    private CpuDevice dev;

    @BeforeEach
    void open() {
        dev = new CpuDevice(2);
    }

    @AfterEach
    void close() {
        dev.stopAllLaunches("the test ended");
        dev.close();
    }

    private KernelFunction kernel(String name) {
        return dev.compile(SOURCE, "stop.cu").function(name);
    }

    private static KernelArgs flagArgs(UnifiedBuffer flag) {
        return KernelArgs.builder().pointer(flag).build();
    }

    /** Launches {@code k} on {@code s} and expects its synchronize to throw the fault, which it returns. */
    private static KernelFaultException faultOf(Stream s, KernelFunction k, Dim3 grid, Dim3 block,
            KernelArgs args) {
        s.launch(k, new LaunchConfig(grid, block, 0), args);
        return assertThrows(KernelFaultException.class, s::synchronize);
    }

    /** The device still computes: every element doubled, as computed here. */
    private void assertWorks() {
        int n = 1000;
        int[] in = new int[n];
        int[] expected = new int[n];
        for (int i = 0; i < n; i++) {
            in[i] = 7 * i - 300;
            expected[i] = 2 * in[i];
        }
        UnifiedBuffer src = ints(dev, in);
        UnifiedBuffer dst = ints(dev, new int[n]);
        Stream s = dev.defaultStream();
        s.launch(kernel("twice"), LaunchConfig.of((n + 127) / 128, 128),
                KernelArgs.builder().pointer(src).pointer(dst).i32(n).build());
        assertDoesNotThrow(s::synchronize);
        assertArrayEquals(expected, readInts(dst, n));
    }

    @Test
    void timeLimitStopsEndlessLoopsThenTheDeviceWorks() {
        dev.setKernelTimeout(Duration.ofMillis(200));
        UnifiedBuffer flag = ints(dev, new int[2]);
        Stream s = dev.defaultStream();
        for (String name : new String[] {"spin", "spinBarrier", "spinOne", "growingBound", "countedInside", "spinDo",
                "spinContinue", "spinCallingLoop", "sleepInCountedLoop", "stridedWrap", "stridedZero"}) {
            KernelFaultException e = faultOf(s, kernel(name), Dim3.of(3), Dim3.of(64), flagArgs(flag));
            assertEquals(CudaError.LAUNCH_TIMEOUT, e.error(), e.getMessage());
            assertContains("kernel '" + name + "'", e.getMessage());
            assertContains("ran longer than the kernel time limit of 200 ms", e.getMessage());
            assertWorks();
        }
    }

    @Test
    void loopsLongerThanAPollBudgetComputeRight() {
        UnifiedBuffer out = ints(dev, new int[3]);
        Stream s = dev.defaultStream();
        s.launch(kernel("longLoops"), LaunchConfig.of(1, 1), flagArgs(out));
        assertDoesNotThrow(s::synchronize);
        // 0 + ... + 4999; 1 + ... + 4000 less the multiples of 3 (3 * (1 + ... + 1333)); the odd numbers below 3000.
        int[] expected = {4999 * 5000 / 2, 4000 * 4001 / 2 - 3 * (1333 * 1334 / 2), 1500 * 1500};
        assertArrayEquals(expected, readInts(out, 3));
    }

    @Test
    void stridedLoopsComputeRight() {
        int st = 3;
        UnifiedBuffer out = ints(dev, new int[4]);
        Stream s = dev.defaultStream();
        s.launch(kernel("stridedLoops"), LaunchConfig.of(1, 1), KernelArgs.builder().pointer(out).i32(st).build());
        assertDoesNotThrow(s::synchronize);
        // The same loops in Java, whose int and long arithmetic wraps as C's unsigned arithmetic does.
        int a = 0;
        for (int k = -7; k < 9000; k += st) {
            if (k % 5 != 0) {
                a += k;
            }
        }
        int b = 0;
        for (long k = 4_000_000_000L; k < 4_294_000_000L; k += st * 100_000L) {
            b += (int) (k >> 20);
        }
        long c = 0;
        for (long k = 9_223_372_036_854_770_000L; k < Long.MAX_VALUE; k += st) {
            c += k & 255;
            if (c > 200_000) {
                break;
            }
        }
        long d = 0;
        for (long k = 0; k < 5000; k += st) {
            d += k;
        }
        assertArrayEquals(new int[] {a, b, (int) c, (int) d}, readInts(out, 4));
    }

    @Test
    void aLaunchWithinTheLimitIsNotStopped() {
        dev.setKernelTimeout(Duration.ofSeconds(30));
        assertWorks();
    }

    @Test
    void stopLaunchesEndsTheRunningAndTheQueuedLaunches() throws InterruptedException {
        UnifiedBuffer flag = ints(dev, new int[1]);
        Stream s = dev.defaultStream();
        s.launch(kernel("spin"), LaunchConfig.of(1, 1), flagArgs(flag));
        s.launch(kernel("spinBarrier"), LaunchConfig.of(1, 32), flagArgs(flag));
        awaitFlag(flag);
        assertEquals(2, dev.stopLaunches("asked by the test"));
        KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
        assertEquals(CudaError.LAUNCH_FAILED, e.error());
        assertContains("kernel 'spin' (line 4, column 5) at blockIdx (0,0,0) threadIdx (0,0,0): stopped: asked by"
                + " the test", e.getMessage());
        assertWorks();
    }

    @Test
    void stopAllLaunchesLetsCloseReturnAndRefusesLaterLaunches() throws InterruptedException {
        UnifiedBuffer flag = ints(dev, new int[1]);
        Stream s = dev.createStream();
        s.launch(kernel("spin"), LaunchConfig.of(4, 1), flagArgs(flag));
        awaitFlag(flag);
        dev.stopAllLaunches("the context is closing");
        s.launch(kernel("twice"), LaunchConfig.of(1, 1), KernelArgs.builder().pointer(flag).pointer(flag).i32(0)
                .build());
        KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
        // Which of the four blocks reports first depends on the workers: a running one says "stopped: ...",
        // one not yet started says "stopped before block b of 4 started: ...".
        assertContains("kernel 'spin'", e.getMessage());
        assertContains("the context is closing", e.getMessage());
        s.launch(kernel("twice"), LaunchConfig.of(1, 1), KernelArgs.builder().pointer(flag).pointer(flag).i32(0)
                .build());
        e = assertThrows(KernelFaultException.class, s::synchronize);
        assertContains("kernel 'twice' stopped before it started: the context is closing", e.getMessage());
        dev.close();
    }

    private static final String PTX_SPIN = """
            .version 7.0
            .target sm_70
            .address_size 64

            .visible .entry ptxSpin(.param .u64 flag)
            {
                .reg .b64 %rd<3>;
                .reg .b32 %r<2>;
                ld.param.u64 %rd1, [flag];
                cvta.to.global.u64 %rd2, %rd1;
                mov.u32 %r1, 1;
                st.global.u32 [%rd2], %r1;
            $L_top:
                bra.uni $L_top;
            }

            // A sleep of the largest u32 time in a loop: stops after a sleep (at most 1 ms), not a slice of them.
            .visible .entry ptxSleepLoop(.param .u64 flag)
            {
                .reg .b64 %rd<3>;
                .reg .b32 %r<2>;
                ld.param.u64 %rd1, [flag];
                cvta.to.global.u64 %rd2, %rd1;
                mov.u32 %r1, 1;
                st.global.u32 [%rd2], %r1;
            $L_top:
                nanosleep.u32 4294967295;
                bra.uni $L_top;
            }

            .visible .entry ptxSpinBarrier(.param .u64 flag)
            {
                .reg .b64 %rd<3>;
                .reg .b32 %r<2>;
                ld.param.u64 %rd1, [flag];
                cvta.to.global.u64 %rd2, %rd1;
                mov.u32 %r1, 1;
                st.global.u32 [%rd2], %r1;
            $L_top:
                bar.sync 0;
                bra.uni $L_top;
            }
            """;

    @Test
    void thePtxInterpreterStopsToo() {
        dev.setKernelTimeout(Duration.ofMillis(200));
        Module m = dev.load(PTX_SPIN.getBytes(StandardCharsets.UTF_8), "spin.ptx");
        UnifiedBuffer flag = ints(dev, new int[1]);
        Stream s = dev.defaultStream();
        for (String name : new String[] {"ptxSpin", "ptxSpinBarrier", "ptxSleepLoop"}) {
            KernelFaultException e = faultOf(s, m.function(name), Dim3.of(2), Dim3.of(64), flagArgs(flag));
            assertEquals(CudaError.LAUNCH_TIMEOUT, e.error(), e.getMessage());
            assertContains("kernel '" + name + "'", e.getMessage());
            assertContains("ran longer than the kernel time limit of 200 ms", e.getMessage());
        }
        assertWorks();
    }

    /** Waits until the kernel has set its flag: it is running. */
    private static void awaitFlag(UnifiedBuffer flag) throws InterruptedException {
        while (flag.hostView().get(ValueLayout.JAVA_INT, 0) == 0) {
            Thread.sleep(5);
        }
    }
}
