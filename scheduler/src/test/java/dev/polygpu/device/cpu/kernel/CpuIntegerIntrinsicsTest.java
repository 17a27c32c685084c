package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CUDA's integer intrinsics in the CPU device's kernel engine ({@code __umulhi}, {@code __mul64hi},
 * {@code __mul24} on operands wider than 24 bits, {@code __byte_perm}, the funnel shifts, {@code __sad}, the
 * halving adds, {@code __dp4a}, {@code __dp2a_lo/hi}, {@code __brevll}), which the differential oracle's corpus
 * found missing or ({@code __mul24}) computed as a full multiply; and {@code __activemask()} inside a branch,
 * which named every lane of the warp instead of those that took the branch. Expected values are computed here
 * from the CUDA Math API's definitions, with {@link BigInteger} where products overflow.
 */
@Timeout(60)
class CpuIntegerIntrinsicsTest {
    private static final long SEED = 0x1A7E_6E25L;
    private static final int N = 64;
    private static Device dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        dev.close();
    }

    private static final String INTRINSICS = """
            __global__ void k(const unsigned int* in, unsigned int* out, unsigned long long* wide)
            {
                int i = threadIdx.x;
                unsigned int x = in[3 * i], y = in[3 * i + 1], z = in[3 * i + 2];
                unsigned int* o = out + 20 * i;
                o[0] = __umulhi(x, y);
                o[1] = __mulhi((int) x, (int) y);
                o[2] = __mul24((int) x, (int) y);
                o[3] = __umul24(x, y);
                o[4] = __byte_perm(x, y, z);
                o[5] = __funnelshift_l(x, y, z);
                o[6] = __funnelshift_lc(x, y, z);
                o[7] = __funnelshift_r(x, y, z);
                o[8] = __funnelshift_rc(x, y, z);
                o[9] = __sad((int) x, (int) y, z);
                o[10] = __usad(x, y, z);
                o[11] = __rhadd((int) x, (int) y);
                o[12] = __uhadd(x, y);
                o[13] = __urhadd(x, y);
                o[14] = __dp4a((int) x, (int) y, (int) z);
                o[15] = __dp4a(x, y, z);
                o[16] = __dp2a_lo((int) x, (int) y, (int) z);
                o[17] = __dp2a_hi(x, y, z);
                o[18] = __dp2a_hi((int) x, (int) y, (int) z);
                o[19] = __dp2a_lo(x, y, z);
                unsigned long long a = ((unsigned long long) x << 32) | y;
                unsigned long long b = ((unsigned long long) z << 32) | x;
                wide[3 * i] = __umul64hi(a, b);
                wide[3 * i + 1] = (unsigned long long) __mul64hi((long long) a, (long long) b);
                wide[3 * i + 2] = __brevll(a);
            }""";

    private static BigInteger u(long v, int bits) {
        BigInteger b = BigInteger.valueOf(v);
        return bits == 64 ? b.and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE))
                : BigInteger.valueOf(v & ((1L << bits) - 1));
    }

    private static long low(BigInteger v, int from, int bits) {
        return v.shiftRight(from).and(BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)).longValue();
    }

    private static long part(long v, int width, int index, boolean signed) {
        long p = (v >>> (width * index)) & ((1L << width) - 1);
        return signed && p >= 1L << (width - 1) ? p - (1L << width) : p;
    }

    /** What each output word must be for inputs x, y, z, by the CUDA Math API's definitions. */
    private static long[] expected(int xi, int yi, int zi) {
        long x = Integer.toUnsignedLong(xi);
        long y = Integer.toUnsignedLong(yi);
        long z = Integer.toUnsignedLong(zi);
        long[] e = new long[20];
        e[0] = low(u(x, 32).multiply(u(y, 32)), 32, 32);
        e[1] = low(BigInteger.valueOf(xi).multiply(BigInteger.valueOf(yi)), 32, 32);
        e[2] = part(x, 24, 0, true) * part(y, 24, 0, true);
        e[3] = (x & 0xFFFFFF) * (y & 0xFFFFFF);
        long bytes = x | (y << 32);
        for (int n = 0; n < 4; n++) {
            long selector = (z >>> (4 * n)) & 7;
            e[4] |= ((bytes >>> (8 * selector)) & 0xFF) << (8 * n);
        }
        BigInteger pair = u(y, 32).shiftLeft(32).or(u(x, 32));
        e[5] = low(pair.shiftLeft((int) (z % 32)), 32, 32);
        e[6] = low(pair.shiftLeft((int) Math.min(z, 32)), 32, 32);
        e[7] = low(pair.shiftRight((int) (z % 32)), 0, 32);
        e[8] = low(pair.shiftRight((int) Math.min(z, 32)), 0, 32);
        e[9] = Math.abs((long) xi - yi) + z;
        e[10] = Math.abs(x - y) + z;
        e[11] = Math.floorDiv((long) xi + yi + 1, 2);
        e[12] = (x + y) / 2;
        e[13] = (x + y + 1) / 2;
        e[14] = zi;
        e[15] = z;
        for (int n = 0; n < 4; n++) {
            e[14] += part(x, 8, n, true) * part(y, 8, n, true);
            e[15] += part(x, 8, n, false) * part(y, 8, n, false);
        }
        e[16] = zi + part(x, 16, 0, true) * part(y, 8, 0, true) + part(x, 16, 1, true) * part(y, 8, 1, true);
        e[17] = z + part(x, 16, 0, false) * part(y, 8, 2, false) + part(x, 16, 1, false) * part(y, 8, 3, false);
        e[18] = zi + part(x, 16, 0, true) * part(y, 8, 2, true) + part(x, 16, 1, true) * part(y, 8, 3, true);
        e[19] = z + part(x, 16, 0, false) * part(y, 8, 0, false) + part(x, 16, 1, false) * part(y, 8, 1, false);
        return e;
    }

    @Test
    void integerIntrinsicsFollowTheirDefinitions() {
        Random r = new Random(SEED);
        int[] in = new int[3 * N];
        for (int i = 0; i < in.length; i++) {
            in[i] = r.nextInt();
        }
        int[][] edges = {{0x00FF_FFFF, 0x0000_0003, 32}, {0x0180_0001, 0x0000_0002, 33}, {-1, -1, -1},
            {Integer.MIN_VALUE, Integer.MAX_VALUE, 0x7654_3210}, {5, 9, 0}};
        for (int e = 0; e < edges.length; e++) {
            System.arraycopy(edges[e], 0, in, 3 * e, 3);
        }
        KernelFunction k = KernelTestSupport.kernel(dev, INTRINSICS, "intrinsics.cu", "k");
        UnifiedBuffer input = ints(dev, in);
        UnifiedBuffer out = dev.allocate(4L * 20 * N);
        UnifiedBuffer wide = dev.allocate(8L * 3 * N);
        KernelTestSupport.run(dev, k, 1, N, KernelArgs.builder().pointer(input).pointer(out).pointer(wide).build());
        int[] got = readInts(out, 20 * N);
        long[] gotWide = readLongs(wide, 3 * N);
        for (int i = 0; i < N; i++) {
            int x = in[3 * i];
            int y = in[3 * i + 1];
            int z = in[3 * i + 2];
            long[] e = expected(x, y, z);
            for (int j = 0; j < e.length; j++) {
                assertEquals((int) e[j], got[20 * i + j], "word " + j + " for x=" + Integer.toHexString(x) + " y="
                        + Integer.toHexString(y) + " z=" + Integer.toHexString(z) + " (seed " + SEED + ")");
            }
            BigInteger a = u(Integer.toUnsignedLong(x) << 32 | Integer.toUnsignedLong(y), 64);
            BigInteger b = u(Integer.toUnsignedLong(z) << 32 | Integer.toUnsignedLong(x), 64);
            assertEquals(low(a.multiply(b), 64, 64), gotWide[3 * i], "__umul64hi, row " + i);
            assertEquals(low(BigInteger.valueOf(a.longValue()).multiply(BigInteger.valueOf(b.longValue())), 64, 64),
                    gotWide[3 * i + 1], "__mul64hi, row " + i);
            assertEquals(Long.reverse(a.longValue()), gotWide[3 * i + 2], "__brevll, row " + i);
        }
        // __mul24 ignores the high byte and reads the low 24 bits as signed: 0x00FFFFFF is -1, 0x01800001 is
        // -2^23 + 1 (a full multiply would give 0x02FFFFFD and 0x03000002)
        assertEquals(-3, got[2]);
        assertEquals(2 * (-(1 << 23) + 1), got[20 + 2]);
    }

    @Test
    void activemaskInsideABranchNamesTheLanesThatTookIt() {
        // The warp-aggregated counter: each group of lanes that passes elects its lowest lane, which adds the
        // group's size, so the total is the number of passing lanes whatever the grouping.
        String src = """
                __global__ void k(const int* v, unsigned int* masks, int* total)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    masks[i] = 0;
                    if (v[i] % 3 == 0) {
                        unsigned int active = __activemask();
                        masks[i] = active;
                        if ((threadIdx.x & 31) == __ffs(active) - 1) {
                            atomicAdd(total, __popc(active));
                        }
                    }
                }""";
        int blocks = 2;
        int threads = 96;
        Random r = new Random(SEED + 1);
        int[] v = new int[blocks * threads];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.nextInt(1000);
        }
        UnifiedBuffer vb = ints(dev, v);
        UnifiedBuffer masks = dev.allocate(4L * v.length);
        UnifiedBuffer total = ints(dev, new int[] {0});
        KernelTestSupport.run(dev, KernelTestSupport.kernel(dev, src, "active.cu", "k"), blocks, threads,
                KernelArgs.builder().pointer(vb).pointer(masks).pointer(total).build());
        int[] got = readInts(masks, v.length);
        int passing = 0;
        for (int w = 0; w < v.length / 32; w++) {
            int expectedMask = 0;
            for (int lane = 0; lane < 32; lane++) {
                if (v[32 * w + lane] % 3 == 0) {
                    expectedMask |= 1 << lane;
                    passing++;
                }
            }
            for (int lane = 0; lane < 32; lane++) {
                assertEquals(v[32 * w + lane] % 3 == 0 ? expectedMask : 0, got[32 * w + lane],
                        "warp " + w + " lane " + lane + " (seed " + (SEED + 1) + ")");
            }
        }
        assertEquals(passing, readInts(total, 1)[0]);
    }
}
