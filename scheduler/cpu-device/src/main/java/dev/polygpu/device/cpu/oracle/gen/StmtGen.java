package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.List;

/**
 * Generates statements: declarations, assignments, hashing of values, branches, switches and loops of every
 * form, and (through {@link MemStmts}) aggregates, shared memory, atomics, barriers and output stores.
 *
 * <p>Uniformity is tracked, not hoped for: a branch's arms run at the level of its condition, a loop's body
 * at the level of its bound and of the conditions of its {@code break}/{@code continue} (chosen when the loop
 * is made), so barriers and warp intrinsics only appear where all threads of the block or warp get there
 * together. Every loop's counter lives in its header and the body never writes it, so every loop ends.
 */
final class StmtGen {
    /** How deep compound statements nest. */
    private static final int MAX_NEST = 4;
    private static final int MAX_LOOP_DEPTH = 3;

    final GenState g;
    final ExprGen ex;
    final MemStmts mem;
    final StridedLoops strided;
    Funcs funcs;
    /** The kernel's running hash (null inside device functions). */
    Var hash;
    private int nest;

    StmtGen(GenState g, ExprGen ex) {
        this.g = g;
        this.ex = ex;
        this.mem = new MemStmts(g, ex, this);
        this.strided = new StridedLoops(g, ex, this);
    }

    /** A block of up to {@code n} statements in a new scope. */
    Stmt.Block block(Ctx c, int n) {
        Ctx cc = c.inScope(c.scope.child());
        List<Stmt> out = new ArrayList<>();
        for (int i = 0; i < n && g.budget > 0; i++) {
            g.budget--;
            out.addAll(stmts(cc));
        }
        return new Stmt.Block(out);
    }

    private enum Kind {
        DECL, ASSIGN, COMPOUND, INCDEC, HASH, FLOAT_STORE, MATH, IF, SWITCH, FOR, FOR_MULTI, WHILE, DO, SCOPE,
        JUMP, AGGREGATE, POINTER, COPY, EXCHANGE, WARP_EXCHANGE, SHARED_ATOMIC, BARRIER, ATOMIC, FLOAT_ATOMIC,
        CAS, PRINTF, CALL, STRIDED
    }

    /** One statement, or the few of a construct that must stand side by side (a strided loop's). */
    List<Stmt> stmts(Ctx c) {
        Stmt s = stmt(c);
        if (s != null) {
            return List.of(s);
        }
        nest++;
        List<Stmt> l = strided.loop(c);
        nest--;
        return l != null ? l : List.of(decl(c));
    }

    /** One statement; null where the choice was a strided loop, which {@link #stmts} makes. */
    private Stmt stmt(Ctx c) {
        Kind[] ks = Kind.values();
        int[] w = new int[ks.length];
        boolean kernel = c.inKernel();
        boolean compound = nest < MAX_NEST && g.budget > 2;
        boolean loops = compound && c.loopDepth < MAX_LOOP_DEPTH;
        w[Kind.DECL.ordinal()] = 8;
        w[Kind.ASSIGN.ordinal()] = 8;
        w[Kind.COMPOUND.ordinal()] = 3;
        w[Kind.INCDEC.ordinal()] = 1;
        w[Kind.HASH.ordinal()] = kernel ? 6 : 0;
        w[Kind.FLOAT_STORE.ordinal()] = kernel && g.floats() ? 2 : 0;
        w[Kind.MATH.ordinal()] = kernel ? g.weight(Construct.MATH_FUNCTIONS) : 0;
        w[Kind.IF.ordinal()] = compound ? g.weight(Construct.IF) : 0;
        w[Kind.SWITCH.ordinal()] = compound ? g.weight(Construct.SWITCH) : 0;
        w[Kind.FOR.ordinal()] = loops ? g.weight(Construct.FOR) : 0;
        w[Kind.FOR_MULTI.ordinal()] = loops ? g.weight(Construct.FOR_MULTI_DECL) : 0;
        w[Kind.WHILE.ordinal()] = loops ? g.weight(Construct.WHILE) : 0;
        w[Kind.DO.ordinal()] = loops ? g.weight(Construct.DO_WHILE) : 0;
        w[Kind.SCOPE.ordinal()] = compound ? g.weight(Construct.BLOCK_SCOPE) : 0;
        w[Kind.JUMP.ordinal()] = c.loopLevel != null ? g.weight(Construct.BREAK) + g.weight(Construct.CONTINUE) : 0;
        w[Kind.AGGREGATE.ordinal()] = g.weight(Construct.LOCAL_ARRAY) + g.weight(Construct.STRUCT)
                + g.weight(Construct.VECTOR_TYPES);
        w[Kind.POINTER.ordinal()] = g.weight(Construct.LOCAL_POINTER) + g.weight(Construct.GLOBAL_POINTER);
        w[Kind.COPY.ordinal()] = g.weight(Construct.STRUCT) + g.weight(Construct.VECTOR_TYPES) > 0 ? 1 : 0;
        w[Kind.EXCHANGE.ordinal()] = kernel && c.level == Level.BLOCK ? g.weight(Construct.SHARED_EXCHANGE) : 0;
        w[Kind.WARP_EXCHANGE.ordinal()] = kernel && c.level.within(Level.WARP)
                ? g.weight(Construct.SYNCWARP_EXCHANGE) : 0;
        w[Kind.SHARED_ATOMIC.ordinal()] = kernel && c.level == Level.BLOCK ? g.weight(Construct.ATOMIC_SHARED) : 0;
        w[Kind.BARRIER.ordinal()] = c.level.within(Level.WARP) ? g.weight(Construct.BARRIER) : 0;
        w[Kind.ATOMIC.ordinal()] = kernel ? g.weight(Construct.ATOMIC_GLOBAL) : 0;
        w[Kind.FLOAT_ATOMIC.ordinal()] = kernel ? g.weight(Construct.ATOMIC_FLOAT_EXACT) : 0;
        w[Kind.CAS.ordinal()] = kernel ? g.weight(Construct.ATOMIC_CAS) : 0;
        w[Kind.PRINTF.ordinal()] = kernel ? g.weight(Construct.PRINTF) : 0;
        w[Kind.CALL.ordinal()] = funcs.hasStatementCalls() ? g.weight(Construct.DEVICE_FUNCTION) : 0;
        w[Kind.STRIDED.ordinal()] = loops && kernel ? g.weight(Construct.STRIDED_LOOP) : 0;
        Kind k = ks[g.rng.weighted(w)];
        if (k == Kind.STRIDED) {
            return null;
        }
        Stmt s = switch (k) {
            case DECL -> decl(c);
            case ASSIGN -> assign(c);
            case COMPOUND -> compoundAssign(c);
            case INCDEC -> incDec(c);
            case HASH -> hashStmt(c, ex.gen(g.scalarType(), c, 3, Level.THREAD));
            case FLOAT_STORE -> mem.floatStore(c);
            case MATH -> mem.mathStore(c);
            case IF -> ifStmt(c);
            case SWITCH -> switchStmt(c);
            case FOR -> forLoop(c, false);
            case FOR_MULTI -> forLoop(c, true);
            case WHILE -> whileLoop(c, false);
            case DO -> whileLoop(c, true);
            case SCOPE -> scope(c);
            case JUMP -> jump(c);
            case AGGREGATE -> mem.aggregate(c);
            case POINTER -> mem.pointer(c);
            case COPY -> mem.copy(c);
            case EXCHANGE -> mem.exchange(c);
            case WARP_EXCHANGE -> mem.warpExchange(c);
            case SHARED_ATOMIC -> mem.sharedAtomic(c);
            case BARRIER -> mem.barrier(c);
            case ATOMIC -> mem.atomic(c);
            case FLOAT_ATOMIC -> mem.floatAtomic(c);
            case CAS -> mem.cas(c);
            case PRINTF -> mem.printf(c);
            case CALL -> funcs.callStatement(c);
            case STRIDED -> null;
        };
        return s != null ? s : decl(c);
    }

    /** {@code T v = e;} of a scalar type; a const one now and then, or value-initialized. */
    Stmt decl(Ctx c) {
        Prim t = g.on(Construct.TYPE_HALF) && g.rng.percent(10) ? Prim.HALF : g.scalarType();
        if (g.on(Construct.VALUE_INIT) && t != Prim.HALF && g.rng.percent(10)) {
            g.cover(Construct.VALUE_INIT);
            Var v = Var.local(g.name("v"), t, c.level);
            c.scope.add(v);
            return new Stmt.Decl(g.id(), "", v, null, Stmt.Init.VALUE);
        }
        Expr init = ex.gen(t, c, 3, Level.THREAD);
        boolean isConst = g.rng.percent(10);
        Var v = new Var(g.name("v"), t, init.level().join(c.level), !isConst, false);
        c.scope.add(v);
        return new Stmt.Decl(g.id(), isConst ? "const " : "", v, init, Stmt.Init.EXPR);
    }

    /** The scalar variables and places control at {@code c} may write, as lvalues; empty if none. */
    private Expr target(Ctx c) {
        if (g.rng.percent(35)) {
            Expr p = ex.places.lvalue(null, c, 2);
            if (p != null) {
                return p;
            }
        }
        List<Var> vs = c.scope.find(v -> v.type instanceof Prim && v.writable && c.level.within(v.level)
                && v.storage == Var.Storage.LOCAL);
        if (vs.isEmpty()) {
            return null;
        }
        return Expr.var(g.rng.pick(vs)).asFixed();
    }

    /** The level a value written into lvalue {@code t} may have. */
    private static Level levelOf(Expr t) {
        return t.kind() == Expr.Kind.VAR ? t.var().level : Level.THREAD;
    }

    private Stmt assign(Ctx c) {
        Expr t = target(c);
        if (t == null) {
            return null;
        }
        Prim tt = t.prim();
        Expr v;
        if (g.rng.percent(25) && tt != Prim.HALF && tt != Prim.BOOL) {
            Prim other = tt.isFloating() ? g.scalarType() : g.intType();
            v = ex.gen(other == Prim.HALF ? tt : other, c, 3, levelOf(t));
        } else {
            v = ex.gen(tt, c, 3, levelOf(t));
        }
        return new Stmt.Simple(g.id(), "$0 = $1;", List.of(t, v));
    }

    private Stmt compoundAssign(Ctx c) {
        Expr t = target(c);
        if (t == null || t.prim() == Prim.HALF) {
            return null;
        }
        Prim tt = t.prim();
        Level lv = levelOf(t);
        if (tt.isFloating()) {
            String op = g.rng.pick("+=", "-=", "*=", "/=");
            Prim vt = g.rng.coin() ? tt : g.scalarType();
            return new Stmt.Simple(g.id(), "$0 " + op + " $1;", List.of(t, ex.gen(vt, c, 3, lv)));
        }
        Expr v = ex.gen(g.intType(), c, 3, lv);
        Prim ct = Prim.common(tt, v.prim());
        int w = Prim.common(tt, Prim.INT).width();
        int k = g.rng.below(4);
        if (k == 0) {
            return new Stmt.Simple(g.id(), "$0 " + g.rng.pick("&=", "|=", "^=") + " $1;", List.of(t, v));
        }
        if (k == 1) {
            return new Stmt.Simple(g.id(), "$0 >>= ($1 & " + (w - 1) + ");", List.of(t, v));
        }
        String op = g.rng.pick("+", "-", "*");
        int need = op.equals("*") ? tt.valueBits() + ExprGen.adj(v, ct) : Math.max(tt.valueBits(),
                ExprGen.adj(v, ct)) + 1;
        if (!ct.isSigned() || need <= ct.width() - 1) {
            return new Stmt.Simple(g.id(), "$0 " + op + "= $1;", List.of(t, v));
        }
        String h = g.helpers.arith(op.equals("+") ? "add" : op.equals("-") ? "sub" : "mul", ct, g.rng.coin());
        if (ex.nests(h, v)) {
            String u = ct.toUnsigned().c();
            return new Stmt.Simple(g.id(), "$0 = (" + ct.c() + ")((" + u + ")$0 " + op + " (" + u + ")$1);",
                    List.of(t, v));
        }
        return new Stmt.Simple(g.id(), "$0 = " + h + "($0, $1);", List.of(t, v));
    }

    private Stmt incDec(Ctx c) {
        Expr t = target(c);
        if (t == null) {
            return null;
        }
        Prim tt = t.prim();
        boolean wraps = tt.isFloating() && tt != Prim.HALF || tt.isInteger() && tt != Prim.BOOL
                && (!tt.isSigned() || tt.width() < 32);
        if (!wraps) {
            return null;
        }
        // nvcc 13.0 takes ++ and -- of a signed type narrower than int as never wrapping (docs/fuzzing.md, case
        // 37969); C++ defines them as += 1 and -= 1, which it compiles right
        String form = tt.isInteger() && tt.isSigned() && tt.width() < 32 ? g.rng.pick("$0 += 1;", "$0 -= 1;")
                : g.rng.pick("$0++;", "++$0;", "$0--;", "--$0;");
        return new Stmt.Simple(g.id(), form, List.of(t));
    }

    /** {@code h = mix(h, bits of e)}: folds a value into the thread's hash. */
    Stmt hashStmt(Ctx c, Expr e) {
        if (hash == null) {
            return null;
        }
        return new Stmt.Simple(g.id(), "$0 = " + g.helpers.mix() + "($0, " + hashable(e.prim()) + ");",
                List.of(Expr.var(hash).asFixed(), e));
    }

    /** The template of a value's bits as an unsigned long long, applied to argument 1. */
    String hashable(Prim t) {
        return switch (t) {
            case FLOAT -> "(unsigned long long)" + g.helpers.floatBits(Prim.FLOAT) + "($1)";
            case DOUBLE -> g.helpers.floatBits(Prim.DOUBLE) + "($1)";
            case HALF -> "(unsigned long long)" + g.helpers.floatBits(Prim.FLOAT) + "(__half2float($1))";
            default -> "(unsigned long long)($1)";
        };
    }

    /** The level a condition gets: often uniform, so that barriers and warp intrinsics can go inside. */
    private Level conditionLevel(Ctx c) {
        int k = g.rng.below(100);
        boolean warps = c.inKernel() && (g.on(Construct.WARP_BRANCH));
        if (k < 35) {
            return c.level;
        }
        if (k < 55 && warps && c.level.within(Level.WARP)) {
            return Level.WARP;
        }
        return Level.THREAD;
    }

    private Expr condition(Ctx c, Level want) {
        if (want == Level.WARP && c.inKernel() && g.rng.percent(60)) {
            g.cover(Construct.WARP_BRANCH);
            return mem.warpCondition(c);
        }
        return ex.cond(c, 3, want);
    }

    private Stmt ifStmt(Ctx c) {
        g.cover(Construct.IF);
        Expr k = condition(c, conditionLevel(c));
        Ctx arm = c.under(k.level());
        if (k.level() == Level.WARP && c.level == Level.BLOCK) {
            g.cover(Construct.WARP_BRANCH);
        }
        nest++;
        Stmt.Block then = block(arm, g.rng.range(1, 4));
        Stmt.Block els = g.rng.percent(35) ? block(arm, g.rng.range(1, 3)) : null;
        nest--;
        return new Stmt.If(g.id(), k, then, els);
    }

    private Stmt switchStmt(Ctx c) {
        g.cover(Construct.SWITCH);
        Level want = conditionLevel(c);
        Expr raw = ex.gen(g.intType(), c, 2, want);
        Expr sel = Expr.op(Prim.common(raw.prim(), Prim.INT), "($0 & 7)", 3, raw);
        List<Integer> labels = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5, 6, 7));
        List<Stmt.Case> cases = new ArrayList<>();
        int arms = g.rng.range(2, 4);
        boolean dflt = g.rng.percent(60);
        nest++;
        for (int i = 0; i < arms && !labels.isEmpty(); i++) {
            List<Integer> mine = new ArrayList<>();
            int n = g.rng.range(1, 2);
            for (int j = 0; j < n && !labels.isEmpty(); j++) {
                mine.add(labels.remove(g.rng.below(labels.size())));
            }
            boolean isDefault = dflt && i == arms - 1;
            Ctx arm = c.switchArm(c.scope.child(), sel.level());
            List<Stmt> body = new ArrayList<>(block(arm, g.rng.range(1, 3)).stmts());
            if (g.rng.percent(70)) {
                g.cover(Construct.BREAK);
                body.add(new Stmt.Jump(g.id(), true));
            }
            cases.add(new Stmt.Case(mine, isDefault, new Stmt.Block(body)));
        }
        nest--;
        return new Stmt.Switch(g.id(), sel, cases);
    }

    /** How varying a new loop may be: its bound and its break/continue conditions are at most this. */
    private Level loopLevel(Ctx c, boolean multiDecl) {
        if (multiDecl && !g.on(Construct.FOR_MULTI_DECL_BARRIER)) {
            return Level.THREAD;
        }
        int k = g.rng.below(100);
        if (k < 50) {
            return c.level;
        }
        if (k < 60 && c.level.within(Level.WARP) && c.inKernel()) {
            return Level.WARP;
        }
        return Level.THREAD;
    }

    /** A loop bound: a small literal, or a masked expression of at most level {@code l}. */
    private Expr bound(Ctx c, Level l, Prim t) {
        if (g.rng.percent(55)) {
            return g.literals.integer(t, g.rng.range(1, 6));
        }
        // The loop's condition evaluates the bound again in each iteration, where only lanes still looping run.
        Expr e = ex.gen(g.intType(), ex.conditional(c, l), 2, l);
        ex.coverConditional(e);
        return Expr.op(Prim.common(e.prim(), Prim.INT), "($0 & 7)", 3, e);
    }

    private Stmt forLoop(Ctx c, boolean multi) {
        g.cover(multi ? Construct.FOR_MULTI_DECL : Construct.FOR);
        if (c.loopDepth > 0) {
            g.cover(Construct.NESTED_LOOP);
        }
        Level l = loopLevel(c, multi);
        Prim ct = g.rng.pick(Prim.INT, Prim.INT, Prim.UINT, Prim.SHORT, Prim.UCHAR);
        Scope s = c.scope.child();
        Var i = new Var(g.name("i"), ct, l.join(c.level), false, false);
        Expr bound = bound(c, l, ct == Prim.UCHAR || ct == Prim.SHORT ? Prim.INT : ct);
        List<Expr> args = new ArrayList<>(List.of(Expr.var(i).asFixed(), bound));
        List<Var> decls = new ArrayList<>(List.of(i));
        String header;
        if (multi) {
            Var j = new Var(g.name("j"), ct, l.join(c.level), false, false);
            Expr jInit = ex.gen(Prim.INT, c, 2, l);
            args.add(Expr.var(j).asFixed());
            args.add(jInit);
            decls.add(j);
            String jStep = g.rng.pick("$2 += 3", "$2 -= 2", "$2 ^= $0", "++$2");
            header = "for (" + ct.c() + " $0 = 0, $2 = (" + ct.c() + ")($3 & 1023); $0 < $1; $0++, " + jStep + ")";
            s.add(j);
        } else if (g.rng.percent(25) && ct != Prim.UCHAR) {
            header = "for (" + ct.c() + " $0 = $1; $0 > 0; " + g.rng.pick("$0--", "--$0", "$0 -= 1") + ")";
        } else {
            String step = g.rng.pick("$0++", "++$0", "$0 += 1", "$0 = $0 + 1", "$0 += 2");
            header = "for (" + ct.c() + " $0 = 0; $0 < $1; " + step + ")";
        }
        s.add(i);
        nest++;
        Stmt.Block body = block(c.loopBody(s, l), g.rng.range(1, 5));
        nest--;
        if (multi && l == Level.BLOCK && g.on(Construct.FOR_MULTI_DECL_BARRIER)) {
            g.cover(Construct.FOR_MULTI_DECL_BARRIER);
        }
        return new Stmt.Loop(g.id(), Stmt.LoopKind.FOR, header, args, decls, body);
    }

    /** {@code while (w++ < n)} or {@code do … while (++w < n);} with its counter declared just before. */
    private Stmt whileLoop(Ctx c, boolean isDo) {
        g.cover(isDo ? Construct.DO_WHILE : Construct.WHILE);
        if (c.loopDepth > 0) {
            g.cover(Construct.NESTED_LOOP);
        }
        Level l = loopLevel(c, false);
        Prim ct = g.rng.pick(Prim.INT, Prim.UINT);
        Var w = new Var(g.name("w"), ct, l.join(c.level), false, false);
        Stmt.Decl d = new Stmt.Decl(g.id(), "", w, g.literals.integer(ct, 0), Stmt.Init.EXPR);
        Expr bound = bound(c, l, ct);
        Scope s = c.scope.child();
        s.add(w);
        nest++;
        Stmt.Block body = block(c.loopBody(s, l), g.rng.range(1, 5));
        nest--;
        String header = isDo ? "while (++$0 < $1);" : g.rng.coin() ? "while ($0++ < $1)" : "while (++$0 <= $1)";
        Stmt loop = new Stmt.Loop(g.id(), isDo ? Stmt.LoopKind.DO : Stmt.LoopKind.WHILE, header,
                List.of(Expr.var(w).asFixed(), bound), List.of(), body);
        return new Stmt.Scope(g.id(), new Stmt.Block(List.of(d, loop)));
    }

    private Stmt scope(Ctx c) {
        g.cover(Construct.BLOCK_SCOPE);
        nest++;
        Stmt.Block b = block(c, g.rng.range(1, 4));
        nest--;
        return new Stmt.Scope(g.id(), b);
    }

    /** {@code if (cond) break;} or {@code continue}, with the condition no more varying than the loop allows. */
    private Stmt jump(Ctx c) {
        if (c.loopLevel == null || !c.level.within(c.loopLevel)) {
            return null;
        }
        boolean isBreak = !c.breakLeavesSwitch && g.rng.coin();
        if (!isBreak && !g.on(Construct.CONTINUE) || isBreak && !g.on(Construct.BREAK)) {
            return null;
        }
        g.cover(isBreak ? Construct.BREAK : Construct.CONTINUE);
        Expr k = ex.cond(c, 2, c.loopLevel);
        return new Stmt.If(g.id(), k, new Stmt.Block(List.of(new Stmt.Jump(g.id(), isBreak))), null);
    }
}
