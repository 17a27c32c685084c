package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Decides how each loop of a kernel polls the launch's stop request at its back-edge, so that a kernel that never
 * leaves a loop still stops, at as little cost to loops that do as the JIT allows.
 *
 * <p>Why three forms: the poll is a volatile read, and HotSpot's C2 treats a volatile read as a barrier for every
 * later memory access. In a loop, that keeps C2 from hoisting the loads of the buffers' bounds and addresses that
 * each checked access makes ({@code exec.Mem}), so a tight loop read them again at every iteration and ran up to
 * 1.5x slower (docs/benchmarks.md). {@link Kind#COUNTDOWN} keeps the read out of the hot loop: the loop's own
 * back-edge is taken while a local budget lasts, and only when it runs out does control leave for a poll that
 * re-enters the loop through a budget reset, so C2 sees a nested loop whose inner part holds no barrier.
 */
final class LoopPolls {
    /** Back-edges a {@link Kind#COUNTDOWN} loop takes between two polls. */
    static final int BUDGET = 1024;

    /** How a loop polls. */
    enum Kind {
        /** No poll: a counted loop that ends by itself ({@link CountedLoops}), or polls turned off. */
        NONE,
        /**
         * A poll at every back-edge: a loop whose body holds another loop (whose iterations may make one of this
         * loop's take long) or a yield point (where the warp's other lanes run, and which costs far more than the
         * poll).
         */
        EVERY,
        /**
         * A poll every {@link #BUDGET} back-edges: an innermost loop without yield points, whose body is straight-line
         * code (a sleep in it polls by itself), so the budget bounds the time until a stop is noticed.
         */
        COUNTDOWN
    }

    private final Plan plan;
    private final CountedLoops counted;
    private final boolean enabled;
    private final Map<Function, Boolean> functionLoops = new IdentityHashMap<>();

    /** {@code enabled} false turns every loop's poll off (for measuring their cost only). */
    LoopPolls(Plan plan, boolean enabled) {
        this.plan = plan;
        this.counted = new CountedLoops(plan);
        this.enabled = enabled;
    }

    /** How {@code loop} (a {@code for}, {@code while} or {@code do} statement) polls. */
    Kind kind(Stmt loop) {
        if (!enabled || loop instanceof Stmt.For f && counted.isCounted(f)) {
            return Kind.NONE;
        }
        if (plan.cooperative() && plan.lowering.containsYield(loop) || holdsLoop(loop)) {
            return Kind.EVERY;
        }
        return Kind.COUNTDOWN;
    }

    /**
     * For a {@link Kind#COUNTDOWN} {@code for} loop of the strided form ({@link CountedLoops#strided}), that form:
     * the loop then also gets a copy without the countdown, taken when a check at its entry shows that it ends by
     * itself; null for other loops.
     */
    CountedLoops.Strided strided(Stmt loop) {
        return loop instanceof Stmt.For f && kind(loop) == Kind.COUNTDOWN ? counted.strided(f) : null;
    }

    /** True if an iteration of {@code loop} may run another loop. */
    private boolean holdsLoop(Stmt loop) {
        return switch (loop) {
            case Stmt.For f -> containsLoop(f.condition()) || containsLoop(f.update()) || containsLoop(f.body());
            case Stmt.While w -> containsLoop(w.condition()) || containsLoop(w.body());
            case Stmt.DoWhile w -> containsLoop(w.body()) || containsLoop(w.condition());
            default -> throw new IllegalArgumentException("not a loop: " + loop);
        };
    }

    /** True if {@code s} holds a loop, directly or in a {@code __device__} function it calls (they are inlined). */
    private boolean containsLoop(Stmt s) {
        return switch (s) {
            case null -> false;
            case Stmt.For f -> true;
            case Stmt.While w -> true;
            case Stmt.DoWhile w -> true;
            case Stmt.Block b -> b.statements().stream().anyMatch(this::containsLoop);
            case Stmt.VarDecl d -> containsLoop(d.init())
                    || d.arrayInit() != null && d.arrayInit().stream().anyMatch(this::containsLoop);
            case Stmt.ExprStmt e -> containsLoop(e.expr());
            case Stmt.If i -> containsLoop(i.condition()) || containsLoop(i.then()) || containsLoop(i.otherwise());
            case Stmt.Return r -> containsLoop(r.value());
            case Stmt.Switch sw -> containsLoop(sw.selector())
                    || sw.cases().stream().anyMatch(c -> c.statements().stream().anyMatch(this::containsLoop));
            case Stmt.Break b -> false;
            case Stmt.Continue c -> false;
            case Stmt.Empty e -> false;
        };
    }

    private boolean containsLoop(Expr e) {
        if (e == null) {
            return false;
        }
        if (e instanceof Expr.Call call && functionContainsLoop(call.function())) {
            return true;
        }
        return Exprs.children(e).stream().anyMatch(this::containsLoop);
    }

    private boolean functionContainsLoop(Function f) {
        Boolean known = functionLoops.get(f);
        if (known == null) {
            // A function being looked at counts as loop-free while it is: recursion is refused elsewhere.
            functionLoops.put(f, false);
            known = containsLoop(f.body());
            functionLoops.put(f, known);
        }
        return known;
    }
}
