package dev.polygpu.device.cpu.kernel.front;

import java.util.List;
import java.util.function.Predicate;

/**
 * Whether a run of tokens has the shape of a C++ abstract declarator, as in the type-id {@code T(X)} after a type
 * name: C++ reads whatever can be a type-id as one ([stmt.ambig], [dcl.ambig.res]), so {@code (int()) & x} and
 * {@code (bool(short(v))) + 1} are casts to function types, while {@code (int((int)v & 5u)) & x} and
 * {@code (char(a == b)) & x} are values, since no declarator has those tokens. Only the shape is checked: the
 * token sequence must be derivable from the declarator grammar (pointer operators, a name where one is allowed,
 * parentheses, array bounds, parameter lists of declarations that start with a type word).
 *
 * <p>Implementation notes: the check runs before the parser descends into the operand, so the operand may be
 * nested arbitrarily deep. The brackets are matched once per check (one pass with a stack) and the scans jump over
 * bracketed groups, which keeps a check linear in the operand's tokens; the recursion over nested parentheses stops
 * at {@link Limits#MAX_NESTING} levels with "not a declarator", and the parser then reports the nesting.
 */
final class TypeIdShape {
    private final List<Token> ts;
    /** Words that name a type or qualify one here: keywords, typedef and template parameter names. */
    private final Predicate<String> typeWord;
    private final Predicate<String> qualifier;

    TypeIdShape(List<Token> ts, Predicate<String> typeWord, Predicate<String> qualifier) {
        this.ts = ts;
        this.typeWord = typeWord;
        this.qualifier = qualifier;
    }

    private Token at(int i) {
        return ts.get(Math.min(i, ts.size() - 1));
    }

    /** For each bracket in {@code [base, base + closing.length)}, the index of its partner, or -1 (unbalanced). */
    private int[] closing = new int[0];
    private int base;

    /**
     * Whether the tokens {@code [from, to)} are an abstract declarator (no name outside parameter lists), possibly
     * empty.
     */
    boolean abstractDeclarator(int from, int to) {
        matchBrackets(from, to);
        return declarator(from, to, false, 0);
    }

    /** Fills {@link #closing} for the opening brackets in {@code [from, to)}. */
    private void matchBrackets(int from, int to) {
        base = from;
        closing = new int[Math.max(0, to - from)];
        java.util.Arrays.fill(closing, -1);
        int[] open = new int[closing.length];
        int top = 0;
        for (int i = from; i < to; i++) {
            if (at(i).is("(") || at(i).is("[")) {
                open[top++] = i;
            } else if (at(i).is(")") || at(i).is("]")) {
                if (top == 0) {
                    return;
                }
                int o = open[--top];
                if (at(o).is("(") == at(i).is(")")) {
                    closing[o - base] = i;
                }
            }
        }
    }

    /** A declarator covering exactly {@code [from, to)}; {@code named}: it may declare a name. */
    private boolean declarator(int from, int to, boolean named, int depth) {
        if (depth > Limits.MAX_NESTING) {
            return false;
        }
        int i = from;
        while (i < to && (at(i).is("*") || at(i).is("&") || at(i).is("&&") || isWord(i) && qualifier.test(
                at(i).text))) {
            i++;
        }
        if (i < to && named && isWord(i) && !typeWord.test(at(i).text) && !qualifier.test(at(i).text)) {
            i++;
        } else if (i < to && at(i).is("(")) {
            int close = matching(i, to);
            if (close < 0 || !(declarator(i + 1, close, named, depth + 1)
                    || parameterClause(i + 1, close, depth + 1))) {
                return false;
            }
            i = close + 1;
        }
        while (i < to) {
            int close;
            if (at(i).is("[")) {
                close = matching(i, to);
            } else if (at(i).is("(")) {
                close = matching(i, to);
                if (close >= 0 && !parameterClause(i + 1, close, depth + 1)) {
                    return false;
                }
            } else {
                return false;
            }
            if (close < 0) {
                return false;
            }
            i = close + 1;
        }
        return true;
    }

    /** Whether {@code [from, to)} is a parameter list: empty, or parameter declarations separated by commas. */
    private boolean parameterClause(int from, int to, int depth) {
        int start = from;
        for (int i = from; i < to; i++) {
            if (at(i).is("(") || at(i).is("[")) {
                int close = matching(i, to);
                if (close < 0) {
                    return false;
                }
                i = close;
            } else if (at(i).is(",")) {
                if (!parameter(start, i, depth)) {
                    return false;
                }
                start = i + 1;
            }
        }
        return start == from && from == to || parameter(start, to, depth);
    }

    /** One parameter declaration: type words (at least one that is not a qualifier), then a declarator. */
    private boolean parameter(int from, int to, int depth) {
        int i = from;
        boolean type = false;
        while (i < to && isWord(i) && (typeWord.test(at(i).text) || qualifier.test(at(i).text))) {
            type |= typeWord.test(at(i).text);
            i++;
        }
        return type && declarator(i, to, true, depth);
    }

    private boolean isWord(int i) {
        return at(i).kind == Token.Kind.IDENT;
    }

    /** The bracket closing the one at {@code open} if it comes before {@code limit}; -1 if none. */
    private int matching(int open, int limit) {
        int close = open - base < closing.length ? closing[open - base] : -1;
        return close < limit ? close : -1;
    }
}
