package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes of memory and aggregates: array elements at masked indices, struct members, vector
 * components, pointers within their window, inputs, and the thread's own slots of shared, {@code __device__}
 * and scratch memory. Every index is masked (or reduced modulo) into bounds here, so no shrinking of the index
 * expression can leave the array.
 */
final class Places {
    private final GenState g;
    private final ExprGen ex;
    /** The kernel's thread index in its block and in the grid; null in device functions. */
    Var tid;
    Var gid;

    Places(GenState g, ExprGen ex) {
        this.g = g;
        this.ex = ex;
    }

    /** True if a value of {@code t} contains a scalar of type {@code want} (any scalar if null). */
    static boolean hasLeaf(Ty t, Prim want) {
        return switch (t) {
            case Prim p -> want == null || p == want;
            case Ty.Vec v -> want == null || v.comp() == want;
            case Ty.Array a -> hasLeaf(a.elem(), want);
            case Ty.Struct s -> s.members().stream().anyMatch(m -> hasLeaf(m.type(), want));
            case Ty.Ptr p -> false;
        };
    }

    /** A read of a scalar of type {@code want} (any if null) from memory or an aggregate; null if none fits. */
    Expr read(Prim want, Ctx c, int depth, Level max) {
        List<Var> roots = c.scope.find(v -> readableRoot(v, c, want, max));
        if (roots.isEmpty()) {
            return null;
        }
        Var v = g.rng.pick(roots);
        return access(v, want, c, depth, max, false);
    }

    /** A writable scalar place of type {@code want} (any if null) that control of level {@code c.level} may write. */
    Expr lvalue(Prim want, Ctx c, int depth) {
        List<Var> roots = c.scope.find(v -> writableRoot(v, c, want));
        if (roots.isEmpty()) {
            return null;
        }
        Var v = g.rng.pick(roots);
        Expr e = access(v, want, c, depth, Level.THREAD, true);
        return e == null ? null : e.asFixed();
    }

    private boolean readableRoot(Var v, Ctx c, Prim want, Level max) {
        boolean ownSlot = v.storage == Var.Storage.SHARED || v.storage == Var.Storage.DEVICE
                || v.storage == Var.Storage.VOLATILE_SHARED;
        if (ownSlot && (!c.inKernel() || !Level.THREAD.within(max))) {
            return false;
        }
        if (v.type instanceof Prim) {
            return false;
        }
        if (v.storage == Var.Storage.OUTPUT) {
            return v == g.buffers.scratchOrNull() && c.inKernel() && Level.THREAD.within(max)
                    && hasLeaf(((Ty.Ptr) v.type).target(), want);
        }
        Ty t = v.type instanceof Ty.Ptr p ? p.target() : v.type;
        if (!(v.type instanceof Ty.Ptr) && !v.level.within(max)) {
            return false;
        }
        if (v.type instanceof Ty.Ptr && v.storage == Var.Storage.LOCAL && !v.level.within(max)) {
            return false;
        }
        return hasLeaf(t, want);
    }

    private boolean writableRoot(Var v, Ctx c, Prim want) {
        if (v.type instanceof Prim || !c.level.within(v.level)) {
            return false;
        }
        switch (v.storage) {
            case SHARED, DEVICE, VOLATILE_SHARED -> {
                if (!c.inKernel()) {
                    return false;
                }
            }
            case OUTPUT -> {
                return v == g.buffers.scratchOrNull() && c.inKernel() && hasLeaf(((Ty.Ptr) v.type).target(), want);
            }
            case CONSTANT, INPUT, SPECIAL -> {
                return false;
            }
            default -> {
                if (!v.writable && !(v.type instanceof Ty.Ptr)) {
                    return false;
                }
            }
        }
        if (v.type instanceof Ty.Ptr p) {
            return !p.constTarget() && hasLeaf(p.target(), want);
        }
        return hasLeaf(v.type, want);
    }

    /** The element of root {@code v} a read or write reaches, drilled down to a scalar. */
    private Expr access(Var v, Prim want, Ctx c, int depth, Level max, boolean write) {
        Expr base = Expr.var(v);
        switch (v.storage) {
            case SHARED, VOLATILE_SHARED -> {
                Ty elem = v.type instanceof Ty.Ptr p ? p.target() : ((Ty.Array) v.type).elem();
                g.cover(v.storage == Var.Storage.SHARED ? Construct.SHARED_OWN : Construct.VOLATILE_SHARED);
                Expr slot = Expr.op(elem, "$0[$1]", base, Expr.var(tid).asFixed()).withLevel(Level.THREAD);
                return drill(slot, want, c, depth, max, write);
            }
            case DEVICE -> {
                g.cover(Construct.DEVICE_VARIABLE);
                Expr slot = Expr.op(((Ty.Array) v.type).elem(), "$0[$1]", base, Expr.var(gid).asFixed()).withLevel(Level.THREAD);
                return drill(slot, want, c, depth, max, write);
            }
            case OUTPUT -> {
                g.cover(Construct.SCRATCH);
                Expr i = ex.index(c, depth, Level.THREAD);
                Expr slot = Expr.op(((Ty.Ptr) v.type).target(), "$0[$1 * " + Buffers.SCRATCH_SLOTS + "u + (($2) & "
                        + (Buffers.SCRATCH_SLOTS - 1) + "u)]", base, Expr.var(gid).asFixed(), i).withLevel(Level.THREAD);
                return drill(slot, want, c, depth, max, write);
            }
            case INPUT -> {
                g.cover(Construct.INPUT_READ);
                Buffers.Input in = g.buffers.input(v);
                Expr i = ex.index(c, depth, max);
                String form = g.rng.percent(15) ? "__ldg(&$0[($1) & " + (in.length() - 1) + "u])"
                        : "$0[($1) & " + (in.length() - 1) + "u]";
                return Expr.op(in.type(), form, base, i);
            }
            case CONSTANT -> g.cover(Construct.CONSTANT_MEMORY);
            default -> {
                // Locals and pointers below.
            }
        }
        if (v.type instanceof Ty.Ptr p) {
            int w = g.pointerWindow.getOrDefault(v, 1);
            Expr el = pointerElement(base, p.target(), w, c, depth, max);
            return drill(el, want, c, depth, max, write);
        }
        return drill(base, want, c, depth, max, write);
    }

    private Expr pointerElement(Expr base, Ty target, int window, Ctx c, int depth, Level max) {
        if (window == 1 || g.rng.percent(20)) {
            return Expr.op(target, "(*$0)", base);
        }
        Expr i = ex.index(c, depth, max);
        String mask = "(($1) & " + (window - 1) + "u)";
        return g.rng.coin() ? Expr.op(target, "$0[" + mask + "]", base, i)
                : Expr.op(target, "(*($0 + " + mask + "))", base, i);
    }

    /** Drills from an aggregate-typed expression down to a scalar of type {@code want}; null if there is none. */
    Expr drill(Expr base, Prim want, Ctx c, int depth, Level max, boolean write) {
        Ty t = base.type();
        switch (t) {
            case Prim p -> {
                return want == null || p == want ? base : null;
            }
            case Ty.Vec v -> {
                g.cover(Construct.VECTOR_TYPES);
                String comp = Ty.Vec.component(g.rng.below(v.n()));
                return drill(Expr.op(v.comp(), "$0." + comp, base), want, c, depth, max, write);
            }
            case Ty.Struct s -> {
                g.cover(Construct.STRUCT);
                List<Ty.Member> ms = new ArrayList<>();
                for (Ty.Member m : s.members()) {
                    if (hasLeaf(m.type(), want)) {
                        ms.add(m);
                    }
                }
                if (ms.isEmpty()) {
                    return null;
                }
                Ty.Member m = g.rng.pick(ms);
                String form = base.kind() == Expr.Kind.OP && base.text().equals("(*$0)") ? null : "$0." + m.name();
                if (form == null) {
                    return drill(Expr.op(m.type(), "$0->" + m.name(), base.args().get(0)), want, c, depth, max,
                            write);
                }
                return drill(Expr.op(m.type(), form, base), want, c, depth, max, write);
            }
            case Ty.Array a -> {
                if (a.elem() instanceof Ty.Struct || a.elem() instanceof Ty.Vec) {
                    g.cover(a.elem() instanceof Ty.Struct ? Construct.STRUCT_ARRAY_POINTER : Construct.VECTOR_TYPES);
                } else {
                    g.cover(Construct.LOCAL_ARRAY);
                }
                Expr i = ex.index(c, depth, max);
                return drill(Expr.op(a.elem(), "$0[" + indexText(a.length()) + "]", base, i), want, c, depth,
                        max, write);
            }
            case Ty.Ptr p -> {
                return null;
            }
        }
    }

    /** The masked index of an array of {@code n} elements, applied to argument 1. */
    static String indexText(int n) {
        return Integer.bitCount(n) == 1 ? "($1) & " + (n - 1) + "u" : "(unsigned int)($1) % " + n + "u";
    }
}
