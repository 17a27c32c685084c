package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.littleEndianInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Warp intrinsics and barriers in the operands of {@code &&}, {@code ||} and {@code ?:} that C++ evaluates only
 * conditionally, in {@code if}, loop and assignment positions, nested, and in loop conditions and updates: each
 * runs only where the left operand or the condition lets it (the counter {@code calls} shows how often). The
 * conditions are uniform per warp (warp 0 and warp 1 take different sides), since a full-mask intrinsic that
 * only some lanes of a warp reach is undefined in CUDA; the one divergent operand ({@code lane < 10}) uses a
 * {@code __activemask()} mask.
 */
class CollectivesInConditionalsTest {
    private static final int THREADS = 64;
    private static final int SLOTS = 12;
    private static final int EDGE_SLOTS = 9;

    private static final String SOURCE = """
            #define FULL 0xffffffffu
            __device__ int vote(int p, int* calls) { ++*calls; return __any_sync(FULL, p); }
            extern "C" __global__ void m(const int* in, int* out) {
                __shared__ int sh[64];
                int t = threadIdx.x, lane = t & 31, w = t >> 5;
                int n = in[0];
                int v = in[1 + t];
                int* o = out + 12 * t;
                int calls = 0;
                int a = 0;
                if (w < n && vote(v > 20, &calls)) a = 1;
                bool ok = true;
                for (int k = 0; k < 4; k++) ok = ok && (++calls, __all_sync(FULL, v >= 8 * k));
                bool miss = w == 1 || (++calls, __ballot_sync(FULL, v % 3 == 0) != 0x49249249u);
                int x = w == 0 ? __shfl_sync(FULL, v, 5) : __shfl_xor_sync(FULL, v, 1);
                int y = (w == 1 || __all_sync(FULL, v < 16)) ? __shfl_down_sync(FULL, v, 1)
                        : (lane < 32 && __any_sync(FULL, v == 3) ? __shfl_up_sync(FULL, v, 2) : -1);
                int k = 0;
                while (k < 12 && __ballot_sync(FULL, lane >= 4 * k + 8 * w) != 0) k++;
                int d = 0;
                do { d++; } while (d < 3 || (++calls, __any_sync(FULL, lane > 8 * d + 8 * w)));
                int f = 0;
                for (int j = 0; j < 10; j += w == 0 ? __shfl_sync(FULL, 2, 0) : __shfl_sync(FULL, 3, 31)) f++;
                unsigned b = lane < 10 ? __ballot_sync(__activemask(), v & 1) : 7u;
                sh[t] = v * 2;
                int z = n > 0 ? (__syncthreads(), sh[63 - t]) : 0;
                int s = (n > 5 && __syncthreads_and(v < 0)) + 2 * (n > 0 && __syncthreads_or(v == 63));
                o[0] = a; o[1] = ok; o[2] = miss; o[3] = x; o[4] = y; o[5] = k;
                o[6] = d; o[7] = f; o[8] = (int)b; o[9] = z; o[10] = s; o[11] = calls;
            }
            """;

    /**
     * in = {1, 0, 1, …, 63}: n = 1 and v = t. Derived by hand, per lane of each warp:
     * <ul>
     * <li>a: warp 0 votes (lanes 21..31 have v &gt; 20), 1; warp 1 fails {@code w < n} and never votes, 0;</li>
     * <li>ok: warp 0 fails {@code v >= 8} at k = 1 (lanes 0..7) and stops voting, 0 after 2 votes; warp 1 has
     * v &gt;= 32 and passes all 4, 1;</li>
     * <li>miss: warp 1 is true without a ballot; warp 0's ballot of {@code lane % 3 == 0} is bits 0, 3, …, 30,
     * 0x49249249, so false after 1 call;</li>
     * <li>x: warp 0 lane 5's v, 5; warp 1 its xor-1 partner's, 32 + (lane ^ 1);</li>
     * <li>y: warp 1 takes the first arm without voting, shuffle down by 1 (lane 31 keeps its own); warp 0 fails
     * {@code v < 16}, then lane 3 has v == 3, so shuffle up by 2 (lanes 0 and 1 keep their own);</li>
     * <li>k: the ballot is nonzero while 4k + 8w &lt;= 31: k = 8 in warp 0, 6 in warp 1;</li>
     * <li>d: votes from d = 3 on; some lane &gt; 8d + 8w: warp 0 true at 3 (lanes 25..31), false at 4, d = 4
     * after 2 votes; warp 1 false at 3, d = 3 after 1;</li>
     * <li>f: steps of 2 (warp 0) give j = 0, 2, 4, 6, 8: 5; steps of 3 (warp 1), j = 0, 3, 6, 9: 4;</li>
     * <li>b: lanes 0..9 ballot among themselves, the odd ones: 0x2AA; the others 7;</li>
     * <li>z: the barrier runs (n &gt; 0), then sh[63 - t] = 2 (63 - t); s: the first barrier does not run, the
     * second sees v == 63 in thread 63: 0 + 2 * 1 = 2;</li>
     * <li>calls: warp 0 1 + 2 + 1 + 2 = 6, warp 1 0 + 4 + 0 + 1 = 5.</li>
     * </ul>
     */
    private static int[] expected() {
        int[] e = new int[THREADS * SLOTS];
        for (int t = 0; t < THREADS; t++) {
            int lane = t & 31;
            boolean w0 = t < 32;
            int y = w0 ? (lane >= 2 ? t - 2 : t) : (lane < 31 ? t + 1 : t);
            int[] row = {w0 ? 1 : 0, w0 ? 0 : 1, w0 ? 0 : 1, w0 ? 5 : 32 + (lane ^ 1), y, w0 ? 8 : 6, w0 ? 4 : 3,
                w0 ? 5 : 4, lane < 10 ? 0x2AA : 7, 2 * (63 - t), 2, w0 ? 6 : 5};
            System.arraycopy(row, 0, e, t * SLOTS, SLOTS);
        }
        return e;
    }

    private static final String EDGES = """
            #define FULL 0xffffffffu
            struct P { int a; float b; };
            __device__ P mk(int v) { P p; p.a = v; p.b = v * 0.5f; return p; }
            __device__ bool both(int v, int w) { return w == 0 && __all_sync(FULL, v >= 0) || __any_sync(FULL, v == 70); }
            extern "C" __global__ void m(const int* in, const float* fin, int* out) {
                __shared__ int sh[64];
                int t = threadIdx.x, lane = t & 31, w = t >> 5;
                int v = in[t];
                int n = in[64];
                int* o = out + 9 * t;
                const int* p = w == 0 ? in : nullptr;
                o[0] = p && __shfl_sync(FULL, p[lane], 31) == 31;
                o[1] = fin[t] || __any_sync(FULL, v == 40);
                P q = w == 0 ? mk(__shfl_sync(FULL, v, 7)) : mk(v);
                o[2] = q.a;
                o[3] = (int)(q.b * 2);
                sh[t] = v + 100;
                n > 0 ? __syncthreads() : __syncwarp();
                o[4] = sh[(t + 32) & 63];
                o[5] = both(v, w);
                int cnt = 0;
                for (int i = 0; i < 6; i++) {
                    if (i == 1) continue;
                    if (i % 2 == 0 && __ballot_sync(FULL, lane < i) == 0) continue;
                    cnt += i > 3 ? __shfl_sync(FULL, i, 0) : 1;
                    if (w == 1 && __any_sync(FULL, i == 4)) break;
                }
                o[6] = cnt;
                o[7] = __any_sync(FULL, v == 3) ? 100 : __popc(__ballot_sync(FULL, v > 60));
                int fi = 0;
                for (int k = w == 0 && __any_sync(FULL, v == 5) ? 3 : 1; k < 4; k++) fi++;
                o[8] = fi;
            }
            """;

    /**
     * in = {0, 1, …, 63, 1} (v = t, n = 1), fin = 0.0f in warp 0, 1.5f in warp 1. By hand:
     * <ul>
     * <li>o[0]: warp 0's p is {@code in}, lane 31's in[31] is 31, 1; warp 1's p is null, so p[lane] is never read,
     * 0;</li>
     * <li>o[1]: 0.0f is false, and no lane of warp 0 has v == 40, 0; 1.5f is true, 1;</li>
     * <li>o[2], o[3]: warp 0 makes mk(7), a = 7 and 2 * 3.5 = 7; warp 1 mk(t), t and t;</li>
     * <li>o[4]: after the barrier, sh[(t + 32) &amp; 63] = that index + 100: t + 132 in warp 0, t + 68 in warp 1;</li>
     * <li>o[5]: warp 0's {@code &&} holds, 1; warp 1 asks {@code __any_sync(v == 70)}, 0;</li>
     * <li>o[6]: i = 0 (no lane below 0) and 1 continue; 2 and 3 add 1; 4 adds lane 0's 4, then warp 1 breaks
     * (6); warp 0 adds 5 at i = 5 (11);</li>
     * <li>o[7]: warp 0 has v == 3, 100; warp 1 counts t = 61, 62, 63, 3;</li>
     * <li>o[8]: warp 0 has v == 5, so its loop starts at 3 and runs once; warp 1's starts at 1, 3 times.</li>
     * </ul>
     */
    private static int[] edgesExpected() {
        int[] e = new int[THREADS * EDGE_SLOTS];
        for (int t = 0; t < THREADS; t++) {
            boolean w0 = t < 32;
            int[] row = {w0 ? 1 : 0, w0 ? 0 : 1, w0 ? 7 : t, w0 ? 7 : t, w0 ? t + 132 : t + 68, w0 ? 1 : 0,
                w0 ? 11 : 6, w0 ? 100 : 3, w0 ? 1 : 3};
            System.arraycopy(row, 0, e, t * EDGE_SLOTS, EDGE_SLOTS);
        }
        return e;
    }

    private static int[] edgesInput() {
        int[] in = new int[THREADS + 1];
        for (int t = 0; t < THREADS; t++) {
            in[t] = t;
        }
        in[THREADS] = 1;
        return in;
    }

    private static float[] edgesFloats() {
        float[] f = new float[THREADS];
        for (int t = 32; t < THREADS; t++) {
            f[t] = 1.5f;
        }
        return f;
    }

    @Test
    void pointersFloatsStructsVoidArmsFunctionsAndJumpsToo() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer in = ints(dev, edgesInput());
            UnifiedBuffer fin = floats(dev, edgesFloats());
            UnifiedBuffer out = ints(dev, new int[THREADS * EDGE_SLOTS]);
            run(dev, dev.compile(EDGES, "edges.cu").function("m"), 1, THREADS,
                    KernelArgs.builder().pointer(in).pointer(fin).pointer(out).build());
            assertArrayEquals(edgesExpected(), readInts(out, THREADS * EDGE_SLOTS));
        }
    }

    @Test
    void nvccsPtxAgreesOnTheEdgesToo() {
        OracleTests.assumeNvcc();
        ByteBuffer f = ByteBuffer.allocate(4 * THREADS).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : edgesFloats()) {
            f.putFloat(x);
        }
        OracleCase c = new OracleCase("edges", EDGES, "m", LaunchConfig.of(1, THREADS), List.of(
                new OracleArg.Buffer("in", OracleType.I32, littleEndianInts(edgesInput()), 0),
                new OracleArg.Buffer("fin", OracleType.F32, f.array(), 0),
                new OracleArg.Buffer("out", OracleType.I32, littleEndianInts(new int[THREADS * EDGE_SLOTS]), 0)));
        try (DifferentialOracle g = DifferentialOracle.create()) {
            assertInstanceOf(OracleResult.Equal.class, g.check(c));
        }
    }

    private static int[] input() {
        int[] in = new int[1 + THREADS];
        in[0] = 1;
        for (int t = 0; t < THREADS; t++) {
            in[1 + t] = t;
        }
        return in;
    }

    @Test
    void theEngineEvaluatesThemOnlyWhereCxxDoes() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer in = ints(dev, input());
            UnifiedBuffer out = ints(dev, new int[THREADS * SLOTS]);
            run(dev, dev.compile(SOURCE, "collcond.cu").function("m"), 1, THREADS,
                    KernelArgs.builder().pointer(in).pointer(out).build());
            assertArrayEquals(expected(), readInts(out, THREADS * SLOTS));
        }
    }

    @Test
    void nvccsPtxAgreesWithTheEngine() {
        OracleTests.assumeNvcc();
        OracleCase c = new OracleCase("collcond", SOURCE, "m", LaunchConfig.of(1, THREADS), List.of(
                new OracleArg.Buffer("in", OracleType.I32, littleEndianInts(input()), 0),
                new OracleArg.Buffer("out", OracleType.I32, littleEndianInts(new int[THREADS * SLOTS]), 0)));
        try (DifferentialOracle g = DifferentialOracle.create()) {
            assertInstanceOf(OracleResult.Equal.class, g.check(c));
        }
    }
}
