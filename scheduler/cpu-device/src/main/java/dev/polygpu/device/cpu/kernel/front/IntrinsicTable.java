package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Maps CUDA built-in function names to {@link Intrinsic}s, choosing the variant (float/double, int/unsigned…)
 * as CUDA's overloaded headers do, and converting the arguments to the variant's parameter types. libdevice's
 * {@code __nv_} names of the floating-point math functions map to the same intrinsics, each with its one type.
 */
final class IntrinsicTable {
    private IntrinsicTable() {}

    /** How a name resolves: the intrinsic, arity, and the fixed type of a suffixed name (null: by arguments). */
    private record Math(Intrinsic op, int arity, Prim fixed) {}

    private static final Map<String, Math> MATH = new HashMap<>();
    private static final Map<String, Intrinsic> ATOMICS = new HashMap<>();
    private static final Map<String, Prim[]> BITCASTS = Map.of(
            "__float_as_int", new Prim[] {Prim.FLOAT, Prim.INT},
            "__int_as_float", new Prim[] {Prim.INT, Prim.FLOAT},
            "__float_as_uint", new Prim[] {Prim.FLOAT, Prim.UINT},
            "__uint_as_float", new Prim[] {Prim.UINT, Prim.FLOAT},
            "__double_as_longlong", new Prim[] {Prim.DOUBLE, Prim.LONGLONG},
            "__longlong_as_double", new Prim[] {Prim.LONGLONG, Prim.DOUBLE});
    /** Conversion intrinsics that are plain C conversions (round toward zero, or exact). */
    private static final Map<String, Prim[]> CONVERSIONS = Map.of(
            "__float2int_rz", new Prim[] {Prim.FLOAT, Prim.INT},
            "__float2uint_rz", new Prim[] {Prim.FLOAT, Prim.UINT},
            "__double2int_rz", new Prim[] {Prim.DOUBLE, Prim.INT},
            "__float2ll_rz", new Prim[] {Prim.FLOAT, Prim.LONGLONG},
            "__int2float_rn", new Prim[] {Prim.INT, Prim.FLOAT},
            "__uint2float_rn", new Prim[] {Prim.UINT, Prim.FLOAT},
            "__int2double_rn", new Prim[] {Prim.INT, Prim.DOUBLE},
            "__double2float_rn", new Prim[] {Prim.DOUBLE, Prim.FLOAT});
    /** {@code sincosf(x, &s, &c)} and its variants: the fixed type, or null for the overloaded name. */
    private static final Map<String, Prim> SINCOS = new HashMap<>(Map.of("sincosf", Prim.FLOAT,
            "__sincosf", Prim.FLOAT, "sincospif", Prim.FLOAT));
    static {
        SINCOS.put("sincos", null);
        SINCOS.put("sincospi", null);
    }
    /**
     * Math functions whose parameters or result are not all of the variant's floating type: {@code ldexp(x, n)},
     * {@code scalbn(x, n)}, {@code scalbln(x, l)}, {@code ilogb(x)}, {@code lrint(x)} and its kin, the Bessel
     * functions {@code jn(n, x)} and {@code yn(n, x)}, {@code norm(dim, p)} and {@code rnorm(dim, p)}, and the
     * pointer-writing {@code frexp(x, &e)}, {@code modf(x, &i)}, {@code remquo(x, y, &q)}.
     */
    private static final Map<String, Math> MIXED = new HashMap<>();
    private static final Set<String> OTHERS = Set.of("__syncthreads", "__syncthreads_count", "__syncthreads_and",
            "__syncthreads_or", "__syncwarp", "__threadfence", "__threadfence_block", "__threadfence_system",
            "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
            "__all_sync", "__activemask", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
            "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync", "__nanosleep", "__popc", "__popcll", "__ffs", "__ffsll", "__clz", "__clzll", "__brev",
            "min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax", "abs", "labs", "llabs",
            "isnan", "isinf", "isfinite", "signbit", "__isnan", "__isinf", "__isfinite", "__ldg",
            "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv", "__stwb", "__stcg", "__stcs", "__stwt", "clock", "clock64",
            "__float2int_rn", "__float2int_rd", "__float2int_ru", "__fadd_rn", "__fsub_rn", "__fmul_rn",
            "__fdiv_rn", "__dadd_rn", "__dsub_rn", "__dmul_rn", "__ddiv_rn", "__frcp_rn", "__drcp_rn", "__brevll");

    static {
        Intrinsic[] unary = {Intrinsic.SQRT, Intrinsic.RSQRT, Intrinsic.CBRT, Intrinsic.EXP, Intrinsic.EXP2,
            Intrinsic.EXP10, Intrinsic.EXPM1, Intrinsic.LOG, Intrinsic.LOG2, Intrinsic.LOG10, Intrinsic.LOG1P,
            Intrinsic.SIN, Intrinsic.COS, Intrinsic.TAN, Intrinsic.ASIN, Intrinsic.ACOS, Intrinsic.ATAN,
            Intrinsic.SINH, Intrinsic.COSH, Intrinsic.TANH, Intrinsic.ERF, Intrinsic.ERFC, Intrinsic.FABS,
            Intrinsic.FLOOR, Intrinsic.CEIL, Intrinsic.ROUND, Intrinsic.TRUNC, Intrinsic.RINT, Intrinsic.ASINH,
            Intrinsic.ACOSH, Intrinsic.ATANH, Intrinsic.SINPI, Intrinsic.COSPI, Intrinsic.ERFINV, Intrinsic.ERFCINV,
            Intrinsic.NORMCDF, Intrinsic.NORMCDFINV, Intrinsic.LGAMMA, Intrinsic.TGAMMA, Intrinsic.RCBRT,
            Intrinsic.LOGB, Intrinsic.ERFCX, Intrinsic.J0, Intrinsic.J1, Intrinsic.Y0, Intrinsic.Y1,
            Intrinsic.CYL_BESSEL_I0, Intrinsic.CYL_BESSEL_I1};
        Intrinsic[] binary = {Intrinsic.POW, Intrinsic.ATAN2, Intrinsic.FMOD, Intrinsic.HYPOT, Intrinsic.COPYSIGN,
            Intrinsic.FMIN, Intrinsic.FMAX, Intrinsic.REMAINDER, Intrinsic.FDIM, Intrinsic.RHYPOT,
            Intrinsic.NEXTAFTER};
        for (Intrinsic i : unary) {
            math(i, 1);
        }
        for (Intrinsic i : binary) {
            math(i, 2);
        }
        math(Intrinsic.FMA, 3);
        math(Intrinsic.NORM3D, 3);
        math(Intrinsic.RNORM3D, 3);
        math(Intrinsic.NORM4D, 4);
        math(Intrinsic.RNORM4D, 4);
        for (Intrinsic i : List.of(Intrinsic.LDEXP, Intrinsic.SCALBN, Intrinsic.SCALBLN, Intrinsic.FREXP,
                Intrinsic.MODF, Intrinsic.JN, Intrinsic.YN, Intrinsic.NORM, Intrinsic.RNORM)) {
            mixed(i.cudaName, i, 2);
        }
        for (Intrinsic i : List.of(Intrinsic.ILOGB, Intrinsic.LRINT, Intrinsic.LROUND)) {
            mixed(i.cudaName, i, 1);
        }
        mixed("llrint", Intrinsic.LRINT, 1);
        mixed("llround", Intrinsic.LROUND, 1);
        mixed("remquo", Intrinsic.REMQUO_QUOTIENT, 3);
        MATH.put("nearbyint", new Math(Intrinsic.RINT, 1, null));
        MATH.put("nearbyintf", new Math(Intrinsic.RINT, 1, Prim.FLOAT));
        for (String fast : List.of("exp", "exp10", "log", "log2", "log10", "sin", "cos", "tan", "pow")) {
            Math m = MATH.get(fast);
            MATH.put("__" + fast + "f", new Math(m.op, m.arity, Prim.FLOAT));
        }
        MATH.put("__fsqrt_rn", new Math(Intrinsic.SQRT, 1, Prim.FLOAT));
        MATH.put("__frsqrt_rn", new Math(Intrinsic.RSQRT, 1, Prim.FLOAT));
        MATH.put("__dsqrt_rn", new Math(Intrinsic.SQRT, 1, Prim.DOUBLE));
        MATH.put("__fmaf_rn", new Math(Intrinsic.FMA, 3, Prim.FLOAT));
        MATH.put("__fma_rn", new Math(Intrinsic.FMA, 3, Prim.DOUBLE));
        for (String mode : List.of("rz", "ru", "rd")) {
            String m = mode.toUpperCase(Locale.ROOT);
            for (String op : List.of("add", "sub", "mul", "div")) {
                Intrinsic i = Intrinsic.valueOf(op.toUpperCase(Locale.ROOT) + "_" + m);
                MATH.put("__f" + op + "_" + mode, new Math(i, 2, Prim.FLOAT));
                MATH.put("__d" + op + "_" + mode, new Math(i, 2, Prim.DOUBLE));
            }
            MATH.put("__fmaf_" + mode, new Math(Intrinsic.valueOf("FMA_" + m), 3, Prim.FLOAT));
            MATH.put("__fma_" + mode, new Math(Intrinsic.valueOf("FMA_" + m), 3, Prim.DOUBLE));
            MATH.put("__fsqrt_" + mode, new Math(Intrinsic.valueOf("SQRT_" + m), 1, Prim.FLOAT));
            MATH.put("__dsqrt_" + mode, new Math(Intrinsic.valueOf("SQRT_" + m), 1, Prim.DOUBLE));
            MATH.put("__frcp_" + mode, new Math(Intrinsic.valueOf("RCP_" + m), 1, Prim.FLOAT));
            MATH.put("__drcp_" + mode, new Math(Intrinsic.valueOf("RCP_" + m), 1, Prim.DOUBLE));
        }
        MATH.put("__saturatef", new Math(Intrinsic.SATURATE, 1, Prim.FLOAT));
        MATH.put("__fdividef", new Math(Intrinsic.FDIVIDE, 2, Prim.FLOAT));
        MATH.put("fdividef", new Math(Intrinsic.FDIVIDE, 2, Prim.FLOAT));
        MATH.put("fabsf", new Math(Intrinsic.FABS, 1, Prim.FLOAT));
        for (Intrinsic a : List.of(Intrinsic.ATOMIC_ADD, Intrinsic.ATOMIC_SUB, Intrinsic.ATOMIC_EXCH,
                Intrinsic.ATOMIC_MIN, Intrinsic.ATOMIC_MAX, Intrinsic.ATOMIC_INC, Intrinsic.ATOMIC_DEC,
                Intrinsic.ATOMIC_CAS, Intrinsic.ATOMIC_AND, Intrinsic.ATOMIC_OR, Intrinsic.ATOMIC_XOR)) {
            ATOMICS.put(a.cudaName, a);
            ATOMICS.put(a.cudaName + "_block", a);
            ATOMICS.put(a.cudaName + "_system", a);
        }
    }

    private static void math(Intrinsic i, int arity) {
        MATH.put(i.cudaName, new Math(i, arity, null));
        MATH.put(i.cudaName + "f", new Math(i, arity, Prim.FLOAT));
    }

    private static void mixed(String name, Intrinsic i, int arity) {
        MIXED.put(name, new Math(i, arity, null));
        MIXED.put(name + "f", new Math(i, arity, Prim.FLOAT));
    }

    static boolean knows(String name) {
        return MATH.containsKey(name) || ATOMICS.containsKey(name) || BITCASTS.containsKey(name)
                || CONVERSIONS.containsKey(name) || SINCOS.containsKey(name) || MIXED.containsKey(name)
                || OTHERS.contains(name) || IntegerIntrinsicSema.knows(name) || libdeviceBase(name) != null;
    }

    /**
     * The CUDA name that a libdevice name stands for, or null: {@code __nv_sin} is {@code sin}'s double form,
     * {@code __nv_sinf} its float form, {@code __nv_fast_expf} is {@code __expf} and {@code __nv_fmaf_rn} is
     * {@code __fmaf_rn}. Only the floating-point math functions are mapped.
     */
    private static String libdeviceBase(String name) {
        if (!name.startsWith("__nv_")) {
            return null;
        }
        String base = name.substring(5);
        if (base.startsWith("fast_")) {
            base = "__" + base.substring(5);
        }
        for (String b : List.of(base, "__" + base)) {
            if (MATH.containsKey(b) || MIXED.containsKey(b) || SINCOS.containsKey(b)) {
                return b;
            }
        }
        return null;
    }

    /** A libdevice name has one type: an overloaded CUDA name's double form (its float form ends in f). */
    private static Math libdeviceForm(Math m) {
        return m == null || m.fixed != null ? m : new Math(m.op, m.arity, Prim.DOUBLE);
    }

    private static Diagnostics.Abort arity(ExprSema es, Pos pos, String name, String expected, int actual) {
        return es.diags.fail(pos, "function '" + name + "' expects " + expected + " argument"
                + (expected.equals("1") ? "" : "s") + ", but " + actual + (actual == 1 ? " was" : " were") + " given");
    }

    private static void count(ExprSema es, Pos pos, String name, List<Expr> args, int n) {
        if (args.size() != n) {
            throw arity(es, pos, name, Integer.toString(n), args.size());
        }
    }

    private static Expr call(Pos pos, CType type, Intrinsic i, List<Expr> args) {
        return new Expr.IntrinsicCall(pos, type, i, List.copyOf(args));
    }

    private static Expr arg(ExprSema es, String name, List<Expr> args, int i, CType to) {
        Expr a = args.get(i);
        if (!a.type().isArithmetic() && to.isArithmetic()) {
            throw es.diags.fail(a.pos(), "no matching function for call to '" + name + "': argument " + (i + 1)
                    + " has type '" + a.type() + "'");
        }
        return es.convert(a, to, "for argument " + (i + 1) + " of '" + name + "'");
    }

    static Expr resolve(String name, Pos pos, List<Expr> args, ExprSema es) {
        String base = libdeviceBase(name);
        if (base != null) {
            Math m = libdeviceForm(MATH.get(base));
            if (m != null) {
                return math(name, pos, args, es, m);
            }
            if (SINCOS.containsKey(base)) {
                Prim fixed = SINCOS.get(base);
                return sincos(name, pos, args, es, fixed != null ? fixed : Prim.DOUBLE, base.contains("pi"));
            }
            return mixed(name, pos, args, es, libdeviceForm(MIXED.get(base)));
        }
        Math m = MATH.get(name);
        if (m != null) {
            return math(name, pos, args, es, m);
        }
        Intrinsic atomic = ATOMICS.get(name);
        if (atomic != null) {
            return atomic(name, pos, args, es, atomic);
        }
        Prim[] bc = BITCASTS.get(name);
        if (bc != null) {
            count(es, pos, name, args, 1);
            return new Expr.BitCast(pos, bc[1], arg(es, name, args, 0, bc[0]));
        }
        Prim[] cv = CONVERSIONS.get(name);
        if (cv != null) {
            count(es, pos, name, args, 1);
            return new Expr.Cast(pos, cv[1], arg(es, name, args, 0, cv[0]));
        }
        if (SINCOS.containsKey(name)) {
            return sincos(name, pos, args, es, SINCOS.get(name), name.startsWith("sincospi"));
        }
        Math mixed = MIXED.get(name);
        if (mixed != null) {
            return mixed(name, pos, args, es, mixed);
        }
        return WarpAndMisc.resolve(name, pos, args, es);
    }

    /** A math function whose arguments all convert to the variant's floating type. */
    private static Expr math(String name, Pos pos, List<Expr> args, ExprSema es, Math m) {
        count(es, pos, name, args, m.arity);
        Prim t = m.fixed != null ? m.fixed : floatingVariant(es, name, args);
        List<Expr> conv = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            conv.add(arg(es, name, args, i, t));
        }
        return call(pos, t, m.op, conv);
    }

    /**
     * {@code ldexp(x, n)} and {@code scalbn(x, n)} (n converted to int), {@code scalbln(x, n)} (to long),
     * {@code ilogb(x)} (an int), {@code lrint(x)} and its kin (a long or long long), and {@code frexp(x, &e)} /
     * {@code modf(x, &i)}, which are {@code *e = exponent(x), mantissa(x)} and {@code *i = trunc(x),
     * fraction(x)}, with {@code x} evaluated twice as in {@link #sincos}; the functions whose floating argument
     * is not the first go to their own methods.
     */
    private static Expr mixed(String name, Pos pos, List<Expr> args, ExprSema es, Math m) {
        count(es, pos, name, args, m.arity);
        switch (m.op) {
            case JN, YN -> {
                return besselOfOrder(name, pos, args, es, m);
            }
            case NORM, RNORM -> {
                return norm(name, pos, args, es, m);
            }
            case REMQUO_QUOTIENT -> {
                return remquo(name, pos, args, es, m);
            }
            default -> { }
        }
        Prim t = m.fixed != null ? m.fixed : floatingVariant(es, name, args.subList(0, 1));
        Expr x = arg(es, name, args, 0, t);
        switch (m.op) {
            case ILOGB -> {
                return call(pos, Prim.INT, m.op, List.of(x));
            }
            case LRINT, LROUND -> {
                boolean longLong = name.startsWith("ll") || name.startsWith("__nv_ll");
                return call(pos, longLong ? Prim.LONGLONG : Prim.LONG, m.op, List.of(x));
            }
            case LDEXP, SCALBN -> {
                return call(pos, t, m.op, List.of(x, arg(es, name, args, 1, Prim.INT)));
            }
            case SCALBLN -> {
                return call(pos, t, m.op, List.of(x, arg(es, name, args, 1, Prim.LONG)));
            }
            default -> {
                requirePure(es, name, x, "first");
                boolean frexp = m.op == Intrinsic.FREXP;
                Prim stored = frexp ? Prim.INT : t;
                Expr p = args.get(1);
                if (!(p.type() instanceof CType.Pointer ptr) || ptr.pointee() != stored) {
                    throw es.diags.fail(p.pos(), "argument 2 of '" + name + "' must be " + (frexp ? "an" : "a")
                            + " '" + stored + "*', not '" + p.type() + "'");
                }
                Expr part = call(pos, stored, frexp ? Intrinsic.FREXP_EXP : Intrinsic.TRUNC, List.of(x));
                Expr store = new Expr.Assign(pos, stored, new Expr.Deref(pos, stored, p), part);
                return new Expr.Comma(pos, t, store, call(pos, t, m.op, List.of(x)));
            }
        }
    }

    /** The engine evaluates {@code x} twice; that is only right if it has no side effects. */
    private static void requirePure(ExprSema es, String name, Expr x, String which) {
        if (!WarpLockstep.pure(x)) {
            throw es.diags.fail(x.pos(), "the " + which + " argument of '" + name + "' has side effects, which the "
                    + "CPU device's kernel engine would repeat; assign it to a variable first");
        }
    }

    /** {@code jn(n, x)}, {@code yn(n, x)}: the order must be an integer (C would silently truncate 2.5 to 2). */
    private static Expr besselOfOrder(String name, Pos pos, List<Expr> args, ExprSema es, Math m) {
        Expr order = args.get(0);
        if (!order.type().isInteger()) {
            throw es.diags.fail(order.pos(), "argument 1 of '" + name + "' is the order and must be an integer, "
                    + "not '" + order.type() + "'; for a fractional order there is no CUDA function");
        }
        Prim t = m.fixed != null ? m.fixed : args.get(1).type() == Prim.FLOAT ? Prim.FLOAT : Prim.DOUBLE;
        return call(pos, t, m.op, List.of(arg(es, name, args, 0, Prim.INT), arg(es, name, args, 1, t)));
    }

    /** {@code norm(dim, p)}, {@code rnorm(dim, p)} (double), {@code normf}, {@code rnormf} (float). */
    private static Expr norm(String name, Pos pos, List<Expr> args, ExprSema es, Math m) {
        Prim t = m.fixed != null ? m.fixed : Prim.DOUBLE;
        Expr dim = arg(es, name, args, 0, Prim.INT);
        Expr p = args.get(1);
        if (!(p.type() instanceof CType.Pointer ptr) || ptr.pointee() != t) {
            String other = t == Prim.FLOAT ? name.substring(0, name.length() - 1) : name + "f";
            String hint = p.type() instanceof CType.Pointer ptr && ptr.pointee() == (t == Prim.FLOAT ? Prim.DOUBLE
                    : Prim.FLOAT) && !name.startsWith("__nv_") ? "; '" + other + "' takes that" : "";
            throw es.diags.fail(p.pos(), "argument 2 of '" + name + "' must be a 'const " + t + "*', not '"
                    + p.type() + "'" + hint);
        }
        return call(pos, t, m.op, List.of(dim, p));
    }

    /** {@code remquo(x, y, qp)} is {@code *qp = quotient bits(x, y), remainder(x, y)}, x and y evaluated twice. */
    private static Expr remquo(String name, Pos pos, List<Expr> args, ExprSema es, Math m) {
        Prim t = m.fixed != null ? m.fixed : floatingVariant(es, name, args.subList(0, 2));
        Expr x = arg(es, name, args, 0, t);
        Expr y = arg(es, name, args, 1, t);
        requirePure(es, name, x, "first");
        requirePure(es, name, y, "second");
        Expr p = args.get(2);
        if (!(p.type() instanceof CType.Pointer ptr) || ptr.pointee() != Prim.INT) {
            throw es.diags.fail(p.pos(), "argument 3 of '" + name + "' must be an 'int*', not '" + p.type() + "'");
        }
        Expr quotient = call(pos, Prim.INT, Intrinsic.REMQUO_QUOTIENT, List.of(x, y));
        Expr store = new Expr.Assign(pos, Prim.INT, new Expr.Deref(pos, Prim.INT, p), quotient);
        return new Expr.Comma(pos, t, store, call(pos, t, Intrinsic.REMAINDER, List.of(x, y)));
    }

    /**
     * {@code sincosf(x, sp, cp)} is {@code *sp = sinf(x), *cp = cosf(x)}, with {@code x} evaluated twice;
     * {@code sincospi} the same with sinpi and cospi.
     */
    private static Expr sincos(String name, Pos pos, List<Expr> args, ExprSema es, Prim fixed, boolean pi) {
        count(es, pos, name, args, 3);
        Prim t = fixed != null ? fixed : floatingVariant(es, name, args.subList(0, 1));
        Expr x = arg(es, name, args, 0, t);
        requirePure(es, name, x, "first");
        List<Expr> stores = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            Expr p = args.get(i);
            if (!(p.type() instanceof CType.Pointer ptr) || ptr.pointee() != t) {
                throw es.diags.fail(p.pos(), "argument " + (i + 1) + " of '" + name + "' must be a '" + t
                        + "*', not '" + p.type() + "'");
            }
            Intrinsic op = i == 1 ? (pi ? Intrinsic.SINPI : Intrinsic.SIN) : (pi ? Intrinsic.COSPI : Intrinsic.COS);
            stores.add(new Expr.Assign(pos, t, new Expr.Deref(pos, t, p), call(pos, t, op, List.of(x))));
        }
        return new Expr.Comma(pos, Prim.VOID, stores.get(0), stores.get(1));
    }

    /** Variant of an overloaded math name: any double → double, else any float → float, integers → double. */
    static Prim floatingVariant(ExprSema es, String name, List<Expr> args) {
        boolean anyFloat = false;
        for (int i = 0; i < args.size(); i++) {
            CType t = args.get(i).type();
            if (!t.isArithmetic()) {
                throw es.diags.fail(args.get(i).pos(), "no matching function for call to '" + name
                        + "': argument " + (i + 1) + " has type '" + t + "'");
            }
            if (t == Prim.DOUBLE) {
                return Prim.DOUBLE;
            }
            anyFloat |= t == Prim.FLOAT;
        }
        return anyFloat ? Prim.FLOAT : Prim.DOUBLE;
    }

    private static Expr atomic(String name, Pos pos, List<Expr> args, ExprSema es, Intrinsic op) {
        int n = op == Intrinsic.ATOMIC_CAS ? 3 : 2;
        count(es, pos, name, args, n);
        if (!(args.getFirst().type() instanceof CType.Pointer p)) {
            throw es.diags.fail(args.getFirst().pos(), name + " requires a pointer as its first argument, not '"
                    + args.getFirst().type() + "'");
        }
        es.checkWritable(args.getFirst(), args.getFirst().pos(), "apply " + name + " to");
        CType e = p.pointee();
        Set<Prim> allowed = switch (op) {
            case ATOMIC_ADD -> Set.of(Prim.INT, Prim.UINT, Prim.ULONGLONG, Prim.FLOAT, Prim.DOUBLE);
            case ATOMIC_SUB -> Set.of(Prim.INT, Prim.UINT);
            case ATOMIC_EXCH -> Set.of(Prim.INT, Prim.UINT, Prim.ULONGLONG, Prim.FLOAT);
            case ATOMIC_MIN, ATOMIC_MAX -> Set.of(Prim.INT, Prim.UINT, Prim.LONGLONG, Prim.ULONGLONG);
            case ATOMIC_INC, ATOMIC_DEC -> Set.of(Prim.UINT);
            case ATOMIC_CAS -> Set.of(Prim.INT, Prim.UINT, Prim.ULONGLONG, Prim.USHORT);
            default -> Set.of(Prim.INT, Prim.UINT, Prim.ULONGLONG);
        };
        if (!(e instanceof Prim ep) || !allowed.contains(ep)) {
            throw es.diags.fail(pos, name + " has no overload for '" + p + "'");
        }
        List<Expr> conv = new ArrayList<>();
        conv.add(args.getFirst());
        for (int i = 1; i < n; i++) {
            conv.add(arg(es, name, args, i, e));
        }
        return call(pos, e, op, conv);
    }
}
