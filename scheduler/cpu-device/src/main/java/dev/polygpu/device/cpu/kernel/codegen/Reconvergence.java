package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides which loops of a kernel need a reconvergence point ({@link Intrinsic#WARP_RECONVERGE}) at the end of
 * their body, so that the block scheduler's rule — serve the lanes waiting at the earliest yield site first —
 * gives the reconvergence of a GPU's warp at the immediate post-dominator of each branch.
 *
 * <p>Yield sites are numbered in the order the code is laid out, and structured code lays out a branch's
 * reconvergence point after both its sides and a loop's exit after its body. Resuming the lanes at the
 * smallest site first therefore lets the lanes behind catch up before the others go on, except where a lane
 * goes back: a lane that finishes an iteration and branches back to the loop's first site would get ahead of a
 * lane still waiting at a later site of the same iteration. A loop whose body can end an iteration without
 * passing its last site (that site is conditional, or a {@code continue} can skip it) gets a reconvergence
 * point where the iteration ends, after every site of the body and before every site after the loop; there
 * the lanes going round again wait for the rest of the iteration.
 *
 * <p>A loop needs none when its body's last yield is an <em>anchor</em>: a barrier, warp intrinsic or warp step
 * that is a statement of the body itself (not inside an {@code if}, switch or inner loop, and not after a
 * {@code continue} that could skip it), or a call of an inlined function whose body ends that way with no
 * {@code return} before it. Every lane that ends an iteration has then stopped at the anchor, with no lane of
 * the warp behind it, so no lane can overtake another (the anchor costs nothing extra: the warp-reduction loop
 * {@code for (o = 16; o > 0; o /= 2) v += __shfl_down_sync(…)} keeps one yield per iteration). Kernels with
 * block barriers only run whole phases of the block and need no reconvergence points at all.
 */
final class Reconvergence {
    private final YieldLowering lowering;
    private final boolean warpLevel;
    private final Map<Function, Boolean> warpYields = new IdentityHashMap<>();

    Reconvergence(Function kernel, YieldLowering lowering) {
        this.lowering = lowering;
        this.warpLevel = lowering.hasYields(kernel) && hasWarpYield(kernel);
    }

    /** True if the loop whose lowered body is {@code body} needs a reconvergence point at its end. */
    boolean needsPoint(Stmt body) {
        return warpLevel && lowering.containsYield(body) && !anchored(body, false);
    }

    /** True if {@code f} or a function it calls has a warp-level yield point (anything but a block barrier). */
    private boolean hasWarpYield(Function f) {
        Boolean known = warpYields.get(f);
        if (known != null) {
            return known;
        }
        warpYields.put(f, false);
        boolean result = warpYieldIn(lowering.body(f));
        warpYields.put(f, result);
        return result;
    }

    private boolean warpYieldIn(Stmt s) {
        return switch (s) {
            case null -> false;
            case Stmt.Block b -> b.statements().stream().anyMatch(this::warpYieldIn);
            case Stmt.VarDecl d -> warpYieldIn(d.init())
                    || d.arrayInit() != null && d.arrayInit().stream().anyMatch(this::warpYieldIn);
            case Stmt.ExprStmt e -> warpYieldIn(e.expr());
            case Stmt.If i -> warpYieldIn(i.condition()) || warpYieldIn(i.then()) || warpYieldIn(i.otherwise());
            case Stmt.While w -> warpYieldIn(w.condition()) || warpYieldIn(w.body());
            case Stmt.DoWhile w -> warpYieldIn(w.condition()) || warpYieldIn(w.body());
            case Stmt.For f -> f.init().stream().anyMatch(this::warpYieldIn) || warpYieldIn(f.condition())
                    || warpYieldIn(f.body());
            case Stmt.Return r -> warpYieldIn(r.value());
            case Stmt.Switch sw -> warpYieldIn(sw.selector())
                    || sw.cases().stream().anyMatch(c -> c.statements().stream().anyMatch(this::warpYieldIn));
            default -> false;
        };
    }

    private boolean warpYieldIn(Expr e) {
        if (e == null) {
            return false;
        }
        if (e instanceof Expr.IntrinsicCall c && c.intrinsic().isYieldPoint() && !c.intrinsic().isBlockBarrier()) {
            return true;
        }
        if (e instanceof Expr.Call c && lowering.hasYields(c.function()) && hasWarpYield(c.function())) {
            return true;
        }
        for (Expr x : Exprs.children(e)) {
            if (warpYieldIn(x)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True if every path through {@code body} that reaches its end (or a {@code continue}) stops at its last
     * yield: that yield is an anchor and nothing before it jumps past it. In an inlined function's body
     * ({@code inFunction}) a {@code return} jumps past it too.
     */
    private boolean anchored(Stmt body, boolean inFunction) {
        List<Stmt> seq = new ArrayList<>();
        flatten(body, seq);
        int last = -1;
        for (int i = 0; i < seq.size(); i++) {
            if (lowering.containsYield(seq.get(i))) {
                last = i;
            }
        }
        if (last < 0) {
            return false;
        }
        for (int i = 0; i < last; i++) {
            if (skipsAhead(seq.get(i), false, inFunction)) {
                return false;
            }
        }
        return isAnchor(seq.get(last));
    }

    /** The statements of {@code s} in the order they run, blocks (which only group) opened. */
    private static void flatten(Stmt s, List<Stmt> out) {
        if (s instanceof Stmt.Block b) {
            for (Stmt x : b.statements()) {
                flatten(x, out);
            }
        } else if (s != null) {
            out.add(s);
        }
    }

    /** A yield point standing alone as a statement, or a call of an inlined function that ends in one. */
    private boolean isAnchor(Stmt s) {
        if (!(s instanceof Stmt.ExprStmt e)) {
            return false;
        }
        Expr x = e.expr();
        if (x instanceof Expr.Assign a && a.target() instanceof Expr.VarRef) {
            x = a.value();
        }
        if (x instanceof Expr.IntrinsicCall c) {
            return c.intrinsic().isYieldPoint();
        }
        return x instanceof Expr.Call c && lowering.hasYields(c.function())
                && anchored(lowering.body(c.function()), true);
    }

    /**
     * True if {@code s} may jump forward within the body being examined, past the statements after it: a
     * {@code continue} of that loop (not of a loop inside {@code s}), or in an inlined function a {@code return}.
     */
    private static boolean skipsAhead(Stmt s, boolean inInnerLoop, boolean inFunction) {
        return switch (s) {
            case null -> false;
            case Stmt.Continue c -> !inInnerLoop;
            case Stmt.Return r -> inFunction;
            case Stmt.Block b -> b.statements().stream().anyMatch(x -> skipsAhead(x, inInnerLoop, inFunction));
            case Stmt.If i -> skipsAhead(i.then(), inInnerLoop, inFunction)
                    || skipsAhead(i.otherwise(), inInnerLoop, inFunction);
            case Stmt.While w -> skipsAhead(w.body(), true, inFunction);
            case Stmt.DoWhile w -> skipsAhead(w.body(), true, inFunction);
            case Stmt.For f -> skipsAhead(f.body(), true, inFunction);
            case Stmt.Switch sw -> sw.cases().stream()
                    .anyMatch(c -> c.statements().stream().anyMatch(x -> skipsAhead(x, inInnerLoop, inFunction)));
            default -> false;
        };
    }
}
