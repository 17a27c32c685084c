package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.ATOMICS;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.MEM;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.SEGMENT;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.STATE;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_short;
import static java.lang.constant.ConstantDescs.CD_void;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.codegen.Jvm.K;
import dev.polygpu.device.cpu.kernel.rt.DirectedRounding;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.util.List;
import java.util.Locale;

/**
 * Emits the built-ins that are not yield points: math ({@code CudaMath}, {@code CudaMathFloat} and
 * {@code IntegerIntrinsics}, by operand kind), bit intrinsics, atomics ({@code Atomics}, after a bounds and
 * alignment check), fences and {@code __nanosleep}.
 */
final class IntrinsicEmitter {
    private final Emitter e;
    private final ExprEmitter x;
    private final CodeBuilder c;

    IntrinsicEmitter(Emitter e, ExprEmitter x) {
        this.e = e;
        this.x = x;
        this.c = e.c;
    }

    void emit(Expr.IntrinsicCall call) {
        Intrinsic in = call.intrinsic();
        List<Expr> args = call.args();
        switch (in) {
            case THREADFENCE, THREADFENCE_BLOCK, THREADFENCE_SYSTEM ->
                    c.invokestatic(Jvm.VAR_HANDLE, "fullFence", mt(CD_void));
            case NANOSLEEP -> {
                c.aload(Emitter.STATE_SLOT);
                x.value(args.get(0));
                c.loadConstant(Emitter.pos(call.pos()));
                c.invokevirtual(STATE, "nanosleep", mt(CD_void, CD_int, CD_int));
            }
            case CLOCK64 -> {
                c.aload(Emitter.STATE_SLOT);
                c.invokevirtual(STATE, "clock64", mt(CD_long));
            }
            case POPC, FFS, CLZ -> bits(in, args, K.I, CD_int);
            case BREV -> bits(in, args, K.I, CD_int);
            case BREVLL -> bits(in, args, K.J, CD_long);
            case MULHI, UMULHI, MUL64HI, UMUL64HI, MUL24, UMUL24, BYTE_PERM, FUNNELSHIFT_L, FUNNELSHIFT_LC,
                 FUNNELSHIFT_R, FUNNELSHIFT_RC, SAD, USAD, RHADD, UHADD, URHADD, DP4A, UDP4A, DP2A_LO, UDP2A_LO,
                 DP2A_HI, UDP2A_HI -> integer(call);
            case POPCLL, FFSLL, CLZLL -> bits(in, args, K.J, CD_int);
            case ATOMIC_ADD, ATOMIC_SUB, ATOMIC_EXCH, ATOMIC_MIN, ATOMIC_MAX, ATOMIC_INC, ATOMIC_DEC, ATOMIC_CAS,
                 ATOMIC_AND, ATOMIC_OR, ATOMIC_XOR -> atomic(call);
            case LDEXP, SCALBN -> {
                K k = Jvm.kind(call.type());
                x.value(args.get(0));
                x.value(args.get(1));
                c.invokestatic(Jvm.mathOwner(k), name(in), mt(k.desc, k.desc, CD_int));
            }
            case SCALBLN -> {
                K k = Jvm.kind(call.type());
                x.value(args.get(0));
                x.value(args.get(1));
                c.invokestatic(Jvm.mathOwner(k), name(in), mt(k.desc, k.desc, CD_long));
            }
            case JN, YN -> {
                K k = Jvm.kind(call.type());
                x.value(args.get(0));
                x.value(args.get(1));
                c.invokestatic(Jvm.mathOwner(k), name(in), mt(k.desc, CD_int, k.desc));
            }
            case ISNAN, ISINF, ISFINITE, SIGNBIT, ILOGB, FREXP_EXP -> {
                K k = Jvm.kind(args.get(0).type());
                x.value(args.get(0));
                c.invokestatic(Jvm.mathOwner(k), name(in), mt(CD_int, k.desc));
            }
            case LRINT, LROUND -> {
                K k = Jvm.kind(args.get(0).type());
                x.value(args.get(0));
                c.invokestatic(Jvm.mathOwner(k), name(in), mt(CD_long, k.desc));
            }
            case REMQUO_QUOTIENT -> {
                K k = Jvm.kind(args.get(0).type());
                x.value(args.get(0));
                x.value(args.get(1));
                c.invokestatic(Jvm.mathOwner(k), name(in), mt(CD_int, k.desc, k.desc));
            }
            case NORM, RNORM -> norm(call);
            case PRINTF -> printf(call);
            case ASSERT -> assertion(call);
            case TRAP -> {
                c.aload(Emitter.STATE_SLOT);
                c.loadConstant(Emitter.pos(call.pos()));
                c.invokestatic(Jvm.PRINT, "trap", mt(Jvm.FAULT, STATE, CD_int));
                c.athrow();
            }
            case MIN, MAX -> {
                K k = Jvm.kind(call.type());
                x.value(args.get(0));
                x.value(args.get(1));
                boolean uns = Jvm.unsigned(call.type()) && (k == K.I || k == K.J);
                c.invokestatic(Jvm.mathOwner(k), (uns ? "u" : "") + name(in), mt(k.desc, k.desc, k.desc));
            }
            default -> {
                if (in.isDirectedRounding()) {
                    directed(call);
                } else {
                    math(call);
                }
            }
        }
    }

    /** {@code __fadd_rz(a, b)} → {@code DirectedRounding.add(a, b, RZ)}: the operation, then the mode. */
    private void directed(Expr.IntrinsicCall call) {
        K k = Jvm.kind(call.type());
        ClassDesc[] params = new ClassDesc[call.args().size() + 1];
        for (int i = 0; i < call.args().size(); i++) {
            x.value(call.args().get(i));
            params[i] = k.desc;
        }
        params[params.length - 1] = CD_int;
        String[] opMode = call.intrinsic().name().split("_");
        c.loadConstant(switch (opMode[1]) {
            case "RZ" -> DirectedRounding.RZ;
            case "RU" -> DirectedRounding.RU;
            default -> DirectedRounding.RD;
        });
        c.invokestatic(Jvm.DIRECTED_ROUNDING, opMode[0].toLowerCase(Locale.ROOT), mt(k.desc, params));
    }

    /** Expression kinds outside the main switch: bit reinterpretation ({@code __float_as_int} …). */
    boolean emitOther(Expr expr) {
        if (!(expr instanceof Expr.BitCast b)) {
            return false;
        }
        x.value(b.operand());
        K from = Jvm.kind(b.operand().type());
        K to = Jvm.kind(b.type());
        if (from == K.F && to == K.I) {
            c.invokestatic(Jvm.FLOAT, "floatToRawIntBits", mt(CD_int, java.lang.constant.ConstantDescs.CD_float));
        } else if (from == K.I && to == K.F) {
            c.invokestatic(Jvm.FLOAT, "intBitsToFloat", mt(java.lang.constant.ConstantDescs.CD_float, CD_int));
        } else if (from == K.D && to == K.J) {
            c.invokestatic(Jvm.DOUBLE, "doubleToRawLongBits", mt(CD_long, java.lang.constant.ConstantDescs.CD_double));
        } else if (from == K.J && to == K.D) {
            c.invokestatic(Jvm.DOUBLE, "longBitsToDouble", mt(java.lang.constant.ConstantDescs.CD_double, CD_long));
        } else if (from != to) {
            throw new CodegenException(b.pos(), "cannot reinterpret '" + b.operand().type() + "' as '" + b.type() + "'");
        }
        return true;
    }

    /** {@code DevicePrint.printf(st, format, new Object[] {boxed args…})}: an int, the number of arguments. */
    private void printf(Expr.IntrinsicCall call) {
        e.prints = true;
        List<Expr> args = call.args();
        c.aload(Emitter.STATE_SLOT);
        c.loadConstant(((Expr.StrConst) args.getFirst()).value());
        c.loadConstant(args.size() - 1);
        c.anewarray(java.lang.constant.ConstantDescs.CD_Object);
        for (int i = 1; i < args.size(); i++) {
            Expr a = args.get(i);
            c.dup();
            c.loadConstant(i - 1);
            if (a instanceof Expr.StrConst s) {
                c.loadConstant(s.value());
            } else {
                x.value(a);
                switch (Jvm.kind(a.type())) {
                    case I -> {
                        c.i2l();
                        c.invokestatic(Jvm.LONG, "valueOf", mt(Jvm.LONG, CD_long));
                    }
                    case J -> c.invokestatic(Jvm.LONG, "valueOf", mt(Jvm.LONG, CD_long));
                    case D -> c.invokestatic(Jvm.DOUBLE, "valueOf", mt(Jvm.DOUBLE,
                            java.lang.constant.ConstantDescs.CD_double));
                    case P -> {
                        c.invokestatic(Jvm.PRINT, "address", mt(CD_long, SEGMENT, CD_long));
                        c.invokestatic(Jvm.LONG, "valueOf", mt(Jvm.LONG, CD_long));
                    }
                    default -> throw new CodegenException(a.pos(), "printf argument of type '" + a.type()
                            + "' was not promoted (a bug in polygpu)");
                }
            }
            c.aastore();
        }
        c.invokestatic(Jvm.PRINT, "printf", mt(CD_int, STATE, Jvm.STRING,
                java.lang.constant.ConstantDescs.CD_Object.arrayType()));
    }

    /** {@code if (!test) throw DevicePrint.assertFailed(st, expr, file, line, function, pos);} */
    private void assertion(Expr.IntrinsicCall call) {
        e.prints = true;
        List<Expr> args = call.args();
        java.lang.classfile.Label holds = c.newLabel();
        x.value(args.get(0));
        c.ifne(holds);
        c.aload(Emitter.STATE_SLOT);
        c.loadConstant(((Expr.StrConst) args.get(1)).value());
        c.loadConstant(((Expr.StrConst) args.get(2)).value());
        c.loadConstant((int) ((Expr.IntConst) args.get(3)).value());
        c.loadConstant(((Expr.StrConst) args.get(4)).value());
        c.loadConstant(Emitter.pos(call.pos()));
        c.invokestatic(Jvm.PRINT, "assertFailed", mt(Jvm.FAULT, STATE, Jvm.STRING, Jvm.STRING, CD_int, Jvm.STRING,
                CD_int));
        c.athrow();
        c.labelBinding(holds);
    }

    private void bits(Intrinsic in, List<Expr> args, K argKind, ClassDesc ret) {
        x.value(args.get(0));
        c.invokestatic(Jvm.mathOwner(argKind), name(in), mt(ret, argKind.desc));
    }

    /** An intrinsic of {@code IntegerIntrinsics}: its arguments and result are int or long as their types are. */
    private void integer(Expr.IntrinsicCall call) {
        ClassDesc[] params = new ClassDesc[call.args().size()];
        for (int i = 0; i < params.length; i++) {
            x.value(call.args().get(i));
            params[i] = Jvm.kind(call.args().get(i).type()).desc;
        }
        c.invokestatic(Jvm.INTEGER_INTRINSICS, integerName(call.intrinsic()), mt(Jvm.kind(call.type()).desc, params));
    }

    /** {@code FUNNELSHIFT_LC} → {@code funnelshiftLc}: the enum name in camel case. */
    private static String integerName(Intrinsic in) {
        StringBuilder sb = new StringBuilder();
        boolean upper = false;
        for (char ch : in.name().toLowerCase(Locale.ROOT).toCharArray()) {
            if (ch == '_') {
                upper = true;
            } else {
                sb.append(upper ? Character.toUpperCase(ch) : ch);
                upper = false;
            }
        }
        return sb.toString();
    }

    private void math(Expr.IntrinsicCall call) {
        K k = Jvm.kind(call.type());
        if (k != K.F && k != K.D && k != K.I && k != K.J) {
            throw new CodegenException(call.pos(), call.intrinsic().cudaName + " has no variant for '"
                    + call.type() + "'");
        }
        ClassDesc[] params = new ClassDesc[call.args().size()];
        for (int i = 0; i < params.length; i++) {
            x.value(call.args().get(i));
            params[i] = k.desc;
        }
        c.invokestatic(Jvm.mathOwner(k), name(call.intrinsic()), mt(k.desc, params));
        if (k == K.I && call.type() instanceof CType.Prim p) {
            Ops.narrow(c, p);
        }
    }

    private static String name(Intrinsic in) {
        return switch (in) {
            case SATURATE -> "saturate";
            case FDIVIDE -> "fdivide";
            case FREXP_EXP -> "frexpExponent";
            case REMQUO_QUOTIENT -> "remquoQuotient";
            default -> in.name().toLowerCase(Locale.ROOT);
        };
    }

    /**
     * {@code norm(dim, p)} / {@code rnorm(dim, p)}: checks that the {@code dim} elements at p lie within their
     * buffer (a fault naming the first that does not, as a load would), then calls the runtime on the segment.
     */
    private void norm(Expr.IntrinsicCall call) {
        K k = Jvm.kind(call.type());
        int size = k == K.F ? 4 : 8;
        String method = name(call.intrinsic()) + (k == K.F ? "f" : "");
        x.value(call.args().get(0));
        int[] dim = x.stash(K.I);
        x.value(call.args().get(1));
        int[] p = x.stash(K.P);
        c.aload(p[0]);
        c.lload(p[1]);
        c.iload(dim[0]);
        c.loadConstant(size);
        c.loadConstant(method);
        c.aload(Emitter.STATE_SLOT);
        c.loadConstant(Emitter.pos(call.pos()));
        c.invokestatic(MEM, "checkRead", mt(CD_void, SEGMENT, CD_long, CD_int, CD_int, Jvm.STRING, STATE, CD_int));
        c.iload(dim[0]);
        c.aload(p[0]);
        c.lload(p[1]);
        x.free(K.P, p);
        x.free(K.I, dim);
        c.invokestatic(Jvm.mathOwner(k), method, mt(k.desc, CD_int, SEGMENT, CD_long));
    }

    private void atomic(Expr.IntrinsicCall call) {
        Expr ptr = call.args().get(0);
        CType pointee = ((CType.Pointer) ptr.type()).pointee();
        String method = atomicMethod(call.intrinsic(), pointee);
        if (method == null) {
            throw new CodegenException(call.pos(), call.intrinsic().cudaName + " has no overload for '"
                    + pointee + "*'");
        }
        K k = Jvm.kind(pointee);
        boolean isShort = pointee == CType.Prim.USHORT || pointee == CType.Prim.SHORT;
        ClassDesc valueDesc = isShort ? CD_short : k.desc;
        x.value(ptr);
        int[] p = x.stash(K.P);
        c.aload(p[0]);
        c.lload(p[1]);
        c.loadConstant(pointee.size());
        c.aload(Emitter.STATE_SLOT);
        c.loadConstant(Emitter.pos(call.pos()));
        c.invokestatic(MEM, "checkAtomic", mt(CD_void, SEGMENT, CD_long, CD_int, STATE, CD_int));
        c.aload(p[0]);
        c.lload(p[1]);
        x.free(K.P, p);
        int operands = call.args().size() - 1;
        ClassDesc[] params = new ClassDesc[2 + operands];
        params[0] = SEGMENT;
        params[1] = CD_long;
        for (int i = 0; i < operands; i++) {
            x.value(call.args().get(i + 1));
            params[2 + i] = valueDesc;
        }
        c.invokestatic(ATOMICS, method, mt(valueDesc, params));
        if (isShort) {
            Ops.narrow(c, (CType.Prim) pointee);
        }
    }

    private static String atomicMethod(Intrinsic in, CType pointee) {
        if (!(pointee instanceof CType.Prim p)) {
            return null;
        }
        return switch (p) {
            case INT -> switch (in) {
                case ATOMIC_ADD -> "addI";
                case ATOMIC_SUB -> "subI";
                case ATOMIC_EXCH -> "exchI";
                case ATOMIC_MIN -> "minI";
                case ATOMIC_MAX -> "maxI";
                case ATOMIC_CAS -> "casI";
                case ATOMIC_AND -> "andI";
                case ATOMIC_OR -> "orI";
                case ATOMIC_XOR -> "xorI";
                default -> null;
            };
            case UINT -> switch (in) {
                case ATOMIC_ADD -> "addI";
                case ATOMIC_SUB -> "subI";
                case ATOMIC_EXCH -> "exchI";
                case ATOMIC_MIN -> "minU";
                case ATOMIC_MAX -> "maxU";
                case ATOMIC_INC -> "incU";
                case ATOMIC_DEC -> "decU";
                case ATOMIC_CAS -> "casI";
                case ATOMIC_AND -> "andI";
                case ATOMIC_OR -> "orI";
                case ATOMIC_XOR -> "xorI";
                default -> null;
            };
            case LONG, LONGLONG -> switch (in) {
                case ATOMIC_ADD -> "addJ";
                case ATOMIC_EXCH -> "exchJ";
                case ATOMIC_MIN -> "minJ";
                case ATOMIC_MAX -> "maxJ";
                case ATOMIC_CAS -> "casJ";
                case ATOMIC_AND -> "andJ";
                case ATOMIC_OR -> "orJ";
                case ATOMIC_XOR -> "xorJ";
                default -> null;
            };
            case ULONG, ULONGLONG -> switch (in) {
                case ATOMIC_ADD -> "addJ";
                case ATOMIC_EXCH -> "exchJ";
                case ATOMIC_MIN -> "minUJ";
                case ATOMIC_MAX -> "maxUJ";
                case ATOMIC_CAS -> "casJ";
                case ATOMIC_AND -> "andJ";
                case ATOMIC_OR -> "orJ";
                case ATOMIC_XOR -> "xorJ";
                default -> null;
            };
            case FLOAT -> in == Intrinsic.ATOMIC_ADD ? "addF" : in == Intrinsic.ATOMIC_EXCH ? "exchF" : null;
            case DOUBLE -> in == Intrinsic.ATOMIC_ADD ? "addD" : null;
            case USHORT, SHORT -> in == Intrinsic.ATOMIC_CAS ? "casS" : null;
            default -> null;
        };
    }
}
