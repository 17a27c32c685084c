package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.ptx.Insn.Step;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Imm;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Instr;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Name;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongToDoubleFunction;

/**
 * The meaning of each PTX instruction: turns one instruction of a body into an {@link Insn} whose {@link Step}
 * does what the PTX ISA says, after checking its modifiers, types and operands. Whatever is not listed here
 * is refused with NOT_SUPPORTED naming the file, line and instruction.
 *
 * <p>This class dispatches on the instruction and holds comparison, selection, barriers and fences; the other
 * families are in its superclasses {@link PtxMathOps}, {@link PtxArithmeticOps} and {@link PtxMemoryOps}, on the
 * operand access of {@link PtxOperands}; {@link PtxIntegerOps}, {@link PtxBitOps} and {@link PtxCollectives}
 * decode further families through the hooks that {@link PtxOperands} provides.
 *
 * <p>Implementation notes. Register convention: every register is a {@code long}. Integer values of 8 to 32
 * bits sit in the low bits; readers narrow (and sign- or zero-extend as the instruction's type says), so
 * arithmetic need not clear the high bits, while {@code ld} and {@code cvt} write values extended to 64 bits as PTX specifies for wider
 * destination registers. A {@code .f32} value is its raw bits in the low 32 bits, a {@code .f64} its raw bits,
 * a predicate 0 or 1. Constants are registers too (the decoder's {@code constant}), so every operand is an
 * index into the register file.
 */
final class PtxOps extends PtxMathOps {
    PtxOps(PtxDecoder.FnDecoder fd) {
        super(fd);
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
        if (PtxHalfOps.handles(base, mods)) {
            PtxHalfOps.decode(this, base);
            return;
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
            case "set" -> set();
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
                step((t, r) -> nanosleep(t, r[a] & 0xFFFF_FFFFL));
            }
            default -> throw unsupported("instruction " + instr.opcode());
        }
    }

    /** The longest sleep of one {@code nanosleep}: "the maximum sleep duration is 1 millisecond" (PTX ISA). */
    static final long MAX_SLEEP_NANOS = 1_000_000;

    /**
     * {@code nanosleep}: parks the worker for the time asked (at most {@link #MAX_SLEEP_NANOS}), then polls the
     * launch's stop request, so a thread that sleeps in a loop stops within a sleep rather than after a slice of
     * {@link PtxBlockRunner#SLICE} instructions' worth of sleeps.
     */
    private static void nanosleep(PtxThread t, long nanos) {
        java.util.concurrent.locks.LockSupport.parkNanos(Math.min(nanos, MAX_SLEEP_NANOS));
        dev.polygpu.device.cpu.kernel.LaunchCancellation.Stop stop = t.mem.cancellation().stop();
        if (stop != null) {
            throw new PtxTrap(stop.error(), "stopped: " + stop.reason());
        }
    }

    @FunctionalInterface
    private interface Cmp {
        boolean test(long[] r);
    }

    private Cmp compare(String op, String type, int a, int b) {
        if (type.equals("f32") || type.equals("f64") || type.equals("f16")) {
            LongToDoubleFunction v = type.equals("f16") ? PtxHalfOps::value
                    : type.equals("f32") ? bits -> f(bits) : PtxOperands::g;
            return switch (op) {
                case "eq" -> r -> v.applyAsDouble(r[a]) == v.applyAsDouble(r[b]);
                case "ne" -> r -> v.applyAsDouble(r[a]) != v.applyAsDouble(r[b]) && !unordered(v, r[a], r[b]);
                case "lt" -> r -> v.applyAsDouble(r[a]) < v.applyAsDouble(r[b]);
                case "le" -> r -> v.applyAsDouble(r[a]) <= v.applyAsDouble(r[b]);
                case "gt" -> r -> v.applyAsDouble(r[a]) > v.applyAsDouble(r[b]);
                case "ge" -> r -> v.applyAsDouble(r[a]) >= v.applyAsDouble(r[b]);
                case "equ" -> r -> v.applyAsDouble(r[a]) == v.applyAsDouble(r[b]) || unordered(v, r[a], r[b]);
                case "neu" -> r -> v.applyAsDouble(r[a]) != v.applyAsDouble(r[b]);
                case "ltu" -> r -> !(v.applyAsDouble(r[a]) >= v.applyAsDouble(r[b]));
                case "leu" -> r -> !(v.applyAsDouble(r[a]) > v.applyAsDouble(r[b]));
                case "gtu" -> r -> !(v.applyAsDouble(r[a]) <= v.applyAsDouble(r[b]));
                case "geu" -> r -> !(v.applyAsDouble(r[a]) < v.applyAsDouble(r[b]));
                case "num" -> r -> !unordered(v, r[a], r[b]);
                case "nan" -> r -> unordered(v, r[a], r[b]);
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
        String srcType = type.equals("f16") ? "b16" : type;
        Cmp cmp = compare(op, type, src(1, srcType), src(2, srcType));
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

    /**
     * {@code set.cmp{.bool}.dtype.stype d, a, b{, c}}: setp's comparison written as a value, all ones for an
     * integer destination, 1.0 for a float one ({@code 0x3c00} for {@code .f16}), else 0.
     */
    private void set() {
        List<String> ts = types();
        if (ts.size() != 2) {
            throw invalid("set needs a destination and a source type");
        }
        String dt = ts.get(0);
        String st = ts.get(1);
        List<String> rest = new ArrayList<>(mods);
        rest.remove(dt);
        rest.remove(st);
        rest.remove("ftz");
        if (rest.isEmpty() || rest.size() > 2) {
            throw invalid("set needs a comparison");
        }
        String bool = rest.size() == 2 ? rest.get(1) : null;
        if (bool != null && !bool.equals("and") && !bool.equals("or") && !bool.equals("xor")) {
            throw unsupported("set combination ." + bool);
        }
        if (ops.size() != (bool == null ? 3 : 4)) {
            throw invalid("set takes " + (bool == null ? 3 : 4) + " operands");
        }
        long one = switch (dt) {
            case "u32", "s32" -> 0xFFFF_FFFFL;
            case "f32" -> Float.floatToRawIntBits(1f);
            case "f16" -> 0x3C00;
            default -> throw unsupported("set to ." + dt + " (it writes .u32, .s32, .f32 or .f16)");
        };
        int d = dst(0);
        String srcType = st.equals("f16") ? "b16" : st;
        Cmp cmp = compare(rest.get(0), st, src(1, srcType), src(2, srcType));
        if (bool == null) {
            step((t, r) -> r[d] = cmp.test(r) ? one : 0);
            return;
        }
        int cr = predSrc(ops.get(3));
        int c = cr < 0 ? ~cr : cr;
        boolean negC = cr < 0;
        step((t, r) -> r[d] = combine(bool, cmp.test(r), (r[c] != 0) != negC) ? one : 0);
    }

    private static boolean unordered(LongToDoubleFunction v, long a, long b) {
        return Double.isNaN(v.applyAsDouble(a)) || Double.isNaN(v.applyAsDouble(b));
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

    private void barrier(String base) {
        if (mods.contains("warp")) {
            PtxCollectives.decode(this, "bar.warp");
            return;
        }
        if (mods.contains("red")) {
            PtxBarriers.decodeReduction(this, base);
            return;
        }
        for (String m : mods) {
            if (!m.equals("sync") && !m.equals("aligned")) {
                throw unsupported(base + "." + m + " (only bar.sync, barrier.sync and bar.red)");
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
