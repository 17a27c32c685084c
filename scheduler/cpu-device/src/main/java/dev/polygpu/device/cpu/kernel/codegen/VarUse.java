package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the kernel's own variables are declared, assigned and referenced, and from that what each becomes in the
 * region form ({@link RegionForm}'s class notes): kept in a JVM local, recomputed, or saved per thread.
 */
final class VarUse {
    private final Plan plan;
    /** The kernel's parameters and the variables its body declares, in declaration order. */
    private final List<Var> kernelVars = new ArrayList<>();
    private final Map<Var, Stmt.VarDecl> decls = new IdentityHashMap<>();
    /** How many times each variable is assigned (a declaration with an initializer counts once). */
    private final Map<Var, Integer> assignments = new IdentityHashMap<>();

    VarUse(Plan plan, Stmt body) {
        this.plan = plan;
        kernelVars.addAll(plan.kernel.params);
        Statements.forEachStmt(body, s -> {
            if (s instanceof Stmt.VarDecl d) {
                // A function written out twice (WarpInline) declares its variables twice.
                if (!decls.containsKey(d.var())) {
                    kernelVars.add(d.var());
                }
                decls.put(d.var(), d);
                if (d.init() != null) {
                    assignments.merge(d.var(), 1, Integer::sum);
                }
            }
        });
        Statements.forEachExpr(body, e -> {
            Var v = assignedVar(e);
            if (v != null) {
                assignments.merge(v, 1, Integer::sum);
            }
        });
    }

    /**
     * The variable in JVM locals that an assignment, compound assignment or increment stores into (itself, or a
     * component or member of it), or null.
     */
    static Var assignedVar(Expr e) {
        Expr target = switch (e) {
            case Expr.Assign a -> a.target();
            case Expr.CompoundAssign a -> a.target();
            case Expr.IncDec a -> a.target();
            default -> null;
        };
        while (target instanceof Expr.Component || target instanceof Expr.Field) {
            target = target instanceof Expr.Component c ? c.vector() : ((Expr.Field) target).struct();
        }
        return target instanceof Expr.VarRef v ? v.var() : null;
    }

    /** The variables that may be uniform: the body's own scalars and pointers held in JVM locals. */
    Set<Var> candidates() {
        Set<Var> out = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Var v : decls.keySet()) {
            Plan.Storage s = plan.storage.get(v);
            if (s == Plan.Storage.SCALAR || s == Plan.Storage.POINTER) {
                out.add(v);
            }
        }
        return out;
    }

    static boolean returns(Stmt.Block region) {
        boolean[] r = {false};
        Statements.forEachStmt(region, s -> r[0] |= s instanceof Stmt.Return);
        return r[0];
    }

    private boolean inRegisters(Var v) {
        Plan.Storage s = plan.storage.get(v);
        return s == Plan.Storage.SCALAR || s == Plan.Storage.POINTER || s == Plan.Storage.VECTOR;
    }

    private boolean singleAssignment(Var v) {
        Stmt.VarDecl d = decls.get(v);
        return d != null && d.init() != null && assignments.getOrDefault(v, 0) == 1;
    }

    /**
     * Decides what each variable becomes and fills in {@code form}'s regions; false if the kernel does not
     * qualify after all (a variable of the skeleton assigned in a region, or one the skeleton reads that is not
     * uniform).
     */
    boolean assign(RegionForm form, Uniformity u, Set<Var> skeletonAssigned, Set<Var> barrierTargets,
            List<Expr> skeletonRead) {
        int n = form.regions.size();
        List<Set<Var>> refs = new ArrayList<>();
        List<Set<Var>> declared = new ArrayList<>();
        List<Set<Var>> written = new ArrayList<>();
        List<Set<Var>> assigned = new ArrayList<>();
        for (RegionForm.Region r : form.regions) {
            Set<Var> ref = identitySet();
            Set<Var> dec = identitySet();
            Set<Var> wr = identitySet();
            Set<Var> as = identitySet();
            Stmt.Block b = new Stmt.Block(null, r.statements);
            Statements.forEachStmt(b, s -> {
                if (s instanceof Stmt.VarDecl d) {
                    dec.add(d.var());
                    // The lowering's temporary for a warp intrinsic's result is declared without a value a region
                    // before the one that gets the value: the declaration is no use of it. (Any other variable
                    // declared so starts at zero in each thread, which a later region must see.)
                    if (!(plan.lowering.isUnsetTemporary(d.var()) && inRegisters(d.var()))) {
                        ref.add(d.var());
                        wr.add(d.var());
                    }
                }
            });
            Statements.forEachExpr(b, e -> {
                if (e instanceof Expr.VarRef v) {
                    ref.add(v.var());
                }
                Var a = assignedVar(e);
                if (a != null) {
                    wr.add(a);
                    as.add(a);
                }
            });
            r.returns = returns(b);
            refs.add(ref);
            declared.add(dec);
            written.add(wr);
            assigned.add(as);
        }
        for (Var v : skeletonAssigned) {
            // A barrier's result variable is declared (and zeroed) in a region before the barrier sets it.
            for (Set<Var> w : barrierTargets.contains(v) ? assigned : written) {
                if (w.contains(v)) {
                    return false;
                }
            }
        }
        Set<Var> read = identitySet();
        for (Expr e : skeletonRead) {
            Statements.forEachNode(e, x -> {
                if (x instanceof Expr.VarRef v && !plan.constantParams.contains(v.var())
                        && !skeletonAssigned.contains(v.var())) {
                    read.add(v.var());
                }
            });
        }
        Set<Var> stable = identitySet();
        Set<Var> recomputable = identitySet();
        for (Var v : kernelVars) {
            Plan.Storage s = plan.storage.get(v);
            if (plan.constantParams.contains(v) || skeletonAssigned.contains(v)
                    || s != Plan.Storage.SCALAR && s != Plan.Storage.POINTER && s != Plan.Storage.VECTOR) {
                continue;
            }
            List<Integer> in = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (refs.get(i).contains(v)) {
                    in.add(i);
                }
            }
            boolean param = plan.kernel.params.contains(v);
            if (u.isUniform(v) && singleAssignment(v)) {
                stable.add(v);
            } else if (read.contains(v)) {
                if (!u.isUniform(v) || param) {
                    return false;
                }
                form.saved.add(v);
                form.skeletonSaved.add(v);
            } else if (param) {
                if (!in.isEmpty()) {
                    form.saved.add(v);
                    form.savedParams.add(v);
                }
            } else if (in.size() > 1 && singleAssignment(v) && s != Plan.Storage.VECTOR
                    && threadInvariant(decls.get(v).init(), stable, recomputable)) {
                recomputable.add(v);
                form.recomputed.put(v, decls.get(v).init());
            } else if (in.size() > 1) {
                form.saved.add(v);
            }
        }
        for (int i = 0; i < n; i++) {
            fill(form, form.regions.get(i), refs.get(i), declared.get(i), written.get(i));
        }
        return true;
    }

    private void fill(RegionForm form, RegionForm.Region r, Set<Var> ref, Set<Var> dec, Set<Var> wr) {
        for (Var v : form.saved) {
            if (ref.contains(v) && !dec.contains(v)) {
                r.loads.add(v);
            }
            if (wr.contains(v)) {
                r.stores.add(v);
                if (form.skeletonSaved.contains(v)) {
                    r.reloads.add(v);
                }
            }
        }
        Set<Var> need = new LinkedHashSet<>();
        for (Var v : kernelVars) {
            if (form.recomputed.containsKey(v) && ref.contains(v) && !dec.contains(v)) {
                dependencies(form, v, need);
            }
        }
        for (Var v : kernelVars) {
            if (need.contains(v) && !dec.contains(v)) {
                r.recompute.add(v);
            }
            if (plan.storage.get(v) == Plan.Storage.LOCAL_MEMORY && ref.contains(v)) {
                r.localMemory.add(v);
            }
        }
    }

    private static void dependencies(RegionForm form, Var v, Set<Var> need) {
        if (!need.add(v)) {
            return;
        }
        Statements.forEachNode(form.recomputed.get(v), x -> {
            if (x instanceof Expr.VarRef ref && form.recomputed.containsKey(ref.var())) {
                dependencies(form, ref.var(), need);
            }
        });
    }

    /**
     * True if {@code e} gives a thread the same value wherever it is evaluated after the variable's declaration:
     * built from constants, the thread's and block's coordinates and extents, parameters never assigned, stable
     * uniform variables and other such recomputed variables, with nothing that loads, stores, calls or faults.
     */
    private boolean threadInvariant(Expr e, Set<Var> stable, Set<Var> recomputable) {
        return switch (e) {
            case Expr.IntConst k -> true;
            case Expr.FloatConst k -> true;
            case Expr.VarRef v -> plan.constantParams.contains(v.var()) || stable.contains(v.var())
                    || recomputable.contains(v.var());
            case Expr.Builtin b -> true;
            case Expr.Unary x -> threadInvariant(x.operand(), stable, recomputable);
            case Expr.Binary b -> Uniformity.safeDivision(b.op(), b.operandType(), b.right())
                    && threadInvariant(b.left(), stable, recomputable)
                    && threadInvariant(b.right(), stable, recomputable);
            case Expr.Cast k -> threadInvariant(k.operand(), stable, recomputable);
            case Expr.Conditional q -> threadInvariant(q.condition(), stable, recomputable)
                    && threadInvariant(q.ifTrue(), stable, recomputable)
                    && threadInvariant(q.ifFalse(), stable, recomputable);
            case Expr.PtrAdd a -> threadInvariant(a.pointer(), stable, recomputable)
                    && threadInvariant(a.index(), stable, recomputable);
            default -> false;
        };
    }

    private static Set<Var> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }
}
