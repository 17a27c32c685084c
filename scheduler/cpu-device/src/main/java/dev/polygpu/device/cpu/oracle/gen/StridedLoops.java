package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.List;

/**
 * Grid-stride and block-stride loops: an index that starts thread-dependent ({@code gid}, {@code tid}, a masked
 * per-thread expression) and steps by a block-uniform amount ({@code blockDim.x * gridDim.x}, {@code blockDim.x},
 * a uniform expression of at least 32, a constant of at least 32), up or down, as a {@code for} or as a
 * {@code while} whose last statement is the step. These are the loops the engine runs iteration-major in barrier
 * regions (scheduler/README.md, "Barrier regions"), so the construct sometimes stands between two barriers.
 *
 * <p>Every such loop ends: its start, bound and step are written in templates the shrinker cannot undo (a start
 * and bound masked below 4096, a step of at least 32 or the block's or grid's size), so the index never wraps;
 * a {@code while}'s step is a {@linkplain Stmt.Simple#kept() kept} statement. The body reads inputs at indices
 * built from the index, folds them into an accumulator that lives after the loop, writes the thread's own
 * scratch slots, and, where the index is a whole grid's or block's stride from {@code gid} or {@code tid}, the
 * element {@code out_s[i]} of a segment of its own: each element is then reached by one thread only.
 */
final class StridedLoops {
    private final GenState g;
    private final ExprGen ex;
    private final StmtGen st;
    /** The kernel's specials. */
    Var tid;
    Var bid;
    Var gid;
    /** True if blocks or the grid have more than one dimension (blockDim.x is then not the block's size). */
    boolean multiDim;

    StridedLoops(GenState g, ExprGen ex, StmtGen st) {
        this.g = g;
        this.ex = ex;
        this.st = st;
    }

    /** How a loop walks: its index type, start, condition (over $0, the index, and $2), step and ownership. */
    private record Walk(Prim type, Expr start, String cond, Expr bound, String op, Expr step, String owned) {
    }

    /** The statements of one strided loop (with what comes before and after it); null outside the kernel. */
    List<Stmt> loop(Ctx c) {
        if (!c.inKernel() || st.hash == null || gid == null) {
            return null;
        }
        g.cover(Construct.STRIDED_LOOP);
        if (c.loopDepth > 0) {
            g.cover(Construct.NESTED_LOOP);
        }
        Walk w = walk(c);
        List<Stmt> out = new ArrayList<>();
        boolean fenced = c.level == Level.BLOCK && g.on(Construct.BARRIER) && g.rng.percent(35);
        if (fenced) {
            g.cover(Construct.BARRIER);
            out.add(new Stmt.Simple(g.id(), "__syncthreads();", List.of()));
        }
        Var acc = Var.local(g.name("acc"), Prim.ULLONG, Level.THREAD);
        out.add(new Stmt.Decl(g.id(), "", acc, g.literals.integer(Prim.ULLONG, g.rng.nextLong()), Stmt.Init.EXPR));
        c.scope.add(acc);
        Var i = new Var(g.name("i"), w.type, Level.THREAD, false, false);
        Scope s = c.scope.child();
        s.add(i);
        boolean isWhile = g.rng.percent(35);
        // A continue in the while form would skip its step, so its body has no break or continue of its own.
        Ctx body = isWhile ? new Ctx(s, Level.THREAD, null, false, c.loopDepth + 1, c.fn)
                : c.loopBody(s, Level.THREAD);
        List<Stmt> stmts = body(body, i, acc, w);
        Expr bound = w.bound != null ? w.bound : Expr.lit(Prim.INT, "0", 0);
        if (isWhile) {
            out.add(new Stmt.Decl(g.id(), "", i, w.start, Stmt.Init.EXPR));
            stmts.add(new Stmt.Simple(g.id(), "$0 " + w.op + " $1;", List.of(Expr.var(i).asFixed(), w.step), true));
            out.add(new Stmt.Loop(g.id(), Stmt.LoopKind.WHILE, "while (" + w.cond + ")",
                    List.of(Expr.var(i).asFixed(), bound), List.of(), new Stmt.Block(stmts)));
        } else {
            String header = "for (" + w.type.c() + " $0 = $1; " + w.cond.replace("$1", "$2") + "; $0 " + w.op
                    + " $3)";
            out.add(new Stmt.Loop(g.id(), Stmt.LoopKind.FOR, header, List.of(Expr.var(i).asFixed(), w.start,
                    bound, w.step), List.of(i), new Stmt.Block(stmts)));
        }
        if (g.rng.percent(70)) {
            out.add(st.hashStmt(c, Expr.var(acc)));
        }
        if (isWhile) {
            c.scope.add(i);
            if (g.rng.coin()) {
                out.add(st.hashStmt(c, Expr.var(i)));
            }
        }
        if (fenced) {
            out.add(new Stmt.Simple(g.id(), "__syncthreads();", List.of()));
        }
        return out;
    }

    /**
     * The walk: grid stride, block stride, a grid stride down, or a masked per-thread start and a large step. The
     * bound and step are evaluated again in each iteration, where only the threads still looping run, so their
     * expressions are made for thread-dependent control (no collectives in them).
     */
    private Walk walk(Ctx entry) {
        Ctx c = entry.under(Level.THREAD);
        int k = g.rng.below(10);
        int threads = g.gridThreads;
        int nb = g.blockThreads;
        if (k < 4 || k == 6) {
            String step = g.rng.percent(25) ? Integer.toString(threads) : multiDim
                    ? "blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y" : "blockDim.x * gridDim.x";
            Expr bound = ownedBound(c, threads);
            if (k == 6) {
                // Down from bound - 1 - gid: residues modulo the grid's size are still one per thread.
                Expr start = Expr.op(Prim.INT, "$0 - 1 - (int)$1", 14, bound, Expr.var(gid).asFixed()).asFixed();
                return new Walk(Prim.INT, start, "$0 >= 0", null, "-=", stepExpr(Prim.INT, step), "$0");
            }
            Prim t = indexType();
            return new Walk(t, cast(t, Expr.var(gid).asFixed()), "$0 < $1", bound, "+=", stepExpr(t, step), "$0");
        }
        if (k < 6) {
            String step = g.rng.percent(25) ? Integer.toString(nb) : multiDim ? "blockDim.x * blockDim.y * blockDim.z"
                    : "blockDim.x";
            Prim t = indexType();
            return new Walk(t, cast(t, Expr.var(tid).asFixed()), "$0 < $1", ownedBound(c, nb), "+=",
                    stepExpr(t, step), "$1 * " + Buffers.STRIDED_SLOTS * nb + "u + $0");
        }
        Expr seed = ex.gen(g.intType(), entry, 2, Level.THREAD);
        Expr step = largeStep(c);
        if (g.rng.percent(30)) {
            Expr start = Expr.op(Prim.INT, "(int)(($0) & 1023)", 10, seed).asFixed();
            return new Walk(Prim.INT, start, "$0 >= 0", null, "-=", step, null);
        }
        Prim t = g.rng.percent(75) ? Prim.INT : Prim.UINT;
        Expr start = Expr.op(t, "(" + t.c() + ")(($0) & 255)", 8, seed).asFixed();
        Expr bound = g.rng.percent(40) ? Expr.lit(Prim.INT, Integer.toString(g.rng.range(200, 1500)), 11)
                : Expr.op(Prim.INT, "(int)(($0) & 1023)", 10, ex.gen(g.intType(), c, 2, Level.BLOCK)).asFixed();
        return new Walk(t, start, "$0 < $1", bound, "+=", t == Prim.INT ? step : cast(Prim.UINT, step), null);
    }

    private Prim indexType() {
        int k = g.rng.below(20);
        return k < 12 ? Prim.INT : k < 17 ? Prim.UINT : Prim.LLONG;
    }

    private static Expr cast(Prim t, Expr e) {
        return Expr.op(t, "(" + t.c() + ")$0", e.bits(), e).asFixed();
    }

    private static Expr stepExpr(Prim t, String text) {
        return Expr.op(t, "(" + t.c() + ")(" + text + ")", 14).asFixed();
    }

    /** A uniform step of at least 32: a constant, or a masked uniform expression plus 32. */
    private Expr largeStep(Ctx c) {
        if (g.rng.percent(40)) {
            return Expr.lit(Prim.INT, Integer.toString(g.rng.pick(32, 33, 48, 64, 100, 128, 256)), 9);
        }
        if (g.rng.percent(30)) {
            return Expr.op(Prim.INT, multiDim ? "(int)(blockDim.x * blockDim.y * blockDim.z)" : "(int)blockDim.x",
                    9).asFixed();
        }
        Expr u = ex.gen(g.intType(), c, 2, Level.BLOCK);
        return Expr.op(Prim.INT, "((int)(($0) & 63) + 32)", 7, u).asFixed();
    }

    /**
     * A bound of at most {@link Buffers#STRIDED_SLOTS} strides of {@code n}: a multiple of it, an input's length,
     * or a parameter or uniform expression masked below it.
     */
    private Expr ownedBound(Ctx c, int n) {
        int max = Buffers.STRIDED_SLOTS * n;
        int k = g.rng.below(10);
        if (k < 4) {
            int b = g.rng.pick(n, 2 * n, 4 * n, max, n + 5, max - 3, n / 2 + 1);
            return Expr.lit(Prim.INT, Integer.toString(b), 14);
        }
        if (k < 6 && !g.buffers.inputs().isEmpty()) {
            return Expr.lit(Prim.INT, Integer.toString(Math.min(max, g.rng.pick(g.buffers.inputs()).length())), 14);
        }
        List<Var> params = c.scope.find(v -> g.buffers.scalars().contains(v) && ((Prim) v.type).isInteger());
        Expr e = !params.isEmpty() && g.rng.coin() ? Expr.var(g.rng.pick(params))
                : ex.gen(g.intType(), c, 2, Level.BLOCK);
        return Expr.op(Prim.INT, "(int)(($0) & " + (Integer.highestOneBit(max) - 1) + ")", 14, e).asFixed();
    }

    /** The loop's body: reads at indices built from {@code i}, own writes, and some random statements. */
    private List<Stmt> body(Ctx c, Var i, Var acc, Walk w) {
        List<Stmt> out = new ArrayList<>();
        int n = g.rng.range(1, 3);
        for (int j = 0; j < n; j++) {
            Stmt s = switch (g.rng.below(6)) {
                case 0, 1 -> fold(c, i, acc);
                case 2 -> innerLoop(i, acc);
                case 3 -> scratchWrite(c, i);
                default -> ownedWrite(c, i, w);
            };
            out.add(s != null ? s : fold(c, i, acc));
        }
        for (int k = out.size() - 1; k > 0; k--) {
            out.set(k, out.set(g.rng.below(k + 1), out.get(k)));
        }
        if (g.rng.percent(60) && g.budget > 2) {
            // Random statements in their order (a declaration before its uses), at a random place among these.
            out.addAll(g.rng.below(out.size() + 1), st.block(c, g.rng.range(1, 3)).stmts());
        }
        return out;
    }

    /** {@code acc = mix(acc, in[i & m])}, the index now and then offset. */
    private Stmt fold(Ctx c, Var i, Var acc) {
        Buffers.Input in = g.rng.pick(g.buffers.inputs());
        g.cover(Construct.INPUT_READ);
        String mask = (in.length() - 1) + "u";
        List<Expr> args = new ArrayList<>(List.of(Expr.var(acc).asFixed(), Expr.var(in.var()),
                Expr.var(i).asFixed()));
        String index;
        if (g.rng.coin()) {
            index = "$2 & " + mask;
        } else {
            args.add(ex.index(c, 2, Level.THREAD));
            index = "((unsigned int)$2 + (unsigned int)($3)) & " + mask;
        }
        String read = st.hashable(in.type()).replace("$1", "$1[" + index + "]");
        String op = g.rng.pick("$0 = " + g.helpers.mix() + "($0, " + read + ");", "$0 += " + read + ";",
                "$0 ^= " + read + " << ((unsigned int)$2 & 31u);");
        return new Stmt.Simple(g.id(), op, args);
    }

    /** A short loop nested in the body, reading near {@code i}. */
    private Stmt innerLoop(Var i, Var acc) {
        g.cover(Construct.NESTED_LOOP);
        Buffers.Input in = g.rng.pick(g.buffers.inputs());
        String j = g.name("j");
        String read = st.hashable(in.type()).replace("$1", "$1[((unsigned int)$2 + (unsigned int)" + j + " * "
                + g.rng.pick(1, 3, 32) + "u) & " + (in.length() - 1) + "u]");
        String text = "for (int " + j + " = 0; " + j + " < " + g.rng.range(2, 4) + "; " + j + "++) {\n    $0 = "
                + g.helpers.mix() + "($0, " + read + ");\n}";
        return new Stmt.Simple(g.id(), text, List.of(Expr.var(acc).asFixed(), Expr.var(in.var()),
                Expr.var(i).asFixed()));
    }

    /** The thread's own scratch slot chosen by {@code i}; null if the kernel has no scratch buffer here. */
    private Stmt scratchWrite(Ctx c, Var i) {
        Var scr = g.buffers.scratchOrNull();
        if (scr == null || c.scope.find(x -> x == scr).isEmpty()) {
            return null;
        }
        g.cover(Construct.SCRATCH);
        Prim t = (Prim) ((Ty.Ptr) scr.type).target();
        return new Stmt.Simple(g.id(), "$0[$1 * " + Buffers.SCRATCH_SLOTS + "u + ((unsigned int)$2 & "
                + (Buffers.SCRATCH_SLOTS - 1) + "u)] = $3;", List.of(Expr.var(scr), Expr.var(gid).asFixed(),
                Expr.var(i).asFixed(), ex.gen(t, c, 2, Level.THREAD)));
    }

    /** {@code out_s[segment + i]}, reached by this thread alone; null if the walk does not own its elements. */
    private Stmt ownedWrite(Ctx c, Var i, Walk w) {
        if (w.owned == null) {
            return null;
        }
        int seg = g.buffers.stridedSegment();
        if (seg < 0) {
            return null;
        }
        Var out = g.buffers.strided();
        Prim t = (Prim) ((Ty.Ptr) out.type).target();
        String base = seg * Buffers.STRIDED_SLOTS * g.gridThreads + "u + ";
        String index = w.owned.replace("$1", "$3").replace("$0", "(unsigned int)$1");
        return new Stmt.Simple(g.id(), "$0[" + base + index + "] = $2;", List.of(Expr.var(out),
                Expr.var(i).asFixed(), ex.gen(t, c, 2, Level.THREAD), Expr.var(bid).asFixed()));
    }
}
