package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Half precision ({@code __half}) on the CPU device's kernel engine. Expected values are computed independently of
 * the engine: half bit patterns are decoded exactly into {@link BigDecimal}s, the operation is done exactly (or to
 * 60 digits for division), and the result is rounded to binary16, ties to even, by {@link #toHalf} here.
 */
@Timeout(60)
class CpuHalfTest {
    private static final long SEED = 20_250_613L;
    private static Device dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    // ---- an independent binary16 model ---------------------------------------------------------------------

    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    private static final BigDecimal OVERFLOW = new BigDecimal(65520);
    private static final BigDecimal MIN_NORMAL = pow2(-14);

    private static BigDecimal pow2(int k) {
        return k >= 0 ? TWO.pow(k) : BigDecimal.ONE.divide(TWO.pow(-k));
    }

    private static boolean isNaN(int bits) {
        return (bits & 0x7C00) == 0x7C00 && (bits & 0x3FF) != 0;
    }

    private static boolean isInf(int bits) {
        return (bits & 0x7FFF) == 0x7C00;
    }

    /** The exact value of a finite half. */
    private static BigDecimal value(int bits) {
        int exp = (bits >> 10) & 0x1F;
        int mant = bits & 0x3FF;
        BigDecimal v = exp == 0 ? new BigDecimal(mant).multiply(pow2(-24))
                : new BigDecimal(1024 + mant).multiply(pow2(exp - 25));
        return (bits & 0x8000) != 0 ? v.negate() : v;
    }

    /** The value of any half as a double (exact), for special cases and comparisons. */
    private static double asDouble(int bits) {
        if (isNaN(bits)) {
            return Double.NaN;
        }
        if (isInf(bits)) {
            return (bits & 0x8000) != 0 ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        double d = value(bits).doubleValue();
        return d == 0 && (bits & 0x8000) != 0 ? -0.0 : d;
    }

    /** Rounds an exact value to binary16, ties to even; {@code negativeZero} gives the sign of a zero result. */
    private static int toHalf(BigDecimal x, boolean negativeZero) {
        int sign = x.signum() < 0 || (x.signum() == 0 && negativeZero) ? 0x8000 : 0;
        BigDecimal a = x.abs();
        if (a.compareTo(OVERFLOW) >= 0) {
            return sign | 0x7C00;
        }
        int e = -14;
        if (a.compareTo(MIN_NORMAL) >= 0) {
            while (a.compareTo(pow2(e + 1)) >= 0) {
                e++;
            }
        }
        // Halves near a are the multiples of 2^(e-10) (2^-24 below the normals).
        BigDecimal n = a.multiply(pow2(10 - e)).setScale(0, RoundingMode.HALF_EVEN);
        int units = n.intValueExact();
        if (units == 0) {
            return sign;
        }
        // Subnormal: the count of 2^-24 units is the encoding; normal: exponent field e+15, the leading 1 dropped (a
        // carry to 2048 units moves to the next exponent, which the addition does by itself).
        return sign | (e == -14 && units < 1024 ? units : ((e + 15) << 10) + (units - 1024));
    }

    /** Rounds a double (NaN and infinities included) to binary16. */
    private static int toHalf(double d) {
        if (Double.isNaN(d)) {
            return 0x7E00;
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? 0x7C00 : 0xFC00;
        }
        return toHalf(new BigDecimal(d), 1 / d < 0);
    }

    /** Expected result of a two-operand operation: exact on finite inputs, IEEE rules (via double) otherwise. */
    private static int expected(char op, int a, int b, int c) {
        double da = asDouble(a);
        double db = asDouble(b);
        double dc = asDouble(c);
        double viaDouble = switch (op) {
            case '+' -> da + db;
            case '-' -> da - db;
            case '*' -> da * db;
            case '/' -> da / db;
            default -> da * db + dc;
        };
        boolean finiteIn = Double.isFinite(da) && Double.isFinite(db) && (op != 'f' || Double.isFinite(dc));
        if (!finiteIn || (op == '/' && db == 0)) {
            return toHalf(viaDouble);
        }
        BigDecimal x = value(a);
        BigDecimal y = value(b);
        BigDecimal exact = switch (op) {
            case '+' -> x.add(y);
            case '-' -> x.subtract(y);
            case '*' -> x.multiply(y);
            case '/' -> x.divide(y, new MathContext(60, RoundingMode.HALF_EVEN));
            default -> x.multiply(y).add(value(c));
        };
        return toHalf(exact, viaDouble == 0 && 1 / viaDouble < 0);
    }

    // ---- buffers of halves -----------------------------------------------------------------------------------

    private static UnifiedBuffer halves(int[] bits) {
        UnifiedBuffer b = dev.allocate(2L * Math.max(1, bits.length));
        for (int i = 0; i < bits.length; i++) {
            b.hostView().set(ValueLayout.JAVA_SHORT_UNALIGNED, 2L * i, (short) bits[i]);
        }
        return b;
    }

    private static int[] readHalves(UnifiedBuffer b, int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = b.hostView().get(ValueLayout.JAVA_SHORT_UNALIGNED, 2L * i) & 0xFFFF;
        }
        return r;
    }

    private static void assertHalf(int expected, int actual, String what) {
        if (isNaN(expected)) {
            assertTrue(isNaN(actual), () -> what + ": expected NaN, got 0x" + Integer.toHexString(actual));
        } else if (expected != actual) {
            fail(what + ": expected 0x" + Integer.toHexString(expected) + " (" + asDouble(expected) + "), got 0x"
                    + Integer.toHexString(actual) + " (" + asDouble(actual) + "), seed " + SEED);
        }
    }

    /** Special values, ties and random bit patterns as (a, b, c) triples. */
    private static int[][] operands() {
        int[] special = {0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3C01, 0x1000, 0x7BFF,
            0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x6800, 0x4200, 0x3800, 0x2E66, 0x5BFF, 0x0200, 0x1400, 0x7800};
        List<int[]> t = new ArrayList<>();
        for (int a : special) {
            for (int b : special) {
                t.add(new int[] {a, b, special[(a * 31 + b) % special.length]});
            }
        }
        // Ties: 2048 + 1 (to 2048), 2048 + 3 (to 2052), 1 + 2^-11 (to 1), (1 + 2^-10) + 2^-11 (to 1 + 2^-9),
        // 65504 + 16 (to inf: 65520 is the midpoint), 65504 + 8 (to 65504).
        t.add(new int[] {0x6800, 0x3C00, 0});
        t.add(new int[] {0x6800, 0x4200, 0});
        t.add(new int[] {0x3C00, 0x1000, 0});
        t.add(new int[] {0x3C01, 0x1000, 0});
        t.add(new int[] {0x7BFF, 0x4C00, 0});
        t.add(new int[] {0x7BFF, 0x4800, 0});
        // __hfma(1046/1024, 2005/2048, 2048) = 2049 + 78·2^-21: just above the tie 2049, so 2050; rounded through
        // float first it would become the tie 2049 and then 2048.
        t.add(new int[] {0x3C16, 0x3BD5, 0x6800});
        Random r = new Random(SEED);
        for (int i = 0; i < 3000; i++) {
            // Mostly moderate exponents so that sums and products stay finite and carry information.
            int a = r.nextInt(4) == 0 ? r.nextInt(0x10000) : (r.nextInt(2) << 15) | (r.nextInt(0x5000) + 0x1000);
            int b = r.nextInt(4) == 0 ? r.nextInt(0x10000) : (r.nextInt(2) << 15) | (r.nextInt(0x5000) + 0x1000);
            int c = r.nextInt(0x10000);
            t.add(new int[] {a, b, c});
        }
        return t.toArray(int[][]::new);
    }

    // ---- arithmetic ------------------------------------------------------------------------------------------

    @Test
    void arithmeticMatchesExactRoundingToNearestEven() {
        String src = """
                #include <cuda_fp16.h>

                __global__ void ops(const __half* a, const __half* b, const __half* c, __half* o, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i >= n) return;
                    __half x = a[i], y = b[i];
                    __half* r = o + 12 * i;
                    r[0] = x + y;
                    r[1] = x - y;
                    r[2] = x * y;
                    r[3] = x / y;
                    r[4] = __hfma(x, y, c[i]);
                    r[5] = __hadd(x, y);
                    r[6] = __hsub(x, y);
                    r[7] = __hmul(x, y);
                    r[8] = __hdiv(x, y);
                    half z = x;
                    z += y;
                    r[9] = z;
                    r[10] = -x;
                    r[11] = __hneg(__habs(x));
                }
                """;
        int[][] t = operands();
        int n = t.length;
        int[] a = new int[n];
        int[] b = new int[n];
        int[] c = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = t[i][0];
            b[i] = t[i][1];
            c[i] = t[i][2];
        }
        UnifiedBuffer o = dev.allocate(2L * 12 * n);
        run(dev, kernel(dev, src, "ops.cu", "ops"), (n + 127) / 128, 128, KernelArgs.builder().pointer(halves(a))
                .pointer(halves(b)).pointer(halves(c)).pointer(o).i32(n).build());
        int[] got = readHalves(o, 12 * n);
        for (int i = 0; i < n; i++) {
            String in = String.format("a=0x%04x b=0x%04x c=0x%04x", a[i], b[i], c[i]);
            int add = expected('+', a[i], b[i], 0);
            int sub = expected('-', a[i], b[i], 0);
            int mul = expected('*', a[i], b[i], 0);
            int div = expected('/', a[i], b[i], 0);
            assertHalf(add, got[12 * i], "x + y, " + in);
            assertHalf(sub, got[12 * i + 1], "x - y, " + in);
            assertHalf(mul, got[12 * i + 2], "x * y, " + in);
            assertHalf(div, got[12 * i + 3], "x / y, " + in);
            assertHalf(expected('f', a[i], b[i], c[i]), got[12 * i + 4], "__hfma, " + in);
            assertHalf(add, got[12 * i + 5], "__hadd, " + in);
            assertHalf(sub, got[12 * i + 6], "__hsub, " + in);
            assertHalf(mul, got[12 * i + 7], "__hmul, " + in);
            assertHalf(div, got[12 * i + 8], "__hdiv, " + in);
            assertHalf(add, got[12 * i + 9], "z += y, " + in);
            assertHalf(a[i] ^ 0x8000, got[12 * i + 10], "-x, " + in);
            assertHalf(a[i] | 0x8000, got[12 * i + 11], "-|x|, " + in);
        }
    }

    @Test
    void comparisonsMaxAndMinFollowIeee() {
        String src = """
                __global__ void cmp(const __half* a, const __half* b, int* f, __half* mm, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i >= n) return;
                    __half x = a[i], y = b[i];
                    f[i] = (x == y) | (x != y) << 1 | (x < y) << 2 | (x <= y) << 3 | (x > y) << 4 | (x >= y) << 5
                         | __heq(x, y) << 6 | __hne(x, y) << 7 | __hlt(x, y) << 8 | __hle(x, y) << 9
                         | __hgt(x, y) << 10 | __hge(x, y) << 11 | __hisnan(x) << 12 | __hneu(x, y) << 13
                         | __hequ(x, y) << 14 | __hltu(x, y) << 15 | __hgeu(x, y) << 16 | (x ? 1 : 0) << 17
                         | (!y) << 18;
                    mm[2 * i] = __hmax(x, y);
                    mm[2 * i + 1] = __hmin(x, y);
                }
                """;
        int[][] t = operands();
        int n = t.length;
        int[] a = new int[n];
        int[] b = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = t[i][0];
            b[i] = t[i][1];
        }
        UnifiedBuffer f = dev.allocate(4L * n);
        UnifiedBuffer mm = dev.allocate(4L * n);
        run(dev, kernel(dev, src, "cmp.cu", "cmp"), (n + 127) / 128, 128,
                KernelArgs.builder().pointer(halves(a)).pointer(halves(b)).pointer(f).pointer(mm).i32(n).build());
        int[] flags = readInts(f, n);
        int[] m = readHalves(mm, 2 * n);
        for (int i = 0; i < n; i++) {
            double x = asDouble(a[i]);
            double y = asDouble(b[i]);
            boolean unordered = Double.isNaN(x) || Double.isNaN(y);
            int e = (x == y ? 1 : 0) | (x != y ? 1 : 0) << 1 | (x < y ? 1 : 0) << 2 | (x <= y ? 1 : 0) << 3
                    | (x > y ? 1 : 0) << 4 | (x >= y ? 1 : 0) << 5 | (x == y ? 1 : 0) << 6
                    | (x < y || x > y ? 1 : 0) << 7 | (x < y ? 1 : 0) << 8 | (x <= y ? 1 : 0) << 9
                    | (x > y ? 1 : 0) << 10 | (x >= y ? 1 : 0) << 11 | (Double.isNaN(x) ? 1 : 0) << 12
                    | (x != y ? 1 : 0) << 13 | (x == y || unordered ? 1 : 0) << 14 | (x < y || unordered ? 1 : 0) << 15
                    | (x >= y || unordered ? 1 : 0) << 16 | (x != 0 ? 1 : 0) << 17 | (y == 0 ? 1 : 0) << 18;
            assertEquals(Integer.toBinaryString(e), Integer.toBinaryString(flags[i]),
                    String.format("comparisons of 0x%04x and 0x%04x", a[i], b[i]));
            // fmax/fmin semantics: a NaN gives the other operand; zeros of either sign compare equal.
            double max = Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.max(x, y);
            double min = Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.min(x, y);
            assertEquals(max, asDouble(m[2 * i]), 0.0, String.format("__hmax(0x%04x, 0x%04x)", a[i], b[i]));
            assertEquals(min, asDouble(m[2 * i + 1]), 0.0, String.format("__hmin(0x%04x, 0x%04x)", a[i], b[i]));
        }
    }

    // ---- conversions -----------------------------------------------------------------------------------------

    @Test
    void floatToHalfAndBackRoundsToNearestEven() {
        String src = """
                #include <cuda_fp16.h>
                __global__ void conv(const float* x, __half* h, float* back, float* viaOps, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        h[i] = __float2half(x[i]);
                        back[i] = __half2float(h[i]);
                        __half k = x[i];          // constructor from float
                        float f = k;              // conversion operator
                        viaOps[i] = f;
                    }
                }
                """;
        Random r = new Random(SEED);
        List<Float> xs = new ArrayList<>(List.of(0f, -0f, 1f, 1.0004883f, 1.00048828125f, 1.0014648f, 65504f,
                65519.996f, 65520f, -65520f, 1e6f, 5.9604645e-8f, 2.9802322e-8f, 2.9802326e-8f, 8.940697e-8f,
                6.097555e-5f, 6.1035156e-5f, 0.1f, -3.3333f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                Float.NaN, Float.MIN_VALUE, 1e-30f));
        for (int i = 0; i < 4000; i++) {
            xs.add(Float.intBitsToFloat(r.nextInt(2) << 31 | (r.nextInt(0x14000000) + 0x32000000)));
        }
        int n = xs.size();
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = xs.get(i);
        }
        UnifiedBuffer h = dev.allocate(2L * n);
        UnifiedBuffer back = dev.allocate(4L * n);
        UnifiedBuffer via = dev.allocate(4L * n);
        run(dev, kernel(dev, src, "conv.cu", "conv"), (n + 255) / 256, 256,
                KernelArgs.builder().pointer(floats(dev, x)).pointer(h).pointer(back).pointer(via).i32(n).build());
        int[] hb = readHalves(h, n);
        float[] b = readFloats(back, n);
        float[] v = readFloats(via, n);
        for (int i = 0; i < n; i++) {
            int e = Float.isFinite(x[i]) ? toHalf(new BigDecimal(x[i]), 1 / x[i] < 0) : toHalf((double) x[i]);
            assertHalf(e, hb[i], "__float2half(" + x[i] + ")");
            double ev = asDouble(e);
            assertEquals(ev, b[i], 0.0, "__half2float(__float2half(" + x[i] + "))");
            assertEquals(ev, v[i], 0.0, "float(__half(" + x[i] + "))");
        }
    }

    @Test
    void doubleAndIntegerConversionsRoundOnce() {
        String src = """
                __global__ void conv(const double* d, const int* k, __half* h, int* back, int n)
                {
                    int i = threadIdx.x;
                    if (i < n) {
                        h[2 * i] = __double2half(d[i]);
                        h[2 * i + 1] = __int2half_rn(k[i]);
                        back[i] = __half2int_rz(__float2half((float) d[i]));
                    }
                }
                """;
        // 1 + 2^-11 + 2^-40 rounds up to 1 + 2^-10 directly, but to 1 through float (1 + 2^-11 is a half tie).
        double[] d = {1 + 0x1p-11 + 0x1p-40, 1 + 0x1p-11, -2.75, 65519.999, 65520, 3e-8, 2.9802322387695312e-8,
            1e300, -1e-300, 123.456, -7.999};
        int[] k = {2049, 2051, -3, 65519, 65520, 100000, -65536, 0, 4097, 7, -2049};
        int n = d.length;
        UnifiedBuffer h = dev.allocate(4L * n);
        UnifiedBuffer back = dev.allocate(4L * n);
        run(dev, kernel(dev, src, "dconv.cu", "conv"), 1, 32,
                KernelArgs.builder().pointer(doubles(dev, d)).pointer(ints(dev, k)).pointer(h).pointer(back).i32(n)
                        .build());
        int[] got = readHalves(h, 2 * n);
        int[] ints = readInts(back, n);
        for (int i = 0; i < n; i++) {
            assertHalf(toHalf(new BigDecimal(d[i]), 1 / d[i] < 0), got[2 * i], "__double2half(" + d[i] + ")");
            assertHalf(toHalf(new BigDecimal(k[i]), false), got[2 * i + 1], "__int2half_rn(" + k[i] + ")");
            double hv = asDouble(toHalf((double) (float) d[i]));
            int expectInt = Double.isInfinite(hv) ? (hv > 0 ? Integer.MAX_VALUE : Integer.MIN_VALUE) : (int) hv;
            assertEquals(expectInt, ints[i], "__half2int_rz(__float2half(" + d[i] + "))");
        }
        assertEquals(0x3C01, got[0], "no double rounding through float");
    }

    // ---- the language around halves ------------------------------------------------------------------------

    @Test
    void sharedArraysDeviceFunctionsLocalsAndOperators() {
        String src = """
                #include <cuda_fp16.h>
                __device__ __half axpy(__half a, __half x, __half y) { return a * x + y; }
                __device__ float widen(half h) { return h; }

                __global__ void k(const __half* in, __half* out, float* sums, int* misc)
                {
                    __shared__ __half s[64];
                    int t = threadIdx.x;
                    s[t] = in[t];
                    __syncthreads();
                    __half a = 0.5f;                  // exactly 0.5
                    __half acc = __float2half(0.0f);
                    __half loc[2] = {in[t], s[63 - t]};
                    acc = axpy(a, loc[0], loc[1]);
                    out[t] = acc;
                    __half inc = s[t];
                    inc++;
                    ++inc;
                    inc -= 1;                         // int converted to half first
                    out[64 + t] = inc;
                    out[128 + t] = t % 2 ? s[t] : -s[t];
                    sums[t] = widen(s[t]) + 1.0f;     // float arithmetic after the conversion
                    misc[t] = (int)s[t] + sizeof(__half) * 100 + (s[t] > a);
                }
                """;
        int n = 64;
        Random r = new Random(SEED + 1);
        int[] in = new int[n];
        for (int i = 0; i < n; i++) {
            in[i] = toHalf(BigDecimal.valueOf(r.nextGaussian() * 300), false);
        }
        UnifiedBuffer out = dev.allocate(2L * 3 * n);
        UnifiedBuffer sums = dev.allocate(4L * n);
        UnifiedBuffer misc = dev.allocate(4L * n);
        run(dev, kernel(dev, src, "lang.cu", "k"), 1, n,
                KernelArgs.builder().pointer(halves(in)).pointer(out).pointer(sums).pointer(misc).build());
        int[] o = readHalves(out, 3 * n);
        float[] s = readFloats(sums, n);
        int[] m = readInts(misc, n);
        for (int t = 0; t < n; t++) {
            BigDecimal x = value(in[t]);
            // a * x rounds to half, then + y rounds again: two operations, as cuda_fp16.hpp's operators do.
            int prod = toHalf(new BigDecimal("0.5").multiply(x), false);
            assertHalf(toHalf(value(prod).add(value(in[n - 1 - t])), false), o[t], "axpy at " + t);
            int plus1 = toHalf(x.add(BigDecimal.ONE), false);
            int plus2 = toHalf(value(plus1).add(BigDecimal.ONE), false);
            assertHalf(toHalf(value(plus2).subtract(BigDecimal.ONE), false), o[n + t], "++, ++, -= 1 at " + t);
            assertHalf(t % 2 == 1 ? in[t] : in[t] ^ 0x8000, o[2 * n + t], "?: at " + t);
            assertEquals((float) asDouble(in[t]) + 1.0f, s[t], 0.0f, "widen + 1 at " + t);
            double xv = asDouble(in[t]);
            assertEquals((int) xv + 200 + (xv > 0.5 ? 1 : 0), m[t], "misc at " + t);
        }
    }

    @Test
    void aHalfLoadOutOfBoundsFaultsWithTwoBytes() {
        String src = """
                __global__ void k(const __half* h, float* o)
                {
                    o[threadIdx.x] = __half2float(h[threadIdx.x + 3]);
                }
                """;
        KernelFaultException e = assertThrows(KernelFaultException.class, () -> run(dev,
                kernel(dev, src, "hoob.cu", "k"), 1, 2,
                KernelArgs.builder().pointer(halves(new int[] {1, 2, 3, 4})).pointer(dev.allocate(8)).build()));
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error());
        assertTrue(e.getMessage().contains("out-of-bounds read of 2 bytes"), e.getMessage());
        assertTrue(e.getMessage().contains("argument 'h'"), e.getMessage());
    }

    // ---- compile errors -----------------------------------------------------------------------------------

    static Stream<Arguments> compileErrors() {
        String k = "__global__ void k(__half* p, float* o) { __half h = p[0]; float f = 1.0f; ";
        return Stream.of(
                Arguments.of(k + "o[0] = h + 1.0f; }", "operator '+' between '__half' and 'float' is ambiguous"),
                Arguments.of(k + "o[0] = h == 0; }", "operator '==' between '__half' and 'int' is ambiguous"),
                Arguments.of(k + "f += h; o[0] = f; }", "operator '+=' on 'float' with a '__half' operand"),
                Arguments.of(k + "o[0] = 1 ? h : f; }", "ambiguous for __half"),
                Arguments.of(k + "o[0] = h % h; }", "defines only + - * / and comparisons for __half"),
                Arguments.of(k + "__half2 v; }", "paired half type '__half2'"),
                Arguments.of(k + "__nv_bfloat16 b; }", "bfloat16 type '__nv_bfloat16'"),
                Arguments.of(k + "p[0] = __hadd2(h, h); }", "paired-half and bfloat16 functions ('__hadd2')"),
                Arguments.of(k + "o[0] = hsqrt(h); }", "no function named 'hsqrt'"),
                Arguments.of(k + "o[0] = __hadd(h); }", "function '__hadd' expects 2 arguments"),
                Arguments.of("__global__ void k(__half h, float* o) { o[0] = h; }",
                        "kernel parameter 'h' has the type '__half'"));
    }

    @ParameterizedTest
    @MethodSource("compileErrors")
    void whatStaysRefusedIsACompileError(String src, String message) {
        CompileException e = assertThrows(CompileException.class, () -> dev.compile(src, "e.cu").function("k"));
        String got = e.diagnostics().getFirst().message();
        assertTrue(got.contains(message), () -> "expected '" + message + "' in: " + got);
    }

    @Test
    void constantExpressionsRoundToHalf() {
        // A file-scope constant converted to half is rounded when the module compiles, as at run time.
        String src = """
                __constant__ __half table[3] = {1.0009765625, 2049, 0.1f};
                __global__ void k(__half* o) { o[threadIdx.x] = table[threadIdx.x]; }
                """;
        UnifiedBuffer o = dev.allocate(6);
        run(dev, kernel(dev, src, "c.cu", "k"), 1, 3, KernelArgs.builder().pointer(o).build());
        int[] got = readHalves(o, 3);
        assertArrayEquals(new int[] {toHalf(new BigDecimal(1.0009765625), false), toHalf(new BigDecimal(2049), false),
            toHalf(new BigDecimal(0.1f), false)}, got);
    }
}
