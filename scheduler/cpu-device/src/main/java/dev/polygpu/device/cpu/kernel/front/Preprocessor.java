package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.CompileCancel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The C preprocessor over tokens: macros (object- and function-like, {@code #}, {@code ##},
 * {@code __VA_ARGS__}), conditionals and the ignored directives. Includes are skipped because the CUDA and C
 * headers a kernel includes are built in: their constants are predefined here, their functions are intrinsics.
 * Expansion follows the hide-set rule so a macro never expands inside its own expansion.
 */
final class Preprocessor {
    private record Macro(String name, boolean function, List<String> params, boolean variadic, List<Token> body) {}

    /** One open {@code #if}: whether its enclosing region is live, a branch was taken, this branch is live. */
    private static final class Cond {
        final boolean parentActive;
        boolean taken;
        boolean active;
        boolean sawElse;

        Cond(boolean parentActive, boolean active) {
            this.parentActive = parentActive;
            this.active = active;
            this.taken = active;
        }
    }

    /**
     * {@code assert(e)} of {@code <assert.h>}, which is built in as the other headers are; with {@code NDEBUG}
     * defined where it is used it expands to {@link #NO_ASSERT} instead.
     */
    private static final Macro ASSERT = builtin("assert", List.of("e"), PrintfSema.ASSERT_BUILTIN + "((e), #e)");
    private static final Macro NO_ASSERT = builtin("assert", List.of("e"), "((void) 0)");

    private final Diagnostics diags;
    private final Map<String, Macro> macros = new HashMap<>();
    private final Deque<Cond> conds = new ArrayDeque<>();
    /** Tokens produced by macro expansions so far ({@link Limits#MAX_EXPANDED_TOKENS}). */
    private long expandedTokens;

    Preprocessor(Diagnostics diags) {
        this.diags = diags;
        predefine();
    }

    private void predefine() {
        String[][] defs = {
            {"__CUDACC__", "1"}, {"__NVCC__", "1"}, {"__CUDA_ARCH__", "700"}, {"__CUDACC_RTC__", "1"},
            {"__cplusplus", "201703L"}, {"NULL", "0"},
            {"INT_MAX", "2147483647"}, {"INT_MIN", "(-2147483647 - 1)"}, {"UINT_MAX", "4294967295U"},
            {"LONG_MAX", "9223372036854775807L"}, {"LONG_MIN", "(-9223372036854775807L - 1)"},
            {"ULONG_MAX", "18446744073709551615UL"}, {"LLONG_MAX", "9223372036854775807LL"},
            {"LLONG_MIN", "(-9223372036854775807LL - 1)"}, {"ULLONG_MAX", "18446744073709551615ULL"},
            {"SHRT_MAX", "32767"}, {"SHRT_MIN", "(-32768)"}, {"USHRT_MAX", "65535"}, {"CHAR_BIT", "8"},
            {"SCHAR_MAX", "127"}, {"SCHAR_MIN", "(-128)"}, {"UCHAR_MAX", "255"}, {"CHAR_MAX", "127"},
            {"CHAR_MIN", "(-128)"},
            {"FLT_MAX", "3.40282347e+38F"}, {"FLT_MIN", "1.17549435e-38F"}, {"FLT_EPSILON", "1.19209290e-7F"},
            {"DBL_MAX", "1.7976931348623157e+308"}, {"DBL_MIN", "2.2250738585072014e-308"},
            {"DBL_EPSILON", "2.2204460492503131e-16"},
            {"INFINITY", "__builtin_inff"}, {"NAN", "__builtin_nanf"}, {"HUGE_VALF", "__builtin_inff"},
            {"HUGE_VAL", "__builtin_inf"}, {"CUDART_INF_F", "__builtin_inff"}, {"CUDART_NAN_F", "__builtin_nanf"},
            {"CUDART_INF", "__builtin_inf"}, {"CUDART_NAN", "__builtin_nan"},
            {"M_PI", "3.14159265358979323846"}, {"M_E", "2.7182818284590452354"},
            {"M_SQRT2", "1.41421356237309504880"}, {"M_SQRT1_2", "0.70710678118654752440"},
            {"M_LN2", "0.69314718055994530942"}, {"M_LN10", "2.30258509299404568402"},
            {"M_LOG2E", "1.4426950408889634074"}, {"M_LOG10E", "0.43429448190325182765"},
            {"M_PI_2", "1.57079632679489661923"}, {"M_PI_4", "0.78539816339744830962"},
            {"M_1_PI", "0.31830988618379067154"}, {"M_2_PI", "0.63661977236758134308"},
            {"CUDART_PI_F", "3.141592654f"}, {"CUDART_PI", "3.1415926535897931e+0"},
        };
        Diagnostics quiet = diags.fresh();
        for (String[] d : defs) {
            List<Token> body = new Lexer(d[1], quiet).tokens();
            body.removeLast();
            macros.put(d[0], new Macro(d[0], false, List.of(), false, body));
        }
        macros.put("assert", ASSERT);
    }

    private static Macro builtin(String name, List<String> params, String body) {
        List<Token> tokens = new Lexer(body, new Diagnostics(null, body)).tokens();
        tokens.removeLast();
        return new Macro(name, true, params, false, List.copyOf(tokens));
    }

    /** The preprocessed tokens of a whole source, ending with the EOF token. */
    List<Token> run(List<Token> raw) {
        List<Token> out = new ArrayList<>();
        int k = 0;
        while (raw.get(k).kind != Token.Kind.EOF) {
            Token t = raw.get(k);
            int end = k + 1;
            if (t.bol && t.is("#")) {
                while (!raw.get(end).bol) {
                    end++;
                }
                directive(raw.subList(k + 1, end), t);
            } else {
                while (raw.get(end).kind != Token.Kind.EOF && !(raw.get(end).bol && raw.get(end).is("#"))) {
                    end++;
                }
                if (active()) {
                    out.addAll(expand(raw.subList(k, end)));
                }
            }
            k = end;
        }
        if (!conds.isEmpty()) {
            diags.error(raw.get(k).pos(), "unterminated conditional directive");
        }
        out.add(raw.get(k));
        return out;
    }

    private boolean active() {
        return conds.isEmpty() || conds.peek().active;
    }

    private void directive(List<Token> line, Token hash) {
        if (line.isEmpty()) {
            return;
        }
        Token d = line.getFirst();
        List<Token> rest = line.subList(1, line.size());
        switch (d.text) {
            case "if", "ifdef", "ifndef" -> {
                boolean live = active();
                boolean v = live && switch (d.text) {
                    case "if" -> evalCondition(rest, d) != 0;
                    case "ifdef" -> !rest.isEmpty() && macros.containsKey(rest.getFirst().text);
                    default -> rest.isEmpty() || !macros.containsKey(rest.getFirst().text);
                };
                conds.push(new Cond(live, v));
            }
            case "elif", "else" -> {
                Cond c = conds.peek();
                if (c == null || c.sawElse) {
                    diags.error(d.pos(), "#" + d.text + (c == null ? " without #if" : " after #else"));
                    return;
                }
                if (d.text.equals("else")) {
                    c.sawElse = true;
                    c.active = c.parentActive && !c.taken;
                } else {
                    c.active = c.parentActive && !c.taken && evalCondition(rest, d) != 0;
                }
                c.taken |= c.active;
            }
            case "endif" -> {
                if (conds.isEmpty()) {
                    diags.error(d.pos(), "#endif without #if");
                } else {
                    conds.pop();
                }
            }
            default -> {
                if (!active()) {
                    return;
                }
                switch (d.text) {
                    case "define" -> define(rest, d);
                    case "undef" -> {
                        if (!rest.isEmpty()) {
                            macros.remove(rest.getFirst().text);
                        }
                    }
                    case "error" -> diags.error(hash.pos(), "#error" + joinText(rest));
                    case "include", "pragma", "line", "warning", "ident" -> { }
                    default -> diags.error(d.pos(), "invalid preprocessing directive #" + d.text);
                }
            }
        }
    }

    private static String joinText(List<Token> ts) {
        StringBuilder sb = new StringBuilder();
        for (Token t : ts) {
            sb.append(' ').append(t.text);
        }
        return sb.toString();
    }

    private void define(List<Token> rest, Token d) {
        if (rest.isEmpty() || rest.getFirst().kind != Token.Kind.IDENT) {
            diags.error(rest.isEmpty() ? d.pos() : rest.getFirst().pos(), "macro name must be an identifier");
            return;
        }
        String name = rest.getFirst().text;
        if (rest.size() > 1 && rest.get(1).is("(") && !rest.get(1).space) {
            List<String> params = new ArrayList<>();
            boolean variadic = false;
            int k = 2;
            while (k < rest.size() && !rest.get(k).is(")")) {
                Token p = rest.get(k);
                if (p.is("...")) {
                    variadic = true;
                    params.add("__VA_ARGS__");
                } else if (p.kind == Token.Kind.IDENT) {
                    params.add(p.text);
                } else if (!p.is(",")) {
                    diags.error(p.pos(), "invalid token in macro parameter list");
                    return;
                }
                k++;
            }
            if (k >= rest.size()) {
                diags.error(d.pos(), "missing ')' in macro parameter list");
                return;
            }
            macros.put(name, new Macro(name, true, params, variadic, List.copyOf(rest.subList(k + 1, rest.size()))));
        } else {
            macros.put(name, new Macro(name, false, List.of(), false, List.copyOf(rest.subList(1, rest.size()))));
        }
    }

    /** Macro-expands a run of tokens (rescanning the results, as C requires). */
    List<Token> expand(List<Token> in) {
        Deque<Token> q = new ArrayDeque<>(in);
        List<Token> out = new ArrayList<>();
        while (!q.isEmpty()) {
            CompileCancel.check();
            Token t = q.poll();
            Macro m = t.kind == Token.Kind.IDENT && !t.hide.contains(t.text) ? macros.get(t.text) : null;
            if (m == ASSERT && macros.containsKey("NDEBUG")) {
                m = NO_ASSERT;
            }
            if (m == null) {
                out.add(t);
                continue;
            }
            if (!m.function) {
                pushFront(q, counted(t, m, subst(m, List.of(), plus(t.hide, m.name), t)));
                continue;
            }
            if (q.isEmpty() || !q.peek().is("(")) {
                out.add(t);
                continue;
            }
            q.poll();
            List<List<Token>> args = new ArrayList<>();
            List<Token> cur = new ArrayList<>();
            int depth = 0;
            Token close = null;
            while (!q.isEmpty()) {
                Token a = q.poll();
                if (a.is(")") && depth == 0) {
                    close = a;
                    break;
                }
                if (a.is(",") && depth == 0 && !(m.variadic && args.size() == m.params.size() - 1)) {
                    args.add(cur);
                    cur = new ArrayList<>();
                    continue;
                }
                if (a.is("(")) {
                    depth++;
                } else if (a.is(")")) {
                    depth--;
                }
                cur.add(a);
            }
            if (close == null) {
                diags.error(t.pos(), "unterminated argument list invoking macro '" + m.name + "'");
                return out;
            }
            args.add(cur);
            if (m.params.isEmpty() && args.size() == 1 && cur.isEmpty()) {
                args.clear();
            }
            if (m.variadic && args.size() == m.params.size() - 1) {
                args.add(new ArrayList<>());
            }
            if (args.size() != m.params.size()) {
                diags.error(t.pos(), "macro '" + m.name + "' requires " + m.params.size() + " argument"
                        + (m.params.size() == 1 ? "" : "s") + ", but " + args.size() + " given");
                continue;
            }
            Set<String> hs = new HashSet<>(t.hide);
            hs.retainAll(close.hide);
            pushFront(q, counted(t, m, subst(m, args, plus(hs, m.name), t)));
        }
        return out;
    }

    /**
     * {@code expansion}, the tokens macro {@code m} invoked at {@code use} expands to, counted against
     * {@link Limits#MAX_EXPANDED_TOKENS}; past the limit the compile ends here with that error.
     */
    private List<Token> counted(Token use, Macro m, List<Token> expansion) {
        expandedTokens += expansion.size();
        if (expandedTokens > Limits.MAX_EXPANDED_TOKENS) {
            diags.error(use.pos(), "macro expansion too large: expanding '" + m.name + "' takes the source past "
                    + Limits.MAX_EXPANDED_TOKENS + " tokens produced by macros (the CPU device's kernel engine's"
                    + " limit); a macro that uses another one several times doubles with each level");
            diags.throwIfAny();
        }
        return expansion;
    }

    private static Set<String> plus(Set<String> s, String name) {
        Set<String> r = new HashSet<>(s);
        r.add(name);
        return Set.copyOf(r);
    }

    private static void pushFront(Deque<Token> q, List<Token> ts) {
        for (int k = ts.size() - 1; k >= 0; k--) {
            q.addFirst(ts.get(k));
        }
    }

    /** The macro's body with parameters replaced, {@code #} and {@code ##} applied, positioned at the call. */
    private List<Token> subst(Macro m, List<List<Token>> args, Set<String> hs, Token at) {
        List<Token> body = m.body;
        List<Token> result = new ArrayList<>();
        boolean paste = false;
        for (int k = 0; k < body.size(); k++) {
            Token b = body.get(k);
            if (b.is("##") && k > 0 && k + 1 < body.size()) {
                paste = true;
                continue;
            }
            boolean pasteNext = k + 1 < body.size() && body.get(k + 1).is("##");
            List<Token> piece;
            int pi = m.params.indexOf(b.text);
            if (m.function && b.is("#") && k + 1 < body.size() && m.params.contains(body.get(k + 1).text)) {
                piece = List.of(stringize(args.get(m.params.indexOf(body.get(k + 1).text)), b));
                k++;
            } else if (m.function && b.kind == Token.Kind.IDENT && pi >= 0) {
                piece = paste || pasteNext ? args.get(pi) : expand(args.get(pi));
            } else {
                piece = List.of(b);
            }
            if (paste && !piece.isEmpty() && !result.isEmpty()) {
                Token l = result.removeLast();
                result.add(pasteTokens(l, piece.getFirst(), at));
                result.addAll(piece.subList(1, piece.size()));
            } else {
                result.addAll(piece);
            }
            paste = false;
        }
        List<Token> out = new ArrayList<>(result.size());
        for (Token r : result) {
            Set<String> h = r.hide.isEmpty() ? hs : union(hs, r.hide);
            out.add(r.expanded(at, h));
        }
        return out;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> r = new HashSet<>(a);
        r.addAll(b);
        return Set.copyOf(r);
    }

    private Token pasteTokens(Token l, Token r, Token at) {
        List<Token> ts = new Lexer(l.text + r.text, diags.fresh()).tokens();
        if (ts.size() != 2) {
            diags.error(at.pos(), "pasting \"" + l.text + "\" and \"" + r.text + "\" does not give a valid token");
            return l;
        }
        Token t = ts.getFirst();
        return new Token(t.kind, t.text, l.line, l.col, false, l.space, Set.of());
    }

    private static Token stringize(List<Token> arg, Token at) {
        StringBuilder sb = new StringBuilder("\"");
        for (int k = 0; k < arg.size(); k++) {
            Token t = arg.get(k);
            if (k > 0 && t.space) {
                sb.append(' ');
            }
            String s = t.text;
            if (t.kind == Token.Kind.STRING || t.kind == Token.Kind.CHAR) {
                s = s.replace("\\", "\\\\").replace("\"", "\\\"");
            }
            sb.append(s);
        }
        return new Token(Token.Kind.STRING, sb.append('"').toString(), at.line, at.col, false, at.space, Set.of());
    }

    /** Value of a {@code #if}/{@code #elif} expression; errors count as false. */
    private long evalCondition(List<Token> line, Token d) {
        List<Token> pre = new ArrayList<>();
        for (int k = 0; k < line.size(); k++) {
            Token t = line.get(k);
            if (t.is("defined")) {
                boolean paren = k + 1 < line.size() && line.get(k + 1).is("(");
                int ni = paren ? k + 2 : k + 1;
                if (ni >= line.size() || line.get(ni).kind != Token.Kind.IDENT
                        || (paren && (ni + 1 >= line.size() || !line.get(ni + 1).is(")")))) {
                    diags.error(t.pos(), "macro name missing after 'defined'");
                    return 0;
                }
                boolean def = macros.containsKey(line.get(ni).text);
                pre.add(new Token(Token.Kind.NUMBER, def ? "1" : "0", t.line, t.col, false, true, Set.of()));
                k = paren ? ni + 1 : ni;
            } else {
                pre.add(t);
            }
        }
        List<Token> ts = expand(pre);
        if (ts.isEmpty()) {
            diags.error(d.pos(), "#" + d.text + " with no expression");
            return 0;
        }
        try {
            IfExpr p = new IfExpr(ts);
            long v = p.ternary();
            if (p.k < ts.size()) {
                throw new IllegalArgumentException("token '" + ts.get(p.k).text + "' is not valid in preprocessor expressions");
            }
            return v;
        } catch (IllegalArgumentException e) {
            diags.error(d.pos(), e.getMessage());
            return 0;
        }
    }

    /** Evaluator of preprocessor constant expressions (64-bit signed arithmetic). */
    private static final class IfExpr {
        private static final String[][] LEVELS = {
            {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"},
            {"*", "/", "%"},
        };
        final List<Token> ts;
        int k;

        IfExpr(List<Token> ts) {
            this.ts = ts;
        }

        private boolean at(String s) {
            return k < ts.size() && ts.get(k).is(s);
        }

        long ternary() {
            long c = binary(0);
            if (at("?")) {
                k++;
                long a = ternary();
                if (!at(":")) {
                    throw new IllegalArgumentException("expected ':' in preprocessor expression");
                }
                k++;
                long b = ternary();
                return c != 0 ? a : b;
            }
            return c;
        }

        private long binary(int level) {
            if (level == LEVELS.length) {
                return unary();
            }
            long v = binary(level + 1);
            outer:
            while (true) {
                for (String op : LEVELS[level]) {
                    if (at(op)) {
                        k++;
                        long r = binary(level + 1);
                        v = apply(op, v, r);
                        continue outer;
                    }
                }
                return v;
            }
        }

        private static long apply(String op, long a, long b) {
            return switch (op) {
                case "||" -> a != 0 || b != 0 ? 1 : 0;
                case "&&" -> a != 0 && b != 0 ? 1 : 0;
                case "|" -> a | b;
                case "^" -> a ^ b;
                case "&" -> a & b;
                case "==" -> a == b ? 1 : 0;
                case "!=" -> a != b ? 1 : 0;
                case "<" -> a < b ? 1 : 0;
                case ">" -> a > b ? 1 : 0;
                case "<=" -> a <= b ? 1 : 0;
                case ">=" -> a >= b ? 1 : 0;
                case "<<" -> a << b;
                case ">>" -> a >> b;
                case "+" -> a + b;
                case "-" -> a - b;
                case "*" -> a * b;
                default -> {
                    if (b == 0) {
                        throw new IllegalArgumentException("division by zero in preprocessor expression");
                    }
                    yield op.equals("/") ? a / b : a % b;
                }
            };
        }

        private long unary() {
            if (k >= ts.size()) {
                throw new IllegalArgumentException("expected value in preprocessor expression");
            }
            Token t = ts.get(k++);
            switch (t.text) {
                case "-": return -unary();
                case "+": return unary();
                case "!": return unary() == 0 ? 1 : 0;
                case "~": return ~unary();
                case "(": {
                    long v = ternary();
                    if (!at(")")) {
                        throw new IllegalArgumentException("expected ')' in preprocessor expression");
                    }
                    k++;
                    return v;
                }
                default:
            }
            return switch (t.kind) {
                case NUMBER -> {
                    if (Literals.isFloating(t.text)) {
                        throw new IllegalArgumentException("floating constant in preprocessor expression");
                    }
                    yield Literals.parseInt(t.text).value();
                }
                case CHAR -> Literals.parseChar(t.text);
                case IDENT -> t.text.equals("true") ? 1 : 0;
                default -> throw new IllegalArgumentException("token '" + t.text + "' is not valid in preprocessor expressions");
            };
        }
    }
}
