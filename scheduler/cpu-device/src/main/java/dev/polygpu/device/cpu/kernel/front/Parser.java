package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr.BinaryOp;
import dev.polygpu.device.cpu.kernel.ast.Expr;
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
 *
 * <p>The grammar is split into layers, each a superclass of the next: {@link ParserCore} (tokens and scopes),
 * {@link ExprParser}, {@link TypeParser}, {@link StmtParser}, and this class, which holds the top level:
 * functions, file-scope variables, typedefs, enums and templates.
 */
final class Parser extends StmtParser {
    private int externDepth;

    final List<Syntax.FuncDecl> functions = new ArrayList<>();
    /** File-scope {@code __shared__} and {@code extern __shared__} variables, in source order. */
    final List<Syntax.Declarator> sharedVariables = new ArrayList<>();
    /** File-scope {@code __device__} and {@code __constant__} variables, in source order. */
    final List<Syntax.Declarator> globalVariables = new ArrayList<>();
    final List<Syntax.TemplateDecl> templates = new ArrayList<>();
    /** File-scope {@code static_assert}s, in source order. */
    final List<Syntax.StaticAssert> staticAsserts = new ArrayList<>();

    Parser(List<Token> ts, Diagnostics diags, Map<String, CType> typedefs, Set<String> templateNames) {
        super(ts, diags, typedefs, templateNames);
    }

    /** Typedef names every kernel can use without including a header. */
    static Map<String, CType> builtinTypedefs() {
        Map<String, CType> m = new HashMap<>();
        m.put("size_t", Prim.ULONG);
        m.put("ssize_t", Prim.LONG);
        m.put("ptrdiff_t", Prim.LONG);
        m.put("intptr_t", Prim.LONG);
        m.put("uintptr_t", Prim.ULONG);
        m.put("int8_t", Prim.SCHAR);
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
        cxx.skipAttributes();
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
        if (at("using")) {
            cxx.aliasDeclaration();
            return;
        }
        if (at("static_assert")) {
            staticAsserts.add(cxx.staticAssert());
            return;
        }
        if (at("namespace")) {
            throw diags.fail(tok().pos(), "namespaces are not supported by the CPU device's kernel engine; define the "
                    + "functions, types and constants at file scope");
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
            if (!d.isConst()) {
                throw diags.fail(d.pos(), "non-const file-scope variables are not supported by the CPU device's "
                        + "kernel engine (only constants such as 'const int N = 256;')");
            }
            if (!d.dims().isEmpty() || d.type() == null || !d.type().isArithmetic()) {
                throw diags.fail(d.pos(), "file-scope constant '" + d.name()
                        + "' must be a scalar of arithmetic type (file-scope arrays are not supported)");
            }
            expect("=", "file-scope constant '" + d.name() + "' needs an initializer");
            consts.add(new Syntax.ConstDecl(d.pos(), d.name(), d.type(), assign()));
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
            into.add(new Syntax.Declarator(d.pos(), d.name(), d.type(), d.dims(), storage, d.isConst(), sp.isVolatile,
                    init, list));
            if (!accept(",")) {
                break;
            }
            d = declarator(sp.type, sp.isConst, true);
        }
        expect(";", "expected ';' after top level declarator");
    }

    private Syntax.FuncDecl functionRest(DeclSpec sp, Decl d) {
        if (!d.dims().isEmpty()) {
            throw diags.fail(d.pos(), "function cannot return an array");
        }
        if (sp.type == null) {
            throw diags.fail(sp.pos, "'auto' return types are not supported by the CPU device's kernel engine; write "
                    + "the return type before the function's name");
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
                throw diags.fail(ps.pos, "'auto' parameters are not supported by the CPU device's kernel engine; give "
                        + "the parameter a type, or make the function a template");
            }
            Decl pd = declarator(ps.type, ps.isConst, false);
            CType t = pd.type();
            if (!pd.dims().isEmpty()) {
                // An array parameter is a pointer to the element type (inner dimensions are not supported).
                if (pd.dims().size() > 1) {
                    throw diags.fail(pd.pos(), "multi-dimensional array parameters are not supported");
                }
                t = new CType.Pointer(t);
            }
            if (t == Prim.VOID) {
                throw diags.fail(pd.pos(), "parameter cannot have type 'void'");
            }
            if (at("=")) {
                throw diags.fail(tok().pos(), "default arguments are not supported");
            }
            params.add(new Syntax.Param(pd.pos(), pd.name(), t, pd.isConst(), ps.isVolatile));
            declareName(pd.name());
            if (!accept(",")) {
                break;
            }
        }
        expect(")", "expected ')' after parameter list");
        return params;
    }

    private Syntax.FuncDecl functionRest(DeclSpec sp, Decl d, List<Syntax.Param> params) {
        while (at("const") || at("__launch_bounds__") || at("noexcept") || at("__attribute__")) {
            skipSpecifier();
        }
        boolean kernel = sp.global;
        // The declarator's type holds what it adds to the specifiers: 'float *f(...)' returns a float*.
        CType returns = d.type();
        if (kernel && returns != Prim.VOID) {
            diags.error(d.pos(), "__global__ function '" + d.name() + "' must have a void return type");
        }
        if (accept(";")) {
            return new Syntax.FuncDecl(d.pos(), d.name(), returns, params, kernel, null);
        }
        if (!at("{")) {
            throw diags.fail(tok().pos(), "expected function body after function declarator");
        }
        PStmt.Block body = block();
        return new Syntax.FuncDecl(d.pos(), d.name(), returns, params, kernel, body);
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
        boolean specialization = at(">");
        while (!at(">")) {
            if (accept("typename") || accept("class")) {
                if (at("...")) {
                    throw cxx.parameterPack(tok().pos());
                }
                params.add(new Syntax.TParam(ident("template parameter name"), true, null));
            } else {
                DeclSpec ps = declSpec(true);
                if (ps.type == null || !ps.type.isInteger()) {
                    throw diags.fail(ps.pos, "template value parameters must have an integer type");
                }
                params.add(new Syntax.TParam(ident("template parameter name"), false, ps.type));
            }
            if (at("=")) {
                throw diags.fail(tok().pos(), "default template arguments are not supported by the CPU device's "
                        + "kernel engine; give every template argument where the template is used ('k<float, 4>')");
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
        if (specialization || !ts.get(j).is("(") || j == start || ts.get(j - 1).kind != Token.Kind.IDENT) {
            throw cxx.nonFunctionTemplate(pos, ts.get(start), specialization);
        }
        String name = ts.get(j - 1).text;
        boolean kernel = false;
        for (int q = start; q < j; q++) {
            kernel |= ts.get(q).is("__global__");
        }
        int close = skipParens(j) - 1;
        for (int q = j + 1; q <= close; q++) {
            // a parameter list left open would take the rest of the file into the template's body unseen
            if (ts.get(q).is("{") || ts.get(q).is(";") || ts.get(q).kind == Token.Kind.EOF) {
                throw diags.fail(ts.get(q).pos(), "expected ')' at the end of the parameter list of template '"
                        + name + "'");
            }
        }
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
}
