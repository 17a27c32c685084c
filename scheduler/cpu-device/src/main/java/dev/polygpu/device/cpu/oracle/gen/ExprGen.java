package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.List;

/**
 * Generates integer and boolean expressions (floating and half ones in {@link FloatExprs}), following C's
 * integer promotions and usual arithmetic conversions to know each node's type, and keeping every operation
 * defined: a signed + - * is written plainly only where the operands' magnitude bounds rule out overflow, else
 * through a checked or wrapping helper; divisors are nonzero literals or go through a helper; shift counts are
 * masked; signed left shifts are done unsigned; floating values reach integers through clamping helpers.
 */
final class ExprGen {
    final GenState g;
    final Places places;
    final FloatExprs floats;
    Funcs funcs;
    private final List<String[]> macros = new ArrayList<>();

    ExprGen(GenState g) {
        this.g = g;
        this.places = new Places(g, this);
        this.floats = new FloatExprs(g, this);
    }

    /** An expression of exactly type {@code t}, of at most level {@code max}, evaluated under control {@code c}. */
    Expr gen(Prim t, Ctx c, int depth, Level max) {
        if (t == Prim.HALF) {
            return floats.half(c, depth, max);
        }
        if (depth <= 0 || g.rng.percent(15)) {
            return leaf(t, c, max);
        }
        if (t.isFloating()) {
            return floats.floating(t, c, depth, max);
        }
        return convert(integer(t, c, depth, max), t, false);
    }

    /** A literal, a variable or a memory read, converted to {@code t}. */
    Expr leaf(Prim t, Ctx c, Level max) {
        int k = g.rng.below(10);
        if (k < 5) {
            List<Var> vs = c.scope.find(v -> v.type instanceof Prim p && p != Prim.HALF == (t != Prim.HALF)
                    && v.level.within(max) && v.storage != Var.Storage.SHARED && (p == t || g.rng.percent(30))
                    && (p.isInteger() || t.isFloating() || g.on(Construct.FLOAT_TO_INT)));
            if (!vs.isEmpty()) {
                return convert(Expr.var(g.rng.pick(vs)), t, false);
            }
        } else if (k < 7 && t != Prim.HALF) {
            Expr r = places.read(g.rng.percent(60) ? t : null, c, 1, max);
            if (r != null && (r.prim().isInteger() || t.isFloating() || g.on(Construct.FLOAT_TO_INT))
                    && r.prim() != Prim.HALF) {
                return convert(r, t, false);
            }
        }
        return t == Prim.HALF ? floats.halfLiteral() : g.literals.of(t);
    }

    /** An expression used as a condition: any scalar, most often a comparison or a logical operation. */
    Expr cond(Ctx c, int depth, Level max) {
        int k = g.rng.below(10);
        if (k < 5 && g.on(Construct.COMPARE)) {
            return compare(c, depth, max);
        }
        if (k < 7 && g.on(Construct.LOGICAL)) {
            return logical(c, depth, max);
        }
        return gen(g.scalarType(), c, depth - 1, max);
    }

    /** An integer or bool expression (never floating): a predicate for intrinsics that take an int. */
    Expr predicate(Ctx c, int depth, Level max) {
        if (g.rng.coin() && g.on(Construct.COMPARE)) {
            return compare(c, depth, max);
        }
        return gen(g.intType(), c, depth - 1, max);
    }

    /** An integer expression used as an index (masked into bounds by the caller). */
    Expr index(Ctx c, int depth, Level max) {
        Prim t = g.rng.percent(70) ? g.rng.pick(Prim.INT, Prim.UINT) : g.intType();
        return gen(t, c, Math.min(depth, 2) - 1, max);
    }

    private Expr operand(Prim t, Ctx c, int depth, Level max) {
        Prim ot = g.rng.coin() ? t : g.intType();
        return gen(ot == Prim.BOOL && g.rng.coin() ? Prim.INT : ot, c, depth - 1, max);
    }

    private Expr integer(Prim t, Ctx c, int depth, Level max) {
        Construct[] opts = {Construct.INT_ARITH, Construct.DIV_MOD, Construct.SHIFT, Construct.BITWISE,
            Construct.NEGATE, Construct.TERNARY, Construct.COMMA, Construct.CAST, Construct.FLOAT_TO_INT,
            Construct.INT_INTRINSICS, Construct.EXTRA_INT_INTRINSICS, Construct.BIT_CAST, Construct.COMPARE,
            Construct.LOGICAL, Construct.MACRO, Construct.DEVICE_FUNCTION, Construct.INPUT_READ,
            Construct.BALLOT, Construct.VOTE, Construct.ACTIVEMASK, Construct.SHFL, Construct.REDUCE_SYNC,
            Construct.SYNCTHREADS_COUNT, Construct.VALUE_INIT};
        int[] w = new int[opts.length];
        for (int i = 0; i < opts.length; i++) {
            w[i] = g.weight(opts[i]);
        }
        boolean warp = c.level.within(Level.WARP);
        w[16] = g.weight(Construct.INPUT_READ) + 4;
        w[8] = g.floats() ? w[8] : 0;
        w[11] = g.floats() ? w[11] : 0;
        w[17] = warp && Level.WARP.within(max) ? w[17] : 0;
        w[18] = warp && Level.WARP.within(max) ? w[18] : 0;
        w[19] = warp && Level.WARP.within(max) ? w[19] : 0;
        w[20] = warp && max == Level.THREAD ? g.weight(Construct.SHFL) + g.weight(Construct.SHFL_UP)
                + g.weight(Construct.SHFL_DOWN) + g.weight(Construct.SHFL_XOR) : 0;
        w[21] = warp && Level.WARP.within(max) ? w[21] : 0;
        w[22] = c.level == Level.BLOCK ? w[22] : 0;
        int k = g.rng.weighted(w);
        Construct pick = k < 0 ? Construct.INPUT_READ : opts[k];
        Expr e = switch (pick) {
            case INT_ARITH -> arith(t, c, depth, max);
            case DIV_MOD -> divide(t, c, depth, max);
            case SHIFT -> shift(t, c, depth, max);
            case BITWISE -> bitwise(t, c, depth, max);
            case NEGATE -> negate(t, c, depth, max);
            case TERNARY -> ternary(t, c, depth, max);
            case COMMA -> comma(t, c, depth, max);
            case CAST -> castFrom(t, c, depth, max);
            case FLOAT_TO_INT -> floatToInt(t, c, depth, max);
            case INT_INTRINSICS -> IntIntrinsics.common(this, t, c, depth, max);
            case EXTRA_INT_INTRINSICS -> IntIntrinsics.extra(this, t, c, depth, max);
            case BIT_CAST -> floats.bitsOf(c, depth, max);
            case COMPARE -> compare(c, depth, max);
            case LOGICAL -> logical(c, depth, max);
            case MACRO -> macro(t, c, depth, max);
            case DEVICE_FUNCTION -> funcs.call(t, c, depth, max);
            case VALUE_INIT -> valueInit(t);
            case BALLOT, VOTE, ACTIVEMASK, SHFL, REDUCE_SYNC, SYNCTHREADS_COUNT -> Warps.intExpr(this, pick, t, c,
                    depth, max);
            default -> null;
        };
        if (e == null) {
            e = leaf(t, c, max);
        }
        return e;
    }

    /**
     * The context of an operand of {@code &&}, {@code ||} or {@code ?:} evaluated under a condition of level
     * {@code l}: collectives there only where the profile allows them and control under the condition is still
     * uniform enough for them.
     */
    Ctx conditional(Ctx c, Level l) {
        if (!g.on(Construct.COLLECTIVE_IN_CONDITIONAL)) {
            return c.under(Level.THREAD);
        }
        return c.under(l);
    }

    /** Counts {@link Construct#COLLECTIVE_IN_CONDITIONAL} if a conditionally evaluated operand calls a collective. */
    void coverConditional(Expr... operands) {
        for (Expr e : operands) {
            if (Warps.callsCollective(e)) {
                g.cover(Construct.COLLECTIVE_IN_CONDITIONAL);
                return;
            }
        }
    }

    /** |value| bound of {@code e} once converted to {@code to}: a signed value may turn huge when made unsigned. */
    static int adj(Expr e, Prim to) {
        Prim p = e.prim().promoted();
        if (p.isSigned() && !to.isSigned() && (e.kind() != Expr.Kind.LIT || e.text().contains("-"))) {
            return to.width();
        }
        return Math.min(e.bits(), to.valueBits());
    }

    private Expr arith(Prim t, Ctx c, int depth, Level max) {
        String op = g.rng.pick("+", "-", "*");
        Expr a = operand(t, c, depth, max);
        Expr b = operand(t, c, depth, max);
        Prim ct = Prim.common(a.prim(), b.prim());
        g.cover(Construct.INT_ARITH);
        int w = ct.width();
        int ba = adj(a, ct);
        int bb = adj(b, ct);
        String raw = "($0 " + op + " $1)";
        if (!ct.isSigned()) {
            int bits = op.equals("+") ? ba + bb == 0 ? 0 : Math.max(ba, bb) + 1 : op.equals("*") ? ba + bb : w;
            return Expr.op(ct, raw, Math.min(bits, w), a, b);
        }
        int need = op.equals("*") ? ba + bb : Math.max(ba, bb) + 1;
        if (need > w - 1 && g.rng.percent(40)) {
            a = mask(a);
            b = mask(b);
            ct = Prim.common(a.prim(), b.prim());
            w = ct.width();
            ba = a.bits();
            bb = b.bits();
            need = op.equals("*") ? ba + bb : Math.max(ba, bb) + 1;
        }
        if (need <= w - 1) {
            return Expr.op(ct, raw, need, a, b);
        }
        String name = op.equals("+") ? "add" : op.equals("-") ? "sub" : "mul";
        boolean checked = g.rng.coin();
        String h = g.helpers.arith(name, ct, checked);
        if (nests(h, b)) {
            h = g.helpers.arith(name, ct, !checked);
        }
        if (nests(h, b)) {
            String u = ct.toUnsigned().c();
            return Expr.op(ct, "((" + ct.c() + ")((" + u + ")$0 " + op + " (" + u + ")$1))", w, a, b);
        }
        return Expr.op(ct, h + "($0, $1)", w, a, b);
    }

    /**
     * True if {@code later} (an argument after the first of helper {@code name}, written {@code @name}) calls the
     * helper again, directly or through a function, and the profile keeps such calls out
     * ({@link Construct#NESTED_SAME_CALL}).
     */
    boolean nests(String name, Expr later) {
        return !g.on(Construct.NESTED_SAME_CALL) && funcs.textReenters(name.substring(1), Printer.expr(later));
    }

    /** {@code e} masked to a few low bits, so that it is small and nonnegative. */
    Expr mask(Expr e) {
        int k = g.rng.range(3, 14);
        Prim t = Prim.common(e.prim(), Prim.INT);
        return Expr.op(t, "($0 & " + ((1 << k) - 1) + ")", k, e);
    }

    private Expr divide(Prim t, Ctx c, int depth, Level max) {
        boolean div = g.rng.coin();
        Expr a = operand(t, c, depth, max);
        Prim bt = g.rng.coin() ? t : g.intType();
        g.cover(Construct.DIV_MOD);
        if (g.rng.percent(35) && bt != Prim.BOOL) {
            long v;
            do {
                v = g.literals.interesting(bt);
            } while (v == 0 || v == -1);
            Expr b = g.literals.integer(bt, v).asFixed();
            Prim ct = Prim.common(a.prim(), b.prim());
            if (!(ct.isSigned() && ct.wrap(v) == -1) && ct.wrap(v) != 0) {
                int bits = div ? adj(a, ct) : Math.min(adj(a, ct), adj(b, ct));
                return Expr.op(ct, div ? "($0 / $1)" : "($0 % $1)", bits, a, b);
            }
        }
        Expr b = gen(bt, c, depth - 1, max);
        Prim ct = Prim.common(a.prim(), b.prim());
        String h = g.helpers.divide(div ? "div" : "mod", ct);
        if (nests(h, b) && g.on(Construct.COLLECTIVE_IN_CONDITIONAL)) {
            // The form below evaluates a and b again under lane-varying conditions: no place for collectives.
            Expr k = g.literals.integer(Prim.INT, g.rng.range(2, 9)).asFixed();
            Prim kt = Prim.common(a.prim(), Prim.INT);
            return Expr.op(kt, div ? "($0 / $1)" : "($0 % $1)", div ? adj(a, kt) : Math.min(adj(a, kt), 4), a, k);
        }
        if (nests(h, b)) {
            String bad = ct.isSigned() ? "($1) == 0 || (($0) == " + Helpers.minText(ct) + " && ($1) == -1)" : "($1) == 0";
            return Expr.op(ct, "((" + bad + ") ? (" + ct.c() + ")($0) : (" + ct.c() + ")($0) " + (div ? "/" : "%")
                    + " ($1))", adj(a, ct), a, b);
        }
        return Expr.op(ct, h + "($0, $1)", adj(a, ct), a, b);
    }

    private Expr shift(Prim t, Ctx c, int depth, Level max) {
        Expr a = operand(t, c, depth, max);
        Expr b = gen(g.intType(), c, depth - 1, max);
        Prim pt = a.prim().promoted();
        int w = pt.width();
        g.cover(Construct.SHIFT);
        if (g.rng.coin()) {
            return Expr.op(pt, "($0 >> ($1 & " + (w - 1) + "))", adj(a, pt), a, b);
        }
        if (!pt.isSigned()) {
            return Expr.op(pt, "($0 << ($1 & " + (w - 1) + "))", w, a, b);
        }
        String h = g.helpers.shiftLeft(pt);
        if (nests(h, b)) {
            return Expr.op(pt, "((" + pt.c() + ")((" + pt.toUnsigned().c() + ")$0 << ($1 & " + (w - 1) + ")))", w, a, b);
        }
        return Expr.op(pt, h + "($0, $1)", w, a, b);
    }

    private Expr bitwise(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.BITWISE);
        Expr a = operand(t, c, depth, max);
        if (g.rng.percent(20)) {
            Prim pt = a.prim().promoted();
            return Expr.op(pt, "(~$0)", pt.isSigned() ? adj(a, pt) : pt.width(), a);
        }
        Expr b = operand(t, c, depth, max);
        Prim ct = Prim.common(a.prim(), b.prim());
        String op = g.rng.pick("&", "|", "^");
        int ba = adj(a, ct);
        int bb = adj(b, ct);
        int bits = op.equals("&") && !ct.isSigned() ? Math.min(ba, bb) : Math.max(ba, bb);
        return Expr.op(ct, "($0 " + op + " $1)", bits, a, b);
    }

    private Expr negate(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.NEGATE);
        Expr a = operand(t, c, depth, max);
        Prim pt = a.prim().promoted();
        if (!pt.isSigned()) {
            return Expr.op(pt, "(-$0)", pt.width(), a);
        }
        if (adj(a, pt) <= pt.width() - 1) {
            return Expr.op(pt, "(-$0)", adj(a, pt), a);
        }
        return Expr.op(pt, g.helpers.negate(pt) + "($0)", pt.width(), a);
    }

    /** {@code c ? a : b} with operands of type {@code t} or near it; the result type follows C++. */
    Expr ternary(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.TERNARY);
        Expr k = cond(conditional(c, Level.BLOCK), depth - 1, max);
        Ctx cc = conditional(c, k.level());
        Expr a = t.isFloating() ? gen(t, cc, depth - 1, max) : operand(t, cc, depth, max);
        Expr b = t.isFloating() ? gen(t, cc, depth - 1, max) : operand(t, cc, depth, max);
        coverConditional(a, b);
        Prim rt = a.prim() == b.prim() ? a.prim() : Prim.common(a.prim(), b.prim());
        int bits = rt.isInteger() ? Math.max(adj(a, rt), adj(b, rt)) : 0;
        return Expr.op(rt, "($0 ? $1 : $2)", bits, k, a, b);
    }

    Expr comma(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.COMMA);
        Expr a = gen(g.scalarType(), c, depth - 1, max);
        Expr b = gen(t, c, depth - 1, max);
        return Expr.op(t, "($0, $1)", b.bits(), a, b);
    }

    private Expr castFrom(Prim t, Ctx c, int depth, Level max) {
        Prim from = g.rng.percent(70) || !g.floats() ? g.intType() : g.rng.pick(Prim.FLOAT, Prim.DOUBLE);
        if (from.isFloating() && !g.on(Construct.FLOAT_TO_INT)) {
            from = Prim.INT;
        }
        return convert(gen(from, c, depth - 1, max), t, true);
    }

    private Expr floatToInt(Prim t, Ctx c, int depth, Level max) {
        Prim from = g.on(Construct.TYPE_HALF) && g.rng.percent(15) ? Prim.HALF
                : g.rng.pick(Prim.FLOAT, Prim.DOUBLE);
        return convert(gen(from, c, depth - 1, max), t, true);
    }

    Expr compare(Ctx c, int depth, Level max) {
        g.cover(Construct.COMPARE);
        Prim at = g.scalarType();
        Expr a = gen(at, c, depth - 1, max);
        Prim bt = g.rng.coin() ? at : g.scalarType();
        Expr b = gen(bt, c, depth - 1, max);
        String op = g.rng.pick("<", "<=", ">", ">=", "==", "!=");
        return Expr.op(Prim.BOOL, "($0 " + op + " $1)", 1, a, b);
    }

    Expr logical(Ctx c, int depth, Level max) {
        g.cover(Construct.LOGICAL);
        if (g.rng.percent(25)) {
            return Expr.op(Prim.BOOL, "(!$0)", 1, cond(c, depth - 1, max));
        }
        Expr a = cond(conditional(c, Level.BLOCK), depth - 1, max);
        Expr b = cond(conditional(c, a.level()), depth - 1, max);
        coverConditional(b);
        return Expr.op(Prim.BOOL, g.rng.coin() ? "($0 && $1)" : "($0 || $1)", 1, a, b);
    }

    private Expr macro(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.MACRO);
        if (g.rng.percent(30)) {
            Expr lit = g.literals.of(t);
            String name = g.name("C");
            g.early.add(new Program.Item(name, "#define @" + name + " (" + lit.text() + ")", null));
            return Expr.op(t, "@" + name, lit.bits());
        }
        String[] m = macros.isEmpty() || g.rng.percent(40) ? newMacro() : g.rng.pick(macros);
        Ctx mc = c;
        Level ml = max;
        if (m[1].equals("min")) {
            // min evaluates one operand again under (a) < (b): collectives only where that is warp-uniform.
            boolean uniform = g.on(Construct.COLLECTIVE_IN_CONDITIONAL) && g.rng.percent(30);
            ml = uniform && !max.within(Level.WARP) ? Level.WARP : max;
            mc = conditional(c, uniform ? ml : Level.THREAD);
        }
        Expr a = operand(t, mc, depth, ml);
        Expr b = operand(t, mc, depth, ml);
        if (m[1].equals("min")) {
            coverConditional(a, b);
        }
        Prim ct = Prim.common(a.prim(), b.prim());
        String call = "@" + m[0] + "($0, $1)";
        return switch (m[1]) {
            case "==" -> Expr.op(Prim.BOOL, call, 1, a, b);
            case "min" -> {
                Prim rt = a.prim() == b.prim() ? a.prim() : ct;
                yield Expr.op(rt, call, Math.max(adj(a, rt), adj(b, rt)), a, b);
            }
            case "&" -> Expr.op(ct, call, ct.isSigned() ? Math.max(adj(a, ct), adj(b, ct))
                    : Math.min(adj(a, ct), adj(b, ct)), a, b);
            default -> Expr.op(ct, call, Math.max(adj(a, ct), adj(b, ct)), a, b);
        };
    }

    private String[] newMacro() {
        String op = g.rng.pick("^", "|", "&", "min", "==");
        String name = g.name("M");
        String body = switch (op) {
            case "min" -> "((a) < (b) ? (a) : (b))";
            case "==" -> "((a) == (b))";
            default -> "((a) " + op + " (b))";
        };
        g.early.add(new Program.Item(name, "#define @" + name + "(a, b) " + body, null));
        String[] m = {name, op};
        macros.add(m);
        return m;
    }

    /**
     * {@code T{}} or {@code ((T()))}: the second in two pairs of parentheses, since C++ reads {@code (T()) & x},
     * {@code (T()) + x} … as a cast of {@code &x}, {@code +x} to the function type {@code T()} (an error), and
     * the printer may put one pair around it; {@code ((T()))} is never a cast.
     */
    static String valueInitText(GenState g, String name) {
        return g.rng.coin() ? name + "{}" : "((" + name + "()))";
    }

    private Expr valueInit(Prim t) {
        g.cover(Construct.VALUE_INIT);
        String name = t.c().contains(" ") ? null : t.c();
        if (name == null) {
            return g.literals.integer(t, 0);
        }
        return Expr.lit(t, valueInitText(g, name), 0);
    }

    /**
     * {@code e} as type {@code t}. Integer to integer and anything to floating are C conversions (a cast, or
     * implicit where {@code explicit} is false and C converts anyway — here the cast is always written, so
     * the node's type is exact); floating to integer goes through a clamping helper.
     */
    Expr convert(Expr e, Prim t, boolean explicit) {
        Prim s = e.prim();
        if (s == t && !explicit) {
            return e;
        }
        if (s == Prim.HALF && t != Prim.HALF) {
            e = Expr.op(Prim.FLOAT, "__half2float($0)", e);
            s = Prim.FLOAT;
            if (t == Prim.FLOAT) {
                return e;
            }
        }
        if (t == Prim.HALF) {
            return floats.toHalf(e);
        }
        if (s.isFloating() && t.isInteger()) {
            g.cover(Construct.FLOAT_TO_INT);
            return Expr.op(t, g.helpers.floatToInt(s, t) + "($0)", e);
        }
        if (s == t) {
            return e;
        }
        int bits = t.isInteger() ? castBits(e, t) : 0;
        g.cover(Construct.CAST);
        String single = t.c().contains(" ") ? null : t.c();
        if (single != null && g.rng.percent(20) && g.on(Construct.FUNCTIONAL_CAST) && !mayDeclare(e)) {
            g.cover(Construct.FUNCTIONAL_CAST);
            return Expr.op(t, single + "($0)", bits, e);
        }
        String form = g.rng.percent(20) ? "static_cast<" + t.c() + ">($0)" : "((" + t.c() + ")$0)";
        return Expr.op(t, form, bits, e);
    }

    /**
     * Whether {@code T(e)} could read as a type: C++ takes whatever can be a type-id for one, so where {@code e}
     * begins with a type name or a parenthesis, {@code (bool(short(a[i]))) & m} and {@code (bool((short(v)))) + 1}
     * are casts of {@code &m}, {@code +1} to a function type (errors), not conversions of a value.
     */
    static boolean mayDeclare(Expr e) {
        String s = Printer.expr(e);
        if (s.startsWith("(")) {
            return true;
        }
        for (Prim p : Prim.values()) {
            String word = p.c().split(" ")[0];
            if (s.startsWith(word) && (s.length() == word.length() || !Character.isJavaIdentifierPart(
                    s.charAt(word.length())))) {
                return true;
            }
        }
        return false;
    }

    /** The magnitude bound of an integer value converted to integer type {@code t}. */
    static int castBits(Expr e, Prim t) {
        if (t == Prim.BOOL) {
            return 1;
        }
        return Math.min(adj(e, t), t.valueBits());
    }
}
