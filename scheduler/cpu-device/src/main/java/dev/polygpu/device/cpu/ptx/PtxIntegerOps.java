package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.ptx.Insn.Step;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import java.util.List;

/**
 * The integer instructions beyond plain arithmetic: 24-bit multiplication ({@code mul24}, {@code mad24}), sum of
 * absolute differences ({@code sad}) and the extended-precision carry chains ({@code add.cc}, {@code addc},
 * {@code sub.cc}, {@code subc}, {@code mad.cc}, {@code madc}). Decoded through the hooks of {@link PtxOps}, as
 * {@link PtxCollectives} is.
 *
 * <p>Implementation notes. The carry flag (the PTX condition code {@code CC.CF}) is {@link PtxThread#carry}, 0 or
 * 1, per thread; an instruction with {@code .cc} writes it, {@code addc}/{@code subc}/{@code madc} read it. For
 * subtraction it holds the borrow, as the PTX ISA defines {@code subc} ({@code d = a - (b + CC.CF)}). Carries
 * are those of the unsigned addition of the type's width, whether the type is signed or not. Results follow the
 * register convention of {@link PtxOps}: only the type's low bits are meaningful.
 */
final class PtxIntegerOps {
    private static final long LOW32 = 0xFFFF_FFFFL;

    private PtxIntegerOps() {
    }

    static void decode(PtxOps ops, String base) {
        switch (base) {
            case "mul24", "mad24" -> mul24(ops, base.equals("mad24"));
            case "sad" -> sad(ops);
            case "add", "addc" -> carryAdd(ops, base.equals("addc"), false);
            case "sub", "subc" -> carryAdd(ops, base.equals("subc"), true);
            default -> carryMad(ops, base.equals("madc"));
        }
    }

    private static boolean has(PtxOps ops, String m) {
        return ops.mods().contains(m);
    }

    private static void arity(PtxOps ops, int n) {
        List<Operand> o = ops.operands();
        if (o.size() != n) {
            throw ops.invalidHere(ops.instr().opcode() + " takes " + n + " operands, got " + o.size());
        }
    }

    private static String typeOf(PtxOps ops, String... allowed) {
        String type = ops.oneType();
        if (!List.of(allowed).contains(type)) {
            throw ops.unsupportedHere("type ." + type + " for " + ops.instr().opcode().split("\\.")[0]
                    + " (it takes ." + String.join(", .", allowed) + ")");
        }
        return type;
    }

    private static void step(PtxOps ops, Step s) {
        ops.fn().emit(ops.instr(), Insn.STEP, s);
    }

    // ---- mul24 / mad24 ----

    /**
     * {@code mul24.{lo,hi}.{u32,s32} d, a, b} and {@code mad24…  d, a, b, c}: the 48-bit product of the low 24
     * bits of a and b (sign-extended for .s32); .lo gives its bits 31..0, .hi its bits 47..16 (not 63..32). mad24
     * adds c to that 32-bit part; {@code mad24.hi.sat.s32} clamps the sum to the s32 range.
     */
    private static void mul24(PtxOps ops, boolean mad) {
        ops.checkMods(mad ? new String[] {"lo", "hi", "sat"} : new String[] {"lo", "hi"});
        String type = typeOf(ops, "u32", "s32");
        boolean hi = has(ops, "hi");
        if (hi == has(ops, "lo")) {
            throw ops.invalidHere(ops.instr().opcode().split("\\.")[0] + " needs exactly one of .lo and .hi");
        }
        boolean sat = has(ops, "sat");
        if (sat && !(hi && type.equals("s32"))) {
            throw ops.invalidHere(".sat of mad24 belongs only to mad24.hi.sat.s32");
        }
        arity(ops, mad ? 4 : 3);
        int d = ops.dstReg(0);
        int a = ops.srcReg(1, type);
        int b = ops.srcReg(2, type);
        int c = mad ? ops.srcReg(3, type) : -1;
        boolean signed = type.equals("s32");
        step(ops, (t, r) -> {
            long p = int24(r[a], signed) * int24(r[b], signed);
            long part = hi ? (p >> 16) & LOW32 : p & LOW32;
            if (c < 0) {
                r[d] = part;
            } else if (sat) {
                long v = (long) (int) part + (int) r[c];
                r[d] = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v)) & LOW32;
            } else {
                r[d] = (part + r[c]) & LOW32;
            }
        });
    }

    /** The low 24 bits of {@code v}, sign-extended when {@code signed}. */
    static long int24(long v, boolean signed) {
        return signed ? (v << 40) >> 40 : v & 0xFF_FFFFL;
    }

    // ---- sad ----

    /** {@code sad.type d, a, b, c}: {@code d = c + |a - b|}, in the type's width. */
    private static void sad(PtxOps ops) {
        ops.checkMods();
        String type = typeOf(ops, "u16", "u32", "u64", "s16", "s32", "s64");
        arity(ops, 4);
        int d = ops.dstReg(0);
        int a = ops.srcReg(1, type);
        int b = ops.srcReg(2, type);
        int c = ops.srcReg(3, type);
        int sh = 64 - PtxTypes.bits(type);
        if (PtxTypes.isSigned(type)) {
            step(ops, (t, r) -> {
                long x = (r[a] << sh) >> sh;
                long y = (r[b] << sh) >> sh;
                r[d] = r[c] + (x < y ? y - x : x - y);
            });
        } else {
            step(ops, (t, r) -> {
                long x = (r[a] << sh) >>> sh;
                long y = (r[b] << sh) >>> sh;
                r[d] = r[c] + (Long.compareUnsigned(x, y) < 0 ? y - x : x - y);
            });
        }
    }

    // ---- carry chains ----

    /**
     * {@code add.cc}, {@code addc{.cc}}, {@code sub.cc}, {@code subc{.cc}} on .u32, .s32, .u64, .s64: with
     * {@code withCarry} the carry (borrow, for sub) is taken in; with .cc the carry (borrow) out is written.
     */
    private static void carryAdd(PtxOps ops, boolean withCarry, boolean sub) {
        ops.checkMods("cc");
        boolean setCarry = has(ops, "cc");
        String type = typeOf(ops, "u32", "s32", "u64", "s64");
        arity(ops, 3);
        int d = ops.dstReg(0);
        int a = ops.srcReg(1, type);
        int b = ops.srcReg(2, type);
        boolean wide = PtxTypes.bits(type) == 64;
        if (sub) {
            step(ops, (t, r) -> {
                int in = withCarry ? t.carry : 0;
                long x = r[a];
                long y = r[b];
                if (wide) {
                    r[d] = x - y - in;
                    if (setCarry) {
                        t.carry = Long.compareUnsigned(x, y) < 0 || (in == 1 && x == y) ? 1 : 0;
                    }
                } else {
                    long v = (x & LOW32) - (y & LOW32) - in;
                    r[d] = v & LOW32;
                    if (setCarry) {
                        t.carry = v < 0 ? 1 : 0;
                    }
                }
            });
        } else {
            step(ops, (t, r) -> {
                int in = withCarry ? t.carry : 0;
                int out = addInto(r, d, r[a], r[b], in, wide);
                if (setCarry) {
                    t.carry = out;
                }
            });
        }
    }

    /**
     * {@code mad{.lo,.hi}.cc} and {@code madc{.lo,.hi}{.cc}} on .u32, .s32, .u64, .s64: the low or high half of
     * the full product (signed for .s types), plus c, plus the carry in for madc; .cc writes the carry out of that
     * addition.
     */
    private static void carryMad(PtxOps ops, boolean withCarry) {
        ops.checkMods("cc", "lo", "hi");
        boolean setCarry = has(ops, "cc");
        String type = typeOf(ops, "u32", "s32", "u64", "s64");
        boolean hi = has(ops, "hi");
        if (hi == has(ops, "lo")) {
            throw ops.invalidHere(ops.instr().opcode().split("\\.")[0] + " with a carry needs exactly one of .lo"
                    + " and .hi");
        }
        arity(ops, 4);
        int d = ops.dstReg(0);
        int a = ops.srcReg(1, type);
        int b = ops.srcReg(2, type);
        int c = ops.srcReg(3, type);
        boolean wide = PtxTypes.bits(type) == 64;
        boolean signed = PtxTypes.isSigned(type);
        step(ops, (t, r) -> {
            long x = r[a];
            long y = r[b];
            long part;
            if (wide) {
                part = !hi ? x * y : signed ? Math.multiplyHigh(x, y) : Math.unsignedMultiplyHigh(x, y);
            } else if (!hi) {
                part = x * y;
            } else {
                part = signed ? ((long) (int) x * (int) y) >> 32 : ((x & LOW32) * (y & LOW32)) >>> 32;
            }
            int out = addInto(r, d, part, r[c], withCarry ? t.carry : 0, wide);
            if (setCarry) {
                t.carry = out;
            }
        });
    }

    /** {@code r[d] = x + y + in} in 64 or 32 bits; returns the carry out (0 or 1). */
    private static int addInto(long[] r, int d, long x, long y, int in, boolean wide) {
        if (wide) {
            long s = x + y;
            r[d] = s + in;
            return Long.compareUnsigned(s, x) < 0 || (in == 1 && s == -1L) ? 1 : 0;
        }
        long s = (x & LOW32) + (y & LOW32) + in;
        r[d] = s & LOW32;
        return (int) (s >>> 32);
    }
}
