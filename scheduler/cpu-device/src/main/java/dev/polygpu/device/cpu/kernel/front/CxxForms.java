package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.List;

/**
 * The C++ forms of kernel code that C lacks, parsed for {@link Parser}: functional casts and value-initialization
 * ({@code float(x)}, {@code T()}, {@code T{}}, {@code float2{1, 2}}), direct-initialization of a variable
 * ({@code T z(v);}), alias declarations ({@code using real = float;}), {@code static_assert}, and attributes
 * ({@code [[likely]]}, skipped). The C++ constructs the engine does not support (lambdas, range-based for loops,
 * qualified names, variadic templates, operator overloading, …) are refused here with a message that names them
 * and says what to write instead, rather than with the syntax error they would otherwise run into.
 */
final class CxxForms {
    private static final String ENGINE = " by the CPU device's kernel engine";

    private final ParserCore p;
    private final Diagnostics diags;
    private final TypeIdShape typeIdShape;

    CxxForms(ParserCore p) {
        this.p = p;
        this.diags = p.diags;
        this.typeIdShape = new TypeIdShape(p.ts, w -> Parser.TYPE_KEYWORDS.contains(w) || p.typedefs.containsKey(w)
                || Parser.AGGREGATE_WORDS.contains(w) || Unsupported.isVectorType(w), Parser.QUALIFIERS::contains);
    }

    private Token at(int i) {
        return p.ts.get(Math.min(i, p.ts.size() - 1));
    }

    // ---------------------------------------------------------------- functional casts and value-initialization

    /**
     * At a type name in an expression: {@code T(x)} (a conversion, the same as the C cast {@code (T)x}),
     * {@code T()} and {@code T{}} (the zero of T), {@code T{x}} and {@code T{a, b}} (list-initialization). C++
     * allows only a one-word type here ({@code unsigned(x)}, not {@code unsigned int(x)}), and so does nvcc.
     */
    Expr functionalCast() {
        Token first = p.tok();
        int start = p.k;
        CType type = p.declSpec(false).type;
        String written = words(start, p.k);
        if (p.at("::")) {
            p.k--;
            throw qualifiedName();
        }
        if (p.k - start > 1) {
            throw diags.fail(first.pos(), "'" + written + (p.at("{") ? "{…}" : "(…)") + "' is not valid C++: a "
                    + "functional cast names its type in one word; write '(" + written + ")(x)', 'static_cast<"
                    + written + ">(x)' or a one-word name of the type (such as 'unsigned' or a typedef)");
        }
        if (p.at("(")) {
            List<Expr> args = p.args();
            if (args.isEmpty()) {
                return new Expr.BracedInit(first.pos(), type, List.of());
            }
            if (args.size() > 1) {
                throw diags.fail(first.pos(), tooManyInParens(written, type, args.size()));
            }
            return new Expr.Cast(first.pos(), type, args.getFirst());
        }
        if (p.at("{")) {
            return new Expr.BracedInit(first.pos(), type, p.initList().asExprs());
        }
        throw diags.fail(p.tok().pos(), "expected '(' or '{' after the type name '" + written
                + "' in an expression (a conversion 'float(x)' or a value 'float{}')");
    }

    private static String tooManyInParens(String written, CType type, int n) {
        if (type instanceof CType.Vector) {
            return "vector type '" + written + "' has no constructors, so '" + written + "(…)' cannot take " + n
                    + " values; write make_" + type + "(…) or " + written + "{…}";
        }
        if (type instanceof CType.Struct) {
            return "'" + written + "(…)' with " + n + " values initializes an aggregate with parentheses, which "
                    + "C++17 (nvcc's default) does not allow; write '" + written + "{…}'";
        }
        return "'" + written + "(…)' converts one value, not " + n;
    }

    /**
     * After an opening parenthesis: whether a type name follows and the parenthesis closes right after it, as in
     * the C cast {@code (T)x}, {@code (unsigned int*)p} and {@code sizeof(T)}; false for a parenthesized
     * expression that starts with a type name, such as {@code (float(x) / 255)} or {@code (T{} + v)}. A type
     * followed by {@code (*} or {@code [} counts as a type name, so that its declarator refuses it by name.
     */
    boolean typeNameInParens() {
        if (!p.startsType()) {
            return false;
        }
        int i = p.k;
        while (at(i).kind == Token.Kind.IDENT) {
            String w = at(i).text;
            if (Parser.AGGREGATE_WORDS.contains(w) || w.equals("enum")) {
                i += 2;
            } else if (Parser.TYPE_KEYWORDS.contains(w) || Parser.QUALIFIERS.contains(w) || p.typedefs.containsKey(w)
                    || Unsupported.isVectorType(w) || Unsupported.isTextureType(w)) {
                i++;
            } else {
                break;
            }
        }
        while (at(i).is("*") || at(i).is("&") || at(i).is("&&")
                || at(i).kind == Token.Kind.IDENT && Parser.QUALIFIERS.contains(at(i).text)) {
            i++;
        }
        return at(i).is(")") || at(i).is("[") || at(i).is("(") && (at(i + 1).is("*") || at(i + 1).is("^"));
    }

    /**
     * After an opening parenthesis, {@code (T(X))} where {@code (X)} has the shape of an abstract declarator
     * ({@link TypeIdShape}: {@code T()}, {@code T(U x)}, {@code T((U x))}, {@code T(*)}), followed by what can begin
     * an operand: C++ takes whatever can be a type-id for one, so {@code (int()) & x} casts {@code &x} to the
     * function type {@code int()} and nvcc refuses it; refused here too rather than read as {@code 0 & x}. Where no
     * operand follows ({@code x = (int());}) it is a parenthesized expression in C++ as here, and so is
     * {@code (int((int)v & 5u)) & x}, which no declarator spells.
     */
    void refuseFunctionTypeCast() {
        if (!p.startsType()) {
            return;
        }
        int start = p.k;
        int i = start;
        while (at(i).kind == Token.Kind.IDENT && (Parser.TYPE_KEYWORDS.contains(at(i).text) || p.typedefs.containsKey(
                at(i).text))) {
            i++;
        }
        if (i == start || !at(i).is("(")) {
            return;
        }
        int close = matching(i);
        if (close < 0 || !at(close + 1).is(")") || !startsOperand(at(close + 2))
                || !typeIdShape.abstractDeclarator(i, close + 1)) {
            return;
        }
        String type = words(start, i) + joined(i, close + 1);
        throw diags.fail(p.ts.get(start - 1).pos(), "'(" + type + ")' followed by '" + at(close + 2).text
                + "' is a cast to the function type '" + type + "' in C++ (what can be a type is one), which is "
                + "not allowed; for the value write '" + words(start, i) + "{}' or '((" + type + "))'");
    }

    /** The index of the parenthesis closing the one at {@code open}, or -1 at the end of the tokens. */
    private int matching(int open) {
        int depth = 0;
        for (int i = open; i < p.ts.size(); i++) {
            if (at(i).is("(")) {
                depth++;
            } else if (at(i).is(")") && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static boolean startsOperand(Token t) {
        return t.kind == Token.Kind.IDENT || t.kind == Token.Kind.NUMBER || t.kind == Token.Kind.CHAR
                || t.kind == Token.Kind.STRING || t.is("(") || t.is("+") || t.is("-") || t.is("&") || t.is("*")
                || t.is("!") || t.is("~") || t.is("++") || t.is("--");
    }

    /**
     * {@code T z(v);}: direct-initialization of the variable {@code d} just declared, which for the engine's types
     * is {@code T z = v;}. {@code T z();} and {@code T z(int)} declare functions in C++ (the first is the "most
     * vexing parse"); both are refused as local function declarations.
     */
    Expr parenInitializer(Parser.Decl d) {
        Token open = p.tok();
        if (p.peek(1).is(")")) {
            throw diags.fail(open.pos(), "'" + d.type() + " " + d.name() + "()' declares a function (C++'s most "
                    + "vexing parse), and local function declarations are not supported" + ENGINE
                    + "; to value-initialize the variable write '" + d.type() + " " + d.name() + "{};'");
        }
        int save = p.k;
        p.k++;
        boolean parameters = p.startsType() && !p.peek(1).is("(") && !p.peek(1).is("{");
        p.k = save;
        if (parameters) {
            throw diags.fail(open.pos(), "local function declarations are not supported" + ENGINE
                    + "; declare functions at file scope");
        }
        List<Expr> args = p.args();
        if (!d.dims().isEmpty()) {
            throw diags.fail(open.pos(), "array '" + d.name() + "' cannot be initialized with parentheses; write '"
                    + d.name() + "[…] = {…}'");
        }
        if (args.size() > 1) {
            boolean aggregate = d.type() instanceof CType.Vector || d.type() instanceof CType.Struct;
            throw diags.fail(open.pos(), "the initializer '(…)' of '" + d.name() + "' has " + args.size()
                    + " values; " + (aggregate ? "write '" + d.type() + " " + d.name() + "{…};'"
                    : "a variable of type '" + d.type() + "' takes one"));
        }
        return args.getFirst();
    }

    // ---------------------------------------------------------------- declarations

    /**
     * {@code using Name = type;}: a typedef. Using-directives and using-declarations ({@code using namespace
     * std;}, {@code using std::min;}) name namespaces, which are not supported.
     */
    void aliasDeclaration() {
        Token using = p.ts.get(p.k++);
        if (p.at("namespace")) {
            throw diags.fail(using.pos(), "'using namespace' is not supported: namespaces are not supported" + ENGINE
                    + "; name functions and types without a namespace (CUDA's math functions are global)");
        }
        Token name = p.tok();
        if (name.kind != Token.Kind.IDENT || !p.peek(1).is("=")) {
            int end = p.k;
            while (!at(end).is(";") && at(end).kind != Token.Kind.EOF) {
                end++;
            }
            throw diags.fail(using.pos(), "using-declarations ('using " + joined(p.k, end) + "') are not supported:"
                    + " namespaces are not supported" + ENGINE + "; name the function or type without a namespace");
        }
        p.k += 2;
        CType t = p.typeName();
        p.expect(";", "expected ';' after alias declaration");
        p.typedefs.put(name.text, t);
    }

    /** {@code static_assert(condition[, "message"]);}: checked when analyzed (in a template, per instantiation). */
    Syntax.StaticAssert staticAssert() {
        Pos pos = p.ts.get(p.k++).pos();
        p.expect("(", "expected '(' after 'static_assert'");
        Expr condition = p.assign();
        String message = null;
        if (p.accept(",")) {
            if (p.tok().kind != Token.Kind.STRING) {
                throw diags.fail(p.tok().pos(), "the message of static_assert must be a string literal");
            }
            StringBuilder sb = new StringBuilder();
            while (p.tok().kind == Token.Kind.STRING) {
                String s = p.ts.get(p.k++).text;
                sb.append(s, s.indexOf('"') + 1, s.length() - 1);
            }
            message = sb.toString();
        }
        p.expect(")", "expected ')' after static_assert");
        p.expect(";", "expected ';' after static_assert");
        return new Syntax.StaticAssert(pos, condition, message);
    }

    /** Skips C++11 attributes ({@code [[likely]]}, {@code [[nodiscard]]}, {@code [[maybe_unused]]}): hints only. */
    void skipAttributes() {
        while (p.at("[") && p.peek(1).is("[")) {
            int depth = 0;
            do {
                Token t = p.ts.get(p.k++);
                depth += t.is("[") ? 1 : t.is("]") ? -1 : 0;
            } while (depth > 0 && !p.atEof());
        }
    }

    /** Just after a for statement's '(': refuses a range-based for loop ({@code for (float v : values)}). */
    void refuseRangeFor() {
        int depth = 0;
        int questions = 0;
        for (int i = p.k; at(i).kind != Token.Kind.EOF; i++) {
            Token t = at(i);
            if (t.is("(") || t.is("[") || t.is("{")) {
                depth++;
            } else if (t.is(")") || t.is("]") || t.is("}")) {
                if (depth-- == 0) {
                    return;
                }
            } else if (depth == 0 && t.is(";")) {
                return;
            } else if (depth == 0 && t.is("?")) {
                questions++;
            } else if (depth == 0 && t.is(":") && questions-- == 0) {
                throw diags.fail(t.pos(), "range-based for loops ('for (… : range)') are not supported" + ENGINE
                        + "; write an index loop, 'for (int i = 0; i < n; i++)'");
            }
        }
    }

    // ---------------------------------------------------------------- refused constructs

    /** At {@code ns::name} in an expression: namespaces and class scopes are not supported; says what to write. */
    Diagnostics.Abort qualifiedName() {
        Token first = p.tok();
        int i = p.k;
        while (at(i + 1).is("::") && at(i + 2).kind == Token.Kind.IDENT) {
            i += 2;
        }
        String name = joined(p.k, i + 1);
        String instead = switch (first.text) {
            case "std", "cuda" -> name.startsWith("std::numeric_limits")
                    ? "; use the <float.h> and <limits.h> macros (FLT_MAX, DBL_EPSILON, INT_MAX, …), which are predefined"
                    : "; CUDA's math functions (sqrt, fabs, min, max, …) and types such as size_t are global: write "
                    + "them without '" + first.text + "::'";
            case "cooperative_groups", "cg" -> "; cooperative groups are not supported: use __syncthreads() and the "
                    + "warp functions (__shfl_sync, __ballot_sync, …)";
            default -> p.typedefs.containsKey(first.text) || Parser.TYPE_KEYWORDS.contains(first.text)
                    ? "; types have no members but a struct's data members here: use a global function or constant "
                    + "(FLT_MAX, INT_MAX, …)"
                    : "; only global names are available (libraries in namespaces, such as CUB and Thrust, are not)";
        };
        return diags.fail(first.pos(), "qualified name '" + name + "' is not supported: namespaces and class scopes "
                + "are not supported" + ENGINE + instead);
    }

    /** At a lambda's '['. */
    Diagnostics.Abort lambda() {
        return diags.fail(p.tok().pos(), "lambda expressions are not supported" + ENGINE + "; write a __device__ "
                + "function (a template one for generic code) and call it");
    }

    /** At a C++ word the engine does not support in expressions, or null if {@code word} is not one. */
    Diagnostics.Abort unsupportedWord(Token word) {
        String message = switch (word.text) {
            case "decltype" -> "decltype is not supported" + ENGINE + "; write the type (in a template, its "
                    + "template parameter)";
            case "alignof", "_Alignof", "__alignof__" -> "'" + word.text + "' is not supported" + ENGINE
                    + "; write the alignment as a constant";
            case "typename" -> "dependent type names ('typename T::…') are not supported" + ENGINE + ", which has "
                    + "no class scopes; use the template's type parameters themselves";
            case "this" -> "'this' is not supported: member functions are not supported" + ENGINE + "; write a "
                    + "function that takes the struct (or a pointer to it)";
            case "dynamic_cast", "typeid" -> "'" + word.text + "' (run-time type information) is not supported"
                    + ENGINE + ", which has no classes with virtual functions; use static_cast";
            default -> null;
        };
        return message == null ? null : diags.fail(word.pos(), message);
    }

    /** At {@code sizeof...}. */
    Diagnostics.Abort sizeofPack(Pos pos) {
        return diags.fail(pos, "'sizeof...' is not supported: variadic templates (parameter packs) are not supported"
                + ENGINE + "; give the template one parameter per type or value");
    }

    /** At {@code typename...} or {@code class...} in a template parameter list. */
    Diagnostics.Abort parameterPack(Pos pos) {
        return diags.fail(pos, "variadic templates (parameter packs, 'typename... Ts') are not supported" + ENGINE
                + "; give the template one parameter per type or value");
    }

    /** At a template whose declaration is not a function's ({@code template <class T> struct S}). */
    Diagnostics.Abort nonFunctionTemplate(Pos pos, Token after, boolean explicitSpecialization) {
        if (explicitSpecialization) {
            return diags.fail(pos, "explicit template specializations ('template <>') are not supported" + ENGINE
                    + "; write a function with its own name, or branch on the template parameter with 'if constexpr'");
        }
        if (Parser.AGGREGATE_WORDS.contains(after.text)) {
            return diags.fail(pos, "class templates ('template <…> " + after.text + " " + at(p.k + 1).text
                    + "') are not supported" + ENGINE
                    + "; only function templates are: define a struct for each type");
        }
        if (after.is("using")) {
            return diags.fail(pos, "alias templates ('template <…> using') are not supported" + ENGINE
                    + "; write the type out, or use a plain 'using Name = type;'");
        }
        return diags.fail(pos, "only function templates are supported" + ENGINE);
    }

    /** At {@code operator} where a declarator's name stands. */
    Diagnostics.Abort operatorOverload() {
        String op = at(p.k + 1).text + (at(p.k + 1).is("(") || at(p.k + 1).is("[") ? at(p.k + 2).text : "");
        return diags.fail(p.tok().pos(), "operator overloading ('operator" + op + "') is not supported" + ENGINE
                + "; write a named __device__ function (such as 'add(a, b)') and call it");
    }

    /** At {@code auto [a, b] = …}. */
    Diagnostics.Abort structuredBinding() {
        return diags.fail(p.tok().pos(), "structured bindings ('auto [a, b] = …') are not supported" + ENGINE
                + "; declare each variable and assign it the member or component");
    }

    /** At {@code T&} or {@code T&&} in a declarator. */
    Diagnostics.Abort reference() {
        return diags.fail(p.tok().pos(), "reference types ('T&') are not supported" + ENGINE + "; pass a pointer "
                + "('T*') or a value");
    }

    /** At {@code .member =} or {@code [index] =} in a braced initializer. */
    Diagnostics.Abort designator() {
        return diags.fail(p.tok().pos(), "designated initializers ('" + (p.at(".") ? ".member" : "[index]")
                + " = …') are not supported" + ENGINE + "; give the values in order");
    }

    /** Whether a designator ({@code .x =}, {@code [2] =}) starts here, in a braced initializer. */
    boolean atDesignator() {
        if (p.at(".")) {
            return at(p.k + 1).kind == Token.Kind.IDENT && at(p.k + 2).is("=");
        }
        if (!p.at("[")) {
            return false;
        }
        int i = p.k + 1;
        while (!at(i).is("]") && at(i).kind != Token.Kind.EOF) {
            i++;
        }
        return at(i + 1).is("=");
    }

    /** The tokens from {@code from} to {@code to} as written with single spaces ({@code unsigned int}). */
    private String words(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append(i > from ? " " : "").append(at(i).text);
        }
        return sb.toString();
    }

    /** The tokens from {@code from} to {@code to} joined without spaces ({@code std::min}). */
    private String joined(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append(at(i).text);
        }
        return sb.toString();
    }
}
