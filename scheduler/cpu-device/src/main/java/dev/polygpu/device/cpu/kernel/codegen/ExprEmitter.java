package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_double;
import static java.lang.constant.ConstantDescs.CD_float;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.codegen.Jvm.K;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.util.List;

/**
 * Emits expressions: values, conditions as jumps, lvalues (assignment, compound assignment, ++/--), memory
 * access through the bounds-checked {@code Mem} helpers. A pointer is two stack values: its memory segment
 * and a byte offset ({@code long}); a vector ({@code float4} …) is one stack value per component, x first, and a
 * struct one per scalar leaf in memory order.
 */
final class ExprEmitter {
    private final Emitter e;
    private final CodeBuilder c;
    private final IntrinsicEmitter intrinsics;

    ExprEmitter(Emitter e) {
        this.e = e;
        this.c = e.c;
        this.intrinsics = new IntrinsicEmitter(e, this);
    }

    // ---- values ---------------------------------------------------------------------------------------

    void value(Expr x) {
        switch (x) {
            case Expr.IntConst k -> {
                switch (Jvm.kind(k.type())) {
                    case I -> c.loadConstant((int) k.value());
                    case J -> c.loadConstant(k.value());
                    case F -> c.loadConstant((float) k.value());
                    case D -> c.loadConstant((double) k.value());
                    case P -> Ops.nullPointer(c);
                    default -> { }
                }
            }
            case Expr.FloatConst f -> {
                if (Jvm.kind(f.type()) == K.F) {
                    c.loadConstant((float) f.value());
                } else {
                    c.loadConstant(f.value());
                }
            }
            case Expr.VarRef v -> loadVariable(v);
            case Expr.Builtin b -> builtin(b);
            case Expr.Unary u -> unary(u);
            case Expr.Binary b -> binary(b);
            case Expr.Assign a -> assign(a, true);
            case Expr.CompoundAssign a -> compound(a, true);
            case Expr.IncDec i -> incDec(i, true);
            case Expr.Conditional q -> {
                Label otherwise = c.newLabel();
                Label end = c.newLabel();
                jumpIfFalse(q.condition(), otherwise);
                value(q.ifTrue());
                c.goto_(end);
                c.labelBinding(otherwise);
                value(q.ifFalse());
                c.labelBinding(end);
            }
            case Expr.Cast k -> {
                if (k.type() instanceof CType.Pointer && k.operand().type().isInteger()
                        && !(k.operand() instanceof Expr.IntConst z && z.value() == 0)) {
                    throw new CodegenException(k.pos(), "converting an integer to the pointer type '" + k.type()
                            + "' is not supported by the CPU device (pointers are not plain addresses there)");
                }
                value(k.operand());
                Ops.convert(c, k.operand().type(), k.type(), k.pos());
            }
            case Expr.Deref d -> {
                if (d.type() instanceof CType.Array) {
                    throw notAnalyzed(d);
                }
                value(d.pointer());
                memLoad(d.type(), d.pos());
            }
            case Expr.AddrOf a -> address(a.operand());
            case Expr.Decay d -> address(d.array());
            case Expr.PtrAdd p -> {
                value(p.pointer());
                value(p.index());
                scale(p.type(), p.pos());
                if (p.negate()) {
                    c.lsub();
                } else {
                    c.ladd();
                }
            }
            case Expr.PtrDiff d -> ptrDiff(d);
            case Expr.Call call -> e.inline(call);
            case Expr.IntrinsicCall call -> {
                if (call.intrinsic().isYieldPoint()) {
                    throw new IllegalStateException("yield point not lowered at " + call.pos());
                }
                intrinsics.emit(call);
            }
            case Expr.Comma k -> {
                discard(k.left());
                value(k.right());
            }
            case Expr.MakeVector m -> m.components().forEach(this::value);
            case Expr.Component v -> component(v);
            case Expr.MakeStruct m -> m.parts().forEach(this::value);
            case Expr.Field f -> field(f);
            default -> {
                if (!intrinsics.emitOther(x)) {
                    throw notAnalyzed(x);
                }
            }
        }
    }

    void discard(Expr x) {
        switch (x) {
            case Expr.Assign a -> assign(a, false);
            case Expr.CompoundAssign a -> compound(a, false);
            case Expr.IncDec i -> incDec(i, false);
            case Expr.Comma k -> {
                discard(k.left());
                discard(k.right());
            }
            case Expr.Cast k when k.type() == CType.Prim.VOID -> discard(k.operand());
            default -> {
                value(x);
                popValue(x.type());
            }
        }
    }

    private static IllegalStateException notAnalyzed(Expr x) {
        return new IllegalStateException("expression not analyzed: " + x.getClass().getSimpleName() + " at " + x.pos());
    }

    private void loadVariable(Expr.VarRef v) {
        Var var = v.var();
        Plan.Storage s = e.plan.storage.get(var);
        if (s == Plan.Storage.SCALAR || s == Plan.Storage.POINTER || s == Plan.Storage.VECTOR) {
            e.loadVar(var);
            return;
        }
        if (var.type instanceof CType.Array) {
            throw notAnalyzed(v);
        }
        c.aload(e.slot.get(var));
        c.lconst_0();
        memLoad(var.type, v.pos());
    }

    private void builtin(Expr.Builtin b) {
        int d = b.dim();
        switch (b.var()) {
            case THREAD_IDX -> c.iload(d == 0 ? e.txSlot : d == 1 ? e.tySlot : e.tzSlot);
            case BLOCK_IDX -> c.iload(Emitter.BX_SLOT + d);
            case BLOCK_DIM -> c.iload(e.blockDimSlots[d]);
            case GRID_DIM -> c.iload(e.gridDimSlots[d]);
            case WARP_SIZE -> c.loadConstant(32);
        }
    }

    private void unary(Expr.Unary u) {
        if (u.op() == Expr.UnaryOp.NOT) {
            boolValue(u);
            return;
        }
        value(u.operand());
        K k = Jvm.kind(u.type());
        switch (u.op()) {
            case PLUS -> { }
            case NEG -> {
                switch (k) {
                    case I -> c.ineg();
                    case J -> c.lneg();
                    case F -> c.fneg();
                    case D -> c.dneg();
                    default -> throw new CodegenException(u.pos(), "cannot negate '" + u.type() + "'");
                }
            }
            case BIT_NOT -> {
                if (k == K.I) {
                    c.iconst_m1();
                    c.ixor();
                } else if (k == K.J) {
                    c.loadConstant(-1L);
                    c.lxor();
                } else {
                    throw new CodegenException(u.pos(), "'~' needs an integer, got '" + u.type() + "'");
                }
            }
            default -> { }
        }
        if (k == K.I && u.type() instanceof CType.Prim p) {
            Ops.narrow(c, p);
        }
    }

    private void binary(Expr.Binary b) {
        if (b.op().isComparison() || b.op() == Expr.BinaryOp.LOGICAL_AND || b.op() == Expr.BinaryOp.LOGICAL_OR) {
            boolValue(b);
            return;
        }
        value(b.left());
        value(b.right());
        Ops.arith(c, b.op(), b.operandType(), b.right().type(), constant(b.right()), b.pos());
    }

    /** The value of a constant integer expression (through casts), or -1. */
    private static int constant(Expr x) {
        while (x instanceof Expr.Cast k) {
            x = k.operand();
        }
        if (x instanceof Expr.IntConst k && k.value() >= 0 && k.value() < 64) {
            return (int) k.value();
        }
        return -1;
    }

    private void boolValue(Expr x) {
        Label f = c.newLabel();
        Label end = c.newLabel();
        jumpIfFalse(x, f);
        c.iconst_1();
        c.goto_(end);
        c.labelBinding(f);
        c.iconst_0();
        c.labelBinding(end);
    }

    private void scale(CType pointerType, Pos pos) {
        CType pointee = ((CType.Pointer) pointerType).pointee();
        int size = pointee == CType.Prim.VOID ? 1 : pointee.size();
        if (size <= 0) {
            throw new CodegenException(pos, "pointer arithmetic on '" + pointerType + "' (element of unknown size)");
        }
        if (size != 1) {
            c.loadConstant((long) size);
            c.lmul();
        }
    }

    private void ptrDiff(Expr.PtrDiff d) {
        int size = Math.max(1, ((CType.Pointer) d.left().type()).pointee().size());
        value(d.left());
        int a = e.temp(K.J);
        c.lstore(a);
        c.pop();
        value(d.right());
        int b = e.temp(K.J);
        c.lstore(b);
        c.pop();
        c.lload(a);
        c.lload(b);
        c.lsub();
        if (size != 1) {
            c.loadConstant((long) size);
            c.ldiv();
        }
        e.release(K.J, a);
        e.release(K.J, b);
    }

    /** Pushes the address of an lvalue (segment and offset). */
    void address(Expr x) {
        switch (x) {
            case Expr.VarRef v -> {
                Plan.Storage s = e.plan.storage.get(v.var());
                if (s != Plan.Storage.LOCAL_MEMORY && s != Plan.Storage.SHARED && s != Plan.Storage.GLOBAL) {
                    throw new CodegenException(v.pos(), "cannot take the address of '" + v.var().name + "'");
                }
                c.aload(e.slot.get(v.var()));
                c.lconst_0();
            }
            case Expr.Deref d -> value(d.pointer());
            case Expr.Component v -> {
                address(v.vector());
                int offset = v.index() * v.type().size();
                if (offset != 0) {
                    c.loadConstant((long) offset);
                    c.ladd();
                }
            }
            case Expr.Field f -> {
                address(f.struct());
                if (f.member().offset() != 0) {
                    c.loadConstant((long) f.member().offset());
                    c.ladd();
                }
            }
            default -> throw new CodegenException(x.pos(), "expression is not an lvalue");
        }
    }

    // ---- memory ---------------------------------------------------------------------------------------

    /** [segment, offset] → value of C type {@code t}. */
    void memLoad(CType t, Pos pos) {
        if (Jvm.multi(t)) {
            aggregateLoad(t, pos);
            return;
        }
        c.aload(Emitter.STATE_SLOT);
        c.loadConstant(Emitter.pos(pos));
        e.callMem("ld" + suffix(t, pos), false, Jvm.kind(t));
        if (t instanceof CType.Prim p) {
            switch (p) {
                case UCHAR, USHORT, BOOL -> Ops.narrow(c, p);
                default -> { }
            }
        }
    }

    /** [segment, offset, value] → stores the value of C type {@code t}. */
    void memStore(CType t, Pos pos) {
        if (Jvm.multi(t)) {
            aggregateStore(t, pos);
            return;
        }
        c.aload(Emitter.STATE_SLOT);
        c.loadConstant(Emitter.pos(pos));
        e.callMem("st" + suffix(t, pos), true, Jvm.kind(t));
    }

    private static String suffix(CType t, Pos pos) {
        if (!(t instanceof CType.Prim p)) {
            throw new CodegenException(pos, "pointers stored in memory ('" + t + "') are not supported by the CPU"
                    + " device; pass each array as its own kernel argument");
        }
        return switch (p) {
            case BOOL, CHAR, UCHAR -> "B";
            case SHORT, USHORT -> "S";
            case INT, UINT -> "I";
            case LONG, ULONG, LONGLONG, ULONGLONG -> "J";
            case FLOAT -> "F";
            case HALF -> "H";
            case DOUBLE -> "D";
            case VOID -> throw new CodegenException(pos, "cannot access an object of type void");
        };
    }

    // ---- vectors and structs ----------------------------------------------------------------------------
    // A vector or struct value is one JVM value per scalar leaf (CType.leaves), in memory order. A variable held
    // in JVM locals has one local per leaf; a member or component of it is a range of those locals.

    /**
     * The JVM locals of {@code x} if it is a vector or struct variable held in locals, or a component or member
     * (at any depth) of one ({@code v.y}, {@code s.pos}, {@code s.pos.x}); null otherwise.
     */
    private int[] registerSlots(Expr x) {
        switch (x) {
            case Expr.VarRef r when e.plan.storage.get(r.var()) == Plan.Storage.VECTOR -> {
                return e.vectorSlots.get(r.var());
            }
            case Expr.Component v -> {
                int[] whole = registerSlots(v.vector());
                return whole == null ? null : new int[] {whole[v.index()]};
            }
            case Expr.Field f -> {
                int[] whole = registerSlots(f.struct());
                if (whole == null) {
                    return null;
                }
                int first = ((CType.Struct) f.struct().type()).firstLeaf(f.member());
                return java.util.Arrays.copyOfRange(whole, first, first + CType.leaves(f.type()).size());
            }
            default -> {
                return null;
            }
        }
    }

    /** The JVM local of {@code x} if it is a scalar component or member of a variable held in locals, or -1. */
    private int registerComponent(Expr x) {
        if (!(x instanceof Expr.Component || x instanceof Expr.Field) || Jvm.multi(x.type())) {
            return -1;
        }
        int[] slots = registerSlots(x);
        return slots == null ? -1 : slots[0];
    }

    /** True if lvalue {@code x} is in memory (through a pointer, or in a variable that lives in memory). */
    private boolean inMemory(Expr x) {
        return switch (x) {
            case Expr.Deref d -> true;
            case Expr.VarRef r -> !isRegister(r.var());
            case Expr.Component v -> inMemory(v.vector());
            case Expr.Field f -> inMemory(f.struct());
            default -> false;
        };
    }

    /**
     * A component's value: from its JVM local, from memory (only the component is read, as CUDA reads
     * {@code p[i].x}), or picked out of a vector value ({@code make_float2(a, b).y}, a call's result).
     */
    private void component(Expr.Component v) {
        part(v, v.vector(), v.index(), 1);
    }

    /** A member's value, as {@link #component} gets a component's. */
    private void field(Expr.Field f) {
        int first = ((CType.Struct) f.struct().type()).firstLeaf(f.member());
        part(f, f.struct(), first, CType.leaves(f.type()).size());
    }

    /** The value of {@code x}, leaves {@code first} to {@code first + count} of the vector or struct {@code whole}. */
    private void part(Expr x, Expr whole, int first, int count) {
        int[] slots = registerSlots(x);
        if (slots != null) {
            K[] ks = Jvm.multi(x.type()) ? Jvm.leafKinds(x.type()) : new K[] {Jvm.kind(x.type())};
            for (int i = 0; i < slots.length; i++) {
                c.loadLocal(ks[i].tk, slots[i]);
            }
            return;
        }
        if (inMemory(whole)) {
            address(x);
            memLoad(x.type(), x.pos());
            return;
        }
        K[] ks = Jvm.leafKinds(whole.type());
        value(whole);
        for (int i = ks.length - 1; i >= first + count; i--) {
            Ops.pop(c, ks[i]);
        }
        if (first > 0) {
            int[] kept = new int[count];
            for (int i = first + count - 1; i >= first; i--) {
                kept[i - first] = e.temp(ks[i]);
                c.storeLocal(ks[i].tk, kept[i - first]);
            }
            for (int i = first - 1; i >= 0; i--) {
                Ops.pop(c, ks[i]);
            }
            for (int i = first; i < first + count; i++) {
                c.loadLocal(ks[i].tk, kept[i - first]);
                e.release(ks[i], kept[i - first]);
            }
        }
    }

    /**
     * [segment, offset] → the leaves of a vector or struct: one check of the whole object (bounds, and the
     * alignment a GPU's vector load needs, or the struct's), then a read per leaf.
     */
    private void aggregateLoad(CType t, Pos pos) {
        aggregateCheck(t, false, pos);
        int address = e.temp(K.J);
        c.lstore(address);
        for (CType.Leaf l : CType.leaves(t)) {
            leafAddress(address, l.offset());
            c.invokestatic(Jvm.MEM, "at" + suffix(l.type(), pos), mt(Jvm.kind(l.type()).desc, CD_long));
            switch (l.type()) {
                case UCHAR, USHORT, BOOL -> Ops.narrow(c, l.type());
                default -> { }
            }
        }
        e.release(K.J, address);
    }

    /** [segment, offset, leaves…] → stores a whole vector or struct, checked as {@link #aggregateLoad} and for writability. */
    private void aggregateStore(CType t, Pos pos) {
        int[] values = stashValue(t);
        aggregateCheck(t, true, pos);
        int address = e.temp(K.J);
        c.lstore(address);
        List<CType.Leaf> leaves = CType.leaves(t);
        for (int i = 0; i < leaves.size(); i++) {
            CType.Leaf l = leaves.get(i);
            K k = Jvm.kind(l.type());
            leafAddress(address, l.offset());
            c.loadLocal(k.tk, values[i]);
            c.invokestatic(Jvm.MEM, "at" + suffix(l.type(), pos), mt(java.lang.constant.ConstantDescs.CD_void,
                    CD_long, k.desc));
        }
        e.release(K.J, address);
        freeValue(t, values);
    }

    /** [segment, offset] → the checked absolute address of a whole vector or struct. */
    private void aggregateCheck(CType t, boolean write, Pos pos) {
        c.loadConstant(t.size());
        c.loadConstant(CType.alignOf(t));
        c.loadConstant(t.toString());
        c.aload(Emitter.STATE_SLOT);
        c.loadConstant(Emitter.pos(pos));
        String check = t instanceof CType.Vector ? "vector" : "struct";
        c.invokestatic(Jvm.MEM, check + (write ? "Write" : "Read"),
                mt(CD_long, Jvm.SEGMENT, CD_long, CD_int, CD_int, Jvm.STRING, Jvm.STATE, CD_int));
    }

    private void leafAddress(int addressSlot, int offset) {
        c.lload(addressSlot);
        if (offset > 0) {
            c.loadConstant((long) offset);
            c.ladd();
        }
    }

    /** Pops a value of C type {@code t} (a vector or struct: all its leaves). */
    void popValue(CType t) {
        if (Jvm.multi(t)) {
            for (K k : Jvm.leafKinds(t)) {
                Ops.pop(c, k);
            }
        } else {
            Ops.pop(c, Jvm.kind(t));
        }
    }

    /** Pushes the zero of C type {@code t} (a vector or struct: every leaf zero). */
    void zeroValue(CType t) {
        if (Jvm.multi(t)) {
            for (K k : Jvm.leafKinds(t)) {
                Ops.zero(c, k);
            }
        } else {
            Ops.zero(c, Jvm.kind(t));
        }
    }

    /** As {@link #stash} for a value of C type {@code t}; a vector's or struct's leaves go to one temporary each. */
    int[] stashValue(CType t) {
        if (!Jvm.multi(t)) {
            return stash(Jvm.kind(t));
        }
        K[] ks = Jvm.leafKinds(t);
        int[] temps = new int[ks.length];
        for (int i = temps.length - 1; i >= 0; i--) {
            temps[i] = e.temp(ks[i]);
            c.storeLocal(ks[i].tk, temps[i]);
        }
        return temps;
    }

    void unstashValue(CType t, int[] temps) {
        if (!Jvm.multi(t)) {
            unstash(Jvm.kind(t), temps);
            return;
        }
        K[] ks = Jvm.leafKinds(t);
        for (int i = 0; i < temps.length; i++) {
            c.loadLocal(ks[i].tk, temps[i]);
        }
    }

    void freeValue(CType t, int[] temps) {
        if (!Jvm.multi(t)) {
            free(Jvm.kind(t), temps);
            return;
        }
        K[] ks = Jvm.leafKinds(t);
        for (int i = 0; i < temps.length; i++) {
            e.release(ks[i], temps[i]);
        }
    }

    void toBits(K k) {
        switch (k) {
            case I -> c.i2l();
            case F -> {
                c.invokestatic(Jvm.FLOAT, "floatToRawIntBits", mt(CD_int, CD_float));
                c.i2l();
            }
            case D -> c.invokestatic(Jvm.DOUBLE, "doubleToRawLongBits", mt(CD_long, CD_double));
            default -> { }
        }
    }

    void fromBits(K k) {
        switch (k) {
            case I -> c.l2i();
            case F -> {
                c.l2i();
                c.invokestatic(Jvm.FLOAT, "intBitsToFloat", mt(CD_float, CD_int));
            }
            case D -> c.invokestatic(Jvm.DOUBLE, "longBitsToDouble", mt(CD_double, CD_long));
            default -> { }
        }
    }

    // ---- lvalues --------------------------------------------------------------------------------------

    /** Where an lvalue lives once its address has been computed: a variable, or memory at saved temps. */
    private final class Place {
        final CType type;
        final Var var;
        /** The JVM local of a component of a vector variable held in locals, or -1. */
        final int componentSlot;
        int segTemp = -1;
        int offTemp = -1;

        Place(Expr target) {
            this.type = target.type();
            this.componentSlot = registerComponent(target);
            if (target instanceof Expr.VarRef v && isRegister(v.var())) {
                this.var = v.var();
            } else if (componentSlot >= 0) {
                this.var = null;
            } else {
                this.var = null;
                address(target);
                offTemp = e.temp(K.J);
                c.lstore(offTemp);
                segTemp = e.temp(K.P);
                c.astore(segTemp);
            }
        }

        void load(Pos pos) {
            if (var != null) {
                e.loadVar(var);
            } else if (componentSlot >= 0) {
                c.loadLocal(Jvm.kind(type).tk, componentSlot);
            } else {
                c.aload(segTemp);
                c.lload(offTemp);
                memLoad(type, pos);
            }
        }

        /** Stores the value on the stack. */
        void store(Pos pos) {
            if (var != null) {
                e.storeVar(var);
                return;
            }
            if (componentSlot >= 0) {
                c.storeLocal(Jvm.kind(type).tk, componentSlot);
                return;
            }
            K k = Jvm.kind(type);
            int[] v = stash(k);
            c.aload(segTemp);
            c.lload(offTemp);
            unstash(k, v);
            free(k, v);
            memStore(type, pos);
        }

        void release() {
            if (var == null && componentSlot < 0) {
                e.release(K.J, offTemp);
                e.release(K.P, segTemp);
            }
        }
    }

    private boolean isRegister(Var v) {
        Plan.Storage s = e.plan.storage.get(v);
        return s == Plan.Storage.SCALAR || s == Plan.Storage.POINTER || s == Plan.Storage.VECTOR;
    }

    /** Saves the value on top of the stack in temporaries. */
    int[] stash(K k) {
        if (k == K.P) {
            int off = e.temp(K.J);
            c.lstore(off);
            int seg = e.temp(K.P);
            c.astore(seg);
            return new int[] {seg, off};
        }
        int t = e.temp(k);
        c.storeLocal(k.tk, t);
        return new int[] {t};
    }

    void unstash(K k, int[] t) {
        if (k == K.P) {
            c.aload(t[0]);
            c.lload(t[1]);
        } else {
            c.loadLocal(k.tk, t[0]);
        }
    }

    void free(K k, int[] t) {
        if (k == K.P) {
            e.release(K.P, t[0]);
            e.release(K.J, t[1]);
        } else {
            e.release(k, t[0]);
        }
    }

    private void assign(Expr.Assign a, boolean needResult) {
        Expr target = a.target();
        if (target instanceof Expr.VarRef v && isRegister(v.var())) {
            value(a.value());
            e.storeVar(v.var());
            if (needResult) {
                e.loadVar(v.var());
            }
            return;
        }
        int[] slots = target instanceof Expr.VarRef ? null : registerSlots(target);
        if (slots != null) {
            K[] ks = Jvm.multi(target.type()) ? Jvm.leafKinds(target.type()) : new K[] {Jvm.kind(target.type())};
            value(a.value());
            for (int i = slots.length - 1; i >= 0; i--) {
                c.storeLocal(ks[i].tk, slots[i]);
            }
            if (needResult) {
                for (int i = 0; i < slots.length; i++) {
                    c.loadLocal(ks[i].tk, slots[i]);
                }
            }
            return;
        }
        if (!needResult) {
            address(target);
            value(a.value());
            memStore(target.type(), a.pos());
            return;
        }
        CType t = target.type();
        value(a.value());
        int[] v = stashValue(t);
        address(target);
        unstashValue(t, v);
        memStore(t, a.pos());
        unstashValue(t, v);
        freeValue(t, v);
    }

    private void compound(Expr.CompoundAssign a, boolean needResult) {
        Place place = new Place(a.target());
        CType t = a.target().type();
        place.load(a.pos());
        if (t instanceof CType.Pointer) {
            value(a.value());
            scale(t, a.pos());
            if (a.op() == Expr.BinaryOp.SUB) {
                c.lsub();
            } else {
                c.ladd();
            }
        } else {
            Ops.convert(c, t, a.operandType(), a.pos());
            value(a.value());
            Ops.arith(c, a.op(), a.operandType(), a.value().type(), constant(a.value()), a.pos());
            Ops.convert(c, a.operandType(), t, a.pos());
        }
        finishUpdate(place, t, needResult, a.pos());
    }

    private void finishUpdate(Place place, CType t, boolean needResult, Pos pos) {
        if (needResult) {
            K k = Jvm.kind(t);
            int[] v = stash(k);
            unstash(k, v);
            place.store(pos);
            unstash(k, v);
            free(k, v);
        } else {
            place.store(pos);
        }
        place.release();
    }

    private void incDec(Expr.IncDec i, boolean needResult) {
        CType t = i.target().type();
        if (!needResult && i.target() instanceof Expr.VarRef v && e.plan.storage.get(v.var()) == Plan.Storage.SCALAR
                && (t == CType.Prim.INT || t == CType.Prim.UINT)) {
            c.iinc(e.slot.get(v.var()), i.increment() ? 1 : -1);
            return;
        }
        Place place = new Place(i.target());
        K k = Jvm.kind(t);
        place.load(i.pos());
        int[] old = null;
        if (needResult && !i.prefix()) {
            old = stash(k);
            unstash(k, old);
        }
        switch (k) {
            case I -> {
                c.iconst_1();
                if (i.increment()) {
                    c.iadd();
                } else {
                    c.isub();
                }
                Ops.narrow(c, (CType.Prim) t);
            }
            case J -> {
                c.lconst_1();
                if (i.increment()) {
                    c.ladd();
                } else {
                    c.lsub();
                }
            }
            case F -> {
                c.fconst_1();
                if (i.increment()) {
                    c.fadd();
                } else {
                    c.fsub();
                }
                if (t == CType.Prim.HALF) {
                    Ops.roundHalf(c);
                }
            }
            case D -> {
                c.dconst_1();
                if (i.increment()) {
                    c.dadd();
                } else {
                    c.dsub();
                }
            }
            case P -> {
                c.lconst_1();
                scale(t, i.pos());
                if (i.increment()) {
                    c.ladd();
                } else {
                    c.lsub();
                }
            }
            default -> throw new CodegenException(i.pos(), "cannot increment '" + t + "'");
        }
        if (old != null) {
            place.store(i.pos());
            place.release();
            unstash(k, old);
            free(k, old);
        } else {
            finishUpdate(place, t, needResult, i.pos());
        }
    }

    // ---- conditions -----------------------------------------------------------------------------------

    void jumpIfFalse(Expr x, Label target) {
        if (x instanceof Expr.Binary b) {
            if (b.op().isComparison()) {
                compare(b, false, target);
                return;
            }
            if (b.op() == Expr.BinaryOp.LOGICAL_AND) {
                jumpIfFalse(b.left(), target);
                jumpIfFalse(b.right(), target);
                return;
            }
            if (b.op() == Expr.BinaryOp.LOGICAL_OR) {
                Label pass = c.newLabel();
                jumpIfTrue(b.left(), pass);
                jumpIfFalse(b.right(), target);
                c.labelBinding(pass);
                return;
            }
        }
        if (x instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT) {
            jumpIfTrue(u.operand(), target);
            return;
        }
        if (x instanceof Expr.IntConst k) {
            if (k.value() == 0) {
                c.goto_(target);
            }
            return;
        }
        value(x);
        testZero(Jvm.kind(x.type()), true, target);
    }

    void jumpIfTrue(Expr x, Label target) {
        if (x instanceof Expr.Binary b) {
            if (b.op().isComparison()) {
                compare(b, true, target);
                return;
            }
            if (b.op() == Expr.BinaryOp.LOGICAL_AND) {
                Label fail = c.newLabel();
                jumpIfFalse(b.left(), fail);
                jumpIfTrue(b.right(), target);
                c.labelBinding(fail);
                return;
            }
            if (b.op() == Expr.BinaryOp.LOGICAL_OR) {
                jumpIfTrue(b.left(), target);
                jumpIfTrue(b.right(), target);
                return;
            }
        }
        if (x instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT) {
            jumpIfFalse(u.operand(), target);
            return;
        }
        if (x instanceof Expr.IntConst k) {
            if (k.value() != 0) {
                c.goto_(target);
            }
            return;
        }
        value(x);
        testZero(Jvm.kind(x.type()), false, target);
    }

    private void testZero(K k, boolean jumpIfZero, Label target) {
        if (k == K.P) {
            c.pop2();
            c.getstatic(Jvm.SEGMENT, "NULL", Jvm.SEGMENT);
            if (jumpIfZero) {
                c.if_acmpeq(target);
            } else {
                c.if_acmpne(target);
            }
            return;
        }
        Ops.compareWithZero(c, k);
        if (jumpIfZero) {
            c.ifeq(target);
        } else {
            c.ifne(target);
        }
    }

    private void compare(Expr.Binary b, boolean jumpIf, Label target) {
        value(b.left());
        value(b.right());
        if (b.operandType() instanceof CType.Pointer) {
            pointerCompare(b.op(), jumpIf, target);
        } else {
            Ops.compareAndJump(c, b.op(), b.operandType(), jumpIf, target, b.pos());
        }
    }

    /**
     * Pointers compare by offset; (in)equality compares addresses (the segment's plus the offset), so that two
     * segments over the same memory are equal pointers: a buffer bound read-only for one parameter and writable
     * for another, or two {@code extern __shared__} arrays. Every segment a kernel sees is native, so its
     * address is where it is.
     */
    private void pointerCompare(Expr.BinaryOp op, boolean jumpIf, Label target) {
        int[] right = stash(K.P);
        int offA = e.temp(K.J);
        c.lstore(offA);
        if (op == Expr.BinaryOp.EQ || op == Expr.BinaryOp.NE) {
            boolean jumpWhenEqual = (op == Expr.BinaryOp.EQ) == jumpIf;
            c.invokeinterface(Jvm.SEGMENT, "address", mt(CD_long));
            c.lload(offA);
            c.ladd();
            c.aload(right[0]);
            c.invokeinterface(Jvm.SEGMENT, "address", mt(CD_long));
            c.lload(right[1]);
            c.ladd();
            c.lcmp();
            if (jumpWhenEqual) {
                c.ifeq(target);
            } else {
                c.ifne(target);
            }
        } else {
            c.pop();
            c.lload(offA);
            c.lload(right[1]);
            Ops.compareAndJump(c, op, CType.Prim.LONG, jumpIf, target, Pos.NONE);
        }
        e.release(K.J, offA);
        free(K.P, right);
    }
}
