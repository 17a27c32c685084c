package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which intrinsic calls and {@code __device__} functions compute their value from their arguments alone: no memory
 * access, no effect outside their own variables, no fault, no yield point, and nothing from the running thread
 * ({@code threadIdx}). Such a call with uniform arguments is uniform ({@link Uniformity}), so a loop bounded by
 * {@code min(n, 32)}, or by a helper's result, can run once per block.
 */
final class Purity {
    /** Bit manipulation, the integer intrinsics and the math functions that take no pointer. */
    private static final Set<Intrinsic> PURE = EnumSet.range(Intrinsic.POPC, Intrinsic.UDP2A_HI);

    static {
        PURE.addAll(EnumSet.range(Intrinsic.SQRT, Intrinsic.SIGNBIT));
        // These read or write memory through a pointer argument.
        PURE.removeAll(EnumSet.of(Intrinsic.NORM, Intrinsic.RNORM, Intrinsic.MODF, Intrinsic.FREXP,
                Intrinsic.FREXP_EXP, Intrinsic.REMQUO_QUOTIENT));
    }

    private final Plan plan;
    private final Map<Function, Boolean> functions = new IdentityHashMap<>();

    Purity(Plan plan) {
        this.plan = plan;
    }

    /** True if {@code call} computes its value from its arguments alone (which the caller checks itself). */
    static boolean pureIntrinsic(Expr.IntrinsicCall call) {
        return PURE.contains(call.intrinsic())
                && call.args().stream().noneMatch(a -> a.type() instanceof CType.Pointer);
    }

    /** True if {@code f} computes its result from its arguments alone. */
    boolean pureFunction(Function f) {
        Boolean known = functions.get(f);
        if (known != null) {
            return known;
        }
        functions.put(f, false);
        Set<Var> own = Collections.newSetFromMap(new IdentityHashMap<>());
        own.addAll(f.params);
        Stmt body = plan.lowering.body(f);
        boolean[] ok = {true};
        Statements.forEachStmt(body, s -> {
            if (s instanceof Stmt.VarDecl d) {
                own.add(d.var());
                ok[0] &= d.arrayInit() == null;
            }
        });
        for (Var v : own) {
            ok[0] &= plan.storage.get(v) == Plan.Storage.SCALAR;
        }
        Statements.forEachExpr(body, e -> ok[0] &= ok[0] && pure(e, own));
        functions.put(f, ok[0]);
        return ok[0];
    }

    /** True if the node {@code e} itself (its operands are visited on their own) is pure within a function. */
    private boolean pure(Expr e, Set<Var> own) {
        return switch (e) {
            case Expr.IntConst k -> true;
            case Expr.FloatConst k -> true;
            case Expr.VarRef v -> own.contains(v.var());
            case Expr.Builtin b -> b.var() != Expr.BuiltinVar.THREAD_IDX;
            case Expr.Unary u -> true;
            case Expr.Binary b -> Uniformity.safeDivision(b.op(), b.operandType(), b.right());
            case Expr.Cast k -> true;
            case Expr.BitCast k -> true;
            case Expr.Conditional q -> true;
            case Expr.Comma c -> true;
            case Expr.Assign a -> a.target() instanceof Expr.VarRef;
            case Expr.CompoundAssign a -> a.target() instanceof Expr.VarRef
                    && Uniformity.safeDivision(a.op(), a.operandType(), a.value());
            case Expr.IncDec a -> a.target() instanceof Expr.VarRef;
            case Expr.IntrinsicCall c -> pureIntrinsic(c);
            case Expr.Call c -> pureFunction(c.function());
            default -> false;
        };
    }
}
