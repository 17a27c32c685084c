package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.ptx.Insn.Step;
import dev.polygpu.device.cpu.ptx.PtxDecoder.Sym;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Imm;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Instr;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Mem;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Name;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Sink;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The shared ground of the PTX instruction decoders ({@link PtxMemoryOps}, {@link PtxArithmeticOps},
 * {@link PtxMathOps}, {@link PtxOps}): the instruction being decoded, the checks of its modifiers, types and
 * arity, operand access (destination and source registers, predicates, addresses) and the bit conversions of
 * the register convention described on {@link PtxOps}.
 */
abstract class PtxOperands {
    static final Set<String> ROUNDING = Set.of("rn", "rz", "rm", "rp");
    static final Set<String> INT_ROUNDING = Set.of("rni", "rzi", "rmi", "rpi");
    static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    static final ValueLayout.OfByte I8 = ValueLayout.JAVA_BYTE;

    final PtxDecoder.FnDecoder fd;
    private final String file;
    Instr in;
    List<Operand> ops;
    List<String> mods;

    PtxOperands(PtxDecoder.FnDecoder fd) {
        this.fd = fd;
        this.file = fd.fileName();
    }

    // ---- checks and operands ----

    RuntimeException unsupported(String what) {
        return PtxSyntax.unsupported(file, in.line(), what + " (in '" + in.text() + "')");
    }

    RuntimeException invalid(String what) {
        return PtxSyntax.invalid(file, in.line(), what + " (in '" + in.text() + "')");
    }

    /** The types among the modifiers, in order. */
    List<String> types() {
        List<String> t = new ArrayList<>();
        for (String m : mods) {
            if (PtxTypes.isType(m)) {
                t.add(m);
            } else if (m.equals("f16x2") || m.equals("bf16") || m.equals("bf16x2")
                    || m.equals("tf32") || m.startsWith("e4m3") || m.startsWith("e5m2") || m.equals("b128")) {
                throw unsupported("type ." + m);
            }
        }
        return t;
    }

    String type() {
        List<String> t = types();
        if (t.size() != 1) {
            throw invalid(in.opcode() + " needs exactly one type");
        }
        return t.get(0);
    }

    /** Refuses every modifier that is neither a type nor one of {@code allowed}. */
    void allow(String... allowed) {
        List<String> ok = Arrays.asList(allowed);
        for (String m : mods) {
            if (!PtxTypes.isType(m) && !ok.contains(m)) {
                throw unsupported("modifier ." + m + " of " + in.opcode().split("\\.")[0]);
            }
        }
    }

    void allowTypes(String type, String... allowed) {
        if (!Arrays.asList(allowed).contains(type)) {
            throw unsupported("type ." + type + " for " + in.opcode().split("\\.")[0]);
        }
    }

    void arity(int n) {
        if (ops.size() != n) {
            throw invalid(in.opcode() + " takes " + n + " operands, got " + ops.size());
        }
    }

    boolean has(String m) {
        return mods.contains(m);
    }

    int rounding(Set<String> allowed, int dflt) {
        int mode = dflt;
        for (String m : mods) {
            if (allowed.contains(m)) {
                mode = PtxMath.mode(m);
            }
        }
        return mode;
    }

    Sym regSym(Operand o) {
        if (o instanceof Name n && !n.name().startsWith("!")) {
            Sym s = fd.lookup(n.name(), in.line());
            if (s.kind() == Sym.REG) {
                return s;
            }
        }
        return null;
    }

    /** A destination register (a sink gets a scratch register). */
    int dst(int i) {
        Operand o = ops.get(i);
        if (o instanceof Sink) {
            return fd.scratch();
        }
        Sym s = regSym(o);
        if (s == null) {
            throw invalid("operand " + (i + 1) + " (" + o + ") must be a register");
        }
        return s.reg();
    }

    /** A source operand of {@code type}: a register, a constant, a variable's address, or WARP_SZ. */
    int src(int i, String type) {
        return src(ops.get(i), type);
    }

    int src(Operand o, String type) {
        if (o instanceof Imm imm) {
            return fd.constant(PtxNumbers.bits(file, in.line(), imm.text(), type));
        }
        if (o instanceof Name n) {
            if (n.name().equals("WARP_SZ")) {
                return fd.constant(32);
            }
            if (n.name().startsWith("%") && special(n.name()) != null) {
                throw unsupported("special register " + n.name() + " as an operand of " + in.opcode()
                        + " (only mov reads special registers)");
            }
            if (n.name().startsWith("!")) {
                throw invalid("negated predicate " + n.name() + " here");
            }
            Sym s = fd.lookup(n.name(), in.line());
            return switch (s.kind()) {
                case Sym.REG -> s.reg();
                case Sym.GLOBAL, Sym.SHARED -> fd.constant(s.value());
                default -> throw unsupported("the address of " + n.name() + " as an operand");
            };
        }
        throw invalid("operand " + o + " must be a register or a constant");
    }

    /** A predicate source, possibly negated ({@code !%p}); returns {@code reg} or {@code ~reg} when negated. */
    int predSrc(Operand o) {
        if (o instanceof Name n && n.name().startsWith("!")) {
            return ~src(new Name(n.name().substring(1)), "pred");
        }
        return src(o, "pred");
    }

    /** An address operand {@code [base+offset]}. */
    record Addr(int base, long offset, boolean local, long mask) {
        long eval(PtxThread t, long[] r) {
            return local ? t.localBase + offset : (r[base] & mask) + offset;
        }
    }

    Addr addr(Operand o) {
        if (!(o instanceof Mem m)) {
            throw invalid("expected an address [..], got " + o);
        }
        if (m.base() == null) {
            return new Addr(fd.constant(0), m.offset(), false, -1L);
        }
        Sym s = fd.lookup(m.base(), in.line());
        return switch (s.kind()) {
            case Sym.REG -> new Addr(s.reg(), m.offset(), false, s.size() == 8 ? -1L : 0xFFFF_FFFFL);
            case Sym.GLOBAL, Sym.SHARED -> new Addr(fd.constant(s.value()), m.offset(), false, -1L);
            case Sym.LOCAL -> new Addr(-1, s.value() + m.offset(), true, -1L);
            default -> throw unsupported("address " + o + " outside ld.param/st.param");
        };
    }

    Insn step(Step s) {
        return fd.emit(in, Insn.STEP, s);
    }

    // hooks for PtxCollectives and PtxIntegerOps
    Instr instr() {
        return in;
    }

    List<String> mods() {
        return mods;
    }

    List<Operand> operands() {
        return ops;
    }

    PtxDecoder.FnDecoder fn() {
        return fd;
    }

    RuntimeException unsupportedHere(String what) {
        return unsupported(what);
    }

    RuntimeException invalidHere(String what) {
        return invalid(what);
    }

    int dstReg(int i) {
        return dst(i);
    }

    int srcReg(int i, String type) {
        return src(i, type);
    }

    int predReg(Operand o) {
        return predSrc(o);
    }

    void checkMods(String... allowed) {
        allow(allowed);
    }

    String oneType() {
        return type();
    }

    List<String> allTypes() {
        return types();
    }

    // ---- memory ----

    static final String[] CACHE_OPS = {"ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "weak"};

    // ---- moves and conversions ----

    /** How {@code mov} reads special register {@code name}; null if it is not one. */
    static Special special(String name) {
        return switch (name) {
            case "%tid.x" -> (t) -> t.tx;
            case "%tid.y" -> (t) -> t.ty;
            case "%tid.z" -> (t) -> t.tz;
            case "%ntid.x" -> (t) -> t.mem.ntX;
            case "%ntid.y" -> (t) -> t.mem.ntY;
            case "%ntid.z" -> (t) -> t.mem.ntZ;
            case "%ctaid.x" -> (t) -> t.mem.ctaX;
            case "%ctaid.y" -> (t) -> t.mem.ctaY;
            case "%ctaid.z" -> (t) -> t.mem.ctaZ;
            case "%nctaid.x" -> (t) -> t.mem.nctaX;
            case "%nctaid.y" -> (t) -> t.mem.nctaY;
            case "%nctaid.z" -> (t) -> t.mem.nctaZ;
            case "%laneid" -> (t) -> t.lane;
            case "%warpid" -> (t) -> t.warp;
            case "%nwarpid" -> (t) -> (t.mem.ntX * t.mem.ntY * t.mem.ntZ + 31) / 32;
            case "%smid", "%gridid" -> (t) -> 0;
            case "%nsmid" -> (t) -> 1;
            case "%lanemask_eq" -> (t) -> 1L << t.lane;
            case "%lanemask_lt" -> (t) -> (1L << t.lane) - 1;
            case "%lanemask_le" -> (t) -> ((2L << t.lane) - 1) & 0xFFFF_FFFFL;
            case "%lanemask_gt" -> (t) -> ~((2L << t.lane) - 1) & 0xFFFF_FFFFL;
            case "%lanemask_ge" -> (t) -> ~((1L << t.lane) - 1) & 0xFFFF_FFFFL;
            case "%clock", "%clock64", "%globaltimer" -> (t) -> System.nanoTime();
            case "%dynamic_smem_size" -> (t) -> t.mem.dynEnd - t.mem.dynBase;
            default -> null;
        };
    }

    @FunctionalInterface
    interface Special {
        long read(PtxThread t);
    }

    // ---- arithmetic ----

    static float f(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    static long fb(float v) {
        return Float.floatToRawIntBits(v);
    }

    static double g(long bits) {
        return Double.longBitsToDouble(bits);
    }

    static long gb(double v) {
        return Double.doubleToRawLongBits(v);
    }

    static double fv(boolean single, long bits) {
        return single ? Float.intBitsToFloat((int) bits) : Double.longBitsToDouble(bits);
    }
}
