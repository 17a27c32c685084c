package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.rt.CudaHalf;

import java.util.Map;

/**
 * Evaluates typed constant expressions (array lengths, case labels, template value arguments, file-scope
 * constants) with C semantics. Integer values are kept as {@code long}s wrapped to their type (an unsigned int
 * as 0..2^32-1), floating values as {@code double}s (rounded to float for float).
 */
final class ConstEval {
    private ConstEval() {}

    /** The value (Long or Double) of {@code e}, or null if it is not a constant expression. */
    static Object eval(Expr e, Map<Var, Object> constVars) {
        try {
            return value(e, constVars);
        } catch (ArithmeticException ex) {
            return null;
        }
    }

    private static Object value(Expr e, Map<Var, Object> cv) {
        switch (e) {
            case Expr.IntConst c -> {
                return wrap(c.value(), c.type());
            }
            case Expr.FloatConst c -> {
                return c.value();
            }
            case Expr.VarRef r -> {
                return cv.get(r.var());
            }
            case Expr.Cast c -> {
                Object v = value(c.operand(), cv);
                return v == null || !c.type().isArithmetic() ? null : convert(v, c.operand().type(), c.type());
            }
            case Expr.Unary u -> {
                Object v = value(u.operand(), cv);
                if (v == null) {
                    return null;
                }
                return switch (u.op()) {
                    case PLUS -> v;
                    case NEG -> v instanceof Double d ? (Object) (-d) : wrap(-(Long) v, u.type());
                    case BIT_NOT -> wrap(~(Long) v, u.type());
                    case NOT -> truth(v) ? 0L : 1L;
                };
            }
            case Expr.Conditional c -> {
                Object v = value(c.condition(), cv);
                return v == null ? null : value(truth(v) ? c.ifTrue() : c.ifFalse(), cv);
            }
            case Expr.Binary b -> {
                Object l = value(b.left(), cv);
                if (l == null) {
                    return null;
                }
                if (b.op() == Expr.BinaryOp.LOGICAL_AND && !truth(l)) {
                    return 0L;
                }
                if (b.op() == Expr.BinaryOp.LOGICAL_OR && truth(l)) {
                    return 1L;
                }
                Object r = value(b.right(), cv);
                if (r == null) {
                    return null;
                }
                return binary(b, l, r);
            }
            case Expr.Comma c -> {
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    private static boolean truth(Object v) {
        return v instanceof Double d ? d != 0 : (Long) v != 0;
    }

    private static Object binary(Expr.Binary b, Object l, Object r) {
        Expr.BinaryOp op = b.op();
        if (op == Expr.BinaryOp.LOGICAL_AND || op == Expr.BinaryOp.LOGICAL_OR) {
            return truth(r) ? 1L : 0L;
        }
        if (!b.operandType().isArithmetic()) {
            return null;
        }
        Prim t = (Prim) b.operandType();
        if (t.isFloating()) {
            double x = (Double) l;
            double y = (Double) r;
            Double res = switch (op) {
                case ADD -> x + y;
                case SUB -> x - y;
                case MUL -> x * y;
                case DIV -> x / y;
                default -> null;
            };
            if (res != null) {
                return t == Prim.FLOAT ? (double) (float) (double) res : res;
            }
            return switch (op) {
                case LT -> x < y ? 1L : 0L;
                case GT -> x > y ? 1L : 0L;
                case LE -> x <= y ? 1L : 0L;
                case GE -> x >= y ? 1L : 0L;
                case EQ -> x == y ? 1L : 0L;
                case NE -> x != y ? 1L : 0L;
                default -> null;
            };
        }
        long x = (Long) l;
        long y = (Long) r;
        boolean u64 = !t.signed && t.size() == 8;
        int cmp = u64 ? Long.compareUnsigned(x, y) : Long.compare(x, y);
        int width = t.size() * 8;
        long v = switch (op) {
            case ADD -> x + y;
            case SUB -> x - y;
            case MUL -> x * y;
            case DIV -> u64 ? Long.divideUnsigned(x, y) : x / y;
            case MOD -> u64 ? Long.remainderUnsigned(x, y) : x % y;
            case SHL -> x << (y & (width - 1));
            case SHR -> u64 ? x >>> (y & 63) : x >> (y & (width - 1));
            case BIT_AND -> x & y;
            case BIT_OR -> x | y;
            case BIT_XOR -> x ^ y;
            case LT -> cmp < 0 ? 1 : 0;
            case GT -> cmp > 0 ? 1 : 0;
            case LE -> cmp <= 0 ? 1 : 0;
            case GE -> cmp >= 0 ? 1 : 0;
            case EQ -> cmp == 0 ? 1 : 0;
            case NE -> cmp != 0 ? 1 : 0;
            default -> throw new ArithmeticException();
        };
        return wrap(v, op.isComparison() ? Prim.BOOL : b.type());
    }

    /** Converts a constant value to an arithmetic type as a C conversion does. */
    static Object convert(Object v, CType from, CType to) {
        Prim p = (Prim) to;
        if (p == Prim.HALF) {
            double d = v instanceof Double x ? x : unsignedAware((Long) v, from);
            return (double) CudaHalf.round(d);
        }
        if (p.isFloating()) {
            double d = v instanceof Double x ? x : unsignedAware((Long) v, from);
            return p == Prim.FLOAT ? (double) (float) d : d;
        }
        if (v instanceof Double d) {
            if (p == Prim.BOOL) {
                return d != 0 ? 1L : 0L;
            }
            if (!p.signed && p.size() == 8 && d >= 9.223372036854775807E18) {
                return wrap(java.math.BigDecimal.valueOf(d).toBigInteger().longValue(), p);
            }
            return wrap((long) (double) d, p);
        }
        return wrap((Long) v, p);
    }

    /** A 64-bit unsigned value above Long.MAX_VALUE is stored negative; as a floating value it is not. */
    private static double unsignedAware(long v, CType from) {
        if (v < 0 && from instanceof Prim f && f.integer && !f.signed) {
            return (double) (v >>> 1) * 2.0 + (v & 1);
        }
        return v;
    }

    /** {@code v} truncated and sign- or zero-extended as the integer type {@code t} stores it. */
    static long wrap(long v, CType t) {
        if (!(t instanceof Prim p) || !p.integer) {
            return v;
        }
        return switch (p) {
            case BOOL -> v != 0 ? 1 : 0;
            case CHAR, SCHAR -> (byte) v;
            case UCHAR -> v & 0xFF;
            case SHORT -> (short) v;
            case USHORT -> v & 0xFFFF;
            case INT -> (int) v;
            case UINT -> v & 0xFFFFFFFFL;
            default -> v;
        };
    }
}
