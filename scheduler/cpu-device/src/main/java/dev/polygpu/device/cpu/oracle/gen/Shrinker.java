package dev.polygpu.device.cpu.oracle.gen;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reduces a failing generated program while it keeps failing the same way ({@link #signature}): same result
 * kind, and for a difference the same buffer. Works on the program tree, not on text, so that what it removes
 * or simplifies keeps the generator's guarantees: statements go whole (an exchange with its two barriers is one
 * statement), compound statements are replaced by their own arms or bodies, expressions by a literal or an
 * operand of the same type and magnitude bound; a candidate that is not whole ({@link Edits#whole}) is never
 * run. Deletions use delta debugging (ddmin) over the statements and over the expressions; candidates go to the
 * oracle in batches, so one nvcc run tests many of them.
 */
public final class Shrinker {
    /** What the shrinker runs candidates through: the differential oracle, or a predicate in tests. */
    @FunctionalInterface
    public interface Oracle {
        List<OracleResult> checkAll(List<OracleCase> cases);
    }

    /** The reduced program, its result, and how many oracle calls and cases it took. */
    public record Result(Program program, OracleResult result, int calls, int cases) {
    }

    private final Oracle oracle;
    private final int batch;
    private final int maxCalls;
    private String name;
    private String signature;
    private Program current;
    private OracleResult currentResult;
    private String currentText;
    private int calls;
    private int cases;
    private int serial;

    /**
     * @param oracle runs candidates
     * @param batch how many candidates go to one oracle call
     * @param maxCalls the most oracle calls one {@link #shrink} makes before it returns what it has
     */
    public Shrinker(Oracle oracle, int batch, int maxCalls) {
        if (batch < 1 || maxCalls < 1) {
            throw new IllegalArgumentException("batch and maxCalls must be positive, got " + batch + " and " + maxCalls);
        }
        this.oracle = oracle;
        this.batch = batch;
        this.maxCalls = maxCalls;
    }

    /**
     * What must stay the same while shrinking: the result's kind, and its buffer (a difference), side (a
     * rejection or an internal error) and the gist of its message (digits and quoted names left out).
     */
    public static String signature(OracleResult r) {
        return switch (r) {
            case OracleResult.Equal e -> "Equal";
            case OracleResult.Differ d -> "Differ:" + d.buffer();
            case OracleResult.Rejected j -> "Rejected:" + (j.bothSides() ? "BOTH" : j.side()) + ":" + gist(j.message());
            case OracleResult.Internal i -> "Internal:" + i.side() + ":" + gist(i.exceptionText());
        };
    }

    /** The part of an error message that names the kind of problem, not where it happened. */
    static String gist(String message) {
        String m = message;
        int err = m.indexOf("error: ");
        if (err >= 0) {
            m = m.substring(err + 7);
        }
        int nl = m.indexOf('\n');
        if (nl >= 0) {
            m = m.substring(0, nl);
        }
        int colon = m.lastIndexOf("): ");
        if (colon >= 0 && m.startsWith("kernel '")) {
            m = m.substring(colon + 3);
        }
        m = m.replaceAll("'[^']*'", "'_'").replaceAll("\\(in '.*", "").replaceAll("[0-9]+", "#");
        return m.length() > 120 ? m.substring(0, 120) : m;
    }

    /** Shrinks {@code p}, which failed with {@code failure}; {@code name} names the candidates' cases. */
    public Result shrink(String caseName, Program p, OracleResult failure) {
        this.name = caseName;
        this.signature = signature(failure);
        this.current = p;
        this.currentResult = failure;
        this.currentText = Printer.print(p, "@");
        this.calls = 0;
        this.cases = 0;
        boolean progress = true;
        while (progress && calls < maxCalls) {
            progress = statements();
            progress |= items();
            progress |= unwrap();
            progress |= expressionsToZero();
            progress |= launch();
            progress |= params();
            if (!progress) {
                progress = expressionsToOperands();
            }
        }
        return new Result(current, currentResult, calls, cases);
    }

    /**
     * The first candidate, in order, that is whole, differs from the current program and fails the same way;
     * it becomes the current program. False if none does (or the call budget is spent).
     */
    private boolean accept(List<Program> candidates) {
        List<Program> fresh = new ArrayList<>();
        Set<String> texts = new HashSet<>();
        for (Program c : candidates) {
            if (!Edits.whole(c)) {
                continue;
            }
            String text = Printer.print(c, "@");
            if (!text.equals(currentText) && texts.add(text)) {
                fresh.add(c);
            }
        }
        for (int from = 0; from < fresh.size() && calls < maxCalls; from += batch) {
            List<Program> chunk = fresh.subList(from, Math.min(fresh.size(), from + batch));
            List<OracleCase> cs = new ArrayList<>();
            for (Program c : chunk) {
                cs.add(GeneratedKernel.toCase(name, c, "s" + (serial++) + "_"));
            }
            calls++;
            cases += cs.size();
            List<OracleResult> rs = oracle.checkAll(cs);
            for (int i = 0; i < rs.size(); i++) {
                if (signature(rs.get(i)).equals(signature)) {
                    current = chunk.get(i);
                    currentResult = rs.get(i);
                    currentText = Printer.print(current, "@");
                    return true;
                }
            }
        }
        return false;
    }

    /** ddmin: removes chunks of {@code edits} (applied by {@code apply}) while the failure stays. */
    private <E> boolean ddmin(List<E> edits, Function<Set<E>, Program> apply) {
        List<E> remaining = new ArrayList<>(edits);
        boolean any = false;
        int n = 2;
        while (!remaining.isEmpty() && calls < maxCalls) {
            int chunk = (remaining.size() + n - 1) / n;
            List<Program> candidates = new ArrayList<>();
            List<List<E>> subsets = new ArrayList<>();
            for (int from = 0; from < remaining.size(); from += chunk) {
                List<E> sub = remaining.subList(from, Math.min(remaining.size(), from + chunk));
                subsets.add(List.copyOf(sub));
                candidates.add(apply.apply(new HashSet<>(sub)));
            }
            if (accept(candidates)) {
                any = true;
                for (int k = 0; k < candidates.size(); k++) {
                    if (candidates.get(k) == current) {
                        remaining.removeAll(subsets.get(k));
                    }
                }
                n = Math.max(n - 1, 2);
                continue;
            }
            if (chunk == 1) {
                break;
            }
            n = Math.min(n * 2, remaining.size());
        }
        return any;
    }

    /** Drops file-scope items: first all that nothing names any more, then by ddmin. */
    private boolean items() {
        List<Program.Item> referenced = new ArrayList<>();
        for (Program.Item it : current.items()) {
            List<Program.Item> others = new ArrayList<>(current.items());
            others.remove(it);
            if (!Edits.whole(current.withItems(others))) {
                referenced.add(it);
            }
        }
        boolean any = referenced.size() < current.items().size() && accept(List.of(current.withItems(referenced)));
        List<String> names = current.items().stream().map(Program.Item::name).toList();
        return ddmin(names, drop -> current.withItems(current.items().stream()
                .filter(it -> !drop.contains(it.name())).toList())) || any;
    }

    private boolean statements() {
        List<Integer> ids = new ArrayList<>();
        for (Stmt s : Edits.statements(current)) {
            if (!(s instanceof Stmt.Return) && !(s instanceof Stmt.Simple x && x.kept())) {
                ids.add(s.id());
            }
        }
        return ddmin(ids, del -> Edits.delete(current, del));
    }

    private boolean unwrap() {
        boolean any = false;
        boolean again = true;
        while (again && calls < maxCalls) {
            List<Program> candidates = new ArrayList<>();
            for (Stmt s : Edits.statements(current)) {
                for (List<Stmt> with : unwrappings(s)) {
                    candidates.add(Edits.replace(current, s.id(), with));
                }
            }
            again = accept(candidates);
            any |= again;
        }
        return any;
    }

    /** What a compound statement may be replaced by: one of its arms, its body, or its statements inline. */
    private static List<List<Stmt>> unwrappings(Stmt s) {
        List<List<Stmt>> out = new ArrayList<>();
        switch (s) {
            case Stmt.If f -> {
                out.add(List.of(new Stmt.Scope(f.id(), f.then())));
                if (f.els() != null) {
                    out.add(List.of(new Stmt.Scope(f.id(), f.els())));
                    out.add(List.of(new Stmt.If(f.id(), f.cond(), f.then(), null)));
                }
            }
            case Stmt.Loop l -> {
                Set<Var> inBody = Edits.used(new Program(List.of(), List.of(), l.body(), LaunchConfig.of(1, 1)));
                boolean counters = l.declares().stream().anyMatch(inBody::contains);
                if (!counters && !Edits.hasLooseJump(l.body(), true, true)) {
                    out.add(List.of(new Stmt.Scope(l.id(), l.body())));
                }
            }
            case Stmt.Switch w -> {
                for (Stmt.Case c : w.cases()) {
                    List<Stmt> body = new ArrayList<>(c.body().stmts());
                    body.removeIf(x -> x instanceof Stmt.Jump j && j.isBreak());
                    if (!Edits.hasLooseJump(new Stmt.Block(body), true, false)) {
                        out.add(List.of(new Stmt.Scope(w.id(), new Stmt.Block(body))));
                    }
                }
            }
            case Stmt.Scope sc -> out.add(sc.body().stmts());
            default -> {
                // Simple statements have no parts.
            }
        }
        return out;
    }

    private boolean expressionsToZero() {
        List<Edits.Site> sites = new ArrayList<>();
        Map<Edits.Site, Expr> zeros = new LinkedHashMap<>();
        for (Map.Entry<Edits.Site, Expr> e : Edits.replaceable(current)) {
            sites.add(e.getKey());
            zeros.put(e.getKey(), Edits.literal((Prim) e.getValue().type(), 0));
        }
        return ddmin(sites, chosen -> {
            Map<Edits.Site, Expr> edits = new LinkedHashMap<>();
            for (Edits.Site s : chosen) {
                edits.put(s, zeros.get(s));
            }
            return Edits.replaceExprs(current, edits);
        });
    }

    private boolean expressionsToOperands() {
        List<Program> candidates = new ArrayList<>();
        for (Map.Entry<Edits.Site, Expr> e : Edits.replaceable(current)) {
            for (Expr simpler : Edits.simpler(e.getValue())) {
                candidates.add(Edits.replaceExprs(current, Map.of(e.getKey(), simpler)));
            }
        }
        return accept(candidates);
    }

    private boolean launch() {
        LaunchConfig l = current.launch();
        if (l.grid().x() * l.grid().y() * l.grid().z() == 1) {
            return false;
        }
        LaunchConfig one = new LaunchConfig(new Dim3(1, 1, 1), l.block(), l.dynamicSharedBytes());
        return accept(List.of(current.withLaunch(one)));
    }

    private boolean params() {
        Set<Var> used = Edits.used(current);
        List<Program.Param> kept = new ArrayList<>();
        for (Program.Param p : current.params()) {
            if (used.contains(p.var())) {
                kept.add(p);
            }
        }
        if (kept.size() == current.params().size()) {
            return false;
        }
        return accept(List.of(current.withParams(kept)));
    }
}
