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
import java.util.List;

/**
 * Access to where the code generator keeps values, the ground of {@link AssignEmitter} and {@link ExprEmitter}:
 * addresses, bounds-checked memory loads and stores through the {@code Mem} helpers, vector components and
 * struct members held in registers or in memory, aggregate copies, and stashing values in temporaries.
 */
abstract class AccessEmitter {
    final Emitter e;
    final CodeBuilder c;

    AccessEmitter(Emitter e) {
        this.e = e;
        this.c = e.c;
    }

    /** Emits the value of an expression ({@link ExprEmitter}). */
    abstract void value(Expr x);

    void scale(CType pointerType, Pos pos) {
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

    /**
     * {@code left - right} in elements, from the pointers' absolute addresses (segment address plus offset), as a
     * GPU subtracts them: within one allocation that is the offsets' difference; across two it is their distance
     * in memory, so adding it to {@code right} leaves {@code right}'s allocation and the access faults, rather than
     * landing in {@code right}'s own memory as a difference of offsets alone would.
     */
    void ptrDiff(Expr.PtrDiff d) {
        int size = Math.max(1, ((CType.Pointer) d.left().type()).pointee().size());
        value(d.left());
        int a = e.temp(K.J);
        absoluteAddress(a);
        value(d.right());
        int b = e.temp(K.J);
        absoluteAddress(b);
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

    /** [segment, offset] → stores the absolute address they point to into long local {@code slot}. */
    private void absoluteAddress(int slot) {
        c.invokestatic(Jvm.MEM, "address", mt(CD_long, Jvm.SEGMENT, CD_long));
        c.lstore(slot);
    }

    /**
     * Pushes [segment, offset] of {@code *d}'s pointer, checked at run time for the alignment of a scalar access
     * where the pointer's provenance does not prove it ({@link Alignment}).
     */
    void derefAddress(Expr.Deref d) {
        value(d.pointer());
        if (e.plan.alignment.needsCheck(d.pointer(), d.type())) {
            int off = e.temp(K.J);
            c.lstore(off);
            c.dup();
            c.lload(off);
            c.loadConstant(d.type().size());
            c.aload(Emitter.STATE_SLOT);
            c.loadConstant(Emitter.pos(d.pos()));
            c.invokestatic(Jvm.MEM, "aligned", mt(CD_long, Jvm.SEGMENT, CD_long, CD_int, Jvm.STATE, CD_int));
            e.release(K.J, off);
        }
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
            case Expr.Deref d -> derefAddress(d);
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
            case BOOL, CHAR, SCHAR, UCHAR -> "B";
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
    int[] registerSlots(Expr x) {
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
    int registerComponent(Expr x) {
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
    void component(Expr.Component v) {
        part(v, v.vector(), v.index(), 1);
    }

    /** A member's value, as {@link #component} gets a component's. */
    void field(Expr.Field f) {
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

    boolean isRegister(Var v) {
        Plan.Storage s = e.plan.storage.get(v);
        return s == Plan.Storage.SCALAR || s == Plan.Storage.POINTER || s == Plan.Storage.VECTOR;
    }

    /** The value of a constant integer expression (through casts), or -1. */
    static int constant(Expr x) {
        while (x instanceof Expr.Cast k) {
            x = k.operand();
        }
        if (x instanceof Expr.IntConst k && k.value() >= 0 && k.value() < 64) {
            return (int) k.value();
        }
        return -1;
    }
}
