package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Expr.BinaryOp;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.List;
import java.util.Set;

/**
 * Half precision ({@code __half}, cuda_fp16.h): the functions and the C++ operators that cuda_fp16.hpp defines,
 * lowered to float and double operations with one rounding to half ({@link Prim#HALF} values are held as floats;
 * a cast to {@code HALF} rounds to nearest even). {@code rt.CudaHalf} explains why one rounding of the float
 * (add, sub, mul, div) or double (fma) result is the correctly rounded half result.
 *
 * <p>What cuda_fp16.hpp allows, checked with nvcc 13.0: {@code + - * /} and the comparisons between two halves,
 * unary {@code - +}, {@code ++ --}, {@code h op= x} for any arithmetic {@code x} (converted to half first), implicit
 * conversions from every arithmetic type (its constructors) and to every arithmetic type (its conversion
 * operators), {@code !h} and {@code h} as a condition. An operator between a half and another arithmetic type
 * ({@code h + 1.0f}, {@code h == 0}, {@code f += h}, {@code c ? h : f}) is ambiguous there and is a compile error
 * here too.
 */
final class HalfSema {
    private HalfSema() {}

    private static final Set<String> NAMES = Set.of("__float2half", "__float2half_rn", "__double2half",
            "__half2float", "__int2half_rn", "__uint2half_rn", "__ll2half_rn", "__ull2half_rn", "__short2half_rn",
            "__ushort2half_rn", "__half2int_rz", "__half2uint_rz", "__half2ll_rz", "__half2ull_rz",
            "__hadd", "__hsub", "__hmul", "__hdiv", "__hfma", "__hneg", "__habs", "__hmax", "__hmin",
            "__heq", "__hne", "__hlt", "__hle", "__hgt", "__hge", "__hequ", "__hneu", "__hltu", "__hleu", "__hgtu",
            "__hgeu", "__hisnan");

    static boolean handles(String name) {
        return NAMES.contains(name);
    }

    /** Whether a binary operator or compound assignment involves a half (then {@link #binary} types it). */
    static boolean involves(CType l, CType r) {
        return l == Prim.HALF || r == Prim.HALF;
    }

    private static Expr toFloat(Expr h) {
        return ExprSema.cast(h, Prim.FLOAT);
    }

    private static Expr toHalf(Expr e) {
        return ExprSema.cast(e, Prim.HALF);
    }

    /** The message for an operator between a half and another type, which nvcc finds ambiguous. */
    static String mixed(String op, CType l, CType r) {
        return "operator '" + op + "' between '" + l + "' and '" + r + "' is ambiguous (cuda_fp16.hpp defines it"
                + " for two halves only; nvcc refuses it too): convert one side, e.g. __half2float(h) " + op
                + " x, or h " + op + " __float2half(x)";
    }

    /** {@code l op r} where at least one side is a half: both must be halves. */
    static Expr binary(ExprSema es, Pos pos, BinaryOp op, Expr l, Expr r) {
        if (!l.type().equals(r.type())) {
            throw es.diags.fail(pos, mixed(op.symbol, l.type(), r.type()));
        }
        return switch (op) {
            case ADD, SUB, MUL, DIV -> arithmetic(pos, op, l, r);
            case EQ, NE, LT, LE, GT, GE -> compare(pos, op, l, r);
            default -> throw es.diags.fail(pos, "invalid operands to binary expression ('" + l.type() + "' and '"
                    + r.type() + "'): cuda_fp16.hpp defines only + - * / and comparisons for __half");
        };
    }

    /** {@code __hadd} and its kin: the float operation, rounded once to half. */
    private static Expr arithmetic(Pos pos, BinaryOp op, Expr l, Expr r) {
        return new Expr.Cast(pos, Prim.HALF, new Expr.Binary(pos, Prim.FLOAT, op, Prim.FLOAT, toFloat(l), toFloat(r)));
    }

    private static Expr compare(Pos pos, BinaryOp op, Expr l, Expr r) {
        return new Expr.Binary(pos, Prim.BOOL, op, Prim.FLOAT, toFloat(l), toFloat(r));
    }

    /** {@code h op= v}: {@code v} becomes a half first (cuda_fp16.hpp's constructor), then the half operation. */
    static Expr compound(ExprSema es, Pos pos, BinaryOp op, Expr target, Expr v) {
        if (target.type() != Prim.HALF) {
            throw es.diags.fail(pos, "operator '" + op.symbol + "=' on '" + target.type() + "' with a '__half' operand"
                    + " is ambiguous (several conversions of __half to a built-in type apply; nvcc refuses it too):"
                    + " write __half2float(h)");
        }
        if (op != BinaryOp.ADD && op != BinaryOp.SUB && op != BinaryOp.MUL && op != BinaryOp.DIV) {
            throw es.diags.fail(pos, "invalid operands to compound assignment ('__half' and '" + v.type()
                    + "'): cuda_fp16.hpp defines only += -= *= /= for __half");
        }
        Expr h = toHalf(es.convert(v, Prim.HALF, "in compound assignment"));
        return new Expr.CompoundAssign(pos, Prim.HALF, op, Prim.FLOAT, target, toFloat(h));
    }

    private static Expr arg(ExprSema es, String name, List<Expr> args, int i, CType to) {
        Expr a = args.get(i);
        if (!a.type().isArithmetic()) {
            throw es.diags.fail(a.pos(), "no matching function for call to '" + name + "': argument " + (i + 1)
                    + " has type '" + a.type() + "'");
        }
        return es.convert(a, to, "for argument " + (i + 1) + " of '" + name + "'");
    }

    static Expr resolve(String name, Pos pos, List<Expr> args, ExprSema es) {
        int arity = switch (name) {
            case "__hadd", "__hsub", "__hmul", "__hdiv", "__hmax", "__hmin", "__heq", "__hne", "__hlt", "__hle",
                 "__hgt", "__hge", "__hequ", "__hneu", "__hltu", "__hleu", "__hgtu", "__hgeu" -> 2;
            case "__hfma" -> 3;
            default -> 1;
        };
        if (args.size() != arity) {
            throw es.diags.fail(pos, "function '" + name + "' expects " + arity + " argument" + (arity == 1 ? "" : "s")
                    + ", but " + args.size() + (args.size() == 1 ? " was" : " were") + " given");
        }
        switch (name) {
            case "__float2half", "__float2half_rn" -> {
                return toHalf(arg(es, name, args, 0, Prim.FLOAT));
            }
            case "__double2half" -> {
                return toHalf(arg(es, name, args, 0, Prim.DOUBLE));
            }
            case "__int2half_rn", "__uint2half_rn", "__ll2half_rn", "__ull2half_rn", "__short2half_rn",
                 "__ushort2half_rn" -> {
                Prim from = switch (name) {
                    case "__int2half_rn" -> Prim.INT;
                    case "__uint2half_rn" -> Prim.UINT;
                    case "__ll2half_rn" -> Prim.LONGLONG;
                    case "__ull2half_rn" -> Prim.ULONGLONG;
                    case "__short2half_rn" -> Prim.SHORT;
                    default -> Prim.USHORT;
                };
                return toHalf(arg(es, name, args, 0, from));
            }
            default -> { }
        }
        // The rest take halves (other arithmetic arguments convert, as through cuda_fp16.hpp's constructors).
        Expr[] h = new Expr[arity];
        for (int i = 0; i < arity; i++) {
            h[i] = arg(es, name, args, i, Prim.HALF);
        }
        return switch (name) {
            case "__half2float" -> toFloat(h[0]);
            // Truncation toward zero, saturating, NaN to 0: the engine's float-to-integer conversion (cvt.rzi).
            case "__half2int_rz" -> new Expr.Cast(pos, Prim.INT, h[0]);
            case "__half2uint_rz" -> new Expr.Cast(pos, Prim.UINT, h[0]);
            case "__half2ll_rz" -> new Expr.Cast(pos, Prim.LONGLONG, h[0]);
            case "__half2ull_rz" -> new Expr.Cast(pos, Prim.ULONGLONG, h[0]);
            case "__hadd" -> arithmetic(pos, BinaryOp.ADD, h[0], h[1]);
            case "__hsub" -> arithmetic(pos, BinaryOp.SUB, h[0], h[1]);
            case "__hmul" -> arithmetic(pos, BinaryOp.MUL, h[0], h[1]);
            case "__hdiv" -> arithmetic(pos, BinaryOp.DIV, h[0], h[1]);
            case "__hfma" -> {
                // The product of two halves is exact in double; the sum rounds once to double, then once to half.
                Expr product = new Expr.Binary(pos, Prim.DOUBLE, BinaryOp.MUL, Prim.DOUBLE,
                        ExprSema.cast(h[0], Prim.DOUBLE), ExprSema.cast(h[1], Prim.DOUBLE));
                yield new Expr.Cast(pos, Prim.HALF, new Expr.Binary(pos, Prim.DOUBLE, BinaryOp.ADD, Prim.DOUBLE,
                        product, ExprSema.cast(h[2], Prim.DOUBLE)));
            }
            case "__hneg" -> new Expr.Unary(pos, Prim.HALF, Expr.UnaryOp.NEG, h[0]);
            case "__habs" -> toHalf(floatCall(pos, Intrinsic.FABS, h));
            // fmaxf/fminf semantics: a NaN argument gives the other one, as CUDA documents for __hmax/__hmin.
            case "__hmax" -> toHalf(floatCall(pos, Intrinsic.FMAX, h));
            case "__hmin" -> toHalf(floatCall(pos, Intrinsic.FMIN, h));
            case "__heq" -> bool(pos, compare(pos, BinaryOp.EQ, h[0], h[1]));
            case "__hlt" -> bool(pos, compare(pos, BinaryOp.LT, h[0], h[1]));
            case "__hle" -> bool(pos, compare(pos, BinaryOp.LE, h[0], h[1]));
            case "__hgt" -> bool(pos, compare(pos, BinaryOp.GT, h[0], h[1]));
            case "__hge" -> bool(pos, compare(pos, BinaryOp.GE, h[0], h[1]));
            // Ordered not-equal: false when either is NaN (operator != is the unordered __hneu).
            case "__hne" -> bool(pos, new Expr.Binary(pos, Prim.BOOL, BinaryOp.LOGICAL_OR, Prim.INT,
                    compare(pos, BinaryOp.LT, h[0], h[1]), compare(pos, BinaryOp.GT, h[0], h[1])));
            // The unordered forms: true when either is NaN, i.e. the negation of the opposite ordered comparison.
            case "__hneu" -> bool(pos, compare(pos, BinaryOp.NE, h[0], h[1]));
            case "__hequ" -> not(pos, new Expr.Binary(pos, Prim.BOOL, BinaryOp.LOGICAL_OR, Prim.INT,
                    compare(pos, BinaryOp.LT, h[0], h[1]), compare(pos, BinaryOp.GT, h[0], h[1])));
            case "__hltu" -> not(pos, compare(pos, BinaryOp.GE, h[0], h[1]));
            case "__hleu" -> not(pos, compare(pos, BinaryOp.GT, h[0], h[1]));
            case "__hgtu" -> not(pos, compare(pos, BinaryOp.LE, h[0], h[1]));
            case "__hgeu" -> not(pos, compare(pos, BinaryOp.LT, h[0], h[1]));
            case "__hisnan" -> bool(pos, compare(pos, BinaryOp.NE, h[0], h[0]));
            default -> throw new IllegalStateException("half function '" + name + "' not mapped (a bug in polygpu)");
        };
    }

    private static Expr floatCall(Pos pos, Intrinsic i, Expr[] halves) {
        List<Expr> floats = java.util.Arrays.stream(halves).map(HalfSema::toFloat).toList();
        return new Expr.IntrinsicCall(pos, Prim.FLOAT, i, floats);
    }

    private static Expr bool(Pos pos, Expr intValue) {
        return new Expr.Cast(pos, Prim.BOOL, intValue);
    }

    private static Expr not(Pos pos, Expr intValue) {
        return bool(pos, new Expr.Unary(pos, Prim.BOOL, Expr.UnaryOp.NOT, intValue));
    }
}
