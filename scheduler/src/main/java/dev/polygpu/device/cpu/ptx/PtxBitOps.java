package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.ptx.Insn.Step;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import java.util.List;

/**
 * Bit-field and packed integer instructions: {@code bfind} (the most significant non-sign bit, or the shift that
 * brings it to the top), {@code shf} (funnel shifts of a 64-bit pair of words) and the byte and half-word dot
 * products {@code dp4a} and {@code dp2a}. nvcc emits them for {@code __clz}/{@code __ffs} of some operands,
 * {@code __funnelshift_*}, rotates, {@code __dp4a} and plain loops that multiply and add bytes. Decoded through
 * the hooks of {@link PtxOps}; results follow its register convention (only the type's low bits matter).
 */
final class PtxBitOps {
    private static final long LOW32 = 0xFFFF_FFFFL;

    private PtxBitOps() {
    }

    static void decode(PtxOps ops, String base) {
        switch (base) {
            case "bfind" -> bfind(ops);
            case "shf" -> shf(ops);
            case "dp4a" -> dp4a(ops);
            default -> dp2a(ops);
        }
    }

    private static void arity(PtxOps ops, int n) {
        List<Operand> o = ops.operands();
        if (o.size() != n) {
            throw ops.invalidHere(ops.instr().opcode() + " takes " + n + " operands, got " + o.size());
        }
    }

    private static void step(PtxOps ops, Step s) {
        ops.fn().emit(ops.instr(), Insn.STEP, s);
    }

    private static void allowTypes(PtxOps ops, String type, String... allowed) {
        if (!List.of(allowed).contains(type)) {
            throw ops.unsupportedHere("type ." + type + " for " + ops.instr().opcode().split("\\.")[0]
                    + " (it takes ." + String.join(", .", allowed) + ")");
        }
    }

    /**
     * {@code bfind{.shiftamt}.type d, a} on .u32, .s32, .u64, .s64, d a .u32: the position of the most
     * significant bit that is set (unsigned) or that differs from the sign bit (signed), or 0xffffffff when there
     * is none; with .shiftamt, the left shift that moves that bit to the top (width - 1 - position) instead.
     */
    private static void bfind(PtxOps ops) {
        ops.checkMods("shiftamt");
        String type = ops.oneType();
        allowTypes(ops, type, "u32", "s32", "u64", "s64");
        boolean shiftAmount = ops.mods().contains("shiftamt");
        arity(ops, 2);
        int d = ops.dstReg(0);
        int a = ops.srcReg(1, type);
        int width = PtxTypes.bits(type);
        boolean signed = PtxTypes.isSigned(type);
        step(ops, (t, r) -> {
            long x = width == 32 ? (signed ? (long) (int) r[a] : r[a] & LOW32) : r[a];
            if (signed && x < 0) {
                x = ~x;
            }
            int position = 63 - Long.numberOfLeadingZeros(x);
            r[d] = position < 0 ? LOW32 : shiftAmount ? width - 1 - position : position;
        });
    }

    /**
     * {@code shf.{l,r}.{wrap,clamp}.b32 d, a, b, c}: b:a (b the upper word) shifted left (d = the upper word)
     * or right (d = the lower word) by c, taken modulo 32 with .wrap and capped at 32 with .clamp.
     */
    private static void shf(PtxOps ops) {
        ops.checkMods("l", "r", "wrap", "clamp");
        String type = ops.oneType();
        allowTypes(ops, type, "b32");
        boolean left = ops.mods().contains("l");
        boolean wrap = ops.mods().contains("wrap");
        if (left == ops.mods().contains("r") || wrap == ops.mods().contains("clamp")) {
            throw ops.invalidHere("shf needs one of .l and .r and one of .wrap and .clamp");
        }
        arity(ops, 4);
        int d = ops.dstReg(0);
        int a = ops.srcReg(1, type);
        int b = ops.srcReg(2, type);
        int c = ops.srcReg(3, "u32");
        step(ops, (t, r) -> {
            long pair = (r[b] << 32) | (r[a] & LOW32);
            long amount = r[c] & LOW32;
            int n = (int) (wrap ? amount & 31 : Math.min(amount, 32));
            r[d] = (left ? (pair << n) >>> 32 : pair >>> n) & LOW32;
        });
    }

    /** The two type modifiers of a dot product, each .u32 or .s32: whether each operand's parts are signed. */
    private static boolean[] dotSigns(PtxOps ops) {
        List<String> types = ops.allTypes();
        if (types.size() != 2) {
            throw ops.invalidHere(ops.instr().opcode() + " needs two types (.atype.btype)");
        }
        for (String t : types) {
            allowTypes(ops, t, "u32", "s32");
        }
        return new boolean[] {types.get(0).equals("s32"), types.get(1).equals("s32")};
    }

    /** Byte {@code i} of {@code v}, sign- or zero-extended. */
    private static long byteOf(long v, int i, boolean signed) {
        long b = (v >>> (8 * i)) & 0xFF;
        return signed ? (byte) b : b;
    }

    /** Half-word {@code i} of {@code v}, sign- or zero-extended. */
    private static long halfOf(long v, int i, boolean signed) {
        long h = (v >>> (16 * i)) & 0xFFFF;
        return signed ? (short) h : h;
    }

    /** {@code dp4a.atype.btype d, a, b, c}: c plus the sum of the products of the four bytes of a and of b. */
    private static void dp4a(PtxOps ops) {
        ops.checkMods();
        boolean[] s = dotSigns(ops);
        arity(ops, 4);
        int d = ops.dstReg(0);
        int a = ops.srcReg(1, "b32");
        int b = ops.srcReg(2, "b32");
        int c = ops.srcReg(3, "b32");
        step(ops, (t, r) -> {
            long sum = r[c];
            for (int i = 0; i < 4; i++) {
                sum += byteOf(r[a], i, s[0]) * byteOf(r[b], i, s[1]);
            }
            r[d] = sum & LOW32;
        });
    }

    /**
     * {@code dp2a.{lo,hi}.atype.btype d, a, b, c}: c plus the products of the two half-words of a with bytes 0
     * and 1 (.lo) or 2 and 3 (.hi) of b.
     */
    private static void dp2a(PtxOps ops) {
        ops.checkMods("lo", "hi");
        boolean hi = ops.mods().contains("hi");
        if (hi == ops.mods().contains("lo")) {
            throw ops.invalidHere("dp2a needs exactly one of .lo and .hi");
        }
        boolean[] s = dotSigns(ops);
        arity(ops, 4);
        int d = ops.dstReg(0);
        int a = ops.srcReg(1, "b32");
        int b = ops.srcReg(2, "b32");
        int c = ops.srcReg(3, "b32");
        int first = hi ? 2 : 0;
        step(ops, (t, r) -> {
            long sum = r[c] + halfOf(r[a], 0, s[0]) * byteOf(r[b], first, s[1])
                    + halfOf(r[a], 1, s[0]) * byteOf(r[b], first + 1, s[1]);
            r[d] = sum & LOW32;
        });
    }
}
