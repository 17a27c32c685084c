package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.List;
import java.util.function.Function;

/**
 * Gives warp-synchronous code the lock step it was written for. Before CUDA 9 (and in much code since), the
 * last warp of a reduction or a warp scan exchanged values through {@code volatile} shared memory without
 * {@code __syncwarp}: {@code s[tid] += s[tid + 16];} relies on every lane reading before any lane writes. The
 * CPU device runs a warp's lanes one after another, so without help lane 0 would see lane 16's new value.
 *
 * <p>A statement that uses a variable declared {@code volatile} (a pointer parameter or local, or a
 * {@code __shared__} array) becomes a step of the warp: it is preceded and followed by a
 * {@link Intrinsic#WARP_STEP}, where the lanes that reach it together wait for one another. The step before it
 * lets the lanes still behind (inside an {@code if} the others skipped) arrive before any lane runs the
 * statement, since the block scheduler resumes the lanes waiting at the earliest step first; the step after it
 * lets every lane finish the statement before any goes on. A statement that follows a step in its block, with
 * nothing in between that yields or calls, needs no step before it (see {@link #gathered}). An
 * assignment whose target is such a memory access is split into its read half and its write half with a step
 * between them, so all lanes read before any lane writes, as the hardware's load and store instructions do.
 * Other statements (conditions, loop headers) are not steps.
 */
final class WarpLockstep {
    private WarpLockstep() {}

    /** True if {@code s} is an expression statement or declaration that uses a volatile variable. */
    static boolean isStep(Stmt s) {
        return switch (s) {
            case Stmt.ExprStmt e -> usesVolatile(e.expr());
            case Stmt.VarDecl d -> d.var().volatileAccess || usesVolatile(d.init())
                    || d.arrayInit() != null && d.arrayInit().stream().anyMatch(WarpLockstep::usesVolatile);
            default -> false;
        };
    }

    /**
     * Appends {@code s} to {@code out} as one or two steps of the warp; {@code temp} makes a hidden local of a
     * type for a split assignment's value.
     */
    static void addSteps(List<Stmt> out, Stmt s, Function<Expr, Var> temp) {
        Pos p = s.pos();
        if (!gathered(out)) {
            out.add(step(p));
        }
        if (s instanceof Stmt.ExprStmt e && e.expr() instanceof Expr.Assign a && splittable(a.target())) {
            Var v = temp.apply(a);
            out.add(new Stmt.VarDecl(p, v, a.value(), null));
            out.add(step(p));
            out.add(new Stmt.ExprStmt(p, new Expr.Assign(p, a.type(), a.target(), ref(p, v))));
        } else if (s instanceof Stmt.ExprStmt e && e.expr() instanceof Expr.CompoundAssign a
                && splittable(a.target())) {
            Var v = temp.apply(a);
            out.add(new Stmt.VarDecl(p, v, a.target(), null));
            out.add(new Stmt.ExprStmt(p, new Expr.CompoundAssign(p, a.type(), a.op(), a.operandType(), ref(p, v),
                    a.value())));
            out.add(step(p));
            out.add(new Stmt.ExprStmt(p, new Expr.Assign(p, a.type(), a.target(), ref(p, v))));
        } else {
            out.add(s);
        }
        out.add(step(p));
    }

    private static Expr.VarRef ref(Pos p, Var v) {
        return new Expr.VarRef(p, v.type, v);
    }

    /**
     * True if the lanes that reach the end of {@code block} come there together: after a step, by statements that
     * neither yield nor call a function (which might), so every lane that gets there was released from that step
     * at once and no step is needed before the next statement. Only what other lanes do with non-volatile
     * accesses in between (a data race) could tell the difference.
     */
    private static boolean gathered(List<Stmt> block) {
        for (int i = block.size() - 1; i >= 0; i--) {
            Stmt s = block.get(i);
            if (isStepBoundary(s)) {
                return true;
            }
            if (!quiet(s)) {
                return false;
            }
        }
        return false;
    }

    /** True if {@code s} contains no yield point and no call. */
    private static boolean quiet(Stmt s) {
        return switch (s) {
            case null -> true;
            case Stmt.Block b -> b.statements().stream().allMatch(WarpLockstep::quiet);
            case Stmt.VarDecl d -> quiet(d.init())
                    && (d.arrayInit() == null || d.arrayInit().stream().allMatch(WarpLockstep::quiet));
            case Stmt.ExprStmt e -> quiet(e.expr());
            case Stmt.If i -> quiet(i.condition()) && quiet(i.then()) && quiet(i.otherwise());
            case Stmt.While w -> quiet(w.condition()) && quiet(w.body());
            case Stmt.DoWhile w -> quiet(w.body()) && quiet(w.condition());
            case Stmt.For f -> f.init().stream().allMatch(WarpLockstep::quiet) && quiet(f.condition())
                    && quiet(f.update()) && quiet(f.body());
            case Stmt.Return r -> quiet(r.value());
            case Stmt.Switch sw -> quiet(sw.selector())
                    && sw.cases().stream().allMatch(c -> c.statements().stream().allMatch(WarpLockstep::quiet));
            default -> true;
        };
    }

    private static boolean quiet(Expr e) {
        if (e == null) {
            return true;
        }
        if (e instanceof Expr.Call || e instanceof Expr.IntrinsicCall c && c.intrinsic().isYieldPoint()) {
            return false;
        }
        return Exprs.children(e).stream().allMatch(WarpLockstep::quiet);
    }

    private static boolean isStepBoundary(Stmt s) {
        return s instanceof Stmt.ExprStmt e && e.expr() instanceof Expr.IntrinsicCall c
                && c.intrinsic() == Intrinsic.WARP_STEP;
    }

    private static Stmt step(Pos p) {
        return new Stmt.ExprStmt(p, new Expr.IntrinsicCall(p, Prim.VOID, Intrinsic.WARP_STEP, List.of()));
    }

    /** A memory access through a volatile variable whose address can be computed twice without effects. */
    private static boolean splittable(Expr target) {
        return !(target instanceof Expr.VarRef) && usesVolatile(target) && pure(target);
    }

    private static boolean usesVolatile(Expr e) {
        if (e == null) {
            return false;
        }
        if (e instanceof Expr.VarRef r && r.var().volatileAccess) {
            return true;
        }
        return Exprs.children(e).stream().anyMatch(WarpLockstep::usesVolatile);
    }

    /** True if evaluating {@code e} has no effect besides its value (no assignment, increment or call). */
    static boolean pure(Expr e) {
        return switch (e) {
            case Expr.Assign a -> false;
            case Expr.CompoundAssign a -> false;
            case Expr.IncDec i -> false;
            case Expr.Call c -> false;
            case Expr.IntrinsicCall c -> false;
            default -> Exprs.children(e).stream().allMatch(WarpLockstep::pure);
        };
    }
}
