package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Semantic analysis of one function: scopes and variables, declarations (array sizes, initializers, shared
 * memory), statements and control flow. Expressions are typed by {@link ExprSema}. An error abandons only the
 * statement it is in, so several independent errors of a function are reported together.
 */
final class Sema {
    final Program prog;
    final Diagnostics diags;
    final ExprSema ex;
    private final Map<String, Program.ConstVal> templateConsts;
    private final ArrayDeque<Map<String, Var>> scopes = new ArrayDeque<>();
    /** Values of const locals with constant initializers (usable as array sizes and case labels). */
    final Map<Var, Object> constValues = new HashMap<>();
    private final Set<Var> constVars = new HashSet<>();
    private int nextId;
    private int loops;
    private int switches;
    private CType returnType = Prim.VOID;
    private String fnName = "";
    /** The function being analyzed as assert messages name it ({@code void k(int*, float)}). */
    private String prettyFunction = "";
    /** Where the function being analyzed starts: file-scope variables declared before it are visible. */
    private Pos fnPos;

    Sema(Program prog, Diagnostics diags, Map<String, Program.ConstVal> templateConsts) {
        this.prog = prog;
        this.diags = diags;
        this.templateConsts = templateConsts;
        this.ex = new ExprSema(this);
        scopes.push(new HashMap<>());
    }

    String prettyFunction() {
        return prettyFunction;
    }

    Var lookup(String name) {
        for (Map<String, Var> s : scopes) {
            Var v = s.get(name);
            if (v != null) {
                return v;
            }
        }
        if (fnPos == null) {
            return null;
        }
        Var shared = prog.sharedVariable(name, fnPos);
        return shared != null ? shared : prog.globalVariable(name, fnPos);
    }

    Program.ConstVal constant(String name) {
        Program.ConstVal c = templateConsts.get(name);
        return c != null ? c : prog.consts.get(name);
    }

    boolean isConst(Var v) {
        return constVars.contains(v);
    }

    private void declare(Var v, boolean isConst) {
        Map<String, Var> scope = scopes.peek();
        if (scope.containsKey(v.name)) {
            diags.error(v.pos, "redefinition of '" + v.name + "'");
        }
        scope.put(v.name, v);
        if (isConst) {
            constVars.add(v);
        }
    }

    // ---------------------------------------------------------------- functions

    List<Var> declareParams(Syntax.FuncDecl f) {
        fnName = f.name();
        fnPos = f.pos();
        returnType = f.returnType();
        prettyFunction = f.returnType() + " " + f.name() + "("
                + String.join(", ", f.params().stream().map(p -> p.type().toString()).toList()) + ")";
        List<Var> params = new ArrayList<>();
        for (Syntax.Param p : f.params()) {
            if (f.kernel() && p.type() == CType.Prim.HALF) {
                String n = p.name() == null ? "h" : p.name();
                diags.error(p.pos(), "kernel parameter '" + n + "' has the type '__half', which kernel signatures"
                        + " cannot pass by value (they have no 16-bit floating type); pass a float and convert it with"
                        + " __float2half(" + n + "), or pass a pointer ('__half*')");
            }
            if (f.kernel() && p.type() instanceof CType.Vector vt) {
                String n = p.name() == null ? "v" : p.name();
                diags.error(p.pos(), "kernel parameter '" + n + "' has the vector type '" + vt + "', which kernel "
                        + "signatures cannot pass by value (they have scalar and pointer types only); pass its "
                        + "components as scalars (" + vt.component() + " " + n + "_x, " + n + "_y, …) or pass a "
                        + "pointer ('" + vt + "*')");
            }
            if (f.kernel() && p.type() instanceof CType.Struct st) {
                String n = p.name() == null ? "s" : p.name();
                diags.error(p.pos(), "kernel parameter '" + n + "' has the struct type '" + st + "', which kernel "
                        + "signatures cannot pass by value (they have scalar and pointer types only); pass a "
                        + "pointer ('" + st + "* " + n + "', an array argument holding the struct) or its members "
                        + "as scalars");
            }
            Var v = new Var(p.name() == null ? "" : p.name(), p.type(), Var.Kind.PARAM, p.pos(), nextId++);
            v.volatileAccess = p.isVolatile() && p.type() instanceof CType.Pointer;
            if (p.name() != null) {
                declare(v, p.isConst());
            }
            params.add(v);
        }
        return params;
    }

    Stmt.Block functionBody(Syntax.FuncDecl f) {
        return new Stmt.Block(f.body().pos(), items(f.body().items()));
    }

    private List<Stmt> items(List<PStmt> items) {
        List<Stmt> out = new ArrayList<>();
        for (PStmt s : items) {
            into(out, s);
        }
        return out;
    }

    /** Analyzes one statement into {@code out}; an error is recorded and the statement dropped. */
    private void into(List<Stmt> out, PStmt s) {
        into(out, s, true);
    }

    /**
     * As {@link #into(List, PStmt)}; with {@code steps}, a statement that uses a {@code volatile} variable
     * becomes steps of the warp ({@link WarpLockstep}). A for-loop's init takes no steps: loop headers are
     * not steps.
     */
    private void into(List<Stmt> out, PStmt s, boolean steps) {
        try {
            if (s instanceof PStmt.Decl d) {
                for (Syntax.Declarator dd : d.declarators()) {
                    try {
                        add(out, variable(dd), steps);
                    } catch (Diagnostics.Abort a) {
                        // recorded; the variable was declared anyway so later uses do not cascade
                    }
                }
            } else {
                add(out, stmt(s), steps);
            }
        } catch (Diagnostics.Abort a) {
            // recorded
        }
    }

    private void add(List<Stmt> out, Stmt s, boolean steps) {
        if (steps && WarpLockstep.isStep(s)) {
            WarpLockstep.addSteps(out, s,
                    e -> new Var("$step" + nextId, e.type(), Var.Kind.LOCAL, s.pos(), nextId++));
        } else {
            out.add(s);
        }
    }

    private Stmt scoped(PStmt s) {
        scopes.push(new HashMap<>());
        try {
            List<Stmt> out = new ArrayList<>();
            into(out, s);
            if (out.size() == 1) {
                return out.getFirst();
            }
            return new Stmt.Block(s.pos(), out);
        } finally {
            scopes.pop();
        }
    }

    private Stmt stmt(PStmt s) {
        dev.polygpu.device.cpu.kernel.CompileCancel.check();
        switch (s) {
            case PStmt.Block b -> {
                scopes.push(new HashMap<>());
                try {
                    return new Stmt.Block(b.pos(), items(b.items()));
                } finally {
                    scopes.pop();
                }
            }
            case PStmt.ExprStmt e -> {
                return new Stmt.ExprStmt(e.pos(), ex.value(e.expr()));
            }
            case PStmt.If i -> {
                Expr c = condition(i.condition());
                Stmt then = scoped(i.then());
                Stmt otherwise = i.otherwise() == null ? null : scoped(i.otherwise());
                return new Stmt.If(i.pos(), c, then, otherwise);
            }
            case PStmt.While w -> {
                Expr c = condition(w.condition());
                return new Stmt.While(w.pos(), c, loopBody(w.body()));
            }
            case PStmt.DoWhile d -> {
                Stmt body = loopBody(d.body());
                return new Stmt.DoWhile(d.pos(), body, condition(d.condition()));
            }
            case PStmt.For f -> {
                scopes.push(new HashMap<>());
                try {
                    List<Stmt> init = new ArrayList<>();
                    if (f.init() != null) {
                        into(init, f.init(), false);
                    }
                    Expr c = f.condition() == null ? null : condition(f.condition());
                    Expr u = f.update() == null ? null : ex.value(f.update());
                    return new Stmt.For(f.pos(), init, c, u, loopBody(f.body()));
                } finally {
                    scopes.pop();
                }
            }
            case PStmt.Break b -> {
                if (loops == 0 && switches == 0) {
                    throw diags.fail(b.pos(), "'break' statement not in loop or switch statement");
                }
                return new Stmt.Break(b.pos());
            }
            case PStmt.Continue c -> {
                if (loops == 0) {
                    throw diags.fail(c.pos(), "'continue' statement not in loop statement");
                }
                return new Stmt.Continue(c.pos());
            }
            case PStmt.Return r -> {
                return ret(r);
            }
            case PStmt.Switch sw -> {
                return switchStmt(sw);
            }
            case PStmt.Case c -> throw diags.fail(c.pos(), switches == 0
                    ? "'" + (c.value() == null ? "default" : "case") + "' statement not in switch statement"
                    : "case labels nested inside other statements of a switch are not supported");
            case PStmt.Empty e -> {
                return new Stmt.Empty(e.pos());
            }
            case PStmt.IfConstexpr i -> {
                return ifConstexpr(i);
            }
            case PStmt.StaticAssert sa -> {
                staticAssert(sa.check());
                return new Stmt.Empty(sa.pos());
            }
            case PStmt.Decl d -> throw diags.fail(d.pos(), "a declaration is not allowed here");
        }
    }

    /** {@code if constexpr}: only the branch that the constant condition selects is analyzed. */
    private Stmt ifConstexpr(PStmt.IfConstexpr i) {
        Expr c = condition(i.condition());
        PStmt taken = isTrue(ConstEval.eval(c, constValues), i.condition().pos(), "'if constexpr'")
                ? i.then() : i.otherwise();
        return taken == null ? new Stmt.Empty(i.pos()) : scoped(taken);
    }

    /** Checks a {@code static_assert}: its condition must be an integer constant expression, and not zero. */
    void staticAssert(Syntax.StaticAssert sa) {
        Expr c = ex.value(sa.condition());
        if (!isTrue(c.type().isArithmetic() ? ConstEval.eval(c, constValues) : null, sa.condition().pos(),
                "static_assert")) {
            throw diags.fail(sa.pos(), "static assertion failed" + (sa.message() == null ? "" : ": " + sa.message()));
        }
    }

    /** Whether a constant condition of {@code what} holds; an error if it is not a constant (null). */
    private boolean isTrue(Object constant, Pos pos, String what) {
        return switch (constant) {
            case Long l -> l != 0;
            case Double d -> d != 0;
            case null, default -> throw diags.fail(pos, "the condition of " + what + " is not a constant expression");
        };
    }

    private Stmt loopBody(PStmt body) {
        loops++;
        int savedSwitches = switches;
        switches = 0; // a break in the loop body leaves the loop, not an enclosing switch
        try {
            return scoped(body);
        } finally {
            loops--;
            switches = savedSwitches;
        }
    }

    private Expr condition(Expr e) {
        Expr c = ex.value(e);
        ex.requireScalar(c, "condition");
        return c;
    }

    private Stmt ret(PStmt.Return r) {
        if (r.value() == null) {
            if (returnType != Prim.VOID) {
                throw diags.fail(r.pos(), "non-void function '" + fnName + "' should return a value");
            }
            return new Stmt.Return(r.pos(), null);
        }
        Expr v = ex.contextTyped(r.value(), returnType == Prim.VOID ? null : returnType, "the return value");
        if (returnType == Prim.VOID) {
            if (v.type() != Prim.VOID) {
                throw diags.fail(r.pos(), "void function '" + fnName + "' should not return a value");
            }
            return new Stmt.Return(r.pos(), v);
        }
        return new Stmt.Return(r.pos(), ex.convert(v, returnType, "in return"));
    }

    private Stmt switchStmt(PStmt.Switch sw) {
        Expr sel = ex.value(sw.selector());
        if (!sel.type().isInteger()) {
            throw diags.fail(sel.pos(), "statement requires expression of integer type ('" + sel.type() + "' invalid)");
        }
        CType st = Types.promote(sel.type());
        if (st == Prim.UINT) {
            st = Prim.INT; // equality on 32 bits does not depend on signedness
        }
        sel = ExprSema.cast(sel, st);
        List<PStmt> body = sw.body() instanceof PStmt.Block b ? b.items() : List.of(sw.body());
        List<Pos> casePos = new ArrayList<>();
        List<Long> caseValues = new ArrayList<>();
        List<List<Stmt>> caseStmts = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        boolean seenDefault = false;
        scopes.push(new HashMap<>());
        switches++;
        try {
            for (PStmt item : body) {
                PStmt it = item;
                while (it instanceof PStmt.Case c) {
                    Long v = null;
                    if (c.value() == null) {
                        if (seenDefault) {
                            diags.error(c.pos(), "multiple default labels in one switch");
                        }
                        seenDefault = true;
                    } else {
                        try {
                            v = caseValue(c.value(), st);
                            if (!seen.add(v)) {
                                diags.error(c.value().pos(), "duplicate case value '" + v + "'");
                            }
                        } catch (Diagnostics.Abort a) {
                            v = Long.MIN_VALUE; // keep the structure; the error is recorded
                        }
                    }
                    casePos.add(c.pos());
                    caseValues.add(v);
                    caseStmts.add(new ArrayList<>());
                    it = c.stmt();
                }
                if (caseStmts.isEmpty()) {
                    diags.error(it.pos(), "statements before the first case label of a switch are not supported");
                    continue;
                }
                into(caseStmts.getLast(), it);
            }
        } finally {
            switches--;
            scopes.pop();
        }
        List<Stmt.Case> cases = new ArrayList<>();
        for (int i = 0; i < casePos.size(); i++) {
            cases.add(new Stmt.Case(casePos.get(i), caseValues.get(i), caseStmts.get(i)));
        }
        return new Stmt.Switch(sw.pos(), sel, cases);
    }

    private long caseValue(Expr e, CType selectorType) {
        Expr v = ex.value(e);
        Object c = v.type().isInteger() ? ConstEval.eval(v, constValues) : null;
        if (!(c instanceof Long l)) {
            throw diags.fail(e.pos(), "case value is not an integer constant expression");
        }
        return ConstEval.wrap(l, selectorType);
    }

    // ---------------------------------------------------------------- declarations

    /** Analyzes a file-scope {@code __shared__} declaration as a function's own one: its variable. */
    Var fileScopeShared(Syntax.Declarator d) {
        return ((Stmt.VarDecl) variable(d)).var();
    }

    /**
     * Analyzes a file-scope {@code __device__} or {@code __constant__} declaration: its variable, with the
     * initializer converted to its type ({@code init}) or flattened and converted per element ({@code
     * arrayInit}). File-scope variables declared before it are visible, so that using one in the initializer
     * is reported as not constant rather than undeclared.
     */
    Stmt.VarDecl fileScopeGlobal(Syntax.Declarator d) {
        fnPos = d.pos();
        return (Stmt.VarDecl) variable(d);
    }

    private Stmt variable(Syntax.Declarator d) {
        CType t = d.type();
        Var v = null;
        try {
            Expr init = null;
            if (t == null) {
                if (d.initList() != null) {
                    throw diags.fail(d.pos(), "'auto " + d.name() + " = {…}' deduces a std::initializer_list, "
                            + "which is not supported by the CPU device's kernel engine; write 'auto " + d.name()
                            + " = value;' or name the type");
                }
                if (d.init() == null) {
                    throw diags.fail(d.pos(), "declaration of variable '" + d.name()
                            + "' with deduced type 'auto' requires an initializer");
                }
                init = ex.value(d.init());
                t = init.type();
            }
            boolean shared = d.storage() == Syntax.Storage.SHARED || d.storage() == Syntax.Storage.EXTERN_SHARED;
            if (shared && (d.init() != null || d.initList() != null)) {
                throw diags.fail(d.pos(), "initialization is not supported for __shared__ variables");
            }
            boolean unsized = false;
            for (int i = d.dims().size() - 1; i >= 0; i--) {
                Expr de = d.dims().get(i);
                if (de == null) {
                    if (i != 0 || (d.storage() != Syntax.Storage.EXTERN_SHARED && d.initList() == null)) {
                        throw diags.fail(d.pos(), "array size missing in declaration of '" + d.name() + "'");
                    }
                    unsized = true;
                    t = new CType.Array(t, -1);
                } else {
                    t = d.storage() == Syntax.Storage.EXTERN_SHARED && i == 0 ? new CType.Array(t, -1)
                            : arrayOf(t, arraySize(de), de.pos(), d.name());
                }
            }
            if (t == Prim.VOID || (t instanceof CType.Array a && innermost(a) == Prim.VOID)) {
                throw diags.fail(d.pos(), "variable '" + d.name() + "' has incomplete type 'void'");
            }
            if (d.storage() == Syntax.Storage.EXTERN_SHARED && !(t instanceof CType.Array)) {
                throw diags.fail(d.pos(), "extern __shared__ variable '" + d.name() + "' must be an array");
            }
            List<Expr> arrayInit = null;
            if (t instanceof CType.Array a) {
                if (d.init() != null) {
                    throw diags.fail(d.init().pos(), "array initializer must be an initializer list");
                }
                if (d.initList() != null) {
                    arrayInit = flatten(d.initList(), a);
                    if (unsized) {
                        int inner = flatSize(a.element());
                        t = new CType.Array(a.element(), (arrayInit.size() + inner - 1) / inner);
                    }
                }
            } else if (d.initList() != null) {
                init = ex.fromList(d.initList(), t, "'" + d.name() + "'");
            } else if (init == null && d.init() != null) {
                init = ex.value(d.init());
            }
            Var.Kind kind = switch (d.storage()) {
                case LOCAL -> Var.Kind.LOCAL;
                case SHARED -> Var.Kind.SHARED;
                case EXTERN_SHARED -> Var.Kind.EXTERN_SHARED;
                case DEVICE -> Var.Kind.DEVICE;
                case CONSTANT -> Var.Kind.CONSTANT;
            };
            if (init != null) {
                init = ex.convert(init, t, "in initialization of '" + d.name() + "'");
            }
            if (d.isConst() && kind == Var.Kind.LOCAL && init == null && arrayInit == null) {
                throw diags.fail(d.pos(), "const variable '" + d.name() + "' requires an initializer (C++ gives a"
                        + " const object no value otherwise); initialize it where it is declared");
            }
            v = new Var(d.name(), t, kind, d.pos(), nextId++);
            v.volatileAccess = d.isVolatile() && (t instanceof CType.Pointer || kind != Var.Kind.LOCAL);
            declare(v, d.isConst());
            if (d.isConst() && init != null) {
                Object c = ConstEval.eval(init, constValues);
                if (c != null) {
                    constValues.put(v, c);
                }
            }
            return new Stmt.VarDecl(d.pos(), v, init, arrayInit);
        } catch (Diagnostics.Abort a) {
            if (v == null && !scopes.peek().containsKey(d.name())) {
                scopes.peek().put(d.name(), new Var(d.name(), t == null ? Prim.INT : t, Var.Kind.LOCAL, d.pos(), nextId++));
            }
            throw a;
        }
    }

    /** The type of a struct member: as declared, with its array dimensions (constant sizes) applied. */
    CType memberType(Syntax.Declarator m) {
        CType t = m.type();
        for (int i = m.dims().size() - 1; i >= 0; i--) {
            t = arrayOf(t, arraySize(m.dims().get(i)), m.dims().get(i).pos(), m.name());
        }
        if (t instanceof CType.Array a && innermost(a) instanceof CType.Struct inner && !inner.complete()) {
            throw diags.fail(m.pos(), "member '" + m.name() + "' has the incomplete type '" + inner + "'");
        }
        return t;
    }

    /**
     * The type of array {@code name} of {@code length} {@code element}s, refused where its byte size passes
     * {@link Limits#MAX_OBJECT_BYTES} (it would not fit the engine's 32-bit offsets).
     */
    private CType.Array arrayOf(CType element, int length, Pos pos, String name) {
        long bytes = (long) element.size() * length;
        if (bytes > Limits.MAX_OBJECT_BYTES) {
            throw diags.fail(pos, "array '" + name + "' of " + length + " elements of type '" + element + "' has "
                    + bytes + " bytes, more than the " + Limits.MAX_OBJECT_BYTES + " bytes (2 GiB) one object may"
                    + " have on the CPU device's kernel engine; make it smaller");
        }
        return new CType.Array(element, length);
    }

    private int arraySize(Expr de) {
        Expr v = ex.value(de);
        if (!v.type().isInteger()) {
            throw diags.fail(de.pos(), "size of array has non-integer type '" + v.type() + "'");
        }
        Object c = ConstEval.eval(v, constValues);
        if (!(c instanceof Long n)) {
            throw diags.fail(de.pos(), "array size is not a constant expression");
        }
        if (n <= 0 || n > Integer.MAX_VALUE) {
            throw diags.fail(de.pos(), "array size must be positive (is " + n + ")");
        }
        return (int) (long) n;
    }

    private static CType innermost(CType t) {
        while (t instanceof CType.Array a) {
            t = a.element();
        }
        return t;
    }

    private static int flatSize(CType t) {
        int n = 1;
        while (t instanceof CType.Array a) {
            n *= Math.max(a.length(), 0);
            t = a.element();
        }
        return n;
    }

    /**
     * The elements of an array initializer in row-major order, converted to the scalar element type. Nested
     * braces for inner dimensions are padded with zeros; a flat list fills the elements in order. An element of
     * vector type is a braced list of components, a vector expression, or (braces elided) the next components.
     */
    private List<Expr> flatten(Syntax.InitList list, CType.Array a) {
        CType scalar = innermost(a);
        int inner = flatSize(a.element());
        long total = a.length() < 0 ? Long.MAX_VALUE : (long) a.length() * inner;
        boolean allFlat = list.items().stream().allMatch(x -> x instanceof Expr);
        List<Expr> out = new ArrayList<>();
        if (allFlat || !(a.element() instanceof CType.Array)) {
            List<Object> items = list.items();
            for (int at = 0; at < items.size(); at++) {
                Object item = items.get(at);
                Expr e;
                if (scalar instanceof CType.Struct st) {
                    out.add(item instanceof Syntax.InitList sub ? Structs.aggregate(ex, sub, st)
                            : ex.convert(ex.value((Expr) item), st, "in array initializer (give each struct "
                            + "element its own braces)"));
                    continue;
                }
                if (item instanceof Syntax.InitList sub && scalar instanceof CType.Vector vt) {
                    out.add(VectorTypes.aggregate(ex, sub, vt));
                    continue;
                } else if (item instanceof Expr first && scalar instanceof CType.Vector vt) {
                    Expr value = ex.value(first);
                    if (value.type() instanceof CType.Vector) {
                        out.add(ex.convert(value, vt, "in array initializer"));
                        continue;
                    }
                    // Brace elision, as C++ aggregate initialization allows: float2 a[2] = {1, 2, 3, 4} gives
                    // each vector the next components in order (the last one's missing components are zero).
                    List<Expr> components = new ArrayList<>(List.of(value));
                    while (components.size() < vt.length() && at + 1 < items.size()) {
                        Object next = items.get(++at);
                        if (next instanceof Syntax.InitList sub
                                && (sub.items().size() != 1 || !(sub.items().getFirst() instanceof Expr))) {
                            throw diags.fail(sub.pos(), "a component of '" + vt
                                    + "' must be initialized by a single expression");
                        }
                        components.add(ex.value(next instanceof Syntax.InitList sub
                                ? (Expr) sub.items().getFirst() : (Expr) next));
                    }
                    out.add(VectorTypes.fromComponents(ex, first.pos(), components, vt));
                    continue;
                } else if (item instanceof Syntax.InitList sub) {
                    if (sub.items().size() != 1 || !(sub.items().getFirst() instanceof Expr only)) {
                        throw diags.fail(sub.pos(), "scalar initializer must be a single expression");
                    }
                    e = only;
                } else {
                    e = (Expr) item;
                }
                out.add(ex.convert(ex.value(e), scalar, "in array initializer"));
            }
        } else {
            CType.Array inA = (CType.Array) a.element();
            for (Object item : list.items()) {
                if (!(item instanceof Syntax.InitList sub)) {
                    throw diags.fail(((Expr) item).pos(), "partially braced array initializers are not supported");
                }
                List<Expr> part = flatten(sub, inA);
                out.addAll(part);
                for (int i = part.size(); i < inner; i++) {
                    out.add(scalar instanceof CType.Struct st ? Structs.zero(st, sub.pos())
                            : scalar instanceof CType.Vector vt
                            ? VectorTypes.aggregate(ex, new Syntax.InitList(sub.pos(), List.of()), vt)
                            : ExprSema.cast(new Expr.IntConst(sub.pos(), Prim.INT, 0), scalar));
                }
            }
            if (a.length() >= 0 && list.items().size() > a.length()) {
                throw diags.fail(list.pos(), "excess elements in array initializer");
            }
        }
        if (out.size() > total) {
            throw diags.fail(list.pos(), "excess elements in array initializer");
        }
        return out;
    }

    // ---------------------------------------------------------------- template arguments

    /** Checks and evaluates one template argument for parameter {@code p}. */
    Program.TArg templateArg(Syntax.TParam p, Expr.TemplateArg a, Pos pos) {
        if (p.isType()) {
            if (a.type() == null) {
                throw diags.fail(pos, "template argument for '" + p.name() + "' must be a type");
            }
            return new Program.TArg(a.type(), null);
        }
        if (a.value() == null) {
            throw diags.fail(pos, "template argument for '" + p.name() + "' must be a constant expression, not a type");
        }
        Expr v = ex.value(a.value());
        Object c = v.type().isInteger() ? ConstEval.eval(v, constValues) : null;
        if (!(c instanceof Long l)) {
            throw diags.fail(a.value().pos(), "template argument for '" + p.name() + "' is not an integer constant expression");
        }
        return new Program.TArg(null, ConstEval.wrap(l, p.valueType()));
    }
}
