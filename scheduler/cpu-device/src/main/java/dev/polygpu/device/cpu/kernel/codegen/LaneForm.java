package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An element-wise kernel that the thread loop can run several threads at a time as SIMD lanes
 * ({@link LaneEmitter}): each thread works on elements {@code p[i]} of its own index {@code i = U + threadIdx.x}
 * ({@code U} block-uniform, such as {@code blockIdx.x * blockDim.x}) in one type, {@code float}, {@code double} or
 * {@code int}. The shape is
 * <pre>
 *   uniform declarations, one of them int i = U + threadIdx.x;
 *   if (i &lt; n) { body }           or   if (i &gt;= n) return; body      or   body
 * </pre>
 * or, the grid-stride loop GrCUDA's benchmarks write, uniform declarations and
 * {@code for (int i = U + threadIdx.x; i < n; i += S) { body }}, which the lanes run iteration by iteration over
 * the block (as the region form's interchanged loops do); {@code n} is block-uniform. The body only declares and
 * assigns local variables of the lane type and assigns ({@code =} or compound) elements {@code p[i]},
 * {@code p[i + k]} or {@code p[i - k]} ({@code k} a uniform {@code int}) of pointer parameters never assigned. Its
 * values are built with {@code + - *} (and {@code /} in floating point, {@code & | ^} on {@code int}s), negation and
 * {@code c ? a : b} from such elements, locals, block-uniform values of the lane type (evaluated once per group of
 * lanes and broadcast, among them one element every thread reads, {@code p[k]} or {@code *p}), and
 * {@code (float) (x op y)} computed in {@code double} from two {@code float}s. No call, other conversion of a
 * per-thread value, shift, integer division or control flow inside the body: those kernels keep the scalar thread
 * loop. Java's arithmetic rounds (and wraps) as CUDA's does without fused multiply-adds, which the engine never
 * forms, so lanes give the scalar loop's results bit for bit; whether the launch's memory allows lanes is checked
 * per block at run time ({@link dev.polygpu.device.cpu.kernel.exec.LaneRange}).
 *
 * @param prefix  the declarations before the guard, run once per block before the lanes with the thread's index 0
 * @param index   the thread's index variable {@code i}
 * @param bound   {@code n} of the guard (or of the loop's condition), or null for a kernel without one
 * @param step    the uniform {@code S} of a kernel whose body is the loop
 *                {@code for (int i = U + threadIdx.x; i < n; i += S)}, or null
 * @param body    the statements each thread runs
 * @param lane    {@code float}, {@code double} or {@code int}
 * @param lanes   how many threads run at a time (the JVM's preferred vector length for the lane type)
 * @param streams the body's element streams: one per pointer parameter accessed at {@code p[i]}, and one per
 *                access {@code p[i + k]} with a uniform shift {@code k}
 * @param stored  those of them the body stores through
 * @param accesses the stream of each access ({@code Deref}) in the body
 * @param locals  the variables the body declares, held as vectors
 * @param broadcasts the block-uniform subexpressions of the body, computed by the scalar emitter and broadcast
 * @param choices    the conditional expressions of the body whose condition is block-uniform: one branch for all
 *                   lanes, not a mask
 * @param narrowed   {@code (float) (a op b)} computed in {@code double} from two {@code float} values, and the
 *                   same operation in {@code float} that the lanes compute instead (the same result: see
 *                   {@link Finder#narrowed})
 * @param carried    for the loop of a region ({@link #sweep}), the variables declared before it that its body
 *                   assigns (accumulators), held as vectors across its iterations; empty for a kernel's form
 * @param acrossBlocks true where consecutive blocks in x may run as one stretch of lanes
 *                   ({@link LaneEmitter#emitRun}): a form whose index is
 *                   {@code blockIdx.x * blockDim.x + threadIdx.x}, so that the indices of the blocks' threads
 *                   follow on from one block to the next, whose other prefix declarations compute from values
 *                   alone (no memory, no calls), and in which nothing but the index reads {@code blockIdx.x}: every
 *                   other value the prefix, the guard, the step and the body's broadcasts give is then the same in
 *                   each block of the stretch
 */
record LaneForm(List<Stmt> prefix, Var index, Expr bound, Expr step, List<Stmt> body, CType.Prim lane, int lanes,
                List<Stream> streams, Set<Stream> stored, Map<Expr, Stream> accesses, Set<Var> locals,
                Set<Expr> broadcasts, Set<Expr> choices, Map<Expr, Expr> narrowed, Set<Var> carried,
                boolean acrossBlocks) {

    /**
     * The elements {@code array[i + shift]} of the lanes' threads ({@code shift} a uniform {@code int} expression,
     * or null for none; {@code minus} for {@code i - shift}); or, {@code fixed}, the one element {@code array[shift]}
     * ({@code *array} for a null shift) that every lane reads, which is loaded once per group and broadcast.
     */
    record Stream(Var array, Expr shift, boolean minus, boolean fixed) {}

    /** The lane form of the plan's kernel, or null where it does not have that shape or lanes are not available. */
    static LaneForm of(Plan plan) {
        if (plan.regions != null || plan.cooperative() || VectorApi.lanes(CType.Prim.FLOAT) == 0) {
            return null;
        }
        Stmt root = plan.lowering.body(plan.kernel);
        if (!(root instanceof Stmt.Block block)) {
            return null;
        }
        Uniformity u = new Uniformity(plan, root, new VarUse(plan, root).candidates());
        return new Finder(plan, u).find(block.statements());
    }

    /**
     * The lane form of the loop of a barrier region that runs iteration-major ({@link RegionForm.Sweep}), or null:
     * {@code for (…; i < n; i += S) { body }} with {@code i} an {@code int} each thread set before (its index, read
     * only at {@code p[i]}, {@code p[i ± k]}), {@code n} and {@code S} block-uniform, and a body as a kernel's lane
     * form allows that stores nothing to memory and assigns, besides its own locals, only variables of the lane type
     * declared before the loop: a strided accumulation such as a reduction's {@code sum += in[i]}. A group of
     * threads whose indices are consecutive then runs the whole loop as lanes, each lane one thread's
     * iterations in their order ({@link LaneSweepEmitter}).
     */
    static LaneForm sweep(Plan plan, Uniformity u, Stmt.For loop) {
        if (VectorApi.lanes(CType.Prim.FLOAT) == 0 || !(loop.condition() instanceof Expr.Binary c)
                || !(c.left() instanceof Expr.VarRef r) || r.var().type != CType.Prim.INT
                || plan.storage.get(r.var()) != Plan.Storage.SCALAR) {
            return null;
        }
        Finder f = new Finder(plan, u);
        f.index = r.var();
        Expr bound = f.guard(loop.condition(), Expr.BinaryOp.LT);
        if (bound == null || !(loop.update() instanceof Expr.CompoundAssign a) || a.op() != Expr.BinaryOp.ADD
                || !(a.target() instanceof Expr.VarRef t) || t.var() != f.index
                || a.operandType() != CType.Prim.INT && a.operandType() != CType.Prim.UINT
                || !u.isUniform(a.value())) {
            return null;
        }
        Set<Var> carried = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Var> declared = Collections.newSetFromMap(new IdentityHashMap<>());
        Statements.forEachStmt(loop.body(), s -> {
            if (s instanceof Stmt.VarDecl d) {
                declared.add(d.var());
            }
        });
        Statements.forEachExpr(loop.body(), x -> {
            Expr target = x instanceof Expr.Assign as ? as.target()
                    : x instanceof Expr.CompoundAssign ca ? ca.target() : null;
            if (target instanceof Expr.VarRef v && !declared.contains(v.var())) {
                carried.add(v.var());
            }
        });
        for (Var v : carried) {
            if (v == f.index || plan.storage.get(v) != Plan.Storage.SCALAR || !f.laneType(v.type)) {
                return null;
            }
            f.locals.add(v);
        }
        if (carried.isEmpty() || !f.bodyStatement(loop.body()) || !f.stored.isEmpty()) {
            return null;
        }
        return new LaneForm(List.of(), f.index, bound, a.value(), List.copyOf(f.body), f.lane,
                VectorApi.lanes(f.lane), List.copyOf(f.streams), f.stored, f.accesses, f.locals, f.broadcasts,
                f.choices, f.narrowed, carried, false);
    }

    /** Walks a kernel body once, collecting what the form needs; any statement outside the shape ends it. */
    private static final class Finder {
        private final Plan plan;
        private final Uniformity u;
        private final List<Stmt> prefix = new ArrayList<>();
        private final List<Stmt> body = new ArrayList<>();
        private final List<Stream> streams = new ArrayList<>();
        private final Set<Stream> stored = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Map<Expr, Stream> accesses = new IdentityHashMap<>();
        private final Set<Var> locals = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Set<Expr> broadcasts = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Set<Expr> choices = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Map<Expr, Expr> narrowed = new IdentityHashMap<>();
        private Var index;
        private CType.Prim lane;

        Finder(Plan plan, Uniformity u) {
            this.plan = plan;
            this.u = u;
        }

        LaneForm find(List<Stmt> statements) {
            int k = 0;
            while (k < statements.size() && statements.get(k) instanceof Stmt.VarDecl d && prefixDeclaration(d)) {
                prefix.add(d);
                k++;
            }
            List<Stmt> rest = statements.subList(k, statements.size());
            Expr bound = null;
            Expr step = null;
            List<Stmt> threadBody = rest;
            if (index == null) {
                if (rest.size() != 1 || !(rest.get(0) instanceof Stmt.For f) || (step = strided(f)) == null) {
                    return null;
                }
                bound = guard(f.condition(), Expr.BinaryOp.LT);
                threadBody = List.of(f.body());
            } else if (!rest.isEmpty() && rest.get(0) instanceof Stmt.If g && g.otherwise() == null) {
                if (rest.size() == 1 && (bound = guard(g.condition(), Expr.BinaryOp.LT)) != null) {
                    threadBody = List.of(g.then());
                } else if ((bound = guard(g.condition(), Expr.BinaryOp.GE)) != null && returns(g.then())) {
                    threadBody = rest.subList(1, rest.size());
                } else {
                    return null;
                }
            }
            for (Stmt s : threadBody) {
                if (!bodyStatement(s)) {
                    return null;
                }
            }
            if (lane == null || streams.isEmpty() || stored.isEmpty()) {
                return null;
            }
            return new LaneForm(List.copyOf(prefix), index, bound, step, List.copyOf(body), lane,
                    VectorApi.lanes(lane), List.copyOf(streams), stored, accesses, locals, broadcasts, choices,
                    narrowed, Set.of(), acrossBlocks(bound) && (step == null || !readsBlockX(step)));
        }

        /** See {@link LaneForm#acrossBlocks}; the grid-stride loop's step is the caller's to check. */
        private boolean acrossBlocks(Expr bound) {
            for (Stmt s : prefix) {
                Stmt.VarDecl d = (Stmt.VarDecl) s;
                if (d.var() == index) {
                    if (!(d.init() instanceof Expr.Cast c) || !(c.operand() instanceof Expr.Binary sum)
                            || !blockStart(ThreadRange.isThreadIdxX(sum.right()) ? sum.left() : sum.right())) {
                        return false;
                    }
                } else if (!computed(d.init()) || readsBlockX(d.init())) {
                    return false;
                }
            }
            if (bound != null && readsBlockX(bound)) {
                return false;
            }
            for (Stmt s : body) {
                boolean[] found = {false};
                Statements.forEachExpr(s, x -> found[0] |= isBlockX(x));
                if (found[0]) {
                    return false;
                }
            }
            return true;
        }

        /**
         * {@code blockIdx.x * blockDim.x} (either order; conversions between {@code int} and {@code unsigned};
         * {@code blockDim.x} also through a variable the prefix declares with it, as {@code int stride =
         * blockDim.x;}).
         */
        private boolean blockStart(Expr e) {
            e = sameBits(e);
            if (!(e instanceof Expr.Binary m) || m.op() != Expr.BinaryOp.MUL
                    || m.operandType() != CType.Prim.UINT && m.operandType() != CType.Prim.INT) {
                return false;
            }
            Expr a = sameBits(m.left());
            Expr b = sameBits(m.right());
            return isBlockX(a) && isBlockDimX(b) || isBlockDimX(a) && isBlockX(b);
        }

        /** {@code blockDim.x}, or a variable the prefix declares as that and the kernel never assigns. */
        private boolean isBlockDimX(Expr e) {
            if (e instanceof Expr.VarRef r && u.isUniform(r.var())) {
                for (Stmt s : prefix) {
                    if (s instanceof Stmt.VarDecl d && d.var() == r.var()) {
                        e = sameBits(d.init());
                    }
                }
            }
            return e instanceof Expr.Builtin b && b.var() == Expr.BuiltinVar.BLOCK_DIM && b.dim() == 0;
        }

        private static Expr sameBits(Expr e) {
            while (e instanceof Expr.Cast c && (c.type() == CType.Prim.INT || c.type() == CType.Prim.UINT)
                    && (c.operand().type() == CType.Prim.INT || c.operand().type() == CType.Prim.UINT)) {
                e = c.operand();
            }
            return e;
        }

        private static boolean isBlockX(Expr e) {
            return e instanceof Expr.Builtin b && b.var() == Expr.BuiltinVar.BLOCK_IDX && b.dim() == 0;
        }

        private static boolean readsBlockX(Expr e) {
            boolean[] found = {false};
            Statements.forEachNode(e, x -> found[0] |= isBlockX(x));
            return found[0];
        }

        /**
         * True if {@code e} is computed from constants, built-in variables and scalar variables alone: no load, no
         * call, no assignment, so evaluating it once for a stretch of blocks does what evaluating it per block does.
         */
        private boolean computed(Expr e) {
            boolean[] ok = {true};
            Statements.forEachNode(e, x -> ok[0] &= switch (x) {
                case Expr.IntConst k -> true;
                case Expr.FloatConst k -> true;
                case Expr.Builtin b -> true;
                case Expr.VarRef r -> plan.storage.get(r.var()) == Plan.Storage.SCALAR;
                case Expr.Unary n -> true;
                case Expr.Binary b -> true;
                case Expr.Conditional q -> true;
                case Expr.Cast k -> true;
                default -> false;
            });
            return ok[0];
        }

        /**
         * The uniform step {@code S} of {@code for (int i = U + threadIdx.x; i < n; i += S)}, with the declaration
         * added to the prefix; null for any other loop.
         */
        private Expr strided(Stmt.For f) {
            if (f.init().size() != 1 || !(f.init().get(0) instanceof Stmt.VarDecl d) || !prefixDeclaration(d)
                    || index == null || guard(f.condition(), Expr.BinaryOp.LT) == null
                    || !(f.update() instanceof Expr.CompoundAssign a) || a.op() != Expr.BinaryOp.ADD
                    || !(a.target() instanceof Expr.VarRef r) || r.var() != index
                    || a.operandType() != CType.Prim.INT && a.operandType() != CType.Prim.UINT
                    || !u.isUniform(a.value())) {
                return null;
            }
            prefix.add(d);
            return a.value();
        }

        /** A block-uniform declaration, or the index's: {@code int i = U + threadIdx.x} (either order). */
        private boolean prefixDeclaration(Stmt.VarDecl d) {
            Var v = d.var();
            if (d.init() == null || d.arrayInit() != null || plan.storage.get(v) != Plan.Storage.SCALAR) {
                return false;
            }
            if (u.isUniform(v) && u.isUniform(d.init())) {
                return true;
            }
            if (index != null || v.type != CType.Prim.INT || !(d.init() instanceof Expr.Cast c)
                    || !(c.operand() instanceof Expr.Binary b) || b.op() != Expr.BinaryOp.ADD
                    || !(b.operandType() instanceof CType.Prim p) || p != CType.Prim.UINT && p != CType.Prim.INT) {
                return false;
            }
            if (ThreadRange.isThreadIdxX(b.right()) && u.isUniform(b.left())
                    || ThreadRange.isThreadIdxX(b.left()) && u.isUniform(b.right())) {
                index = v;
                return true;
            }
            return false;
        }

        /** The uniform {@code n} of {@code i < n} (or {@code i >= n}) compared as {@code int}s, or null. */
        private Expr guard(Expr condition, Expr.BinaryOp op) {
            if (condition instanceof Expr.Binary b && b.op() == op && b.operandType() == CType.Prim.INT
                    && b.left() instanceof Expr.VarRef r && r.var() == index && u.isUniform(b.right())) {
                return b.right();
            }
            return null;
        }

        private static boolean returns(Stmt s) {
            if (s instanceof Stmt.Block b && b.statements().size() == 1) {
                return returns(b.statements().get(0));
            }
            return s instanceof Stmt.Return r && r.value() == null;
        }

        private boolean bodyStatement(Stmt s) {
            switch (s) {
                case Stmt.Block b -> {
                    for (Stmt x : b.statements()) {
                        if (!bodyStatement(x)) {
                            return false;
                        }
                    }
                    return true;
                }
                case Stmt.VarDecl d -> {
                    Var v = d.var();
                    if (d.init() == null || d.arrayInit() != null || plan.storage.get(v) != Plan.Storage.SCALAR
                            || !laneType(v.type) || !vectorValue(d.init())) {
                        return false;
                    }
                    locals.add(v);
                    body.add(s);
                    return true;
                }
                case Stmt.ExprStmt e -> {
                    boolean ok = switch (e.expr()) {
                        case Expr.Assign a -> target(a.target()) && vectorValue(a.value());
                        case Expr.CompoundAssign a -> target(a.target()) && laneOp(a.op())
                                && a.operandType() == lane && vectorValue(a.value());
                        default -> false;
                    };
                    if (ok) {
                        body.add(s);
                    }
                    return ok;
                }
                default -> {
                    return false;
                }
            }
        }

        /** A local of the body, or {@code p[i]}: noted as stored. */
        private boolean target(Expr t) {
            if (t instanceof Expr.VarRef r) {
                return locals.contains(r.var());
            }
            Stream st = element(t);
            if (st == null) {
                return false;
            }
            stored.add(st);
            return true;
        }

        /**
         * The stream of an access {@code p[i]} or {@code p[i ± k]} (k uniform) of the lane type, or null for anything
         * else. Accesses without a shift share their parameter's stream; each shifted one has its own.
         */
        private Stream element(Expr e) {
            if (!(e instanceof Expr.Deref d) || !laneType(d.type()) || !(d.pointer() instanceof Expr.PtrAdd a)
                    || a.negate() || !(a.pointer() instanceof Expr.VarRef p) || !plan.constantParams.contains(p.var())
                    || plan.storage.get(p.var()) != Plan.Storage.POINTER) {
                return null;
            }
            Expr ix = a.index();
            if (ix instanceof Expr.Cast c && c.type() == CType.Prim.LONG) {
                ix = c.operand();
            }
            Stream st;
            if (isIndex(ix)) {
                st = streams.stream().filter(x -> x.array() == p.var() && x.shift() == null).findFirst()
                        .orElse(null);
                if (st == null) {
                    st = new Stream(p.var(), null, false, false);
                    streams.add(st);
                }
            } else if (ix instanceof Expr.Binary b && b.operandType() == CType.Prim.INT
                    && (b.op() == Expr.BinaryOp.ADD || b.op() == Expr.BinaryOp.SUB)) {
                Expr shift = isIndex(b.left()) ? b.right() : b.op() == Expr.BinaryOp.ADD && isIndex(b.right())
                        ? b.left() : null;
                if (shift == null || !u.isUniform(shift) || readsLocal(shift)) {
                    return null;
                }
                st = new Stream(p.var(), shift, b.op() == Expr.BinaryOp.SUB, false);
                streams.add(st);
            } else {
                return null;
            }
            accesses.put(e, st);
            return st;
        }

        /**
         * True for a read of one element at a uniform index, {@code p[k]} or {@code *p}, of a pointer parameter never
         * reassigned: noted as a fixed stream, whose element the run-time checks keep apart from every stored one.
         */
        private boolean uniformLoad(Expr e) {
            if (!(e instanceof Expr.Deref d) || !laneType(d.type())) {
                return false;
            }
            Expr pointer = d.pointer();
            Expr at = null;
            if (pointer instanceof Expr.PtrAdd a && !a.negate()) {
                at = a.index() instanceof Expr.Cast c && c.type() == CType.Prim.LONG ? c.operand() : a.index();
                if (at.type() != CType.Prim.INT || !u.isUniform(at) || readsLocal(at)) {
                    return false;
                }
                pointer = a.pointer();
            }
            if (!(pointer instanceof Expr.VarRef p) || !plan.constantParams.contains(p.var())
                    || plan.storage.get(p.var()) != Plan.Storage.POINTER) {
                return false;
            }
            Stream st = new Stream(p.var(), at, false, true);
            streams.add(st);
            accesses.put(e, st);
            broadcasts.add(e);
            return true;
        }

        private boolean isIndex(Expr e) {
            return e instanceof Expr.VarRef r && r.var() == index;
        }

        /** True for the first lane type seen ({@code float}, {@code double}, {@code int}) and every later use of it. */
        private boolean laneType(CType t) {
            if (t != CType.Prim.FLOAT && t != CType.Prim.DOUBLE && t != CType.Prim.INT) {
                return false;
            }
            if (lane == null) {
                lane = (CType.Prim) t;
            }
            return t == lane;
        }

        static boolean comparison(Expr.BinaryOp op) {
            return switch (op) {
                case LT, LE, GT, GE, EQ, NE -> true;
                default -> false;
            };
        }

        /**
         * True for the operators lanes compute: {@code + - *}, {@code /} in floating point (an integer division can
         * fault), {@code & | ^} on {@code int}s. Java's {@code int} arithmetic wraps, as the scalar loop's does.
         */
        private boolean laneOp(Expr.BinaryOp op) {
            if (lane == CType.Prim.INT) {
                return op != Expr.BinaryOp.DIV && arithmetic(op) || op == Expr.BinaryOp.BIT_AND
                        || op == Expr.BinaryOp.BIT_OR || op == Expr.BinaryOp.BIT_XOR;
            }
            return arithmetic(op);
        }

        private static boolean arithmetic(Expr.BinaryOp op) {
            return op == Expr.BinaryOp.ADD || op == Expr.BinaryOp.SUB || op == Expr.BinaryOp.MUL
                    || op == Expr.BinaryOp.DIV;
        }

        /** True if {@code e} can be computed as a vector of the lane type. */
        private boolean vectorValue(Expr e) {
            if (!laneType(e.type())) {
                return false;
            }
            if (u.isUniform(e) && !readsLocal(e)) {
                broadcasts.add(e);
                return true;
            }
            return switch (e) {
                case Expr.VarRef r -> locals.contains(r.var());
                case Expr.Deref d -> element(d) != null || uniformLoad(d);
                case Expr.Binary b -> laneOp(b.op()) && b.operandType() == lane && vectorValue(b.left())
                        && vectorValue(b.right());
                case Expr.Unary n -> (n.op() == Expr.UnaryOp.NEG || n.op() == Expr.UnaryOp.PLUS)
                        && vectorValue(n.operand());
                case Expr.Cast k when narrowed(k) != null -> vectorValue(narrowed.get(k));
                case Expr.Conditional q when u.isUniform(q.condition()) && !readsLocal(q.condition()) -> {
                    choices.add(q);
                    yield vectorValue(q.ifTrue()) && vectorValue(q.ifFalse());
                }
                case Expr.Conditional q -> q.condition() instanceof Expr.Binary b && comparison(b.op())
                        && b.operandType() == lane && vectorValue(b.left()) && vectorValue(b.right())
                        && vectorValue(q.ifTrue()) && vectorValue(q.ifFalse());
                default -> false;
            };
        }

        /**
         * For {@code (float) (x op y)} with {@code op} one of {@code + - * /} computed in {@code double}, where
         * {@code x} and {@code y} are {@code float} values widened or {@code double} constants that are
         * {@code float}s (as {@code a[i] + 2.0} is written): the same operation in {@code float}, noted for the
         * emitter; else null. A {@code double} holds more than twice a {@code float}'s precision plus two bits, so
         * rounding the exact result to {@code double} and then to {@code float} gives the {@code float} operation's
         * result (Figueroa, "When is double rounding innocuous?", 1995).
         */
        private Expr narrowed(Expr.Cast k) {
            if (lane != CType.Prim.FLOAT || k.type() != CType.Prim.FLOAT || !(k.operand() instanceof Expr.Binary b)
                    || !arithmetic(b.op()) || b.operandType() != CType.Prim.DOUBLE) {
                return null;
            }
            Expr x = asFloat(b.left());
            Expr y = asFloat(b.right());
            if (x == null || y == null) {
                return null;
            }
            Expr f = new Expr.Binary(b.pos(), CType.Prim.FLOAT, b.op(), CType.Prim.FLOAT, x, y);
            narrowed.put(k, f);
            return f;
        }

        /** The {@code float} value a {@code double} operand holds exactly, or null. */
        private static Expr asFloat(Expr d) {
            if (d instanceof Expr.Cast w && w.operand().type() == CType.Prim.FLOAT) {
                return w.operand();
            }
            if (d instanceof Expr.FloatConst c && (double) (float) c.value() == c.value()) {
                return new Expr.FloatConst(c.pos(), CType.Prim.FLOAT, c.value());
            }
            return null;
        }

        /** True if {@code e} reads a local of the body, which lives in a vector, not in its scalar slot. */
        private boolean readsLocal(Expr e) {
            boolean[] found = {false};
            Statements.forEachNode(e, x -> found[0] |= x instanceof Expr.VarRef r && locals.contains(r.var()));
            return found[0];
        }
    }
}
