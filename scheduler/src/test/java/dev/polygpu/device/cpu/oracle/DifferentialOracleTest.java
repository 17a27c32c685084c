package dev.polygpu.device.cpu.oracle;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.cpu.oracle.OracleOptions.NanComparison;
import dev.polygpu.device.cpu.oracle.OracleResult.Side;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The differential oracle itself: the buffer comparison (first differing element, values in decimal and hex,
 * NaN handling, ulp bounds) on results made up here, and, where nvcc is installed, whole cases: equal results,
 * a source that deliberately computes differently on the two sides ({@code __CUDA_ARCH__} is 900 for nvcc's
 * sm_90 and 700 in the engine), compile errors and faults on one or both sides, batching with its fallbacks,
 * and a case that hangs.
 */
@Timeout(120)
class DifferentialOracleTest {

    // ---- the comparison, without nvcc ---------------------------------------------------------------------

    private static byte[] ints(int... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : v) {
            b.putInt(x);
        }
        return b.array();
    }

    private static byte[] floatBits(int... bits) {
        return ints(bits);
    }

    private static byte[] doubles(double... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) {
            b.putDouble(x);
        }
        return b.array();
    }

    private static byte[] halves(int... bits) {
        ByteBuffer b = ByteBuffer.allocate(bits.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : bits) {
            b.putShort((short) x);
        }
        return b.array();
    }

    private static int f(float v) {
        return Float.floatToRawIntBits(v);
    }

    private static OracleCase twoBuffers(int maxUlp) {
        return new OracleCase("made-up", "", "k", LaunchConfig.of(1, 1), List.of(
                new OracleArg.Buffer("counts", OracleType.I32, ints(0, 0, 0), 0),
                new OracleArg.Scalar(OracleType.I32, 3),
                new OracleArg.Buffer("values", OracleType.F32, floatBits(0, 0, 0, 0, 0), maxUlp)));
    }

    @Test
    void reportsTheFirstDifferingElementOfTheFirstDifferingBuffer() {
        OracleCase c = twoBuffers(0);
        List<byte[]> ptx = List.of(ints(1, -7, 3), floatBits(f(1f), f(2f), f(3f), f(4f), f(5f)));
        List<byte[]> engine = List.of(ints(1, -7, 3), floatBits(f(1f), f(2f), f(3f), f(4.5f), f(6f)));
        OracleResult r = DifferentialOracle.compare(c, ptx, engine, NanComparison.BITS);
        assertEquals(new OracleResult.Differ("made-up", "k", "values", 3, "4.0f (0x40800000)",
                "4.5f (0x40900000)"), r);

        List<byte[]> engine2 = List.of(ints(1, -8, 3), floatBits(f(1f), f(2f), f(3f), f(4.5f), f(6f)));
        assertEquals(new OracleResult.Differ("made-up", "k", "counts", 1, "-7 (0xfffffff9)", "-8 (0xfffffff8)"),
                DifferentialOracle.compare(c, ptx, engine2, NanComparison.BITS));
    }

    @Test
    void identicalBuffersAreEqual() {
        OracleCase c = twoBuffers(0);
        List<byte[]> ptx = List.of(ints(1, -7, 3), floatBits(f(1f), f(-0f), 0x7fffffff, f(4f), f(5f)));
        List<byte[]> engine = List.of(ints(1, -7, 3), floatBits(f(1f), f(-0f), 0x7fffffff, f(4f), f(5f)));
        assertEquals(new OracleResult.Equal("made-up"), DifferentialOracle.compare(c, ptx, engine,
                NanComparison.BITS));
    }

    @Test
    void nanPayloadsDifferUnderBitsAndMatchUnderAny() {
        // 0x7fffffff is a GPU's canonical single-precision NaN, 0x7fc00000 Java's.
        assertFalse(BufferComparison.equivalent(OracleType.F32, 0, NanComparison.BITS, 0x7fffffff, 0x7fc00000));
        assertFalse(BufferComparison.equivalent(OracleType.F32, 4, NanComparison.BITS, 0x7fffffff, 0x7fc00000));
        assertTrue(BufferComparison.equivalent(OracleType.F32, 0, NanComparison.ANY, 0x7fffffff, 0xffc00000L));
        // a NaN never equals a number, whatever the bound
        assertFalse(BufferComparison.equivalent(OracleType.F32, 1000, NanComparison.ANY, 0x7fc00000, f(1f)));
        assertFalse(BufferComparison.equivalent(OracleType.F32, 1000, NanComparison.ANY,
                0x7f800000, 0x7fc00000));
        long dNaN = 0xfff8000000000000L;
        assertTrue(BufferComparison.equivalent(OracleType.F64, 0, NanComparison.ANY, dNaN, 0x7ff8000000000001L));
        assertFalse(BufferComparison.equivalent(OracleType.F64, 0, NanComparison.BITS, dNaN, 0x7ff8000000000000L));
        assertTrue(BufferComparison.equivalent(OracleType.F16, 0, NanComparison.ANY, 0x7e00, 0x7fff));
        // 0x7c00 is +inf in binary16, not a NaN
        assertFalse(BufferComparison.equivalent(OracleType.F16, 0, NanComparison.ANY, 0x7c00, 0x7e00));

        OracleCase c = twoBuffers(0);
        List<byte[]> ptx = List.of(ints(0, 0, 0), floatBits(0, 0, 0x7fffffff, 0, 0));
        List<byte[]> engine = List.of(ints(0, 0, 0), floatBits(0, 0, 0x7fc00000, 0, 0));
        assertEquals(new OracleResult.Differ("made-up", "k", "values", 2, "NaNf (0x7fffffff)", "NaNf (0x7fc00000)"),
                DifferentialOracle.compare(c, ptx, engine, NanComparison.BITS));
        assertInstanceOf(OracleResult.Equal.class, DifferentialOracle.compare(c, ptx, engine, NanComparison.ANY));
    }

    @Test
    void ulpBoundsCountRepresentableStepsAcrossZero() {
        int one = f(1f);
        assertFalse(BufferComparison.equivalent(OracleType.F32, 0, NanComparison.BITS, one, one + 1));
        assertTrue(BufferComparison.equivalent(OracleType.F32, 1, NanComparison.BITS, one, one + 1));
        assertFalse(BufferComparison.equivalent(OracleType.F32, 1, NanComparison.BITS, one, one + 2));
        assertTrue(BufferComparison.equivalent(OracleType.F32, 2, NanComparison.BITS, one + 2, one));
        // the smallest subnormals of either sign are two steps apart (through zero); both zeros are one point
        assertEquals(2, BufferComparison.ulps(OracleType.F32, 1, 0x80000001L));
        assertEquals(0, BufferComparison.ulps(OracleType.F32, 0, 0x80000000L));
        assertFalse(BufferComparison.equivalent(OracleType.F32, 0, NanComparison.BITS, 0, 0x80000000L));
        assertTrue(BufferComparison.equivalent(OracleType.F32, 1, NanComparison.BITS, 0, 0x80000000L));
        // the largest float and infinity are neighbours
        assertEquals(1, BufferComparison.ulps(OracleType.F32, 0x7f7fffff, 0x7f800000));
        long d = Double.doubleToRawLongBits(1e300);
        assertEquals(3, BufferComparison.ulps(OracleType.F64, d, d + 3));
        assertEquals(Long.MAX_VALUE, BufferComparison.ulps(OracleType.F64, 0x7ff0000000000000L,
                0xfff0000000000000L));
        assertEquals(2, BufferComparison.ulps(OracleType.F16, 0x3c00, 0x3c02));
        assertTrue(BufferComparison.equivalent(OracleType.F16, 2, NanComparison.BITS, 0x3c00, 0x3c02));

        OracleCase c = twoBuffers(2);
        List<byte[]> ptx = List.of(ints(0, 0, 0), floatBits(one, one, one, one, one));
        List<byte[]> engine = List.of(ints(0, 0, 0), floatBits(one + 2, one - 2, one, one - 3, one));
        assertEquals(new OracleResult.Differ("made-up", "k", "values", 3, "1.0f (0x3f800000)",
                "0.9999998f (0x3f7ffffd)"), DifferentialOracle.compare(c, ptx, engine, NanComparison.BITS));
    }

    @Test
    void valuesPrintInDecimalAndHexadecimal() {
        assertEquals("-7 (0xfffffff9)", BufferComparison.format(OracleType.I32, 0xfffffff9L));
        assertEquals("4294967289 (0xfffffff9)", BufferComparison.format(OracleType.U32, 0xfffffff9L));
        assertEquals("18446744073709551615 (0xffffffffffffffff)", BufferComparison.format(OracleType.U64, -1));
        assertEquals("-1 (0xff)", BufferComparison.format(OracleType.I8, 0xff));
        assertEquals("255 (0xff)", BufferComparison.format(OracleType.U8, 0xff));
        assertEquals("1.5h (0x3e00)", BufferComparison.format(OracleType.F16, 0x3e00));
        assertEquals("0.1 (0x3fb999999999999a)", BufferComparison.format(OracleType.F64,
                Double.doubleToRawLongBits(0.1)));
        OracleCase c = new OracleCase("d", "", "k", LaunchConfig.of(1, 1),
                List.of(new OracleArg.Buffer("x", OracleType.F64, doubles(0, 0), 0)));
        assertEquals(new OracleResult.Differ("d", "k", "x", 1, "0.1 (0x3fb999999999999a)",
                "0.2 (0x3fc999999999999a)"), DifferentialOracle.compare(c, List.of(doubles(1, 0.1)),
                List.of(doubles(1, 0.2)), NanComparison.BITS));
        OracleCase h = new OracleCase("h", "", "k", LaunchConfig.of(1, 1),
                List.of(new OracleArg.Buffer("x", OracleType.F16, halves(0, 0), 0)));
        assertEquals(new OracleResult.Differ("h", "k", "x", 0, "1.0h (0x3c00)", "-2.0h (0xc000)"),
                DifferentialOracle.compare(h, List.of(halves(0x3c00, 0)), List.of(halves(0xc000, 0)),
                        NanComparison.BITS));
    }

    @Test
    void outcomesCombineIntoResults() {
        OracleCase c = twoBuffers(0);
        var ran = new SideRun.Ran(List.of(ints(0, 0, 0), floatBits(0, 0, 0, 0, 0)));
        OracleResult both = DifferentialOracle.combine(c, new SideRun.Refused("fault A"),
                new SideRun.Refused("fault B"), NanComparison.BITS);
        OracleResult.Rejected r = assertInstanceOf(OracleResult.Rejected.class, both);
        assertTrue(r.bothSides());
        assertEquals(Side.PTX, r.side());
        assertContains("fault A", r.message());
        assertContains("fault B", r.message());
        OracleResult one = DifferentialOracle.combine(c, ran, new SideRun.Refused("no"), NanComparison.BITS);
        assertEquals(new OracleResult.Rejected("made-up", Side.ENGINE, "no"), one);
        assertFalse(((OracleResult.Rejected) one).bothSides());
        assertEquals(new OracleResult.Internal("made-up", Side.ENGINE, "boom"), DifferentialOracle.combine(c,
                new SideRun.Refused("x"), new SideRun.Broke("boom"), NanComparison.BITS));
        assertEquals(Side.PTX, ((OracleResult.Internal) DifferentialOracle.combine(c, new SideRun.Hung("slow"),
                ran, NanComparison.BITS)).side());
    }

    @Test
    void anExceptionThatIsNotADeviceErrorIsInternal() {
        SideRun.Outcome o = SideRun.classify(new IllegalArgumentException("bad label"));
        SideRun.Broke b = assertInstanceOf(SideRun.Broke.class, o);
        assertContains("java.lang.IllegalArgumentException: bad label", b.text());
        assertContains("at dev.polygpu.device.cpu.oracle.DifferentialOracleTest", b.text());
        var wrapped = new dev.polygpu.device.KernelFaultException(dev.polygpu.device.CudaError.LAUNCH_FAILED, "k",
                "kernel 'k' failed: java.lang.ArrayIndexOutOfBoundsException");
        wrapped.initCause(new ArrayIndexOutOfBoundsException(5));
        assertInstanceOf(SideRun.Broke.class, SideRun.classify(wrapped));
        var fault = new dev.polygpu.device.KernelFaultException(dev.polygpu.device.CudaError.ILLEGAL_ADDRESS, "k",
                "out of bounds");
        assertEquals(new SideRun.Refused("out of bounds [CUDA_ERROR_ILLEGAL_ADDRESS]"), SideRun.classify(fault));
    }

    // ---- whole cases, with nvcc -----------------------------------------------------------------------------

    private static void requireNvcc() {
        Assumptions.assumeTrue(DifferentialOracle.unavailableReason().isEmpty(),
                () -> DifferentialOracle.unavailableReason().orElse(""));
    }

    /** out[i] = a * in[i] + 1 for 64 elements, with {@code extra} inserted before the store. */
    private static OracleCase scale(String name, String extra) {
        String src = "extern \"C\" __global__ void " + name + "(float* out, const float* in, float a, int n) {\n"
                + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                + "    if (i >= n) return;\n"
                + "    float v = a * in[i] + 1.0f;\n"
                + extra
                + "    out[i] = v;\n"
                + "}\n";
        float[] in = new float[64];
        for (int i = 0; i < in.length; i++) {
            in[i] = i * 0.37f - 5f;
        }
        ByteBuffer b = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : in) {
            b.putFloat(x);
        }
        return new OracleCase(name, src, name, LaunchConfig.of(2, 32), List.of(
                new OracleArg.Buffer("out", OracleType.F32, new byte[256], 0),
                new OracleArg.Buffer("in", OracleType.F32, b.array(), 0),
                new OracleArg.Scalar(OracleType.F32, f(1.5f)),
                new OracleArg.Scalar(OracleType.I32, 64)));
    }

    private static OracleCase withPrefix(OracleCase c, String prefix) {
        return new OracleCase(c.name(), prefix + c.source(), c.kernel(), c.config(), c.args());
    }

    /**
     * One batch with one case of each kind, as a generator hands them over, so that nvcc runs as few times as
     * the fallbacks need: the results, in order, and the number of runs.
     */
    @Test
    void aMixedBatchGivesEachCaseItsResultWithFewNvccRuns() {
        requireNvcc();
        String helper = "__device__ float twice(float x) { return x + x; }\n";
        // only the engine side waits forever, parked in __nanosleep, so the abandoned thread costs no CPU
        String forever = "#if __CUDA_ARCH__ != 900\n    if (i == 0) for (;;) { __nanosleep(1000000);"
                + " if (in[0] == 12345.0f) break; }\n#endif\n";
        List<OracleCase> cases = List.of(
                scale("same", ""),
                scale("diff", "#if __CUDA_ARCH__ == 900\n    if (i == 37) v = -v;\n#endif\n"),
                scale("syntax", "    v = v +* ;\n"),
                scale("engine_only", "#if __CUDA_ARCH__ != 900\n#error not for the engine\n#endif\n"),
                scale("ptx_only", "#if __CUDA_ARCH__ == 900\n#error not for nvcc\n#endif\n"),
                scale("oob", "    if (i == 63) out[i + 1000] = v;\n"),
                // the same helper in two cases: together they clash, alone each compiles
                withPrefix(scale("h1", "    v = twice(v);\n"), helper),
                withPrefix(scale("h2", "    v = twice(v) + 1.0f;\n"), helper),
                // the interpreter has no match instructions, so this kernel's PTX does not load
                scale("match", "    v += (float) __match_any_sync(0xffffffffu, i & 3);\n"),
                scale("stuck", forever),
                scale("after", ""));
        OracleOptions o = OracleOptions.DEFAULTS.withCaseTimeout(Duration.ofSeconds(8));
        try (DifferentialOracle oracle = DifferentialOracle.create(o)) {
            List<OracleResult> r = oracle.checkAll(cases);
            assertEquals(new OracleResult.Equal("same"), r.get(0));
            // in[37] = 37 * 0.37f - 5f; 1.5f * that + 1 in float, negated on the PTX side only
            float v = 1.5f * (37 * 0.37f - 5f) + 1f;
            assertEquals(new OracleResult.Differ("diff", "diff", "out", 37, "-14.035001f (0xc1608f5d)",
                    "14.035001f (0x41608f5d)"), r.get(1));
            assertEquals(Float.floatToRawIntBits(v), 0x41608f5d);

            OracleResult.Rejected syntax = assertInstanceOf(OracleResult.Rejected.class, r.get(2));
            assertTrue(syntax.bothSides(), syntax::message);
            assertContains("syntax.cu(5): error", syntax.message());
            assertContains("syntax.cu:5:", syntax.message());
            OracleResult.Rejected engineOnly = assertInstanceOf(OracleResult.Rejected.class, r.get(3));
            assertEquals(Side.ENGINE, engineOnly.side());
            assertContains("not for the engine", engineOnly.message());
            OracleResult.Rejected ptxOnly = assertInstanceOf(OracleResult.Rejected.class, r.get(4));
            assertEquals(Side.PTX, ptxOnly.side());
            assertFalse(ptxOnly.bothSides());
            assertContains("ptx_only.cu:6:2: error: #error not for nvcc", ptxOnly.message());

            OracleResult.Rejected oob = assertInstanceOf(OracleResult.Rejected.class, r.get(5));
            assertTrue(oob.bothSides(), oob::message);
            assertContains("ILLEGAL_ADDRESS", oob.message());

            assertEquals(new OracleResult.Equal("h1"), r.get(6));
            assertEquals(new OracleResult.Equal("h2"), r.get(7));
            OracleResult.Rejected match = assertInstanceOf(OracleResult.Rejected.class, r.get(8));
            assertContains("PTX: nvcc.ptx:", match.message());
            assertContains("instruction match.any.sync.b32 (in 'match.any.sync.b32", match.message());
            assertContains("is not supported by the CPU device's PTX interpreter", match.message());

            OracleResult.Internal stuck = assertInstanceOf(OracleResult.Internal.class, r.get(9));
            assertEquals(Side.ENGINE, stuck.side());
            assertContains("did not finish within 8000 ms", stuck.exceptionText());
            // the case after the hang runs on a new device, with the batch's PTX loaded there again
            assertEquals(new OracleResult.Equal("after"), r.get(10));

            // 1: the batch, which stops at ptx_only's #error (preprocessing comes first); 1: ptx_only alone;
            // 1: the other ten, whose errors name syntax and h2 (the redefinition); 2: each of them alone; 1: the
            // other eight, whose PTX does not load because of match's kernel; 1: match alone; 1: the other seven
            assertEquals(8, oracle.nvccRuns());
        }
    }

    @Test
    void checkRunsOneCase() {
        requireNvcc();
        try (DifferentialOracle oracle = DifferentialOracle.create()) {
            assertEquals(new OracleResult.Equal("one"), oracle.check(scale("one", "")));
            assertEquals(1, oracle.nvccRuns());
        }
    }
}
