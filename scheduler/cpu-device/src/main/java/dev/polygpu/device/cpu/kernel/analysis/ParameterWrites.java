package dev.polygpu.device.cpu.kernel.analysis;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.kernel.front.TranslationUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which pointer parameters of a kernel its source writes through, found on the front end's typed AST before
 * anything runs: so that a kernel whose signature declares a parameter read-only ({@code in}, {@code const}) but
 * which stores into it can be scheduled as writing it, on any device.
 *
 * <p>What it sees: stores ({@code =}, compound assignments, {@code ++}/{@code --}) and atomics whose address is
 * a parameter plus offsets, casts, {@code &p[i]}, a conditional between such pointers, or a local pointer (or a
 * reassigned parameter) that may hold one; and calls to {@code __device__} functions that write through the
 * parameter they receive such a pointer in. It is flow-insensitive, so it may report a write that never runs
 * (only a parameter's pointer reaching a store counts), and it misses pointers that pass through memory (an
 * array or struct of pointers), through integers, or through recursion. Those the CPU device's run-time check
 * still catches.
 */
public final class ParameterWrites {
    private final Map<Function, Map<Integer, Pos>> byFunction = new IdentityHashMap<>();
    private final Set<Function> inProgress = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    private ParameterWrites() {
    }

    /**
     * The pointer parameters kernel {@code kernel} of {@code source} writes through, by index, each with the
     * position (in the source) of the first such write found.
     *
     * @throws dev.polygpu.device.CompileException if the CPU device's front end does not accept the source
     * @throws dev.polygpu.device.DeviceException NOT_FOUND if the source has no such kernel
     */
    public static Map<Integer, Pos> of(String source, String fileName, String kernel) {
        TranslationUnit unit = FrontEnd.compile(source, fileName);
        return new ParameterWrites().writes(unit.kernel(kernel));
    }

    /** The same for an analyzed function. */
    public static Map<Integer, Pos> of(Function function) {
        return new ParameterWrites().writes(function);
    }

    private Map<Integer, Pos> writes(Function f) {
        Map<Integer, Pos> known = byFunction.get(f);
        if (known != null) {
            return known;
        }
        if (!inProgress.add(f) || f.body() == null) {
            return Map.of();
        }
        try {
            Map<Integer, Pos> found = new Scan(f).run();
            byFunction.put(f, found);
            return found;
        } finally {
            inProgress.remove(f);
        }
    }

    /** One function: which parameters each pointer variable may point into, then the writes through them. */
    private final class Scan {
        private final Function function;
        private final Map<Var, Set<Integer>> pointsInto = new HashMap<>();
        private final Map<Integer, Pos> writes = new TreeMap<>();
        private boolean changed;

        Scan(Function function) {
            this.function = function;
            for (int i = 0; i < function.params.size(); i++) {
                Var p = function.params.get(i);
                if (p.type.isPointer()) {
                    pointsInto.computeIfAbsent(p, v -> new HashSet<>()).add(i);
                }
            }
        }

        Map<Integer, Pos> run() {
            // aliases first, to a fixed point (a pointer copied along a chain of variables), then the writes
            do {
                changed = false;
                statement(function.body(), false);
            } while (changed);
            statement(function.body(), true);
            return Map.copyOf(writes);
        }

        private void statement(Stmt s, boolean record) {
            switch (s) {
                case Stmt.Block b -> b.statements().forEach(x -> statement(x, record));
                case Stmt.VarDecl d -> {
                    if (d.init() != null) {
                        expression(d.init(), record);
                        flow(d.var(), d.init());
                    }
                    if (d.arrayInit() != null) {
                        d.arrayInit().forEach(e -> expression(e, record));
                    }
                }
                case Stmt.ExprStmt e -> expression(e.expr(), record);
                case Stmt.If i -> {
                    expression(i.condition(), record);
                    statement(i.then(), record);
                    if (i.otherwise() != null) {
                        statement(i.otherwise(), record);
                    }
                }
                case Stmt.While w -> {
                    expression(w.condition(), record);
                    statement(w.body(), record);
                }
                case Stmt.DoWhile w -> {
                    statement(w.body(), record);
                    expression(w.condition(), record);
                }
                case Stmt.For f -> {
                    f.init().forEach(x -> statement(x, record));
                    if (f.condition() != null) {
                        expression(f.condition(), record);
                    }
                    if (f.update() != null) {
                        expression(f.update(), record);
                    }
                    statement(f.body(), record);
                }
                case Stmt.Return r -> {
                    if (r.value() != null) {
                        expression(r.value(), record);
                    }
                }
                case Stmt.Switch w -> {
                    expression(w.selector(), record);
                    w.cases().forEach(c -> c.statements().forEach(x -> statement(x, record)));
                }
                default -> {
                    // break, continue, an empty statement: nothing to see
                }
            }
        }

        private void expression(Expr e, boolean record) {
            for (Expr child : Exprs.children(e)) {
                expression(child, record);
            }
            switch (e) {
                case Expr.Assign a -> {
                    if (a.target() instanceof Expr.VarRef v) {
                        flow(v.var(), a.value());
                    }
                    written(a.target(), a.pos(), record);
                }
                case Expr.CompoundAssign a -> written(a.target(), a.pos(), record);
                case Expr.IncDec i -> written(i.target(), i.pos(), record);
                case Expr.IntrinsicCall c when record && isAtomic(c.intrinsic()) && !c.args().isEmpty() ->
                        note(pointer(c.args().get(0)), c.pos());
                case Expr.Call c when record -> {
                    Map<Integer, Pos> callee = writes(c.function());
                    for (int i = 0; i < c.args().size(); i++) {
                        if (callee.containsKey(i)) {
                            note(pointer(c.args().get(i)), c.pos());
                        }
                    }
                }
                default -> {
                    // reads and pure computations write nothing
                }
            }
        }

        private void written(Expr target, Pos pos, boolean record) {
            if (record) {
                note(memory(target), pos);
            }
        }

        private void flow(Var v, Expr value) {
            if (!v.type.isPointer()) {
                return;
            }
            Set<Integer> from = pointer(value);
            if (!from.isEmpty() && pointsInto.computeIfAbsent(v, x -> new HashSet<>()).addAll(from)) {
                changed = true;
            }
        }

        private void note(Set<Integer> params, Pos pos) {
            for (int p : params) {
                Pos first = writes.get(p);
                if (first == null || pos.line() < first.line()
                        || pos.line() == first.line() && pos.column() < first.column()) {
                    writes.put(p, pos);
                }
            }
        }

        /** The parameters whose memory the lvalue {@code e} is in (none for a variable of its own). */
        private Set<Integer> memory(Expr e) {
            return switch (e) {
                case Expr.Index i -> pointer(i.base());
                case Expr.Deref d -> pointer(d.pointer());
                case Expr.Field f -> memory(f.struct());
                case Expr.Component c -> memory(c.vector());
                case Expr.Cast c -> memory(c.operand());
                case Expr.BitCast c -> memory(c.operand());
                default -> Set.of();
            };
        }

        /** The parameters the pointer value {@code e} may point into. */
        private Set<Integer> pointer(Expr e) {
            return switch (e) {
                case Expr.VarRef v -> pointsInto.getOrDefault(v.var(), Set.of());
                case Expr.PtrAdd p -> pointer(p.pointer());
                case Expr.Cast c -> pointer(c.operand());
                case Expr.BitCast c -> pointer(c.operand());
                case Expr.AddrOf a -> memory(a.operand());
                case Expr.Decay d -> memory(d.array());
                case Expr.Assign a -> pointer(a.value());
                case Expr.Comma c -> pointer(c.right());
                case Expr.Conditional c -> union(pointer(c.ifTrue()), pointer(c.ifFalse()));
                case Expr.Call c when c.type() instanceof CType.Pointer -> {
                    Set<Integer> any = new HashSet<>();
                    c.args().forEach(a -> any.addAll(pointer(a)));
                    yield any;
                }
                default -> Set.of();
            };
        }
    }

    private static Set<Integer> union(Set<Integer> a, Set<Integer> b) {
        Set<Integer> u = new HashSet<>(a);
        u.addAll(b);
        return u;
    }

    private static boolean isAtomic(Intrinsic i) {
        return i.name().startsWith("ATOMIC_");
    }
}
