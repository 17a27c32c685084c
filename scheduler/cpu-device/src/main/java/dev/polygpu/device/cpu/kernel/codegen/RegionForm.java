package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The barrier-region form of a kernel whose yield points are block barriers ({@code __syncthreads()},
 * {@code __syncthreads_count/_and/_or}) in block-uniform control flow ({@link Uniformity}) and warp intrinsics in
 * control flow that is uniform or uniform within one side of a thread-dependent {@code if} ({@link WarpOp},
 * {@link Masked}), with the {@code __device__} functions that hold them written out ({@link WarpInline}). The
 * kernel body becomes a tree: the uniform loops and {@code if}s that hold barriers and warp intrinsics run once per
 * block, and each stretch of code between two of those is a {@link Region}, which {@link RegionEmitter} runs as
 * one loop over the block's threads (or a warp's, in a {@link PerWarp} part).
 *
 * <p>What a variable of the kernel becomes ({@link VarUse}): a variable of the uniform skeleton (assigned only in
 * the init and update of a loop that holds barriers, or by a predicated barrier) and a uniform variable assigned
 * only by its declaration stay in one JVM local for the whole block; another uniform variable that the skeleton
 * reads is saved per thread and, after each region that assigns it, reloaded from the last thread that finished
 * that region; a variable assigned only by its declaration from threadIdx, the block's extents and such is
 * computed again at the start of each later region that reads it; any other variable that two regions reference
 * lives in per-thread arrays, loaded at the start of each region that reads it and stored at the end of each
 * region that assigns it. A thread that returns is marked exited and skipped by every later region.
 */
final class RegionForm {
    /** A part of the kernel body's tree. */
    sealed interface Node permits Seq, RegionRef, Barrier, Loop, Cond, Sweep, WarpOp, Masked, PerWarp {}

    /** Parts run in order. */
    record Seq(List<Node> parts) implements Node {}

    /**
     * A block barrier: {@code __syncthreads()} ({@code target} null), or {@code __syncthreads_count/_and/_or}, whose
     * predicates the region just before it (a {@link Region#predicate} region) counted and whose result it stores
     * into {@code target}, the same for every thread.
     */
    record Barrier(Pos pos, Intrinsic kind, Var target) implements Node {}

    /** A uniform loop that holds barriers: a {@code for} ({@code init}, {@code update}), {@code while} or {@code do}. */
    record Loop(Stmt loop, List<Stmt> init, Expr condition, Expr update, Node body, boolean testLast)
            implements Node {}

    /** A uniform {@code if} that holds barriers; {@code otherwise} may be an empty sequence. */
    record Cond(Expr condition, Node then, Node otherwise) implements Node {}

    /**
     * A thread-dependent loop without barriers run iteration-major ({@link Interchange}): region {@code index}
     * (a {@link Region#loop} region) runs a few iterations of every live thread whose loop has not ended, again
     * and again until every thread's has. The region before it ran the loop's init in each thread.
     */
    record Sweep(int index) implements Node {}

    /**
     * A warp intrinsic ({@code __shfl*_sync}, votes, {@code __reduce_*_sync}, {@code __activemask}, {@code __syncwarp})
     * met by the live lanes of each warp (of the running one, in a {@link PerWarp} part): the region before it deposited each lane's operands
     * ({@link Region#deposit}), and the region after it gives each lane its result ({@link Region#result}).
     */
    record WarpOp(Pos pos, Intrinsic op) implements Node {}

    /**
     * An {@code if} whose condition is not uniform and which holds warp intrinsics: region {@code condition} (a
     * {@link Region#mask} region) marks each live thread whose condition fails as skipped; {@code then}
     * runs in the others, then the marks are flipped for {@code otherwise}, then cleared. As on a GPU, the lanes of a
     * warp that take a side meet at its warp intrinsics without the others.
     */
    record Masked(int condition, Node then, Node otherwise) implements Node {}

    /**
     * Parts between block barriers that hold warp intrinsics, run warp by warp: each region in them runs as one loop
     * over the lanes of the running warp. This is the order the cooperative scheduler runs such code in, warp after
     * warp up to the next block barrier, which a kernel that prints keeps ({@link WarpGrouping}).
     */
    record PerWarp(Node body) implements Node {}

    /** Statements without barriers, run by every live thread of the block before any goes past its end. */
    static final class Region {
        final List<Stmt> statements;
        /** Saved variables the region reads that it does not declare: loaded per thread at its start. */
        final List<Var> loads = new ArrayList<>();
        /** Saved variables the region declares or assigns: stored per thread at its end. */
        final List<Var> stores = new ArrayList<>();
        /** Recomputed variables the region reads but another region declares, in declaration order. */
        final List<Var> recompute = new ArrayList<>();
        /** The kernel's local-memory variables the region references, pointed at the running thread's memory. */
        final List<Var> localMemory = new ArrayList<>();
        /**
         * Saved variables the skeleton reads that the region stores: after its loop each is reloaded from the
         * last thread that finished the region, which holds the value every live thread has.
         */
        final List<Var> reloads = new ArrayList<>();
        /** True if a thread may return in this region. */
        boolean returns;
        /**
         * For the region that evaluates a predicated barrier's predicate in each live thread (its only statement
         * is that predicate, for the analyses), the predicate; null for the others.
         */
        final Expr predicate;
        /**
         * For the region of a {@link Sweep}, the loop ({@code for} or {@code while}) whose condition, body and
         * update one pass of the region runs in each thread (its statements are those three, for the analyses);
         * null for the others.
         */
        final Stmt loop;
        /**
         * The warp intrinsic whose operands each lane deposits at the end of the region (its statements end with
         * them, for the analyses); null for none.
         */
        Expr.IntrinsicCall deposit;
        /**
         * The variable each lane gets the result of the warp intrinsic before the region in, at its start (its first
         * statement stands for that assignment, for the analyses, and is not run); null for none.
         */
        Var result;
        /** For the region of a {@link Masked} part, the condition each lane evaluates; null for the others. */
        Expr mask;

        Region(List<Stmt> statements, Expr predicate, Stmt loop) {
            this.statements = statements;
            this.predicate = predicate;
            this.loop = loop;
        }
    }

    final Node root;
    final List<Region> regions = new ArrayList<>();
    /** Variables kept per thread across barriers, in the order of their slots. */
    final List<Var> saved = new ArrayList<>();
    /** Assigned kernel parameters (among {@link #saved}): every thread's copy starts as the launch's value. */
    final List<Var> savedParams = new ArrayList<>();
    /** Saved variables that the skeleton reads too: uniform, but assigned in regions. */
    final Set<Var> skeletonSaved = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The declaration's initializer of each recomputed variable. */
    final Map<Var, Expr> recomputed = new IdentityHashMap<>();
    /** True if some region may return, so threads can exit before the end. */
    final boolean exits;
    /** How many loops run iteration-major ({@link Sweep}). */
    final int sweeps;
    /** How many warp intrinsics run as {@link WarpOp} parts. */
    final int warpOps;
    /** True if some {@code if} runs as a {@link Masked} part, so lanes may be marked skipped. */
    final boolean masked;

    private RegionForm(Node root, boolean exits, int sweeps, int warpOps, boolean masked) {
        this.root = root;
        this.exits = exits;
        this.sweeps = sweeps;
        this.warpOps = warpOps;
        this.masked = masked;
    }

    /** The region form of {@code plan}'s kernel, or null if it does not qualify (it then stays cooperative). */
    static RegionForm of(Plan plan) {
        if (!plan.cooperative()) {
            return null;
        }
        Stmt.Block body = WarpInline.inline(plan, plan.lowering.body(plan.kernel));
        if (body == null || !onlySupportedYields(plan, body)) {
            return null;
        }
        for (Var p : plan.kernel.params) {
            // A parameter whose address is taken lives in local memory, which each thread would have to fill.
            if (plan.storage.get(p) == Plan.Storage.LOCAL_MEMORY) {
                return null;
            }
        }
        VarUse use = new VarUse(plan, body);
        Uniformity u = new Uniformity(plan, body, use.candidates());
        Builder b = new Builder(plan, u, new Interchange(plan, u));
        Node root = b.seq(body);
        if (root == null || b.failed) {
            return null;
        }
        boolean prints = prints(plan, body);
        if (prints && !b.masks.isEmpty()) {
            return null;
        }
        RegionForm form = new RegionForm(prints ? WarpGrouping.group(root) : root,
                b.regions.stream().anyMatch(VarUse::returns),
                b.loops.size(), b.warpOps, !b.masks.isEmpty());
        for (int i = 0; i < b.regions.size(); i++) {
            Stmt.Block r = b.regions.get(i);
            Region region = new Region(r.statements(), b.predicates.get(r), b.loops.get(r));
            region.deposit = b.deposits.get(i);
            region.result = b.results.get(i);
            region.mask = b.masks.get(i);
            form.regions.add(region);
        }
        return use.assign(form, u, b.skeletonAssigned, b.barrierTargets, b.skeletonRead) ? form : null;
    }

    /**
     * True if every yield point of the kernel is a block barrier or warp intrinsic of its own body (none in a
     * called function: {@link WarpInline} wrote out the calls of those that hold one) and neither it nor a function
     * it calls sleeps or reads the clock, whose per-thread clocks follow the cooperative scheduler's phases.
     */
    private static boolean onlySupportedYields(Plan plan, Stmt body) {
        boolean[] ok = {true};
        Set<Function> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Statements.forEachExpr(body, e -> ok[0] &= acceptable(plan, e, seen, true));
        return ok[0];
    }

    private static boolean acceptable(Plan plan, Expr e, Set<Function> seen, boolean inKernel) {
        if (e instanceof Expr.IntrinsicCall c) {
            Intrinsic i = c.intrinsic();
            if (i == Intrinsic.NANOSLEEP || i == Intrinsic.CLOCK64
                    || i.isYieldPoint() && !inKernel) {
                return false;
            }
        }
        if (e instanceof Expr.Call call) {
            if (plan.lowering.hasYields(call.function())) {
                return false;
            }
            if (seen.add(call.function())) {
                boolean[] ok = {true};
                Statements.forEachExpr(plan.lowering.body(call.function()),
                        x -> ok[0] &= acceptable(plan, x, seen, false));
                if (!ok[0]) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * True if the kernel prints or asserts. Lanes that take the two sides of a {@link Masked} {@code if} run them one
     * side after the other, where the cooperative scheduler interleaves them up to their next warp intrinsic; the
     * order of such a kernel's output lines would differ, so it keeps the cooperative form.
     */
    private static boolean prints(Plan plan, Stmt body) {
        boolean[] found = {false};
        Set<Function> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Statements.forEachExpr(body, e -> found[0] |= prints(plan, e, seen));
        return found[0];
    }

    private static boolean prints(Plan plan, Expr e, Set<Function> seen) {
        if (e instanceof Expr.IntrinsicCall c) {
            return c.intrinsic() == Intrinsic.PRINTF || c.intrinsic() == Intrinsic.ASSERT
                    || c.intrinsic() == Intrinsic.TRAP;
        }
        if (e instanceof Expr.Call call && seen.add(call.function())) {
            boolean[] found = {false};
            Statements.forEachExpr(plan.lowering.body(call.function()), x -> found[0] |= prints(plan, x, seen));
            return found[0];
        }
        return false;
    }

    /** Builds the tree, checking that every statement holding a barrier is a uniform structure. */
    private static final class Builder {
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
        final Map<Integer, Expr.IntrinsicCall> deposits = new java.util.HashMap<>();
        /** By region index: the variable that gets the result of the warp intrinsic before the region. */
        final Map<Integer, Var> results = new java.util.HashMap<>();
        /** By region index: the condition of a {@link Masked} part. */
        final Map<Integer, Expr> masks = new java.util.HashMap<>();
        int warpOps;
        /** True while building the sides of a {@link Masked} part (they may not hold another). */
        private boolean inMasked;
        /** The variable the next region must give the result of the warp intrinsic just built, or null. */
        private Var pendingResult;
        boolean failed;

        Builder(Plan plan, Uniformity u, Interchange interchange) {
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
            if (result == null && run.stream().allMatch(Builder::noOp)) {
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
            warpOps++;
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

    /** A region in the tree before its variables are known: replaced by the {@link Region} of that index. */
    record RegionRef(int index) implements Node {}

    Region region(RegionRef r) {
        return regions.get(r.index());
    }
}
