package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.GlobalVariable;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything known about one translation unit: its declarations, file-scope constants, and the analyzed
 * functions and template instantiations (each analyzed once and cached). Not thread-safe by itself;
 * {@link TranslationUnit} serializes access.
 */
final class Program {
    /** A compile-time constant: file-scope {@code const} or a template value parameter. */
    record ConstVal(CType type, Object value) {}

    /** A resolved template argument: a type, or an integer value. */
    record TArg(CType type, Long value) {}

    /** An analyzed function ({@code fn} null if its declaration itself failed) and its errors, if any. */
    record Analyzed(Function fn, List<CompileException.Diagnostic> errors) {}

    final Diagnostics diags;
    private final Map<String, CType> typedefs;
    private final Set<String> templateNames;
    private final Map<String, List<Syntax.FuncDecl>> decls = new LinkedHashMap<>();
    private final Map<String, Syntax.TemplateDecl> templates = new LinkedHashMap<>();
    final Map<String, ConstVal> consts = new HashMap<>();
    /**
     * File-scope {@code __shared__} variables: one {@link Var} each, shared by every function that uses it; the
     * code generator lays out, per kernel, those the kernel and its callees refer to.
     */
    private final Map<String, Var> sharedVariables = new LinkedHashMap<>();
    /** File-scope {@code __device__} and {@code __constant__} variables by name, in source order. */
    private final Map<String, GlobalVariable> globalVariables = new LinkedHashMap<>();
    private final Map<Var, GlobalVariable> globalsByVar = new IdentityHashMap<>();
    private final Map<Syntax.FuncDecl, Analyzed> done = new IdentityHashMap<>();
    private final Map<String, Analyzed> instances = new HashMap<>();
    private final Set<Syntax.FuncDecl> inProgress = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<String> instancesInProgress = new HashSet<>();

    private Program(Diagnostics diags, Map<String, CType> typedefs, Set<String> templateNames) {
        this.diags = diags;
        this.typedefs = typedefs;
        this.templateNames = templateNames;
    }

    /** Preprocesses, parses and analyzes all non-template code; throws CompileException on any error. */
    static Program compile(String source, String file) {
        Diagnostics d = new Diagnostics(file, source);
        List<Token> tokens = new Preprocessor(d).run(new Lexer(source, d).tokens());
        Set<String> templateNames = new HashSet<>();
        Parser p = new Parser(tokens, d, Parser.builtinTypedefs(), templateNames);
        p.parseUnit();
        Program prog = new Program(d, p.typedefs, templateNames);
        for (Syntax.FuncDecl f : p.functions) {
            List<Syntax.FuncDecl> same = prog.decls.computeIfAbsent(f.name(), n -> new ArrayList<>());
            for (Syntax.FuncDecl o : same) {
                if (o.body() != null && f.body() != null && sameParams(o, f)) {
                    d.error(f.pos(), "redefinition of '" + f.name() + "'");
                }
            }
            same.add(f);
        }
        for (Syntax.TemplateDecl t : p.templates) {
            if (prog.templates.putIfAbsent(t.name(), t) != null) {
                d.error(t.pos(), "redefinition of template '" + t.name() + "' (overloaded templates are not supported)");
            }
        }
        if (d.hasErrors()) {
            d.throwIfAny(); // syntax errors: analyzing the rest would only add follow-on errors
        }
        // Constants and struct layouts in source order: a struct's array sizes may use the constants before it.
        int defined = 0;
        for (Syntax.StructDecl st : p.structs) {
            for (; defined < st.constsBefore(); defined++) {
                prog.defineConstant(p.consts.get(defined));
            }
            prog.defineStruct(st);
        }
        for (; defined < p.consts.size(); defined++) {
            prog.defineConstant(p.consts.get(defined));
        }
        for (Syntax.Declarator v : p.sharedVariables) {
            prog.defineShared(v);
        }
        for (Syntax.Declarator v : p.globalVariables) {
            prog.defineGlobal(v);
        }
        for (Syntax.StaticAssert sa : p.staticAsserts) {
            try {
                new Sema(prog, d, Map.of()).staticAssert(sa);
            } catch (Diagnostics.Abort a) {
                // recorded
            }
        }
        for (List<Syntax.FuncDecl> fs : prog.decls.values()) {
            for (Syntax.FuncDecl f : fs) {
                if (f.body() != null) {
                    d.addAll(prog.analyze(f).errors());
                }
            }
        }
        d.throwIfAny();
        return prog;
    }

    private static boolean sameParams(Syntax.FuncDecl a, Syntax.FuncDecl b) {
        if (a.params().size() != b.params().size()) {
            return false;
        }
        for (int i = 0; i < a.params().size(); i++) {
            if (!a.params().get(i).type().equals(b.params().get(i).type())) {
                return false;
            }
        }
        return true;
    }

    private void defineConstant(Syntax.ConstDecl c) {
        Sema g = new Sema(this, diags, Map.of());
        try {
            Expr v = g.ex.convert(g.ex.value(c.init()), c.type(), "in initialization of '" + c.name() + "'");
            Object value = ConstEval.eval(v, Map.<Var, Object>of());
            if (value == null) {
                diags.error(c.init().pos(), "initializer of file-scope constant '" + c.name()
                        + "' is not a constant expression");
                return;
            }
            if (consts.put(c.name(), new ConstVal(c.type(), value)) != null) {
                diags.error(c.pos(), "redefinition of '" + c.name() + "'");
            }
        } catch (Diagnostics.Abort a) {
            // recorded
        }
    }

    /** Lays out a struct: its members' types (array sizes evaluated) at C's offsets. */
    private void defineStruct(Syntax.StructDecl d) {
        Sema g = new Sema(this, diags, Map.of());
        List<String> names = new ArrayList<>();
        List<CType> types = new ArrayList<>();
        try {
            for (Syntax.Declarator m : d.members()) {
                CType t = g.memberType(m);
                if (t instanceof CType.Struct inner && !inner.complete()) {
                    diags.error(m.pos(), "member '" + m.name() + "' of struct '" + d.type().name() + "' has the "
                            + "incomplete type '" + inner + "' (a struct cannot contain itself)");
                    return;
                }
                if (names.contains(m.name())) {
                    diags.error(m.pos(), "duplicate member '" + m.name() + "' in struct '" + d.type().name() + "'");
                    return;
                }
                names.add(m.name());
                types.add(t);
            }
            checkStructSize(d, types);
            d.type().define(names, types);
        } catch (Diagnostics.Abort a) {
            // recorded
        }
    }

    /**
     * Refuses a struct whose size passes {@link Limits#MAX_OBJECT_BYTES} or that holds more than
     * {@link Limits#MAX_STRUCT_SCALARS} scalars (each a JVM value of its own when the struct is a value), before it
     * is laid out: a type that doubles with each definition would otherwise take the compiler's time and memory.
     */
    private void checkStructSize(Syntax.StructDecl d, List<CType> types) {
        long bytes = 0;
        long scalars = 0;
        for (CType t : types) {
            bytes += t.size() + 16L;
            scalars += scalars(t);
        }
        if (bytes > Limits.MAX_OBJECT_BYTES) {
            throw diags.fail(d.pos(), "struct '" + d.type().name() + "' has about " + bytes + " bytes, more than the "
                    + Limits.MAX_OBJECT_BYTES + " bytes (2 GiB) one object may have on the CPU device's kernel"
                    + " engine; make it smaller");
        }
        if (scalars > Limits.MAX_STRUCT_SCALARS) {
            throw diags.fail(d.pos(), "struct '" + d.type().name() + "' holds " + scalars + " scalars, more than the "
                    + Limits.MAX_STRUCT_SCALARS + " a struct may hold on the CPU device's kernel engine; keep large"
                    + " data in arrays in global memory and pass a pointer");
        }
    }

    /** The number of scalars an object of type {@code t} holds (vector components and array elements each count). */
    private static long scalars(CType t) {
        return switch (t) {
            case CType.Vector v -> v.length();
            case CType.Array a -> Math.max(a.length(), 0) * scalars(a.element());
            case CType.Struct st -> st.complete() ? st.leaves().size() : 1;
            default -> 1;
        };
    }

    private void defineShared(Syntax.Declarator d) {
        Sema g = new Sema(this, diags, Map.of());
        try {
            Var v = g.fileScopeShared(d);
            Var before = sharedVariables.get(d.name());
            boolean redeclared = before != null && before.kind == Var.Kind.EXTERN_SHARED
                    && v.kind == Var.Kind.EXTERN_SHARED && before.type.equals(v.type);
            if (consts.containsKey(d.name()) || before != null && !redeclared) {
                diags.error(d.pos(), "redefinition of '" + d.name() + "'");
            } else if (before == null) {
                sharedVariables.put(d.name(), v);
            }
        } catch (Diagnostics.Abort a) {
            // recorded
        }
    }

    /**
     * Defines a file-scope {@code __device__} or {@code __constant__} variable: a scalar or array of an arithmetic
     * vector or struct type whose initializer, if any, is a constant expression, evaluated here into the bytes the
     * module starts with (a vector element at its type's size, its components one after another; a struct's
     * scalars at their offsets).
     */
    private void defineGlobal(Syntax.Declarator d) {
        Sema g = new Sema(this, diags, Map.of());
        try {
            Stmt.VarDecl decl = g.fileScopeGlobal(d);
            Var v = decl.var();
            String what = (v.kind == Var.Kind.CONSTANT ? "__constant__" : "__device__") + " variable '"
                    + v.name + "'";
            CType element = v.type;
            while (element instanceof CType.Array a) {
                element = a.element();
            }
            CType.Prim component = element instanceof CType.Vector vt ? vt.component()
                    : element instanceof CType.Prim p ? p : null;
            boolean struct = element instanceof CType.Struct;
            if (!struct && (component == null || component == CType.Prim.VOID)) {
                diags.error(d.pos(), what + " has type '" + v.type + "', which the CPU device's kernel engine cannot"
                        + " keep in module memory (pointers stored in memory are not supported); use an arithmetic"
                        + " type (int, unsigned, long long, float, double, char, …), a vector type (float4, int2, …),"
                        + " a struct or an array of one");
                return;
            }
            Expr call = constructorCall(d.init() != null ? d.init() : d.initList());
            if ((element instanceof CType.Vector || struct) && call != null) {
                notConstant(call.pos(), what);
                return;
            }
            List<Expr> values = decl.arrayInit() != null ? decl.arrayInit()
                    : decl.init() != null ? List.of(decl.init()) : List.of();
            byte[] initial = new byte[v.type.size()];
            for (int i = 0; i < values.size(); i++) {
                // An element of vector type is the MakeVector of its components (a braced list, or elided
                // braces); each component is laid out at its offset inside the element, the element at its size.
                Expr value = values.get(i);
                if (struct) {
                    List<Expr> leaves = new ArrayList<>();
                    Expr bad = leafValues(value, leaves);
                    List<CType.Leaf> layout = CType.leaves(element);
                    for (int j = 0; bad == null && j < leaves.size(); j++) {
                        Object c = ConstEval.eval(leaves.get(j), Map.of());
                        if (c == null) {
                            bad = leaves.get(j);
                        } else {
                            encode(initial, i * element.size() + layout.get(j).offset(), layout.get(j).type(), c);
                        }
                    }
                    if (bad != null) {
                        notConstant(bad.pos(), what);
                        return;
                    }
                    continue;
                }
                if (element instanceof CType.Vector && !(value instanceof Expr.MakeVector)) {
                    notConstant(value.pos(), what); // another vector variable, a call's result
                    return;
                }
                List<Expr> parts = value instanceof Expr.MakeVector m ? m.components() : List.of(value);
                for (int j = 0; j < parts.size(); j++) {
                    Object c = ConstEval.eval(parts.get(j), Map.of());
                    if (c == null) {
                        notConstant(parts.get(j).pos(), what);
                        return;
                    }
                    encode(initial, i * element.size() + j * component.size(), component, c);
                }
            }
            if (consts.containsKey(v.name) || sharedVariables.containsKey(v.name)
                    || globalVariables.containsKey(v.name)) {
                diags.error(d.pos(), "redefinition of '" + v.name + "'");
                return;
            }
            GlobalVariable gv = new GlobalVariable(v, v.kind == Var.Kind.CONSTANT || d.isConst(), initial);
            globalVariables.put(v.name, gv);
            globalsByVar.put(v, gv);
        } catch (Diagnostics.Abort a) {
            // recorded
        }
    }

    /**
     * Adds the scalar leaves of a struct's initializer value to {@code out}, in memory order; returns the part that
     * is a whole struct or vector value other than an initializer list (another variable, a call's result), which
     * is not constant, or null.
     */
    private static Expr leafValues(Expr value, List<Expr> out) {
        List<Expr> parts = value instanceof Expr.MakeStruct m ? m.parts()
                : value instanceof Expr.MakeVector m ? m.components() : null;
        if (parts == null) {
            if (value.type() instanceof CType.Struct || value.type() instanceof CType.Vector) {
                return value;
            }
            out.add(value);
            return null;
        }
        for (Expr p : parts) {
            Expr bad = leafValues(p, out);
            if (bad != null) {
                return bad;
            }
        }
        return null;
    }

    /**
     * The first {@code make_float4(…)}-style call that an initializer ({@code = expr} or a braced list) gives as a
     * whole element, or null. The engine could evaluate one with constant arguments, but nvcc refuses it (a call
     * is dynamic initialization, which module variables cannot have), so it is refused here too.
     */
    private static Expr constructorCall(Object init) {
        if (init instanceof Expr.CallByName c && VectorTypes.constructed(c.name()) != null) {
            return c;
        }
        if (init instanceof Syntax.InitList list) {
            for (Object item : list.items()) {
                Expr c = constructorCall(item);
                if (c != null) {
                    return c;
                }
            }
        }
        return null;
    }

    private void notConstant(Pos pos, String what) {
        diags.error(pos, "initializer of " + what + " is not a constant expression; module variables are initialized"
                + " when the module is compiled, from literals, enumerators, #defines and file-scope constants:"
                + " compute other values in a kernel (into a __device__ variable)");
    }

    /** Writes constant {@code value} (Long or Double, as {@link ConstEval} gives it) as a {@code p} at {@code at}. */
    private static void encode(byte[] out, int at, CType.Prim p, Object value) {
        long bits;
        if (p == CType.Prim.HALF) {
            bits = Float.floatToFloat16((float) (double) (Double) value);
        } else if (p == CType.Prim.FLOAT) {
            bits = Float.floatToRawIntBits((float) (double) (Double) value);
        } else if (p == CType.Prim.DOUBLE) {
            bits = Double.doubleToRawLongBits((Double) value);
        } else {
            bits = (Long) value;
        }
        for (int i = 0; i < p.size(); i++) {
            out[at + i] = (byte) (bits >>> (8 * i));
        }
    }

    /**
     * The file-scope {@code __shared__} variable {@code name} as seen from a function that starts at {@code
     * from}: null if there is none, or if it is declared after that function (C declares before use).
     */
    Var sharedVariable(String name, Pos from) {
        return declaredBefore(sharedVariables.get(name), from);
    }

    /** The file-scope {@code __device__}/{@code __constant__} variable {@code name} as seen from {@code from}. */
    Var globalVariable(String name, Pos from) {
        GlobalVariable g = globalVariables.get(name);
        return g == null ? null : declaredBefore(g.var(), from);
    }

    /** The definition of a file-scope {@code __device__}/{@code __constant__} variable, or null for another. */
    GlobalVariable global(Var v) {
        return globalsByVar.get(v);
    }

    /** The module's {@code __device__} and {@code __constant__} variables, in source order. */
    List<GlobalVariable> globals() {
        return List.copyOf(globalVariables.values());
    }

    private static Var declaredBefore(Var v, Pos from) {
        if (v == null || v.pos.line() > from.line()
                || v.pos.line() == from.line() && v.pos.column() > from.column()) {
            return null;
        }
        return v;
    }

    boolean hasFunction(String name) {
        return decls.containsKey(name) || templates.containsKey(name);
    }

    /** Definitions and prototypes named {@code name}; a prototype is dropped where its definition exists. */
    List<Syntax.FuncDecl> declarations(String name) {
        List<Syntax.FuncDecl> all = decls.getOrDefault(name, List.of());
        List<Syntax.FuncDecl> out = new ArrayList<>();
        for (Syntax.FuncDecl f : all) {
            if (f.body() != null || definitionOf(f) == null) {
                out.add(f);
            }
        }
        return out;
    }

    /** The definition matching a declaration's signature, or null. */
    Syntax.FuncDecl definitionOf(Syntax.FuncDecl f) {
        if (f.body() != null) {
            return f;
        }
        for (Syntax.FuncDecl o : decls.getOrDefault(f.name(), List.of())) {
            if (o.body() != null && sameParams(o, f)) {
                return o;
            }
        }
        return null;
    }

    Syntax.TemplateDecl template(String name) {
        return templates.get(name);
    }

    /** The analyzed definition; null while it is being analyzed (a recursive call). */
    Analyzed analyze(Syntax.FuncDecl f) {
        Analyzed a = done.get(f);
        if (a != null) {
            return a;
        }
        if (!inProgress.add(f)) {
            return null;
        }
        try {
            a = analyzeWith(f, f.name(), Map.of(), diags.fresh());
        } finally {
            inProgress.remove(f);
        }
        done.put(f, a);
        return a;
    }

    private Analyzed analyzeWith(Syntax.FuncDecl f, String name, Map<String, ConstVal> tconsts, Diagnostics fd) {
        Sema s = new Sema(this, fd, tconsts);
        List<Var> params = s.declareParams(f);
        Function fn = new Function(name, f.returnType(), params, f.kernel(), f.pos());
        fn.setBody(s.functionBody(f));
        return new Analyzed(fn, fd.list());
    }

    static String instanceName(Syntax.TemplateDecl td, List<TArg> args) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            TArg a = args.get(i);
            if (a.type() != null) {
                parts.add(a.type().toString());
            } else {
                CType vt = td.params().get(i).valueType();
                boolean u64 = vt instanceof CType.Prim p && !p.signed && p.size() == 8;
                parts.add(u64 ? Long.toUnsignedString(a.value()) : Long.toString(a.value()));
            }
        }
        return td.name() + "<" + String.join(", ", parts) + ">";
    }

    /** How many template instantiations are being analyzed, each inside the one before. */
    int instantiationDepth() {
        return instancesInProgress.size();
    }

    /** The analyzed instantiation; null while it is being analyzed (a recursive call). */
    Analyzed instantiate(Syntax.TemplateDecl td, List<TArg> args, Diagnostics caller) {
        String key = instanceName(td, args);
        Analyzed a = instances.get(key);
        if (a != null) {
            return a;
        }
        if (!instancesInProgress.add(key)) {
            return null;
        }
        try {
            Diagnostics fd = diags.fresh();
            Map<String, CType> tds = new HashMap<>(typedefs);
            Map<String, ConstVal> tc = new HashMap<>();
            for (int i = 0; i < args.size(); i++) {
                Syntax.TParam p = td.params().get(i);
                if (p.isType()) {
                    tds.put(p.name(), args.get(i).type());
                } else {
                    tc.put(p.name(), new ConstVal(p.valueType(), args.get(i).value()));
                }
            }
            Parser pr = new Parser(td.tokens(), fd, tds, templateNames);
            Syntax.FuncDecl f = null;
            try {
                f = pr.parseFunction(key);
                if (!pr.atEof()) {
                    fd.error(pr.tok().pos(), "unexpected tokens after the function body");
                }
            } catch (Diagnostics.Abort e) {
                // recorded
            }
            a = f == null || fd.hasErrors() ? new Analyzed(null, fd.list()) : analyzeWith(f, key, tc, fd);
        } finally {
            instancesInProgress.remove(key);
        }
        instances.put(key, a);
        return a;
    }

    List<String> kernelNames() {
        List<String> names = new ArrayList<>();
        for (List<Syntax.FuncDecl> fs : decls.values()) {
            for (Syntax.FuncDecl f : fs) {
                if (f.kernel() && f.body() != null && !names.contains(f.name())) {
                    names.add(f.name());
                }
            }
        }
        for (Syntax.TemplateDecl t : templates.values()) {
            if (t.kernel()) {
                names.add(t.name() + "<…>");
            }
        }
        return names;
    }

    private DeviceException notFound(String name, String why) {
        return new DeviceException(CudaError.NOT_FOUND, "no kernel named '" + name + "' in " + diags.file
                + (why == null ? "" : " (" + why + ")") + (kernelNames().isEmpty()
                        ? "; it declares no __global__ function"
                        : "; its kernels are: " + String.join(", ", kernelNames())));
    }

    /** The analyzed kernel {@code name} ("saxpy", "k<float>", "reduce<256>"). */
    Function kernel(String name) {
        String trimmed = name.strip();
        int lt = trimmed.indexOf('<');
        if (lt < 0) {
            for (Syntax.FuncDecl f : decls.getOrDefault(trimmed, List.of())) {
                if (f.kernel() && f.body() != null) {
                    return done.get(f).fn();
                }
            }
            if (templates.containsKey(trimmed) && templates.get(trimmed).kernel()) {
                throw notFound(name, "'" + trimmed + "' is a template: name an instantiation such as '"
                        + trimmed + "<float>'");
            }
            throw notFound(name, null);
        }
        String base = trimmed.substring(0, lt).strip();
        Syntax.TemplateDecl td = templates.get(base);
        if (td == null || !td.kernel()) {
            throw notFound(name, null);
        }
        Diagnostics nd = diags.fresh();
        List<Token> tokens = new Preprocessor(nd).run(new Lexer(trimmed.substring(lt), nd).tokens());
        Parser pr = new Parser(tokens, nd, typedefs, templateNames);
        List<Expr.TemplateArg> targs;
        try {
            targs = pr.templateArgs();
        } catch (Diagnostics.Abort e) {
            targs = null;
        }
        if (targs == null || !pr.atEof() || nd.hasErrors()) {
            throw notFound(name, "cannot parse the template arguments");
        }
        if (targs.size() != td.params().size()) {
            throw notFound(name, "template '" + base + "' takes " + td.params().size() + " argument"
                    + (td.params().size() == 1 ? "" : "s") + ", not " + targs.size());
        }
        Sema g = new Sema(this, nd, Map.of());
        List<TArg> args = new ArrayList<>();
        try {
            for (int i = 0; i < targs.size(); i++) {
                args.add(g.templateArg(td.params().get(i), targs.get(i), td.pos()));
            }
        } catch (Diagnostics.Abort e) {
            throw notFound(name, nd.list().getFirst().message());
        }
        Analyzed a = instantiate(td, args, nd);
        if (a == null || !a.errors().isEmpty()) {
            throw new CompileException(a == null ? nd.list() : a.errors());
        }
        return a.fn();
    }
}
