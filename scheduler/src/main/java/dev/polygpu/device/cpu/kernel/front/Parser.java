package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Expr.BinaryOp;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recursive-descent parser of the CUDA C kernel subset. Types are resolved while parsing (typedefs and bound
 * template type parameters are known), so the result needs no further type lookup; everything else (names,
 * conversions, constants) is left to semantic analysis. Errors are recorded and the parser resumes with the
 * next top-level declaration.
 */
final class Parser {
    private static final Set<String> TYPE_KEYWORDS = Set.of("void", "bool", "char", "short", "int", "long",
            "signed", "unsigned", "float", "double", "__signed__", "_Bool");
    private static final Set<String> QUALIFIERS = Set.of("const", "volatile", "__restrict__", "restrict",
            "__restrict", "constexpr", "register", "__volatile__");
    private static final Set<String> FUNC_SPECIFIERS = Set.of("__global__", "__device__", "__host__", "static",
            "inline", "__inline__", "__forceinline__", "__noinline__", "extern", "__shared__", "__constant__",
            "__managed__", "auto", "__launch_bounds__", "__align__", "__attribute__");
    /** Words that start a struct, union or class type (only plain structs are supported). */
    private static final Set<String> AGGREGATE_WORDS = Set.of("struct", "union", "class");

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
    private int externDepth;

    final List<Syntax.FuncDecl> functions = new ArrayList<>();
    final List<Syntax.ConstDecl> consts = new ArrayList<>();
    /** File-scope {@code __shared__} and {@code extern __shared__} variables, in source order. */
    final List<Syntax.Declarator> sharedVariables = new ArrayList<>();
    /** File-scope {@code __device__} and {@code __constant__} variables, in source order. */
    final List<Syntax.Declarator> globalVariables = new ArrayList<>();
    final List<Syntax.TemplateDecl> templates = new ArrayList<>();
    /** File-scope struct definitions, in source order. */
    final List<Syntax.StructDecl> structs = new ArrayList<>();
    /** Struct tags ({@code struct Particle}) by name; each is also a type name, as in C++. */
    final Map<String, CType.Struct> structTags;

    Parser(List<Token> ts, Diagnostics diags, Map<String, CType> typedefs, Set<String> templateNames) {
        this.ts = ts;
        this.diags = diags;
        this.typedefs = new HashMap<>(typedefs);
        this.templateNames = templateNames;
        this.structTags = new HashMap<>();
        for (CType t : typedefs.values()) {
            if (t instanceof CType.Struct st) {
                structTags.put(st.name(), st);
            }
        }
    }

    /** Typedef names every kernel can use without including a header. */
    static Map<String, CType> builtinTypedefs() {
        Map<String, CType> m = new HashMap<>();
        m.put("size_t", Prim.ULONG);
        m.put("ssize_t", Prim.LONG);
        m.put("ptrdiff_t", Prim.LONG);
        m.put("intptr_t", Prim.LONG);
        m.put("uintptr_t", Prim.ULONG);
        m.put("int8_t", Prim.CHAR);
        m.put("uint8_t", Prim.UCHAR);
        m.put("int16_t", Prim.SHORT);
        m.put("uint16_t", Prim.USHORT);
        m.put("int32_t", Prim.INT);
        m.put("uint32_t", Prim.UINT);
        m.put("int64_t", Prim.LONG);
        m.put("uint64_t", Prim.ULONG);
        m.put("uint", Prim.UINT);
        m.put("ushort", Prim.USHORT);
        m.put("uchar", Prim.UCHAR);
        m.put("ulong", Prim.ULONG);
        m.put("clock_t", Prim.LONG);
        m.put("__half", Prim.HALF);
        m.put("half", Prim.HALF);
        m.putAll(VectorTypes.TYPES);
        return m;
    }

    // ---------------------------------------------------------------- tokens

    Token tok() {
        return ts.get(Math.min(k, ts.size() - 1));
    }

    private Token peek(int n) {
        return ts.get(Math.min(k + n, ts.size() - 1));
    }

    boolean at(String s) {
        return tok().is(s);
    }

    private boolean accept(String s) {
        if (at(s)) {
            k++;
            return true;
        }
        return false;
    }

    private Token expect(String s, String message) {
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
    private void expectCloseAngle() {
        Token t = tok();
        if (t.is(">")) {
            k++;
        } else if (t.is(">>") || t.is(">=") || t.is(">>=")) {
            ts.set(k, new Token(Token.Kind.PUNCT, t.text.substring(1), t.line, t.col + 1, false, false, t.hide));
        } else {
            throw diags.fail(t.pos(), "expected '>'");
        }
    }

    private String ident(String what) {
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

    // ---------------------------------------------------------------- top level

    /**
     * Parses a whole translation unit into {@link #functions}, {@link #consts}, {@link #sharedVariables},
     * {@link #globalVariables} and {@link #templates}.
     */
    void parseUnit() {
        while (!atEof()) {
            int start = k;
            try {
                topDecl();
            } catch (Diagnostics.Abort a) {
                recover(start);
            }
        }
    }

    /** Skips the declaration that started at {@code start}: up to its {@code ;} or its balanced body. */
    private void recover(int start) {
        k = start;
        int depth = 0;
        while (!atEof()) {
            Token t = ts.get(k++);
            if (t.is("{")) {
                depth++;
            } else if (t.is("}")) {
                if (--depth <= 0) {
                    return;
                }
            } else if (t.is(";") && depth == 0) {
                return;
            }
        }
    }

    private void topDecl() {
        if (at("template")) {
            templateDecl();
            return;
        }
        if (at("extern") && peek(1).kind == Token.Kind.STRING) {
            if (!peek(1).text.equals("\"C\"") && !peek(1).text.equals("\"C++\"")) {
                throw diags.fail(peek(1).pos(), "unknown linkage language " + peek(1).text);
            }
            k += 2;
            if (accept("{")) {
                externDepth++;
            }
            return;
        }
        if (externDepth > 0 && accept("}")) {
            externDepth--;
            return;
        }
        if (accept(";")) {
            return;
        }
        if (at("typedef")) {
            typedefDecl();
            return;
        }
        if (at("enum") && (peek(1).is("{") || peek(1).is("class") || peek(1).is("struct")
                || peek(1).kind == Token.Kind.IDENT && peek(2).is("{"))) {
            enumDecl();
            return;
        }
        if (at("namespace") || at("using")) {
            throw diags.fail(tok().pos(), "namespaces are not supported by the CPU device's kernel engine");
        }
        if (startsStructDefinition()) {
            structDefinition();
            if (!at(";")) {
                throw diags.fail(tok().pos(), "expected ';' after struct definition (declaring variables in a "
                        + "struct definition is not supported by the CPU device's kernel engine; declare them "
                        + "separately)");
            }
            k++;
            return;
        }
        DeclSpec sp = declSpec(true);
        Decl d = declarator(sp.type, sp.isConst, true);
        if (at("(")) {
            functions.add(functionRest(sp, d));
            return;
        }
        fileScopeVariables(sp, d);
    }

    /** Parses one function definition or prototype (used for template instantiations). */
    Syntax.FuncDecl parseFunction(String nameOverride) {
        DeclSpec sp = declSpec(true);
        Decl d = declarator(sp.type, sp.isConst, true);
        if (!at("(")) {
            throw diags.fail(tok().pos(), "expected '(' after function name");
        }
        Syntax.FuncDecl f = functionRest(sp, d);
        return new Syntax.FuncDecl(f.pos(), nameOverride, f.returnType(), f.params(), f.kernel(), f.body());
    }

    private void fileScopeVariables(DeclSpec sp, Decl first) {
        if (sp.managed) {
            throw diags.fail(sp.pos, "__managed__ variables are not supported by the CPU device's kernel engine");
        }
        if (sp.shared) {
            fileScopeShared(sp, first);
            return;
        }
        if (sp.constant || sp.device) {
            fileScopeGlobals(sp, first);
            return;
        }
        Decl d = first;
        while (true) {
            if (!d.isConst) {
                throw diags.fail(d.pos, "non-const file-scope variables are not supported by the CPU device's "
                        + "kernel engine (only constants such as 'const int N = 256;')");
            }
            if (!d.dims.isEmpty() || d.type == null || !d.type.isArithmetic()) {
                throw diags.fail(d.pos, "file-scope constant '" + d.name
                        + "' must be a scalar of arithmetic type (file-scope arrays are not supported)");
            }
            expect("=", "file-scope constant '" + d.name + "' needs an initializer");
            consts.add(new Syntax.ConstDecl(d.pos, d.name, d.type, assign()));
            if (!accept(",")) {
                break;
            }
            d = declarator(sp.type, sp.isConst, true);
        }
        expect(";", "expected ';' after top level declarator");
    }

    /**
     * {@code __shared__ float tile[256];} or {@code extern __shared__ float sdata[];} at file scope: as the same
     * declaration inside each kernel that uses it (a block's own copy; the launch's dynamic shared memory).
     * Initializers are parsed here and refused by semantic analysis, as inside a function.
     */
    private void fileScopeShared(DeclSpec sp, Decl first) {
        fileScopeDeclarators(sp, first, sp.extern ? Syntax.Storage.EXTERN_SHARED : Syntax.Storage.SHARED, false,
                sharedVariables);
    }

    /**
     * {@code __constant__ float w[3] = {1, 2, 3};} or {@code __device__ int counter;} at file scope: one
     * variable of the module ({@code __device__ __constant__} is {@code __constant__}, as in CUDA). Semantic
     * analysis checks the type and that the initializer is constant.
     */
    private void fileScopeGlobals(DeclSpec sp, Decl first) {
        String space = sp.constant ? "__constant__" : "__device__";
        if (sp.extern) {
            throw diags.fail(sp.pos, "extern " + space + " variables (defined in another file) are not supported by"
                    + " the CPU device's kernel engine, which compiles one file at a time; define the variable in"
                    + " this source");
        }
        fileScopeDeclarators(sp, first, sp.constant ? Syntax.Storage.CONSTANT : Syntax.Storage.DEVICE, true,
                globalVariables);
    }

    /**
     * The declarators of one file-scope declaration, from {@code first} to the ';', each with its initializer
     * ({@code = expr}, {@code = {…}}, or with {@code braceInit} also {@code {…}} alone), into {@code into}.
     */
    private void fileScopeDeclarators(DeclSpec sp, Decl first, Syntax.Storage storage, boolean braceInit,
            List<Syntax.Declarator> into) {
        Decl d = first;
        while (true) {
            Expr init = null;
            Syntax.InitList list = null;
            if (accept("=")) {
                if (at("{")) {
                    list = initList();
                } else {
                    init = assign();
                }
            } else if (braceInit && at("{")) {
                list = initList();
            }
            into.add(new Syntax.Declarator(d.pos, d.name, d.type, d.dims, storage, d.isConst, sp.isVolatile, init,
                    list));
            if (!accept(",")) {
                break;
            }
            d = declarator(sp.type, sp.isConst, true);
        }
        expect(";", "expected ';' after top level declarator");
    }

    private Syntax.FuncDecl functionRest(DeclSpec sp, Decl d) {
        if (!d.dims.isEmpty()) {
            throw diags.fail(d.pos, "function cannot return an array");
        }
        if (sp.type == null) {
            throw diags.fail(sp.pos, "'auto' return types are not supported");
        }
        expect("(", "expected '('");
        openScope();
        try {
            return functionRest(sp, d, params());
        } finally {
            closeScope();
        }
    }

    /** The parameters up to the ')', each declared in the function's scope, which the caller has opened. */
    private List<Syntax.Param> params() {
        List<Syntax.Param> params = new ArrayList<>();
        if (at("void") && peek(1).is(")")) {
            k++;
        }
        while (!at(")")) {
            if (at("...")) {
                throw diags.fail(tok().pos(), "variadic functions are not supported by the CPU device's kernel engine");
            }
            DeclSpec ps = declSpec(true);
            if (ps.type == null) {
                throw diags.fail(ps.pos, "'auto' parameters are not supported");
            }
            Decl pd = declarator(ps.type, ps.isConst, false);
            CType t = pd.type;
            if (!pd.dims.isEmpty()) {
                // An array parameter is a pointer to the element type (inner dimensions are not supported).
                if (pd.dims.size() > 1) {
                    throw diags.fail(pd.pos, "multi-dimensional array parameters are not supported");
                }
                t = new CType.Pointer(t);
            }
            if (t == Prim.VOID) {
                throw diags.fail(pd.pos, "parameter cannot have type 'void'");
            }
            if (at("=")) {
                throw diags.fail(tok().pos(), "default arguments are not supported");
            }
            params.add(new Syntax.Param(pd.pos, pd.name, t, pd.isConst, ps.isVolatile));
            declareName(pd.name);
            if (!accept(",")) {
                break;
            }
        }
        expect(")", "expected ')' after parameter list");
        return params;
    }

    private Syntax.FuncDecl functionRest(DeclSpec sp, Decl d, List<Syntax.Param> params) {
        while (at("const") || at("__launch_bounds__")) {
            skipSpecifier();
        }
        boolean kernel = sp.global;
        if (kernel && sp.type != Prim.VOID) {
            diags.error(d.pos, "__global__ function '" + d.name + "' must have a void return type");
        }
        if (accept(";")) {
            return new Syntax.FuncDecl(d.pos, d.name, sp.type, params, kernel, null);
        }
        if (!at("{")) {
            throw diags.fail(tok().pos(), "expected function body after function declarator");
        }
        PStmt.Block body = block();
        return new Syntax.FuncDecl(d.pos, d.name, sp.type, params, kernel, body);
    }

    private void typedefDecl() {
        Token td = ts.get(k++);
        DeclSpec sp;
        if (startsStructDefinition()) {
            // typedef struct [Tag] { … } Name;
            sp = new DeclSpec();
            sp.pos = tok().pos();
            sp.type = structDefinition();
        } else {
            sp = declSpec(true);
        }
        if (sp.type == null) {
            throw diags.fail(td.pos(), "typedef requires a type");
        }
        do {
            if (sp.type instanceof CType.Struct st && at(st.name()) && typedefs.get(st.name()) == st
                    && (peek(1).is(";") || peek(1).is(","))) {
                k++; // typedef struct Node { … } Node;  the name already stands for the struct
                continue;
            }
            Decl d = declarator(sp.type, sp.isConst, true);
            if (!d.dims.isEmpty()) {
                throw diags.fail(d.pos, "array typedefs are not supported");
            }
            typedefs.put(d.name, d.type);
        } while (accept(","));
        expect(";", "expected ';' after typedef");
    }

    /**
     * {@code enum [Name] { A, B = 4, C };}: each enumerator becomes a file-scope {@code int} constant (one
     * without a value is the previous one plus 1), and {@code Name} a name for {@code int}.
     */
    private void enumDecl() {
        Token e = ts.get(k++);
        if (at("class") || at("struct")) {
            throw diags.fail(tok().pos(), "scoped enums ('enum " + tok().text + "') are not supported by the CPU "
                    + "device's kernel engine; use a plain 'enum' or constants such as 'const int A = 0;'");
        }
        if (tok().kind == Token.Kind.IDENT && !at("{")) {
            typedefs.put(tok().text, Prim.INT);
            k++;
        }
        expect("{", "expected '{' after 'enum'");
        Expr previous = null;
        while (!at("}")) {
            Token name = tok();
            if (name.kind != Token.Kind.IDENT) {
                throw diags.fail(name.pos(), "expected an enumerator name");
            }
            k++;
            Expr value;
            if (accept("=")) {
                value = assign();
            } else if (previous == null) {
                value = new Expr.IntConst(name.pos(), Prim.INT, 0);
            } else {
                value = new Expr.Binary(name.pos(), null, BinaryOp.ADD, null, previous,
                        new Expr.IntConst(name.pos(), Prim.INT, 1));
            }
            consts.add(new Syntax.ConstDecl(name.pos(), name.text, Prim.INT, value));
            previous = new Expr.Name(name.pos(), null, name.text);
            if (!accept(",")) {
                break;
            }
        }
        expect("}", "expected '}' at end of enum " + e.text);
        expect(";", "expected ';' after enum (variables declared with an enum definition are not supported)");
    }

    private static final String ENGINE = " by the CPU device's kernel engine";

    /** At the start of a definition: {@code struct [Name] {…}} (also {@code union} and {@code class}). */
    private boolean startsStructDefinition() {
        if (!AGGREGATE_WORDS.contains(tok().text) || tok().kind != Token.Kind.IDENT) {
            return false;
        }
        return peek(1).is("{") || peek(1).kind == Token.Kind.IDENT && (peek(2).is("{") || peek(2).is(":"));
    }

    private Diagnostics.Abort unionRefused(Pos pos) {
        return diags.fail(pos, "unions are not supported" + ENGINE + " (their members share memory); use a struct, "
                + "or reinterpret values with __float_as_int/__int_as_float or a pointer cast");
    }

    /**
     * {@code struct [Name] { members };} at file scope (or after {@code typedef}): a plain C struct of data members
     * of arithmetic, vector, fixed-size array and struct types. Its name is a type name from here on, as in C++.
     * Everything that makes it more than plain data is refused here, where it is written.
     */
    private CType.Struct structDefinition() {
        Token kw = ts.get(k++);
        if (kw.is("union")) {
            throw unionRefused(kw.pos());
        }
        String name = null;
        Pos pos = kw.pos();
        if (tok().kind == Token.Kind.IDENT && !at("{")) {
            name = tok().text;
            pos = tok().pos();
            k++;
        }
        String what = kw.text + (name == null ? "" : " '" + name + "'");
        if (at(":")) {
            throw diags.fail(tok().pos(), "inheritance (" + what + " : …) is not supported" + ENGINE
                    + "; put the base's members into the struct");
        }
        if (kw.is("class")) {
            throw diags.fail(kw.pos(), "classes (" + what + ") are not supported" + ENGINE + "; define plain data"
                    + " as 'struct " + (name == null ? "Name" : name) + " { float x; … };' (member functions, "
                    + "constructors, access specifiers and inheritance are not supported)");
        }
        if (name != null && structTags.containsKey(name)) {
            throw diags.fail(pos, "redefinition of 'struct " + name + "'");
        }
        boolean anonymous = name == null;
        if (anonymous && !ts.get(k - 2).is("typedef")) {
            throw diags.fail(pos, "an anonymous struct must be named by a typedef ('typedef struct { … } Name;')");
        }
        if (anonymous) {
            // typedef struct { … } cplx;  the struct is called by the typedef's first name
            Token after = ts.get(skipBraces(k));
            name = after.kind == Token.Kind.IDENT ? after.text : "(anonymous struct)";
        }
        CType.Struct st = new CType.Struct(name);
        if (!anonymous) {
            structTags.put(name, st);
            typedefs.put(name, st);
        }
        expect("{", "expected '{' after " + what);
        List<Syntax.Declarator> members = new ArrayList<>();
        while (!at("}") && !atEof()) {
            memberDeclaration(st, members);
        }
        expect("}", "expected '}' at end of " + what);
        if (members.isEmpty()) {
            throw diags.fail(pos, what + " has no data members; empty structs are not supported" + ENGINE);
        }
        structs.add(new Syntax.StructDecl(pos, st, members, consts.size()));
        return st;
    }

    /** Index of the token after the balanced braces that start at {@code from}. */
    private int skipBraces(int from) {
        int depth = 0;
        int i = from;
        while (i < ts.size()) {
            Token t = ts.get(i++);
            if (t.is("{")) {
                depth++;
            } else if (t.is("}") && --depth == 0) {
                break;
            }
        }
        return Math.min(i, ts.size() - 1);
    }

    /** One member declaration ({@code float re, im;}) of {@code st}, or the error for what is not a data member. */
    private void memberDeclaration(CType.Struct st, List<Syntax.Declarator> members) {
        Token t = tok();
        String in = " in struct '" + st.name() + "'";
        switch (t.text) {
            case "public", "private", "protected" -> throw diags.fail(t.pos(), "access specifiers ('" + t.text
                    + ":')" + in + " are not supported" + ENGINE + "; all members of a struct are public");
            case "static", "virtual", "friend", "template", "typedef", "using", "operator", "explicit", "inline",
                    "__device__", "__host__", "__forceinline__" -> throw diags.fail(t.pos(), "'" + t.text + "'"
                    + in + ": member functions, static members and other C++ class features are not supported"
                    + ENGINE + "; a struct may hold data members only (write functions that take the struct)");
            case "~" -> throw diags.fail(t.pos(), "destructors" + in + " are not supported" + ENGINE
                    + "; a struct may hold data members only");
            default -> { }
        }
        if (t.is(st.name()) && peek(1).is("(")) {
            throw diags.fail(t.pos(), "constructors" + in + " are not supported" + ENGINE + "; initialize it with"
                    + " an aggregate initializer ('" + st.name() + " s = {…};') or member by member");
        }
        if (t.is("union")) {
            throw unionRefused(t.pos());
        }
        if (startsStructDefinition()) {
            throw diags.fail(t.pos(), "nested struct definitions" + in + " are not supported" + ENGINE
                    + "; define the inner struct at file scope before '" + st.name() + "'");
        }
        DeclSpec ms = declSpec(false);
        if (ms.type == null) {
            throw diags.fail(ms.pos, "a member" + in + " needs a type");
        }
        while (true) {
            Decl d = declarator(ms.type, ms.isConst, true);
            String m = "member '" + d.name + "'" + in;
            if (at("(")) {
                throw diags.fail(d.pos, "member functions (" + d.name + ")" + in + " are not supported" + ENGINE
                        + "; a struct may hold data members only (write a __device__ function that takes the struct)");
            }
            if (at(":")) {
                throw diags.fail(tok().pos(), "bit-field " + m + " is not supported" + ENGINE
                        + "; use a whole integer member and shifts and masks");
            }
            if (d.type instanceof CType.Pointer) {
                throw diags.fail(d.pos, "pointer " + m + " is not supported" + ENGINE + " (pointers stored in "
                        + "memory are not supported); pass each array as its own kernel argument, and keep "
                        + "indices in the struct");
            }
            if (d.dims.contains(null)) {
                throw diags.fail(d.pos, "flexible array " + m + " is not supported" + ENGINE
                        + "; give the array a constant size");
            }
            if (at("=") || at("{")) {
                throw diags.fail(tok().pos(), "default member initializers (" + m + ") are not supported" + ENGINE
                        + "; initialize the struct with an aggregate initializer ('" + st.name() + " s = {…};')");
            }
            if (ms.type == Prim.VOID) {
                throw diags.fail(d.pos, m + " has incomplete type 'void'");
            }
            members.add(new Syntax.Declarator(d.pos, d.name, d.type, d.dims, Syntax.Storage.LOCAL, d.isConst,
                    ms.isVolatile, null, null));
            if (!accept(",")) {
                break;
            }
        }
        expect(";", "expected ';' after member declaration in struct '" + st.name() + "'");
    }

    /**
     * {@code struct Name} (also {@code class Name}) naming a struct defined before; refuses unions, struct
     * definitions where only file-scope ones are supported, and forward declarations.
     */
    private CType structReference(DeclSpec sp, CType named) {
        Token kw = tok();
        if (kw.is("union")) {
            throw unionRefused(kw.pos());
        }
        Token n = peek(1);
        if (n.is("{") || n.kind == Token.Kind.IDENT && peek(2).is("{")) {
            throw diags.fail(kw.pos(), "struct definitions are supported only at file scope" + ENGINE
                    + "; define the struct before the functions that use it");
        }
        if (n.kind != Token.Kind.IDENT) {
            throw diags.fail(n.pos(), "expected a struct name after '" + kw.text + "'");
        }
        CType.Struct st = structTags.get(n.text);
        if (st == null) {
            throw diags.fail(n.pos(), "unknown struct '" + n.text + "'" + (peek(2).is(";")
                    ? ": forward declarations of structs are not supported" + ENGINE + "; define the struct (with "
                    + "its members) before it is used" : "; define it at file scope before it is used"));
        }
        if (named != null || sp.any) {
            throw diags.fail(kw.pos(), "cannot combine '" + kw.text + " " + n.text + "' with another type");
        }
        sp.any = true;
        k += 2;
        return st;
    }

    private void templateDecl() {
        Pos pos = ts.get(k++).pos();
        if (!at("<")) {
            // Explicit instantiation ("template __global__ void k<float>(float*);"): kernels are instantiated
            // on demand, so nothing to do.
            while (!atEof() && !accept(";")) {
                k++;
            }
            return;
        }
        k++;
        List<Syntax.TParam> params = new ArrayList<>();
        while (!at(">")) {
            if (accept("typename") || accept("class")) {
                params.add(new Syntax.TParam(ident("template parameter name"), true, null));
            } else {
                DeclSpec ps = declSpec(true);
                if (ps.type == null || !ps.type.isInteger()) {
                    throw diags.fail(ps.pos, "template value parameters must have an integer type");
                }
                params.add(new Syntax.TParam(ident("template parameter name"), false, ps.type));
            }
            if (at("=")) {
                throw diags.fail(tok().pos(), "default template arguments are not supported");
            }
            if (!accept(",")) {
                break;
            }
        }
        expectCloseAngle();
        int start = k;
        // Find the name: the identifier before the first '(' at nesting depth 0.
        int j = start;
        while (!ts.get(j).is("(") && !ts.get(j).is(";") && !ts.get(j).is("{")
                && ts.get(j).kind != Token.Kind.EOF) {
            if (ts.get(j).is("__launch_bounds__") || ts.get(j).is("__align__")) {
                j = skipParens(j + 1);
                continue;
            }
            j++;
        }
        if (!ts.get(j).is("(") || j == start || ts.get(j - 1).kind != Token.Kind.IDENT) {
            throw diags.fail(pos, "only function templates are supported");
        }
        String name = ts.get(j - 1).text;
        boolean kernel = false;
        for (int q = start; q < j; q++) {
            kernel |= ts.get(q).is("__global__");
        }
        int close = skipParens(j) - 1;
        List<List<Token>> paramDecls = new ArrayList<>();
        List<Token> cur = new ArrayList<>();
        int depth = 0;
        for (int q = j + 1; q < close; q++) {
            Token t = ts.get(q);
            if (t.is(",") && depth == 0) {
                paramDecls.add(cur);
                cur = new ArrayList<>();
                continue;
            }
            depth += t.is("(") || t.is("[") ? 1 : t.is(")") || t.is("]") ? -1 : 0;
            cur.add(t);
        }
        if (!cur.isEmpty()) {
            paramDecls.add(cur);
        }
        k = close + 1;
        while (!at("{") && !at(";") && !atEof()) {
            k++;
        }
        templateNames.add(name);
        if (accept(";")) {
            return; // a template prototype: the definition follows
        }
        int open = k;
        int d = 0;
        do {
            Token t = ts.get(k++);
            d += t.is("{") ? 1 : t.is("}") ? -1 : 0;
        } while (d > 0 && !atEof());
        if (d > 0) {
            throw diags.fail(ts.get(open).pos(), "expected '}' at end of function body");
        }
        List<Token> tokens = new ArrayList<>(ts.subList(start, k));
        Token eof = ts.getLast();
        tokens.add(eof);
        templates.add(new Syntax.TemplateDecl(ts.get(j - 1).pos(), name, kernel, params, tokens, paramDecls));
    }

    /** Index after the parenthesized group starting at {@code open} (which must be '('), or open if none. */
    private int skipParens(int open) {
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

    boolean startsType() {
        Token t = tok();
        if (t.kind != Token.Kind.IDENT) {
            return false;
        }
        return TYPE_KEYWORDS.contains(t.text) || typedefs.containsKey(t.text) || QUALIFIERS.contains(t.text)
                || AGGREGATE_WORDS.contains(t.text) || t.text.equals("enum")
                || Unsupported.isVectorType(t.text) || Unsupported.isTextureType(t.text);
    }

    /**
     * A typedef name that is not also a keyword, so that after a complete type it can only be the name being
     * declared ({@code float half}, {@code int uint}).
     */
    private boolean isPlainTypedefName(String w) {
        return typedefs.containsKey(w) && !TYPE_KEYWORDS.contains(w) && !QUALIFIERS.contains(w)
                && !AGGREGATE_WORDS.contains(w);
    }

    private void openScope() {
        hiddenTypedefs.push(new HashMap<>());
    }

    private void closeScope() {
        typedefs.putAll(hiddenTypedefs.pop());
    }

    /** Declares {@code name} in the innermost open scope: a typedef of that name is hidden until it closes. */
    private void declareName(String name) {
        if (name != null && !hiddenTypedefs.isEmpty() && typedefs.containsKey(name)) {
            hiddenTypedefs.peek().putIfAbsent(name, typedefs.remove(name));
        }
    }

    private boolean startsDecl() {
        Token t = tok();
        return startsType() || (t.kind == Token.Kind.IDENT && FUNC_SPECIFIERS.contains(t.text)
                && !(t.is("auto") && peek(1).is("(")));
    }

    private void skipSpecifier() {
        k++;
        if (at("(")) {
            k = skipParens(k);
        }
    }

    DeclSpec declSpec(boolean allowStorage) {
        DeclSpec sp = new DeclSpec();
        sp.pos = tok().pos();
        int longs = 0;
        int shorts = 0;
        boolean signed = false;
        boolean unsigned = false;
        String base = null;
        CType named = null;
        while (true) {
            Token t = tok();
            if (t.kind != Token.Kind.IDENT) {
                break;
            }
            String w = t.text;
            if (w.equals("enum") && named == null && !sp.any && typedefs.get(peek(1).text) == Prim.INT) {
                // 'enum Mode m': the enum's name stands for int.
                named = Prim.INT;
                sp.any = true;
                k += 2;
                continue;
            }
            if (w.equals("enum")) {
                throw diags.fail(t.pos(), "enum definitions are supported only at file scope, as "
                        + "'enum Name { A, B };' (the CPU device's kernel engine)");
            }
            if (AGGREGATE_WORDS.contains(w)) {
                named = structReference(sp, named);
                continue;
            }
            if (Unsupported.isVectorType(w)) {
                throw diags.fail(t.pos(), Unsupported.vectorTypeMessage(w));
            }
            if (Unsupported.isTextureType(w)) {
                throw diags.fail(t.pos(), "texture and surface types are not supported by the CPU device's kernel engine");
            }
            if (QUALIFIERS.contains(w)) {
                sp.isConst |= w.equals("const") || w.equals("constexpr");
                sp.isVolatile |= w.equals("volatile") || w.equals("__volatile__");
                k++;
            } else if (allowStorage && FUNC_SPECIFIERS.contains(w)) {
                switch (w) {
                    case "__global__" -> sp.global = true;
                    case "__device__" -> sp.device = true;
                    case "__shared__" -> sp.shared = true;
                    case "__constant__" -> sp.constant = true;
                    case "__managed__" -> sp.managed = true;
                    case "extern" -> sp.extern = true;
                    case "static" -> sp.isStatic = true;
                    case "auto" -> sp.isAuto = true;
                    default -> { }
                }
                skipSpecifier();
                continue;
            } else if (TYPE_KEYWORDS.contains(w) && named == null) {
                switch (w) {
                    case "long" -> longs++;
                    case "short" -> shorts++;
                    case "signed", "__signed__" -> signed = true;
                    case "unsigned" -> unsigned = true;
                    default -> {
                        if (base != null && !(base.equals("int") || w.equals("int"))) {
                            throw diags.fail(t.pos(), "cannot combine '" + base + "' with '" + w + "'");
                        }
                        if (base == null || base.equals("int")) {
                            base = w;
                        }
                    }
                }
                sp.any = true;
                k++;
            } else if (typedefs.containsKey(w) && !sp.any && named == null) {
                named = typedefs.get(w);
                sp.any = true;
                k++;
            } else {
                break;
            }
        }
        if (named != null) {
            sp.type = named;
        } else if (sp.any) {
            sp.type = baseType(base, longs, shorts, signed, unsigned, sp.pos);
        } else if (sp.isAuto) {
            sp.type = null;
        } else {
            Token t = tok();
            if (t.kind == Token.Kind.IDENT) {
                throw diags.fail(t.pos(), "unknown type name '" + t.text + "'");
            }
            throw diags.fail(t.pos(), "expected a type");
        }
        return sp;
    }

    private CType baseType(String base, int longs, int shorts, boolean signed, boolean unsigned, Pos pos) {
        if (signed && unsigned) {
            throw diags.fail(pos, "cannot combine 'signed' with 'unsigned'");
        }
        String b = base == null ? "int" : base;
        boolean modified = longs > 0 || shorts > 0 || signed || unsigned;
        switch (b) {
            case "void", "bool", "_Bool", "float" -> {
                if (modified) {
                    throw diags.fail(pos, "invalid type modifiers on '" + b + "'");
                }
                return b.equals("void") ? Prim.VOID : b.equals("float") ? Prim.FLOAT : Prim.BOOL;
            }
            case "double" -> {
                if (longs > 0) {
                    throw diags.fail(pos, "long double is not supported by the CPU device's kernel engine");
                }
                if (modified) {
                    throw diags.fail(pos, "invalid type modifiers on 'double'");
                }
                return Prim.DOUBLE;
            }
            case "char" -> {
                if (longs > 0 || shorts > 0) {
                    throw diags.fail(pos, "invalid type modifiers on 'char'");
                }
                return unsigned ? Prim.UCHAR : Prim.CHAR;
            }
            default -> {
                if (shorts > 1 || longs > 2 || (shorts > 0 && longs > 0)) {
                    throw diags.fail(pos, "invalid combination of type specifiers");
                }
                if (shorts == 1) {
                    return unsigned ? Prim.USHORT : Prim.SHORT;
                }
                if (longs == 1) {
                    return unsigned ? Prim.ULONG : Prim.LONG;
                }
                if (longs == 2) {
                    return unsigned ? Prim.ULONGLONG : Prim.LONGLONG;
                }
                return unsigned ? Prim.UINT : Prim.INT;
            }
        }
    }

    /** A declarator's pieces: name (null if abstract), type with pointers, array dimensions, constness. */
    record Decl(Pos pos, String name, CType type, List<Expr> dims, boolean isConst) {}

    Decl declarator(CType base, boolean baseConst, boolean nameRequired) {
        CType t = base;
        boolean isConst = baseConst;
        Pos pos = tok().pos();
        while (at("*")) {
            k++;
            t = new CType.Pointer(t);
            isConst = false;
            while (QUALIFIERS.contains(tok().text) && tok().kind == Token.Kind.IDENT) {
                isConst |= at("const");
                k++;
            }
        }
        if (at("&") || at("&&")) {
            throw diags.fail(tok().pos(), "reference types are not supported by the CPU device's kernel engine");
        }
        if (at("(") && (peek(1).is("*") || peek(1).is("^"))) {
            throw diags.fail(tok().pos(), "function pointers are not supported by the CPU device's kernel engine");
        }
        String name = null;
        if (tok().kind == Token.Kind.IDENT && (!startsType() || isPlainTypedefName(tok().text))) {
            pos = tok().pos();
            name = tok().text;
            k++;
        } else if (nameRequired) {
            throw diags.fail(tok().pos(), "expected identifier");
        }
        List<Expr> dims = new ArrayList<>();
        while (accept("[")) {
            dims.add(at("]") ? null : assign());
            expect("]", "expected ']'");
        }
        while (at("__attribute__") || at("__align__")) {
            skipSpecifier();
        }
        return new Decl(pos, name, t, dims, isConst);
    }

    /** A type name as in a cast or {@code sizeof(T)}: specifiers and pointers. */
    CType typeName() {
        DeclSpec sp = declSpec(false);
        if (sp.type == null) {
            throw diags.fail(sp.pos, "expected a type");
        }
        Decl d = declarator(sp.type, false, false);
        if (d.name != null) {
            throw diags.fail(d.pos, "unexpected identifier '" + d.name + "' in type name");
        }
        if (!d.dims.isEmpty()) {
            throw diags.fail(d.pos, "array type names are not supported");
        }
        return d.type;
    }

    // ---------------------------------------------------------------- statements

    PStmt.Block block() {
        Pos pos = expect("{", "expected '{'").pos();
        List<PStmt> items = new ArrayList<>();
        openScope();
        while (!at("}")) {
            if (atEof()) {
                throw diags.fail(tok().pos(), "expected '}'");
            }
            items.add(statement());
        }
        closeScope();
        k++;
        return new PStmt.Block(pos, items);
    }

    PStmt statement() {
        Token t = tok();
        Pos pos = t.pos();
        if (t.kind == Token.Kind.IDENT) {
            switch (t.text) {
                case "if" -> {
                    k++;
                    expect("(", "expected '(' after 'if'");
                    Expr c = expr();
                    expect(")", "expected ')'");
                    PStmt then = statement();
                    PStmt otherwise = accept("else") ? statement() : null;
                    return new PStmt.If(pos, c, then, otherwise);
                }
                case "while" -> {
                    k++;
                    expect("(", "expected '(' after 'while'");
                    Expr c = expr();
                    expect(")", "expected ')'");
                    return new PStmt.While(pos, c, statement());
                }
                case "do" -> {
                    k++;
                    PStmt body = statement();
                    expect("while", "expected 'while' in do/while loop");
                    expect("(", "expected '(' after 'while'");
                    Expr c = expr();
                    expect(")", "expected ')'");
                    expect(";", "expected ';' after do/while statement");
                    return new PStmt.DoWhile(pos, body, c);
                }
                case "for" -> {
                    k++;
                    expect("(", "expected '(' after 'for'");
                    // The init's declarations are in scope in the condition, the step and the body only.
                    openScope();
                    PStmt init = null;
                    if (!accept(";")) {
                        if (startsDecl()) {
                            init = declaration();
                        } else {
                            Pos ep = tok().pos();
                            init = new PStmt.ExprStmt(ep, expr());
                            expect(";", "expected ';' in 'for' statement specifier");
                        }
                    }
                    Expr c = at(";") ? null : expr();
                    expect(";", "expected ';' in 'for' statement specifier");
                    Expr u = at(")") ? null : expr();
                    expect(")", "expected ')'");
                    PStmt body = statement();
                    closeScope();
                    return new PStmt.For(pos, init, c, u, body);
                }
                case "switch" -> {
                    k++;
                    expect("(", "expected '(' after 'switch'");
                    Expr c = expr();
                    expect(")", "expected ')'");
                    return new PStmt.Switch(pos, c, statement());
                }
                case "case" -> {
                    k++;
                    Expr v = conditional();
                    expect(":", "expected ':' after 'case'");
                    return new PStmt.Case(pos, v, at("}") ? new PStmt.Empty(tok().pos()) : statement());
                }
                case "default" -> {
                    k++;
                    expect(":", "expected ':' after 'default'");
                    return new PStmt.Case(pos, null, at("}") ? new PStmt.Empty(tok().pos()) : statement());
                }
                case "break" -> {
                    k++;
                    expect(";", "expected ';' after break statement");
                    return new PStmt.Break(pos);
                }
                case "continue" -> {
                    k++;
                    expect(";", "expected ';' after continue statement");
                    return new PStmt.Continue(pos);
                }
                case "return" -> {
                    k++;
                    Expr v = at(";") ? null : expr();
                    expect(";", "expected ';' after return statement");
                    return new PStmt.Return(pos, v);
                }
                case "goto" -> throw diags.fail(pos, "goto is not supported by the CPU device's kernel engine");
                case "asm", "__asm__", "__asm" ->
                        throw diags.fail(pos, "inline assembly is not supported by the CPU device's kernel engine");
                case "try", "throw", "catch" ->
                        throw diags.fail(pos, "exceptions are not supported by the CPU device's kernel engine");
                case "typedef" -> {
                    typedefDecl();
                    return new PStmt.Empty(pos);
                }
                default -> {
                    if (peek(1).is(":")) {
                        throw diags.fail(pos, "labels are not supported by the CPU device's kernel engine");
                    }
                    boolean functionalCast = (TYPE_KEYWORDS.contains(t.text) || typedefs.containsKey(t.text))
                            && peek(1).is("(") && !peek(2).is("*");
                    if (startsDecl() && !functionalCast) {
                        return declaration();
                    }
                }
            }
        }
        if (t.is("{")) {
            return block();
        }
        if (accept(";")) {
            return new PStmt.Empty(pos);
        }
        Expr e = expr();
        expect(";", "expected ';' after expression");
        return new PStmt.ExprStmt(pos, e);
    }

    private PStmt.Decl declaration() {
        Pos pos = tok().pos();
        DeclSpec sp = declSpec(true);
        if (sp.isStatic) {
            throw diags.fail(sp.pos, "static local variables are not supported by the CPU device's kernel engine");
        }
        if (sp.constant) {
            throw diags.fail(sp.pos, "__constant__ variables must be declared at file scope, outside functions");
        }
        if (sp.extern && !sp.shared) {
            throw diags.fail(sp.pos, "extern local variables are not supported (only 'extern __shared__' arrays)");
        }
        Syntax.Storage storage = sp.shared ? (sp.extern ? Syntax.Storage.EXTERN_SHARED : Syntax.Storage.SHARED)
                : Syntax.Storage.LOCAL;
        List<Syntax.Declarator> ds = new ArrayList<>();
        do {
            Decl d = declarator(sp.type, sp.isConst, true);
            if (at("(")) {
                throw diags.fail(tok().pos(), "local function declarations are not supported");
            }
            declareName(d.name);
            Expr init = null;
            Syntax.InitList list = null;
            if (accept("=")) {
                if (at("{")) {
                    list = initList();
                } else {
                    init = assign();
                }
            } else if (at("{")) {
                list = initList();
            }
            ds.add(new Syntax.Declarator(d.pos, d.name, d.type, d.dims, storage, d.isConst, sp.isVolatile, init,
                    list));
        } while (accept(","));
        expect(";", "expected ';' at end of declaration");
        return new PStmt.Decl(pos, ds);
    }

    private Syntax.InitList initList() {
        Pos pos = expect("{", "expected '{'").pos();
        List<Object> items = new ArrayList<>();
        while (!at("}")) {
            items.add(at("{") ? initList() : assign());
            if (!accept(",")) {
                break;
            }
        }
        expect("}", "expected '}' at end of initializer list");
        return new Syntax.InitList(pos, items);
    }

    // ---------------------------------------------------------------- expressions

    Expr expr() {
        Expr e = assign();
        while (at(",")) {
            Pos p = ts.get(k++).pos();
            e = new Expr.Comma(p, null, e, assign());
        }
        return e;
    }

    private static final Map<String, BinaryOp> COMPOUND = Map.of("+=", BinaryOp.ADD, "-=", BinaryOp.SUB,
            "*=", BinaryOp.MUL, "/=", BinaryOp.DIV, "%=", BinaryOp.MOD, "<<=", BinaryOp.SHL, ">>=", BinaryOp.SHR,
            "&=", BinaryOp.BIT_AND, "|=", BinaryOp.BIT_OR, "^=", BinaryOp.BIT_XOR);

    Expr assign() {
        Expr lhs = conditional();
        Token t = tok();
        if (t.kind == Token.Kind.PUNCT) {
            if (t.text.equals("=")) {
                k++;
                return new Expr.Assign(t.pos(), null, lhs, assign());
            }
            BinaryOp op = COMPOUND.get(t.text);
            if (op != null) {
                k++;
                return new Expr.CompoundAssign(t.pos(), null, op, null, lhs, assign());
            }
        }
        return lhs;
    }

    Expr conditional() {
        Expr c = binary(0);
        if (at("?")) {
            Pos p = ts.get(k++).pos();
            Expr a = expr();
            expect(":", "expected ':'");
            Expr b = assign();
            return new Expr.Conditional(p, null, c, a, b);
        }
        return c;
    }

    private static final String[][] LEVELS = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"},
        {"*", "/", "%"},
    };
    private static final Map<String, BinaryOp> BINOPS = new HashMap<>();

    static {
        for (BinaryOp op : BinaryOp.values()) {
            BINOPS.put(op.symbol, op);
        }
    }

    /** Binary operators from precedence level {@code level} up (0 = {@code ||}). */
    Expr binary(int level) {
        if (level == LEVELS.length) {
            return unary();
        }
        Expr e = binary(level + 1);
        outer:
        while (true) {
            for (String op : LEVELS[level]) {
                if (at(op) && tok().kind == Token.Kind.PUNCT) {
                    Pos p = ts.get(k++).pos();
                    e = new Expr.Binary(p, null, BINOPS.get(op), null, e, binary(level + 1));
                    continue outer;
                }
            }
            return e;
        }
    }

    private Expr unary() {
        Token t = tok();
        Pos p = t.pos();
        if (t.kind == Token.Kind.PUNCT) {
            switch (t.text) {
                case "(" -> {
                    Token n = peek(1);
                    int save = k;
                    k++;
                    if (startsType() && !(typedefs.containsKey(n.text) && peek(1).is("("))) {
                        CType type = typeName();
                        expect(")", "expected ')'");
                        if (at("{")) {
                            throw diags.fail(tok().pos(), "compound literals are not supported");
                        }
                        return new Expr.Cast(p, type, unary());
                    }
                    k = save;
                    return postfix(primary());
                }
                case "-", "+", "!", "~" -> {
                    k++;
                    Expr.UnaryOp op = switch (t.text) {
                        case "-" -> Expr.UnaryOp.NEG;
                        case "+" -> Expr.UnaryOp.PLUS;
                        case "!" -> Expr.UnaryOp.NOT;
                        default -> Expr.UnaryOp.BIT_NOT;
                    };
                    return new Expr.Unary(p, null, op, unary());
                }
                case "*" -> {
                    k++;
                    return new Expr.Deref(p, null, unary());
                }
                case "&" -> {
                    k++;
                    return new Expr.AddrOf(p, null, unary());
                }
                case "++", "--" -> {
                    k++;
                    return new Expr.IncDec(p, null, unary(), true, t.text.equals("++"));
                }
                default -> { }
            }
        } else if (t.is("sizeof")) {
            k++;
            if (at("(")) {
                int save = k;
                k++;
                if (startsType()) {
                    CType type = typeName();
                    expect(")", "expected ')'");
                    return new Expr.SizeOf(p, null, type, null);
                }
                k = save;
            }
            return new Expr.SizeOf(p, null, null, unary());
        } else if (t.is("new") || t.is("delete")) {
            throw diags.fail(p, "'" + t.text + "' is not supported by the CPU device's kernel engine");
        }
        return postfix(primary());
    }

    private Expr postfix(Expr e) {
        while (true) {
            Token t = tok();
            Pos p = t.pos();
            if (accept("[")) {
                Expr i = expr();
                expect("]", "expected ']'");
                e = new Expr.Index(p, null, e, i);
            } else if (at("(")) {
                if (!(e instanceof Expr.Name n) || n.name().startsWith("\"")) {
                    throw diags.fail(p, "called object is not a function");
                }
                e = new Expr.CallByName(e.pos(), null, n.name(), null, args());
            } else if (accept(".")) {
                e = new Expr.Member(p, null, e, ident("member name after '.'"));
            } else if (accept("->")) {
                // p->x is (*p).x; semantic analysis accepts it on pointers to vector types
                e = new Expr.Member(p, null, new Expr.Deref(p, null, e), ident("member name after '->'"));
            } else if (at("++") || at("--")) {
                k++;
                e = new Expr.IncDec(p, null, e, false, t.text.equals("++"));
            } else {
                return e;
            }
        }
    }

    private List<Expr> args() {
        expect("(", "expected '('");
        List<Expr> args = new ArrayList<>();
        if (!at(")")) {
            do {
                args.add(assign());
            } while (accept(","));
        }
        expect(")", "expected ')'");
        return args;
    }

    /** Template arguments after the {@code <} has been seen: types or constant expressions. */
    List<Expr.TemplateArg> templateArgs() {
        expect("<", "expected '<'");
        List<Expr.TemplateArg> targs = new ArrayList<>();
        if (!at(">")) {
            do {
                if (startsType()) {
                    targs.add(new Expr.TemplateArg(typeName(), null));
                } else {
                    targs.add(new Expr.TemplateArg(null, binary(7))); // above relational: '>' ends the list
                }
            } while (accept(","));
        }
        expectCloseAngle();
        return targs;
    }

    private Expr primary() {
        Token t = tok();
        Pos p = t.pos();
        switch (t.kind) {
            case NUMBER -> {
                k++;
                try {
                    if (Literals.isFloating(t.text)) {
                        Literals.FloatLit f = Literals.parseFloat(t.text);
                        return new Expr.FloatConst(p, f.type(), f.value());
                    }
                    Literals.IntLit i = Literals.parseInt(t.text);
                    return new Expr.IntConst(p, i.type(), i.value());
                } catch (IllegalArgumentException e) {
                    throw diags.fail(p, e.getMessage());
                }
            }
            case CHAR -> {
                k++;
                try {
                    return new Expr.IntConst(p, Prim.INT, Literals.parseChar(t.text));
                } catch (IllegalArgumentException e) {
                    throw diags.fail(p, e.getMessage());
                }
            }
            case STRING -> {
                StringBuilder sb = new StringBuilder();
                while (tok().kind == Token.Kind.STRING) {
                    sb.append(ts.get(k++).text);
                }
                return new Expr.Name(p, null, sb.toString());
            }
            case IDENT -> {
                switch (t.text) {
                    case "true", "false" -> {
                        k++;
                        return new Expr.IntConst(p, Prim.BOOL, t.text.equals("true") ? 1 : 0);
                    }
                    case "__builtin_inff", "__builtin_nanf", "__builtin_inf", "__builtin_nan" -> {
                        k++;
                        Prim type = t.text.endsWith("f") ? Prim.FLOAT : Prim.DOUBLE;
                        return new Expr.FloatConst(p, type, t.text.contains("inf") ? Double.POSITIVE_INFINITY
                                : Double.NaN);
                    }
                    case "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast" -> {
                        k++;
                        expect("<", "expected '<' after '" + t.text + "'");
                        CType type = typeName();
                        expectCloseAngle();
                        expect("(", "expected '('");
                        Expr e = expr();
                        expect(")", "expected ')'");
                        return new Expr.Cast(p, type, e);
                    }
                    default -> { }
                }
                if (startsType()) {
                    // Functional cast: float(x), T(x).
                    DeclSpec sp = declSpec(false);
                    if (!at("(")) {
                        throw diags.fail(tok().pos(), "expected '(' for function-style cast");
                    }
                    k++;
                    Expr e = expr();
                    expect(")", "expected ')'");
                    return new Expr.Cast(p, sp.type, e);
                }
                k++;
                if (templateNames.contains(t.text) && at("<")) {
                    List<Expr.TemplateArg> targs = templateArgs();
                    if (!at("(")) {
                        throw diags.fail(tok().pos(), "expected '(' after template arguments");
                    }
                    return new Expr.CallByName(p, null, t.text, targs, args());
                }
                return new Expr.Name(p, null, t.text);
            }
            case PUNCT -> {
                if (at("(")) {
                    k++;
                    Expr e = expr();
                    expect(")", "expected ')'");
                    return e;
                }
            }
            default -> { }
        }
        throw diags.fail(p, "expected expression");
    }
}
