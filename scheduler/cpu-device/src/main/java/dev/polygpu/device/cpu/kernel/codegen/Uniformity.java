package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Which variables of a kernel's body are block-uniform: equal in every thread of the block that has not yet
 * returned, wherever one of those threads reads them. A value is uniform when it is built from constants,
 * {@code blockIdx}, {@code blockDim}, {@code gridDim}, {@code warpSize}, kernel parameters that are never
 * assigned, and uniform variables, with no memory load, no call but of a pure intrinsic or function
 * ({@link Purity}) and no integer division that could fault; a
 * variable is uniform when every assignment of it stores a uniform value under uniform control flow (every
 * enclosing condition uniform, no enclosing loop left or continued by a thread-dependent {@code break} or
 * {@code continue}). The set is the greatest fixpoint: all candidates start uniform and those with a
 * non-uniform assignment drop out until none does. A {@code return} does not make control non-uniform: a
 * thread that returned takes no further part, and the others stay alike. Only the kernel's own scalars and
 * pointers in JVM locals are candidates; the variables of inlined functions are only where {@link WarpInline}
 * wrote their calls out as statements.
 *
 * <p>Inside an {@code if} whose condition is not uniform and which holds warp-level yield points (the region form
 * runs it as a {@link RegionForm.Masked} part, only in the lanes that took each side), a variable declared there
 * is uniform when it is uniform among those lanes: every assignment of it stores a uniform value under control
 * flow that is uniform within that side. Variables declared outside it are assigned there non-uniformly.
 */
final class Uniformity {
    private final Plan plan;
    private final Purity purity;
    private final Set<Var> uniform = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The variables declared inside the masked {@code if} being walked, if any. */
    private final Set<Var> maskedLocals = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean inMasked;
    private boolean changed;

    Uniformity(Plan plan, Stmt body, Set<Var> candidates) {
        this.plan = plan;
        this.purity = new Purity(plan);
        uniform.addAll(candidates);
        do {
            changed = false;
            walk(body, true);
        } while (changed);
    }

    /** True if {@code v} is uniform: a parameter never assigned, or a candidate no assignment made non-uniform. */
    boolean isUniform(Var v) {
        return plan.constantParams.contains(v) || uniform.contains(v);
    }

    /** True if {@code e} has the same value in every live thread and cannot fault or change anything. */
    boolean isUniform(Expr e) {
        return switch (e) {
            case null -> true;
            case Expr.IntConst k -> true;
            case Expr.FloatConst k -> true;
            case Expr.VarRef v -> isUniform(v.var());
            case Expr.Builtin b -> b.var() != Expr.BuiltinVar.THREAD_IDX;
            case Expr.Unary u -> isUniform(u.operand());
            case Expr.Binary b -> safeDivision(b.op(), b.operandType(), b.right())
                    && isUniform(b.left()) && isUniform(b.right());
            case Expr.Cast k -> isUniform(k.operand());
            case Expr.BitCast k -> isUniform(k.operand());
            case Expr.Conditional q -> isUniform(q.condition()) && isUniform(q.ifTrue()) && isUniform(q.ifFalse());
            case Expr.PtrAdd a -> isUniform(a.pointer()) && isUniform(a.index());
            case Expr.IntrinsicCall c -> Purity.pureIntrinsic(c) && c.args().stream().allMatch(this::isUniform);
            case Expr.Call c -> purity.pureFunction(c.function()) && c.args().stream().allMatch(this::isUniform);
            default -> false;
        };
    }

    /** True for the result of {@code __syncthreads_count/_and/_or}, which every thread of the block gets alike. */
    private static boolean barrierResult(Expr e) {
        return e instanceof Expr.IntrinsicCall c && c.intrinsic().isBlockBarrier();
    }

    /**
     * False for an integer division or remainder whose divisor is not a nonzero constant: evaluated once for the
     * block it could fault in no particular thread.
     */
    static boolean safeDivision(Expr.BinaryOp op, CType operandType, Expr divisor) {
        if (op != Expr.BinaryOp.DIV && op != Expr.BinaryOp.MOD) {
            return true;
        }
        if (operandType == CType.Prim.FLOAT || operandType == CType.Prim.DOUBLE) {
            return true;
        }
        Expr d = divisor;
        while (d instanceof Expr.Cast c) {
            d = c.operand();
        }
        return d instanceof Expr.IntConst k && k.value() != 0;
    }

    private void drop(Var v) {
        if (uniform.remove(v)) {
            changed = true;
        }
    }

    private void walk(Stmt s, boolean ctl) {
        switch (s) {
            case null -> { }
            case Stmt.Block b -> b.statements().forEach(x -> walk(x, ctl));
            case Stmt.VarDecl d -> {
                assignments(d.init(), ctl);
                if (!uniformFor(ctl, d.var()) || !isUniform(d.init())) {
                    drop(d.var());
                }
            }
            case Stmt.ExprStmt e -> assignments(e.expr(), ctl);
            case Stmt.If i when ctl && !inMasked && !isUniform(i.condition()) && plan.lowering.containsYield(i) -> {
                assignments(i.condition(), ctl);
                inMasked = true;
                Statements.forEachStmt(i, x -> {
                    if (x instanceof Stmt.VarDecl d) {
                        maskedLocals.add(d.var());
                    }
                });
                walk(i.then(), true);
                walk(i.otherwise(), true);
                inMasked = false;
                maskedLocals.clear();
            }
            case Stmt.If i -> {
                assignments(i.condition(), ctl);
                boolean c = ctl && isUniform(i.condition());
                walk(i.then(), c);
                walk(i.otherwise(), c);
            }
            case Stmt.While w -> {
                boolean c = ctl && isUniform(w.condition()) && !divergentExit(w.body(), true, false);
                assignments(w.condition(), c);
                walk(w.body(), c);
            }
            case Stmt.DoWhile w -> {
                boolean c = ctl && isUniform(w.condition()) && !divergentExit(w.body(), true, false);
                walk(w.body(), c);
                assignments(w.condition(), c);
            }
            case Stmt.For f -> {
                f.init().forEach(x -> walk(x, ctl));
                boolean c = ctl && isUniform(f.condition()) && !divergentExit(f.body(), true, false);
                assignments(f.condition(), c);
                walk(f.body(), c);
                assignments(f.update(), c);
            }
            case Stmt.Switch sw -> {
                assignments(sw.selector(), ctl);
                sw.cases().forEach(k -> k.statements().forEach(x -> walk(x, false)));
            }
            case Stmt.Return r -> assignments(r.value(), ctl);
            case Stmt.Break b -> { }
            case Stmt.Continue k -> { }
            case Stmt.Empty e -> { }
        }
    }

    /**
     * True if a {@code break} or {@code continue} of the loop whose body is {@code s} stands under control flow
     * that is not uniform ({@code ctl} false), so that threads may leave or continue it at different iterations.
     * {@code inSwitch}: a {@code break} there ends the switch, not the loop.
     */
    private boolean divergentExit(Stmt s, boolean ctl, boolean inSwitch) {
        return switch (s) {
            case null -> false;
            case Stmt.Block b -> b.statements().stream().anyMatch(x -> divergentExit(x, ctl, inSwitch));
            case Stmt.If i -> {
                boolean c = ctl && isUniform(i.condition());
                yield divergentExit(i.then(), c, inSwitch) || divergentExit(i.otherwise(), c, inSwitch);
            }
            case Stmt.Switch sw -> sw.cases().stream()
                    .anyMatch(k -> k.statements().stream().anyMatch(x -> divergentExit(x, false, true)));
            case Stmt.Break b -> !ctl && !inSwitch;
            case Stmt.Continue k -> !ctl;
            // A nested loop's own break and continue end or continue that loop; none of them reaches this one.
            default -> false;
        };
    }

    /**
     * Whether control that is uniform by {@code ctl} is uniform for assignments of {@code v}: inside a masked
     * {@code if} only for the variables declared there.
     */
    private boolean uniformFor(boolean ctl, Var v) {
        return ctl && (!inMasked || maskedLocals.contains(v));
    }

    /** Drops the variables that {@code e} assigns non-uniformly ({@code ctl}: whether control is uniform here). */
    private void assignments(Expr e, boolean ctl) {
        if (e == null) {
            return;
        }
        switch (e) {
            case Expr.Assign a -> {
                boolean uniformValue = isUniform(a.value()) || barrierResult(a.value());
                if (a.target() instanceof Expr.VarRef v && (!uniformFor(ctl, v.var()) || !uniformValue)) {
                    drop(v.var());
                }
            }
            case Expr.CompoundAssign a -> {
                if (a.target() instanceof Expr.VarRef v && (!uniformFor(ctl, v.var()) || !isUniform(a.value())
                        || !safeDivision(a.op(), a.operandType(), a.value()))) {
                    drop(v.var());
                }
            }
            case Expr.IncDec a -> {
                if (a.target() instanceof Expr.VarRef v && !uniformFor(ctl, v.var())) {
                    drop(v.var());
                }
            }
            case Expr.Binary b when b.op() == Expr.BinaryOp.LOGICAL_AND || b.op() == Expr.BinaryOp.LOGICAL_OR -> {
                assignments(b.left(), ctl);
                assignments(b.right(), false);
                return;
            }
            case Expr.Conditional q -> {
                assignments(q.condition(), ctl);
                assignments(q.ifTrue(), false);
                assignments(q.ifFalse(), false);
                return;
            }
            default -> { }
        }
        for (Expr child : Exprs.children(e)) {
            assignments(child, ctl);
        }
    }
}
