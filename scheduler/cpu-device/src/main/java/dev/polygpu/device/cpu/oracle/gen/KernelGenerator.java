package dev.polygpu.device.cpu.oracle.gen;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.LaunchConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Generates random CUDA C kernels free of undefined behaviour by construction, deterministically from a seed
 * (the same seed and profile give the same source and inputs). Each thread folds its values into a running
 * hash written to {@code out_h[gid]}, and writes exact floating results, math-function results and scratch
 * slots of its own, so that a wrong intermediate value shows in some output buffer.
 *
 * <p>Launches use whole warps (block sizes are multiples of 32), so full-mask warp intrinsics name only lanes
 * that exist. See docs/fuzzing.md for the constructs and how each kind of undefined behaviour is avoided.
 */
public final class KernelGenerator {
    /** The share of kernels, with strided loops and barriers on, that have no warp collectives. */
    static final int REGION_KERNELS_PERCENT = 20;

    private KernelGenerator() {
    }

    /** Case {@code index} of a run with seed {@code seed}. */
    public static GeneratedKernel generate(long seed, long index, Profile profile) {
        long caseSeed = Rng.caseSeed(seed, index);
        Rng shape = new Rng(caseSeed ^ 0x5DEECE66DL);
        int[] block = blockShape(shape, profile);
        int[] grid = gridShape(shape, profile, block[0] * block[1] * block[2]);
        int nb = block[0] * block[1] * block[2];
        int threads = nb * grid[0] * grid[1];
        // Some kernels with strided loops keep to block barriers, so that the engine runs them in barrier regions,
        // where such loops run iteration-major; elsewhere warp collectives keep every kernel cooperative.
        boolean regions = profile.on(Construct.STRIDED_LOOP) && profile.on(Construct.BARRIER)
                && shape.percent(REGION_KERNELS_PERCENT);
        GenState g = new GenState(caseSeed, regions ? profile.forBarrierRegions() : profile, nb, threads);
        g.blockBarriersOnly = regions;
        if (block[1] * block[2] > 1 || grid[1] > 1) {
            g.cover(Construct.LAUNCH_2D);
        }
        Kernel k = new Kernel(g, block, grid);
        Program p = k.build();
        return new GeneratedKernel(seed, index, profile, p, g.coverage);
    }

    private static int[] blockShape(Rng r, Profile profile) {
        int nb = r.pick(32, 64, 64, 96, 128, 128, 256);
        if (profile.on(Construct.LAUNCH_2D) && r.percent(30)) {
            return switch (nb) {
                case 32 -> r.pick(new int[] {16, 2, 1}, new int[] {8, 2, 2}, new int[] {4, 8, 1});
                case 64 -> r.pick(new int[] {32, 2, 1}, new int[] {16, 2, 2}, new int[] {8, 8, 1});
                case 96 -> r.pick(new int[] {32, 3, 1}, new int[] {16, 3, 2});
                case 128 -> r.pick(new int[] {64, 2, 1}, new int[] {16, 4, 2}, new int[] {32, 2, 2});
                default -> r.pick(new int[] {128, 2, 1}, new int[] {16, 16, 1}, new int[] {32, 4, 2});
            };
        }
        return new int[] {nb, 1, 1};
    }

    private static int[] gridShape(Rng r, Profile profile, int nb) {
        int max = Math.max(1, 512 / nb);
        int gx = r.range(1, Math.min(3, max));
        if (profile.on(Construct.LAUNCH_2D) && r.percent(20) && gx * 2 <= max) {
            return new int[] {gx, 2};
        }
        return new int[] {gx, 1};
    }

    /** The parts of one kernel under construction. */
    private static final class Kernel {
        private final GenState g;
        private final int[] block;
        private final int[] grid;
        private final ExprGen ex;
        private final StmtGen st;
        private final Funcs funcs;
        private int dynamicShared;

        Kernel(GenState g, int[] block, int[] grid) {
            this.g = g;
            this.block = block;
            this.grid = grid;
            this.ex = new ExprGen(g);
            this.st = new StmtGen(g, ex);
            this.funcs = new Funcs(g, ex, st);
            ex.funcs = funcs;
            st.funcs = funcs;
        }

        Program build() {
            structs();
            Scope kernelScope = g.globals.child();
            inputsAndScalars(kernelScope);
            globals();
            funcs.generate();
            List<Stmt> body = new ArrayList<>();
            specials(kernelScope, body);
            Ctx c = new Ctx(kernelScope, Level.BLOCK, null, false, 0, null);
            shared(c, body);
            while (g.budget > 0) {
                g.budget--;
                body.addAll(st.stmts(c));
            }
            epilogue(kernelScope, body);
            List<Program.Item> items = new ArrayList<>();
            if (g.usesHalf()) {
                items.add(new Program.Item("cuda_fp16.h", "#include <cuda_fp16.h>", null));
            }
            items.addAll(g.early);
            items.addAll(g.helpers.items());
            items.addAll(g.functions);
            LaunchConfig launch = new LaunchConfig(new Dim3(grid[0], grid[1], 1), new Dim3(block[0], block[1],
                    block[2]), dynamicShared);
            return new Program(items, g.buffers.params(g.gridThreads), new Stmt.Block(body), launch);
        }

        private void structs() {
            if (!g.roll(Construct.STRUCT, 60) && !g.roll(Construct.STRUCT_ARRAY_POINTER, 60)) {
                return;
            }
            int n = g.rng.range(1, 2);
            for (int i = 0; i < n; i++) {
                List<Ty.Member> ms = new ArrayList<>();
                int nm = g.rng.range(1, 4);
                for (int j = 0; j < nm; j++) {
                    int k = g.rng.below(10);
                    Ty t = k < 5 ? g.scalarType() : k < 7 ? new Ty.Array(g.scalarType(), g.rng.range(2, 4))
                            : k < 9 && g.on(Construct.VECTOR_TYPES) ? st.mem.vecType()
                            : g.structs.isEmpty() ? g.scalarType() : g.rng.pick(g.structs);
                    ms.add(new Ty.Member("m" + j, t));
                }
                Ty.Struct s = new Ty.Struct(g.name("S"), ms);
                StringBuilder sb = new StringBuilder();
                boolean typedef = g.rng.percent(30);
                sb.append(typedef ? "typedef struct {\n" : "struct @" + s.name() + " {\n");
                for (Ty.Member m : ms) {
                    sb.append("    ").append(Ty.declare(m.type(), m.name())).append(";\n");
                }
                sb.append(typedef ? "} @" + s.name() + ";" : "};");
                g.early.add(new Program.Item(s.name(), sb.toString(), null));
                g.structs.add(s);
            }
        }

        private void inputsAndScalars(Scope scope) {
            int n = g.rng.range(1, 3);
            for (int i = 0; i < n; i++) {
                Prim t = g.scalarType();
                Buffers.Input in = g.buffers.addInput(t == Prim.BOOL ? Prim.UCHAR : t, g.rng.pick(64, 128, 256));
                scope.add(in.var());
            }
            int ns = g.rng.range(0, 3);
            for (int i = 0; i < ns; i++) {
                Prim t = g.scalarType();
                scope.add(g.buffers.addScalar(t == Prim.BOOL || t == Prim.LONG || t == Prim.ULONG ? Prim.INT : t));
            }
            if (g.roll(Construct.SCRATCH, 70) || g.roll(Construct.GLOBAL_POINTER, 40)) {
                scope.add(g.buffers.scratch());
            }
        }

        /** __constant__ tables and __device__ arrays, visible to functions and the kernel. */
        private void globals() {
            if (g.roll(Construct.CONSTANT_MEMORY, 70)) {
                Prim t = g.scalarType();
                int n = g.rng.pick(4, 8, 16, 5);
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    sb.append(i == 0 ? "" : ", ").append(g.literals.of(t).text());
                }
                String name = g.name("ct");
                g.early.add(new Program.Item(name, "__constant__ " + Ty.declare(new Ty.Array(t, n), "@" + name)
                        + " = {" + sb + "};", null));
                g.globals.add(new Var(name, new Ty.Array(t, n), Level.BLOCK, false, true).in(Var.Storage.CONSTANT));
            }
            if (g.roll(Construct.DEVICE_VARIABLE, 70)) {
                Prim t = g.scalarType();
                String name = g.name("dv");
                Ty.Array a = new Ty.Array(t, g.gridThreads);
                g.early.add(new Program.Item(name, "__device__ " + Ty.declare(a, "@" + name) + ";", null));
                g.globals.add(new Var(name, a, Level.THREAD, true, true).in(Var.Storage.DEVICE));
            }
        }

        /** tid, bid, gid, lane, warp and the hash, declared first in the kernel. */
        private void specials(Scope scope, List<Stmt> body) {
            boolean multi = block[1] * block[2] > 1;
            String tidText = multi ? "threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)" : "threadIdx.x";
            String bidText = grid[1] > 1 ? "blockIdx.x + gridDim.x * blockIdx.y" : "blockIdx.x";
            Var tid = special("tid", Level.THREAD);
            Var bid = special("bid", Level.BLOCK);
            Var gid = special("gid", Level.THREAD);
            Var lane = special("lane", Level.THREAD);
            Var wid = special("wid", Level.WARP);
            body.add(decl(tid, Expr.op(Prim.UINT, tidText, 32).withLevel(Level.THREAD)));
            body.add(decl(bid, Expr.op(Prim.UINT, bidText, 32)));
            body.add(decl(gid, Expr.op(Prim.UINT, "$0 * " + g.blockThreads + "u + $1", 32, Expr.var(bid).asFixed(),
                    Expr.var(tid).asFixed())));
            body.add(decl(lane, Expr.op(Prim.UINT, "$0 & 31u", 5, Expr.var(tid).asFixed())));
            body.add(decl(wid, Expr.op(Prim.UINT, "$0 >> 5", 27, Expr.var(tid).asFixed()).withLevel(Level.WARP)));
            Var h = new Var("h", Prim.ULLONG, Level.THREAD, false, false).in(Var.Storage.SPECIAL);
            body.add(new Stmt.Decl(g.id(), "", h, g.literals.integer(Prim.ULLONG, g.rng.nextLong()), Stmt.Init.EXPR));
            for (Var v : List.of(tid, bid, gid, lane, wid, h)) {
                scope.add(v);
            }
            st.hash = h;
            st.mem.tid = tid;
            st.mem.gid = gid;
            st.mem.wid = wid;
            st.strided.tid = tid;
            st.strided.bid = bid;
            st.strided.gid = gid;
            st.strided.multiDim = multi || grid[1] > 1;
            ex.places.tid = tid;
            ex.places.gid = gid;
        }

        private static Var special(String name, Level l) {
            return new Var(name, Prim.UINT, l, false, false).in(Var.Storage.SPECIAL);
        }

        /** A special's declaration: fixed, since every own-slot access relies on its value. */
        private Stmt decl(Var v, Expr init) {
            return new Stmt.Decl(g.id(), "const ", v, init.asFixed(), Stmt.Init.EXPR);
        }

        /** Shared arrays of one element per thread, each thread's element set first. */
        private void shared(Ctx c, List<Stmt> body) {
            boolean want = g.on(Construct.SHARED_EXCHANGE) || g.on(Construct.SHARED_OWN)
                    || g.on(Construct.SYNCWARP_EXCHANGE);
            if (!want || g.rng.percent(30)) {
                return;
            }
            int n = g.rng.range(1, 2);
            boolean dynamicUsed = false;
            for (int i = 0; i < n; i++) {
                Ty el = g.on(Construct.VECTOR_TYPES) && g.rng.percent(20) ? st.mem.vecType() : g.scalarType();
                Prim comp = el instanceof Ty.Vec v ? v.comp() : (Prim) el;
                Ty.Array a = new Ty.Array(el, g.blockThreads);
                String name = g.name("sh");
                int where = g.rng.below(10);
                boolean dynamic = where < 2 && g.on(Construct.DYNAMIC_SHARED) && !dynamicUsed;
                Var sh = new Var(name, a, Level.THREAD, true, dynamic || where < 5).in(Var.Storage.SHARED);
                Expr value = ex.gen(comp, c, 2, Level.THREAD);
                String set = el instanceof Ty.Vec v ? "make_" + v.c() + "(" + "$0, ".repeat(v.n() - 1) + "$0)" : "$0";
                Expr init = Expr.op(a, sh.ref() + "[$1] = " + set + ";", value, Expr.var(st.mem.tid).asFixed());
                if (dynamic) {
                    dynamicUsed = true;
                    g.cover(Construct.DYNAMIC_SHARED);
                    dynamicShared = g.blockThreads * el.size();
                    g.early.add(new Program.Item(name, "extern __shared__ " + el.c() + " @" + name + "[];", null));
                    body.add(new Stmt.Decl(g.id(), null, sh, init, Stmt.Init.AFTER));
                } else if (sh.global) {
                    g.early.add(new Program.Item(name, "__shared__ " + Ty.declare(a, "@" + name) + ";", null));
                    body.add(new Stmt.Decl(g.id(), null, sh, init, Stmt.Init.AFTER));
                } else {
                    body.add(new Stmt.Decl(g.id(), "__shared__ ", sh, init, Stmt.Init.AFTER));
                }
                c.scope.add(sh);
                if (g.on(Construct.VOLATILE_SHARED) && el instanceof Prim && g.rng.percent(60)) {
                    Var vp = new Var(g.name("vp"), new Ty.Ptr(el, false), Level.THREAD, false, false)
                            .in(Var.Storage.VOLATILE_SHARED);
                    body.add(new Stmt.Decl(g.id(), "volatile ", vp, Expr.var(sh), Stmt.Init.EXPR));
                    c.scope.add(vp);
                }
            }
        }

        /** Every value the kernel's top-level variables hold, folded into the hash; then the hash stored. */
        private void epilogue(Scope scope, List<Stmt> body) {
            for (Var v : scope.own()) {
                if (v.storage != Var.Storage.LOCAL || v.type instanceof Ty.Ptr) {
                    continue;
                }
                if (v.type instanceof Prim p) {
                    body.add(st.hashStmt(null, Expr.var(v)));
                } else {
                    fold(v, body);
                }
            }
            body.add(new Stmt.Simple(g.id(), "$0[$1] = $2;", List.of(Expr.var(g.buffers.outHash()),
                    Expr.var(st.mem.gid).asFixed(), Expr.var(st.hash))));
        }

        /** Folds every scalar leaf of an aggregate variable into the hash (arrays in a loop). */
        private void fold(Var v, List<Stmt> body) {
            List<String> paths = new ArrayList<>();
            List<Prim> types = new ArrayList<>();
            String loopVar = null;
            Ty t = v.type;
            String base = "$0";
            int loops = 0;
            StringBuilder open = new StringBuilder();
            while (t instanceof Ty.Array a) {
                String q = g.name("e");
                open.append("for (int ").append(q).append(" = 0; ").append(q).append(" < ").append(a.length())
                        .append("; ").append(q).append("++) ");
                base = base + "[" + q + "]";
                t = a.elem();
                loops++;
                loopVar = q;
            }
            leaves(t, base, paths, types);
            StringBuilder text = new StringBuilder(open);
            text.append(loops > 0 ? "{\n" : "");
            for (int i = 0; i < paths.size(); i++) {
                String bits = st.hashable(types.get(i)).replace("$1", paths.get(i));
                text.append(loops > 0 ? "    " : "").append("$1 = ").append(g.helpers.mix()).append("($1, ")
                        .append(bits).append(");\n");
            }
            text.append(loops > 0 ? "}" : "");
            String s = text.toString().strip();
            if (loopVar == null && paths.isEmpty()) {
                return;
            }
            body.add(new Stmt.Simple(g.id(), s, List.of(Expr.var(v), Expr.var(st.hash).asFixed())));
        }

        private static void leaves(Ty t, String path, List<String> paths, List<Prim> types) {
            switch (t) {
                case Prim p -> {
                    paths.add(path);
                    types.add(p);
                }
                case Ty.Vec v -> {
                    for (int i = 0; i < v.n(); i++) {
                        paths.add(path + "." + Ty.Vec.component(i));
                        types.add(v.comp());
                    }
                }
                case Ty.Struct s -> {
                    for (Ty.Member m : s.members()) {
                        leaves(m.type(), path + "." + m.name(), paths, types);
                    }
                }
                case Ty.Array a -> {
                    for (int i = 0; i < a.length(); i++) {
                        leaves(a.elem(), path + "[" + i + "]", paths, types);
                    }
                }
                case Ty.Ptr p -> {
                    // Pointers are not values of the thread; what they point at is folded through its owner.
                }
            }
        }
    }
}
