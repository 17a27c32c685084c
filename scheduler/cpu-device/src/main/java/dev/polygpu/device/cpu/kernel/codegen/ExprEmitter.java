package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_long;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.codegen.Jvm.K;

import java.lang.classfile.Label;

/**
 * Emits expressions: values, conditions as jumps, lvalues (assignment, compound assignment, ++/--), memory
 * access through the bounds-checked {@code Mem} helpers. A pointer is two stack values: its memory segment
 * and a byte offset ({@code long}); a vector ({@code float4} …) is one stack value per component, x first, and a
 * struct one per scalar leaf in memory order.
 *
 * <p>This class holds values, operators and conditions; assignments are in {@link AssignEmitter}, and access to
 * memory, registers and temporaries in {@link AccessEmitter}, its superclasses.
 */
final class ExprEmitter extends AssignEmitter {
    private final IntrinsicEmitter intrinsics;

    ExprEmitter(Emitter e) {
        super(e);
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
                derefAddress(d);
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
