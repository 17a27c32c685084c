package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Writes the calls of {@code __device__} functions that hold yield points into a kernel's lowered body as
 * statements, so that the barrier-region form ({@link RegionForm}) sees their warp intrinsics and barriers where
 * they run: {@code v = warpReduceSum(v)} becomes a block that declares the function's parameters from the
 * arguments, runs its body and assigns its result. The inlined code keeps the function's own variables, as the
 * code generator's inlining does (every call of a function shares them); the lowering has already hoisted every
 * yield point into a statement of its own, so no argument holds one.
 *
 * <p>Only a function whose one {@code return} is its last statement is written out; any other (an early
 * {@code return}, recursion, a yield point in a {@code switch}) leaves the kernel to the cooperative form.
 */
final class WarpInline {
    private final Plan plan;
    private final Set<Function> active = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean failed;

    private WarpInline(Plan plan) {
        this.plan = plan;
    }

    /** {@code body} with every call that holds a yield point written out, or null where one cannot be. */
    static Stmt.Block inline(Plan plan, Stmt.Block body) {
        WarpInline w = new WarpInline(plan);
        Stmt out = w.stmt(body);
        return w.failed ? null : (Stmt.Block) out;
    }

    private boolean yields(Expr.Call call) {
        return plan.lowering.hasYields(call.function());
    }

    private Stmt stmt(Stmt s) {
        if (s == null || failed || !plan.lowering.containsYield(s)) {
            return s;
        }
        Pos p = s.pos();
        return switch (s) {
            case Stmt.Block b -> new Stmt.Block(p, b.statements().stream().map(this::stmt).toList());
            case Stmt.ExprStmt e when e.expr() instanceof Expr.Call c && yields(c) -> call(c, null);
            case Stmt.ExprStmt e when e.expr() instanceof Expr.Assign a && a.target() instanceof Expr.VarRef t
                    && a.value() instanceof Expr.Call c && yields(c) -> call(c, t.var());
            case Stmt.If i -> new Stmt.If(p, i.condition(), stmt(i.then()), stmt(i.otherwise()));
            case Stmt.While w -> new Stmt.While(p, w.condition(), stmt(w.body()));
            case Stmt.DoWhile w -> new Stmt.DoWhile(p, stmt(w.body()), w.condition());
            case Stmt.For f -> new Stmt.For(p, f.init().stream().map(this::stmt).toList(), f.condition(), f.update(),
                    stmt(f.body()));
            case Stmt.ExprStmt e when plan.lowering.isYield(e.expr()) -> e;
            case Stmt.ExprStmt e when e.expr() instanceof Expr.Assign a && plan.lowering.isYield(a.value()) -> e;
            default -> fail(s);
        };
    }

    private Stmt fail(Stmt s) {
        failed = true;
        return s;
    }

    /** The block that runs {@code call} in place, assigning its result to {@code target} (null: dropped). */
    private Stmt call(Expr.Call call, Var target) {
        Function f = call.function();
        Pos p = call.pos();
        if (!active.add(f)) {
            return fail(new Stmt.Empty(p));
        }
        List<Stmt> out = new ArrayList<>();
        for (int i = 0; i < f.params.size(); i++) {
            out.add(new Stmt.VarDecl(p, f.params.get(i), call.args().get(i), null));
        }
        List<Stmt> body = trailingFlattened(plan.lowering.body(f).statements());
        Stmt last = body.isEmpty() ? null : body.get(body.size() - 1);
        List<Stmt> head = last instanceof Stmt.Return ? body.subList(0, body.size() - 1) : body;
        for (Stmt x : head) {
            boolean[] early = {false};
            Statements.forEachStmt(x, y -> early[0] |= y instanceof Stmt.Return);
            if (early[0]) {
                return fail(new Stmt.Empty(p));
            }
            out.add(stmt(x));
        }
        Expr value = last instanceof Stmt.Return r ? r.value() : null;
        if (target != null) {
            Expr result = value == null ? null : converted(value, target.type);
            if (result == null) {
                return fail(new Stmt.Empty(p));
            }
            Expr.VarRef ref = new Expr.VarRef(p, target.type, target);
            out.add(new Stmt.ExprStmt(p, new Expr.Assign(p, target.type, ref, result)));
        } else if (value != null) {
            out.add(new Stmt.ExprStmt(p, value));
        }
        active.remove(f);
        return new Stmt.Block(p, out);
    }

    /**
     * {@code statements} with a last statement that is a block of the lowering's (which groups a {@code return}
     * with the yield points hoisted out of its value) replaced by its statements, again while the last is one.
     */
    private List<Stmt> trailingFlattened(List<Stmt> statements) {
        List<Stmt> out = new ArrayList<>(statements);
        while (!out.isEmpty() && out.getLast() instanceof Stmt.Block b && plan.lowering.isSynthetic(b)) {
            out.removeLast();
            out.addAll(b.statements());
        }
        return out;
    }

    /** {@code value} as a value of {@code type}: itself, or a cast between scalar types; null for any other. */
    private static Expr converted(Expr value, CType type) {
        if (value.type().equals(type)) {
            return value;
        }
        if (value.type() instanceof CType.Prim && type instanceof CType.Prim) {
            return new Expr.Cast(value.pos(), type, value);
        }
        return null;
    }
}
