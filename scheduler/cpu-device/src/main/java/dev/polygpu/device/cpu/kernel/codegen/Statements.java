package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** Walks over statements for the region form's analyses ({@link RegionForm}); never into called functions. */
final class Statements {
    private Statements() {
    }

    /** Calls {@code f} on every statement of {@code s}, {@code s} included, outer ones first. */
    static void forEachStmt(Stmt s, Consumer<Stmt> f) {
        if (s == null) {
            return;
        }
        f.accept(s);
        switch (s) {
            case Stmt.Block b -> b.statements().forEach(x -> forEachStmt(x, f));
            case Stmt.If i -> {
                forEachStmt(i.then(), f);
                forEachStmt(i.otherwise(), f);
            }
            case Stmt.While w -> forEachStmt(w.body(), f);
            case Stmt.DoWhile w -> forEachStmt(w.body(), f);
            case Stmt.For x -> {
                x.init().forEach(y -> forEachStmt(y, f));
                forEachStmt(x.body(), f);
            }
            case Stmt.Switch sw -> sw.cases().forEach(k -> k.statements().forEach(y -> forEachStmt(y, f)));
            default -> { }
        }
    }

    /** The expressions a statement itself holds (not those of the statements nested in it). */
    static List<Expr> ownExprs(Stmt s) {
        java.util.ArrayList<Expr> out = new java.util.ArrayList<>();
        switch (s) {
            case Stmt.VarDecl d -> {
                out.add(d.init());
                if (d.arrayInit() != null) {
                    out.addAll(d.arrayInit());
                }
            }
            case Stmt.ExprStmt e -> out.add(e.expr());
            case Stmt.If i -> out.add(i.condition());
            case Stmt.While w -> out.add(w.condition());
            case Stmt.DoWhile w -> out.add(w.condition());
            case Stmt.For x -> {
                out.add(x.condition());
                out.add(x.update());
            }
            case Stmt.Return r -> out.add(r.value());
            case Stmt.Switch sw -> out.add(sw.selector());
            default -> { }
        }
        out.removeIf(java.util.Objects::isNull);
        return out;
    }

    /** Calls {@code f} on every expression node in {@code s}, sub-expressions included. */
    static void forEachExpr(Stmt s, Consumer<Expr> f) {
        forEachStmt(s, x -> ownExprs(x).forEach(e -> forEachNode(e, f)));
    }

    /**
     * True if {@code e}, or a {@code __device__} function it calls (and so on, each function's lowered body looked at
     * once: {@code seen} holds those already looked at), calls an intrinsic that {@code which} accepts.
     */
    static boolean callsIntrinsic(YieldLowering lowering, Expr e, Predicate<Intrinsic> which, Set<Function> seen) {
        boolean[] found = {false};
        forEachNode(e, x -> found[0] |= !found[0] && callsIntrinsicHere(lowering, x, which, seen));
        return found[0];
    }

    /** As {@link #callsIntrinsic(YieldLowering, Expr, Predicate, Set)} for every expression of {@code s}. */
    static boolean callsIntrinsic(YieldLowering lowering, Stmt s, Predicate<Intrinsic> which, Set<Function> seen) {
        boolean[] found = {false};
        forEachExpr(s, x -> found[0] |= !found[0] && callsIntrinsicHere(lowering, x, which, seen));
        return found[0];
    }

    /** The node {@code x} alone (its operands are visited on their own), or the body of the function it calls. */
    private static boolean callsIntrinsicHere(YieldLowering lowering, Expr x, Predicate<Intrinsic> which,
            Set<Function> seen) {
        if (x instanceof Expr.IntrinsicCall c) {
            return which.test(c.intrinsic());
        }
        return x instanceof Expr.Call call && seen.add(call.function())
                && callsIntrinsic(lowering, lowering.body(call.function()), which, seen);
    }

    /** Calls {@code f} on {@code e} and each of its sub-expressions. */
    static void forEachNode(Expr e, Consumer<Expr> f) {
        if (e == null) {
            return;
        }
        f.accept(e);
        for (Expr c : Exprs.children(e)) {
            forEachNode(c, f);
        }
    }

    /** True if every {@code break} and {@code continue} in {@code run} ends or continues a loop or switch in it. */
    static boolean jumpsStayInside(List<Stmt> run) {
        return run.stream().allMatch(s -> staysInside(s, 0, 0));
    }

    private static boolean staysInside(Stmt s, int loops, int breakable) {
        return switch (s) {
            case null -> true;
            case Stmt.Break b -> breakable > 0;
            case Stmt.Continue c -> loops > 0;
            case Stmt.Block b -> b.statements().stream().allMatch(x -> staysInside(x, loops, breakable));
            case Stmt.If i -> staysInside(i.then(), loops, breakable) && staysInside(i.otherwise(), loops, breakable);
            case Stmt.While w -> staysInside(w.body(), loops + 1, breakable + 1);
            case Stmt.DoWhile w -> staysInside(w.body(), loops + 1, breakable + 1);
            case Stmt.For f -> staysInside(f.body(), loops + 1, breakable + 1);
            case Stmt.Switch sw -> sw.cases().stream()
                    .allMatch(k -> k.statements().stream().allMatch(x -> staysInside(x, loops, breakable + 1)));
            default -> true;
        };
    }
}
