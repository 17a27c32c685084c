package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A barrier region whose threads a vector's worth at a time can run as SIMD lanes ({@link RegionLaneEmitter}): a
 * tile loop's accumulation such as SGEMM's {@code for (k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];}. The
 * region's statements, and those of the {@code for} loops among them, only declare and assign variables of one type,
 * {@code float} or {@code double} — its own locals and variables saved across barriers — with {@code + - * /},
 * negation, and two kinds of element: one whose address does not depend on {@code threadIdx.x}, the same for every
 * lane of a group ({@code As[ty][k]}: loaded once, broadcast), and {@code p[index]} whose {@code int} index is
 * {@code threadIdx.x} plus such a value ({@code Bs[k][tx]}, {@code B[k * n + col]}: one vector load). The loops'
 * headers are {@code int} arithmetic that does not depend on {@code threadIdx.x} either; the region's own {@code int}
 * variables are such values or consecutive over the lanes ({@code unsigned i = blockIdx.x * 2 * blockDim.x + tid}),
 * and its {@code if}s and {@code c ? a : b} compare two of them, which the group checks holds for all its lanes or
 * for none. The region stores to memory at most once, a consecutive element as its last statement (a tree
 * reduction's {@code sdata[tid] += sdata[tid + s]}, in a region without loops), so a group whose elements are not
 * all inside their arrays, whose condition splits it, or whose store would land where another of its lanes reads
 * first can stop before any effect and run thread by thread instead, with the faults of the scalar loop; the saved
 * variables it assigns are stored once the group is done.
 *
 * @param lane      {@code float} or {@code double}
 * @param lanes     how many threads run at a time
 * @param carried   the saved variables the region assigns, held as vectors
 * @param locals    the region's variables of the lane type, held as vectors
 * @param vectors   the elements loaded as one vector each, with their index (threadIdx.x plus a group value)
 * @param loopVars  the {@code int} variables of the region's loops, one value for the group
 * @param predicates the conditions ({@code if}, {@code c ? a : b}) comparing {@code int}s that are group values or
 *                  consecutive over the lanes, with each operand's coefficient of {@code threadIdx.x} (0 or 1)
 * @param store     the region's one store to memory, a consecutive element, as its last statement; or null
 */
record RegionLanes(CType.Prim lane, int lanes, Set<Var> carried, Set<Var> locals, Map<Expr.Deref, Expr> vectors,
                   Set<Expr.Deref> broadcasts, Set<Var> loopVars, Map<Expr.Binary, Long[]> predicates,
                   Expr.Deref store) {

    /** The lanes of region {@code r} of {@code form}, or null. */
    static RegionLanes of(Plan plan, RegionForm form, RegionForm.Region r, Uniformity u) {
        if (form.exits || form.masked || r.predicate != null || r.loop != null || r.mask != null || r.deposit != null
                || r.result != null || r.range != null && r.range.equal() || !r.reloads.isEmpty()
                || !r.localMemory.isEmpty() || r.returns || VectorApi.lanes(CType.Prim.FLOAT) == 0) {
            return null;
        }
        Finder f = new Finder(plan, form, u);
        for (int i = 0; i < r.statements.size(); i++) {
            f.last = i == r.statements.size() - 1;
            if (!f.statement(r.statements.get(i))) {
                return null;
            }
        }
        if (f.lane == null || f.carried.isEmpty() && f.store == null || f.store != null && !f.loopVars.isEmpty()
                || !r.loads.containsAll(f.carried)
                || !f.carried.containsAll(r.stores)) {
            return null;
        }
        for (Var v : f.affine.keySet()) {
            if (assigns(new Stmt.Block(null, r.statements), v)) {
                return null;
            }
        }
        return new RegionLanes(f.lane, VectorApi.lanes(f.lane), f.carried, f.locals, f.vectors, f.broadcasts,
                f.loopVars, f.predicates, f.store);
    }

    /** True if {@code body} assigns {@code v} or takes its address (a declaration's initializer does not count). */
    private static boolean assigns(Stmt body, Var v) {
        boolean[] found = {false};
        Statements.forEachExpr(body, x -> {
            Expr target = switch (x) {
                case Expr.Assign a -> a.target();
                case Expr.CompoundAssign a -> a.target();
                case Expr.IncDec i -> i.target();
                case Expr.AddrOf a -> a.operand();
                default -> null;
            };
            found[0] |= target instanceof Expr.VarRef r && r.var() == v;
        });
        return found[0];
    }

    private static final class Finder {
        private final Plan plan;
        private final RegionForm form;
        private final Uniformity u;
        private final Set<Var> carried = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Set<Var> locals = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Set<Var> loopVars = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Map<Expr.Deref, Expr> vectors = new IdentityHashMap<>();
        private final Set<Expr.Deref> broadcasts = Collections.newSetFromMap(new IdentityHashMap<>());
        /** The region's own {@code int} variables: each thread's value is lane 0's plus a multiple of its lane. */
        private final Map<Var, Long> affine = new IdentityHashMap<>();
        /** Comparisons of such values, per operand its coefficient of {@code threadIdx.x}. */
        private final Map<Expr.Binary, Long[]> predicates = new IdentityHashMap<>();
        private Expr.Deref store;
        /** True while the statement being looked at is the region's last (where its one store may be). */
        private boolean last;
        private CType.Prim lane;

        Finder(Plan plan, RegionForm form, Uniformity u) {
            this.plan = plan;
            this.form = form;
            this.u = u;
        }

        boolean statement(Stmt s) {
            return switch (s) {
                case Stmt.Block b -> block(b.statements());
                case Stmt.For f -> !holdsStore(f) && loop(f);
                case Stmt.If i -> predicate(i.condition()) && statement(i.then())
                        && (i.otherwise() == null || statement(i.otherwise()));
                case Stmt.VarDecl d when plan.storage.get(d.var()) == Plan.Storage.SHARED -> d.init() == null
                        && d.arrayInit() == null;
                case Stmt.VarDecl d when d.init() != null && d.arrayInit() == null && scalar(d.var())
                        && isInt(d.var().type) && !form.saved.contains(d.var()) -> {
                    Long k = coefficient(d.init());
                    if (k != null) {
                        affine.put(d.var(), k);
                    }
                    yield k != null;
                }
                case Stmt.VarDecl d -> d.init() != null && d.arrayInit() == null && scalar(d.var())
                        && laneType(d.var().type) && vector(d.init()) && locals.add(d.var());
                case Stmt.ExprStmt x -> switch (x.expr()) {
                    case Expr.Assign a when a.target() instanceof Expr.Deref d -> stored(d) && vector(a.value());
                    case Expr.CompoundAssign a when a.target() instanceof Expr.Deref d -> stored(d)
                            && arithmetic(a.op()) && a.operandType() == lane && vector(d) && vector(a.value());
                    case Expr.Assign a -> target(a.target()) && vector(a.value());
                    case Expr.CompoundAssign a -> target(a.target()) && arithmetic(a.op())
                            && a.operandType() == lane && vector(a.value());
                    default -> false;
                };
                default -> false;
            };
        }

        /** Statements of which only the last may hold the region's store, and only where the region ends. */
        private boolean block(List<Stmt> statements) {
            boolean outer = last;
            for (int i = 0; i < statements.size(); i++) {
                last = outer && i == statements.size() - 1;
                if (!statement(statements.get(i))) {
                    return false;
                }
            }
            last = outer;
            return true;
        }

        private static boolean holdsStore(Stmt s) {
            boolean[] found = {false};
            Statements.forEachExpr(s, x -> found[0] |= switch (x) {
                case Expr.Assign a -> a.target() instanceof Expr.Deref;
                case Expr.CompoundAssign a -> a.target() instanceof Expr.Deref;
                default -> false;
            });
            return found[0];
        }

        /**
         * The region's one store, {@code p[index] = …} at a consecutive element, as its last statement: every check
         * of the group comes before it, so a group that fails one has stored nothing.
         */
        private boolean stored(Expr.Deref d) {
            if (!last || store != null || !laneType(d.type()) || !element(d) || !vectors.containsKey(d)) {
                return false;
            }
            store = d;
            return true;
        }

        /**
         * A comparison of two {@code int} values of which each is a group value or consecutive over the lanes: it
         * holds for all the group's lanes or for none, which the lanes check at run time (another group runs
         * thread by thread).
         */
        private boolean predicate(Expr c) {
            if (!(c instanceof Expr.Binary b) || !isInt(b.operandType())) {
                return false;
            }
            switch (b.op()) {
                case LT, LE, GT, GE -> { }
                default -> {
                    return false;
                }
            }
            Long l = coefficient(b.left());
            Long r = coefficient(b.right());
            if (l == null || r == null || l < 0 || l > 1 || r < 0 || r > 1) {
                return false;
            }
            predicates.put(b, new Long[] {l, r});
            return true;
        }

        /** {@code for (int k = a; k < b; ++k)} (or {@code k++}, {@code k += c}) with group values a, b, c. */
        private boolean loop(Stmt.For f) {
            if (f.init().size() != 1 || !(f.init().get(0) instanceof Stmt.VarDecl d) || d.init() == null
                    || !scalar(d.var()) || !isInt(d.var().type)) {
                return false;
            }
            Var k = d.var();
            loopVars.add(k);
            boolean update = switch (f.update()) {
                case Expr.IncDec i -> i.increment() && i.target() instanceof Expr.VarRef r && r.var() == k;
                case Expr.CompoundAssign a -> a.op() == Expr.BinaryOp.ADD && a.target() instanceof Expr.VarRef r
                        && r.var() == k && invariant(a.value());
                case null, default -> false;
            };
            return update && invariant(d.init()) && f.condition() instanceof Expr.Binary c
                    && c.op() == Expr.BinaryOp.LT && invariant(c.left()) && invariant(c.right())
                    && !assigns(f.body(), k) && statement(f.body());
        }

        private boolean target(Expr t) {
            if (!(t instanceof Expr.VarRef r) || !scalar(r.var()) || !laneType(r.var().type)) {
                return false;
            }
            if (!locals.contains(r.var())) {
                if (!form.saved.contains(r.var())) {
                    return false;
                }
                carried.add(r.var());
            }
            return true;
        }

        /** True if {@code e} can be computed as a vector of the lane type. */
        private boolean vector(Expr e) {
            if (!laneType(e.type())) {
                return false;
            }
            return switch (e) {
                case Expr.VarRef r -> locals.contains(r.var()) || carriedRead(r.var());
                case Expr.FloatConst c -> true;
                case Expr.Deref d -> element(d);
                case Expr.Binary b -> arithmetic(b.op()) && b.operandType() == lane && vector(b.left())
                        && vector(b.right());
                case Expr.Unary n -> (n.op() == Expr.UnaryOp.NEG || n.op() == Expr.UnaryOp.PLUS)
                        && vector(n.operand());
                case Expr.Cast k when k.operand().type() == lane -> vector(k.operand());
                case Expr.Conditional q -> predicate(q.condition()) && vector(q.ifTrue()) && vector(q.ifFalse());
                default -> false;
            };
        }

        /** A saved variable of the lane type read before the region assigns it: loaded per lane. */
        private boolean carriedRead(Var v) {
            if (!scalar(v) || !form.saved.contains(v)) {
                return false;
            }
            carried.add(v);
            return true;
        }

        /** An element the group loads as one vector or one broadcast value. */
        private boolean element(Expr.Deref d) {
            if (!(d.pointer() instanceof Expr.PtrAdd a) || a.negate() || !pointer(a.pointer())) {
                return false;
            }
            Expr ix = a.index();
            if (ix instanceof Expr.Cast c && (c.type() == CType.Prim.LONG || c.type() == CType.Prim.ULONG)
                    && isInt(c.operand().type())) {
                ix = c.operand();
            }
            if (!isInt(ix.type())) {
                return false;
            }
            Long k = coefficient(ix);
            if (k == null) {
                return false;
            }
            if (k == 0L) {
                broadcasts.add(d);
                return true;
            }
            if (k != 1L) {
                return false;
            }
            vectors.put(d, ix);
            return true;
        }

        /** A pointer the group shares: a parameter, a shared array or a row of one, whose address is a group value. */
        private boolean pointer(Expr p) {
            return switch (p) {
                case Expr.VarRef r -> plan.storage.get(r.var()) == Plan.Storage.POINTER
                        && plan.constantParams.contains(r.var());
                case Expr.Decay d when d.array() instanceof Expr.VarRef r ->
                        plan.storage.get(r.var()) == Plan.Storage.SHARED;
                case Expr.Decay d when d.array() instanceof Expr.Deref row -> row.pointer() instanceof Expr.PtrAdd a
                        && !a.negate() && pointer(a.pointer()) && invariant(a.index());
                default -> false;
            };
        }

        /** True if {@code e} is a group value: an expression {@link #coefficient} accepts without the thread. */
        private boolean invariant(Expr e) {
            Long k = coefficient(e);
            return k != null && k == 0L;
        }

        /**
         * The coefficient of {@code threadIdx.x} in integer expression {@code e}, which must be side-effect free
         * and unable to fault (sums, differences, products by constants of group values and {@code threadIdx.x},
         * conversions between integers); null for anything else. A group value is one of the block's uniform
         * values, a loop variable of the region, the other thread coordinates, or a variable computed again from
         * them.
         */
        private Long coefficient(Expr e) {
            return switch (e) {
                case Expr.IntConst c -> 0L;
                case Expr.Builtin b -> b.var() == Expr.BuiltinVar.THREAD_IDX && b.dim() == 0 ? 1L : 0L;
                case Expr.VarRef r when loopVars.contains(r.var()) -> 0L;
                case Expr.VarRef r when affine.containsKey(r.var()) -> affine.get(r.var());
                case Expr.VarRef r when form.recomputed.containsKey(r.var()) ->
                        coefficient(form.recomputed.get(r.var()));
                case Expr.VarRef r when u.isUniform(r) && scalar(r.var()) && isInt(r.var().type) -> 0L;
                case Expr.Cast c when (isInt(c.type()) || c.type() == CType.Prim.LONG || c.type() == CType.Prim.ULONG)
                        && isInt(c.operand().type()) -> coefficient(c.operand());
                case Expr.Binary b when isInt(b.operandType()) && (b.op() == Expr.BinaryOp.ADD
                        || b.op() == Expr.BinaryOp.SUB) -> {
                    Long l = coefficient(b.left());
                    Long r = coefficient(b.right());
                    yield l == null || r == null ? null : b.op() == Expr.BinaryOp.ADD ? l + r : l - r;
                }
                case Expr.Binary b when isInt(b.operandType()) && b.op() == Expr.BinaryOp.MUL -> {
                    Long l = coefficient(b.left());
                    Long r = coefficient(b.right());
                    if (l == null || r == null) {
                        yield null;
                    }
                    if (l == 0L && r == 0L) {
                        yield 0L;
                    }
                    // threadIdx.x times a constant only: any other product is not affine in it
                    yield l == 0L && b.left() instanceof Expr.IntConst c ? c.value() * r
                            : r == 0L && b.right() instanceof Expr.IntConst c ? c.value() * l : null;
                }
                default -> null;
            };
        }

        private boolean scalar(Var v) {
            return plan.storage.get(v) == Plan.Storage.SCALAR;
        }

        private static boolean isInt(CType t) {
            return t == CType.Prim.INT || t == CType.Prim.UINT;
        }

        private boolean laneType(CType t) {
            if (t != CType.Prim.FLOAT && t != CType.Prim.DOUBLE) {
                return false;
            }
            if (lane == null) {
                lane = (CType.Prim) t;
            }
            return t == lane;
        }

        private static boolean arithmetic(Expr.BinaryOp op) {
            return op == Expr.BinaryOp.ADD || op == Expr.BinaryOp.SUB || op == Expr.BinaryOp.MUL
                    || op == Expr.BinaryOp.DIV;
        }
    }
}
