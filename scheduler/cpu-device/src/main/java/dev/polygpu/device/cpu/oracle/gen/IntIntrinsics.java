package dev.polygpu.device.cpu.oracle.gen;

/** Integer intrinsics: bit counts and reversals, 24-bit multiplies, min/max/abs, and the extra ones. */
final class IntIntrinsics {
    private IntIntrinsics() {
    }

    /** The intrinsics the engine has: defined for every argument (abs only where |x| fits). */
    static Expr common(ExprGen ex, Prim t, Ctx c, int depth, Level max) {
        GenState g = ex.g;
        g.cover(Construct.INT_INTRINSICS);
        int k = g.rng.below(8);
        return switch (k) {
            case 0 -> Expr.op(Prim.INT, g.rng.coin() ? "__popc($0)" : "__popcll($0)", 7, arg(ex, c, depth, max));
            case 1 -> Expr.op(Prim.INT, g.rng.coin() ? "__clz($0)" : "__clzll($0)", 7, arg(ex, c, depth, max));
            case 2 -> Expr.op(Prim.UINT, "__brev($0)", 32, arg(ex, c, depth, max));
            // nvcc 13.0 takes __mul24's product for one that cannot overflow (a no-signed-wrap multiply) and may
            // then widen it without its sign (docs/fuzzing.md): the operands are kept to 16 and 15 bits
            case 3 -> g.rng.coin() ? Expr.op(Prim.INT, "__mul24(($0) & 65535, ($1) & 32767)", 31,
                    arg(ex, c, depth, max), arg(ex, c, depth, max))
                    : Expr.op(Prim.UINT, "__umul24($0, $1)", 32, arg(ex, c, depth, max), arg(ex, c, depth, max));
            case 4, 5 -> minMax(ex, c, depth, max);
            default -> abs(ex, c, depth, max);
        };
    }

    private static Expr arg(ExprGen ex, Ctx c, int depth, Level max) {
        return ex.gen(ex.g.intType(), c, depth - 1, max);
    }

    private static Expr minMax(ExprGen ex, Ctx c, int depth, Level max) {
        GenState g = ex.g;
        Prim t = g.rng.pick(Prim.INT, Prim.UINT, Prim.LLONG, Prim.ULLONG);
        Expr a = ex.gen(t, c, depth - 1, max);
        Expr b = ex.gen(t, c, depth - 1, max);
        boolean isMin = g.rng.coin();
        String name = switch (t) {
            case UINT -> g.rng.coin() ? (isMin ? "umin" : "umax") : (isMin ? "min" : "max");
            case LLONG -> g.rng.coin() ? (isMin ? "llmin" : "llmax") : (isMin ? "min" : "max");
            case ULLONG -> g.rng.coin() ? (isMin ? "ullmin" : "ullmax") : (isMin ? "min" : "max");
            default -> isMin ? "min" : "max";
        };
        return Expr.op(t, name + "($0, $1)", Math.max(a.bits(), b.bits()), a, b);
    }

    /** abs/llabs of a value whose magnitude is known to fit (the minimum's absolute value is undefined). */
    private static Expr abs(ExprGen ex, Ctx c, int depth, Level max) {
        GenState g = ex.g;
        boolean wide = g.rng.coin();
        Prim t = wide ? Prim.LLONG : Prim.INT;
        Expr a = ex.gen(t, c, depth - 1, max);
        if (a.bits() >= t.width()) {
            a = ex.mask(a);
            a = ex.convert(a, t, false);
        }
        return Expr.op(t, (wide ? "llabs" : "abs") + "($0)", a.bits(), a);
    }

    /** The less common integer intrinsics (bit search, high halves of products, byte permutes, funnel shifts). */
    static Expr extra(ExprGen ex, Prim t, Ctx c, int depth, Level max) {
        GenState g = ex.g;
        g.cover(Construct.EXTRA_INT_INTRINSICS);
        Expr a = arg(ex, c, depth, max);
        Expr b = arg(ex, c, depth, max);
        int k = g.rng.below(10);
        return switch (k) {
            case 8 -> Expr.op(Prim.INT, g.rng.coin() ? "__ffs($0)" : "__ffsll($0)", 7, a);
            case 0 -> Expr.op(Prim.UINT, "__umulhi($0, $1)", 32, a, b);
            case 1 -> Expr.op(Prim.INT, "__mulhi($0, $1)", 32, a, b);
            case 2 -> Expr.op(Prim.ULLONG, "__brevll($0)", 64, a);
            case 3 -> Expr.op(Prim.UINT, "__byte_perm($0, $1, $2)", 32, a, b, arg(ex, c, depth, max));
            case 4 -> Expr.op(Prim.UINT, "__sad($0, $1, $2)", 32, a, b, arg(ex, c, depth, max));
            case 5 -> Expr.op(Prim.UINT, "__funnelshift_l($0, $1, $2)", 32, a, b, arg(ex, c, depth, max));
            case 6 -> Expr.op(Prim.ULLONG, "__umul64hi($0, $1)", 64, a, b);
            case 7 -> Expr.op(Prim.INT, "__rhadd($0, $1)", 32, a, b);
            default -> Expr.op(Prim.UINT, "__usad($0, $1, $2)", 32, a, b, arg(ex, c, depth, max));
        };
    }
}
