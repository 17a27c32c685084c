package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.CONV;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_double;
import static java.lang.constant.ConstantDescs.CD_float;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.codegen.Jvm.K;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;

/**
 * Emits C's conversions and arithmetic on JVM values with C's (and PTX's) meaning: narrow integer types
 * are kept normalized in an int (an unsigned char holds 0..255), unsigned operations use the JDK's unsigned
 * helpers, shifts clamp as PTX does, float-to-integer conversions saturate.
 */
final class Ops {
    private Ops() {
    }

    /** Rounds the float on the stack to the nearest half (ties to even), held as a float. */
    static void roundHalf(CodeBuilder c) {
        c.invokestatic(Jvm.HALF, "round", mt(CD_float, CD_float));
    }

    /** Converts the value on the stack from {@code from} to {@code to}. */
    static void convert(CodeBuilder c, CType from, CType to, Pos pos) {
        if (from.equals(to)) {
            return;
        }
        if (to instanceof CType.Pointer) {
            if (from instanceof CType.Pointer) {
                return;
            }
            if (from.isInteger()) {
                pop(c, Jvm.kind(from));
                nullPointer(c);
                return;
            }
            throw new CodegenException(pos, "cannot convert '" + from + "' to the pointer type '" + to + "'");
        }
        if (from instanceof CType.Pointer) {
            if (to == CType.Prim.BOOL) {
                c.pop2();
                c.getstatic(Jvm.SEGMENT, "NULL", Jvm.SEGMENT);
                Label isNull = c.newLabel();
                Label end = c.newLabel();
                c.if_acmpeq(isNull);
                c.iconst_1();
                c.goto_(end);
                c.labelBinding(isNull);
                c.iconst_0();
                c.labelBinding(end);
                return;
            }
            throw new CodegenException(pos, "converting the pointer type '" + from + "' to '" + to
                    + "' is not supported by the CPU device (pointers are not plain addresses there)");
        }
        if (from == CType.Prim.HALF) {
            // A half is held as the float of the same value: converting it is converting that float.
            convert(c, CType.Prim.FLOAT, to, pos);
            return;
        }
        if (to == CType.Prim.HALF) {
            if (from == CType.Prim.DOUBLE) {
                c.invokestatic(Jvm.HALF, "round", mt(CD_float, CD_double));
            } else {
                // Through float: exact for every value of magnitude below 2^24, and anything larger becomes inf.
                convert(c, from, CType.Prim.FLOAT, pos);
                roundHalf(c);
            }
            return;
        }
        CType.Prim f = (CType.Prim) from;
        CType.Prim t = (CType.Prim) to;
        K fk = Jvm.kind(f);
        K tk = Jvm.kind(t);
        if (t == CType.Prim.BOOL) {
            toBool(c, fk);
            return;
        }
        switch (fk) {
            case I -> {
                switch (tk) {
                    case I -> { }
                    case J -> {
                        c.i2l();
                        if (f == CType.Prim.UINT) {
                            c.loadConstant(0xFFFFFFFFL);
                            c.land();
                        }
                    }
                    case F -> {
                        if (f == CType.Prim.UINT) {
                            c.i2l();
                            c.loadConstant(0xFFFFFFFFL);
                            c.land();
                            c.l2f();
                        } else {
                            c.i2f();
                        }
                    }
                    case D -> {
                        if (f == CType.Prim.UINT) {
                            c.i2l();
                            c.loadConstant(0xFFFFFFFFL);
                            c.land();
                            c.l2d();
                        } else {
                            c.i2d();
                        }
                    }
                    default -> throw bad(pos, from, to);
                }
            }
            case J -> {
                switch (tk) {
                    case I -> c.l2i();
                    case J -> { }
                    case F -> {
                        if (f.signed) {
                            c.l2f();
                        } else {
                            c.invokestatic(CONV, "ulongToFloat", mt(CD_float, CD_long));
                        }
                    }
                    case D -> {
                        if (f.signed) {
                            c.l2d();
                        } else {
                            c.invokestatic(CONV, "ulongToDouble", mt(CD_double, CD_long));
                        }
                    }
                    default -> throw bad(pos, from, to);
                }
            }
            case F -> {
                switch (tk) {
                    case I -> {
                        // nvcc converts to every unsigned type of 32 bits or fewer with cvt.rzi.u32 (which
                        // saturates: negatives give 0) and keeps the low bits, so (unsigned char) -1.0f is 0.
                        if (!t.signed) {
                            c.invokestatic(CONV, "f2u", mt(CD_int, CD_float));
                        } else {
                            c.f2i();
                        }
                    }
                    case J -> {
                        if (t.signed) {
                            c.f2l();
                        } else {
                            c.invokestatic(CONV, "f2ul", mt(CD_long, CD_float));
                        }
                    }
                    case F -> { }
                    case D -> c.f2d();
                    default -> throw bad(pos, from, to);
                }
            }
            case D -> {
                switch (tk) {
                    case I -> {
                        if (!t.signed) {
                            c.invokestatic(CONV, "d2u", mt(CD_int, CD_double));
                        } else {
                            c.d2i();
                        }
                    }
                    case J -> {
                        if (t.signed) {
                            c.d2l();
                        } else {
                            c.invokestatic(CONV, "d2ul", mt(CD_long, CD_double));
                        }
                    }
                    case F -> c.d2f();
                    case D -> { }
                    default -> throw bad(pos, from, to);
                }
            }
            default -> throw bad(pos, from, to);
        }
        if (tk == K.I) {
            narrow(c, t);
        }
    }

    /** Normalizes an int to the range of a narrow C integer type. */
    static void narrow(CodeBuilder c, CType.Prim t) {
        switch (t) {
            case CHAR, SCHAR -> c.i2b();
            case UCHAR -> {
                c.loadConstant(0xFF);
                c.iand();
            }
            case SHORT -> c.i2s();
            case USHORT -> c.i2c();
            case BOOL -> toBool(c, K.I);
            default -> { }
        }
    }

    /** value != 0 as 0 or 1 (NaN is true, as in C). */
    static void toBool(CodeBuilder c, K k) {
        compareWithZero(c, k);
        // (x | -x) >>> 31 is 1 exactly when x != 0.
        c.dup();
        c.ineg();
        c.ior();
        c.loadConstant(31);
        c.iushr();
    }

    /**
     * Replaces a numeric value by an int that is zero exactly when the value is zero (NaN gives non-zero,
     * as C's truth test wants).
     */
    static void compareWithZero(CodeBuilder c, K k) {
        switch (k) {
            case I -> { }
            case J -> {
                c.lconst_0();
                c.lcmp();
            }
            case F -> {
                c.fconst_0();
                c.fcmpl();
            }
            case D -> {
                c.dconst_0();
                c.dcmpl();
            }
            default -> throw new IllegalStateException("compare with zero of kind " + k);
        }
    }

    static void pop(CodeBuilder c, K k) {
        switch (k) {
            case J, D -> c.pop2();
            case P -> {
                c.pop2();
                c.pop();
            }
            case V -> { }
            default -> c.pop();
        }
    }

    static void nullPointer(CodeBuilder c) {
        c.getstatic(Jvm.SEGMENT, "NULL", Jvm.SEGMENT);
        c.lconst_0();
    }

    static void zero(CodeBuilder c, K k) {
        switch (k) {
            case I -> c.iconst_0();
            case J -> c.lconst_0();
            case F -> c.fconst_0();
            case D -> c.dconst_0();
            case P -> nullPointer(c);
            default -> { }
        }
    }

    /**
     * Emits {@code left op right} for the arithmetic and bitwise operators, both operands of {@code type}
     * on the stack (a shift's right operand is of {@code rightType}). {@code constShift} is the shift count
     * when it is a constant, else -1.
     */
    static void arith(CodeBuilder c, Expr.BinaryOp op, CType type, CType rightType, int constShift, Pos pos) {
        K k = Jvm.kind(type);
        boolean uns = Jvm.unsigned(type);
        if (op == Expr.BinaryOp.SHL || op == Expr.BinaryOp.SHR) {
            shift(c, op, k, uns, rightType, constShift, pos);
            return;
        }
        switch (k) {
            case I -> {
                switch (op) {
                    case ADD -> c.iadd();
                    case SUB -> c.isub();
                    case MUL -> c.imul();
                    case DIV -> {
                        if (uns) {
                            c.invokestatic(Jvm.INTEGER, "divideUnsigned", mt(CD_int, CD_int, CD_int));
                        } else {
                            c.idiv();
                        }
                    }
                    case MOD -> {
                        if (uns) {
                            c.invokestatic(Jvm.INTEGER, "remainderUnsigned", mt(CD_int, CD_int, CD_int));
                        } else {
                            c.irem();
                        }
                    }
                    case BIT_AND -> c.iand();
                    case BIT_OR -> c.ior();
                    case BIT_XOR -> c.ixor();
                    default -> throw badOp(pos, op, type);
                }
            }
            case J -> {
                switch (op) {
                    case ADD -> c.ladd();
                    case SUB -> c.lsub();
                    case MUL -> c.lmul();
                    case DIV -> {
                        if (uns) {
                            c.invokestatic(Jvm.LONG, "divideUnsigned", mt(CD_long, CD_long, CD_long));
                        } else {
                            c.ldiv();
                        }
                    }
                    case MOD -> {
                        if (uns) {
                            c.invokestatic(Jvm.LONG, "remainderUnsigned", mt(CD_long, CD_long, CD_long));
                        } else {
                            c.lrem();
                        }
                    }
                    case BIT_AND -> c.land();
                    case BIT_OR -> c.lor();
                    case BIT_XOR -> c.lxor();
                    default -> throw badOp(pos, op, type);
                }
            }
            case F -> {
                switch (op) {
                    case ADD -> c.fadd();
                    case SUB -> c.fsub();
                    case MUL -> c.fmul();
                    case DIV -> c.fdiv();
                    case MOD -> c.frem();
                    default -> throw badOp(pos, op, type);
                }
            }
            case D -> {
                switch (op) {
                    case ADD -> c.dadd();
                    case SUB -> c.dsub();
                    case MUL -> c.dmul();
                    case DIV -> c.ddiv();
                    case MOD -> c.drem();
                    default -> throw badOp(pos, op, type);
                }
            }
            default -> throw badOp(pos, op, type);
        }
    }

    private static void shift(CodeBuilder c, Expr.BinaryOp op, K k, boolean uns, CType rightType, int constShift,
                              Pos pos) {
        if (Jvm.kind(rightType) == K.J) {
            c.invokestatic(CONV, "shiftCount", mt(CD_int, CD_long));
        } else if (Jvm.kind(rightType) != K.I) {
            throw new CodegenException(pos, "shift count must be an integer, got '" + rightType + "'");
        }
        int width = k == K.I ? 32 : 64;
        boolean direct = constShift >= 0 && constShift < width;
        if (k == K.I) {
            if (op == Expr.BinaryOp.SHL) {
                if (direct) {
                    c.ishl();
                } else {
                    c.invokestatic(CONV, "shl", mt(CD_int, CD_int, CD_int));
                }
            } else if (direct) {
                if (uns) {
                    c.iushr();
                } else {
                    c.ishr();
                }
            } else {
                c.invokestatic(CONV, uns ? "shr" : "sar", mt(CD_int, CD_int, CD_int));
            }
        } else if (k == K.J) {
            if (op == Expr.BinaryOp.SHL) {
                if (direct) {
                    c.lshl();
                } else {
                    c.invokestatic(CONV, "shlJ", mt(CD_long, CD_long, CD_int));
                }
            } else if (direct) {
                if (uns) {
                    c.lushr();
                } else {
                    c.lshr();
                }
            } else {
                c.invokestatic(CONV, uns ? "shrJ" : "sarJ", mt(CD_long, CD_long, CD_int));
            }
        } else {
            throw new CodegenException(pos, "shift of a non-integer type");
        }
    }

    /**
     * Compares the two operands of {@code type} on the stack and jumps to {@code target} when
     * {@code op} (a comparison) is {@code jumpIf}.
     */
    static void compareAndJump(CodeBuilder c, Expr.BinaryOp op, CType type, boolean jumpIf, Label target,
                               Pos pos) {
        K k = Jvm.kind(type);
        Expr.BinaryOp effective = jumpIf ? op : negate(op);
        switch (k) {
            case I -> {
                if (Jvm.unsigned(type)) {
                    c.invokestatic(Jvm.INTEGER, "compareUnsigned", mt(CD_int, CD_int, CD_int));
                    jumpOnSign(c, effective, target);
                } else {
                    switch (effective) {
                        case LT -> c.if_icmplt(target);
                        case LE -> c.if_icmple(target);
                        case GT -> c.if_icmpgt(target);
                        case GE -> c.if_icmpge(target);
                        case EQ -> c.if_icmpeq(target);
                        case NE -> c.if_icmpne(target);
                        default -> throw badOp(pos, op, type);
                    }
                }
            }
            case J -> {
                if (Jvm.unsigned(type)) {
                    c.invokestatic(Jvm.LONG, "compareUnsigned", mt(CD_int, CD_long, CD_long));
                } else {
                    c.lcmp();
                }
                jumpOnSign(c, effective, target);
            }
            case F, D -> {
                // NaN makes every comparison but != false: pick the cmp variant whose NaN result fails
                // the jump condition when it should, and succeeds for a negated comparison.
                boolean nanJumps = !jumpIf ^ (op == Expr.BinaryOp.NE);
                boolean useG = switch (effective) {
                    case LT, LE -> nanJumps ? false : true;
                    case GT, GE -> nanJumps;
                    default -> false;
                };
                if (k == K.F) {
                    if (useG) {
                        c.fcmpg();
                    } else {
                        c.fcmpl();
                    }
                } else if (useG) {
                    c.dcmpg();
                } else {
                    c.dcmpl();
                }
                jumpOnSign(c, effective, target);
            }
            default -> throw badOp(pos, op, type);
        }
    }

    private static void jumpOnSign(CodeBuilder c, Expr.BinaryOp op, Label target) {
        switch (op) {
            case LT -> c.iflt(target);
            case LE -> c.ifle(target);
            case GT -> c.ifgt(target);
            case GE -> c.ifge(target);
            case EQ -> c.ifeq(target);
            case NE -> c.ifne(target);
            default -> throw new IllegalStateException(op.name());
        }
    }

    static Expr.BinaryOp negate(Expr.BinaryOp op) {
        return switch (op) {
            case LT -> Expr.BinaryOp.GE;
            case LE -> Expr.BinaryOp.GT;
            case GT -> Expr.BinaryOp.LE;
            case GE -> Expr.BinaryOp.LT;
            case EQ -> Expr.BinaryOp.NE;
            case NE -> Expr.BinaryOp.EQ;
            default -> throw new IllegalStateException(op.name());
        };
    }

    private static CodegenException bad(Pos pos, CType from, CType to) {
        return new CodegenException(pos, "cannot convert '" + from + "' to '" + to + "'");
    }

    private static CodegenException badOp(Pos pos, Expr.BinaryOp op, CType type) {
        return new CodegenException(pos, "operator '" + op.symbol + "' cannot be applied to '" + type + "'");
    }
}
