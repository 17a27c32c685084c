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
 * <p>Implementation notes: recursive over the nesting of parentheses, so as deep as the source's own nesting,
 * which the parser has already bounded.
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

    /**
     * Whether the tokens {@code [from, to)} are an abstract declarator (no name outside parameter lists), possibly
     * empty.
     */
    boolean abstractDeclarator(int from, int to) {
        return declarator(from, to, false);
    }

    /** A declarator covering exactly {@code [from, to)}; {@code named}: it may declare a name. */
    private boolean declarator(int from, int to, boolean named) {
        int i = from;
        while (i < to && (at(i).is("*") || at(i).is("&") || at(i).is("&&") || isWord(i) && qualifier.test(
                at(i).text))) {
            i++;
        }
        if (i < to && named && isWord(i) && !typeWord.test(at(i).text) && !qualifier.test(at(i).text)) {
            i++;
        } else if (i < to && at(i).is("(")) {
            int close = matching(i, to);
            if (close < 0 || !(declarator(i + 1, close, named) || parameterClause(i + 1, close))) {
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
                if (close >= 0 && !parameterClause(i + 1, close)) {
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
    private boolean parameterClause(int from, int to) {
        int start = from;
        int depth = 0;
        for (int i = from; i < to; i++) {
            if (at(i).is("(") || at(i).is("[")) {
                depth++;
            } else if (at(i).is(")") || at(i).is("]")) {
                depth--;
            } else if (depth == 0 && at(i).is(",")) {
                if (!parameter(start, i)) {
                    return false;
                }
                start = i + 1;
            }
        }
        return start == from && from == to || parameter(start, to);
    }

    /** One parameter declaration: type words (at least one that is not a qualifier), then a declarator. */
    private boolean parameter(int from, int to) {
        int i = from;
        boolean type = false;
        while (i < to && isWord(i) && (typeWord.test(at(i).text) || qualifier.test(at(i).text))) {
            type |= typeWord.test(at(i).text);
            i++;
        }
        return type && declarator(i, to, true);
    }

    private boolean isWord(int i) {
        return at(i).kind == Token.Kind.IDENT;
    }

    /** The bracket closing the one at {@code open}, searched before {@code limit}; -1 if none. */
    private int matching(int open, int limit) {
        String opening = at(open).text;
        String closing = opening.equals("(") ? ")" : "]";
        int depth = 0;
        for (int i = open; i < limit; i++) {
            if (at(i).is(opening)) {
                depth++;
            } else if (at(i).is(closing) && --depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
