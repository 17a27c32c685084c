package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.codegen.Jvm.K;

/**
 * The assignments of the expression emitter: simple and compound assignment and {@code ++}/{@code --}, on a
 * {@link Place} (a register variable, one of its components, or memory) that is read and written once.
 */
abstract class AssignEmitter extends AccessEmitter {
    AssignEmitter(Emitter e) {
        super(e);
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

    void assign(Expr.Assign a, boolean needResult) {
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

    void compound(Expr.CompoundAssign a, boolean needResult) {
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

    void incDec(Expr.IncDec i, boolean needResult) {
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
}
