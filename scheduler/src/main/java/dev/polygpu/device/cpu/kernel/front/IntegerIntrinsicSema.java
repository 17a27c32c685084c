package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Resolves CUDA's integer intrinsics with fixed signatures ({@code __umulhi}, {@code __mul24},
 * {@code __byte_perm}, the funnel shifts, {@code __sad}, the halving adds) and the overloaded dot products
 * {@code __dp4a}, {@code __dp2a_lo}, {@code __dp2a_hi} (the unsigned overload when both sources are
 * {@code unsigned int}, as C++ overload resolution picks it for such arguments; else the signed one), converting the
 * arguments to the parameter types as a call of the declared function does.
 */
final class IntegerIntrinsicSema {
    private IntegerIntrinsicSema() {
    }

    /** A signature: the intrinsic, its result type and its parameter types. */
    private record Sig(Intrinsic op, Prim result, Prim... params) {
    }

    private static final Prim I = Prim.INT;
    private static final Prim U = Prim.UINT;
    private static final Map<String, Sig> FIXED = Map.ofEntries(
            Map.entry("__mulhi", new Sig(Intrinsic.MULHI, I, I, I)),
            Map.entry("__umulhi", new Sig(Intrinsic.UMULHI, U, U, U)),
            Map.entry("__mul64hi", new Sig(Intrinsic.MUL64HI, Prim.LONGLONG, Prim.LONGLONG, Prim.LONGLONG)),
            Map.entry("__umul64hi", new Sig(Intrinsic.UMUL64HI, Prim.ULONGLONG, Prim.ULONGLONG, Prim.ULONGLONG)),
            Map.entry("__mul24", new Sig(Intrinsic.MUL24, I, I, I)),
            Map.entry("__umul24", new Sig(Intrinsic.UMUL24, U, U, U)),
            Map.entry("__byte_perm", new Sig(Intrinsic.BYTE_PERM, U, U, U, U)),
            Map.entry("__funnelshift_l", new Sig(Intrinsic.FUNNELSHIFT_L, U, U, U, U)),
            Map.entry("__funnelshift_lc", new Sig(Intrinsic.FUNNELSHIFT_LC, U, U, U, U)),
            Map.entry("__funnelshift_r", new Sig(Intrinsic.FUNNELSHIFT_R, U, U, U, U)),
            Map.entry("__funnelshift_rc", new Sig(Intrinsic.FUNNELSHIFT_RC, U, U, U, U)),
            Map.entry("__sad", new Sig(Intrinsic.SAD, U, I, I, U)),
            Map.entry("__usad", new Sig(Intrinsic.USAD, U, U, U, U)),
            Map.entry("__rhadd", new Sig(Intrinsic.RHADD, I, I, I)),
            Map.entry("__uhadd", new Sig(Intrinsic.UHADD, U, U, U)),
            Map.entry("__urhadd", new Sig(Intrinsic.URHADD, U, U, U)));
    /** The dot products: signed and unsigned overloads. */
    private static final Map<String, Intrinsic[]> DOTS = Map.of(
            "__dp4a", new Intrinsic[] {Intrinsic.DP4A, Intrinsic.UDP4A},
            "__dp2a_lo", new Intrinsic[] {Intrinsic.DP2A_LO, Intrinsic.UDP2A_LO},
            "__dp2a_hi", new Intrinsic[] {Intrinsic.DP2A_HI, Intrinsic.UDP2A_HI});

    static boolean knows(String name) {
        return FIXED.containsKey(name) || DOTS.containsKey(name);
    }

    /** The call of integer intrinsic {@code name}, or null when {@code name} is none of them. */
    static Expr call(ExprSema es, Pos pos, String name, List<Expr> args) {
        Sig sig = FIXED.get(name);
        if (sig == null) {
            Intrinsic[] dot = DOTS.get(name);
            if (dot == null) {
                return null;
            }
            checkCount(es, pos, name, args, 3);
            boolean unsigned = isUnsignedInt(args.get(0).type()) && isUnsignedInt(args.get(1).type());
            sig = unsigned ? new Sig(dot[1], U, U, U, U) : new Sig(dot[0], I, I, I, I);
        }
        checkCount(es, pos, name, args, sig.params().length);
        List<Expr> converted = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            Expr a = args.get(i);
            if (!a.type().isArithmetic()) {
                throw es.diags.fail(a.pos(), "no matching function for call to '" + name + "': argument "
                        + (i + 1) + " has type '" + a.type() + "'");
            }
            converted.add(es.convert(a, sig.params()[i], "for argument " + (i + 1) + " of '" + name + "'"));
        }
        return new Expr.IntrinsicCall(pos, sig.result(), sig.op(), List.copyOf(converted));
    }

    /** Whether an argument of type {@code t} makes the unsigned overload the better match (narrower types promote to int). */
    private static boolean isUnsignedInt(CType t) {
        return t == Prim.UINT;
    }

    private static void checkCount(ExprSema es, Pos pos, String name, List<Expr> args, int n) {
        if (args.size() != n) {
            throw es.diags.fail(pos, "function '" + name + "' expects " + n + " argument" + (n == 1 ? "" : "s")
                    + ", but " + args.size() + (args.size() == 1 ? " was" : " were") + " given");
        }
    }
}
