package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites function bodies so that every yield point (a barrier, a warp intrinsic, or a call of a function
 * that contains one) stands alone as a statement: {@code tmp = __shfl_down_sync(…);} or
 * {@code __syncthreads();}. A cooperative kernel's thread returns to the block scheduler at a yield point,
 * which the JVM allows only with an empty operand stack; hoisting the call out of its expression gives that.
 * Yield points in a loop's condition or update move into the loop body (see {@link #headerInBody}); those in
 * an operand of {@code &&}, {@code ||} or {@code ?:} that C++ evaluates only conditionally become an {@code if}
 * that evaluates it only then (see {@link #shortCircuit} and {@link #choice}).
 */
final class YieldLowering {
    private final Map<Function, Boolean> yields = new IdentityHashMap<>();
    private final Map<Function, Stmt.Block> lowered = new IdentityHashMap<>();
    private int temps;
    /** Blocks this pass creates to hold hoisted statements: they group statements but open no C scope. */
    private final java.util.Set<Stmt.Block> synthetic = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** The temporaries this pass declares without a value (see {@link #isUnsetTemporary}). */
    private final java.util.Set<Var> unset = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    /** True if {@code f} or anything it calls contains a yield point. */
    boolean hasYields(Function f) {
        Boolean known = yields.get(f);
        if (known != null) {
            return known;
        }
        yields.put(f, false);
        boolean result = containsYield(f.body());
        yields.put(f, result);
        return result;
    }

    /** The lowered body of {@code f} (computed once). */
    Stmt.Block body(Function f) {
        Stmt.Block b = lowered.get(f);
        if (b == null) {
            b = hasYields(f) ? (Stmt.Block) lowerStmt(f.body()) : f.body();
            lowered.put(f, b);
        }
        return b;
    }

    /** True for a block made by this pass: its declarations belong to the enclosing scope. */
    boolean isSynthetic(Stmt.Block b) {
        return synthetic.contains(b);
    }

    private Stmt.Block group(Pos p, List<Stmt> statements) {
        Stmt.Block b = new Stmt.Block(p, statements);
        synthetic.add(b);
        return b;
    }

    boolean isYield(Expr e) {
        if (e instanceof Expr.IntrinsicCall ic) {
            return ic.intrinsic().isYieldPoint();
        }
        return e instanceof Expr.Call call && hasYields(call.function());
    }

    boolean containsYield(Stmt s) {
        return switch (s) {
            case null -> false;
            case Stmt.Block b -> b.statements().stream().anyMatch(this::containsYield);
            case Stmt.VarDecl d -> containsYield(d.init())
                    || d.arrayInit() != null && d.arrayInit().stream().anyMatch(this::containsYield);
            case Stmt.ExprStmt e -> containsYield(e.expr());
            case Stmt.If i -> containsYield(i.condition()) || containsYield(i.then()) || containsYield(i.otherwise());
            case Stmt.While w -> containsYield(w.condition()) || containsYield(w.body());
            case Stmt.DoWhile w -> containsYield(w.condition()) || containsYield(w.body());
            case Stmt.For f -> f.init().stream().anyMatch(this::containsYield) || containsYield(f.condition())
                    || containsYield(f.update()) || containsYield(f.body());
            case Stmt.Return r -> containsYield(r.value());
            case Stmt.Switch sw -> containsYield(sw.selector())
                    || sw.cases().stream().anyMatch(c -> c.statements().stream().anyMatch(this::containsYield));
            default -> false;
        };
    }

    boolean containsYield(Expr e) {
        if (e == null) {
            return false;
        }
        if (isYield(e)) {
            return true;
        }
        for (Expr c : Exprs.children(e)) {
            if (containsYield(c)) {
                return true;
            }
        }
        return false;
    }

    private Stmt lowerStmt(Stmt s) {
        if (s == null || !containsYield(s)) {
            return s;
        }
        Pos p = s.pos();
        return switch (s) {
            case Stmt.Block b -> {
                List<Stmt> out = new ArrayList<>();
                for (Stmt x : b.statements()) {
                    out.add(lowerStmt(x));
                }
                yield new Stmt.Block(p, out);
            }
            case Stmt.VarDecl d -> {
                List<Stmt> pre = new ArrayList<>();
                Expr init = hoist(d.init(), pre);
                List<Expr> arr = null;
                if (d.arrayInit() != null) {
                    arr = new ArrayList<>();
                    for (Expr e : d.arrayInit()) {
                        arr.add(hoist(e, pre));
                    }
                }
                pre.add(new Stmt.VarDecl(p, d.var(), init, arr));
                yield group(p, pre);
            }
            case Stmt.ExprStmt e -> {
                List<Stmt> pre = new ArrayList<>();
                Expr rest = hoist(e.expr(), pre);
                if (!(rest instanceof Expr.VarRef)) {
                    pre.add(new Stmt.ExprStmt(p, rest));
                }
                yield group(p, pre);
            }
            case Stmt.If i -> {
                List<Stmt> pre = new ArrayList<>();
                Expr c = hoist(i.condition(), pre);
                pre.add(new Stmt.If(p, c, lowerStmt(i.then()), lowerStmt(i.otherwise())));
                yield group(p, pre);
            }
            case Stmt.Return r -> {
                List<Stmt> pre = new ArrayList<>();
                Expr v = hoist(r.value(), pre);
                pre.add(new Stmt.Return(p, v));
                yield group(p, pre);
            }
            case Stmt.Switch sw -> {
                List<Stmt> pre = new ArrayList<>();
                Expr sel = hoist(sw.selector(), pre);
                List<Stmt.Case> cases = new ArrayList<>();
                for (Stmt.Case c : sw.cases()) {
                    List<Stmt> body = new ArrayList<>();
                    c.statements().forEach(x -> body.add(lowerStmt(x)));
                    cases.add(new Stmt.Case(c.pos(), c.value(), body));
                }
                pre.add(new Stmt.Switch(p, sel, cases));
                yield group(p, pre);
            }
            case Stmt.While w -> {
                if (!containsYield(w.condition())) {
                    yield new Stmt.While(p, w.condition(), lowerStmt(w.body()));
                }
                yield headerInBody(p, List.of(), w.condition(), null, w.body(), false);
            }
            case Stmt.For f -> {
                List<Stmt> init = new ArrayList<>();
                f.init().forEach(x -> init.add(lowerStmt(x)));
                if (!containsYield(f.condition()) && !containsYield(f.update())) {
                    yield new Stmt.For(p, init, f.condition(), f.update(), lowerStmt(f.body()));
                }
                yield headerInBody(p, init, f.condition(), f.update(), f.body(), false);
            }
            case Stmt.DoWhile w -> {
                if (!containsYield(w.condition())) {
                    yield new Stmt.DoWhile(p, lowerStmt(w.body()), w.condition());
                }
                yield headerInBody(p, List.of(), w.condition(), null, w.body(), true);
            }
            default -> s;
        };
    }

    /**
     * A loop whose condition or update holds a yield point, with them moved to the top of its body, where
     * their yield points can stand alone:
     * <pre>
     * for (init; c; u) body    ->  for (init, $first = 1; ;) { if (!$first) { u; } $first = 0;
     *                                                        hoisted…; if (!c) break; body }
     * do body while (c)        ->  for ($first = 1; ;) { if (!$first) { hoisted…; if (!c) break; } $first = 0; body }
     * </pre>
     * A {@code continue} in the body goes to the top of the next iteration, so it still runs the update and
     * the condition. An update without yield points stays the loop's update; {@code $first}, which skips on
     * the first iteration what runs only between iterations, is left out where there is nothing of that kind
     * (a while loop, or a for-loop with a yield point in its condition only).
     */
    private Stmt headerInBody(Pos p, List<Stmt> init, Expr condition, Expr update, Stmt body, boolean testLast) {
        List<Stmt> test = new ArrayList<>();
        if (condition != null) {
            Expr c = hoist(condition, test);
            test.add(new Stmt.If(p, new Expr.Unary(p, CType.Prim.INT, Expr.UnaryOp.NOT, c), new Stmt.Break(p),
                    null));
        }
        List<Stmt> between = new ArrayList<>();
        Expr loopUpdate = update;
        if (containsYield(update)) {
            between.add(lowerStmt(new Stmt.ExprStmt(update.pos(), update)));
            loopUpdate = null;
        }
        if (testLast) {
            between.addAll(test);
            test.clear();
        }
        List<Stmt> loopInit = new ArrayList<>(init);
        List<Stmt> out = new ArrayList<>();
        if (!between.isEmpty()) {
            Var first = new Var("$first" + temps, CType.Prim.INT, Var.Kind.LOCAL, p, -1 - temps);
            temps++;
            Expr.VarRef ref = new Expr.VarRef(p, CType.Prim.INT, first);
            loopInit.add(new Stmt.VarDecl(p, first, new Expr.IntConst(p, CType.Prim.INT, 1), null));
            out.add(new Stmt.If(p, new Expr.Unary(p, CType.Prim.INT, Expr.UnaryOp.NOT, ref),
                    new Stmt.Block(p, between), null));
            out.add(new Stmt.ExprStmt(p, new Expr.Assign(p, CType.Prim.INT, ref,
                    new Expr.IntConst(p, CType.Prim.INT, 0))));
        }
        out.addAll(test);
        out.add(lowerStmt(body));
        return new Stmt.For(p, loopInit, null, loopUpdate, new Stmt.Block(p, out));
    }

    /**
     * Moves every yield point of {@code e} (innermost first) into a statement of its own appended to
     * {@code pre}, and returns {@code e} with each replaced by the temporary holding its result.
     */
    private Expr hoist(Expr e, List<Stmt> pre) {
        if (e == null || !containsYield(e)) {
            return e;
        }
        if (e instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.LOGICAL_AND || b.op() == Expr.BinaryOp.LOGICAL_OR)
                && containsYield(b.right())) {
            return shortCircuit(b, pre);
        }
        if (e instanceof Expr.Conditional c && (containsYield(c.ifTrue()) || containsYield(c.ifFalse()))) {
            return choice(c, pre);
        }
        Pos p = e.pos();
        Expr rebuilt = rebuild(e, pre);
        if (!isYield(rebuilt)) {
            return rebuilt;
        }
        if (rebuilt.type() == CType.Prim.VOID) {
            pre.add(new Stmt.ExprStmt(p, rebuilt));
            return new Expr.IntConst(p, CType.Prim.INT, 0);
        }
        Expr.VarRef ref = temp(p, "$yield", rebuilt.type(), null, pre);
        pre.add(new Stmt.ExprStmt(p, new Expr.Assign(p, ref.type(), ref, rebuilt)));
        return ref;
    }

    /**
     * {@code a && y} or {@code a || y} whose right operand holds a yield point, evaluated as C++ does, {@code y}
     * only where {@code a} does not decide the result:
     * <pre>
     * a &amp;&amp; y  ->  hoisted(a)…; bool $cond = (bool) a'; if ($cond)  { hoisted(y)…; $cond = (bool) y'; }
     * a || y  ->  hoisted(a)…; bool $cond = (bool) a'; if (!$cond) { hoisted(y)…; $cond = (bool) y'; }
     * </pre>
     * The {@code if} holds its yield points as statements, like any other {@code if}.
     */
    private Expr shortCircuit(Expr.Binary b, List<Stmt> pre) {
        Pos p = b.pos();
        Expr left = hoist(b.left(), pre);
        Expr.VarRef result = temp(p, "$cond", CType.Prim.BOOL, truth(left), pre);
        List<Stmt> right = new ArrayList<>();
        Expr value = hoist(b.right(), right);
        right.add(new Stmt.ExprStmt(p, new Expr.Assign(p, CType.Prim.BOOL, result, truth(value))));
        Expr test = b.op() == Expr.BinaryOp.LOGICAL_AND ? result
                : new Expr.Unary(p, CType.Prim.BOOL, Expr.UnaryOp.NOT, result);
        pre.add(new Stmt.If(p, test, new Stmt.Block(p, right), null));
        return result;
    }

    /**
     * {@code c ? x : y} with a yield point in {@code x} or {@code y}: an {@code if}/{@code else} that evaluates
     * one of them into a temporary ({@code if (c') { hoisted(x)…; $choice = x'; } else { …; $choice = y'; }}),
     * or just runs it where the result is {@code void}.
     */
    private Expr choice(Expr.Conditional q, List<Stmt> pre) {
        Pos p = q.pos();
        Expr condition = hoist(q.condition(), pre);
        Expr.VarRef result = q.type() == CType.Prim.VOID ? null : temp(p, "$choice", q.type(), null, pre);
        pre.add(new Stmt.If(p, condition, arm(q.ifTrue(), result), arm(q.ifFalse(), result)));
        return result == null ? new Expr.IntConst(p, CType.Prim.INT, 0) : result;
    }

    private Stmt arm(Expr x, Expr.VarRef result) {
        Pos p = x.pos();
        List<Stmt> out = new ArrayList<>();
        Expr value = hoist(x, out);
        if (result != null) {
            out.add(new Stmt.ExprStmt(p, new Expr.Assign(p, result.type(), result, value)));
        } else if (!(value instanceof Expr.VarRef) && !(value instanceof Expr.IntConst)) {
            out.add(new Stmt.ExprStmt(p, value));
        }
        return new Stmt.Block(p, out);
    }

    /**
     * True for a temporary of this pass declared without a value: a hoisted yield point's result or a conditional's,
     * which a later statement always assigns before any reads it.
     */
    boolean isUnsetTemporary(Var v) {
        return unset.contains(v);
    }

    /** A new temporary of type {@code t}, declared in {@code pre} with {@code init} (null: none). */
    private Expr.VarRef temp(Pos p, String prefix, CType t, Expr init, List<Stmt> pre) {
        Var v = new Var(prefix + temps, t, Var.Kind.LOCAL, p, -1 - temps);
        temps++;
        if (init == null) {
            unset.add(v);
        }
        pre.add(new Stmt.VarDecl(p, v, init, null));
        return new Expr.VarRef(p, t, v);
    }

    /** {@code x} converted to {@code bool} as a condition reads it (nonzero, non-null). */
    private static Expr truth(Expr x) {
        return x.type() == CType.Prim.BOOL ? x : new Expr.Cast(x.pos(), CType.Prim.BOOL, x);
    }

    /** Rebuilds {@code e} with hoisted children. */
    private Expr rebuild(Expr e, List<Stmt> pre) {
        Pos p = e.pos();
        CType t = e.type();
        return switch (e) {
            case Expr.Unary u -> new Expr.Unary(p, t, u.op(), hoist(u.operand(), pre));
            case Expr.Binary b -> new Expr.Binary(p, t, b.op(), b.operandType(), hoist(b.left(), pre),
                    hoist(b.right(), pre));
            case Expr.Assign a -> new Expr.Assign(p, t, hoistLvalue(a.target(), pre), hoist(a.value(), pre));
            case Expr.CompoundAssign a -> new Expr.CompoundAssign(p, t, a.op(), a.operandType(),
                    hoistLvalue(a.target(), pre), hoist(a.value(), pre));
            case Expr.IncDec i -> new Expr.IncDec(p, t, hoistLvalue(i.target(), pre), i.prefix(), i.increment());
            case Expr.Conditional c -> new Expr.Conditional(p, t, hoist(c.condition(), pre), c.ifTrue(), c.ifFalse());
            case Expr.Cast c -> new Expr.Cast(p, t, hoist(c.operand(), pre));
            case Expr.BitCast c -> new Expr.BitCast(p, t, hoist(c.operand(), pre));
            case Expr.Deref d -> new Expr.Deref(p, t, hoist(d.pointer(), pre));
            case Expr.AddrOf a -> new Expr.AddrOf(p, t, hoistLvalue(a.operand(), pre));
            case Expr.Decay d -> new Expr.Decay(p, t, hoistLvalue(d.array(), pre));
            case Expr.PtrAdd a -> new Expr.PtrAdd(p, t, hoist(a.pointer(), pre), hoist(a.index(), pre), a.negate());
            case Expr.PtrDiff d -> new Expr.PtrDiff(p, t, hoist(d.left(), pre), hoist(d.right(), pre));
            case Expr.Call c -> new Expr.Call(p, t, c.function(), hoistAll(c.args(), pre));
            case Expr.IntrinsicCall c -> new Expr.IntrinsicCall(p, t, c.intrinsic(), hoistAll(c.args(), pre));
            case Expr.MakeVector m -> new Expr.MakeVector(p, t, hoistAll(m.components(), pre));
            case Expr.Component v -> new Expr.Component(p, t, hoistLvalue(v.vector(), pre), v.index());
            case Expr.Field f -> new Expr.Field(p, t, hoistLvalue(f.struct(), pre), f.member());
            case Expr.MakeStruct m -> new Expr.MakeStruct(p, t, hoistAll(m.parts(), pre));
            case Expr.Comma c -> {
                Expr left = hoist(c.left(), pre);
                if (left != null && !(left instanceof Expr.VarRef) && !(left instanceof Expr.IntConst)) {
                    pre.add(new Stmt.ExprStmt(p, left));
                }
                yield hoist(c.right(), pre);
            }
            default -> e;
        };
    }

    /** Lvalues keep their shape (a variable stays a variable); only their sub-expressions are hoisted. */
    private Expr hoistLvalue(Expr e, List<Stmt> pre) {
        return e instanceof Expr.VarRef ? e : hoist(e, pre);
    }

    private List<Expr> hoistAll(List<Expr> args, List<Stmt> pre) {
        List<Expr> out = new ArrayList<>();
        for (Expr a : args) {
            out.add(hoist(a, pre));
        }
        return out;
    }
}
