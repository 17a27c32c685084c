package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.List;

/**
 * Statements about memory and collectives: aggregate declarations (arrays, vectors, structs), pointers,
 * copies, shared-memory exchanges across {@code __syncthreads} or {@code __syncwarp}, shared accumulators,
 * barriers, global atomics (one operation per slot, so the result does not depend on the order of the
 * threads), stores into the thread's output slots, and printf.
 */
final class MemStmts {
    private final GenState g;
    private final ExprGen ex;
    private final StmtGen st;
    /** The kernel's specials: thread in block, thread in grid, warp in block. */
    Var tid;
    Var gid;
    Var wid;

    MemStmts(GenState g, ExprGen ex, StmtGen st) {
        this.g = g;
        this.ex = ex;
        this.st = st;
    }

    // Aggregates and pointers.

    Stmt aggregate(Ctx c) {
        int[] w = {g.weight(Construct.LOCAL_ARRAY), g.weight(Construct.VECTOR_TYPES),
            g.structs.isEmpty() ? 0 : g.weight(Construct.STRUCT),
            g.structs.isEmpty() ? 0 : g.weight(Construct.STRUCT_ARRAY_POINTER)};
        int k = g.rng.weighted(w);
        if (k < 0) {
            return null;
        }
        Ty t = switch (k) {
            case 0 -> {
                g.cover(Construct.LOCAL_ARRAY);
                Ty elem = g.scalarType();
                int n = g.rng.pick(2, 4, 8, 3, 5);
                yield g.rng.percent(15) ? new Ty.Array(new Ty.Array(elem, g.rng.range(2, 3)), 2) : new Ty.Array(elem, n);
            }
            case 1 -> {
                g.cover(Construct.VECTOR_TYPES);
                Ty v = vecType();
                yield g.rng.percent(20) ? new Ty.Array(v, g.rng.pick(2, 4)) : v;
            }
            case 2 -> {
                g.cover(Construct.STRUCT);
                yield g.rng.pick(g.structs);
            }
            default -> {
                g.cover(Construct.STRUCT_ARRAY_POINTER);
                yield new Ty.Array(g.rng.pick(g.structs), g.rng.pick(2, 4));
            }
        };
        if (k == 1 && c.inKernel() && g.roll(Construct.VECTOR_LOAD, 25)) {
            Stmt load = vectorLoad(c);
            if (load != null) {
                return load;
            }
        }
        Var v = Var.local(g.name("a"), t, Level.THREAD);
        Stmt s;
        if (t instanceof Ty.Array a && a.elem() instanceof Prim p && g.rng.percent(30)) {
            s = fill(c, v, a, p);
        } else if (t instanceof Ty.Struct && g.rng.percent(30) && ex.funcs.maker((Ty.Struct) t) != null) {
            s = new Stmt.Decl(g.id(), "", v, ex.funcs.makerCall((Ty.Struct) t, c), Stmt.Init.EXPR);
        } else if (t instanceof Ty.Vec vt && g.rng.coin()) {
            List<Expr> comps = new ArrayList<>();
            StringBuilder sb = new StringBuilder("make_" + vt.c() + "(");
            for (int i = 0; i < vt.n(); i++) {
                comps.add(ex.gen(vt.comp(), c, 2, Level.THREAD));
                sb.append(i == 0 ? "" : ", ").append('$').append(i);
            }
            s = new Stmt.Decl(g.id(), "", v, Expr.op(vt, sb.append(')').toString(), comps.toArray(Expr[]::new)),
                    Stmt.Init.EXPR);
        } else {
            List<Expr> args = new ArrayList<>();
            String list = initList(t, c, args, true);
            s = new Stmt.Decl(g.id(), "", v, Expr.op(t, list, args.toArray(Expr[]::new)), Stmt.Init.LIST);
        }
        c.scope.add(v);
        return s;
    }

    Ty.Vec vecType() {
        Prim comp;
        do {
            comp = g.rng.pick(Ty.Vec.COMPONENTS);
        } while (comp.isFloating() && !g.floats());
        int n = comp.size() == 8 ? g.rng.pick(1, 2) : g.rng.range(1, 4);
        return new Ty.Vec(comp, n);
    }

    /** A braced initializer for {@code t}, its expressions appended to {@code args} as {@code $i}. */
    String initList(Ty t, Ctx c, List<Expr> args, boolean top) {
        return switch (t) {
            case Prim p -> {
                args.add(ex.gen(p, c, 2, Level.THREAD));
                yield "$" + (args.size() - 1);
            }
            case Ty.Vec v -> braced(v.n(), i -> initList(v.comp(), c, args, false));
            case Ty.Array a -> braced(top && g.rng.percent(30) ? g.rng.range(1, a.length()) : a.length(),
                    i -> initList(a.elem(), c, args, false));
            case Ty.Struct s -> braced(s.members().size(), i -> initList(s.members().get(i).type(), c, args, false));
            case Ty.Ptr p -> throw new IllegalArgumentException("no initializer list for a pointer");
        };
    }

    private static String braced(int n, java.util.function.IntFunction<String> part) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ", ").append(part.apply(i));
        }
        return sb.append('}').toString();
    }

    /** {@code T a[n];} then a loop writing every element, before anything reads one. */
    private Stmt fill(Ctx c, Var v, Ty.Array a, Prim p) {
        Expr seed = ex.gen(p, c, 2, Level.THREAD);
        String q = g.name("q");
        String value = p.isFloating() ? "(" + p.c() + ")" + q + " + $0"
                : p == Prim.BOOL ? "(" + q + " & 1) != 0" : "(" + p.c() + ")((" + q + " * 7) ^ $0)";
        String text = "for (int " + q + " = 0; " + q + " < " + a.length() + "; " + q + "++) {\n    " + v.name + "["
                + q + "] = " + value + ";\n}";
        return new Stmt.Decl(g.id(), "", v, Expr.op(a, text, seed), Stmt.Init.AFTER);
    }

    /**
     * A vector loaded whole from an input, reinterpreted as vectors of its element type (aligned: the index
     * counts whole vectors, and buffers start aligned as cudaMalloc's do); null if no input has a vector type.
     */
    private Stmt vectorLoad(Ctx c) {
        List<Buffers.Input> ins = new ArrayList<>();
        for (Buffers.Input in : g.buffers.inputs()) {
            if (vectorComponent(in.type()) != null && !c.scope.find(x -> x == in.var()).isEmpty()) {
                ins.add(in);
            }
        }
        if (ins.isEmpty()) {
            return null;
        }
        Buffers.Input in = g.rng.pick(ins);
        Prim comp = vectorComponent(in.type());
        Ty.Vec vt = new Ty.Vec(comp, comp.size() == 8 ? 2 : g.rng.pick(2, 4));
        g.cover(Construct.VECTOR_LOAD);
        g.cover(Construct.VECTOR_TYPES);
        Var v = Var.local(g.name("a"), vt, Level.THREAD);
        int n = in.length() / vt.n();
        Expr i = ex.index(c, 2, Level.THREAD);
        c.scope.add(v);
        return new Stmt.Decl(g.id(), "", v, Expr.op(vt, "reinterpret_cast<const " + vt.c() + "*>($0)[($1) & "
                + (n - 1) + "u]", Expr.var(in.var()), i), Stmt.Init.EXPR);
    }

    /** The component type of the vector type whose elements have type {@code t}; null if none. */
    private static Prim vectorComponent(Prim t) {
        return switch (t) {
            case CHAR, SCHAR -> Prim.SCHAR;
            case LONG -> Prim.LLONG;
            case ULONG -> Prim.ULLONG;
            case BOOL, HALF -> null;
            default -> t;
        };
    }

    Stmt pointer(Ctx c) {
        List<java.util.function.Supplier<Stmt>> options = new ArrayList<>();
        if (g.on(Construct.LOCAL_POINTER)) {
            for (Var a : c.scope.find(x -> x.storage == Var.Storage.LOCAL && x.level == Level.THREAD
                    && (x.type instanceof Ty.Array arr && !(arr.elem() instanceof Ty.Array)
                    || x.type instanceof Ty.Struct || x.type instanceof Ty.Vec || x.type instanceof Prim && x.writable))) {
                options.add(() -> localPointer(c, a));
            }
        }
        if (g.on(Construct.GLOBAL_POINTER) && c.inKernel()) {
            for (Buffers.Input in : g.buffers.inputs()) {
                if (!c.scope.find(x -> x == in.var()).isEmpty()) {
                    options.add(() -> inputPointer(c, in));
                }
            }
            Var scr = g.buffers.scratchOrNull();
            if (scr != null && !c.scope.find(x -> x == scr).isEmpty()) {
                options.add(() -> {
                    Var p = pointerVar(((Ty.Ptr) scr.type).target(), false, Buffers.SCRATCH_SLOTS);
                    return declare(c, p, Expr.op(p.type, "($0 + $1 * " + Buffers.SCRATCH_SLOTS + "u)",
                            Expr.var(scr), Expr.var(gid).asFixed()), Construct.GLOBAL_POINTER);
                });
            }
        }
        if (g.on(Construct.SHARED_OWN) && c.inKernel()) {
            for (Var sh : c.scope.find(x -> x.storage == Var.Storage.SHARED && x.type instanceof Ty.Array)) {
                options.add(() -> {
                    Var p = pointerVar(((Ty.Array) sh.type).elem(), false, 1);
                    return declare(c, p, Expr.op(p.type, "&$0[$1]", Expr.var(sh), Expr.var(tid).asFixed()),
                            Construct.SHARED_OWN);
                });
            }
        }
        if (options.isEmpty()) {
            return null;
        }
        return g.rng.pick(options).get();
    }

    private Var pointerVar(Ty target, boolean constTarget, int window) {
        Var p = Var.local(g.name("p"), new Ty.Ptr(target, constTarget), Level.THREAD);
        g.pointerWindow.put(p, window);
        return p;
    }

    private Stmt declare(Ctx c, Var p, Expr init, Construct kind) {
        g.cover(kind);
        c.scope.add(p);
        return new Stmt.Decl(g.id(), "", p, init, Stmt.Init.EXPR);
    }

    private Stmt localPointer(Ctx c, Var a) {
        Expr base = Expr.var(a);
        if (a.type instanceof Ty.Array arr) {
            if (arr.elem() instanceof Ty.Array) {
                return null;
            }
            int n = arr.length();
            if (Integer.bitCount(n) == 1 && n >= 4 && g.rng.coin()) {
                Var p = pointerVar(arr.elem(), false, n / 2);
                Expr i = ex.index(c, 2, Level.THREAD);
                return declare(c, p, Expr.op(p.type, "($0 + (($1) & " + (n / 2 - 1) + "u))", base, i),
                        Construct.LOCAL_POINTER);
            }
            if (Integer.bitCount(n) == 1) {
                Var p = pointerVar(arr.elem(), false, n);
                return declare(c, p, Expr.op(p.type, g.rng.coin() ? "$0" : "&$0[0]", base), Construct.LOCAL_POINTER);
            }
            Var p = pointerVar(arr.elem(), false, 1);
            Expr i = ex.index(c, 2, Level.THREAD);
            if (arr.elem() instanceof Ty.Struct) {
                g.cover(Construct.STRUCT_ARRAY_POINTER);
            }
            return declare(c, p, Expr.op(p.type, "&$0[" + Places.indexText(n) + "]", base, i), Construct.LOCAL_POINTER);
        }
        Var p = pointerVar(a.type, !a.writable, 1);
        if (a.type instanceof Ty.Struct) {
            g.cover(Construct.STRUCT_ARRAY_POINTER);
        }
        return declare(c, p, Expr.op(p.type, "&$0", base), Construct.LOCAL_POINTER);
    }

    private Stmt inputPointer(Ctx c, Buffers.Input in) {
        int w = in.length() / 2;
        Var p = pointerVar(in.type(), true, w);
        Expr i = ex.index(c, 2, Level.THREAD);
        return declare(c, p, Expr.op(p.type, "($0 + (($1) & " + (w - 1) + "u))", Expr.var(in.var()), i),
                Construct.GLOBAL_POINTER);
    }

    /** A whole struct or vector copied: {@code t = s;}. */
    Stmt copy(Ctx c) {
        List<Var> aggs = c.scope.find(v -> (v.type instanceof Ty.Struct || v.type instanceof Ty.Vec)
                && v.storage == Var.Storage.LOCAL && v.writable && c.level.within(v.level));
        if (aggs.isEmpty()) {
            return null;
        }
        Var t = g.rng.pick(aggs);
        List<Var> srcs = c.scope.find(v -> v.type.equals(t.type) && v != t && v.storage == Var.Storage.LOCAL);
        if (t.type instanceof Ty.Struct s && (srcs.isEmpty() || g.rng.percent(30)) && ex.funcs.maker(s) != null) {
            return new Stmt.Simple(g.id(), "$0 = $1;", List.of(Expr.var(t).asFixed(), ex.funcs.makerCall(s, c)));
        }
        if (srcs.isEmpty()) {
            return null;
        }
        g.cover(t.type instanceof Ty.Struct ? Construct.STRUCT : Construct.VECTOR_TYPES);
        return new Stmt.Simple(g.id(), "$0 = $1;", List.of(Expr.var(t).asFixed(), Expr.var(g.rng.pick(srcs))));
    }

    // Shared memory and collectives.

    /** The value of shared element {@code el} (a scalar, or a component of a vector) as a scalar read. */
    private static String component(Ty el) {
        return el instanceof Ty.Vec v ? "." + Ty.Vec.component(0) : "";
    }

    private static Prim scalarOf(Ty el) {
        return el instanceof Ty.Vec v ? v.comp() : (Prim) el;
    }

    /** Own slot written, barrier, another thread's slot read, barrier: race-free by its two barriers. */
    Stmt exchange(Ctx c) {
        List<Var> shs = c.scope.find(v -> v.storage == Var.Storage.SHARED && v.type instanceof Ty.Array);
        if (shs.isEmpty()) {
            return null;
        }
        g.cover(Construct.SHARED_EXCHANGE);
        if (c.loopDepth > 0) {
            g.cover(Construct.BARRIER);
        }
        Var sh = g.rng.pick(shs);
        Ty el = ((Ty.Array) sh.type).elem();
        Prim p = scalarOf(el);
        String comp = component(el);
        Expr value = ex.gen(p, c, 3, Level.THREAD);
        Expr idx = ex.index(c, 2, Level.THREAD);
        int n = ((Ty.Array) sh.type).length();
        String read = "$0[" + Places.indexText(n).replace("$1", "$3") + "]" + comp;
        String text = "$0[$1]" + comp + " = $2;\n__syncthreads();\n$4 = " + g.helpers.mix() + "($4, "
                + st.hashable(p).replace("$1", read) + ");\n__syncthreads();";
        return new Stmt.Simple(g.id(), text, List.of(Expr.var(sh), Expr.var(tid).asFixed(), value, idx,
                Expr.var(st.hash).asFixed()));
    }

    /** The same within a warp, across {@code __syncwarp}: each lane reads a slot of its own warp. */
    Stmt warpExchange(Ctx c) {
        List<Var> shs = c.scope.find(v -> (v.storage == Var.Storage.SHARED && v.type instanceof Ty.Array)
                || v.storage == Var.Storage.VOLATILE_SHARED);
        if (shs.isEmpty()) {
            return null;
        }
        g.cover(Construct.SYNCWARP_EXCHANGE);
        Var sh = g.rng.pick(shs);
        if (sh.storage == Var.Storage.VOLATILE_SHARED) {
            g.cover(Construct.VOLATILE_SHARED);
        }
        Ty el = sh.type instanceof Ty.Ptr ptr ? ptr.target() : ((Ty.Array) sh.type).elem();
        Prim p = scalarOf(el);
        String comp = component(el);
        Expr value = ex.gen(p, c, 3, Level.THREAD);
        Expr lane = ex.index(c, 2, Level.THREAD);
        String read = "$0[($1 & ~31u) | (($3) & 31u)]" + comp;
        String text = "$0[$1]" + comp + " = $2;\n__syncwarp();\n$4 = " + g.helpers.mix() + "($4, "
                + st.hashable(p).replace("$1", read) + ");\n__syncwarp();";
        return new Stmt.Simple(g.id(), text, List.of(Expr.var(sh), Expr.var(tid).asFixed(), value, lane,
                Expr.var(st.hash).asFixed()));
    }

    /** A shared accumulator: set by thread 0, updated atomically by some threads, read by all after a barrier. */
    Stmt sharedAtomic(Ctx c) {
        g.cover(Construct.ATOMIC_SHARED);
        Prim t = g.rng.pick(Prim.INT, Prim.UINT, Prim.ULLONG);
        String op = g.rng.pick("atomicAdd", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor");
        Var acc = new Var(g.name("acc"), t, Level.BLOCK, false, false).in(Var.Storage.SHARED);
        Stmt.Decl d = new Stmt.Decl(g.id(), "__shared__ ", acc, null, Stmt.Init.NONE);
        Ctx some = c.under(Level.THREAD);
        Expr init = ex.gen(t, some, 2, Level.THREAD);
        Expr pred = ex.cond(c, 2, Level.THREAD);
        Expr value = ex.gen(g.intType(), some, 2, Level.THREAD);
        String text = "if ($0 == 0u) {\n    $1 = $2;\n}\n__syncthreads();\nif ($3) {\n    " + op + "(&$1, $4);\n}\n"
                + "__syncthreads();\n$5 = " + g.helpers.mix() + "($5, (unsigned long long)$1);\n__syncthreads();";
        Stmt body = new Stmt.Simple(g.id(), text, List.of(Expr.var(tid).asFixed(), Expr.var(acc), init, pred, value,
                Expr.var(st.hash).asFixed()));
        return new Stmt.Scope(g.id(), new Stmt.Block(List.of(d, body)));
    }

    Stmt barrier(Ctx c) {
        g.cover(Construct.BARRIER);
        if (g.rng.percent(15)) {
            return new Stmt.Simple(g.id(), g.rng.pick("__threadfence();", "__threadfence_block();"), List.of());
        }
        if (c.level == Level.BLOCK && c.inKernel() && g.rng.percent(75)) {
            return new Stmt.Simple(g.id(), "__syncthreads();", List.of());
        }
        if (!c.inKernel() && c.level == Level.BLOCK && g.rng.percent(50) && !g.blockBarriersOnly) {
            return new Stmt.Simple(g.id(), "__syncthreads();", List.of());
        }
        if (g.blockBarriersOnly) {
            return c.level == Level.BLOCK && c.inKernel() ? new Stmt.Simple(g.id(), "__syncthreads();", List.of())
                    : new Stmt.Simple(g.id(), "__threadfence_block();", List.of());
        }
        return new Stmt.Simple(g.id(), g.rng.coin() ? "__syncwarp();" : "__syncwarp(0xffffffffu);", List.of());
    }

    /** A condition that is the same in every lane of a warp. */
    Expr warpCondition(Ctx c) {
        int k = g.rng.below(4);
        if (k == 0 || !g.on(Construct.VOTE) && !g.on(Construct.BALLOT)) {
            return Expr.op(Prim.BOOL, "((($0 >> " + g.rng.below(3) + ") & 1u) == 0u)", 1, Expr.var(wid));
        }
        Expr pred = ex.predicate(c, 2, Level.THREAD);
        if (k == 1 && g.on(Construct.BALLOT)) {
            g.cover(Construct.BALLOT);
            return Expr.op(Prim.BOOL, "((__ballot_sync(" + Warps.FULL + ", $0) & " + ((1L << g.rng.range(1, 31)) | 1)
                    + "u) != 0u)", 1, pred).withLevel(Level.WARP);
        }
        g.cover(Construct.VOTE);
        return Expr.op(Prim.INT, (g.rng.coin() ? "__any_sync(" : "__all_sync(") + Warps.FULL + ", $0)", 1, pred)
                .withLevel(Level.WARP);
    }

    // Atomics on global memory: one kind of update per slot.

    Stmt atomic(Ctx c) {
        g.cover(Construct.ATOMIC_GLOBAL);
        Prim t = g.rng.pick(Prim.INT, Prim.UINT, Prim.ULLONG, Prim.LLONG);
        List<String> ops = switch (t) {
            case INT -> List.of("Add", "Sub", "Min", "Max", "And", "Or", "Xor");
            case UINT -> List.of("Add", "Sub", "Min", "Max", "And", "Or", "Xor", "Inc", "Dec");
            case ULLONG -> List.of("Add", "Min", "Max", "And", "Or", "Xor");
            default -> List.of("Min", "Max");
        };
        String op = g.rng.pick(ops);
        String key = op;
        Expr value;
        if (op.equals("Inc") || op.equals("Dec")) {
            long limit = g.rng.range(1, 100);
            key = op + limit;
            value = g.literals.integer(Prim.UINT, limit);
        } else {
            value = ex.gen(g.intType(), c, 3, Level.THREAD);
        }
        int slot = g.buffers.atomicSlot(t, key);
        if (slot < 0) {
            return null;
        }
        Var buf = g.buffers.atomic(t);
        String addr = g.rng.coin() ? "&$0[" + slot + "]" : "$0 + " + slot;
        return new Stmt.Simple(g.id(), "atomic" + op + "(" + addr + ", $1);", List.of(Expr.var(buf), value));
    }

    /** A float (or double) atomicAdd of a small integer: exact, so the sum does not depend on the order. */
    Stmt floatAtomic(Ctx c) {
        g.cover(Construct.ATOMIC_FLOAT_EXACT);
        Prim t = g.on(Construct.TYPE_DOUBLE) && g.rng.coin() ? Prim.DOUBLE : Prim.FLOAT;
        int slot = g.buffers.freshAtomicSlot(t, "add");
        if (slot < 0) {
            return null;
        }
        Expr v = ex.gen(g.intType(), c, 3, Level.THREAD);
        String lit = t == Prim.FLOAT ? "8.0f" : "8.0";
        return new Stmt.Simple(g.id(), "atomicAdd(&$0[" + slot + "], (" + t.c() + ")(($1) & 15) - " + lit + ");",
                List.of(Expr.var(g.buffers.atomic(t)), v));
    }

    /** atomicCAS with the same compare and new value for every update of its slot. */
    Stmt cas(Ctx c) {
        g.cover(Construct.ATOMIC_CAS);
        Prim t = g.rng.pick(Prim.INT, Prim.UINT, Prim.ULLONG);
        long cmp = g.rng.range(-3, 3);
        long val = g.rng.range(-3, 3);
        int slot = g.buffers.atomicSlot(t, "cas" + cmp + ":" + val);
        if (slot < 0) {
            return null;
        }
        return new Stmt.Simple(g.id(), "atomicCAS(&$0[" + slot + "], $1, $2);", List.of(
                Expr.var(g.buffers.atomic(t)), g.literals.integer(t, cmp), g.literals.integer(t, val)));
    }

    // Output slots.

    Stmt floatStore(Ctx c) {
        Prim t = g.on(Construct.TYPE_DOUBLE) && (g.rng.coin() || !g.on(Construct.TYPE_FLOAT)) ? Prim.DOUBLE
                : Prim.FLOAT;
        Var out = g.buffers.outFloat(t);
        Expr v = ex.gen(t, c, 3, Level.THREAD);
        int slot = g.rng.below(Buffers.FLOAT_SLOTS);
        return new Stmt.Simple(g.id(), "$0[$1 * " + Buffers.FLOAT_SLOTS + "u + " + slot + "u] = "
                + g.helpers.canonical(t) + "($2);", List.of(Expr.var(out), Expr.var(gid).asFixed(), v));
    }

    Stmt mathStore(Ctx c) {
        Prim t = g.on(Construct.TYPE_DOUBLE) && (g.rng.coin() || !g.on(Construct.TYPE_FLOAT)) ? Prim.DOUBLE
                : Prim.FLOAT;
        Object[] call = ex.floats.mathCall(t, c, 3, Level.THREAD);
        Var out = g.buffers.outMath(t, (Integer) call[1] + 1);
        int slot = g.rng.below(Buffers.MATH_SLOTS);
        return new Stmt.Simple(g.id(), "$0[$1 * " + Buffers.MATH_SLOTS + "u + " + slot + "u] = "
                + g.helpers.canonical(t) + "($2);", List.of(Expr.var(out), Expr.var(gid).asFixed(), (Expr) call[0]));
    }

    /** printf from one thread; its return value is folded into the hash. */
    Stmt printf(Ctx c) {
        g.cover(Construct.PRINTF);
        Ctx one = c.under(Level.THREAD);
        StringBuilder fmt = new StringBuilder("t");
        List<Expr> args = new ArrayList<>(List.of(Expr.var(gid).asFixed(), Expr.var(st.hash).asFixed()));
        StringBuilder call = new StringBuilder();
        int n = g.rng.range(0, 4);
        for (int i = 0; i < n; i++) {
            Prim t = g.rng.pick(Prim.INT, Prim.UINT, Prim.LLONG, Prim.ULLONG, Prim.DOUBLE, Prim.LONG);
            if (t == Prim.DOUBLE && !g.floats()) {
                t = Prim.INT;
            }
            String spec = switch (t) {
                case INT -> g.rng.pick("%d", "%i", "%5d", "%-4d|", "%+d", "%x", "%X", "%o");
                case UINT -> g.rng.pick("%u", "%x", "%#x", "%08x");
                case LLONG -> g.rng.pick("%lld", "%llx");
                case ULLONG -> g.rng.pick("%llu", "%llX");
                case LONG -> "%ld";
                default -> g.rng.pick("%f", "%.3f", "%e", "%g", "%a", "%10.2f", "%G", "%E");
            };
            fmt.append(' ').append(spec);
            args.add(ex.gen(t, one, 2, Level.THREAD));
            call.append(", $").append(args.size() - 1);
        }
        String text = "if ($0 == 0u) {\n    $1 = " + g.helpers.mix() + "($1, (unsigned long long)printf(\"" + fmt
                + "\\n\"" + call + "));\n}";
        return new Stmt.Simple(g.id(), text, args);
    }
}
