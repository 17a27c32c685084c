package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.lang.foreign.ValueLayout;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One instruction at a time: each row is a kernel that loads three operands from its parameters into registers
 * of every class ({@code %w} .b32, {@code %x} .b64, {@code %h} .b16, {@code %f} .f32, {@code %g} .f64), runs the
 * instruction and stores the destination class; the expected value is computed here from the PTX ISA's
 * definition (or written out where the definition gives a constant).
 */
class PtxInstructionsTest {
    private static CpuDevice device;

    @BeforeAll
    static void open() {
        device = new CpuDevice(1);
    }

    @AfterAll
    static void close() {
        device.close();
    }

    /** Where each destination class is stored in the output. */
    enum Slot {
        X(0, 8), W(8, 4), F(12, 4), G(16, 8), H(24, 2), P(28, 4);

        final int offset;
        final int bytes;

        Slot(int offset, int bytes) {
            this.offset = offset;
            this.bytes = bytes;
        }
    }

    /** Runs {@code instruction} on operands {@code a}, {@code b}, {@code c}; returns the output buffer. */
    private static UnifiedBuffer run(String instruction, long a, long b, long c) {
        String text = ".version 8.0\n.target sm_75\n.address_size 64\n"
                + ".visible .entry k(.param .u64 k_out, .param .b64 k_a, .param .b64 k_b, .param .b64 k_c)\n{\n"
                + "\t.reg .b64 %rd<2>;\n\t.reg .b64 %x<4>;\n\t.reg .b32 %w<10>;\n\t.reg .b16 %h<4>;\n"
                + "\t.reg .f32 %f<4>;\n\t.reg .f64 %g<4>;\n\t.reg .pred %p<4>;\n"
                + "\tld.param.u64 %rd1, [k_out];\n"
                + load("b64", "x") + load("b32", "w") + load("b16", "h") + load("f32", "f") + load("f64", "g")
                + "\t" + instruction + ";\n"
                + "\tselp.b32 %w9, 1, 0, %p0;\n"
                + "\tst.global.b64 [%rd1], %x0;\n\tst.global.b32 [%rd1+8], %w0;\n\tst.global.f32 [%rd1+12], %f0;\n"
                + "\tst.global.f64 [%rd1+16], %g0;\n\tst.global.b16 [%rd1+24], %h0;\n"
                + "\tst.global.b32 [%rd1+28], %w9;\n\tret;\n}\n";
        Module m = PtxTestSupport.ptx(device, text, "one.ptx");
        UnifiedBuffer out = device.allocate(32);
        launch(m, "k", 1, 1, KernelArgs.builder().pointer(out).u64(a).u64(b).u64(c).build());
        return out;
    }

    private static String load(String type, String reg) {
        return "\tld.param." + type + " %" + reg + "1, [k_a];\n\tld.param." + type + " %" + reg + "2, [k_b];\n"
                + "\tld.param." + type + " %" + reg + "3, [k_c];\n";
    }

    private static long read(UnifiedBuffer out, Slot s) {
        var seg = out.hostView();
        return switch (s.bytes) {
            case 8 -> seg.get(ValueLayout.JAVA_LONG_UNALIGNED, s.offset);
            case 4 -> seg.get(ValueLayout.JAVA_INT_UNALIGNED, s.offset) & 0xFFFF_FFFFL;
            default -> seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, s.offset) & 0xFFFFL;
        };
    }

    private static long f(float v) {
        return Float.floatToRawIntBits(v) & 0xFFFF_FFFFL;
    }

    private static long d(double v) {
        return Double.doubleToRawLongBits(v);
    }

    private static long u(int v) {
        return v & 0xFFFF_FFFFL;
    }

    private static Arguments row(String insn, long a, long b, long c, Slot slot, long expected) {
        return Arguments.of(insn, a, b, c, slot, expected);
    }

    static Stream<Arguments> rows() {
        float third = (float) (1.0 / 3);
        float rzThird = third > 1.0 / 3 ? Math.nextDown(third) : third;
        float rpThird = third < 1.0 / 3 ? Math.nextUp(third) : third;
        return Stream.of(
                row("popc.b32 %w0, %w1", u(0xF0F0_0001), 0, 0, Slot.W, Integer.bitCount(0xF0F0_0001)),
                row("popc.b64 %w0, %x1", -1L, 0, 0, Slot.W, 64),
                row("clz.b32 %w0, %w1", 0x00F0_0000, 0, 0, Slot.W, 8),
                row("clz.b64 %w0, %x1", 0, 0, 0, Slot.W, 64),
                row("brev.b32 %w0, %w1", 1, 0, 0, Slot.W, 0x8000_0000L),
                row("bfe.u32 %w0, %w1, 4, 8", u(0xABCD_1234), 0, 0, Slot.W, (0xABCD_1234 >>> 4) & 0xFF),
                row("bfe.s32 %w0, %w1, 4, 8", 0x0F80, 0, 0, Slot.W, u(-8)),
                row("bfe.s32 %w0, %w1, 28, 8", u(0x8000_0000), 0, 0, Slot.W, u(-8)),
                row("bfe.u64 %x0, %x1, 60, 8", 0xF000_0000_0000_0000L, 0, 0, Slot.X, 0xF),
                row("bfi.b32 %w0, %w1, %w2, 8, 4", 0xF, 0x1234_5678, 0, Slot.W, 0x1234_5F78),
                row("prmt.b32 %w0, %w1, %w2, 0x3210", 0x4433_2211, 0x8877_6655L, 0, Slot.W, 0x4433_2211),
                row("prmt.b32 %w0, %w1, %w2, 0x7654", 0x4433_2211, 0x8877_6655L, 0, Slot.W, 0x8877_6655L),
                row("prmt.b32 %w0, %w1, %w2, 0x0123", 0x4433_2211, 0, 0, Slot.W, 0x1122_3344),
                row("prmt.b32 %w0, %w1, %w2, 0x8880", 0x0000_0080, 0, 0, Slot.W, 0xFFFF_FF80L),
                row("mul.hi.u32 %w0, %w1, %w2", u(-1), u(-1), 0, Slot.W, 0xFFFF_FFFEL),
                row("mul.hi.s32 %w0, %w1, %w2", u(-3), 0x4000_0000, 0, Slot.W, u((int) ((-3L * 0x4000_0000L) >> 32))),
                row("mul.hi.s64 %x0, %x1, %x2", -123456789123L, 987654321987L, 0, Slot.X,
                        Math.multiplyHigh(-123456789123L, 987654321987L)),
                row("mul.hi.u64 %x0, %x1, %x2", -1L, -1L, 0, Slot.X, Math.unsignedMultiplyHigh(-1L, -1L)),
                row("mul.wide.s32 %x0, %w1, %w2", u(-3), 5, 0, Slot.X, -15),
                row("mul.wide.u32 %x0, %w1, %w2", u(-1), 2, 0, Slot.X, 0x1_FFFF_FFFEL),
                row("mul.wide.s16 %w0, %h1, %h2", 0xFFFF, 300, 0, Slot.W, u(-300)),
                row("mad.lo.s32 %w0, %w1, %w2, %w3", 7, u(-6), 100, Slot.W, 58),
                row("mad.hi.u32 %w0, %w1, %w2, %w3", u(-1), 2, 5, Slot.W, 6),
                row("mad.wide.u32 %x0, %w1, %w2, %x3", u(-1), u(-1), 1, Slot.X, 0xFFFF_FFFE_0000_0002L),
                row("div.s32 %w0, %w1, %w2", u(-7), 2, 0, Slot.W, u(-3)),
                row("rem.s32 %w0, %w1, %w2", u(-7), 2, 0, Slot.W, u(-1)),
                row("div.u32 %w0, %w1, %w2", u(-7), 2, 0, Slot.W, u(-7) / 2),
                row("div.s32 %w0, %w1, %w2", u(Integer.MIN_VALUE), u(-1), 0, Slot.W, u(Integer.MIN_VALUE)),
                row("div.u64 %x0, %x1, %x2", -2L, 3, 0, Slot.X, Long.divideUnsigned(-2L, 3)),
                row("rem.u64 %x0, %x1, %x2", 10, 0, 0, Slot.X, -1L),
                row("shr.s32 %w0, %w1, %w2", u(-16), 40, 0, Slot.W, u(-1)),
                row("shr.u32 %w0, %w1, %w2", u(-16), 4, 0, Slot.W, 0x0FFF_FFFF),
                row("shl.b32 %w0, %w1, %w2", 1, 33, 0, Slot.W, 0),
                row("shl.b64 %x0, %x1, %w2", 1, 63, 0, Slot.X, Long.MIN_VALUE),
                row("add.sat.s32 %w0, %w1, %w2", Integer.MAX_VALUE, 1, 0, Slot.W, Integer.MAX_VALUE),
                row("sub.sat.s32 %w0, %w1, %w2", u(Integer.MIN_VALUE), 1, 0, Slot.W, u(Integer.MIN_VALUE)),
                row("abs.s32 %w0, %w1", u(Integer.MIN_VALUE), 0, 0, Slot.W, u(Integer.MIN_VALUE)),
                row("neg.f32 %f0, %f1", f(0f), 0, 0, Slot.F, f(-0f)),
                row("abs.f64 %g0, %g1", d(-2.5), 0, 0, Slot.G, d(2.5)),
                row("min.s32 %w0, %w1, %w2", u(-5), 3, 0, Slot.W, u(-5)),
                row("min.u32 %w0, %w1, %w2", u(-5), 3, 0, Slot.W, 3),
                row("max.u64 %x0, %x1, %x2", -5L, 3, 0, Slot.X, -5L),
                row("min.f32 %f0, %f1, %f2", f(Float.NaN), f(2f), 0, Slot.F, f(2f)),
                row("max.f64 %g0, %g1, %g2", d(1), d(Double.NaN), 0, Slot.G, d(1)),
                row("min.f32 %f0, %f1, %f2", f(0f), f(-0f), 0, Slot.F, f(-0f)),
                row("setp.lt.f32 %p0, %f1, %f2", f(Float.NaN), f(1f), 0, Slot.P, 0),
                row("setp.ltu.f32 %p0, %f1, %f2", f(Float.NaN), f(1f), 0, Slot.P, 1),
                row("setp.ne.f32 %p0, %f1, %f2", f(Float.NaN), f(1f), 0, Slot.P, 0),
                row("setp.neu.f64 %p0, %g1, %g2", d(Double.NaN), d(1), 0, Slot.P, 1),
                row("setp.geu.f32 %p0, %f1, %f2", f(1f), f(2f), 0, Slot.P, 0),
                row("setp.num.f32 %p0, %f1, %f2", f(1f), f(2f), 0, Slot.P, 1),
                row("setp.nan.f32 %p0, %f1, %f2", f(1f), f(Float.NaN), 0, Slot.P, 1),
                row("setp.lo.u32 %p0, %w1, %w2", u(-1), 1, 0, Slot.P, 0),
                row("setp.lt.s32 %p0, %w1, %w2", u(-1), 1, 0, Slot.P, 1),
                row("setp.hs.u64 %p0, %x1, %x2", -1L, 1, 0, Slot.P, 1),
                row("setp.eq.s16 %p0, %h1, %h2", 0xFFFF, 0x1FFFF, 0, Slot.P, 1),
                row("setp.gt.s32.and %p0, %w1, %w2, %p1", 5, 3, 0, Slot.P, 0),
                row("setp.gt.s32.or %p0, %w1, %w2, !%p1", 1, 3, 0, Slot.P, 1),
                row("cvt.rzi.s32.f32 %w0, %f1", f(-2.7f), 0, 0, Slot.W, u(-2)),
                row("cvt.rni.s32.f32 %w0, %f1", f(2.5f), 0, 0, Slot.W, 2),
                row("cvt.rni.s32.f32 %w0, %f1", f(3.5f), 0, 0, Slot.W, 4),
                row("cvt.rmi.s32.f32 %w0, %f1", f(-2.5f), 0, 0, Slot.W, u(-3)),
                row("cvt.rpi.s32.f32 %w0, %f1", f(2.1f), 0, 0, Slot.W, 3),
                row("cvt.rzi.s32.f32 %w0, %f1", f(3e9f), 0, 0, Slot.W, Integer.MAX_VALUE),
                row("cvt.rzi.u32.f32 %w0, %f1", f(-5f), 0, 0, Slot.W, 0),
                row("cvt.rzi.s32.f32 %w0, %f1", f(Float.NaN), 0, 0, Slot.W, 0),
                row("cvt.rzi.u64.f64 %x0, %g1", d(1.5e19), 0, 0, Slot.X, new java.math.BigDecimal(1.5e19)
                        .toBigInteger().longValue()),
                row("cvt.rn.f32.s64 %f0, %x1", -123456789012L, 0, 0, Slot.F, f((float) -123456789012L)),
                row("cvt.rn.f32.u64 %f0, %x1", -1L, 0, 0, Slot.F, f(0x1p64f)),
                row("cvt.rz.f32.s32 %f0, %w1", 16777217, 0, 0, Slot.F, f(16777216f)),
                row("cvt.rp.f32.s32 %f0, %w1", 16777217, 0, 0, Slot.F, f(16777218f)),
                row("cvt.rn.f64.u32 %g0, %w1", u(-1), 0, 0, Slot.G, d(4294967295.0)),
                row("cvt.rz.f32.f64 %f0, %g1", d(1.0 / 3), 0, 0, Slot.F, f(rzThird)),
                row("cvt.rp.f32.f64 %f0, %g1", d(1.0 / 3), 0, 0, Slot.F, f(rpThird)),
                row("cvt.f64.f32 %g0, %f1", f(0.1f), 0, 0, Slot.G, d(0.1f)),
                row("cvt.sat.f32.f32 %f0, %f1", f(1.5f), 0, 0, Slot.F, f(1f)),
                row("cvt.sat.f32.f32 %f0, %f1", f(-0.5f), 0, 0, Slot.F, f(0f)),
                row("cvt.rni.f32.f32 %f0, %f1", f(2.5f), 0, 0, Slot.F, f(2f)),
                row("cvt.s64.s16 %x0, %h1", 0x8000, 0, 0, Slot.X, -32768),
                row("cvt.u64.u32 %x0, %w1", u(-1), 0, 0, Slot.X, 0xFFFF_FFFFL),
                row("cvt.sat.s8.s32 %w0, %w1", 300, 0, 0, Slot.W, 127),
                row("cvt.u16.u32 %h0, %w1", 0x12345, 0, 0, Slot.H, 0x2345),
                row("add.rm.f32 %f0, %f1, %f2", f(1f), f(1e-10f), 0, Slot.F, f(1f)),
                row("add.rp.f32 %f0, %f1, %f2", f(1f), f(1e-10f), 0, Slot.F, f(Math.nextUp(1f))),
                row("add.rz.f32 %f0, %f1, %f2", f(-1f), f(-1e-10f), 0, Slot.F, f(-1f)),
                row("mul.rp.f32 %f0, %f1, %f2", f(third), f(3f), 0, Slot.F, f((float) ((double) third * 3) < (double) third * 3
                        ? Math.nextUp((float) ((double) third * 3)) : (float) ((double) third * 3))),
                row("fma.rn.f32 %f0, %f1, %f2, %f3", f(0.1f), f(10f), f(-1f), Slot.F, f(Math.fma(0.1f, 10f, -1f))),
                row("fma.rn.f64 %g0, %g1, %g2, %g3", d(0.1), d(10), d(-1), Slot.G, d(Math.fma(0.1, 10, -1))),
                row("div.rn.f32 %f0, %f1, %f2", f(1f), f(3f), 0, Slot.F, f(1f / 3f)),
                row("sqrt.rn.f64 %g0, %g1", d(2), 0, 0, Slot.G, d(Math.sqrt(2))),
                row("rcp.rn.f64 %g0, %g1", d(3), 0, 0, Slot.G, d(1.0 / 3)),
                row("copysign.f32 %f0, %f1, %f2", f(-1f), f(2f), 0, Slot.F, f(-2f)),
                row("testp.finite.f32 %p0, %f1", f(Float.POSITIVE_INFINITY), 0, 0, Slot.P, 0),
                row("testp.subnormal.f32 %p0, %f1", f(1e-40f), 0, 0, Slot.P, 1),
                row("testp.notanumber.f64 %p0, %g1", d(Double.NaN), 0, 0, Slot.P, 1),
                row("testp.normal.f64 %p0, %g1", d(0), 0, 0, Slot.P, 0),
                row("slct.s32.s32 %w0, %w1, %w2, %w3", 10, 20, u(-1), Slot.W, 20),
                row("slct.f32.f32 %f0, %f1, %f2, %f3", f(1f), f(2f), f(0f), Slot.F, f(1f)),
                row("selp.b64 %x0, %x1, %x2, %p0", 10, 20, 0, Slot.X, 20),
                row("mov.b64 %x0, {%w1, %w2}", 0x1111_1111, 0x2222_2222, 0, Slot.X, 0x2222_2222_1111_1111L),
                row("mov.b64 {%w0, %w9}, %x1", 0x2222_2222_1111_1111L, 0, 0, Slot.W, 0x1111_1111),
                row("mov.b32 %f0, %w1", f(1.5f), 0, 0, Slot.F, f(1.5f)),
                row("mov.f32 %f0, 0f3FC00000", 0, 0, 0, Slot.F, f(1.5f)),
                row("mov.u32 %w0, WARP_SZ", 0, 0, 0, Slot.W, 32),
                row("cnot.b32 %w0, %w1", 0, 0, 0, Slot.W, 1),
                row("cnot.b32 %w0, %w1", 5, 0, 0, Slot.W, 0),
                row("not.b32 %w0, %w1", 0x0F0F_0F0F, 0, 0, Slot.W, 0xF0F0_F0F0L),
                row("xor.b64 %x0, %x1, %x2", 0xFF00, 0x0FF0, 0, Slot.X, 0xF0F0),
                row("and.b16 %h0, %h1, %h2", 0xFF0F, 0x0FF0, 0, Slot.H, 0x0F00),
                row("add.s64 %x0, %x1, -1", 0, 0, 0, Slot.X, -1),
                row("sub.f64 %g0, %g1, 0d3FF0000000000000", d(3), 0, 0, Slot.G, d(2)),
                row("mul.lo.u16 %h0, %h1, %h2", 300, 300, 0, Slot.H, (300 * 300) & 0xFFFF));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void instruction(String insn, long a, long b, long c, Slot slot, long expected) {
        UnifiedBuffer out = run(insn, a, b, c);
        long got = read(out, slot);
        out.free();
        assertEquals(Long.toHexString(expected & mask(slot)), Long.toHexString(got), insn + " with a=0x"
                + Long.toHexString(a) + " b=0x" + Long.toHexString(b) + " c=0x" + Long.toHexString(c));
    }

    private static long mask(Slot s) {
        return s.bytes == 8 ? -1L : (1L << (8 * s.bytes)) - 1;
    }
}
