package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The type layer of the CUDA C parser: declaration specifiers, declarators, type names and struct definitions
 * and references. Types are resolved here, while parsing, from the typedef and struct names in scope.
 */
abstract class TypeParser extends ExprParser {
    final List<Syntax.ConstDecl> consts = new ArrayList<>();
    /** File-scope struct definitions, in source order. */
    final List<Syntax.StructDecl> structs = new ArrayList<>();

    TypeParser(List<Token> ts, Diagnostics diags, Map<String, CType> typedefs, Set<String> templateNames) {
        super(ts, diags, typedefs, templateNames);
    }
    private static final Set<String> FUNC_SPECIFIERS = Set.of("__global__", "__device__", "__host__", "static",
            "inline", "__inline__", "__forceinline__", "__noinline__", "extern", "__shared__", "__constant__",
            "__managed__", "auto", "__launch_bounds__", "__align__", "__attribute__", "alignas");

    /** At the start of a definition: {@code struct [Name] {…}} (also {@code union} and {@code class}). */
    boolean startsStructDefinition() {
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
    CType.Struct structDefinition() {
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
        if (anonymous && (k < 2 || !ts.get(k - 2).is("typedef"))) {
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
            String m = "member '" + d.name() + "'" + in;
            if (at("(")) {
                throw diags.fail(d.pos(), "member functions (" + d.name() + ")" + in + " are not supported" + ENGINE
                        + "; a struct may hold data members only (write a __device__ function that takes the struct)");
            }
            if (at(":")) {
                throw diags.fail(tok().pos(), "bit-field " + m + " is not supported" + ENGINE
                        + "; use a whole integer member and shifts and masks");
            }
            if (d.type() instanceof CType.Pointer) {
                throw diags.fail(d.pos(), "pointer " + m + " is not supported" + ENGINE + " (pointers stored in "
                        + "memory are not supported); pass each array as its own kernel argument, and keep "
                        + "indices in the struct");
            }
            if (d.dims().contains(null)) {
                throw diags.fail(d.pos(), "flexible array " + m + " is not supported" + ENGINE
                        + "; give the array a constant size");
            }
            if (at("=") || at("{")) {
                throw diags.fail(tok().pos(), "default member initializers (" + m + ") are not supported" + ENGINE
                        + "; initialize the struct with an aggregate initializer ('" + st.name() + " s = {…};')");
            }
            if (ms.type == Prim.VOID) {
                throw diags.fail(d.pos(), m + " has incomplete type 'void'");
            }
            members.add(new Syntax.Declarator(d.pos(), d.name(), d.type(), d.dims(), Syntax.Storage.LOCAL, d.isConst(),
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

    boolean startsType() {
        Token t = tok();
        if (t.kind != Token.Kind.IDENT) {
            return false;
        }
        return TYPE_KEYWORDS.contains(t.text) || typedefs.containsKey(t.text) || QUALIFIERS.contains(t.text)
                || AGGREGATE_WORDS.contains(t.text) || t.text.equals("enum")
                || Unsupported.isVectorType(t.text) || Unsupported.isTextureType(t.text);
    }

    /** True where a declaration begins, not an expression with a functional cast such as {@code int(x)}. */
    boolean startsDeclaration() {
        Token t = tok();
        boolean functionalCast = (TYPE_KEYWORDS.contains(t.text) || typedefs.containsKey(t.text))
                && (peek(1).is("(") && !peek(2).is("*") || peek(1).is("{"));
        return startsDecl() && !functionalCast;
    }

    boolean startsDecl() {
        Token t = tok();
        return startsType() || (t.kind == Token.Kind.IDENT && FUNC_SPECIFIERS.contains(t.text)
                && !(t.is("auto") && peek(1).is("(")));
    }

    void skipSpecifier() {
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
                // C++ allows each of these once ('long' twice); a second base type is an error, not ignored
                boolean again = switch (w) {
                    case "long" -> longs++ == 2;
                    case "short" -> shorts++ == 1;
                    case "signed", "__signed__" -> {
                        boolean twice = signed;
                        signed = true;
                        yield twice;
                    }
                    case "unsigned" -> {
                        boolean twice = unsigned;
                        unsigned = true;
                        yield twice;
                    }
                    default -> {
                        if (base != null && !base.equals(w)) {
                            throw diags.fail(t.pos(), "cannot combine '" + base + "' with '" + w + "'");
                        }
                        boolean twice = base != null;
                        base = w;
                        yield twice;
                    }
                };
                if (again) {
                    throw diags.fail(t.pos(), "duplicate '" + w + "' in a type");
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
                return unsigned ? Prim.UCHAR : signed ? Prim.SCHAR : Prim.CHAR;
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
            throw cxx.reference();
        }
        if (at("operator")) {
            throw cxx.operatorOverload();
        }
        if (at("::") && k > 0) {
            k--; // T::value_type: the name before the '::' starts the qualified name
            throw cxx.qualifiedName();
        }
        if (nameRequired && at("[")) {
            throw cxx.structuredBinding();
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
        if (d.name() != null) {
            throw diags.fail(d.pos(), "unexpected identifier '" + d.name() + "' in type name");
        }
        if (!d.dims().isEmpty()) {
            throw diags.fail(d.pos(), "array type names are not supported");
        }
        return d.type();
    }

    void typedefDecl() {
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
            if (!d.dims().isEmpty()) {
                throw diags.fail(d.pos(), "array typedefs are not supported");
            }
            typedefs.put(d.name(), d.type());
        } while (accept(","));
        expect(";", "expected ';' after typedef");
    }
}
