package dev.polygpu.device.cpu.oracle.gen;

import java.util.List;
import java.util.Objects;

/**
 * An expression of a generated program. A {@code LIT} is literal text, a {@code VAR} names a variable, and an
 * {@code OP} is a template over its arguments: {@code $0 … $9} are the printed arguments, {@code @} the case
 * prefix ({@code "@sadd_int($0, $1)"}, {@code "in0[($0) & 63u]"}). The safety of an operation (a divisor forced
 * nonzero, a shift count masked, an index masked into bounds) lives in the template, so replacing an argument
 * by any expression of the same type and at most the same {@code bits} keeps the program free of undefined
 * behaviour; that is the rule the shrinker follows.
 *
 * <p>{@code bits} bounds an integer value's magnitude (|v| &lt; 2^bits), which lets the generator use a plain
 * signed operator where it cannot overflow. {@code level} is how uniform the value is. {@code fixed} marks an
 * expression the shrinker must not replace as a whole (an lvalue, a pointer).
 */
public record Expr(Kind kind, Ty type, String text, List<Expr> args, Var var, int bits, Level level, boolean fixed) {
    /** What an expression node is. */
    public enum Kind {
        LIT,
        VAR,
        OP
    }

    public Expr {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(type, "type");
        args = List.copyOf(args);
    }

    static Expr lit(Ty type, String text, int bits) {
        return new Expr(Kind.LIT, type, text, List.of(), null, bits, Level.BLOCK, false);
    }

    static Expr var(Var v) {
        return new Expr(Kind.VAR, v.type, v.ref(), List.of(), v, bitsOf(v.type), v.level, false);
    }

    static Expr op(Ty type, String template, int bits, Expr... args) {
        Level l = Level.BLOCK;
        for (Expr a : args) {
            l = l.join(a.level);
        }
        return new Expr(Kind.OP, type, template, List.of(args), null, bits, l, false);
    }

    static Expr op(Ty type, String template, Expr... args) {
        return op(type, template, bitsOf(type), args);
    }

    /** The full magnitude bound of a type's values (0 for non-integers). */
    static int bitsOf(Ty t) {
        return t instanceof Prim p && p.isInteger() ? p.valueBits() : 0;
    }

    Expr withLevel(Level l) {
        return new Expr(kind, type, text, args, var, bits, l, fixed);
    }

    Expr asFixed() {
        return new Expr(kind, type, text, args, var, bits, level, true);
    }

    Expr withArgs(List<Expr> newArgs) {
        return new Expr(kind, type, text, newArgs, var, bits, level, fixed);
    }

    /** The scalar type, or null if this is not a scalar. */
    Prim prim() {
        return type instanceof Prim p ? p : null;
    }
}
