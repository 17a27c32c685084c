package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** The variables visible at a point of a generated program: a chain of nested scopes. */
final class Scope {
    private final Scope parent;
    private final List<Var> vars = new ArrayList<>();

    Scope(Scope parent) {
        this.parent = parent;
    }

    Scope child() {
        return new Scope(this);
    }

    void add(Var v) {
        vars.add(v);
    }

    /** The visible variables that satisfy {@code p}, outermost first. */
    List<Var> find(Predicate<Var> p) {
        List<Var> out = parent == null ? new ArrayList<>() : parent.find(p);
        for (Var v : vars) {
            if (p.test(v)) {
                out.add(v);
            }
        }
        return out;
    }

    /** The variables declared in this scope itself. */
    List<Var> own() {
        return List.copyOf(vars);
    }
}
