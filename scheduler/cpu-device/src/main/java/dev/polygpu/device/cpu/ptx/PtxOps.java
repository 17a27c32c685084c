package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.rt.Atomics;
import dev.polygpu.device.cpu.ptx.Insn.Step;
import dev.polygpu.device.cpu.ptx.PtxDecoder.Sym;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Imm;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Instr;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Mem;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Name;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Sink;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Vec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The meaning of each PTX instruction: turns one instruction of a body into an {@link Insn} whose {@link Step}
 * does what the PTX ISA says, after checking its modifiers, types and operands. Whatever is not listed here
 * is refused with NOT_SUPPORTED naming the file, line and instruction.
 *
 * <p>Implementation notes. Register convention: every register is a {@code long}. Integer values of 8 to 32 bits sit in the low bits;
 * readers narrow (and sign- or zero-extend as the instruction's type says), so arithmetic need not clear the
 * high bits, while {@code ld} and {@code cvt} write values extended to 64 bits as PTX specifies for wider
 * destination registers. A {@code .f32} value is its raw bits in the low 32 bits, a {@code .f64} its raw bits,
 * a predicate 0 or 1. Constants are registers too (the decoder's {@code constant}), so every operand is an
 * index into the register file.
 */
final class PtxOps {
    private static final Set<String> ROUNDING = Set.of("rn", "rz", "rm", "rp");
    private static final Set<String> INT_ROUNDING = Set.of("rni", "rzi", "rmi", "rpi");
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfByte I8 = ValueLayout.JAVA_BYTE;

    private final PtxDecoder.FnDecoder fd;
    private final String file;
    private Instr in;
    private List<Operand> ops;
    private List<String> mods;

    PtxOps(PtxDecoder.FnDecoder fd) {
        this.fd = fd;
        this.file = fd.fileName();
    }

    // ---- checks and operands ----

    private RuntimeException unsupported(String what) {
        return PtxSyntax.unsupported(file, in.line(), what + " (in '" + in.text() + "')");
    }

    private RuntimeException invalid(String what) {
        return PtxSyntax.invalid(file, in.line(), what + " (in '" + in.text() + "')");
    }

    /** The types among the modifiers, in order. */
    private List<String> types() {
        List<String> t = new ArrayList<>();
        for (String m : mods) {
            if (PtxTypes.isType(m)) {
                t.add(m);
            } else if (m.equals("f16") || m.equals("f16x2") || m.equals("bf16") || m.equals("bf16x2")
                    || m.equals("tf32") || m.startsWith("e4m3") || m.startsWith("e5m2") || m.equals("b128")) {
                throw unsupported("type ." + m);
            }
        }
        return t;
    }

    private String type() {
        List<String> t = types();
        if (t.size() != 1) {
            throw invalid(in.opcode() + " needs exactly one type");
        }
        return t.get(0);
    }

    /** Refuses every modifier that is neither a type nor one of {@code allowed}. */
    private void allow(String... allowed) {
        List<String> ok = Arrays.asList(allowed);
        for (String m : mods) {
            if (!PtxTypes.isType(m) && !ok.contains(m)) {
                throw unsupported("modifier ." + m + " of " + in.opcode().split("\\.")[0]);
            }
        }
    }

    private void allowTypes(String type, String... allowed) {
        if (!Arrays.asList(allowed).contains(type)) {
            throw unsupported("type ." + type + " for " + in.opcode().split("\\.")[0]);
        }
    }

    private void arity(int n) {
        if (ops.size() != n) {
            throw invalid(in.opcode() + " takes " + n + " operands, got " + ops.size());
        }
    }

    private boolean has(String m) {
        return mods.contains(m);
    }

    private int rounding(Set<String> allowed, int dflt) {
        int mode = dflt;
        for (String m : mods) {
            if (allowed.contains(m)) {
                mode = PtxMath.mode(m);
            }
        }
        return mode;
    }

    private Sym regSym(Operand o) {
        if (o instanceof Name n && !n.name().startsWith("!")) {
            Sym s = fd.lookup(n.name(), in.line());
            if (s.kind() == Sym.REG) {
                return s;
            }
        }
        return null;
    }

    /** A destination register (a sink gets a scratch register). */
    private int dst(int i) {
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
    private int src(int i, String type) {
        return src(ops.get(i), type);
    }

    private int src(Operand o, String type) {
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
    private int predSrc(Operand o) {
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

    private Addr addr(Operand o) {
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

    private Insn step(Step s) {
        return fd.emit(in, Insn.STEP, s);
    }

    // ---- dispatch ----

    void decode(Instr instr) {
        this.in = instr;
        this.ops = instr.operands();
        String[] parts = instr.opcode().split("\\.");
        this.mods = new ArrayList<>(Arrays.asList(parts).subList(1, parts.length));
        String base = parts[0];
        if (instr.pairWith() != null && !base.equals("setp") && !base.equals("shfl")) {
            throw invalid("a second result (|" + instr.pairWith() + ") only belongs to setp and shfl");
        }
        switch (base) {
            case "ld", "ldu" -> load();
            case "st" -> store();
            case "mov" -> mov();
            case "cvta" -> cvta();
            case "cvt" -> cvt();
            case "add", "sub" -> {
                if (has("cc")) {
                    PtxIntegerOps.decode(this, base);
                } else {
                    addSub(base.equals("sub"));
                }
            }
            case "mul" -> mul();
            case "mad" -> {
                if (has("cc")) {
                    PtxIntegerOps.decode(this, base);
                } else {
                    mad();
                }
            }
            case "addc", "subc", "madc", "mul24", "mad24", "sad" -> PtxIntegerOps.decode(this, base);
            case "bfind", "shf", "dp4a", "dp2a" -> PtxBitOps.decode(this, base);
            case "fma" -> fma();
            case "div", "rem" -> divRem(base.equals("rem"));
            case "abs", "neg" -> absNeg(base.equals("neg"));
            case "min", "max" -> minMax(base.equals("max"));
            case "and", "or", "xor" -> logic(base);
            case "not", "cnot" -> not(base.equals("cnot"));
            case "shl", "shr" -> shift(base.equals("shr"));
            case "setp" -> setp();
            case "selp" -> selp();
            case "slct" -> slct();
            case "bra" -> {
                allow("uni");
                arity(1);
                fd.branch(in, ((Name) ops.get(0)).name());
            }
            case "ret" -> {
                allow("uni");
                fd.emit(in, Insn.RET, null);
            }
            case "exit" -> {
                allow();
                fd.emit(in, Insn.EXIT, null);
            }
            case "call" -> {
                allow("uni");
                fd.call(in, ops);
            }
            case "trap" -> {
                allow();
                step((t, r) -> {
                    throw new PtxTrap(CudaError.ILLEGAL_INSTRUCTION, "trap instruction executed");
                });
            }
            case "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh" -> unaryMath(base);
            case "copysign" -> copysign();
            case "testp" -> testp();
            case "popc", "clz", "brev" -> bitCount(base);
            case "bfe" -> bfe();
            case "bfi" -> bfi();
            case "prmt" -> prmt();
            case "atom", "red" -> atom(base.equals("red"));
            case "bar", "barrier" -> barrier(base);
            case "membar", "fence" -> fence();
            case "shfl", "vote", "activemask", "redux" -> PtxCollectives.decode(this, base);
            case "nanosleep" -> {
                allow();
                arity(1);
                int a = src(0, "u32");
                step((t, r) -> java.util.concurrent.locks.LockSupport.parkNanos(r[a] & 0xFFFF_FFFFL));
            }
            default -> throw unsupported("instruction " + instr.opcode());
        }
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

    private static final String[] CACHE_OPS = {"ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "weak"};

    private int space(List<String> allowed) {
        int sp = PtxMemory.GENERIC;
        for (String m : mods) {
            switch (m) {
                case "global" -> sp = PtxMemory.GLOBAL;
                case "const" -> sp = PtxMemory.GLOBAL;
                case "shared" -> sp = PtxMemory.SHARED;
                case "local" -> sp = PtxMemory.LOCAL;
                case "param" -> sp = -1;
                default -> {
                    if (m.contains("::") && (m.startsWith("L1") || m.startsWith("L2"))) {
                        continue; // cache eviction hints and prefetch sizes: no effect on values
                    }
                    if (!PtxTypes.isType(m) && !allowed.contains(m) && !Arrays.asList(CACHE_OPS).contains(m)) {
                        throw unsupported("modifier ." + m + " of " + in.opcode().split("\\.")[0]);
                    }
                }
            }
        }
        return sp;
    }

    private void load() {
        int sp = space(List.of("v2", "v4", "volatile"));
        String type = type();
        int size = PtxTypes.size(type);
        if (type.equals("pred")) {
            throw invalid("ld of a predicate");
        }
        int n = has("v4") ? 4 : has("v2") ? 2 : 1;
        arity(2);
        int[] d = new int[n];
        if (n == 1) {
            d[0] = dst(0);
        } else {
            if (!(ops.get(0) instanceof Vec v) || v.elements().size() != n) {
                throw invalid("ld.v" + n + " needs a vector of " + n + " registers");
            }
            for (int k = 0; k < n; k++) {
                Operand e = v.elements().get(k);
                d[k] = e instanceof Sink ? fd.scratch() : regOf(e);
            }
        }
        boolean signed = PtxTypes.isSigned(type);
        boolean vol = has("volatile");
        if (vol && sp != PtxMemory.LOCAL) {
            fd.markLockstep();
        }
        if (sp == -1) {
            paramLoad(d, size, signed);
            return;
        }
        Addr a = addr(ops.get(1));
        int total = size * n;
        if (n == 1 && !vol) {
            int d0 = d[0];
            switch (size) {
                case 4 -> step(signed || PtxTypes.isFloat(type)
                        ? (t, r) -> {
                            long off = t.mem.at(sp, t, a.eval(t, r), 4);
                            r[d0] = t.mem.seg.get(I32, off);
                        }
                        : (t, r) -> {
                            long off = t.mem.at(sp, t, a.eval(t, r), 4);
                            r[d0] = t.mem.seg.get(I32, off) & 0xFFFF_FFFFL;
                        });
                case 8 -> step((t, r) -> {
                    long off = t.mem.at(sp, t, a.eval(t, r), 8);
                    r[d0] = t.mem.seg.get(I64, off);
                });
                default -> step((t, r) -> {
                    long off = t.mem.at(sp, t, a.eval(t, r), size);
                    r[d0] = read(t.mem.seg, off, size, signed);
                });
            }
            return;
        }
        step((t, r) -> {
            long off = t.mem.at(sp, t, a.eval(t, r), total);
            MemorySegment s = t.mem.seg;
            if (vol) {
                VarHandle.fullFence();
            }
            for (int k = 0; k < d.length; k++) {
                r[d[k]] = read(s, off + (long) k * size, size, signed);
            }
        });
    }

    private int regOf(Operand e) {
        Sym s = regSym(e);
        if (s == null) {
            throw invalid(e + " must be a register");
        }
        return s.reg();
    }

    static long read(MemorySegment s, long off, int size, boolean signed) {
        return switch (size) {
            case 1 -> signed ? s.get(I8, off) : s.get(I8, off) & 0xFFL;
            case 2 -> signed ? s.get(I16, off) : s.get(I16, off) & 0xFFFFL;
            case 4 -> signed ? s.get(I32, off) : s.get(I32, off) & 0xFFFF_FFFFL;
            default -> s.get(I64, off);
        };
    }

    static void write(MemorySegment s, long off, int size, long v) {
        switch (size) {
            case 1 -> s.set(I8, off, (byte) v);
            case 2 -> s.set(I16, off, (short) v);
            case 4 -> s.set(I32, off, (int) v);
            default -> s.set(I64, off, v);
        }
    }

    /** {@code [param+offset]}: the launch's parameter block for an entry's parameter, else the frame's area. */
    private Sym paramSym(Operand o) {
        if (!(o instanceof Mem m) || m.base() == null) {
            throw invalid("ld.param/st.param needs [parameter+offset]");
        }
        Sym s = fd.lookup(m.base(), in.line());
        if (s.kind() != Sym.KPARAM && s.kind() != Sym.FPARAM) {
            throw unsupported("ld.param/st.param through " + m.base() + " (only named parameters)");
        }
        if (m.offset() < 0 || m.offset() > s.size()) {
            throw invalid("offset " + m.offset() + " lies outside parameter " + m.base() + " (" + s.size()
                    + " bytes)");
        }
        return s;
    }

    private void paramLoad(int[] d, int size, boolean signed) {
        Sym s = paramSym(ops.get(1));
        long off = s.value() + ((Mem) ops.get(1)).offset();
        if (((Mem) ops.get(1)).offset() + (long) size * d.length > s.size()) {
            throw invalid("the load reads past the end of parameter " + s.name() + " (" + s.size() + " bytes)");
        }
        boolean kernel = s.kind() == Sym.KPARAM;
        if (d.length == 1) {
            int d0 = d[0];
            step(kernel ? (t, r) -> r[d0] = read(t.mem.kernelParams, off, size, signed)
                    : (t, r) -> r[d0] = read(t.params, off, size, signed));
            return;
        }
        step((t, r) -> {
            MemorySegment seg = kernel ? t.mem.kernelParams : t.params;
            for (int k = 0; k < d.length; k++) {
                r[d[k]] = read(seg, off + (long) k * size, size, signed);
            }
        });
    }

    private void store() {
        int sp = space(List.of("v2", "v4", "volatile"));
        String type = type();
        int size = PtxTypes.size(type);
        int n = has("v4") ? 4 : has("v2") ? 2 : 1;
        arity(2);
        int[] v = new int[n];
        if (n == 1) {
            v[0] = src(1, type);
        } else {
            if (!(ops.get(1) instanceof Vec vec) || vec.elements().size() != n) {
                throw invalid("st.v" + n + " needs a vector of " + n + " values");
            }
            for (int k = 0; k < n; k++) {
                v[k] = src(vec.elements().get(k), type);
            }
        }
        if (sp == -1) {
            Sym s = paramSym(ops.get(0));
            if (s.kind() == Sym.KPARAM) {
                throw invalid("st.param to kernel parameter " + s.name() + ", which is read-only");
            }
            long off = s.value() + ((Mem) ops.get(0)).offset();
            step((t, r) -> {
                for (int k = 0; k < v.length; k++) {
                    write(t.params, off + (long) k * size, size, r[v[k]]);
                }
            });
            return;
        }
        Addr a = addr(ops.get(0));
        int total = size * n;
        boolean vol = has("volatile");
        if (vol && sp != PtxMemory.LOCAL) {
            fd.markLockstep();
        }
        if (n == 1 && !vol) {
            int v0 = v[0];
            switch (size) {
                case 4 -> step((t, r) -> {
                    long off = t.mem.atWrite(sp, t, a.eval(t, r), 4);
                    t.mem.seg.set(I32, off, (int) r[v0]);
                });
                case 8 -> step((t, r) -> {
                    long off = t.mem.atWrite(sp, t, a.eval(t, r), 8);
                    t.mem.seg.set(I64, off, r[v0]);
                });
                default -> step((t, r) -> {
                    long off = t.mem.atWrite(sp, t, a.eval(t, r), size);
                    write(t.mem.seg, off, size, r[v0]);
                });
            }
            return;
        }
        step((t, r) -> {
            long off = t.mem.atWrite(sp, t, a.eval(t, r), total);
            MemorySegment s = t.mem.seg;
            for (int k = 0; k < v.length; k++) {
                write(s, off + (long) k * size, size, r[v[k]]);
            }
            if (vol) {
                VarHandle.fullFence();
            }
        });
    }

    // ---- moves and conversions ----

    /** How {@code mov} reads special register {@code name}; null if it is not one. */
    private static Special special(String name) {
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
    private interface Special {
        long read(PtxThread t);
    }

    private void mov() {
        allow();
        String type = type();
        arity(2);
        Operand a = ops.get(1);
        if (ops.get(0) instanceof Vec v) {
            unpack(v, type);
            return;
        }
        int d = dst(0);
        if (a instanceof Vec v) {
            pack(d, v, type);
            return;
        }
        if (a instanceof Name n && n.name().startsWith("%")) {
            Special s = special(n.name());
            if (s != null) {
                step((t, r) -> r[d] = s.read(t));
                return;
            }
        }
        if (a instanceof Name n && !n.name().equals("WARP_SZ")) {
            Sym s = fd.lookup(n.name(), in.line());
            if (s.kind() == Sym.LOCAL) {
                long off = s.value();
                step((t, r) -> r[d] = t.localBase + off);
                return;
            }
        }
        int sr = src(1, type);
        if (type.equals("pred")) {
            // A predicate is true or false: nvcc writes mov.pred %p, -1 for true, which not.pred must turn false.
            step((t, r) -> r[d] = r[sr] != 0 ? 1 : 0);
            return;
        }
        step((t, r) -> r[d] = r[sr]);
    }

    private void pack(int d, Vec v, String type) {
        int n = v.elements().size();
        int bits = PtxTypes.bits(type) / n;
        if (n < 2 || n > 4 || bits < 8) {
            throw invalid("cannot pack " + n + " values into ." + type);
        }
        int[] s = new int[n];
        for (int k = 0; k < n; k++) {
            s[k] = src(v.elements().get(k), "b" + bits);
        }
        long mask = bits == 64 ? -1L : (1L << bits) - 1;
        step((t, r) -> {
            long x = 0;
            for (int k = 0; k < s.length; k++) {
                x |= (r[s[k]] & mask) << (k * bits);
            }
            r[d] = x;
        });
    }

    private void unpack(Vec v, String type) {
        int n = v.elements().size();
        int bits = PtxTypes.bits(type) / n;
        if (n < 2 || n > 4 || bits < 8) {
            throw invalid("cannot unpack ." + type + " into " + n + " values");
        }
        int[] d = new int[n];
        for (int k = 0; k < n; k++) {
            Operand e = v.elements().get(k);
            d[k] = e instanceof Sink ? fd.scratch() : regOf(e);
        }
        int a = src(1, type);
        long mask = (1L << bits) - 1;
        step((t, r) -> {
            long x = r[a];
            for (int k = 0; k < d.length; k++) {
                r[d[k]] = (x >>> (k * bits)) & mask;
            }
        });
    }

    private void cvta() {
        boolean to = has("to");
        String space = null;
        for (String m : mods) {
            if (m.equals("global") || m.equals("shared") || m.equals("local") || m.equals("const")) {
                space = m;
            } else if (!m.equals("to") && !m.equals("u64") && !m.equals("u32")) {
                throw unsupported("cvta modifier ." + m);
            }
        }
        if (space == null) {
            throw unsupported("cvta without .global/.shared/.local/.const");
        }
        arity(2);
        int d = dst(0);
        int a = src(1, "u64");
        long window = switch (space) {
            case "shared" -> PtxMemory.SHARED_WINDOW;
            case "local" -> PtxMemory.LOCAL_WINDOW;
            default -> 0;
        };
        boolean narrow = has("u32");
        if (window == 0) {
            step((t, r) -> r[d] = narrow ? r[a] & 0xFFFF_FFFFL : r[a]);
        } else if (to) {
            step((t, r) -> r[d] = r[a] - window);
        } else {
            step((t, r) -> r[d] = (narrow ? r[a] & 0xFFFF_FFFFL : r[a]) + window);
        }
    }

    private void cvt() {
        allow("rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "sat", "ftz");
        List<String> ts = types();
        if (ts.size() != 2) {
            throw invalid("cvt needs a destination and a source type");
        }
        String dt = ts.get(0);
        String st = ts.get(1);
        arity(2);
        int d = dst(0);
        int a = src(1, st);
        boolean sat = has("sat");
        int sBits = PtxTypes.bits(st);
        int dBits = PtxTypes.bits(dt);
        boolean sSigned = PtxTypes.isSigned(st);
        boolean dSigned = PtxTypes.isSigned(dt);
        int sShift = 64 - sBits;
        int dShift = 64 - dBits;
        if (dt.equals("pred") || st.equals("pred")) {
            throw unsupported("cvt with a predicate");
        }
        boolean sf = PtxTypes.isFloat(st);
        boolean df = PtxTypes.isFloat(dt);
        if (!sf && !df) {
            long min = dSigned ? (dBits == 64 ? Long.MIN_VALUE : -(1L << (dBits - 1))) : 0;
            long max = dSigned ? (dBits == 64 ? Long.MAX_VALUE : (1L << (dBits - 1)) - 1)
                    : (dBits == 64 ? -1L : (1L << dBits) - 1);
            step((t, r) -> {
                long v = sSigned ? (r[a] << sShift) >> sShift : (r[a] << sShift) >>> sShift;
                if (sat) {
                    v = saturate(v, sSigned, min, max, dSigned, dBits);
                }
                r[d] = dSigned ? (v << dShift) >> dShift : (v << dShift) >>> dShift;
            });
            return;
        }
        if (!sf) {
            int mode = rounding(ROUNDING, PtxMath.RN);
            boolean unsignedSrc = !sSigned;
            if (dt.equals("f32")) {
                step((t, r) -> {
                    long v = unsignedSrc ? (r[a] << sShift) >>> sShift : (r[a] << sShift) >> sShift;
                    float f = PtxMath.intToFloat(v, unsignedSrc && sBits == 64, mode);
                    r[d] = Float.floatToRawIntBits(sat ? sat32(f) : f);
                });
            } else {
                step((t, r) -> {
                    long v = unsignedSrc ? (r[a] << sShift) >>> sShift : (r[a] << sShift) >> sShift;
                    double f = PtxMath.intToDouble(v, unsignedSrc && sBits == 64, mode);
                    r[d] = Double.doubleToRawLongBits(sat ? sat64(f) : f);
                });
            }
            return;
        }
        boolean s32 = st.equals("f32");
        if (!df) {
            int mode = rounding(INT_ROUNDING, -1);
            if (mode < 0) {
                throw invalid("cvt from a float to an integer needs .rni, .rzi, .rmi or .rpi");
            }
            step((t, r) -> {
                double v = s32 ? Float.intBitsToFloat((int) r[a]) : Double.longBitsToDouble(r[a]);
                long x = PtxMath.toInteger(v, mode, dBits, dSigned);
                r[d] = dSigned ? (x << dShift) >> dShift : (x << dShift) >>> dShift;
            });
            return;
        }
        boolean d32 = dt.equals("f32");
        int intMode = rounding(INT_ROUNDING, -1);
        int mode = rounding(ROUNDING, PtxMath.RN);
        step((t, r) -> {
            double v = s32 ? Float.intBitsToFloat((int) r[a]) : Double.longBitsToDouble(r[a]);
            if (intMode >= 0) {
                v = PtxMath.roundIntegral(v, intMode);
            }
            if (d32) {
                float f = s32 ? (float) v : PtxMath.doubleToFloat(v, mode);
                r[d] = Float.floatToRawIntBits(sat ? sat32(f) : f);
            } else {
                r[d] = Double.doubleToRawLongBits(sat ? sat64(v) : v);
            }
        });
    }

    private static long saturate(long v, boolean srcSigned, long min, long max, boolean dSigned, int dBits) {
        if (!srcSigned && v < 0) {
            return max; // an unsigned 64-bit value above 2^63
        }
        if (!dSigned && dBits == 64) {
            return v < 0 ? 0 : v;
        }
        return v < min ? min : v > max ? max : v;
    }

    static float sat32(float f) {
        return Float.isNaN(f) ? 0f : Math.max(0f, Math.min(1f, f));
    }

    static double sat64(double f) {
        return Double.isNaN(f) ? 0.0 : Math.max(0.0, Math.min(1.0, f));
    }

    // ---- arithmetic ----

    private static float f(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    private static long fb(float v) {
        return Float.floatToRawIntBits(v);
    }

    private static double g(long bits) {
        return Double.longBitsToDouble(bits);
    }

    private static long gb(double v) {
        return Double.doubleToRawLongBits(v);
    }

    private void addSub(boolean sub) {
        allow("rn", "rz", "rm", "rp", "ftz", "sat");
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int mode = rounding(ROUNDING, PtxMath.RN);
        switch (type) {
            case "f32" -> {
                boolean sat = has("sat");
                if (mode == PtxMath.RN && !sat) {
                    step(sub ? (t, r) -> r[d] = fb(f(r[a]) - f(r[b])) : (t, r) -> r[d] = fb(f(r[a]) + f(r[b])));
                } else {
                    step((t, r) -> {
                        float v = PtxMath.add32(f(r[a]), sub ? -f(r[b]) : f(r[b]), mode);
                        r[d] = fb(sat ? sat32(v) : v);
                    });
                }
            }
            case "f64" -> step((t, r) -> r[d] = gb(PtxMath.add64(g(r[a]), sub ? -g(r[b]) : g(r[b]), mode)));
            case "s32" -> {
                if (has("sat")) {
                    step((t, r) -> {
                        long v = sub ? (long) (int) r[a] - (int) r[b] : (long) (int) r[a] + (int) r[b];
                        r[d] = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
                    });
                } else {
                    step(sub ? (t, r) -> r[d] = (int) r[a] - (int) r[b] : (t, r) -> r[d] = (int) r[a] + (int) r[b]);
                }
            }
            case "pred" -> throw invalid("arithmetic on predicates");
            default -> {
                if (has("sat")) {
                    throw unsupported(".sat on ." + type);
                }
                step(sub ? (t, r) -> r[d] = r[a] - r[b] : (t, r) -> r[d] = r[a] + r[b]);
            }
        }
    }

    private void mul() {
        allow("lo", "hi", "wide", "rn", "rz", "rm", "rp", "ftz", "sat");
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int mode = rounding(ROUNDING, PtxMath.RN);
        if (type.equals("f32")) {
            boolean sat = has("sat");
            if (mode == PtxMath.RN && !sat) {
                step((t, r) -> r[d] = fb(f(r[a]) * f(r[b])));
            } else {
                step((t, r) -> {
                    float v = PtxMath.mul32(f(r[a]), f(r[b]), mode);
                    r[d] = fb(sat ? sat32(v) : v);
                });
            }
            return;
        }
        if (type.equals("f64")) {
            step((t, r) -> r[d] = gb(PtxMath.mul64(g(r[a]), g(r[b]), mode)));
            return;
        }
        intMul(type, d, a, b, -1);
    }

    /** mul/mad on integers: {@code .lo}, {@code .hi}, {@code .wide}; {@code c} the addend or -1. */
    private void intMul(String type, int d, int a, int b, int c) {
        int bits = PtxTypes.bits(type);
        boolean signed = PtxTypes.isSigned(type);
        int sh = 64 - bits;
        if (has("wide")) {
            if (bits == 64) {
                throw invalid(".wide on a 64-bit type");
            }
            step((t, r) -> {
                long x = signed ? (r[a] << sh) >> sh : (r[a] << sh) >>> sh;
                long y = signed ? (r[b] << sh) >> sh : (r[b] << sh) >>> sh;
                r[d] = x * y + (c < 0 ? 0 : r[c]);
            });
        } else if (has("hi")) {
            if (bits == 64) {
                step(signed ? (t, r) -> r[d] = Math.multiplyHigh(r[a], r[b]) + (c < 0 ? 0 : r[c])
                        : (t, r) -> r[d] = Math.unsignedMultiplyHigh(r[a], r[b]) + (c < 0 ? 0 : r[c]));
            } else {
                step((t, r) -> {
                    long x = signed ? (r[a] << sh) >> sh : (r[a] << sh) >>> sh;
                    long y = signed ? (r[b] << sh) >> sh : (r[b] << sh) >>> sh;
                    r[d] = ((x * y) >> bits) + (c < 0 ? 0 : r[c]);
                });
            }
        } else {
            if (!has("lo") && !type.startsWith("b")) {
                throw invalid("integer " + in.opcode().split("\\.")[0] + " needs .lo, .hi or .wide");
            }
            if (c < 0) {
                step((t, r) -> r[d] = r[a] * r[b]);
            } else {
                step((t, r) -> r[d] = r[a] * r[b] + r[c]);
            }
        }
    }

    private void mad() {
        allow("lo", "hi", "wide", "rn", "rz", "rm", "rp", "ftz", "sat");
        String type = type();
        arity(4);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int c = src(3, has("wide") ? widen(type) : type);
        if (PtxTypes.isFloat(type)) {
            fmaStep(type, d, a, b, c);
            return;
        }
        if (has("sat")) {
            throw unsupported("mad.sat");
        }
        intMul(type, d, a, b, c);
    }

    private static String widen(String type) {
        return type.charAt(0) + String.valueOf(PtxTypes.bits(type) * 2);
    }

    private void fma() {
        allow("rn", "rz", "rm", "rp", "ftz", "sat");
        String type = type();
        allowTypes(type, "f32", "f64");
        arity(4);
        fmaStep(type, dst(0), src(1, type), src(2, type), src(3, type));
    }

    private void fmaStep(String type, int d, int a, int b, int c) {
        int mode = rounding(ROUNDING, PtxMath.RN);
        boolean sat = has("sat");
        if (type.equals("f32")) {
            if (mode == PtxMath.RN && !sat) {
                step((t, r) -> r[d] = fb(Math.fma(f(r[a]), f(r[b]), f(r[c]))));
            } else {
                step((t, r) -> {
                    float v = PtxMath.fma32(f(r[a]), f(r[b]), f(r[c]), mode);
                    r[d] = fb(sat ? sat32(v) : v);
                });
            }
        } else {
            if (mode != PtxMath.RN) {
                throw unsupported("fma.f64 with a directed rounding mode");
            }
            step((t, r) -> r[d] = gb(Math.fma(g(r[a]), g(r[b]), g(r[c]))));
        }
    }

    private void divRem(boolean rem) {
        allow("rn", "rz", "rm", "rp", "approx", "full", "ftz");
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        if (PtxTypes.isFloat(type)) {
            if (rem) {
                throw invalid("rem on a float type");
            }
            int mode = rounding(ROUNDING, PtxMath.RN);
            if (mode != PtxMath.RN) {
                throw unsupported("div with a directed rounding mode");
            }
            if (type.equals("f32")) {
                step((t, r) -> r[d] = fb(f(r[a]) / f(r[b])));
            } else {
                step((t, r) -> r[d] = gb(g(r[a]) / g(r[b])));
            }
            return;
        }
        int sh = 64 - PtxTypes.bits(type);
        boolean signed = PtxTypes.isSigned(type);
        if (signed) {
            step(rem ? (t, r) -> r[d] = PtxMath.remSigned((r[a] << sh) >> sh, (r[b] << sh) >> sh)
                    : (t, r) -> r[d] = PtxMath.divSigned((r[a] << sh) >> sh, (r[b] << sh) >> sh));
        } else {
            step(rem ? (t, r) -> r[d] = PtxMath.remUnsigned((r[a] << sh) >>> sh, (r[b] << sh) >>> sh)
                    : (t, r) -> r[d] = PtxMath.divUnsigned((r[a] << sh) >>> sh, (r[b] << sh) >>> sh));
        }
    }

    private void absNeg(boolean neg) {
        allow("ftz");
        String type = type();
        arity(2);
        int d = dst(0);
        int a = src(1, type);
        switch (type) {
            case "f32" -> step(neg ? (t, r) -> r[d] = (int) r[a] ^ 0x8000_0000 : (t, r) -> r[d] = (int) r[a] & 0x7FFF_FFFF);
            case "f64" -> step(neg ? (t, r) -> r[d] = r[a] ^ Long.MIN_VALUE : (t, r) -> r[d] = r[a] & Long.MAX_VALUE);
            default -> {
                int sh = 64 - PtxTypes.bits(type);
                step(neg ? (t, r) -> r[d] = -r[a] : (t, r) -> {
                    long x = (r[a] << sh) >> sh;
                    r[d] = x < 0 ? -x : x;
                });
            }
        }
    }

    private void minMax(boolean max) {
        allow("ftz");
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        switch (type) {
            case "f32" -> step(max ? (t, r) -> r[d] = fb(PtxMath.max32(f(r[a]), f(r[b])))
                    : (t, r) -> r[d] = fb(PtxMath.min32(f(r[a]), f(r[b]))));
            case "f64" -> step(max ? (t, r) -> r[d] = gb(PtxMath.max64(g(r[a]), g(r[b])))
                    : (t, r) -> r[d] = gb(PtxMath.min64(g(r[a]), g(r[b]))));
            default -> {
                int sh = 64 - PtxTypes.bits(type);
                if (PtxTypes.isSigned(type)) {
                    step((t, r) -> {
                        long x = (r[a] << sh) >> sh;
                        long y = (r[b] << sh) >> sh;
                        r[d] = max ? Math.max(x, y) : Math.min(x, y);
                    });
                } else {
                    step((t, r) -> {
                        long x = (r[a] << sh) >>> sh;
                        long y = (r[b] << sh) >>> sh;
                        r[d] = (Long.compareUnsigned(x, y) > 0) == max ? x : y;
                    });
                }
            }
        }
    }

    private void logic(String op) {
        allow();
        String type = type();
        allowTypes(type, "pred", "b16", "b32", "b64");
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        switch (op) {
            case "and" -> step((t, r) -> r[d] = r[a] & r[b]);
            case "or" -> step((t, r) -> r[d] = r[a] | r[b]);
            default -> step((t, r) -> r[d] = r[a] ^ r[b]);
        }
    }

    private void not(boolean cnot) {
        allow();
        String type = type();
        allowTypes(type, "pred", "b16", "b32", "b64");
        arity(2);
        int d = dst(0);
        int a = src(1, type);
        int sh = 64 - PtxTypes.bits(type);
        if (cnot) {
            step((t, r) -> r[d] = ((r[a] << sh) == 0) ? 1 : 0);
        } else if (type.equals("pred")) {
            step((t, r) -> r[d] = r[a] == 0 ? 1 : 0);
        } else {
            step((t, r) -> r[d] = ~r[a]);
        }
    }

    private void shift(boolean right) {
        allow();
        String type = type();
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, "u32");
        int bits = PtxTypes.bits(type);
        int sh = 64 - bits;
        if (!right) {
            step((t, r) -> {
                long n = r[b] & 0xFFFF_FFFFL;
                r[d] = n >= bits ? 0 : r[a] << n;
            });
        } else if (PtxTypes.isSigned(type)) {
            step((t, r) -> r[d] = ((r[a] << sh) >> sh) >> Math.min(r[b] & 0xFFFF_FFFFL, 63));
        } else {
            step((t, r) -> {
                long n = r[b] & 0xFFFF_FFFFL;
                r[d] = n >= bits ? 0 : ((r[a] << sh) >>> sh) >>> n;
            });
        }
    }

    @FunctionalInterface
    private interface Cmp {
        boolean test(long[] r);
    }

    private Cmp compare(String op, String type, int a, int b) {
        if (type.equals("f32") || type.equals("f64")) {
            boolean s = type.equals("f32");
            return switch (op) {
                case "eq" -> r -> fv(s, r[a]) == fv(s, r[b]);
                case "ne" -> r -> fv(s, r[a]) != fv(s, r[b]) && !unord(s, r[a], r[b]);
                case "lt" -> r -> fv(s, r[a]) < fv(s, r[b]);
                case "le" -> r -> fv(s, r[a]) <= fv(s, r[b]);
                case "gt" -> r -> fv(s, r[a]) > fv(s, r[b]);
                case "ge" -> r -> fv(s, r[a]) >= fv(s, r[b]);
                case "equ" -> r -> fv(s, r[a]) == fv(s, r[b]) || unord(s, r[a], r[b]);
                case "neu" -> r -> fv(s, r[a]) != fv(s, r[b]);
                case "ltu" -> r -> !(fv(s, r[a]) >= fv(s, r[b]));
                case "leu" -> r -> !(fv(s, r[a]) > fv(s, r[b]));
                case "gtu" -> r -> !(fv(s, r[a]) <= fv(s, r[b]));
                case "geu" -> r -> !(fv(s, r[a]) < fv(s, r[b]));
                case "num" -> r -> !unord(s, r[a], r[b]);
                case "nan" -> r -> unord(s, r[a], r[b]);
                default -> throw unsupported("comparison ." + op + " on ." + type);
            };
        }
        int sh = 64 - PtxTypes.bits(type);
        boolean signed = PtxTypes.isSigned(type);
        boolean bitsOnly = type.startsWith("b") || type.equals("pred");
        if (bitsOnly && !op.equals("eq") && !op.equals("ne")) {
            throw invalid("comparison ." + op + " on the untyped ." + type + " (only eq and ne)");
        }
        return switch (op) {
            case "eq" -> r -> (r[a] << sh) == (r[b] << sh);
            case "ne" -> r -> (r[a] << sh) != (r[b] << sh);
            case "lt", "lo" -> signed ? r -> (r[a] << sh) < (r[b] << sh)
                    : r -> Long.compareUnsigned(r[a] << sh, r[b] << sh) < 0;
            case "le", "ls" -> signed ? r -> (r[a] << sh) <= (r[b] << sh)
                    : r -> Long.compareUnsigned(r[a] << sh, r[b] << sh) <= 0;
            case "gt", "hi" -> signed ? r -> (r[a] << sh) > (r[b] << sh)
                    : r -> Long.compareUnsigned(r[a] << sh, r[b] << sh) > 0;
            case "ge", "hs" -> signed ? r -> (r[a] << sh) >= (r[b] << sh)
                    : r -> Long.compareUnsigned(r[a] << sh, r[b] << sh) >= 0;
            default -> throw unsupported("comparison ." + op + " on ." + type);
        };
    }

    private static double fv(boolean single, long bits) {
        return single ? Float.intBitsToFloat((int) bits) : Double.longBitsToDouble(bits);
    }

    private static boolean unord(boolean single, long a, long b) {
        return Double.isNaN(fv(single, a)) || Double.isNaN(fv(single, b));
    }

    private void setp() {
        String type = type();
        List<String> rest = new ArrayList<>(mods);
        rest.remove(type);
        rest.remove("ftz");
        if (rest.isEmpty() || rest.size() > 2) {
            throw invalid("setp needs a comparison");
        }
        String op = rest.get(0);
        String bool = rest.size() == 2 ? rest.get(1) : null;
        if (bool != null && !bool.equals("and") && !bool.equals("or") && !bool.equals("xor")) {
            throw unsupported("setp combination ." + bool);
        }
        if (ops.size() != (bool == null ? 3 : 4)) {
            throw invalid("setp takes " + (bool == null ? 3 : 4) + " operands");
        }
        int p = dst(0);
        int q = in.pairWith() == null ? -1 : regOf(new Name(in.pairWith()));
        Cmp cmp = compare(op, type, src(1, type), src(2, type));
        if (bool == null) {
            step(q < 0 ? (t, r) -> r[p] = cmp.test(r) ? 1 : 0 : (t, r) -> {
                boolean v = cmp.test(r);
                r[p] = v ? 1 : 0;
                r[q] = v ? 0 : 1;
            });
            return;
        }
        int cr = predSrc(ops.get(3));
        int c = cr < 0 ? ~cr : cr;
        boolean negC = cr < 0;
        step((t, r) -> {
            boolean v = cmp.test(r);
            boolean cv = (r[c] != 0) != negC;
            r[p] = combine(bool, v, cv) ? 1 : 0;
            if (q >= 0) {
                r[q] = combine(bool, !v, cv) ? 1 : 0;
            }
        });
    }

    private static boolean combine(String op, boolean a, boolean b) {
        return switch (op) {
            case "and" -> a && b;
            case "or" -> a || b;
            default -> a ^ b;
        };
    }

    private void selp() {
        allow();
        String type = type();
        arity(4);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int c = src(3, "pred");
        step((t, r) -> r[d] = r[c] != 0 ? r[a] : r[b]);
    }

    private void slct() {
        allow("ftz");
        List<String> ts = types();
        if (ts.size() != 2) {
            throw invalid("slct needs two types");
        }
        arity(4);
        int d = dst(0);
        int a = src(1, ts.get(0));
        int b = src(2, ts.get(0));
        int c = src(3, ts.get(1));
        if (ts.get(1).equals("f32")) {
            step((t, r) -> r[d] = f(r[c]) >= 0f ? r[a] : r[b]);
        } else if (ts.get(1).equals("s32")) {
            step((t, r) -> r[d] = (int) r[c] >= 0 ? r[a] : r[b]);
        } else {
            throw unsupported("slct with a ." + ts.get(1) + " selector");
        }
    }

    // ---- math ----

    private void unaryMath(String op) {
        allow("rn", "approx", "full", "ftz");
        String type = type();
        allowTypes(type, "f32", "f64");
        arity(2);
        boolean approx = has("approx");
        boolean single = type.equals("f32");
        switch (op) {
            case "rcp", "sqrt" -> {
                if (!approx && !has("rn")) {
                    throw unsupported(op + " without .rn or .approx (directed rounding)");
                }
            }
            case "rsqrt" -> {
                if (!approx) {
                    throw invalid("rsqrt needs .approx");
                }
            }
            default -> {
                if (!approx || !single) {
                    throw unsupported(op + "." + String.join(".", mods));
                }
            }
        }
        int d = dst(0);
        int a = src(1, type);
        java.util.function.DoubleUnaryOperator fn = switch (op) {
            case "rcp" -> x -> 1.0 / x;
            case "sqrt" -> Math::sqrt;
            case "rsqrt" -> x -> 1.0 / Math.sqrt(x);
            case "ex2" -> x -> Math.pow(2.0, x);
            case "lg2" -> x -> Math.log(x) / Math.log(2.0);
            case "sin" -> Math::sin;
            case "cos" -> Math::cos;
            default -> Math::tanh;
        };
        if (single) {
            if (op.equals("rcp")) {
                step((t, r) -> r[d] = fb(1.0f / f(r[a])));
            } else if (op.equals("sqrt")) {
                step((t, r) -> r[d] = fb((float) Math.sqrt(f(r[a]))));
            } else {
                step((t, r) -> r[d] = fb((float) fn.applyAsDouble(f(r[a]))));
            }
        } else {
            step((t, r) -> r[d] = gb(fn.applyAsDouble(g(r[a]))));
        }
    }

    private void copysign() {
        allow();
        String type = type();
        allowTypes(type, "f32", "f64");
        arity(3);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        if (type.equals("f32")) {
            step((t, r) -> r[d] = ((int) r[a] & 0x8000_0000) | ((int) r[b] & 0x7FFF_FFFF));
        } else {
            step((t, r) -> r[d] = (r[a] & Long.MIN_VALUE) | (r[b] & Long.MAX_VALUE));
        }
    }

    private void testp() {
        String type = type();
        allowTypes(type, "f32", "f64");
        List<String> rest = new ArrayList<>(mods);
        rest.remove(type);
        if (rest.size() != 1) {
            throw invalid("testp needs one test");
        }
        arity(2);
        int d = dst(0);
        int a = src(1, type);
        boolean s = type.equals("f32");
        java.util.function.DoublePredicate p = switch (rest.get(0)) {
            case "finite" -> Double::isFinite;
            case "infinite" -> Double::isInfinite;
            case "number" -> x -> !Double.isNaN(x);
            case "notanumber" -> Double::isNaN;
            case "normal" -> x -> x != 0 && Double.isFinite(x) && Math.abs(x) >= (s ? Float.MIN_NORMAL
                    : Double.MIN_NORMAL);
            case "subnormal" -> x -> x != 0 && Math.abs(x) < (s ? Float.MIN_NORMAL : Double.MIN_NORMAL);
            default -> throw unsupported("testp." + rest.get(0));
        };
        step((t, r) -> r[d] = p.test(fv(s, r[a])) ? 1 : 0);
    }

    private void bitCount(String op) {
        allow();
        String type = type();
        allowTypes(type, "b32", "b64");
        arity(2);
        int d = dst(0);
        int a = src(1, type);
        boolean wide = type.equals("b64");
        switch (op) {
            case "popc" -> step(wide ? (t, r) -> r[d] = Long.bitCount(r[a])
                    : (t, r) -> r[d] = Integer.bitCount((int) r[a]));
            case "clz" -> step(wide ? (t, r) -> r[d] = Long.numberOfLeadingZeros(r[a])
                    : (t, r) -> r[d] = Integer.numberOfLeadingZeros((int) r[a]));
            default -> step(wide ? (t, r) -> r[d] = Long.reverse(r[a])
                    : (t, r) -> r[d] = Integer.reverse((int) r[a]));
        }
    }

    private void bfe() {
        allow();
        String type = type();
        allowTypes(type, "u32", "s32", "u64", "s64");
        arity(4);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, "u32");
        int c = src(3, "u32");
        int bits = PtxTypes.bits(type);
        boolean signed = PtxTypes.isSigned(type);
        int msb = bits - 1;
        step((t, r) -> {
            int pos = (int) (r[b] & 0xFF);
            int len = (int) (r[c] & 0xFF);
            long x = bits == 32 ? r[a] & 0xFFFF_FFFFL : r[a];
            boolean sbit = signed && len != 0 && ((x >>> Math.min(pos + len - 1, msb)) & 1) != 0;
            int n = Math.max(0, Math.min(len, msb + 1 - pos));
            long res = n == 0 ? 0 : (x >>> pos) & (n == 64 ? -1L : (1L << n) - 1);
            if (sbit && n < 64) {
                res |= -1L << n;
            }
            r[d] = res;
        });
    }

    private void bfi() {
        allow();
        String type = type();
        allowTypes(type, "b32", "b64");
        arity(5);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int c = src(3, "u32");
        int e = src(4, "u32");
        int bits = PtxTypes.bits(type);
        step((t, r) -> {
            int pos = (int) (r[c] & 0xFF);
            int len = (int) (r[e] & 0xFF);
            long base = r[b];
            if (len == 0 || pos >= bits) {
                r[d] = base;
                return;
            }
            int n = Math.min(len, bits - pos);
            long mask = (n == 64 ? -1L : (1L << n) - 1) << pos;
            r[d] = (base & ~mask) | ((r[a] << pos) & mask);
        });
    }

    private void prmt() {
        allow();
        String type = type();
        allowTypes(type, "b32");
        arity(4);
        int d = dst(0);
        int a = src(1, type);
        int b = src(2, type);
        int c = src(3, type);
        step((t, r) -> {
            long bytes = (r[a] & 0xFFFF_FFFFL) | ((r[b] & 0xFFFF_FFFFL) << 32);
            int sel = (int) r[c];
            int out = 0;
            for (int k = 0; k < 4; k++) {
                int s = (sel >>> (4 * k)) & 0xF;
                int v = (int) (bytes >>> ((s & 7) * 8)) & 0xFF;
                if ((s & 8) != 0) {
                    v = (v & 0x80) != 0 ? 0xFF : 0;
                }
                out |= v << (8 * k);
            }
            r[d] = out;
        });
    }

    // ---- atomics, barriers, fences ----

    private void atom(boolean red) {
        int sp = PtxMemory.GENERIC;
        String op = null;
        for (String m : mods) {
            switch (m) {
                case "global" -> sp = PtxMemory.GLOBAL;
                case "shared" -> sp = PtxMemory.SHARED;
                case "relaxed", "acquire", "release", "acq_rel", "cta", "gpu", "sys" -> {
                }
                case "add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec" -> op = m;
                default -> {
                    if (!PtxTypes.isType(m)) {
                        throw unsupported("modifier ." + m + " of " + (red ? "red" : "atom"));
                    }
                }
            }
        }
        if (op == null) {
            throw invalid((red ? "red" : "atom") + " without an operation");
        }
        String type = type();
        allowTypes(type, "b32", "b64", "u32", "u64", "s32", "s64", "f32", "f64");
        int n = red ? 2 : 3;
        if (op.equals("cas")) {
            n++;
        }
        arity(n);
        int d = red ? fd.scratch() : dst(0);
        int base = red ? 0 : 1;
        Addr addr = addr(ops.get(base));
        int b = src(base + 1, type);
        int c = op.equals("cas") ? src(base + 2, type) : -1;
        int size = PtxTypes.size(type);
        boolean signed = PtxTypes.isSigned(type);
        AtomicOp f = atomicOp(op, type, size, signed);
        int space = sp;
        step((t, r) -> {
            long off = t.mem.atWrite(space, t, addr.eval(t, r), size);
            r[d] = f.apply(t.mem.seg, off, r[b], c < 0 ? 0 : r[c]);
        });
    }

    @FunctionalInterface
    private interface AtomicOp {
        long apply(MemorySegment s, long off, long b, long c);
    }

    private AtomicOp atomicOp(String op, String type, int size, boolean signed) {
        if (type.equals("f32")) {
            return switch (op) {
                case "add" -> (s, o, b, c) -> fb(Atomics.addF(s, o, f(b)));
                case "exch" -> (s, o, b, c) -> Atomics.exchI(s, o, (int) b);
                default -> throw unsupported("atomic ." + op + " on .f32");
            };
        }
        if (type.equals("f64")) {
            return switch (op) {
                case "add" -> (s, o, b, c) -> gb(Atomics.addD(s, o, g(b)));
                case "exch" -> (s, o, b, c) -> Atomics.exchJ(s, o, b);
                default -> throw unsupported("atomic ." + op + " on .f64");
            };
        }
        if (size == 4) {
            if ((op.equals("add") || op.equals("min") || op.equals("max") || op.equals("inc") || op.equals("dec"))
                    && type.startsWith("b")) {
                throw invalid("atomic ." + op + " needs a signed or unsigned type, not ." + type);
            }
            return switch (op) {
                case "add" -> (s, o, b, c) -> Atomics.addI(s, o, (int) b);
                case "exch" -> (s, o, b, c) -> Atomics.exchI(s, o, (int) b);
                case "cas" -> (s, o, b, c) -> Atomics.casI(s, o, (int) b, (int) c);
                case "and" -> (s, o, b, c) -> Atomics.andI(s, o, (int) b);
                case "or" -> (s, o, b, c) -> Atomics.orI(s, o, (int) b);
                case "xor" -> (s, o, b, c) -> Atomics.xorI(s, o, (int) b);
                case "min" -> signed ? (s, o, b, c) -> Atomics.minI(s, o, (int) b)
                        : (s, o, b, c) -> Atomics.minU(s, o, (int) b) & 0xFFFF_FFFFL;
                case "max" -> signed ? (s, o, b, c) -> Atomics.maxI(s, o, (int) b)
                        : (s, o, b, c) -> Atomics.maxU(s, o, (int) b) & 0xFFFF_FFFFL;
                case "inc" -> (s, o, b, c) -> Atomics.incU(s, o, (int) b) & 0xFFFF_FFFFL;
                default -> (s, o, b, c) -> Atomics.decU(s, o, (int) b) & 0xFFFF_FFFFL;
            };
        }
        return switch (op) {
            case "add" -> (s, o, b, c) -> Atomics.addJ(s, o, b);
            case "exch" -> (s, o, b, c) -> Atomics.exchJ(s, o, b);
            case "cas" -> (s, o, b, c) -> Atomics.casJ(s, o, b, c);
            case "and" -> (s, o, b, c) -> Atomics.andJ(s, o, b);
            case "or" -> (s, o, b, c) -> Atomics.orJ(s, o, b);
            case "xor" -> (s, o, b, c) -> Atomics.xorJ(s, o, b);
            case "min" -> signed ? (s, o, b, c) -> Atomics.minJ(s, o, b) : (s, o, b, c) -> Atomics.minUJ(s, o, b);
            case "max" -> signed ? (s, o, b, c) -> Atomics.maxJ(s, o, b) : (s, o, b, c) -> Atomics.maxUJ(s, o, b);
            default -> throw unsupported("atomic ." + op + " on ." + type);
        };
    }

    private void barrier(String base) {
        if (mods.contains("warp")) {
            PtxCollectives.decode(this, "bar.warp");
            return;
        }
        for (String m : mods) {
            if (!m.equals("sync") && !m.equals("aligned")) {
                throw unsupported(base + "." + m + " (only bar.sync/barrier.sync)");
            }
        }
        if (!mods.contains("sync")) {
            throw unsupported(in.opcode());
        }
        if (ops.size() != 1) {
            throw unsupported(base + ".sync with a thread count (named barriers for part of a block)");
        }
        if (!(ops.get(0) instanceof Imm)) {
            throw unsupported(base + ".sync with a barrier number in a register");
        }
        fd.markCooperative();
        fd.emit(in, Insn.BAR, null);
    }

    private void fence() {
        for (String m : mods) {
            switch (m) {
                case "cta", "gl", "gpu", "sys", "sc", "acq_rel" -> {
                }
                default -> throw unsupported(in.opcode().split("\\.")[0] + "." + m);
            }
        }
        step((t, r) -> VarHandle.fullFence());
    }
}
