package dev.polygpu.device.cpu.oracle.gen;

import java.util.List;

/**
 * Floating-point and half-precision expressions. Only operations CUDA defines exactly go into ordinary
 * expressions (IEEE + - * /, sqrt, fma, conversions, rounding to integral values, fmin/fmax, fmod, …, the
 * {@code _rn} intrinsics), so both sides must agree to the bit; math functions with an ulp bound
 * ({@link #MATH_F}, {@link #MATH_D}) are only stored straight into their own tolerant buffers by
 * {@link StmtGen}, since feeding them on could amplify an allowed difference.
 */
final class FloatExprs {
    /**
     * Single-precision math functions and their maximum ulp error over the full range, from the CUDA C++
     * Programming Guide's table of standard functions ({@code name:arity:ulp}).
     */
    static final List<String> MATH_F = List.of("rsqrtf:1:2", "cbrtf:1:1", "rcbrtf:1:1", "hypotf:2:3",
            "expf:1:2", "exp2f:1:2", "exp10f:1:2", "expm1f:1:1", "logf:1:1", "log2f:1:1", "log10f:1:2",
            "log1pf:1:1", "sinf:1:2", "cosf:1:2", "tanf:1:4", "sinpif:1:1", "cospif:1:1", "asinf:1:2",
            "acosf:1:2", "atanf:1:2", "atan2f:2:3", "sinhf:1:3", "coshf:1:2", "tanhf:1:2", "asinhf:1:3",
            "acoshf:1:4", "atanhf:1:3", "powf:2:4", "erff:1:2", "erfcf:1:4", "erfinvf:1:2", "erfcinvf:1:4");
    /** Double-precision math functions and their maximum ulp error, as {@link #MATH_F}. */
    static final List<String> MATH_D = List.of("rsqrt:1:1", "cbrt:1:1", "rcbrt:1:1", "hypot:2:2", "exp:1:1",
            "exp2:1:1", "exp10:1:1", "expm1:1:1", "log:1:1", "log2:1:1", "log10:1:1", "log1p:1:1", "sin:1:2",
            "cos:1:2", "tan:1:2", "sinpi:1:2", "cospi:1:2", "asin:1:2", "acos:1:2", "atan:1:2", "atan2:2:2",
            "sinh:1:2", "cosh:1:1", "tanh:1:1", "asinh:1:3", "acosh:1:3", "atanh:1:2", "pow:2:2", "erf:1:2",
            "erfc:1:5", "erfinv:1:5", "erfcinv:1:6");

    private final GenState g;
    private final ExprGen ex;

    FloatExprs(GenState g, ExprGen ex) {
        this.g = g;
        this.ex = ex;
    }

    Expr floating(Prim t, Ctx c, int depth, Level max) {
        Construct[] opts = {Construct.FLOAT_ARITH, Construct.NEGATE, Construct.TERNARY, Construct.CAST,
            Construct.EXACT_MATH, Construct.ROUNDED_INTRINSICS, Construct.DIRECTED_ROUNDING, Construct.BIT_CAST,
            Construct.DEVICE_FUNCTION, Construct.INPUT_READ, Construct.SHFL, Construct.COMMA, Construct.VALUE_INIT};
        int[] w = new int[opts.length];
        for (int i = 0; i < opts.length; i++) {
            w[i] = g.weight(opts[i]);
        }
        w[0] += 4;
        w[9] += 4;
        boolean warp = c.level.within(Level.WARP) && max == Level.THREAD;
        w[10] = warp ? w[10] + g.weight(Construct.SHFL_XOR) + g.weight(Construct.SHFL_DOWN) : 0;
        int k = g.rng.weighted(w);
        Construct pick = k < 0 ? Construct.INPUT_READ : opts[k];
        Expr e = switch (pick) {
            case FLOAT_ARITH -> arith(t, c, depth, max);
            case NEGATE -> {
                g.cover(Construct.NEGATE);
                yield Expr.op(t, "(-$0)", ex.gen(t, c, depth - 1, max));
            }
            case TERNARY -> ex.ternary(t, c, depth, max);
            case CAST -> ex.convert(ex.gen(g.rng.coin() ? g.intType() : other(t), c, depth - 1, max), t, true);
            case EXACT_MATH -> exact(t, c, depth, max);
            case ROUNDED_INTRINSICS -> rounded(t, c, depth, max);
            case DIRECTED_ROUNDING -> directed(t, c, depth, max);
            case BIT_CAST -> fromBits(t, c, depth, max);
            case DEVICE_FUNCTION -> ex.funcs.call(t, c, depth, max);
            case SHFL -> Warps.shuffle(ex, t, c, depth);
            case COMMA -> ex.comma(t, c, depth, max);
            case VALUE_INIT -> {
                g.cover(Construct.VALUE_INIT);
                yield Expr.lit(t, ExprGen.valueInitText(g, t.c()), 0);
            }
            default -> null;
        };
        return e == null ? ex.leaf(t, c, max) : ex.convert(e, t, false);
    }

    private static Prim other(Prim t) {
        return t == Prim.FLOAT ? Prim.DOUBLE : Prim.FLOAT;
    }

    private Expr arith(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.FLOAT_ARITH);
        Prim at = g.rng.percent(80) ? t : g.rng.percent(50) ? g.intType() : Prim.FLOAT;
        Prim bt = g.rng.percent(80) ? t : g.rng.percent(50) ? g.intType() : Prim.FLOAT;
        if (at.isInteger() && bt.isInteger()) {
            // At least one floating operand, or this would be an unchecked integer operation.
            at = t;
        }
        Expr a = ex.gen(at, c, depth - 1, max);
        Expr b = ex.gen(bt, c, depth - 1, max);
        String op = g.rng.pick("+", "-", "*", "/");
        if (op.equals("/") && negativeZero(b)) {
            op = "*";
        }
        Prim ct = Prim.common(a.prim(), b.prim());
        return Expr.op(ct, "($0 " + op + " $1)", a, b);
    }

    /** Functions CUDA computes exactly (0 ulp): IEEE operations and rounding to integral values. */
    private Expr exact(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.EXACT_MATH);
        String f = t == Prim.FLOAT ? "f" : "";
        Expr a = ex.gen(t, c, depth - 1, max);
        int k = g.rng.below(10);
        if (k < 4) {
            // Not double ceil, and float ceil only as ceilf: nvcc 13.0 folds ceil (either overload) of a constant
            // of 2^63 or more to -2^63.
            String name = t == Prim.DOUBLE
                    ? g.rng.pick("sqrt", "fabs", "floor", "trunc", "rint", "round", "nearbyint", "logb")
                    : g.rng.pick("sqrt", "fabs", "floor", "ceil", "trunc", "rint", "round", "nearbyint", "logb");
            String spelled = g.rng.percent(20) && !name.equals("ceil") ? name : name + f;
            return Expr.op(t, spelled + "($0)", a);
        }
        if (k < 8) {
            String name = g.rng.pick("fmin", "fmax", "fmod", "remainder", "fdim", "nextafter");
            if (name.startsWith("fm") && !name.equals("fmod")) {
                // Which zero fmin(+0, -0) gives is not defined: PTX's min gives -0, nvcc's constant folding +0.
                // Adding +0 makes both +0 (a sum of opposite zeros is +0), so the kernel does not depend on it.
                return Expr.op(t, "(" + name + f + "($0, $1) + " + (t == Prim.FLOAT ? "0.0f" : "0.0") + ")", a,
                        ex.gen(t, c, depth - 1, max));
            }
            return Expr.op(t, name + f + "($0, $1)", a, ex.gen(t, c, depth - 1, max));
        }
        if (k < 9) {
            return Expr.op(t, "fma" + f + "($0, $1, $2)", a, ex.gen(t, c, depth - 1, max), ex.gen(t, c, depth - 1,
                    max));
        }
        Expr n = ex.gen(Prim.INT, c, depth - 1, max);
        return Expr.op(t, "ldexp" + f + "($0, ($1 & 255) - 128)", a, n);
    }

    /** The round-to-nearest intrinsics the engine has. */
    private Expr rounded(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.ROUNDED_INTRINSICS);
        Expr a = ex.gen(t, c, depth - 1, max);
        if (t == Prim.FLOAT && g.rng.percent(25)) {
            int k = g.rng.below(4);
            return switch (k) {
                case 0 -> Expr.op(t, "__frcp_rn($0)", a);
                case 1 -> Expr.op(t, "__int2float_rn($0)", ex.gen(Prim.INT, c, depth - 1, max));
                case 2 -> Expr.op(t, "__uint2float_rn($0)", ex.gen(Prim.UINT, c, depth - 1, max));
                default -> Expr.op(t, "__double2float_rn($0)", ex.gen(Prim.DOUBLE, c, depth - 1, max));
            };
        }
        if (t == Prim.DOUBLE && g.rng.percent(20)) {
            return Expr.op(t, "__int2double_rn($0)", ex.gen(Prim.INT, c, depth - 1, max));
        }
        String op = g.rng.pick("add", "sub", "mul", "div");
        String name = (t == Prim.FLOAT ? "__f" : "__d") + op + "_rn";
        Expr b = ex.gen(t, c, depth - 1, max);
        if (op.equals("div") && negativeZero(b)) {
            name = (t == Prim.FLOAT ? "__f" : "__d") + "mul_rn";
        }
        return Expr.op(t, name + "($0, $1)", a, b);
    }

    /**
     * Whether {@code e} is a literal negative zero. nvcc 13.0 folds a comparison of {@code x / -0.0} for a
     * non-negative {@code x} as if the quotient were not negative (it is -inf), so a literal -0 is kept out of
     * divisors (bench/fuzz seed 7 case 30155).
     */
    static boolean negativeZero(Expr e) {
        if (e.kind() != Expr.Kind.LIT) {
            return false;
        }
        String s = e.text().replace("(", "").replace(")", "").trim();
        if (s.endsWith("f") || s.endsWith("F")) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            double d = Double.parseDouble(s);
            return d == 0 && 1 / d < 0;
        } catch (NumberFormatException notANumber) {
            return false;
        }
    }

    private Expr directed(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.DIRECTED_ROUNDING);
        String mode = g.rng.pick("rz", "ru", "rd");
        Expr a = ex.gen(t, c, depth - 1, max);
        Expr b = ex.gen(t, c, depth - 1, max);
        if (t == Prim.FLOAT && g.rng.percent(30)) {
            return Expr.op(t, "__fmaf_" + mode + "($0, $1, $2)", a, b, ex.gen(t, c, depth - 1, max));
        }
        String op = g.rng.pick("add", "sub", "mul");
        return Expr.op(t, (t == Prim.FLOAT ? "__f" : "__d") + op + "_" + mode + "($0, $1)", a, b);
    }

    private Expr fromBits(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.BIT_CAST);
        if (t == Prim.DOUBLE) {
            return Expr.op(t, "__longlong_as_double($0)", ex.gen(Prim.LLONG, c, depth - 1, max));
        }
        return g.rng.coin() ? Expr.op(t, "__int_as_float($0)", ex.gen(Prim.INT, c, depth - 1, max))
                : Expr.op(t, "__uint_as_float($0)", ex.gen(Prim.UINT, c, depth - 1, max));
    }

    /** An integer holding a floating value's bits, NaNs made canonical first (their payloads differ by path). */
    Expr bitsOf(Ctx c, int depth, Level max) {
        g.cover(Construct.BIT_CAST);
        if (g.rng.coin()) {
            Expr d = ex.gen(Prim.DOUBLE, c, depth - 1, max);
            return Expr.op(Prim.LLONG, "__double_as_longlong(" + g.helpers.canonical(Prim.DOUBLE) + "($0))", d);
        }
        Expr f = ex.gen(Prim.FLOAT, c, depth - 1, max);
        String name = g.rng.coin() ? "__float_as_int" : "__float_as_uint";
        return Expr.op(name.endsWith("uint") ? Prim.UINT : Prim.INT, name + "(" + g.helpers.canonical(Prim.FLOAT)
                + "($0))", f);
    }

    /**
     * A call of a math function with an ulp bound on an exact argument, for a tolerant buffer: the call and
     * the bound. Its value goes nowhere else.
     */
    Object[] mathCall(Prim t, Ctx c, int depth, Level max) {
        g.cover(Construct.MATH_FUNCTIONS);
        String[] f = g.rng.pick(t == Prim.DOUBLE ? MATH_D : MATH_F).split(":");
        int arity = Integer.parseInt(f[1]);
        Expr a = ex.gen(t, c, depth - 1, max);
        Expr call = arity == 1 ? Expr.op(t, f[0] + "($0)", a)
                : Expr.op(t, f[0] + "($0, $1)", a, ex.gen(t, c, depth - 1, max));
        return new Object[] {call, Integer.parseInt(f[2])};
    }

    // Half precision (the PTX interpreter refuses .f16, so the profile keeps it off by default).

    Expr halfLiteral() {
        return Expr.op(Prim.HALF, "__float2half($0)", g.literals.floating(Prim.FLOAT, g.rng.range(-64, 64) / 4.0));
    }

    Expr toHalf(Expr e) {
        g.cover(Construct.TYPE_HALF);
        if (e.prim() == Prim.FLOAT) {
            return Expr.op(Prim.HALF, "__float2half($0)", e);
        }
        if (e.prim() == Prim.DOUBLE) {
            return Expr.op(Prim.HALF, "__double2half($0)", e);
        }
        return Expr.op(Prim.HALF, "((__half)$0)", e);
    }

    Expr half(Ctx c, int depth, Level max) {
        g.cover(Construct.TYPE_HALF);
        if (depth <= 0 || g.rng.percent(20)) {
            return ex.leaf(Prim.HALF, c, max);
        }
        int k = g.rng.below(6);
        return switch (k) {
            case 0 -> toHalf(ex.gen(g.rng.pick(Prim.FLOAT, Prim.DOUBLE, Prim.INT), c, depth - 1, max));
            case 1 -> Expr.op(Prim.HALF, "($0 " + g.rng.pick("+", "-", "*", "/") + " $1)", half(c, depth - 1, max),
                    half(c, depth - 1, max));
            case 2 -> Expr.op(Prim.HALF, g.rng.pick("__hadd", "__hsub", "__hmul", "__hmax", "__hmin") + "($0, $1)",
                    half(c, depth - 1, max), half(c, depth - 1, max));
            case 3 -> Expr.op(Prim.HALF, "__hfma($0, $1, $2)", half(c, depth - 1, max), half(c, depth - 1, max),
                    half(c, depth - 1, max));
            case 4 -> Expr.op(Prim.HALF, g.rng.pick("__hneg", "__habs") + "($0)", half(c, depth - 1, max));
            default -> {
                Expr k2 = ex.cond(ex.conditional(c, Level.BLOCK), depth - 1, max);
                Ctx cc = ex.conditional(c, k2.level());
                Expr a = half(cc, depth - 1, max);
                Expr b = half(cc, depth - 1, max);
                ex.coverConditional(a, b);
                yield Expr.op(Prim.HALF, "($0 ? $1 : $2)", k2, a, b);
            }
        };
    }
}
