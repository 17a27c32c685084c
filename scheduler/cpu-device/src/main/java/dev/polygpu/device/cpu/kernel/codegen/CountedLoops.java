package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;

/**
 * Recognizes the {@code for} loops that end by themselves, which need no poll of the launch's stop request at
 * their back-edge (a volatile read per iteration is a measurable cost in tight loops): {@code for (…; i < b; i++)}
 * or {@code for (…; i > b; i--)} (also {@code ++i}, {@code i += 1}, {@code i -= 1}) where {@code i} is an integer
 * variable of at least {@code int}'s width held in a JVM local, compared without conversion, whose address is not
 * taken and that the body never assigns, and {@code b} is built from constants, built-in indices and extents, and
 * such variables the body never assigns. Such a loop runs at most as many iterations as {@code i}'s type has
 * values and cannot wrap around; a stop request is noticed at the enclosing loop's back-edge, the next barrier
 * or the next block. A loop that steps by another amount ({@link #strided}) ends by itself only for some values
 * of its step and bound, which the generated code checks at its entry.
 */
final class CountedLoops {
    private final Plan plan;

    CountedLoops(Plan plan) {
        this.plan = plan;
    }

    /** True if {@code f} is a counted loop as described on the class. */
    boolean isCounted(Stmt.For f) {
        if (!(f.condition() instanceof Expr.Binary cond) || !(cond.left() instanceof Expr.VarRef ref)) {
            return false;
        }
        Var i = ref.var();
        if (!wideInteger(i.type) || !i.type.equals(cond.operandType()) || i.addressTaken
                || plan.storage.get(i) != Plan.Storage.SCALAR) {
            return false;
        }
        int step = step(f.update(), i);
        boolean bounded = cond.op() == Expr.BinaryOp.LT && step == 1 || cond.op() == Expr.BinaryOp.GT && step == -1;
        return bounded && invariant(cond.right(), f.body()) && !assigns(f.body(), i);
    }

    /**
     * A {@code for (…; i < b; i += s)} loop with {@code s} of any integer type: it ends by itself when {@code s} is
     * positive and {@code i} cannot wrap, which {@code exec.StridedLoops} checks at the loop's entry.
     * {@code type} is {@code i}'s type, in which both the comparison and the step are done.
     */
    record Strided(CType type, Expr bound, Expr step) {}

    /**
     * The strided form of {@code f} (a grid-stride loop, typically), or null: {@code i} as for a counted loop,
     * {@code b} and {@code s} invariant and free of integer division by anything but a nonzero constant (so that
     * evaluating them at the loop's entry, before the first condition and step, cannot fault), and a body without
     * calls of {@code __device__} functions and of at most {@link #MAX_STRIDED_BODY} expression nodes, since the
     * body is emitted twice.
     */
    Strided strided(Stmt.For f) {
        if (!(f.condition() instanceof Expr.Binary cond) || cond.op() != Expr.BinaryOp.LT
                || !(cond.left() instanceof Expr.VarRef ref)) {
            return null;
        }
        Var i = ref.var();
        if (!wideInteger(i.type) || !i.type.equals(cond.operandType()) || i.addressTaken
                || plan.storage.get(i) != Plan.Storage.SCALAR || assigns(f.body(), i)) {
            return null;
        }
        if (!(f.update() instanceof Expr.CompoundAssign a) || a.op() != Expr.BinaryOp.ADD || !isVar(a.target(), i)
                || !a.value().type().isInteger()) {
            return null;
        }
        if (!invariant(cond.right(), f.body()) || !invariant(a.value(), f.body()) || !divisionSafe(cond.right())
                || !divisionSafe(a.value()) || size(f.body()) > MAX_STRIDED_BODY) {
            return null;
        }
        return new Strided(i.type, cond.right(), a.value());
    }

    /** Expression nodes a strided loop's body may hold: it is emitted twice, and kernels have a 64 KB limit. */
    static final int MAX_STRIDED_BODY = 120;

    private static boolean divisionSafe(Expr e) {
        boolean[] safe = {true};
        Statements.forEachNode(e, x -> safe[0] &= !(x instanceof Expr.Binary b)
                || Uniformity.safeDivision(b.op(), b.operandType(), b.right()));
        return safe[0];
    }

    /** Expression nodes in {@code s}; a call of a {@code __device__} function counts as too many. */
    private static int size(Stmt s) {
        int[] n = {0};
        Statements.forEachExpr(s, x -> n[0] += x instanceof Expr.Call ? MAX_STRIDED_BODY + 1 : 1);
        return n[0];
    }

    private static boolean wideInteger(CType t) {
        return t == CType.Prim.INT || t == CType.Prim.UINT || t == CType.Prim.LONG || t == CType.Prim.ULONG
                || t == CType.Prim.LONGLONG || t == CType.Prim.ULONGLONG;
    }

    /** +1 or -1 if {@code update} steps {@code i} by one, else 0. */
    private static int step(Expr update, Var i) {
        return switch (update) {
            case Expr.IncDec d when isVar(d.target(), i) -> d.increment() ? 1 : -1;
            case Expr.CompoundAssign a when isVar(a.target(), i) && a.value() instanceof Expr.IntConst k
                    && k.value() == 1 -> a.op() == Expr.BinaryOp.ADD ? 1 : a.op() == Expr.BinaryOp.SUB ? -1 : 0;
            case null, default -> 0;
        };
    }

    private static boolean isVar(Expr x, Var v) {
        return x instanceof Expr.VarRef r && r.var() == v;
    }

    /** True if {@code b} has the same value at every iteration of a loop with body {@code body}. */
    private boolean invariant(Expr b, Stmt body) {
        return switch (b) {
            case Expr.IntConst k -> true;
            case Expr.Builtin k -> true;
            case Expr.VarRef r -> !r.var().addressTaken && plan.storage.get(r.var()) == Plan.Storage.SCALAR
                    && !assigns(body, r.var());
            case Expr.Cast c -> invariant(c.operand(), body);
            case Expr.Unary u -> invariant(u.operand(), body);
            case Expr.Binary x -> invariant(x.left(), body) && invariant(x.right(), body);
            default -> false;
        };
    }

    /** True if statement {@code s} may assign {@code v}. */
    private static boolean assigns(Stmt s, Var v) {
        return switch (s) {
            case null -> false;
            case Stmt.Block b -> b.statements().stream().anyMatch(x -> assigns(x, v));
            case Stmt.VarDecl d -> d.var() == v || assigns(d.init(), v)
                    || d.arrayInit() != null && d.arrayInit().stream().anyMatch(x -> assigns(x, v));
            case Stmt.ExprStmt e -> assigns(e.expr(), v);
            case Stmt.If i -> assigns(i.condition(), v) || assigns(i.then(), v) || assigns(i.otherwise(), v);
            case Stmt.While w -> assigns(w.condition(), v) || assigns(w.body(), v);
            case Stmt.DoWhile w -> assigns(w.body(), v) || assigns(w.condition(), v);
            case Stmt.For f -> f.init().stream().anyMatch(x -> assigns(x, v)) || assigns(f.condition(), v)
                    || assigns(f.update(), v) || assigns(f.body(), v);
            case Stmt.Return r -> assigns(r.value(), v);
            case Stmt.Switch sw -> assigns(sw.selector(), v)
                    || sw.cases().stream().anyMatch(c -> c.statements().stream().anyMatch(x -> assigns(x, v)));
            case Stmt.Break b -> false;
            case Stmt.Continue c -> false;
            case Stmt.Empty e -> false;
        };
    }

    private static boolean assigns(Expr e, Var v) {
        if (e == null) {
            return false;
        }
        boolean here = switch (e) {
            case Expr.Assign a -> isVar(a.target(), v);
            case Expr.CompoundAssign a -> isVar(a.target(), v);
            case Expr.IncDec d -> isVar(d.target(), v);
            default -> false;
        };
        return here || Exprs.children(e).stream().anyMatch(x -> assigns(x, v));
    }
}
