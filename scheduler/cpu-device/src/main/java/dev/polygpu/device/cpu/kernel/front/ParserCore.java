package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The shared ground of the CUDA C parser's layers ({@link ExprParser}, {@link TypeParser}, {@link StmtParser},
 * {@link Parser}): the token cursor, the keyword sets, the typedef and struct names in scope, and the entry points
 * of the grammar that one layer calls in another (declared here, implemented by the layer that owns them), since
 * expressions, types and statements refer to one another.
 */
abstract class ParserCore {
    static final Set<String> TYPE_KEYWORDS = Set.of("void", "bool", "char", "short", "int", "long",
            "signed", "unsigned", "float", "double", "__signed__", "_Bool");
    static final Set<String> QUALIFIERS = Set.of("const", "volatile", "__restrict__", "restrict",
            "__restrict", "constexpr", "register", "__volatile__");
    /** Words that start a struct, union or class type (only plain structs are supported). */
    static final Set<String> AGGREGATE_WORDS = Set.of("struct", "union", "class");

    final List<Token> ts;
    final Diagnostics diags;
    final Map<String, CType> typedefs;
    /**
     * Per open block (and function or for-statement scope), the typedef names that a variable or parameter
     * declared in it hides ({@code int half = n / 2;}), with the types to restore when the scope closes: in C++
     * a declaration may reuse a typedef's name, which then means the object until the end of its scope.
     */
    private final java.util.ArrayDeque<Map<String, CType>> hiddenTypedefs = new java.util.ArrayDeque<>();
    final Set<String> templateNames;
    int k;
    /** Struct tags ({@code struct Particle}) by name; each is also a type name, as in C++. */
    final Map<String, CType.Struct> structTags;
    final CxxForms cxx;

    /** How deep the construct being parsed is nested ({@link Limits#MAX_NESTING}). */
    private int nesting;

    ParserCore(List<Token> ts, Diagnostics diags, Map<String, CType> typedefs, Set<String> templateNames) {
        this.ts = ts;
        this.diags = diags;
        this.typedefs = new HashMap<>(typedefs);
        this.templateNames = templateNames;
        this.structTags = new HashMap<>();
        this.cxx = new CxxForms(this);
        for (CType t : typedefs.values()) {
            if (t instanceof CType.Struct st) {
                structTags.put(st.name(), st);
            }
        }
    }

    /**
     * Enters one more level of nesting at {@code pos}; each call is paired with {@link #unnest}. Past
     * {@link Limits#MAX_NESTING} the compile ends here with that error: checked before the recursion gets deep,
     * so the answer does not depend on the thread's stack. Also a point where an interrupted compile stops.
     */
    final void nest(Pos pos) {
        dev.polygpu.device.cpu.kernel.CompileCancel.check();
        if (++nesting > Limits.MAX_NESTING) {
            nesting = 0;
            diags.error(pos, "nesting too deep: more than " + Limits.MAX_NESTING + " levels of statements,"
                    + " parentheses, operators and operator chains (the CPU device's kernel engine's limit); split"
                    + " the expression or the block into smaller pieces, such as functions or variables");
            diags.throwIfAny();
        }
    }

    /** Leaves {@code levels} levels entered with {@link #nest}. */
    final void unnest(int levels) {
        nesting = Math.max(0, nesting - levels);
    }

    // ---------------------------------------------------------------- entry points owned by the layers

    /** A full expression, comma operator included ({@link ExprParser}). */
    abstract Expr expr();

    /** An assignment expression, the operand of a call or initializer ({@link ExprParser}). */
    abstract Expr assign();

    /** A parenthesized argument list ({@link ExprParser}). */
    abstract List<Expr> args();

    /** Whether the current token starts a type name ({@link TypeParser}). */
    abstract boolean startsType();

    /** Declaration specifiers: the base type and storage ({@link TypeParser}). */
    abstract DeclSpec declSpec(boolean allowStorage);

    /** A declarator on a base type ({@link TypeParser}). */
    abstract Decl declarator(CType base, boolean baseConst, boolean nameRequired);

    /** A type name, as in a cast or {@code sizeof} ({@link TypeParser}). */
    abstract CType typeName();

    /** A brace-enclosed initializer list ({@link StmtParser}). */
    abstract Syntax.InitList initList();

    // ---------------------------------------------------------------- tokens

    Token tok() {
        return ts.get(Math.min(k, ts.size() - 1));
    }

    Token peek(int n) {
        return ts.get(Math.min(k + n, ts.size() - 1));
    }

    boolean at(String s) {
        return tok().is(s);
    }

    boolean accept(String s) {
        if (at(s)) {
            k++;
            return true;
        }
        return false;
    }

    Token expect(String s, String message) {
        if (at(s)) {
            return ts.get(k++);
        }
        throw diags.fail(errorPos(), message);
    }

    /** Where a missing token is reported: at the next token (as clang does). */
    private Pos errorPos() {
        return tok().pos();
    }

    /** Consumes a closing {@code >}, splitting a {@code >>} token. */
    void expectCloseAngle() {
        Token t = tok();
        if (t.is(">")) {
            k++;
        } else if (t.is(">>") || t.is(">=") || t.is(">>=")) {
            ts.set(k, new Token(Token.Kind.PUNCT, t.text.substring(1), t.line, t.col + 1, false, false, t.hide));
        } else {
            throw diags.fail(t.pos(), "expected '>'");
        }
    }

    String ident(String what) {
        Token t = tok();
        if (t.kind != Token.Kind.IDENT) {
            throw diags.fail(t.pos(), "expected " + what);
        }
        k++;
        return t.text;
    }

    boolean atEof() {
        return tok().kind == Token.Kind.EOF;
    }

    static final String ENGINE = " by the CPU device's kernel engine";

    /** Index after the parenthesized group starting at {@code open} (which must be '('), or open if none. */
    int skipParens(int open) {
        if (!ts.get(open).is("(")) {
            return open;
        }
        int d = 0;
        int q = open;
        do {
            Token t = ts.get(q++);
            d += t.is("(") ? 1 : t.is(")") ? -1 : 0;
        } while (d > 0 && ts.get(q).kind != Token.Kind.EOF);
        return q;
    }

    // ---------------------------------------------------------------- types and declarators

    /** Declaration specifiers: storage classes, function specifiers, qualifiers and the base type. */
    static final class DeclSpec {
        Pos pos;
        CType type;
        boolean global, device, shared, constant, managed, extern, isStatic, isConst, isAuto, any;
        /** {@code volatile} among the specifiers: what the declared pointer or array refers to is volatile. */
        boolean isVolatile;
    }

    /**
     * A typedef name that is not also a keyword, so that after a complete type it can only be the name being
     * declared ({@code float half}, {@code int uint}).
     */
    boolean isPlainTypedefName(String w) {
        return typedefs.containsKey(w) && !TYPE_KEYWORDS.contains(w) && !QUALIFIERS.contains(w)
                && !AGGREGATE_WORDS.contains(w);
    }

    void openScope() {
        hiddenTypedefs.push(new HashMap<>());
    }

    void closeScope() {
        typedefs.putAll(hiddenTypedefs.pop());
    }

    /** Declares {@code name} in the innermost open scope: a typedef of that name is hidden until it closes. */
    void declareName(String name) {
        if (name != null && !hiddenTypedefs.isEmpty() && typedefs.containsKey(name)) {
            hiddenTypedefs.peek().putIfAbsent(name, typedefs.remove(name));
        }
    }

    /** A declarator's pieces: name (null if abstract), type with pointers, array dimensions, constness. */
    record Decl(Pos pos, String name, CType type, List<Expr> dims, boolean isConst) {}
}
