package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Expr.BinaryOp;
import dev.polygpu.device.cpu.kernel.ast.GlobalVariable;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Var;

import java.util.List;

/**
 * Types expressions: resolves names, applies the C conversions (inserting {@link Expr.Cast}), makes pointer
 * arithmetic and array decay explicit, and checks lvalues. Calls are delegated to {@link CallSema}.
 */
final class ExprSema {
    final Sema s;
    final Diagnostics diags;
    final CallSema calls;

    ExprSema(Sema s) {
        this.s = s;
        this.diags = s.diags;
        this.calls = new CallSema(this);
    }

    /** The expression as a value: arrays decay to pointers to their first element. */
    Expr value(Expr e) {
        return decay(analyze(e));
    }

    static Expr decay(Expr e) {
        if (e.type() instanceof CType.Array a) {
            return new Expr.Decay(e.pos(), new CType.Pointer(a.element()), e);
        }
        return e;
    }

    /** A conversion node unless the type is already right. */
    static Expr cast(Expr e, CType to) {
        return e.type().equals(to) ? e : new Expr.Cast(e.pos(), to, e);
    }

    static boolean isNullConstant(Expr e) {
        if (e instanceof Expr.IntConst c) {
            return c.type().isInteger() && c.value() == 0;
        }
        return e instanceof Expr.Cast c && c.type().equals(new CType.Pointer(Prim.VOID))
                && c.operand() instanceof Expr.IntConst i && i.value() == 0;
    }

    /** Implicit conversion (assignment, initialization, argument, return) of a value to {@code to}. */
    Expr convert(Expr e, CType to, String context) {
        CType from = e.type();
        if (from.equals(to)) {
            return e;
        }
        if (to.isArithmetic() && from.isArithmetic()) {
            return new Expr.Cast(e.pos(), to, e);
        }
        if (to == Prim.BOOL && from.isPointer()) {
            return pointerTest(e);
        }
        if (to instanceof CType.Pointer tp) {
            if (isNullConstant(e)) {
                return new Expr.Cast(e.pos(), to, new Expr.IntConst(e.pos(), Prim.INT, 0));
            }
            if (from instanceof CType.Pointer && tp.pointee() == Prim.VOID) {
                return new Expr.Cast(e.pos(), to, e);
            }
        }
        throw diags.fail(e.pos(), "cannot convert '" + from + "' to '" + to + "'" + (context == null ? "" : " " + context));
    }

    /** {@code p != 0} for a pointer used where a bool is needed. */
    private static Expr pointerTest(Expr p) {
        Expr nul = new Expr.Cast(p.pos(), p.type(), new Expr.IntConst(p.pos(), Prim.INT, 0));
        return new Expr.Binary(p.pos(), Prim.BOOL, BinaryOp.NE, p.type(), p, nul);
    }

    Expr analyze(Expr e) {
        return switch (e) {
            case Expr.IntConst c -> c;
            case Expr.FloatConst c -> c;
            case Expr.Name n -> name(n);
            case Expr.Member m -> member(m);
            case Expr.Index ix -> index(ix);
            case Expr.Unary u -> unary(u);
            case Expr.Deref d -> deref(d.pos(), value(d.pointer()));
            case Expr.AddrOf a -> addrOf(a);
            case Expr.IncDec i -> incDec(i);
            case Expr.Assign a -> assign(a);
            case Expr.CompoundAssign c -> compound(c);
            case Expr.Conditional c -> conditional(c);
            case Expr.Cast c -> explicitCast(c);
            case Expr.Binary b -> binary(b.pos(), b.op(), value(b.left()), value(b.right()));
            case Expr.Comma c -> {
                Expr l = value(c.left());
                Expr r = value(c.right());
                yield new Expr.Comma(c.pos(), r.type(), l, r);
            }
            case Expr.SizeOf so -> sizeOf(so);
            case Expr.BracedInit b -> braced(b);
            case Expr.CallByName c -> calls.call(c);
            default -> throw diags.fail(e.pos(), "unexpected expression");
        };
    }

    private Expr name(Expr.Name n) {
        String id = n.name();
        if (id.startsWith("\"")) {
            throw diags.fail(n.pos(), "string literals are not supported by the CPU device's kernel engine");
        }
        if (id.equals("nullptr")) {
            return new Expr.Cast(n.pos(), new CType.Pointer(Prim.VOID), new Expr.IntConst(n.pos(), Prim.INT, 0));
        }
        Var v = s.lookup(id);
        if (v != null) {
            return new Expr.VarRef(n.pos(), v.type, v);
        }
        Program.ConstVal c = s.constant(id);
        if (c != null) {
            return c.value() instanceof Double d ? new Expr.FloatConst(n.pos(), c.type(), d)
                    : new Expr.IntConst(n.pos(), c.type(), (Long) c.value());
        }
        switch (id) {
            case "warpSize" -> {
                return new Expr.Builtin(n.pos(), Prim.INT, Expr.BuiltinVar.WARP_SIZE, 0);
            }
            case "threadIdx", "blockIdx", "blockDim", "gridDim" -> throw diags.fail(n.pos(),
                    "'" + id + "' must be used with .x, .y or .z");
            default -> { }
        }
        if (s.prog.hasFunction(id)) {
            throw diags.fail(n.pos(), "function pointers are not supported by the CPU device's kernel engine "
                    + "('" + id + "' used as a value)");
        }
        throw diags.fail(n.pos(), "use of undeclared identifier '" + id + "'");
    }

    private Expr member(Expr.Member m) {
        if (m.object() instanceof Expr.Name n && s.lookup(n.name()) == null) {
            Expr.BuiltinVar bv = switch (n.name()) {
                case "threadIdx" -> Expr.BuiltinVar.THREAD_IDX;
                case "blockIdx" -> Expr.BuiltinVar.BLOCK_IDX;
                case "blockDim" -> Expr.BuiltinVar.BLOCK_DIM;
                case "gridDim" -> Expr.BuiltinVar.GRID_DIM;
                default -> null;
            };
            if (bv != null) {
                int dim = switch (m.member()) {
                    case "x" -> 0;
                    case "y" -> 1;
                    case "z" -> 2;
                    default -> throw diags.fail(m.pos(), "no member named '" + m.member() + "' in '" + n.name() + "'");
                };
                return new Expr.Builtin(n.pos(), Prim.UINT, bv, dim);
            }
        }
        Expr obj = analyze(m.object());
        if (obj.type() instanceof CType.Vector) {
            return VectorTypes.component(this, m.pos(), obj, m.member());
        }
        if (obj.type() instanceof CType.Struct) {
            Expr f = Structs.member(this, m.pos(), obj, m.member());
            if (f.type() instanceof CType.Array) {
                // An array member is used through its address, so the struct must live in memory.
                Expr root = Structs.root(obj);
                if (root instanceof Expr.VarRef r) {
                    r.var().addressTaken = true;
                } else if (!(root instanceof Expr.Deref)) {
                    throw diags.fail(m.pos(), "array member '" + m.member() + "' of a struct value that is not "
                            + "stored anywhere (a call's result, a conditional) cannot be used; store the struct in "
                            + "a variable first");
                }
            }
            return f;
        }
        throw diags.fail(m.pos(), "member reference base type '" + obj.type() + "' is not a structure or a vector "
                + "type");
    }

    private Expr index(Expr.Index ix) {
        Expr base = value(ix.base());
        Expr idx = value(ix.index());
        if (idx.type().isPointer() && base.type().isInteger()) {
            Expr t = base;
            base = idx;
            idx = t;
        }
        if (!base.type().isPointer()) {
            throw diags.fail(ix.pos(), "subscripted value is not an array or pointer (type '" + base.type() + "')");
        }
        if (!idx.type().isInteger()) {
            throw diags.fail(idx.pos(), "array subscript is not an integer (type '" + idx.type() + "')");
        }
        return deref(ix.pos(), ptrAdd(ix.pos(), base, idx, false));
    }

    Expr ptrAdd(Pos pos, Expr ptr, Expr idx, boolean negate) {
        if (((CType.Pointer) ptr.type()).pointee() == Prim.VOID) {
            throw diags.fail(pos, "arithmetic on a pointer to void is not supported");
        }
        return new Expr.PtrAdd(pos, ptr.type(), ptr, cast(idx, Prim.LONG), negate);
    }

    private Expr deref(Pos pos, Expr p) {
        if (!(p.type() instanceof CType.Pointer pt)) {
            throw diags.fail(pos, "indirection requires pointer operand ('" + p.type() + "' invalid)");
        }
        if (pt.pointee() == Prim.VOID) {
            throw diags.fail(pos, "dereferencing a 'void*' pointer is not allowed");
        }
        return new Expr.Deref(pos, pt.pointee(), p);
    }

    private Expr unary(Expr.Unary u) {
        Expr o = value(u.operand());
        CType t = o.type();
        if (t instanceof CType.Vector || t instanceof CType.Struct) {
            String op = switch (u.op()) {
                case NEG -> "-";
                case PLUS -> "+";
                case NOT -> "!";
                case BIT_NOT -> "~";
            };
            throw diags.fail(u.pos(), t instanceof CType.Vector ? VectorTypes.noOperators(op, t)
                    : Structs.noOperators(op, t));
        }
        switch (u.op()) {
            case NOT -> {
                if (!t.isScalar()) {
                    throw diags.fail(u.pos(), "invalid argument type '" + t + "' to unary expression");
                }
                return new Expr.Unary(u.pos(), Prim.BOOL, Expr.UnaryOp.NOT, o);
            }
            case BIT_NOT -> {
                if (!t.isInteger()) {
                    throw diags.fail(u.pos(), "invalid argument type '" + t + "' to unary expression");
                }
            }
            default -> {
                if (!t.isArithmetic()) {
                    throw diags.fail(u.pos(), "invalid argument type '" + t + "' to unary expression");
                }
            }
        }
        CType p = Types.promote(t);
        return new Expr.Unary(u.pos(), p, u.op(), cast(o, p));
    }

    private Expr addrOf(Expr.AddrOf a) {
        Expr o = analyze(a.operand());
        Expr whole = Structs.root(o);
        if (whole instanceof Expr.VarRef r) {
            if (!(r.type() instanceof CType.Array)) {
                r.var().addressTaken = true;
            }
        } else if (!(whole instanceof Expr.Deref)) {
            throw diags.fail(a.pos(), "cannot take the address of an rvalue of type '" + o.type() + "'");
        }
        return new Expr.AddrOf(a.pos(), new CType.Pointer(o.type()), o);
    }

    /** Checks that {@code t} may be assigned (or, as {@code verb} says, incremented). */
    private void checkAssignable(Expr t, String verb) {
        Expr whole = Structs.root(t);
        boolean lvalue = (whole instanceof Expr.VarRef || whole instanceof Expr.Deref)
                && !(t.type() instanceof CType.Array);
        if (!lvalue) {
            throw diags.fail(t.pos(), "expression is not assignable");
        }
        if (whole instanceof Expr.VarRef r && s.isConst(r.var())) {
            throw diags.fail(t.pos(), "expression is not assignable: variable '" + r.var().name + "' is const");
        }
        checkWritable(t, t.pos(), verb);
    }

    /**
     * Refuses a write ({@code verb}: "assign to", "apply atomicAdd to") to the memory of a read-only file-scope
     * variable ({@code __constant__}, or {@code const __device__}) that {@code x}, an lvalue or a pointer,
     * visibly refers to: {@code w = 1}, {@code w[i] += 2}, {@code atomicAdd(&w[3], 1)}, {@code v[i].x = 0}. A
     * write through a pointer variable that holds its address is caught when it runs (the memory is bound
     * read-only).
     */
    void checkWritable(Expr x, Pos pos, String verb) {
        Var v = moduleVariable(x);
        GlobalVariable g = v == null ? null : s.prog.global(v);
        if (g == null || !g.readOnly()) {
            return;
        }
        throw diags.fail(pos, "cannot " + verb + " " + g.describe() + (v.kind == Var.Kind.CONSTANT
                ? ": constant memory is read-only in kernel code; declare it __device__ if kernels change it"
                : ": it is declared const"));
    }

    /** The {@code __device__}/{@code __constant__} variable whose memory lvalue or pointer {@code x} is in, or null. */
    private static Var moduleVariable(Expr x) {
        Expr e = x;
        while (true) {
            switch (e) {
                case Expr.VarRef r -> {
                    return r.var().inModuleMemory() ? r.var() : null;
                }
                case Expr.Deref d -> e = d.pointer();
                case Expr.PtrAdd p -> e = p.pointer();
                case Expr.Decay d -> e = d.array();
                case Expr.AddrOf a -> e = a.operand();
                case Expr.Component c -> e = c.vector();
                case Expr.Field f -> e = f.struct();
                case Expr.Cast c when c.type().isPointer() && c.operand().type().isPointer() -> e = c.operand();
                default -> {
                    return null;
                }
            }
        }
    }

    private Expr incDec(Expr.IncDec i) {
        Expr t = analyze(i.target());
        checkAssignable(t, i.increment() ? "increment" : "decrement");
        if (t.type() instanceof CType.Vector) {
            throw diags.fail(i.pos(), VectorTypes.noOperators(i.increment() ? "++" : "--", t.type()));
        }
        if (t.type() instanceof CType.Struct) {
            throw diags.fail(i.pos(), Structs.noOperators(i.increment() ? "++" : "--", t.type()));
        }
        if (!t.type().isScalar()) {
            throw diags.fail(i.pos(), "cannot increment value of type '" + t.type() + "'");
        }
        return new Expr.IncDec(i.pos(), t.type(), t, i.prefix(), i.increment());
    }

    private Expr assign(Expr.Assign a) {
        Expr t = analyze(a.target());
        checkAssignable(t, "assign to");
        Expr v = convert(contextTyped(a.value(), t.type(), "the assignment"), t.type(), "in assignment");
        return new Expr.Assign(a.pos(), t.type(), t, v);
    }

    private Expr compound(Expr.CompoundAssign c) {
        Expr t = analyze(c.target());
        checkAssignable(t, "assign to");
        Expr v = value(c.value());
        CType tt = t.type();
        BinaryOp op = c.op();
        if (tt instanceof CType.Vector || v.type() instanceof CType.Vector) {
            throw diags.fail(c.pos(), VectorTypes.noOperators(op.symbol + "=",
                    tt instanceof CType.Vector ? tt : v.type()));
        }
        if (tt instanceof CType.Struct || v.type() instanceof CType.Struct) {
            throw diags.fail(c.pos(), Structs.noOperators(op.symbol + "=",
                    tt instanceof CType.Struct ? tt : v.type()));
        }
        if (tt.isPointer()) {
            if ((op != BinaryOp.ADD && op != BinaryOp.SUB) || !v.type().isInteger()) {
                throw diags.fail(c.pos(), "invalid operands to compound assignment ('" + tt + "' and '" + v.type() + "')");
            }
            return new Expr.CompoundAssign(c.pos(), tt, op, tt, t, cast(v, Prim.LONG));
        }
        if (HalfSema.involves(tt, v.type())) {
            return HalfSema.compound(this, c.pos(), op, t, v);
        }
        boolean intOnly = op == BinaryOp.MOD || op == BinaryOp.SHL || op == BinaryOp.SHR || op == BinaryOp.BIT_AND
                || op == BinaryOp.BIT_OR || op == BinaryOp.BIT_XOR;
        if (!tt.isArithmetic() || !v.type().isArithmetic()
                || (intOnly && (!tt.isInteger() || !v.type().isInteger()))) {
            throw diags.fail(c.pos(), "invalid operands to compound assignment ('" + tt + "' and '" + v.type() + "')");
        }
        if (op == BinaryOp.SHL || op == BinaryOp.SHR) {
            return new Expr.CompoundAssign(c.pos(), tt, op, Types.promote(tt), t, cast(v, Types.promote(v.type())));
        }
        Prim ot = Types.usual(tt, v.type());
        return new Expr.CompoundAssign(c.pos(), tt, op, ot, t, cast(v, ot));
    }

    private Expr conditional(Expr.Conditional c) {
        Expr cond = value(c.condition());
        requireScalar(cond, "condition");
        Expr a = value(c.ifTrue());
        Expr b = value(c.ifFalse());
        CType at = a.type();
        CType bt = b.type();
        CType t;
        if (HalfSema.involves(at, bt) && !at.equals(bt)) {
            throw diags.fail(c.pos(), "operands of '?:' have types '" + at + "' and '" + bt + "', which is ambiguous"
                    + " for __half (each converts to the other; nvcc refuses it too): convert one of them");
        }
        if (at.equals(bt)) {
            // C++: operands of one type give that type ('c ? (short)a : (short)b' is a short); C would promote
            t = at;
        } else if (at.isArithmetic() && bt.isArithmetic()) {
            t = Types.usual(at, bt);
        } else if (at.isPointer() && isNullConstant(b)) {
            t = at;
        } else if (bt.isPointer() && isNullConstant(a)) {
            t = bt;
        } else if (at.isPointer() && bt.isPointer()
                && (((CType.Pointer) at).pointee() == Prim.VOID || ((CType.Pointer) bt).pointee() == Prim.VOID)) {
            t = new CType.Pointer(Prim.VOID);
        } else {
            throw diags.fail(c.pos(), "incompatible operand types ('" + at + "' and '" + bt + "')");
        }
        if (t != Prim.VOID) {
            a = convert(a, t, null);
            b = convert(b, t, null);
        }
        return new Expr.Conditional(c.pos(), t, cond, a, b);
    }

    void requireScalar(Expr e, String what) {
        if (!e.type().isScalar()) {
            throw diags.fail(e.pos(), "statement requires expression of scalar type ('" + e.type() + "' invalid)");
        }
    }

    private Expr explicitCast(Expr.Cast c) {
        CType to = c.type();
        Expr o = value(c.operand());
        CType from = o.type();
        boolean ok = to == Prim.VOID || to.equals(from)
                || (to.isArithmetic() && from.isArithmetic())
                || (to.isPointer() && (from.isPointer() || from.isInteger()))
                || (to.isInteger() && from.isPointer());
        if (!ok) {
            throw diags.fail(c.pos(), "cannot cast from '" + from + "' to '" + to + "'");
        }
        if (to == Prim.BOOL && from.isPointer()) {
            return new Expr.Cast(c.pos(), to, pointerTest(o));
        }
        return new Expr.Cast(c.pos(), to, o);
    }

    /**
     * The value of {@code e}; a braced list without a type ({@code s = {a, b};}, {@code return {a, b};}) is a value
     * of the type {@code t} that the context gives it, initialized from the list.
     */
    Expr contextTyped(Expr e, CType t, String what) {
        if (e instanceof Expr.BracedInit b && b.type() == null && t != null && !(t instanceof CType.Array)) {
            return fromList(Syntax.InitList.of(b.pos(), b.items()), t, what);
        }
        return value(e);
    }

    /**
     * {@code T{…}}, {@code T{}} and {@code T()}: the value of type T that the list initializes ({@code T()} is
     * {@code T{}}). A braced list without a type is not an expression.
     */
    private Expr braced(Expr.BracedInit b) {
        CType t = b.type();
        if (t == null) {
            throw diags.fail(b.pos(), "a braced list '{…}' is not an expression here; name its type ('float2{…}')");
        }
        if (t == Prim.VOID) {
            if (!b.items().isEmpty()) {
                throw diags.fail(b.pos(), "'void{…}' cannot hold values");
            }
            return new Expr.Cast(b.pos(), Prim.VOID, new Expr.IntConst(b.pos(), Prim.INT, 0));
        }
        return fromList(Syntax.InitList.of(b.pos(), b.items()), t, "'" + t + "{…}'");
    }

    /**
     * The value of type {@code t} that a braced list initializes (C++ list-initialization; {@code what} names it in
     * messages): for a vector or struct its aggregate initialization, or a copy of the one value of its own type
     * the list holds; for a scalar the one value the list holds, converted as in an initialization, or zero when
     * the list is empty. A narrowing conversion ({@code int{x}} of a float x) is made as nvcc makes it, which
     * only warns about it.
     */
    Expr fromList(Syntax.InitList list, CType t, String what) {
        List<Object> items = list.items();
        if ((t instanceof CType.Vector || t instanceof CType.Struct) && items.size() == 1
                && items.getFirst() instanceof Expr only) {
            Expr v = value(only);
            if (v.type().equals(t)) {
                return v;
            }
        }
        if (t instanceof CType.Vector vt) {
            return VectorTypes.aggregate(this, list, vt);
        }
        if (t instanceof CType.Struct st) {
            return Structs.aggregate(this, list, st);
        }
        if (items.isEmpty()) {
            return convert(new Expr.IntConst(list.pos(), Prim.INT, 0), t, "in initializer of " + what);
        }
        if (items.size() > 1) {
            throw diags.fail(list.pos(), "too many values in initializer of " + what + ": a '" + t + "' takes one");
        }
        if (!(items.getFirst() instanceof Expr e)) {
            throw diags.fail(list.pos(), "only one level of braces is allowed on an initializer for an object of "
                    + "type '" + t + "'");
        }
        return convert(value(e), t, "in initializer of " + what);
    }

    private Expr sizeOf(Expr.SizeOf so) {
        CType t = so.ofType() != null ? so.ofType() : analyze(so.ofExpr()).type();
        if (t == Prim.VOID || (t instanceof CType.Array a && a.length() < 0)
                || t instanceof CType.Struct st && !st.complete()) {
            throw diags.fail(so.pos(), "invalid application of 'sizeof' to an incomplete type '" + t + "'");
        }
        return new Expr.IntConst(so.pos(), Prim.ULONG, t.size());
    }

    /** A binary operator on two values (also used for intrinsics that are plain arithmetic). */
    Expr binary(Pos pos, BinaryOp op, Expr l, Expr r) {
        CType lt = l.type();
        CType rt = r.type();
        if (lt instanceof CType.Vector || rt instanceof CType.Vector) {
            throw diags.fail(pos, VectorTypes.noOperators(op.symbol, lt instanceof CType.Vector ? lt : rt));
        }
        if (lt instanceof CType.Struct || rt instanceof CType.Struct) {
            throw diags.fail(pos, Structs.noOperators(op.symbol, lt instanceof CType.Struct ? lt : rt));
        }
        if (op == BinaryOp.LOGICAL_AND || op == BinaryOp.LOGICAL_OR) {
            if (!lt.isScalar() || !rt.isScalar()) {
                throw invalidOperands(pos, lt, rt);
            }
            return new Expr.Binary(pos, Prim.BOOL, op, Prim.INT, l, r);
        }
        if (lt.isPointer() || rt.isPointer()) {
            return pointerBinary(pos, op, l, r);
        }
        if (HalfSema.involves(lt, rt)) {
            return HalfSema.binary(this, pos, op, l, r);
        }
        if (!lt.isArithmetic() || !rt.isArithmetic()) {
            throw invalidOperands(pos, lt, rt);
        }
        boolean intOnly = op == BinaryOp.MOD || op == BinaryOp.SHL || op == BinaryOp.SHR || op == BinaryOp.BIT_AND
                || op == BinaryOp.BIT_OR || op == BinaryOp.BIT_XOR;
        if (intOnly && (!lt.isInteger() || !rt.isInteger())) {
            throw invalidOperands(pos, lt, rt);
        }
        if (op == BinaryOp.SHL || op == BinaryOp.SHR) {
            CType pl = Types.promote(lt);
            return new Expr.Binary(pos, pl, op, pl, cast(l, pl), cast(r, Types.promote(rt)));
        }
        Prim ot = Types.usual(lt, rt);
        // C++ (nvcc compiles .cu files as C++): comparisons and logical operators give bool, not int as in C.
        CType result = op.isComparison() ? Prim.BOOL : ot;
        return new Expr.Binary(pos, result, op, ot, cast(l, ot), cast(r, ot));
    }

    private Expr pointerBinary(Pos pos, BinaryOp op, Expr l, Expr r) {
        CType lt = l.type();
        CType rt = r.type();
        if (op == BinaryOp.ADD && lt.isPointer() && rt.isInteger()) {
            return ptrAdd(pos, l, r, false);
        }
        if (op == BinaryOp.ADD && rt.isPointer() && lt.isInteger()) {
            return ptrAdd(pos, r, l, false);
        }
        if (op == BinaryOp.SUB && lt.isPointer() && rt.isInteger()) {
            return ptrAdd(pos, l, r, true);
        }
        if (op == BinaryOp.SUB && lt.isPointer() && rt.isPointer()) {
            if (!lt.equals(rt)) {
                throw invalidOperands(pos, lt, rt);
            }
            if (((CType.Pointer) lt).pointee() == Prim.VOID) {
                throw diags.fail(pos, "arithmetic on a pointer to void is not supported");
            }
            return new Expr.PtrDiff(pos, Prim.LONG, l, r);
        }
        if (op.isComparison()) {
            CType t;
            if (lt.equals(rt)) {
                t = lt;
            } else if (lt.isPointer() && isNullConstant(r)) {
                t = lt;
            } else if (rt.isPointer() && isNullConstant(l)) {
                t = rt;
            } else if (lt.isPointer() && rt.isPointer()
                    && (((CType.Pointer) lt).pointee() == Prim.VOID || ((CType.Pointer) rt).pointee() == Prim.VOID)) {
                t = new CType.Pointer(Prim.VOID);
            } else {
                throw diags.fail(pos, "comparison of distinct pointer types ('" + lt + "' and '" + rt + "')");
            }
            return new Expr.Binary(pos, Prim.BOOL, op, t, convert(l, t, null), convert(r, t, null));
        }
        throw invalidOperands(pos, lt, rt);
    }

    private Diagnostics.Abort invalidOperands(Pos pos, CType l, CType r) {
        return diags.fail(pos, "invalid operands to binary expression ('" + l + "' and '" + r + "')");
    }

}
