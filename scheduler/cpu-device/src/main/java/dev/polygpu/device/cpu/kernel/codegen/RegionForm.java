package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.Expr;
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
     * met by the live lanes of each warp (of the running one, in a {@link PerWarp} part): the region before it
     * deposited each lane's operands ({@link Region#deposit}), and the region after it gives each lane its result
     * ({@link Region#result}).
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
        /** The {@code threadIdx.x} the region's loop visits, where its body allows fewer than all; else null. */
        ThreadRange range;
        /** For the region of a {@link Sweep} whose loop groups of threads can run as SIMD lanes, their form. */
        LaneForm lanes;
        /** For another region whose threads can run a vector's worth at a time, their form. */
        RegionLanes vectorLanes;

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
    /** True if some {@code if} runs as a {@link Masked} part, so lanes may be marked skipped. */
    final boolean masked;

    private RegionForm(Node root, boolean exits, int sweeps, boolean masked) {
        this.root = root;
        this.exits = exits;
        this.sweeps = sweeps;
        this.masked = masked;
    }

    /** The region form of {@code plan}'s kernel, or null if it does not qualify (it then stays cooperative). */
    static RegionForm of(Plan plan) {
        return plan.cooperative() ? build(plan) : null;
    }

    /**
     * For a kernel without barriers or warp intrinsics, the region form if it runs some loop iteration-major
     * ({@link Sweep}), as the second method the engine chooses per launch ({@code runBlockSwept}); else null. A
     * kernel that prints keeps one form, so that its lines come in one order.
     */
    static RegionForm swept(Plan plan) {
        if (plan.cooperative() || prints(plan, plan.lowering.body(plan.kernel))) {
            return null;
        }
        RegionForm form = build(plan);
        return form != null && form.sweeps > 0 ? form : null;
    }

    private static RegionForm build(Plan plan) {
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
        RegionBuilder b = new RegionBuilder(plan, u, new Interchange(plan, u));
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
                b.loops.size(), !b.masks.isEmpty());
        for (int i = 0; i < b.regions.size(); i++) {
            Stmt.Block r = b.regions.get(i);
            Region region = new Region(r.statements(), b.predicates.get(r), b.loops.get(r));
            region.deposit = b.deposits.get(i);
            region.result = b.results.get(i);
            region.mask = b.masks.get(i);
            form.regions.add(region);
        }
        if (!use.assign(form, u, b.skeletonAssigned, b.barrierTargets, b.skeletonRead)) {
            return null;
        }
        for (Region r : form.regions) {
            r.range = ThreadRange.of(form, r, u);
            if (r.loop instanceof Stmt.For f && !form.exits && !form.masked && r.reloads.isEmpty()
                    && r.localMemory.isEmpty()) {
                // Threads that exit or are masked, and values reloaded from the last thread, are the thread loop's.
                LaneForm lanes = LaneForm.sweep(plan, u, f);
                if (lanes != null && r.loads.contains(lanes.index()) && r.loads.containsAll(lanes.carried())) {
                    r.lanes = lanes;
                }
            } else if (r.loop == null) {
                r.vectorLanes = RegionLanes.of(plan, form, r, u);
            }
        }
        return form;
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
        return Statements.callsIntrinsic(plan.lowering, body,
                i -> i == Intrinsic.PRINTF || i == Intrinsic.ASSERT || i == Intrinsic.TRAP,
                Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    /** A region in the tree before its variables are known: replaced by the {@link Region} of that index. */
    record RegionRef(int index) implements Node {}

    Region region(RegionRef r) {
        return regions.get(r.index());
    }
}
