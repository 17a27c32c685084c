package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Expr.BinaryOp;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.rt.CFormat;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code printf} and {@code assert} in kernel code. The format of a printf must be a string literal; its
 * conversions are checked against the arguments after C's default argument promotions (float to double, char,
 * short and bool to int), so that a missing, extra or mistyped argument is a compile error naming the
 * conversion, the argument and its type, rather than garbage in the output (nvcc only warns). Integer
 * arguments are checked by size (a signed or unsigned int for {@code %d %u %x}, a 64-bit integer for
 * {@code %ld %lld %zu}…), not by sign, as C's own format checks do by default.
 */
final class PrintfSema {
    /** CUDA's printf accepts at most this many arguments after the format. */
    static final int MAX_ARGS = 32;
    /** The builtin that the predefined {@code assert} macro calls ({@link Preprocessor}). */
    static final String ASSERT_BUILTIN = "__polygpu_assert";
    private static final CType CHAR_PTR = new CType.Pointer(Prim.CHAR);

    private PrintfSema() {
    }

    static boolean handles(String name) {
        return name.equals("printf") || name.equals(ASSERT_BUILTIN) || name.equals("__trap");
    }

    static Expr resolve(Expr.CallByName c, ExprSema es) {
        return switch (c.name()) {
            case "printf" -> printf(c, es);
            case "__trap" -> {
                if (!c.args().isEmpty()) {
                    throw es.diags.fail(c.pos(), "function '__trap' expects 0 arguments, but " + c.args().size()
                            + (c.args().size() == 1 ? " was" : " were") + " given");
                }
                yield new Expr.IntrinsicCall(c.pos(), Prim.VOID, Intrinsic.TRAP, List.of());
            }
            default -> assertion(c, es);
        };
    }

    private static boolean isStringLiteral(Expr e) {
        return e instanceof Expr.Name n && n.name().startsWith("\"");
    }

    private static Expr.StrConst string(Expr e, ExprSema es) {
        try {
            return new Expr.StrConst(e.pos(), CHAR_PTR, Literals.parseString(((Expr.Name) e).name()));
        } catch (IllegalArgumentException x) {
            throw es.diags.fail(e.pos(), x.getMessage());
        }
    }

    private static Expr printf(Expr.CallByName c, ExprSema es) {
        List<Expr> raw = c.args();
        if (raw.isEmpty()) {
            throw es.diags.fail(c.pos(), "printf needs a format string");
        }
        if (!isStringLiteral(raw.getFirst())) {
            throw es.diags.fail(raw.getFirst().pos(), "the format of printf must be a string literal on the CPU "
                    + "device, which checks the arguments against it when the kernel compiles; write the format "
                    + "in the call (\"%d\\n\") instead of passing a variable");
        }
        Expr.StrConst format = string(raw.getFirst(), es);
        List<Object> parsed;
        try {
            parsed = CFormat.parse(format.value());
        } catch (IllegalArgumentException x) {
            throw es.diags.fail(format.pos(), "printf format: " + x.getMessage());
        }
        if (raw.size() - 1 > MAX_ARGS) {
            throw es.diags.fail(raw.get(MAX_ARGS + 1).pos(), "printf takes at most " + MAX_ARGS + " arguments after "
                    + "the format in CUDA; this call has " + (raw.size() - 1));
        }
        List<Expr> args = new ArrayList<>();
        for (int i = 1; i < raw.size(); i++) {
            args.add(isStringLiteral(raw.get(i)) ? string(raw.get(i), es) : es.value(raw.get(i)));
        }
        List<Expr> out = new ArrayList<>();
        out.add(format);
        int next = 0;
        for (Object o : parsed) {
            if (!(o instanceof CFormat.Spec s)) {
                continue;
            }
            if (s.width() == CFormat.STAR) {
                out.add(starArgument(c, es, s, args, next++, "field width"));
            }
            if (s.precision() == CFormat.STAR) {
                out.add(starArgument(c, es, s, args, next++, "precision"));
            }
            if (next >= args.size()) {
                throw es.diags.fail(c.pos(), "printf conversion '" + s.text() + "' has no argument: argument "
                        + (next + 2) + " is missing (the format is argument 1)");
            }
            out.add(checked(es, s, args.get(next), next + 2));
            next++;
        }
        if (next < args.size()) {
            Expr extra = args.get(next);
            throw es.diags.fail(extra.pos(), "printf argument " + (next + 2) + " (type '" + typeName(extra)
                    + "') has no conversion in the format \"" + printable(format.value()) + "\"; add one or remove"
                    + " the argument");
        }
        return new Expr.IntrinsicCall(c.pos(), Prim.INT, Intrinsic.PRINTF, out);
    }

    private static Expr starArgument(Expr.CallByName c, ExprSema es, CFormat.Spec s, List<Expr> args, int i,
            String what) {
        if (i >= args.size()) {
            throw es.diags.fail(c.pos(), "printf conversion '" + s.text() + "' takes its " + what + " from an int"
                    + " argument, but argument " + (i + 2) + " is missing (the format is argument 1)");
        }
        Expr a = args.get(i);
        if (!(a.type() instanceof Prim p) || !p.integer || Types.promote(p).size() != 4) {
            throw mismatch(es, s, a, i + 2, "an int for its " + what + " ('*')");
        }
        return ExprSema.cast(a, Prim.INT);
    }

    private static String typeName(Expr a) {
        return a instanceof Expr.StrConst ? "string literal" : a.type().toString();
    }

    private static Diagnostics.Abort mismatch(ExprSema es, CFormat.Spec s, Expr a, int position, String expected) {
        return es.diags.fail(a.pos(), "printf conversion '" + s.text() + "' expects " + expected + ", but argument "
                + position + " has type '" + typeName(a) + "'");
    }

    /** The argument converted as printf receives it, after checking it against its conversion. */
    private static Expr checked(ExprSema es, CFormat.Spec s, Expr a, int position) {
        String len = s.length();
        char conv = s.conversion();
        if (a instanceof Expr.StrConst str) {
            if (conv == 's' && len.isEmpty()) {
                return str;
            }
            throw mismatch(es, s, a, position, expectation(s));
        }
        CType t = a.type();
        switch (conv) {
            case 's' -> {
                if (t instanceof CType.Pointer) {
                    throw es.diags.fail(a.pos(), "printf conversion '" + s.text() + "' with argument " + position
                            + " of type '" + t + "' is not supported by the CPU device's kernel engine: '%s' takes "
                            + "a string literal argument only (printf(\"%s\", \"text\")); print characters of "
                            + "device memory with %c");
                }
                throw mismatch(es, s, a, position, expectation(s));
            }
            case 'p' -> {
                if (!len.isEmpty() || !(t instanceof CType.Pointer)) {
                    throw mismatch(es, s, a, position, expectation(s));
                }
                return a;
            }
            case 'c', 'd', 'i', 'o', 'u', 'x', 'X' -> {
                if (len.equals("L") || conv == 'c' && !len.isEmpty() || !(t instanceof Prim p) || !p.integer) {
                    throw mismatch(es, s, a, position, expectation(s));
                }
                Prim promoted = (Prim) Types.promote(p);
                if (promoted.size() != (s.isWide() ? 8 : 4)) {
                    throw mismatch(es, s, a, position, expectation(s));
                }
                return ExprSema.cast(a, promoted);
            }
            default -> {
                if (len.equals("L")) {
                    throw es.diags.fail(a.pos(), "printf conversion '" + s.text() + "' expects a long double, which "
                            + "device code does not have; use '%" + conv + "' for a float or double argument");
                }
                if (!len.isEmpty() && !len.equals("l") || !(t instanceof Prim p) || !p.isFloating()) {
                    throw mismatch(es, s, a, position, expectation(s));
                }
                return ExprSema.cast(a, Prim.DOUBLE);
            }
        }
    }

    /** What a conversion takes, in words. */
    private static String expectation(CFormat.Spec s) {
        String len = s.length();
        return switch (s.conversion()) {
            case 's' -> len.isEmpty() ? "a string literal" : "a wide string, which is not supported";
            case 'p' -> len.isEmpty() ? "a pointer" : "a pointer and no length modifier";
            case 'c' -> len.isEmpty() ? "an int (a char is promoted to int)" : "a wide character, which is not supported";
            case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A' -> len.isEmpty() || len.equals("l")
                    ? "a double (a float is promoted to double)" : "no length modifier '" + len + "' (use none)";
            default -> switch (len) {
                case "" -> "an int or unsigned int (char and short are promoted to int)";
                case "hh", "h" -> "an int or unsigned int (the value is printed as a " + (len.equals("h") ? "short"
                        : "char") + ")";
                case "L" -> "no length modifier 'L' on an integer conversion (use 'll' for long long)";
                default -> "a 64-bit integer (long, long long, size_t)";
            };
        };
    }

    private static String printable(String bytes) {
        return bytes.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\"", "\\\"");
    }

    /**
     * The condition with the string literals of {@code assert(i < n && "message")} and {@code assert(!"never")}
     * replaced by 1: a literal is a non-null pointer, true in a condition.
     */
    private static Expr literalsAsTrue(Expr e) {
        if (isStringLiteral(e)) {
            return new Expr.IntConst(e.pos(), Prim.INT, 1);
        }
        return switch (e) {
            case Expr.Binary b when b.op() == BinaryOp.LOGICAL_AND || b.op() == BinaryOp.LOGICAL_OR ->
                    new Expr.Binary(b.pos(), b.type(), b.op(), b.operandType(), literalsAsTrue(b.left()),
                            literalsAsTrue(b.right()));
            case Expr.Unary u when u.op() == Expr.UnaryOp.NOT ->
                    new Expr.Unary(u.pos(), u.type(), u.op(), literalsAsTrue(u.operand()));
            default -> e;
        };
    }

    /** {@code __polygpu_assert(cond, "cond")}, which the predefined {@code assert} macro expands to. */
    private static Expr assertion(Expr.CallByName c, ExprSema es) {
        if (c.args().size() != 2 || !isStringLiteral(c.args().get(1))) {
            throw es.diags.fail(c.pos(), "assert takes one argument, the condition");
        }
        Expr cond = es.value(literalsAsTrue(c.args().getFirst()));
        if (!cond.type().isScalar()) {
            throw es.diags.fail(cond.pos(), "the condition of assert has type '" + cond.type()
                    + "', which is not a scalar");
        }
        Expr test = es.binary(cond.pos(), BinaryOp.NE, cond, new Expr.IntConst(cond.pos(), Prim.INT, 0));
        String file = es.diags.file == null ? "kernel.cu" : es.diags.file;
        return new Expr.IntrinsicCall(c.pos(), Prim.VOID, Intrinsic.ASSERT, List.of(test,
                string(c.args().get(1), es),
                new Expr.StrConst(c.pos(), CHAR_PTR, file),
                new Expr.IntConst(c.pos(), Prim.INT, c.pos().line()),
                new Expr.StrConst(c.pos(), CHAR_PTR, es.s.prettyFunction())));
    }
}
