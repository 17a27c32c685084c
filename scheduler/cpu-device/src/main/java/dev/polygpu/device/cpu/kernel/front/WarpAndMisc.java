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
 * The built-ins other than math and atomics: synchronization, warp shuffles and votes, {@code __nanosleep},
 * bit operations, min/max/abs, classification, and the rounding-mode arithmetic that is plain C arithmetic here.
 */
final class WarpAndMisc {
    private WarpAndMisc() {}

    private static final Set<Prim> SHUFFLE_TYPES = Set.of(Prim.INT, Prim.UINT, Prim.LONG, Prim.ULONG,
            Prim.LONGLONG, Prim.ULONGLONG, Prim.FLOAT, Prim.DOUBLE);

    private static Diagnostics.Abort arity(ExprSema es, Pos pos, String name, String expected, int actual) {
        return es.diags.fail(pos, "function '" + name + "' expects " + expected + " argument"
                + (expected.equals("1") ? "" : "s") + ", but " + actual + (actual == 1 ? " was" : " were") + " given");
    }

    private static void count(ExprSema es, Pos pos, String name, List<Expr> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            throw arity(es, pos, name, min == max ? Integer.toString(min) : min + " or " + max, args.size());
        }
    }

    private static Expr arg(ExprSema es, String name, List<Expr> args, int i, CType to) {
        Expr a = args.get(i);
        if (to.isArithmetic() && !a.type().isArithmetic()) {
            throw es.diags.fail(a.pos(), "no matching function for call to '" + name + "': argument " + (i + 1)
                    + " has type '" + a.type() + "'");
        }
        return es.convert(a, to, "for argument " + (i + 1) + " of '" + name + "'");
    }

    private static Expr call(Pos pos, CType type, Intrinsic i, Expr... args) {
        return new Expr.IntrinsicCall(pos, type, i, List.of(args));
    }

    private static Prim arithmetic(ExprSema es, String name, Expr a, int i) {
        if (!a.type().isArithmetic()) {
            throw es.diags.fail(a.pos(), "no matching function for call to '" + name + "': argument " + (i + 1)
                    + " has type '" + a.type() + "'");
        }
        return (Prim) a.type();
    }

    /**
     * {@code __reduce_OP_sync(mask, value)}. CUDA declares add, min and max for {@code unsigned} and {@code int},
     * and, or and xor for {@code unsigned} only; overload resolution picks {@code int} for what promotes to
     * {@code int}, and finds a {@code long}, a {@code long long} or a floating value ambiguous, as nvcc does.
     */
    private static Expr warpReduce(ExprSema es, Pos pos, String name, List<Expr> args) {
        count(es, pos, name, args, 2, 2);
        Intrinsic i = switch (name) {
            case "__reduce_add_sync" -> Intrinsic.REDUCE_ADD;
            case "__reduce_min_sync" -> Intrinsic.REDUCE_MIN;
            case "__reduce_max_sync" -> Intrinsic.REDUCE_MAX;
            case "__reduce_and_sync" -> Intrinsic.REDUCE_AND;
            case "__reduce_or_sync" -> Intrinsic.REDUCE_OR;
            default -> Intrinsic.REDUCE_XOR;
        };
        Prim t = Prim.UINT;
        if (i == Intrinsic.REDUCE_ADD || i == Intrinsic.REDUCE_MIN || i == Intrinsic.REDUCE_MAX) {
            CType vt = args.get(1).type();
            Prim promoted = vt.isArithmetic() ? (Prim) Types.promote(vt) : null;
            if (promoted != Prim.INT && promoted != Prim.UINT) {
                throw es.diags.fail(args.get(1).pos(), "'" + name + "' has overloads for 'int' and 'unsigned int'"
                        + " only, and a value of type '" + vt + "' matches both or neither: cast it to one of them");
            }
            t = promoted;
        }
        return call(pos, t, i, arg(es, name, args, 0, Prim.UINT), arg(es, name, args, 1, t));
    }

    /** The pointer argument of {@code __ldg}, the other cache-hint loads and the cache-hint stores. */
    private static CType.Pointer cacheHintPointer(ExprSema es, String name, Expr p) {
        if (!(p.type() instanceof CType.Pointer pt) || pt.pointee() == Prim.VOID
                || pt.pointee() instanceof CType.Pointer) {
            throw es.diags.fail(p.pos(), name + " requires a pointer to a scalar or vector value, not '" + p.type()
                    + "'");
        }
        return pt;
    }

    static Expr resolve(String name, Pos pos, List<Expr> args, ExprSema es) {
        switch (name) {
            case "__syncthreads", "__threadfence", "__threadfence_block", "__threadfence_system" -> {
                count(es, pos, name, args, 0, 0);
                Intrinsic i = switch (name) {
                    case "__syncthreads" -> Intrinsic.SYNCTHREADS;
                    case "__threadfence" -> Intrinsic.THREADFENCE;
                    case "__threadfence_block" -> Intrinsic.THREADFENCE_BLOCK;
                    default -> Intrinsic.THREADFENCE_SYSTEM;
                };
                return call(pos, Prim.VOID, i);
            }
            case "__syncthreads_count", "__syncthreads_and", "__syncthreads_or" -> {
                count(es, pos, name, args, 1, 1);
                Intrinsic i = name.endsWith("count") ? Intrinsic.SYNCTHREADS_COUNT
                        : name.endsWith("and") ? Intrinsic.SYNCTHREADS_AND : Intrinsic.SYNCTHREADS_OR;
                return call(pos, Prim.INT, i, arg(es, name, args, 0, Prim.INT));
            }
            case "__syncwarp" -> {
                count(es, pos, name, args, 0, 1);
                Expr mask = args.isEmpty() ? new Expr.IntConst(pos, Prim.UINT, 0xFFFFFFFFL)
                        : arg(es, name, args, 0, Prim.UINT);
                return call(pos, Prim.VOID, Intrinsic.SYNCWARP, mask);
            }
            case "__activemask" -> {
                count(es, pos, name, args, 0, 0);
                return call(pos, Prim.UINT, Intrinsic.ACTIVEMASK);
            }
            case "__nanosleep" -> {
                count(es, pos, name, args, 1, 1);
                return call(pos, Prim.VOID, Intrinsic.NANOSLEEP, arg(es, name, args, 0, Prim.UINT));
            }
            case "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync" -> {
                count(es, pos, name, args, 3, 4);
                Intrinsic i = switch (name) {
                    case "__shfl_sync" -> Intrinsic.SHFL;
                    case "__shfl_up_sync" -> Intrinsic.SHFL_UP;
                    case "__shfl_down_sync" -> Intrinsic.SHFL_DOWN;
                    default -> Intrinsic.SHFL_XOR;
                };
                Prim vt = arithmetic(es, name, args.get(1), 1);
                CType t = SHUFFLE_TYPES.contains(vt) ? vt : Types.promote(vt);
                if (!SHUFFLE_TYPES.contains((Prim) t)) {
                    throw es.diags.fail(pos, name + " has no overload for a value of type '" + vt + "'");
                }
                Expr width = args.size() == 4 ? arg(es, name, args, 3, Prim.INT) : new Expr.IntConst(pos, Prim.INT, 32);
                return call(pos, t, i, arg(es, name, args, 0, Prim.UINT), arg(es, name, args, 1, t),
                        arg(es, name, args, 2, Prim.INT), width);
            }
            case "__ballot_sync", "__any_sync", "__all_sync" -> {
                count(es, pos, name, args, 2, 2);
                Intrinsic i = name.equals("__ballot_sync") ? Intrinsic.BALLOT
                        : name.equals("__any_sync") ? Intrinsic.ANY : Intrinsic.ALL;
                Expr pred = args.get(1);
                if (!pred.type().isScalar()) {
                    throw es.diags.fail(pred.pos(), "predicate of '" + name + "' has type '" + pred.type() + "'");
                }
                pred = pred.type().isPointer() ? es.binary(pred.pos(), BinaryOp.NE, pred,
                        new Expr.IntConst(pred.pos(), Prim.INT, 0)) : arg(es, name, args, 1, Prim.INT);
                return call(pos, i == Intrinsic.BALLOT ? Prim.UINT : Prim.INT, i, arg(es, name, args, 0, Prim.UINT), pred);
            }
            case "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
                 "__reduce_or_sync", "__reduce_xor_sync" -> {
                return warpReduce(es, pos, name, args);
            }
            case "__popc", "__popcll", "__ffs", "__ffsll", "__clz", "__clzll", "__brev", "__brevll" -> {
                count(es, pos, name, args, 1, 1);
                Intrinsic i;
                Prim in;
                Prim out = Prim.INT;
                switch (name) {
                    case "__popc" -> { i = Intrinsic.POPC; in = Prim.UINT; }
                    case "__popcll" -> { i = Intrinsic.POPCLL; in = Prim.ULONGLONG; }
                    case "__ffs" -> { i = Intrinsic.FFS; in = Prim.INT; }
                    case "__ffsll" -> { i = Intrinsic.FFSLL; in = Prim.LONGLONG; }
                    case "__clz" -> { i = Intrinsic.CLZ; in = Prim.INT; }
                    case "__clzll" -> { i = Intrinsic.CLZLL; in = Prim.LONGLONG; }
                    case "__brevll" -> { i = Intrinsic.BREVLL; in = Prim.ULONGLONG; out = Prim.ULONGLONG; }
                    default -> { i = Intrinsic.BREV; in = Prim.UINT; out = Prim.UINT; }
                }
                if (!args.getFirst().type().isInteger()) {
                    throw es.diags.fail(args.getFirst().pos(), "no matching function for call to '" + name
                            + "': argument 1 has type '" + args.getFirst().type() + "'");
                }
                return call(pos, out, i, arg(es, name, args, 0, in));
            }
            case "min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax" -> {
                count(es, pos, name, args, 2, 2);
                Prim t = switch (name) {
                    case "umin", "umax" -> Prim.UINT;
                    case "llmin", "llmax" -> Prim.LONGLONG;
                    case "ullmin", "ullmax" -> Prim.ULONGLONG;
                    default -> Types.usual(arithmetic(es, name, args.get(0), 0), arithmetic(es, name, args.get(1), 1));
                };
                Intrinsic i = name.endsWith("min") ? Intrinsic.MIN : Intrinsic.MAX;
                return call(pos, t, i, arg(es, name, args, 0, t), arg(es, name, args, 1, t));
            }
            case "abs", "labs", "llabs" -> {
                count(es, pos, name, args, 1, 1);
                CType t = name.equals("labs") ? Prim.LONG : name.equals("llabs") ? Prim.LONGLONG
                        : Types.promote(arithmetic(es, name, args.getFirst(), 0));
                return call(pos, t, Intrinsic.ABS, arg(es, name, args, 0, t));
            }
            case "isnan", "isinf", "isfinite", "signbit", "__isnan", "__isinf", "__isfinite" -> {
                count(es, pos, name, args, 1, 1);
                String base = name.startsWith("__") ? name.substring(2) : name;
                Intrinsic i = switch (base) {
                    case "isnan" -> Intrinsic.ISNAN;
                    case "isinf" -> Intrinsic.ISINF;
                    case "isfinite" -> Intrinsic.ISFINITE;
                    default -> Intrinsic.SIGNBIT;
                };
                Prim t = IntrinsicTable.floatingVariant(es, name, args);
                return call(pos, Prim.INT, i, arg(es, name, args, 0, t));
            }
            case "__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv" -> {
                count(es, pos, name, args, 1, 1);
                CType.Pointer pt = cacheHintPointer(es, name, args.getFirst());
                // A load with a cache hint is a plain load of *p on the CPU; a cast to the same type keeps it from
                // being an lvalue.
                return new Expr.Cast(pos, pt.pointee(), new Expr.Deref(pos, pt.pointee(), args.getFirst()));
            }
            case "__stwb", "__stcg", "__stcs", "__stwt" -> {
                count(es, pos, name, args, 2, 2);
                Expr p = args.getFirst();
                CType.Pointer pt = cacheHintPointer(es, name, p);
                Expr target = new Expr.Deref(pos, pt.pointee(), p);
                es.checkWritable(target, pos, "apply " + name + " to");
                Expr value = arg(es, name, args, 1, pt.pointee());
                // A store with a cache hint is a plain store of *p = v on the CPU; the call's value is void.
                return new Expr.Cast(pos, Prim.VOID, new Expr.Assign(pos, pt.pointee(), target, value));
            }
            case "clock64", "clock" -> {
                count(es, pos, name, args, 0, 0);
                Expr now = call(pos, Prim.LONGLONG, Intrinsic.CLOCK64);
                // CUDA 13 declares clock() as returning clock_t (long on 64-bit Linux) and compiles it to a read of
                // %clock64, as clock64() is (checked with nvcc -ptx): both give the same counter.
                return name.equals("clock") ? new Expr.Cast(pos, Prim.LONG, now) : now;
            }
            case "__float2int_rn", "__float2int_rd", "__float2int_ru" -> {
                count(es, pos, name, args, 1, 1);
                Intrinsic r = name.endsWith("rn") ? Intrinsic.RINT : name.endsWith("rd") ? Intrinsic.FLOOR
                        : Intrinsic.CEIL;
                return new Expr.Cast(pos, Prim.INT, call(pos, Prim.FLOAT, r, arg(es, name, args, 0, Prim.FLOAT)));
            }
            case "__fadd_rn", "__fsub_rn", "__fmul_rn", "__fdiv_rn", "__dadd_rn", "__dsub_rn", "__dmul_rn",
                 "__ddiv_rn" -> {
                count(es, pos, name, args, 2, 2);
                Prim t = name.startsWith("__f") ? Prim.FLOAT : Prim.DOUBLE;
                BinaryOp op = name.contains("add") ? BinaryOp.ADD : name.contains("sub") ? BinaryOp.SUB
                        : name.contains("div") ? BinaryOp.DIV : BinaryOp.MUL;
                return es.binary(pos, op, arg(es, name, args, 0, t), arg(es, name, args, 1, t));
            }
            case "__frcp_rn", "__drcp_rn" -> {
                count(es, pos, name, args, 1, 1);
                Prim t = name.startsWith("__f") ? Prim.FLOAT : Prim.DOUBLE;
                return es.binary(pos, BinaryOp.DIV, new Expr.FloatConst(pos, t, 1.0), arg(es, name, args, 0, t));
            }
            default -> {
                Expr integer = IntegerIntrinsicSema.call(es, pos, name, args);
                if (integer == null) {
                    throw es.diags.fail(pos, "no function named '" + name + "'");
                }
                return integer;
            }
        }
    }

}
