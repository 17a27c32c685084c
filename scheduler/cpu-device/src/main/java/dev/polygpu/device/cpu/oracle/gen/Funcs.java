package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Device functions, overloads, function templates and struct-making functions, generated before the kernel
 * and called from it (a function calls only those made before it, so there is no recursion). A function that
 * needs uniform control (it holds barriers or warp intrinsics) is called only where control is that uniform,
 * with arguments no more varying than its parameters allow; one that writes through a pointer parameter is
 * called only as a statement, never inside an expression whose other operands it could change.
 */
final class Funcs {
    /** One callable signature: a function, an overload, or one instantiation of a template. */
    static final class Func {
        final String name;
        /** The call up to its arguments: {@code "@f3("} or {@code "@t2<int>("}. */
        final String call;
        /** The result type; null for void. */
        final Ty ret;
        final List<Ty> params = new ArrayList<>();
        final List<Level> levels = new ArrayList<>();
        final List<Integer> windows = new ArrayList<>();
        final Level needs;
        boolean sideEffects;
        /** True if the result depends only on the arguments (its level is theirs). */
        boolean pure;

        Func(String name, String call, Ty ret, Level needs) {
            this.name = name;
            this.call = call;
            this.ret = ret;
            this.needs = needs;
        }
    }

    private final GenState g;
    private final ExprGen ex;
    private final StmtGen st;
    private final List<Func> callable = new ArrayList<>();
    private final java.util.Map<Ty.Struct, Func> makers = new java.util.HashMap<>();
    /** The functions whose arguments are being generated (a call of one of them inside is a nested same call). */
    private final java.util.Set<String> calling = new java.util.HashSet<>();
    /** Per function name, every function and helper its body calls, directly or through others. */
    private final java.util.Map<String, java.util.Set<String>> callees = new java.util.HashMap<>();
    private static final java.util.regex.Pattern CALL = java.util.regex.Pattern.compile("@(\\w+)[(<]");

    /**
     * True if evaluating a call of {@code called} enters {@code outer} again (it is {@code outer}, or its body
     * calls it). The engine gets such a call wrong when it stands in a later argument of {@code outer}
     * ({@link Construct#NESTED_SAME_CALL}), so the generator keeps them apart unless that is on.
     */
    boolean reenters(String outer, String called) {
        return outer.equals(called) || callees.getOrDefault(called, java.util.Set.of()).contains(outer);
    }

    /** True if {@code text} (a printed expression) calls something that enters {@code outer}. */
    boolean textReenters(String outer, String text) {
        java.util.regex.Matcher m = CALL.matcher(text);
        while (m.find()) {
            if (reenters(outer, m.group(1))) {
                return true;
            }
        }
        return false;
    }

    /** Records what a new function's body calls, with what those call in turn. */
    private void recordCallees(String name, Stmt.Block body) {
        java.util.Set<String> out = callees.computeIfAbsent(name, k -> new java.util.HashSet<>());
        for (Stmt st : Edits.statements(new Program(List.of(), List.of(), body,
                dev.polygpu.device.LaunchConfig.of(1, 1)))) {
            for (Expr e : Edits.exprs(st)) {
                java.util.regex.Matcher m = CALL.matcher(Printer.expr(e));
                while (m.find()) {
                    out.add(m.group(1));
                    out.addAll(callees.getOrDefault(m.group(1), java.util.Set.of()));
                }
            }
        }
    }

    Funcs(GenState g, ExprGen ex, StmtGen st) {
        this.g = g;
        this.ex = ex;
        this.st = st;
    }

    /** Makes the program's functions: struct makers, plain functions and overloads, templates. */
    void generate() {
        if (g.on(Construct.STRUCT)) {
            for (Ty.Struct s : g.structs) {
                if (g.rng.percent(60)) {
                    maker(s, true);
                }
            }
        }
        int n = g.roll(Construct.DEVICE_FUNCTION, 50) ? g.rng.range(1, 3) : 0;
        for (int i = 0; i < n; i++) {
            Func f = function(g.name("f"), null);
            if (f != null && g.roll(Construct.OVERLOAD, 60)) {
                function(f.name, f);
            }
        }
        if (g.roll(Construct.TEMPLATE_TYPE, 60)) {
            typeTemplate();
        }
        if (g.roll(Construct.TEMPLATE_INT, 60)) {
            intTemplate();
        }
    }

    private Level needsLevel() {
        boolean warps = g.on(Construct.SHFL) || g.on(Construct.BALLOT) || g.on(Construct.VOTE);
        int k = g.rng.below(10);
        if (k < 2 && g.on(Construct.BARRIER)) {
            return Level.BLOCK;
        }
        if (k < 4 && warps) {
            return Level.WARP;
        }
        return Level.THREAD;
    }

    /** A plain function; with {@code overloads} set, one of the same name and a different first parameter. */
    private Func function(String name, Func overloads) {
        Level needs = overloads != null ? overloads.needs : needsLevel();
        boolean isVoid = g.rng.percent(20);
        Prim ret = isVoid ? null : g.scalarType();
        Func f = new Func(name, "@" + name + "(", ret, needs);
        int np = g.rng.range(1, 4);
        Scope scope = g.globals.child();
        List<String> decls = new ArrayList<>();
        boolean wrote = false;
        for (int i = 0; i < np; i++) {
            Ty t;
            int window = 0;
            int k = g.rng.below(100);
            if (i == 0 && overloads != null) {
                Ty first = overloads.params.getFirst();
                do {
                    t = g.scalarType();
                } while (t.equals(first));
            } else if (k < 20 || isVoid && i == 0) {
                window = g.rng.pick(1, 1, 2, 4, 8);
                t = new Ty.Ptr(g.scalarType(), false);
                wrote = true;
            } else if (k < 30) {
                window = g.rng.pick(1, 2, 4);
                t = new Ty.Ptr(g.scalarType(), true);
            } else if (k < 38 && g.on(Construct.STRUCT) && !g.structs.isEmpty()) {
                t = g.rng.pick(g.structs);
            } else if (k < 45 && g.on(Construct.VECTOR_TYPES)) {
                t = st.mem.vecType();
            } else {
                t = g.scalarType();
            }
            Level l = t instanceof Prim && needs != Level.THREAD ? g.rng.pick(Level.BLOCK, Level.WARP, Level.THREAD)
                    : Level.THREAD;
            Var p = new Var("prm" + i, t, l, true, false);
            if (window > 0) {
                g.pointerWindow.put(p, window);
            }
            scope.add(p);
            f.params.add(t);
            f.levels.add(l);
            f.windows.add(window);
            decls.add(Ty.declare(t, p.name));
        }
        f.sideEffects = wrote;
        f.pure = needs == Level.THREAD;
        for (Func o : callable) {
            if (o.name.equals(name) && o.params.equals(f.params)) {
                return null;
            }
        }
        g.cover(Construct.DEVICE_FUNCTION);
        if (overloads != null) {
            g.cover(Construct.OVERLOAD);
        }
        Stmt.Block body = body(scope, f);
        recordCallees(name, body);
        String quals = g.rng.pick("__device__", "__device__", "static __device__", "__device__ inline",
                "__device__ __forceinline__", "__device__ __noinline__");
        g.functions.add(new Program.Item(name, quals + " " + (ret == null ? "void" : ret.c()) + " @" + name + "("
                + String.join(", ", decls) + ")", body));
        callable.add(f);
        return f;
    }

    private Stmt.Block body(Scope scope, Func f) {
        int saved = g.budget;
        g.budget = g.rng.range(2, 6);
        Ctx c = new Ctx(scope, f.needs, null, false, 0, f);
        List<Stmt> out = new ArrayList<>();
        if (f.needs == Level.THREAD && g.rng.percent(20)) {
            Expr k = ex.cond(c, 2, Level.THREAD);
            Expr v = f.ret == null ? null : ex.gen((Prim) f.ret, c, 2, Level.THREAD);
            out.add(new Stmt.If(g.id(), k, new Stmt.Block(List.of(new Stmt.Return(g.id(), v))), null));
        }
        out.addAll(st.block(c, g.budget).stmts());
        for (int i = 0; i < f.params.size(); i++) {
            if (f.params.get(i) instanceof Ty.Ptr p && !p.constTarget() && g.rng.percent(70)) {
                Var pv = scope.own().get(i);
                Expr lv = ex.places.drill(Expr.op(p.target(), "(*$0)", Expr.var(pv)), null, c, 2, Level.THREAD, true);
                if (lv != null) {
                    out.add(new Stmt.Simple(g.id(), "$0 = $1;", List.of(lv.asFixed(), ex.gen(lv.prim(), c, 2,
                            Level.THREAD))));
                }
            }
        }
        out.add(new Stmt.Return(g.id(), f.ret == null ? null : ex.gen((Prim) f.ret, c, 3, Level.THREAD)));
        g.budget = saved;
        return new Stmt.Block(out);
    }

    /** A function returning a struct built from its parameters. */
    private Func maker(Ty.Struct s, boolean create) {
        if (!create) {
            return makers.get(s);
        }
        String name = g.name("mk");
        Func f = new Func(name, "@" + name + "(", s, Level.THREAD);
        f.pure = true;
        Scope scope = g.globals.child();
        List<String> decls = new ArrayList<>();
        int np = g.rng.range(1, 3);
        for (int i = 0; i < np; i++) {
            Prim t = g.scalarType();
            Var p = new Var("prm" + i, t, Level.THREAD, true, false);
            scope.add(p);
            f.params.add(t);
            f.levels.add(Level.THREAD);
            f.windows.add(0);
            decls.add(Ty.declare(t, p.name));
        }
        int saved = g.budget;
        g.budget = g.rng.range(0, 2);
        Ctx c = new Ctx(scope, Level.THREAD, null, false, 0, f);
        Var r = Var.local("r", s, Level.THREAD);
        List<Expr> args = new ArrayList<>();
        String list = st.mem.initList(s, c, args, true);
        List<Stmt> out = new ArrayList<>();
        out.add(new Stmt.Decl(g.id(), "", r, Expr.op(s, list, args.toArray(Expr[]::new)), Stmt.Init.LIST));
        scope.add(r);
        out.addAll(st.block(c, g.budget).stmts());
        out.add(new Stmt.Return(g.id(), Expr.var(r)));
        g.budget = saved;
        recordCallees(name, new Stmt.Block(out));
        g.functions.add(new Program.Item(name, "__device__ " + s.c() + " @" + name + "(" + String.join(", ", decls)
                + ")", new Stmt.Block(out)));
        makers.put(s, f);
        return f;
    }

    Func maker(Ty.Struct s) {
        return maker(s, false);
    }

    /** A call of the maker of {@code s}. */
    Expr makerCall(Ty.Struct s, Ctx c) {
        Func f = makers.get(s);
        g.cover(Construct.DEVICE_FUNCTION);
        return invoke(f, c, 2);
    }

    private void typeTemplate() {
        String name = g.name("t");
        List<Prim> pool = new ArrayList<>(List.of(Prim.INT, Prim.UINT, Prim.LLONG, Prim.ULLONG, Prim.SHORT,
                Prim.UCHAR));
        if (g.floats()) {
            pool.addAll(List.of(Prim.FLOAT, Prim.DOUBLE));
        }
        List<Prim> types = new ArrayList<>();
        int n = g.rng.range(1, 3);
        for (int i = 0; i < n; i++) {
            Prim t = g.rng.pick(pool);
            if (!types.contains(t)) {
                types.add(t);
            }
        }
        boolean arith = types.stream().allMatch(t -> t == Prim.UINT || t == Prim.ULLONG || t.isFloating());
        List<String> steps = new ArrayList<>(List.of("if (a < b) {\n        r = b;\n    }", "r = (k & 1) ? r : b;",
                "r = arr[k & 3];", "arr[(k >> 2) & 3] = r;",
                "for (int i = 0; i < (k & 3); i++) {\n        if (arr[i] > r) {\n            r = arr[i];\n        }\n    }",
                "r = (r == a) ? b : r;"));
        if (arith) {
            steps.addAll(List.of("r = r + arr[(k >> 1) & 3];", "r = r * b;", "r = r - (T)(k & 15);"));
        }
        StringBuilder body = new StringBuilder("template <typename T>\n__device__ T @" + name
                + "(T a, T b, int k) {\n    T r = a;\n    T arr[4] = {a, b, b, a};\n");
        int ns = g.rng.range(2, 5);
        for (int i = 0; i < ns; i++) {
            body.append("    ").append(g.rng.pick(steps)).append('\n');
        }
        body.append("    return r;\n}");
        g.functions.add(new Program.Item(name, body.toString(), null));
        g.cover(Construct.TEMPLATE_TYPE);
        for (Prim t : types) {
            boolean deduce = g.rng.coin();
            Func f = new Func(name, "@" + name + (deduce ? "(" : "<" + t.c() + ">("), t, Level.THREAD);
            f.pure = true;
            f.params.addAll(List.of(t, t, Prim.INT));
            f.levels.addAll(List.of(Level.THREAD, Level.THREAD, Level.THREAD));
            f.windows.addAll(List.of(0, 0, 0));
            callable.add(f);
        }
    }

    private void intTemplate() {
        String name = g.name("tn");
        String body = g.rng.pick("return (x >> (N & 31)) ^ N;",
                "int s = 0;\n    for (int i = 0; i < N; i++) {\n        s ^= x >> i;\n    }\n    return s;",
                "return x & ((1 << (N & 15)) - 1);", "return x % N;", "return N * (x & 255);");
        g.functions.add(new Program.Item(name, "template <int N>\n__device__ int @" + name + "(int x) {\n    " + body
                + "\n}", null));
        g.cover(Construct.TEMPLATE_INT);
        int count = g.rng.range(1, 3);
        for (int i = 0; i < count; i++) {
            Func f = new Func(name, "@" + name + "<" + g.rng.range(1, 9) + ">(", Prim.INT, Level.THREAD);
            f.pure = true;
            f.params.add(Prim.INT);
            f.levels.add(Level.THREAD);
            f.windows.add(0);
            callable.add(f);
        }
    }

    /** A call inside an expression, converted to {@code want}; null if no function fits here. */
    Expr call(Prim want, Ctx c, int depth, Level max) {
        List<Func> ok = new ArrayList<>();
        boolean nested = g.on(Construct.NESTED_SAME_CALL);
        for (Func f : callable) {
            if (!nested && calling.stream().anyMatch(outer -> reenters(outer, f.name))) {
                continue;
            }
            if (!f.sideEffects && f.ret instanceof Prim r && c.level.within(f.needs)
                    && (f.pure || max == Level.THREAD) && (r.isInteger() || want.isFloating()
                    || g.on(Construct.FLOAT_TO_INT)) && r != Prim.HALF && canPass(f, c)) {
                ok.add(f);
            }
        }
        if (ok.isEmpty()) {
            return null;
        }
        Expr e = invoke(g.rng.pick(ok), c, depth);
        if (e == null || !e.level().within(max)) {
            return null;
        }
        return ex.convert(e, want, false);
    }

    boolean hasStatementCalls() {
        return !callable.isEmpty();
    }

    /** A call as a statement (its result, if any, folded into the hash in the kernel). */
    Stmt callStatement(Ctx c) {
        List<Func> ok = new ArrayList<>();
        for (Func f : callable) {
            if (c.level.within(f.needs) && !(f.ret instanceof Ty.Struct) && canPass(f, c)) {
                ok.add(f);
            }
        }
        if (ok.isEmpty()) {
            return null;
        }
        Func f = g.rng.pick(ok);
        Expr e = invoke(f, c, 2);
        if (e == null) {
            return null;
        }
        if (f.ret instanceof Prim r && st.hash != null && c.inKernel()) {
            return st.hashStmt(c, e);
        }
        return new Stmt.Simple(g.id(), "$0;", List.of(e));
    }

    private boolean canPass(Func f, Ctx c) {
        for (int i = 0; i < f.params.size(); i++) {
            Ty t = f.params.get(i);
            if (t instanceof Ty.Ptr p && pointerArgs(p, f.windows.get(i), c).isEmpty()) {
                return false;
            }
            if (t instanceof Ty.Struct s && makers.get(s) == null
                    && c.scope.find(v -> v.type == s && v.storage == Var.Storage.LOCAL).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private Expr invoke(Func f, Ctx c, int depth) {
        if (calling.stream().anyMatch(outer -> reenters(outer, f.name))) {
            g.cover(Construct.NESTED_SAME_CALL);
        }
        boolean outermost = calling.add(f.name);
        try {
            return invokeWithArgs(f, c, depth);
        } finally {
            if (outermost) {
                calling.remove(f.name);
            }
        }
    }

    private Expr invokeWithArgs(Func f, Ctx c, int depth) {
        List<Expr> args = new ArrayList<>();
        StringBuilder call = new StringBuilder(f.call);
        for (int i = 0; i < f.params.size(); i++) {
            Ty t = f.params.get(i);
            Expr a = switch (t) {
                case Prim p -> ex.gen(p, c, depth - 1, f.levels.get(i));
                case Ty.Ptr p -> {
                    List<Supplier<Expr>> opts = pointerArgs(p, f.windows.get(i), c);
                    yield opts.isEmpty() ? null : g.rng.pick(opts).get();
                }
                case Ty.Struct s -> {
                    List<Var> vs = c.scope.find(v -> v.type == s && v.storage == Var.Storage.LOCAL);
                    yield vs.isEmpty() || makers.get(s) != null && g.rng.percent(30) ? makerOrNull(s, c)
                            : Expr.var(g.rng.pick(vs));
                }
                case Ty.Vec v -> vectorArg(v, c);
                case Ty.Array arr -> null;
            };
            if (a == null) {
                return null;
            }
            args.add(a);
            call.append(i == 0 ? "" : ", ").append('$').append(i);
        }
        call.append(')');
        Expr e = Expr.op(f.ret == null ? Prim.INT : f.ret, call.toString(), Expr.bitsOf(f.ret == null ? Prim.INT
                : f.ret), args.toArray(Expr[]::new));
        return f.pure ? e : e.withLevel(Level.THREAD);
    }

    private Expr makerOrNull(Ty.Struct s, Ctx c) {
        Func m = makers.get(s);
        if (m == null || !g.on(Construct.NESTED_SAME_CALL) && calling.stream().anyMatch(o -> reenters(o, m.name))) {
            return null;
        }
        return invoke(m, c, 2);
    }

    private Expr vectorArg(Ty.Vec v, Ctx c) {
        List<Var> vs = c.scope.find(x -> x.type.equals(v) && x.storage == Var.Storage.LOCAL);
        if (!vs.isEmpty() && g.rng.coin()) {
            return Expr.var(g.rng.pick(vs));
        }
        List<Expr> comps = new ArrayList<>();
        StringBuilder sb = new StringBuilder("make_" + v.c() + "(");
        for (int i = 0; i < v.n(); i++) {
            comps.add(ex.gen(v.comp(), c, 1, Level.THREAD));
            sb.append(i == 0 ? "" : ", ").append('$').append(i);
        }
        return Expr.op(v, sb.append(')').toString(), comps.toArray(Expr[]::new));
    }

    /** Pointers that may be passed for a parameter of type {@code p} that uses {@code window} elements. */
    private List<Supplier<Expr>> pointerArgs(Ty.Ptr p, int window, Ctx c) {
        List<Supplier<Expr>> out = new ArrayList<>();
        Ty t = p.target();
        for (Var v : c.scope.find(x -> x.storage == Var.Storage.LOCAL && x.level == Level.THREAD)) {
            if (v.type instanceof Ty.Array a && a.elem().equals(t) && a.length() >= window) {
                out.add(() -> Expr.op(p, g.rng.coin() ? "$0" : "&$0[0]", Expr.var(v)));
            } else if (v.type.equals(t) && window == 1 && (v.writable || p.constTarget())) {
                out.add(() -> Expr.op(p, "&$0", Expr.var(v)));
            } else if (v.type instanceof Ty.Ptr q && q.target().equals(t) && (!q.constTarget() || p.constTarget())
                    && g.pointerWindow.getOrDefault(v, 1) >= window) {
                out.add(() -> Expr.var(v));
            }
        }
        if (c.inKernel()) {
            Var scr = g.buffers.scratchOrNull();
            if (scr != null && ((Ty.Ptr) scr.type).target().equals(t) && window <= Buffers.SCRATCH_SLOTS
                    && !c.scope.find(x -> x == scr).isEmpty()) {
                out.add(() -> Expr.op(p, "($0 + $1 * " + Buffers.SCRATCH_SLOTS + "u)", Expr.var(scr),
                        Expr.var(st.mem.gid).asFixed()));
            }
            if (window == 1) {
                for (Var sh : c.scope.find(x -> x.storage == Var.Storage.SHARED && x.type instanceof Ty.Array a
                        && a.elem().equals(t))) {
                    out.add(() -> Expr.op(p, "&$0[$1]", Expr.var(sh), Expr.var(st.mem.tid).asFixed()));
                }
            }
            if (p.constTarget()) {
                for (Buffers.Input in : g.buffers.inputs()) {
                    if (in.type() == t && in.length() / 2 >= window && !c.scope.find(x -> x == in.var()).isEmpty()) {
                        out.add(() -> Expr.op(p, "($0 + (($1) & " + (in.length() / 2 - 1) + "u))", Expr.var(in.var()),
                                ex.index(c, 2, Level.THREAD)));
                    }
                }
            }
        }
        return out;
    }
}
