package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Var;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Resolves calls: {@code __device__} functions (overloads by argument types, templates by explicit arguments
 * or deduction), then the built-ins of {@link IntrinsicTable} (also where the program only declares one, as
 * code written against libdevice does), and names the unsupported ones.
 */
final class CallSema {
    private static final Set<String> QUALIFIER_WORDS = Set.of("const", "volatile", "__restrict__", "restrict",
            "__restrict");
    private final ExprSema es;
    private final Diagnostics diags;

    CallSema(ExprSema es) {
        this.es = es;
        this.diags = es.diags;
    }

    Expr call(Expr.CallByName c) {
        String name = c.name();
        Program prog = es.s.prog;
        if (prog.hasFunction(name) && es.s.lookup(name) == null && !declaredBuiltin(c)) {
            return userCall(c);
        }
        CType.Vector made = c.templateArgs() == null ? VectorTypes.constructed(name) : null;
        if (made != null) {
            return VectorTypes.make(es, c.pos(), name, made, values(c.args()));
        }
        if (c.templateArgs() == null && PrintfSema.handles(name)) {
            return PrintfSema.resolve(c, es);
        }
        if (c.templateArgs() == null && HalfSema.handles(name)) {
            return HalfSema.resolve(name, c.pos(), values(c.args()), es);
        }
        if (c.templateArgs() == null && IntrinsicTable.knows(name)) {
            return IntrinsicTable.resolve(name, c.pos(), values(c.args()), es);
        }
        String msg = Unsupported.callMessage(name);
        if (msg != null) {
            throw diags.fail(c.pos(), msg);
        }
        Var v = es.s.lookup(name);
        if (v != null) {
            throw diags.fail(c.pos(), "called object type '" + v.type + "' is not a function");
        }
        throw diags.fail(c.pos(), "no function named '" + name + "'");
    }

    /**
     * A built-in the program only declares, as code written against libdevice does
     * ({@code extern "C" __device__ double __nv_sin(double);}): the declaration names the built-in.
     */
    private boolean declaredBuiltin(Expr.CallByName c) {
        Program prog = es.s.prog;
        return c.templateArgs() == null && IntrinsicTable.knows(c.name()) && prog.template(c.name()) == null
                && prog.declarations(c.name()).stream().allMatch(d -> d.body() == null);
    }

    private List<Expr> values(List<Expr> args) {
        List<Expr> out = new ArrayList<>(args.size());
        for (Expr a : args) {
            out.add(es.value(a));
        }
        return out;
    }

    private Expr userCall(Expr.CallByName c) {
        String name = c.name();
        Program prog = es.s.prog;
        List<Expr> args = values(c.args());
        List<Syntax.FuncDecl> defs = prog.declarations(name);
        Syntax.TemplateDecl td = prog.template(name);
        if (c.templateArgs() != null || (defs.isEmpty() && td != null)) {
            return templateCall(c, td, args);
        }
        Syntax.FuncDecl best = null;
        int bestScore = Integer.MAX_VALUE;
        boolean tie = false;
        for (Syntax.FuncDecl d : defs) {
            int sc = score(d.params(), args);
            if (sc < bestScore) {
                best = d;
                bestScore = sc;
                tie = false;
            } else if (sc == bestScore && sc != Integer.MAX_VALUE && !sameSignature(best, d)) {
                tie = true;
            }
        }
        if (best == null) {
            if (td != null) {
                return templateCall(c, td, args);
            }
            if (defs.size() == 1) {
                Syntax.FuncDecl d = defs.getFirst();
                if (d.params().size() != args.size()) {
                    throw diags.fail(c.pos(), arity(name, d.params().size(), args.size()));
                }
                // Same arity: convert() below names the offending argument.
                best = d;
            } else {
                throw diags.fail(c.pos(), "no matching function for call to '" + name + "' with "
                        + args.size() + " argument" + (args.size() == 1 ? "" : "s") + " of types " + types(args));
            }
        }
        if (tie) {
            throw diags.fail(c.pos(), "call to '" + name + "' is ambiguous");
        }
        if (best.kernel()) {
            throw diags.fail(c.pos(), "cannot call __global__ function '" + name + "' from device code");
        }
        Syntax.FuncDecl def = prog.definitionOf(best);
        if (def == null) {
            throw diags.fail(c.pos(), "function '" + name + "' is declared but never defined");
        }
        Program.Analyzed a = prog.analyze(def);
        return finish(c, name, a, args);
    }

    private Expr finish(Expr.CallByName c, String name, Program.Analyzed a, List<Expr> args) {
        if (a == null) {
            throw diags.fail(c.pos(), "recursive __device__ function '" + name + "' is not supported by the CPU "
                    + "device's kernel engine; rewrite it as a loop (with a local array as an explicit stack if it "
                    + "needs one)");
        }
        diags.addAll(a.errors());
        Function fn = a.fn();
        if (fn == null) {
            throw new Diagnostics.Abort(); // the instantiation did not parse: its errors are recorded above
        }
        List<Expr> conv = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            conv.add(es.convert(args.get(i), fn.params.get(i).type, "for argument " + (i + 1) + " of '" + name + "'"));
        }
        return new Expr.Call(c.pos(), fn.returnType, fn, conv);
    }

    private static String arity(String name, int expected, int actual) {
        return "function '" + name + "' expects " + expected + " argument" + (expected == 1 ? "" : "s") + ", but "
                + actual + (actual == 1 ? " was" : " were") + " given";
    }

    private static String types(List<Expr> args) {
        List<String> ts = new ArrayList<>();
        for (Expr a : args) {
            ts.add("'" + a.type() + "'");
        }
        return "(" + String.join(", ", ts) + ")";
    }

    private static boolean sameSignature(Syntax.FuncDecl a, Syntax.FuncDecl b) {
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

    /** Cost of calling with these arguments (0: exact), MAX_VALUE if impossible. */
    private static int score(List<Syntax.Param> params, List<Expr> args) {
        if (params.size() != args.size()) {
            return Integer.MAX_VALUE;
        }
        int total = 0;
        for (int i = 0; i < args.size(); i++) {
            CType from = args.get(i).type();
            CType to = params.get(i).type();
            if (from.equals(to)) {
                continue;
            }
            if (from.isArithmetic() && to.isArithmetic()) {
                total += Types.promote(from).equals(to) ? 1 : from.isFloating() == to.isFloating() ? 2 : 3;
            } else if (to.isPointer() && (ExprSema.isNullConstant(args.get(i))
                    || (from.isPointer() && ((CType.Pointer) to).pointee() == CType.Prim.VOID))) {
                total += 2;
            } else {
                return Integer.MAX_VALUE;
            }
        }
        return total;
    }

    private Expr templateCall(Expr.CallByName c, Syntax.TemplateDecl td, List<Expr> args) {
        String name = c.name();
        if (td == null) {
            throw diags.fail(c.pos(), "'" + name + "' is not a template");
        }
        List<Expr.TemplateArg> explicit = c.templateArgs() == null ? List.of() : c.templateArgs();
        int n = td.params().size();
        if (explicit.size() > n) {
            throw diags.fail(c.pos(), "too many template arguments for '" + name + "': expected " + n + ", have "
                    + explicit.size());
        }
        if (td.paramDecls().size() != args.size()) {
            throw diags.fail(c.pos(), arity(name, td.paramDecls().size(), args.size()));
        }
        Program.TArg[] bound = new Program.TArg[n];
        for (int i = 0; i < explicit.size(); i++) {
            bound[i] = es.s.templateArg(td.params().get(i), explicit.get(i), c.pos());
        }
        deduce(c, td, args, bound, explicit.size());
        for (int i = 0; i < n; i++) {
            if (bound[i] == null) {
                throw diags.fail(c.pos(), "cannot deduce template argument '" + td.params().get(i).name()
                        + "' for call to '" + name + "'");
            }
        }
        if (td.kernel()) {
            throw diags.fail(c.pos(), "cannot call __global__ function '" + name + "' from device code");
        }
        if (es.s.prog.instantiationDepth() >= Limits.MAX_TEMPLATE_DEPTH) {
            throw diags.fail(c.pos(), "excessive recursion at instantiation of '"
                    + Program.instanceName(td, List.of(bound)) + "': more than " + Limits.MAX_TEMPLATE_DEPTH
                    + " template instantiations nested inside each other (nvcc's default limit,"
                    + " --pending_instantiations); end the recursion (an 'if constexpr' on the"
                    + " template argument) or write it as a loop");
        }
        Program.Analyzed a = es.s.prog.instantiate(td, List.of(bound), diags);
        return finish(c, name, a, args);
    }

    /**
     * Binds type parameters from parameters declared as {@code T}, {@code T*}, {@code const T*}, … The first
     * {@code explicitCount} template parameters were given explicitly ({@code f<unsigned char>(u, 3)}): as in C++,
     * their arguments deduce nothing and convert to the given type.
     */
    private void deduce(Expr.CallByName c, Syntax.TemplateDecl td, List<Expr> args, Program.TArg[] bound,
            int explicitCount) {
        for (int i = 0; i < args.size(); i++) {
            List<Token> t = new ArrayList<>();
            for (Token tok : td.paramDecls().get(i)) {
                if (!QUALIFIER_WORDS.contains(tok.text)) {
                    t.add(tok);
                }
            }
            if (t.size() >= 2 && t.getLast().kind == Token.Kind.IDENT) {
                t.removeLast();
            }
            if (t.isEmpty() || t.getFirst().kind != Token.Kind.IDENT) {
                continue;
            }
            int p = -1;
            for (int q = 0; q < td.params().size(); q++) {
                if (td.params().get(q).isType() && td.params().get(q).name().equals(t.getFirst().text)) {
                    p = q;
                }
            }
            if (p < explicitCount || t.stream().skip(1).anyMatch(x -> !x.is("*"))) {
                continue;
            }
            CType at = args.get(i).type();
            for (int s = 1; s < t.size(); s++) {
                if (!(at instanceof CType.Pointer ptr)) {
                    throw diags.fail(args.get(i).pos(), "cannot deduce template argument '"
                            + td.params().get(p).name() + "' from argument of type '" + args.get(i).type() + "'");
                }
                at = ptr.pointee();
            }
            if (bound[p] == null) {
                bound[p] = new Program.TArg(at, null);
            } else if (bound[p].type() != null && !bound[p].type().equals(at)) {
                throw diags.fail(c.pos(), "conflicting types deduced for template parameter '"
                        + td.params().get(p).name() + "' ('" + bound[p].type() + "' vs '" + at + "')");
            }
        }
    }
}
