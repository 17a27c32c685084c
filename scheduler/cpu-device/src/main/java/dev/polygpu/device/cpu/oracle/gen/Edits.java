package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Edits of a {@link Program} tree for the shrinker: deleting statements, replacing a compound statement by its
 * parts, replacing expressions, and the checks that a smaller program is still whole (every variable it uses
 * still declared, every file-scope name it uses still defined). Every edit keeps the safety wrappers of the
 * generator: statements go or stay whole, and an expression is only replaced by a literal or by one of its own
 * operands of the same type and at most the same magnitude bound.
 */
final class Edits {
    private Edits() {
    }

    /** Where an expression sits: the statement's id, which of its expressions, and the path of operands. */
    record Site(int stmt, int slot, List<Integer> path) {
    }

    // Walking.

    /** Every statement of the program (kernel and function bodies), in pre-order. */
    static List<Stmt> statements(Program p) {
        List<Stmt> out = new ArrayList<>();
        for (Program.Item it : p.items()) {
            if (it.body() != null) {
                collect(it.body(), out);
            }
        }
        collect(p.body(), out);
        return out;
    }

    private static void collect(Stmt.Block b, List<Stmt> out) {
        for (Stmt s : b.stmts()) {
            out.add(s);
            for (Stmt.Block child : children(s)) {
                collect(child, out);
            }
        }
    }

    static List<Stmt.Block> children(Stmt s) {
        return switch (s) {
            case Stmt.If f -> f.els() == null ? List.of(f.then()) : List.of(f.then(), f.els());
            case Stmt.Loop l -> List.of(l.body());
            case Stmt.Switch w -> w.cases().stream().map(Stmt.Case::body).toList();
            case Stmt.Scope sc -> List.of(sc.body());
            default -> List.of();
        };
    }

    /** The expressions a statement holds directly, in slot order. */
    static List<Expr> exprs(Stmt s) {
        return switch (s) {
            case Stmt.Decl d -> d.init() == null ? List.of() : List.of(d.init());
            case Stmt.Simple x -> x.args();
            case Stmt.If f -> List.of(f.cond());
            case Stmt.Loop l -> l.args();
            case Stmt.Switch w -> List.of(w.sel());
            case Stmt.Return r -> r.value() == null ? List.of() : List.of(r.value());
            default -> List.of();
        };
    }

    // Rewriting.

    /** The program with every statement rewritten by {@code f} (bottom-up; null from f deletes it). */
    static Program rewrite(Program p, Function<Stmt, List<Stmt>> f) {
        List<Program.Item> items = new ArrayList<>();
        for (Program.Item it : p.items()) {
            items.add(it.body() == null ? it : new Program.Item(it.name(), it.text(), rewrite(it.body(), f)));
        }
        return new Program(items, p.params(), rewrite(p.body(), f), p.launch());
    }

    private static Stmt.Block rewrite(Stmt.Block b, Function<Stmt, List<Stmt>> f) {
        List<Stmt> out = new ArrayList<>();
        for (Stmt s : b.stmts()) {
            Stmt inner = switch (s) {
                case Stmt.If x -> new Stmt.If(x.id(), x.cond(), rewrite(x.then(), f),
                        x.els() == null ? null : rewrite(x.els(), f));
                case Stmt.Loop x -> new Stmt.Loop(x.id(), x.kind(), x.header(), x.args(), x.declares(),
                        rewrite(x.body(), f));
                case Stmt.Switch x -> new Stmt.Switch(x.id(), x.sel(), x.cases().stream()
                        .map(k -> new Stmt.Case(k.labels(), k.isDefault(), rewrite(k.body(), f))).toList());
                case Stmt.Scope x -> new Stmt.Scope(x.id(), rewrite(x.body(), f));
                default -> s;
            };
            out.addAll(f.apply(inner));
        }
        return new Stmt.Block(out);
    }

    /** The program without the statements whose ids are in {@code ids}. */
    static Program delete(Program p, Set<Integer> ids) {
        return rewrite(p, s -> ids.contains(s.id()) ? List.of() : List.of(s));
    }

    /** The program with statement {@code id} replaced by {@code with}. */
    static Program replace(Program p, int id, List<Stmt> with) {
        return rewrite(p, s -> s.id() == id ? with : List.of(s));
    }

    /** The program with the expressions at the given sites replaced. */
    static Program replaceExprs(Program p, Map<Site, Expr> edits) {
        Map<Integer, Map<Site, Expr>> byStmt = new HashMap<>();
        edits.forEach((site, e) -> byStmt.computeIfAbsent(site.stmt(), k -> new HashMap<>()).put(site, e));
        return rewrite(p, s -> {
            Map<Site, Expr> mine = byStmt.get(s.id());
            return List.of(mine == null ? s : withExprs(s, mine));
        });
    }

    private static Stmt withExprs(Stmt s, Map<Site, Expr> edits) {
        List<Expr> es = new ArrayList<>(exprs(s));
        for (int slot = 0; slot < es.size(); slot++) {
            es.set(slot, replaceIn(es.get(slot), s.id(), slot, new ArrayList<>(), edits));
        }
        return switch (s) {
            case Stmt.Decl d -> new Stmt.Decl(d.id(), d.quals(), d.var(), es.get(0), d.form());
            case Stmt.Simple x -> new Stmt.Simple(x.id(), x.template(), es, x.kept());
            case Stmt.If f -> new Stmt.If(f.id(), es.get(0), f.then(), f.els());
            case Stmt.Loop l -> new Stmt.Loop(l.id(), l.kind(), l.header(), es, l.declares(), l.body());
            case Stmt.Switch w -> new Stmt.Switch(w.id(), es.get(0), w.cases());
            case Stmt.Return r -> new Stmt.Return(r.id(), es.get(0));
            default -> s;
        };
    }

    private static Expr replaceIn(Expr e, int stmt, int slot, List<Integer> path, Map<Site, Expr> edits) {
        Expr with = edits.get(new Site(stmt, slot, List.copyOf(path)));
        if (with != null) {
            return with;
        }
        if (e.args().isEmpty()) {
            return e;
        }
        List<Expr> args = new ArrayList<>();
        for (int i = 0; i < e.args().size(); i++) {
            path.add(i);
            args.add(replaceIn(e.args().get(i), stmt, slot, path, edits));
            path.removeLast();
        }
        return e.withArgs(args);
    }

    /** Every expression the shrinker may replace (scalar, not fixed), with its site, outermost first. */
    static List<Map.Entry<Site, Expr>> replaceable(Program p) {
        List<Map.Entry<Site, Expr>> out = new ArrayList<>();
        for (Stmt s : statements(p)) {
            List<Expr> es = exprs(s);
            for (int slot = 0; slot < es.size(); slot++) {
                sites(es.get(slot), s.id(), slot, new ArrayList<>(), out);
            }
        }
        return out;
    }

    private static void sites(Expr e, int stmt, int slot, List<Integer> path, List<Map.Entry<Site, Expr>> out) {
        if (e.type() instanceof Prim && !e.fixed() && e.kind() != Expr.Kind.LIT) {
            out.add(Map.entry(new Site(stmt, slot, List.copyOf(path)), e));
        }
        for (int i = 0; i < e.args().size(); i++) {
            path.add(i);
            sites(e.args().get(i), stmt, slot, path, out);
            path.removeLast();
        }
    }

    /** The simpler expressions {@code e} may become: zero, then its operands that keep its type and bound. */
    static List<Expr> simpler(Expr e) {
        List<Expr> out = new ArrayList<>();
        Prim t = (Prim) e.type();
        out.add(literal(t, 0));
        for (Expr a : e.args()) {
            if (a.type() == t && a.bits() <= e.bits() && !a.fixed()) {
                out.add(a);
            }
        }
        out.add(literal(t, 1));
        return out;
    }

    /** A literal of exactly type {@code t} with the small value {@code v} (0 or 1). */
    static Expr literal(Prim t, int v) {
        String text = switch (t) {
            case BOOL -> v == 0 ? "false" : "true";
            case INT -> Integer.toString(v);
            case UINT -> v + "u";
            case LONG -> v + "l";
            case ULONG -> v + "ul";
            case LLONG -> v + "ll";
            case ULLONG -> v + "ull";
            case FLOAT -> v + ".0f";
            case DOUBLE -> v + ".0";
            case HALF -> "__float2half(" + v + ".0f)";
            default -> "(" + t.c() + ")" + v;
        };
        return Expr.lit(t, text, v);
    }

    // Wholeness.

    /** The variables the program's statements refer to. */
    static Set<Var> used(Program p) {
        Set<Var> out = new HashSet<>();
        for (Stmt s : statements(p)) {
            for (Expr e : exprs(s)) {
                vars(e, out);
            }
        }
        return out;
    }

    private static void vars(Expr e, Set<Var> out) {
        if (e.var() != null) {
            out.add(e.var());
        }
        for (Expr a : e.args()) {
            vars(a, out);
        }
    }

    /** The variables the program declares: parameters, declarations, loop counters, file-scope items. */
    static Set<Var> declared(Program p) {
        Set<Var> out = new HashSet<>();
        for (Program.Param par : p.params()) {
            out.add(par.var());
        }
        for (Stmt s : statements(p)) {
            if (s instanceof Stmt.Decl d) {
                out.add(d.var());
            } else if (s instanceof Stmt.Loop l) {
                out.addAll(l.declares());
            }
        }
        return out;
    }

    private static final Pattern NAME = Pattern.compile("@([A-Za-z_][A-Za-z0-9_]*)");

    /**
     * True if the program is whole: every variable used is declared (a local's declaration stays where it was,
     * so it is still in scope), every file-scope name used is defined, and no file-scope variable without its
     * item. Parameters and function-local names are checked by the first rule; function parameters are always
     * declared by their function's signature.
     */
    static boolean whole(Program p) {
        Set<Var> declared = declared(p);
        Set<String> items = new HashSet<>();
        for (Program.Item it : p.items()) {
            items.add(it.name());
        }
        for (Var v : used(p)) {
            if (v.global) {
                if (!items.contains(v.name)) {
                    return false;
                }
            } else if (!declared.contains(v) && !v.name.startsWith("prm")) {
                return false;
            }
        }
        String text = Printer.print(p, "@");
        Matcher m = NAME.matcher(text);
        while (m.find()) {
            String n = m.group(1);
            if (!n.equals("kernel") && !items.contains(n)) {
                return false;
            }
        }
        return true;
    }

    /**
     * True if a break (with {@code breaks}) or a continue (with {@code continues}) in {@code b} would leave it:
     * one not inside a loop nested in it (nor, for a break, inside a nested switch).
     */
    static boolean hasLooseJump(Stmt.Block b, boolean breaks, boolean continues) {
        for (Stmt s : b.stmts()) {
            if (s instanceof Stmt.Jump j && (j.isBreak() ? breaks : continues)) {
                return true;
            }
            if (s instanceof Stmt.Loop) {
                continue;
            }
            boolean innerBreaks = breaks && !(s instanceof Stmt.Switch);
            for (Stmt.Block c : children(s)) {
                if (hasLooseJump(c, innerBreaks, continues)) {
                    return true;
                }
            }
        }
        return false;
    }
}
