package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.littleEndianInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
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
import org.junit.jupiter.api.Test;

/**
 * The warp reductions of sm_80 and later: {@code __reduce_add/min/max_sync} for {@code int} and {@code unsigned},
 * {@code __reduce_and/or/xor_sync} for {@code unsigned}, with full and partial masks (nvcc emits PTX's
 * {@code redux.sync} for them).
 */
class WarpReduceTest {
    private static final int THREADS = 64;
    private static final int SLOTS = 11;

    private static final String SOURCE = """
            #define FULL 0xffffffffu
            extern "C" __global__ void m(const int* in, int* out) {
                int t = threadIdx.x, lane = t & 31;
                int v = in[t];
                unsigned u = (unsigned)v;
                int* o = out + 11 * t;
                o[0] = __reduce_add_sync(FULL, v);
                o[1] = __reduce_min_sync(FULL, v);
                o[2] = __reduce_max_sync(FULL, v);
                o[3] = (int)__reduce_min_sync(FULL, u);
                o[4] = (int)__reduce_max_sync(FULL, u);
                o[5] = (int)__reduce_and_sync(FULL, u | 0x100u);
                o[6] = (int)__reduce_or_sync(FULL, u & 0xF0F0u);
                o[7] = (int)__reduce_xor_sync(FULL, 1u << lane);
                o[8] = lane < 16 ? __reduce_add_sync(0x0000ffffu, (short)v)
                        : (int)__reduce_xor_sync(0xffff0000u, 1u << lane);
                o[9] = __reduce_max_sync(FULL, (unsigned short)v);
                o[10] = __reduce_add_sync(FULL, v > 0);
            }
            """;

    /** Warp 0: v = lane - 10 (-10 … 21); warp 1: v = 0x7FFFFFF0 + lane (INT_MAX - 15 … INT_MAX, INT_MIN … INT_MIN + 15). */
    private static int[] input() {
        int[] in = new int[THREADS];
        for (int lane = 0; lane < 32; lane++) {
            in[lane] = lane - 10;
            in[32 + lane] = 0x7FFFFFF0 + lane;
        }
        return in;
    }

    /**
     * By hand, warp 0 then warp 1:
     * <ul>
     * <li>add: 496 - 320 = 176; 32 * 0x7FFFFFF0 + 496 = 0xFFFFFFFF0 + … whose low 32 bits are 0xFFFFFFF0, -16;</li>
     * <li>signed min and max: -10, 21; INT_MIN (lane 16), INT_MAX (lane 15);</li>
     * <li>unsigned min and max: 0 (lane 10), 0xFFFFFFFF = -1 (lane 9); 0x7FFFFFF0, 0x8000000F = -2147483633;</li>
     * <li>and of u | 0x100: lane 10's 0x100 has no other bit, and every value has bit 8; warp 1: bit 31 differs,
     * bits 4 to 30 are clear in 0x8000000x, bits 0 to 3 clear in lane 0: 0x100 both, 256;</li>
     * <li>or of u &amp; 0xF0F0: a negative value (warp 0) or 0x7FFFFFFx (warp 1) gives 0xF0F0 = 61680;</li>
     * <li>xor of 1 &lt;&lt; lane: every bit once, -1;</li>
     * <li>lanes 0 to 15 add (short) v among themselves: (0 + … + 15) - 160 = -40 in warp 0; (short) 0x7FFFFFFx is
     * x - 16, 120 - 256 = -136 in warp 1; lanes 16 to 31 xor their bits: 0xFFFF0000 = -65536;</li>
     * <li>(unsigned short) v promotes to int, max 65535 in both (from -1, and from 0x7FFFFFFF);</li>
     * <li>v &gt; 0 promotes to int: lanes 11 to 31 give 21; lanes 0 to 15, 16.</li>
     * </ul>
     */
    private static int[] expected() {
        int[][] rows = {
            {176, -10, 21, 0, -1, 256, 61680, -1, -40, 65535, 21},
            {-16, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x7FFFFFF0, 0x8000000F, 256, 61680, -1, -136, 65535, 16}};
        int[] e = new int[THREADS * SLOTS];
        for (int t = 0; t < THREADS; t++) {
            System.arraycopy(rows[t / 32], 0, e, t * SLOTS, SLOTS);
            if ((t & 31) >= 16) {
                e[t * SLOTS + 8] = 0xFFFF0000;
            }
        }
        return e;
    }

    @Test
    void theEngineReducesAsCudaSays() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer in = ints(dev, input());
            UnifiedBuffer out = ints(dev, new int[THREADS * SLOTS]);
            run(dev, dev.compile(SOURCE, "reduce.cu").function("m"), 1, THREADS,
                    KernelArgs.builder().pointer(in).pointer(out).build());
            assertArrayEquals(expected(), readInts(out, THREADS * SLOTS));
        }
    }

    @Test
    void nvccsReduxSyncAgreesWithTheEngine() {
        OracleTests.assumeNvcc();
        OracleCase c = new OracleCase("reduce", SOURCE, "m", LaunchConfig.of(1, THREADS), java.util.List.of(
                new OracleArg.Buffer("in", OracleType.I32, littleEndianInts(input()), 0),
                new OracleArg.Buffer("out", OracleType.I32, littleEndianInts(new int[THREADS * SLOTS]), 0)));
        try (DifferentialOracle g = DifferentialOracle.create()) {
            assertInstanceOf(OracleResult.Equal.class, g.check(c));
        }
    }

    /** nvcc: "more than one instance of overloaded function "__reduce_add_sync" matches the argument list". */
    @Test
    void aValueThatMatchesBothOverloadsIsRefusedAtItsPosition() {
        String src = """
                extern "C" __global__ void m(const float* in, int* out) {
                    out[0] = __reduce_max_sync(0xffffffffu, in[0]);
                }
                """;
        CompileException e = assertThrows(CompileException.class, () -> KernelEngine.compile(src, "r.cu"));
        CompileException.Diagnostic d = e.diagnostics().getFirst();
        assertTrue(d.line() == 2 && d.column() > 0, () -> "position of " + e.getMessage());
        assertContains("'int' and 'unsigned int'", d.message());
    }
}
