package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Threads of cooperative kernels stop at yield points in every kind of control structure and resume with
 * their variables intact: nested loops, do-while, a barrier in a loop condition, a barrier in an inlined
 * helper called in a loop, a shuffle in a switch case. Each kernel's result is computed in Java below.
 */
@Timeout(30)
class CooperativeKernelTest {
    private static Device dev;

    @BeforeAll
    static void start() {
        dev = new CpuDevice();
    }

    @AfterAll
    static void stop() {
        dev.close();
    }

    private static int[] run(String src, int blocks, int threads) {
        UnifiedBuffer out = dev.allocate(4L * blocks * threads);
        Stream s = dev.defaultStream();
        s.launch(dev.compile(src, "coop.cu").function("k"), LaunchConfig.of(blocks, threads),
                KernelArgs.builder().pointer(out).build());
        s.synchronize();
        int[] r = new int[blocks * threads];
        for (int i = 0; i < r.length; i++) {
            r[i] = out.getInt(i);
        }
        out.free();
        return r;
    }

    @Test
    void barriersInNestedLoopsAndDoWhile() {
        // Each round every thread publishes a value, waits, reads its right neighbour's, waits again.
        int[] r = run("""
                __global__ void k(int *out) {
                    __shared__ int s[64];
                    int t = threadIdx.x, acc = 0, outer = 0;
                    while (outer < 3) {
                        for (int inner = 0; inner < 2; inner++) {
                            s[t] = t * 10 + outer + inner;
                            __syncthreads();
                            acc += s[(t + 1) % 64];
                            __syncthreads();
                        }
                        outer++;
                    }
                    int d = 0;
                    do {
                        s[t] = d;
                        __syncthreads();
                        acc += s[63 - t];
                        __syncthreads();
                        d++;
                    } while (d < 4);
                    out[blockIdx.x * 64 + t] = acc;
                }""", 3, 64);
        for (int i = 0; i < r.length; i++) {
            int t = i % 64;
            int expected = 0;
            for (int outer = 0; outer < 3; outer++) {
                for (int inner = 0; inner < 2; inner++) {
                    expected += ((t + 1) % 64) * 10 + outer + inner;
                }
            }
            expected += 0 + 1 + 2 + 3;
            assertEquals(expected, r[i], "thread " + i);
        }
    }

    @Test
    void barrierInLoopConditionAndInlinedHelper() {
        // __syncthreads_or in a while condition; a helper with a barrier called inside a for loop.
        int[] r = run("""
                __device__ int exchange(int *s, int t, int v) {
                    s[t] = v;
                    __syncthreads();
                    int w = s[(t + 3) % 32];
                    __syncthreads();
                    return w;
                }
                __global__ void k(int *out) {
                    __shared__ int s[32];
                    int t = threadIdx.x;
                    int left = t;
                    int rounds = 0;
                    while (__syncthreads_or(left > 0)) {
                        left = left > 0 ? left - 1 : 0;
                        rounds++;
                    }
                    int sum = 0;
                    for (int i = 0; i < 5; i++) {
                        sum += exchange(s, t, t + i);
                    }
                    out[t] = rounds * 1000 + sum;
                }""", 1, 32);
        for (int t = 0; t < 32; t++) {
            int sum = 0;
            for (int i = 0; i < 5; i++) {
                sum += (t + 3) % 32 + i;
            }
            // The loop runs while any thread still has work: 31 rounds for every thread.
            assertEquals(31 * 1000 + sum, r[t], "thread " + t);
        }
    }

    @Test
    void shuffleInsideSwitchInsideLoop() {
        int[] r = run("""
                __global__ void k(int *out) {
                    int lane = threadIdx.x % 32;
                    int v = lane;
                    for (int step = 0; step < 3; step++) {
                        switch (step) {
                            case 0: v += __shfl_xor_sync(0xffffffff, v, 1); break;
                            case 1: v += __shfl_xor_sync(0xffffffff, v, 2);
                            default: v += 1;
                        }
                    }
                    out[threadIdx.x] = v;
                }""", 1, 64);
        for (int t = 0; t < 64; t++) {
            int[] v = new int[32];
            for (int l = 0; l < 32; l++) {
                v[l] = l;
            }
            int[] next = new int[32];
            for (int l = 0; l < 32; l++) {
                next[l] = v[l] + v[l ^ 1];
            }
            v = next.clone();
            for (int l = 0; l < 32; l++) {
                next[l] = v[l] + v[l ^ 2] + 1;
            }
            v = next.clone();
            for (int l = 0; l < 32; l++) {
                v[l] += 1;
            }
            assertEquals(v[t % 32], r[t], "thread " + t);
        }
    }

    @Test
    void warpSynchronousReductionThroughVolatileSharedMemory() {
        // The classic last-warp unrolled reduction (before CUDA 9): no __syncwarp, the lanes of a warp rely on
        // running in lock step, each step reading what the previous step wrote.
        int[] r = run("""
                __device__ void warpReduce(volatile int *s, int tid) {
                    s[tid] += s[tid + 32]; s[tid] += s[tid + 16]; s[tid] += s[tid + 8];
                    s[tid] += s[tid + 4]; s[tid] += s[tid + 2]; s[tid] += s[tid + 1];
                }
                __global__ void k(int *out) {
                    __shared__ int s[128];
                    int tid = threadIdx.x;
                    s[tid] = (tid * 7 + blockIdx.x) % 13 + 1;
                    __syncthreads();
                    for (int st = blockDim.x / 2; st > 32; st >>= 1) {
                        if (tid < st) s[tid] += s[tid + st];
                        __syncthreads();
                    }
                    if (tid < 32) warpReduce(s, tid);
                    __syncthreads();
                    out[blockIdx.x * 128 + tid] = s[0];
                }""", 2, 128);
        for (int b = 0; b < 2; b++) {
            int expected = 0;
            for (int t = 0; t < 128; t++) {
                expected += (t * 7 + b) % 13 + 1;
            }
            for (int t = 0; t < 128; t++) {
                assertEquals(expected, r[b * 128 + t], "block " + b + ", thread " + t);
            }
        }
    }

    @Test
    void warpSynchronousScanReadsLowerLanesBeforeTheyWrite() {
        // Kogge-Stone inclusive warp scan through a volatile pointer: each lane reads a lower lane's value,
        // which in lock step is the value from before this step's writes.
        int[] r = run("""
                __global__ void k(int *out) {
                    __shared__ int buf[64];
                    int tid = threadIdx.x, lane = tid & 31;
                    volatile int *p = buf;
                    p[tid] = lane * 3 + 1;
                    if (lane >= 1)  p[tid] = p[tid - 1] + p[tid];
                    if (lane >= 2)  p[tid] = p[tid - 2] + p[tid];
                    if (lane >= 4)  p[tid] = p[tid - 4] + p[tid];
                    if (lane >= 8)  p[tid] = p[tid - 8] + p[tid];
                    if (lane >= 16) p[tid] += p[tid - 16];
                    out[tid] = p[tid];
                }""", 1, 64);
        for (int t = 0; t < 64; t++) {
            int lane = t & 31;
            int expected = 0;
            for (int j = 0; j <= lane; j++) {
                expected += j * 3 + 1;
            }
            assertEquals(expected, r[t], "thread " + t);
        }
    }
}
