package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lanes of a warp reconverge where a GPU's do, at the immediate post-dominator of each branch, so that
 * warp-synchronous code (values exchanged through {@code volatile __shared__} memory with no {@code __syncwarp})
 * gets a GPU's results after divergent branches, loops whose trip count differs by lane, {@code continue},
 * {@code break}, early returns, switches and inlined functions; and shuffles with partial masks work in
 * divergent code. Each kernel runs {@value WarpOracle#LAUNCHES} times and is checked against a plain-Java model
 * of the warp in lock step and against nvcc's code on the PTX interpreter ({@link WarpOracle}).
 */
@Timeout(300)
class WarpReconvergenceTest {
    private static final long SEED = 0x36_0C0DEL;
    private static final int BLOCKS = 24;
    private static final int THREADS = 256;
    private static Device dev;

    @BeforeAll
    static void start() {
        dev = new CpuDevice();
    }

    @AfterAll
    static void stop() {
        dev.close();
    }

    /** Launches {@code k(in, out)} on BLOCKS x THREADS threads; returns {@code out}. */
    private static int[] launch(Module m, int[] in) {
        UnifiedBuffer bin = ints(dev, in);
        int[] poison = new int[BLOCKS * THREADS];
        java.util.Arrays.fill(poison, 0x7BAD_BAD7);
        UnifiedBuffer bout = ints(dev, poison);
        try {
            var s = dev.defaultStream();
            s.launch(m.function("k"), LaunchConfig.of(BLOCKS, THREADS),
                    KernelArgs.builder().pointer(bin).pointer(bout).build());
            s.synchronize();
            return readInts(bout, BLOCKS * THREADS);
        } finally {
            bin.free();
            bout.free();
        }
    }

    private static int[] randomInts(long seed, int n, int bound) {
        Random r = new Random(seed);
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(bound);
        }
        return v;
    }

    @Test
    void lanesThatSkipAnIfReadTheSlotsItsLanesWrite() {
        // The reduced GrCUDA pattern: lanes 0 and 1 write a slot each inside the if, then every lane reads both.
        String src = """
                extern "C" __global__ void k(const int *in, int *out) {
                    __shared__ volatile int slot[8][2];
                    int lane = threadIdx.x & 31;
                    int w = threadIdx.x >> 5;
                    int g = blockIdx.x * blockDim.x + threadIdx.x;
                    if (lane < 2) {
                        slot[w][lane] = in[g];
                    }
                    int a = slot[w][0];
                    int b = slot[w][1];
                    out[g] = a * 1000 + b + lane;
                }
                """;
        int[] in = randomInts(SEED, BLOCKS * THREADS, 1000);
        int[] expected = new int[in.length];
        for (int g = 0; g < in.length; g++) {
            int first = g & ~31;
            expected[g] = in[first] * 1000 + in[first + 1] + (g & 31);
        }
        WarpOracle.check(dev, src, m -> launch(m, in), expected, "seed " + SEED);
    }

    @Test
    void laneDependentTripCountsThenAVolatileExchange() {
        // Each lane loops in[g] times (0 to 8), writing and reading its own slot; every lane then reads its left
        // neighbour's last write, which a lane that loops longer makes after the others have left the loop.
        // (Exchanging inside such a loop pairs iterations as nvcc's unrolled code happens to: it runs four
        // iterations at a time and the rest in a second loop, so one lane's fifth iteration meets another's
        // first. Only the exchange after the loop is defined.)
        String src = """
                extern "C" __global__ void k(const int *in, int *out) {
                    __shared__ volatile int s[256];
                    int t = threadIdx.x;
                    int g = blockIdx.x * blockDim.x + t;
                    int base = t & ~31;
                    int lane = t & 31;
                    s[t] = -1 - lane;
                    int acc = lane;
                    int trips = in[g];
                    for (int i = 0; i < trips; i++) {
                        s[t] = acc * 3 + i;
                        acc = (acc + s[t] * 5) & 0xFFFFF;
                    }
                    int left = s[base + ((lane + 31) & 31)];
                    s[t] = acc;
                    out[g] = left * 7 + s[base + ((lane + 1) & 31)] + acc;
                }
                """;
        int[] in = randomInts(SEED + 1, BLOCKS * THREADS, 9);
        int[] expected = new int[in.length];
        for (int w = 0; w < in.length; w += 32) {
            int[] last = new int[32];
            int[] acc = new int[32];
            for (int l = 0; l < 32; l++) {
                last[l] = -1 - l;
                acc[l] = l;
                for (int i = 0; i < in[w + l]; i++) {
                    last[l] = acc[l] * 3 + i;
                    acc[l] = (acc[l] + last[l] * 5) & 0xFFFFF;
                }
            }
            for (int l = 0; l < 32; l++) {
                expected[w + l] = last[(l + 31) & 31] * 7 + acc[(l + 1) & 31] + acc[l];
            }
        }
        WarpOracle.check(dev, src, m -> launch(m, in), expected, "seed " + (SEED + 1));
    }

    @Test
    void divergenceInsideALoopWithContinueAndBreak() {
        // Per iteration: an if/else writes each lane's slot, all read a neighbour's; some lanes continue; the
        // others write again and read another neighbour (who may have continued); some of those break.
        String src = """
                extern "C" __global__ void k(const int *in, int *out) {
                    __shared__ volatile int s[256];
                    int t = threadIdx.x;
                    int g = blockIdx.x * blockDim.x + t;
                    int base = t & ~31;
                    int lane = t & 31;
                    int seed = in[g];
                    int acc = lane;
                    s[t] = 0;
                    for (int i = 0; i < 8; i++) {
                        if (((seed >> i) & 3) == 0) {
                            s[t] = acc + 100;
                        } else {
                            s[t] = acc * 2 + i;
                        }
                        int p = s[base + (lane ^ 1)];
                        if ((seed >> (i + 8)) & 1) {
                            continue;
                        }
                        s[t] = p - acc;
                        acc = (acc + s[base + (lane ^ 2)]) & 0xFFFF;
                        if (((seed >> (i + 16)) & 7) == 0) {
                            break;
                        }
                    }
                    out[g] = acc;
                }
                """;
        int[] in = randomInts(SEED + 2, BLOCKS * THREADS, Integer.MAX_VALUE);
        int[] expected = new int[in.length];
        for (int w = 0; w < in.length; w += 32) {
            int[] s = new int[32];
            int[] acc = new int[32];
            boolean[] active = new boolean[32];
            for (int l = 0; l < 32; l++) {
                acc[l] = l;
                active[l] = true;
            }
            for (int i = 0; i < 8; i++) {
                int[] seed = new int[32];
                for (int l = 0; l < 32; l++) {
                    seed[l] = in[w + l];
                    if (active[l]) {
                        s[l] = ((seed[l] >> i) & 3) == 0 ? acc[l] + 100 : acc[l] * 2 + i;
                    }
                }
                int[] p = new int[32];
                boolean[] rest = new boolean[32];
                for (int l = 0; l < 32; l++) {
                    p[l] = s[l ^ 1];
                    rest[l] = active[l] && ((seed[l] >> (i + 8)) & 1) == 0;
                }
                for (int l = 0; l < 32; l++) {
                    if (rest[l]) {
                        s[l] = p[l] - acc[l];
                    }
                }
                int[] read = s.clone();
                for (int l = 0; l < 32; l++) {
                    if (rest[l]) {
                        acc[l] = (acc[l] + read[l ^ 2]) & 0xFFFF;
                        if (((seed[l] >> (i + 16)) & 7) == 0) {
                            active[l] = false;
                        }
                    }
                }
            }
            System.arraycopy(acc, 0, expected, w, 32);
        }
        WarpOracle.check(dev, src, m -> launch(m, in), expected, "seed " + (SEED + 2));
    }

    @Test
    void earlyReturnSwitchAndInlinedFunctionWithAnEarlyReturn() {
        String src = """
                __device__ int swap(volatile int *s, int base, int lane, int sel) {
                    if (sel == 3) {
                        return -lane;
                    }
                    s[base + lane] = sel * 10 + lane;
                    return s[base + (lane ^ 4)];
                }
                extern "C" __global__ void k(const int *in, int *out) {
                    __shared__ volatile int s[256];
                    int t = threadIdx.x;
                    int g = blockIdx.x * blockDim.x + t;
                    int base = t & ~31;
                    int lane = t & 31;
                    int sel = in[g];
                    s[t] = -t;
                    if (sel == 7) {
                        out[g] = -7;
                        return;
                    }
                    switch (sel) {
                        case 0: s[t] = 1000 + lane; break;
                        case 1: s[t] = 2000 + lane;
                        case 2: s[t] = s[t] + 3; break;
                        default: s[t] = 4000 + lane; break;
                    }
                    int v = s[base + (lane ^ 1)];
                    int w = swap(s, base, lane, sel);
                    out[g] = v * 100000 + w;
                }
                """;
        int[] in = randomInts(SEED + 3, BLOCKS * THREADS, 8);
        int[] expected = new int[in.length];
        for (int w = 0; w < in.length; w += 32) {
            int[] s = new int[32];
            for (int l = 0; l < 32; l++) {
                int t = (w + l) % THREADS;
                int sel = in[w + l];
                s[l] = switch (sel) {
                    case 7 -> -t;
                    case 0 -> 1000 + l;
                    case 1 -> 2000 + l + 3;
                    case 2 -> -t + 3;
                    default -> 4000 + l;
                };
            }
            int[] v = new int[32];
            for (int l = 0; l < 32; l++) {
                v[l] = s[l ^ 1];
            }
            for (int l = 0; l < 32; l++) {
                int sel = in[w + l];
                if (sel != 7 && sel != 3) {
                    s[l] = sel * 10 + l;
                }
            }
            for (int l = 0; l < 32; l++) {
                int sel = in[w + l];
                expected[w + l] = sel == 7 ? -7 : v[l] * 100000 + (sel == 3 ? -l : s[l ^ 4]);
            }
        }
        WarpOracle.check(dev, src, m -> launch(m, in), expected, "seed " + (SEED + 3));
    }

    @Test
    void shufflesWithPartialMasksInDivergentCodeAndInALoop() {
        // Half the warp shuffles among itself inside an if, then the whole warp shuffles; in the loop, the odd
        // lanes shuffle among themselves while the even lanes go round to the next full-warp shuffle, which must
        // wait for the odd lanes to finish their iteration.
        String src = """
                extern "C" __global__ void k(const int *in, int *out) {
                    int g = blockIdx.x * blockDim.x + threadIdx.x;
                    int lane = threadIdx.x & 31;
                    int v = in[g];
                    if (lane < 16) {
                        v += __shfl_xor_sync(0x0000ffff, v, 1);
                    }
                    v += __shfl_down_sync(0xffffffff, v, 16);
                    for (int i = 0; i < 4; i++) {
                        int w = __shfl_sync(0xffffffff, v, i * 5);
                        if (lane & 1) {
                            v += __shfl_xor_sync(0xaaaaaaaa, w + lane, 2);
                        } else {
                            v -= w;
                        }
                    }
                    out[g] = v;
                }
                """;
        int[] in = randomInts(SEED + 4, BLOCKS * THREADS, 1 << 20);
        int[] expected = new int[in.length];
        for (int w = 0; w < in.length; w += 32) {
            int[] v = new int[32];
            System.arraycopy(in, w, v, 0, 32);
            int[] r = v.clone();
            for (int l = 0; l < 16; l++) {
                r[l] = v[l] + v[l ^ 1];
            }
            v = r.clone();
            for (int l = 0; l < 32; l++) {
                // __shfl_down_sync past the last lane returns the caller's own value.
                r[l] = v[l] + (l + 16 < 32 ? v[l + 16] : v[l]);
            }
            v = r;
            for (int i = 0; i < 4; i++) {
                int broadcast = v[i * 5];
                int[] next = v.clone();
                for (int l = 0; l < 32; l++) {
                    next[l] = (l & 1) != 0 ? v[l] + broadcast + (l ^ 2) : v[l] - broadcast;
                }
                v = next;
            }
            System.arraycopy(v, 0, expected, w, 32);
        }
        WarpOracle.check(dev, src, m -> launch(m, in), expected, "seed " + (SEED + 4));
    }
}
