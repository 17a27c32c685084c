package dev.polygpu.device.cpu.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleOptions;
import dev.polygpu.device.cpu.oracle.OracleOptions.NanComparison;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The PTX interpreter's {@code .f16} instructions: rounding to half against the JDK's own
 * {@link Float#floatToFloat16} (round to nearest) and against the definition of the directed modes (the
 * nearest half on the mode's side, checked over all halves' order), and nvcc's PTX for a kernel of half
 * arithmetic, comparisons and conversions against the CUDA C engine on the differential oracle.
 */
class PtxHalfTest {
    private static final long SEED = 16_161_616L;

    @Test
    void roundingToNearestAgreesWithTheJdkForFloats() {
        for (long b = 0; b <= 0xFFFF_FFFFL; b += 241) {
            long bits = b;
            float f = Float.intBitsToFloat((int) bits);
            int want = Float.isNaN(f) ? PtxHalfOps.NAN : Float.floatToFloat16(f) & 0xFFFF;
            assertEquals(want, PtxHalfOps.toHalf(f, PtxMath.RN), () -> "float bits 0x" + Long.toHexString(bits));
        }
    }

    /** Every finite half value in order, from -65504 to 65504 (-0 and +0 both). */
    private static double[] orderedHalves() {
        double[] v = new double[2 * 0x7C00];
        int n = 0;
        for (int h = 0x7BFF; h >= 0; h--) {
            v[n++] = PtxHalfOps.value(0x8000 | h);
        }
        for (int h = 0; h <= 0x7BFF; h++) {
            v[n++] = PtxHalfOps.value(h);
        }
        return v;
    }

    @Test
    void directedRoundingGivesTheNearestHalfOnTheModesSide() {
        double[] halves = orderedHalves();
        Random rnd = new Random(SEED);
        for (int i = 0; i < 200_000; i++) {
            double v = (rnd.nextDouble() * 2 - 1) * Math.scalb(1.0, rnd.nextInt(42) - 26);
            double down = Double.NEGATIVE_INFINITY;
            double up = Double.POSITIVE_INFINITY;
            for (double h : halves) {
                if (h <= v) {
                    down = Math.max(down, h);
                }
                if (h >= v) {
                    up = Math.min(up, h);
                }
                if (h > v) {
                    break;
                }
            }
            double rm = PtxHalfOps.value(PtxHalfOps.toHalf(v, PtxMath.RM));
            double rp = PtxHalfOps.value(PtxHalfOps.toHalf(v, PtxMath.RP));
            double rz = PtxHalfOps.value(PtxHalfOps.toHalf(v, PtxMath.RZ));
            String at = "v = " + v + ", seed " + SEED;
            assertEquals(down == Double.NEGATIVE_INFINITY ? -65504 : down, Math.max(rm, -65504), at);
            assertEquals(up == Double.POSITIVE_INFINITY ? 65504 : up, Math.min(rp, 65504), at);
            assertEquals(v < 0 ? Math.min(up, 65504) : Math.max(down, -65504), rz, at);
            assertTrue(Math.abs(rz) <= Math.abs(v), at);
        }
    }

    @Test
    void overflowAndSpecialValues() {
        assertEquals(0x7C00, PtxHalfOps.toHalf(65520, PtxMath.RN), "65520 is halfway to 2^16: to infinity");
        assertEquals(0x7BFF, PtxHalfOps.toHalf(65519.99, PtxMath.RN));
        assertEquals(0x7BFF, PtxHalfOps.toHalf(1e9, PtxMath.RZ));
        assertEquals(0xFC00, PtxHalfOps.toHalf(-1e9, PtxMath.RM));
        assertEquals(0xFBFF, PtxHalfOps.toHalf(-1e9, PtxMath.RP));
        assertEquals(0x8000, PtxHalfOps.toHalf(-0.0, PtxMath.RN));
        assertEquals(0x0001, PtxHalfOps.toHalf(0x1p-24, PtxMath.RN), "the smallest subnormal");
        assertEquals(0x0000, PtxHalfOps.toHalf(0x1p-25, PtxMath.RN), "halfway to it: ties to even, 0");
        assertEquals(0x0400, PtxHalfOps.toHalf(0x1p-14 - 0x1p-26, PtxMath.RN), "rounds up to the smallest normal");
    }

    private static final String KERNEL = """
            #include <cuda_fp16.h>
            extern "C" __global__ void h(const __half* a, const float* f, __half* o, float* of, int* oi) {
                int i = threadIdx.x;
                __half x = a[i], y = a[i + 64];
                __half s = __hadd(x, y), m = __hmul(x, y), d = __hsub(x, y), q = __hdiv(x, y);
                o[i] = s; o[i + 64] = m; o[i + 128] = d; o[i + 192] = q;
                o[i + 256] = __hfma(x, y, a[i + 128]);
                o[i + 320] = __hneg(x); o[i + 384] = __habs(y);
                o[i + 448] = __hmax(x, y); o[i + 512] = __hmin(x, y);
                o[i + 576] = __float2half(f[i]); o[i + 640] = __double2half((double)f[i] * 1.0000001);
                o[i + 704] = __int2half_rn(__float_as_int(f[i]) >> 12); o[i + 768] = __ull2half_rn(f[i] < 0 ? 1ull
                        << 63 : 12345678901ull);
                o[i + 832] = x + y * s; o[i + 896] = -x;
                of[i] = __half2float(x);
                of[i + 64] = (float)(x > y) + 2.0f * (float)__hlt(x, y) + 4.0f * (float)(x == y)
                        + 8.0f * (float)__hisnan(x) + 16.0f * (float)__hgeu(x, y) + 32.0f * (float)__hne(x, y);
                oi[i] = __half2int_rz(x); oi[i + 64] = __half2uint_rz(y); oi[i + 128] = (int)__half2ll_rz(x);
                oi[i + 192] = (int)(__half2ull_rz(y) >> 3); oi[i + 256] = (int)(__half2ull_rz(x) != 0);
            }
            """;

    @Test
    void nvccsHalfCodeOnTheInterpreterAgreesWithTheEngine() {
        OracleTests.assumeNvcc();
        Random rnd = new Random(SEED);
        ByteBuffer halves = ByteBuffer.allocate(192 * 2).order(ByteOrder.LITTLE_ENDIAN);
        short[] special = {0x7C00, (short) 0xFC00, 0x7E00, 0x0001, (short) 0x8001, 0x03FF, 0x7BFF, (short) 0x8000, 0,
            0x3C00, 0x3C01, (short) 0xBC00};
        for (int i = 0; i < 192; i++) {
            short h = i < special.length ? special[i] : i % 3 == 0 ? special[rnd.nextInt(special.length)]
                    : (short) rnd.nextInt(0x10000);
            halves.putShort(h);
        }
        ByteBuffer floats = ByteBuffer.allocate(64 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64; i++) {
            floats.putFloat(i % 4 == 0 ? Float.intBitsToFloat(rnd.nextInt())
                    : (float) ((rnd.nextDouble() * 2 - 1) * Math.scalb(1.0, rnd.nextInt(44) - 28)));
        }
        OracleCase c = new OracleCase("half", KERNEL, "h", LaunchConfig.of(1, 64), List.of(
                new OracleArg.Buffer("a", OracleType.F16, halves.array(), 0),
                new OracleArg.Buffer("f", OracleType.F32, floats.array(), 0),
                new OracleArg.Buffer("o", OracleType.F16, new byte[960 * 2], 0),
                new OracleArg.Buffer("of", OracleType.F32, new byte[128 * 4], 0),
                new OracleArg.Buffer("oi", OracleType.I32, new byte[320 * 4], 0)));
        // NaNs compare as NaNs: the engine keeps halves in floats and does not give the GPU's canonical 0x7fff
        // (CudaHalf), which the PTX interpreter does
        try (DifferentialOracle oracle = DifferentialOracle.create(OracleOptions.DEFAULTS.withNans(NanComparison.ANY))) {
            OracleResult r = oracle.check(c);
            assertInstanceOf(OracleResult.Equal.class, r, () -> r + ", seed " + SEED);
        }
    }
}
