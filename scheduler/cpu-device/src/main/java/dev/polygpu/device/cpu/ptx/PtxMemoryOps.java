package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.kernel.rt.Atomics;
import dev.polygpu.device.cpu.ptx.PtxDecoder.Sym;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Mem;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Name;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Sink;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Vec;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

/**
 * The memory instructions of the PTX interpreter: {@code ld}, {@code st}, {@code mov} (special registers, vector
 * pack and unpack), {@code cvta}, and the atomics {@code atom} and {@code red}.
 */
abstract class PtxMemoryOps extends PtxOperands {
    PtxMemoryOps(PtxDecoder.FnDecoder fd) {
        super(fd);
    }
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

    void load() {
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

    int regOf(Operand e) {
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

    void store() {
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

    void mov() {
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

    void cvta() {
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

    // ---- atomics, barriers, fences ----

    void atom(boolean red) {
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
}
