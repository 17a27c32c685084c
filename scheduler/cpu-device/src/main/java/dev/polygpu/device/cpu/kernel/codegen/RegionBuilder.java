package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Barrier;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Cond;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Loop;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Masked;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Node;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.RegionRef;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Seq;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Sweep;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.WarpOp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds a kernel body's {@link RegionForm} tree, checking that every statement holding a barrier or warp intrinsic
 * is a structure the form allows: uniform loops and {@code if}s, thread-dependent {@code if}s one deep for warp
 * intrinsics ({@link Masked}), and the statements between them as regions, with the loops {@link Interchange} picks
 * split out as {@link Sweep}s. {@link RegionForm#of} turns what it collects into the form.
 */
final class RegionBuilder {
    private final Plan plan;
    private final Uniformity u;
    private final Interchange interchange;
    final List<Stmt.Block> regions = new ArrayList<>();
    /** The loop of each region that runs one as a {@link Sweep}. */
    final Map<Stmt.Block, Stmt> loops = new IdentityHashMap<>();
    /** The predicate of each region that evaluates one for a predicated barrier. */
    final Map<Stmt.Block, Expr> predicates = new IdentityHashMap<>();
    /** The variables that predicated barriers store their results into. */
    final Set<Var> barrierTargets = Collections.newSetFromMap(new IdentityHashMap<>());
    final Set<Var> skeletonAssigned = Collections.newSetFromMap(new IdentityHashMap<>());
    final List<Expr> skeletonRead = new ArrayList<>();
    /** By region index: the warp intrinsic whose operands the region deposits at its end. */
    final Map<Integer, Expr.IntrinsicCall> deposits = new HashMap<>();
    /** By region index: the variable that gets the result of the warp intrinsic before the region. */
    final Map<Integer, Var> results = new HashMap<>();
    /** By region index: the condition of a {@link Masked} part. */
    final Map<Integer, Expr> masks = new HashMap<>();
    /** True while building the sides of a {@link Masked} part (they may not hold another). */
    private boolean inMasked;
    /** The variable the next region must give the result of the warp intrinsic just built, or null. */
    private Var pendingResult;
    boolean failed;

    RegionBuilder(Plan plan, Uniformity u, Interchange interchange) {
        this.plan = plan;
        this.u = u;
        this.interchange = interchange;
    }

    /** The statements of {@code s} (a block, or one statement) as a sequence; null if one does not qualify. */
    Node seq(Stmt s) {
        if (pendingResult != null) {
            throw new IllegalStateException("a warp intrinsic's result left for no region");
        }
        List<Node> parts = new ArrayList<>();
        List<Stmt> run = new ArrayList<>();
        List<Stmt> list = s == null ? List.of() : s instanceof Stmt.Block b ? b.statements() : List.of(s);
        for (Stmt x : list) {
            if (!plan.lowering.containsYield(x)) {
                run.add(x);
                continue;
            }
            if (warpStatement(x, run, parts)) {
                continue;
            }
            flush(run, parts);
            Node n = skeleton(x);
            if (n == null) {
                return null;
            }
            parts.add(n);
        }
        flush(run, parts);
        return new Seq(parts);
    }

    /**
     * Ends a run of statements without barriers: one region, or, around each loop that runs iteration-major,
     * a region up to the loop's init, the loop's {@link Sweep} and what follows.
     */
    private void flush(List<Stmt> run, List<Node> parts) {
        for (int i = 0; i < run.size(); i++) {
            Stmt s = run.get(i);
            if (interchange.qualifies(s)) {
                List<Stmt> before = new ArrayList<>(run.subList(0, i));
                List<Stmt> after = new ArrayList<>(run.subList(i + 1, run.size()));
                if (s instanceof Stmt.For f) {
                    before.addAll(f.init());
                }
                run.clear();
                region(before, parts);
                sweep(s, parts);
                flush(after, parts);
                return;
            }
        }
        region(run, parts);
    }

    private void sweep(Stmt loop, List<Node> parts) {
        List<Stmt> analysed = new ArrayList<>();
        switch (loop) {
            case Stmt.For f -> {
                analysed.add(new Stmt.ExprStmt(f.pos(), f.condition()));
                analysed.add(f.body());
                if (f.update() != null) {
                    analysed.add(new Stmt.ExprStmt(f.pos(), f.update()));
                }
            }
            case Stmt.While w -> {
                analysed.add(new Stmt.ExprStmt(w.pos(), w.condition()));
                analysed.add(w.body());
            }
            default -> throw new IllegalArgumentException("not a loop to interchange: " + loop);
        }
        Stmt.Block b = new Stmt.Block(loop.pos(), List.copyOf(analysed));
        regions.add(b);
        loops.put(b, loop);
        parts.add(new Sweep(regions.size() - 1));
    }

    private void region(List<Stmt> run, List<Node> parts) {
        Var result = pendingResult;
        pendingResult = null;
        if (result == null && run.stream().allMatch(RegionBuilder::noOp)) {
            run.clear();
            return;
        }
        if (!Statements.jumpsStayInside(run)) {
            failed = true;
        }
        List<Stmt> statements = new ArrayList<>();
        if (result != null) {
            // Stands for the lane's result of the warp intrinsic before the region, for the analyses.
            Pos p = result.pos;
            Expr.VarRef ref = new Expr.VarRef(p, result.type, result);
            statements.add(new Stmt.ExprStmt(p, new Expr.Assign(p, result.type, ref,
                    new Expr.IntConst(p, CType.Prim.INT, 0))));
        }
        statements.addAll(run);
        Stmt.Block b = new Stmt.Block(statements.get(0).pos(), List.copyOf(statements));
        regions.add(b);
        if (result != null) {
            results.put(regions.size() - 1, result);
        }
        parts.add(new RegionRef(regions.size() - 1));
        run.clear();
    }

    /**
     * A statement that meets a warp intrinsic ({@code t = __shfl_sync(…)}, {@code __syncwarp(m)}, a warp step):
     * the statements before it end a region, which deposits the intrinsic's operands (a region of its own where
     * that one runs a loop iteration-major, or there is none), then the {@link WarpOp}; the next region gives
     * each lane its result. A warp step (the lock step of {@code volatile} code) only ends a region: the lanes of
     * the warp all finish the statements before it before any goes on. False for any other statement.
     */
    private boolean warpStatement(Stmt x, List<Stmt> run, List<Node> parts) {
        Expr.IntrinsicCall call = null;
        Var target = null;
        if (x instanceof Stmt.ExprStmt e && e.expr() instanceof Expr.IntrinsicCall c) {
            call = c;
        } else if (x instanceof Stmt.ExprStmt e && e.expr() instanceof Expr.Assign a
                && a.target() instanceof Expr.VarRef t && a.value() instanceof Expr.IntrinsicCall c
                && plan.storage.get(t.var()) == Plan.Storage.SCALAR && !c.type().equals(CType.Prim.VOID)) {
            call = c;
            target = t.var();
        }
        if (call == null || call.intrinsic().isBlockBarrier() || !call.intrinsic().isYieldPoint()) {
            return false;
        }
        int before = parts.size();
        flush(run, parts);
        Intrinsic op = call.intrinsic();
        if (op == Intrinsic.WARP_STEP || op == Intrinsic.WARP_RECONVERGE || op == Intrinsic.ACTIVEMASK
                && target == null) {
            return true;
        }
        if (!call.args().isEmpty()) {
            List<Stmt> operands = new ArrayList<>();
            for (Expr a : call.args()) {
                operands.add(new Stmt.ExprStmt(a.pos(), a));
            }
            int last = regions.size() - 1;
            if (parts.size() > before && parts.getLast() instanceof RegionRef r && r.index() == last
                    && plain(last)) {
                List<Stmt> all = new ArrayList<>(regions.get(last).statements());
                all.addAll(operands);
                regions.set(last, new Stmt.Block(regions.get(last).pos(), List.copyOf(all)));
            } else {
                regions.add(new Stmt.Block(x.pos(), List.copyOf(operands)));
                parts.add(new RegionRef(regions.size() - 1));
            }
            deposits.put(regions.size() - 1, call);
        }
        parts.add(new WarpOp(call.pos(), op));
        pendingResult = target;
        return true;
    }

    /** True for a region that only runs statements (no predicate, loop, condition or deposit of its own). */
    private boolean plain(int index) {
        Stmt.Block b = regions.get(index);
        return !predicates.containsKey(b) && !loops.containsKey(b) && !masks.containsKey(index)
                && !deposits.containsKey(index);
    }

    /**
     * An {@code if} with a thread-dependent condition that holds warp intrinsics (no block barrier): a region
     * evaluates the condition in each lane, then each side runs as a sequence of its own.
     */
    private Node masked(Stmt.If i) {
        Stmt.Block b = new Stmt.Block(i.pos(), List.of(new Stmt.ExprStmt(i.pos(), i.condition())));
        regions.add(b);
        int index = regions.size() - 1;
        masks.put(index, i.condition());
        inMasked = true;
        Node then = seq(i.then());
        Node otherwise = seq(i.otherwise());
        inMasked = false;
        return then == null || otherwise == null ? null : new Masked(index, then, otherwise);
    }

    private static boolean holdsBlockBarrier(Stmt s) {
        boolean[] found = {false};
        Statements.forEachExpr(s, e -> found[0] |= e instanceof Expr.IntrinsicCall c
                && c.intrinsic().isBlockBarrier());
        return found[0];
    }

    private static boolean noOp(Stmt s) {
        return s instanceof Stmt.Empty || s instanceof Stmt.ExprStmt e && e.expr() instanceof Expr.IntConst;
    }

    private Node skeleton(Stmt s) {
        return switch (s) {
            case Stmt.Block b -> seq(b);
            case Stmt.ExprStmt e when e.expr() instanceof Expr.IntrinsicCall c
                    && c.intrinsic() == Intrinsic.SYNCTHREADS -> new Barrier(e.pos(), c.intrinsic(), null);
            case Stmt.ExprStmt e when e.expr() instanceof Expr.Assign a && a.target() instanceof Expr.VarRef t
                    && a.value() instanceof Expr.IntrinsicCall c && c.intrinsic().isBlockBarrier()
                    && c.intrinsic() != Intrinsic.SYNCTHREADS && t.var().kind == Var.Kind.LOCAL
                    && plan.storage.get(t.var()) == Plan.Storage.SCALAR -> predicated(e, t.var(), c);
            case Stmt.If i when !inMasked && !u.isUniform(i.condition()) && !holdsBlockBarrier(i) -> masked(i);
            case Stmt.If i when uniformRead(i.condition()) -> {
                Node then = seq(i.then());
                Node otherwise = seq(i.otherwise());
                yield then == null || otherwise == null ? null : new Cond(i.condition(), then, otherwise);
            }
            case Stmt.While w when uniformRead(w.condition()) -> loop(w, List.of(), w.condition(), null,
                    w.body(), false);
            case Stmt.DoWhile w when uniformRead(w.condition()) -> loop(w, List.of(), w.condition(), null,
                    w.body(), true);
            case Stmt.For f when f.init().stream().allMatch(this::uniformInit) && uniformRead(f.condition())
                    && uniformUpdate(f.update()) -> loop(f, f.init(), f.condition(), f.update(), f.body(), false);
            default -> null;
        };
    }

    /**
     * A predicated barrier {@code t = __syncthreads_count(p)}: a region that evaluates {@code p} in each live
     * thread, then the barrier, which stores the result into {@code t}.
     */
    private Node predicated(Stmt.ExprStmt e, Var target, Expr.IntrinsicCall call) {
        Expr p = call.args().get(0);
        Stmt.Block b = new Stmt.Block(e.pos(), List.of(new Stmt.ExprStmt(e.pos(), p)));
        regions.add(b);
        predicates.put(b, p);
        barrierTargets.add(target);
        skeletonAssigned.add(target);
        return new Seq(List.of(new RegionRef(regions.size() - 1), new Barrier(e.pos(), call.intrinsic(), target)));
    }

    private Node loop(Stmt l, List<Stmt> init, Expr cond, Expr update, Stmt body, boolean testLast) {
        Node b = seq(body);
        return b == null ? null : new Loop(l, init, cond, update, b, testLast);
    }

    private boolean uniformRead(Expr e) {
        skeletonRead.add(e);
        return u.isUniform(e);
    }

    private boolean uniformInit(Stmt s) {
        if (s instanceof Stmt.VarDecl d && d.arrayInit() == null && u.isUniform(d.var())) {
            skeletonAssigned.add(d.var());
            return uniformRead(d.init());
        }
        return s instanceof Stmt.ExprStmt e && uniformUpdate(e.expr());
    }

    /** A loop update or init expression: assignments of uniform variables with uniform values, or a comma of them. */
    private boolean uniformUpdate(Expr e) {
        return switch (e) {
            case null -> true;
            case Expr.Comma c -> uniformUpdate(c.left()) && uniformUpdate(c.right());
            case Expr.Assign a -> assignsUniform(a.target()) && uniformRead(a.value());
            case Expr.CompoundAssign a -> assignsUniform(a.target()) && uniformRead(a.value())
                    && Uniformity.safeDivision(a.op(), a.operandType(), a.value());
            case Expr.IncDec a -> assignsUniform(a.target());
            default -> false;
        };
    }

    private boolean assignsUniform(Expr target) {
        if (target instanceof Expr.VarRef v && u.isUniform(v.var()) && !plan.constantParams.contains(v.var())) {
            skeletonAssigned.add(v.var());
            skeletonRead.add(target);
            return true;
        }
        return false;
    }
}
