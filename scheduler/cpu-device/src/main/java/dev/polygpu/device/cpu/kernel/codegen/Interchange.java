package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Decides which loops of a barrier region run <em>iteration-major</em> ({@link RegionForm.Sweep}): every live
 * thread runs a few iterations, then every thread still looping the next few, instead of each thread running the
 * whole loop before the next thread starts. Threads of a block run concurrently with no order between two barriers, so
 * either schedule is a valid execution of a race-free kernel; the iteration-major one turns a grid-stride or
 * block-stride walk ({@code for (i = gid; i < n; i += blockDim.x * gridDim.x) sum += in[i];}), in which each
 * thread alone touches one element per stride, into unit-stride sweeps across the block's threads.
 *
 * <p>A loop qualifies when it is a {@code for} with a condition or a {@code while}, at the top level of a region;
 * its index {@code i} is a thread-dependent scalar that steps by a block-uniform amount, {@code i += s} or
 * {@code i -= s} (the {@code for}'s update, or the last statement of a {@code while}'s body), where {@code s} is
 * not a constant or a constant of at least {@link #LARGE_STEP}; its body reads or writes memory at an index
 * built from {@code i}; no {@code break} or {@code continue} in the body leaves the loop and no {@code return}
 * is in it; and neither it nor a function it calls holds {@code printf}, {@code assert}, {@code __trap}, an
 * atomic or a fence, whose order between threads is observable. Loops that walk by a small constant (a
 * thread's own row, {@code i++}) stay thread-major: there each thread's walk is already unit-stride.
 */
final class Interchange {
    /** The smallest constant step that makes a loop strided enough to interchange (in elements of the index). */
    static final int LARGE_STEP = 32;

    private final Plan plan;
    private final Uniformity u;

    Interchange(Plan plan, Uniformity u) {
        this.plan = plan;
        this.u = u;
    }

    /** True if {@code s} is a loop that qualifies, as the class notes say. */
    boolean qualifies(Stmt s) {
        Expr condition;
        Stmt body;
        Expr step;
        switch (s) {
            case Stmt.For f when f.condition() != null -> {
                condition = f.condition();
                body = f.body();
                step = f.update();
            }
            case Stmt.While w -> {
                condition = w.condition();
                body = w.body();
                step = w.body() instanceof Stmt.Block b && !b.statements().isEmpty()
                        && b.statements().getLast() instanceof Stmt.ExprStmt e ? e.expr() : null;
            }
            default -> {
                return false;
            }
        }
        Var i = stridedIndex(step);
        if (i == null || body == null || !Statements.jumpsStayInside(List.of(body)) || !indexes(body, i)) {
            return false;
        }
        boolean[] ok = {true};
        Set<Function> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Statements.forEachStmt(body, x -> ok[0] &= !(x instanceof Stmt.Return));
        // Nothing whose order between threads shows in the results or the output, here or in a function it calls.
        return ok[0] && !Statements.callsIntrinsic(plan.lowering, body, Interchange::ordered, seen)
                && !Statements.callsIntrinsic(plan.lowering, condition, Interchange::ordered, seen)
                && !Statements.callsIntrinsic(plan.lowering, step, Interchange::ordered, seen);
    }

    /** The thread-dependent index that {@code step} moves by a uniform, non-small amount, or null. */
    private Var stridedIndex(Expr step) {
        if (!(step instanceof Expr.CompoundAssign a) || a.op() != Expr.BinaryOp.ADD && a.op() != Expr.BinaryOp.SUB
                || !(a.target() instanceof Expr.VarRef ref)) {
            return null;
        }
        Var i = ref.var();
        if (!i.type.isInteger() || i.addressTaken || plan.storage.get(i) != Plan.Storage.SCALAR || u.isUniform(i)
                || !u.isUniform(a.value())) {
            return null;
        }
        Expr s = a.value();
        while (s instanceof Expr.Cast k) {
            s = k.operand();
        }
        if (s instanceof Expr.IntConst k && Math.abs(k.value()) < LARGE_STEP) {
            return null;
        }
        return i;
    }

    /** True if {@code body} accesses memory at an index or pointer offset that reads {@code i}. */
    private static boolean indexes(Stmt body, Var i) {
        boolean[] found = {false};
        Statements.forEachExpr(body, x -> {
            Expr index = switch (x) {
                case Expr.Index ix -> ix.index();
                case Expr.PtrAdd p -> p.index();
                default -> null;
            };
            if (index != null) {
                Statements.forEachNode(index, y -> found[0] |= y instanceof Expr.VarRef r && r.var() == i);
            }
        });
        return found[0];
    }

    private static boolean ordered(Intrinsic i) {
        return switch (i) {
            case PRINTF, ASSERT, TRAP, THREADFENCE, THREADFENCE_BLOCK, THREADFENCE_SYSTEM -> true;
            default -> i.name().startsWith("ATOMIC_");
        };
    }
}
