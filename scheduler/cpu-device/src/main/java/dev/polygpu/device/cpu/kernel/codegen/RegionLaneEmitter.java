package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Emits the SIMD path of a region with {@link RegionLanes}, inside its loop over the block's threads: at a thread
 * whose {@code threadIdx.x} starts a vector's worth of threads in its row, the group runs the region as lanes — its
 * saved variables loaded into vectors, each statement's elements first checked (inside their arrays, aligned, an
 * index that does not wrap) and then loaded, a vector or one broadcast value each, the saved variables stored back —
 * and the loop goes on after the group. Conditions are decided for the whole group (one branch; the condition of a
 * region's thread range needs none, its loop visits only the threads that pass it), and the region's one store comes
 * last, after its own checks. Where a check fails, nothing has been stored yet (saved variables are
 * stored only at the end too): the group's threads run one by one in the scalar body instead, with its faults. Each
 * lane runs its own thread's statements in their order with Java's rounding, which is CUDA's, so the results are the
 * scalar loop's bit for bit. A region without loops checks the whole groups left in its row at once, and runs them
 * with no checks where that passes ({@link #row}).
 */
final class RegionLaneEmitter {
    private static final ClassDesc REGIONS = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.LaneRegions");
    private static final ClassDesc SWEEPS = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.LaneSweeps");
    private static final ClassDesc PRIMS = ClassDesc.ofDescriptor("[J");

    private final Emitter e;
    private final CodeBuilder c;
    private final RegionForm.Region region;
    private final RegionLanes form;
    private final LaneSweepEmitter.Frame f;
    private final ClassDesc vector;
    private final ClassDesc scalar;
    private final ClassDesc array;
    private final String kind;
    private final int size;
    private final List<Var> carried;
    private final Map<Var, Integer> vectorSlot = new IdentityHashMap<>();
    private final Map<Var, Integer> scratch = new IdentityHashMap<>();
    /** Per element loaded as a vector, the locals of its checked address: segment, then offset. */
    private final Map<Expr.Deref, int[]> address = new IdentityHashMap<>();
    /** Per element broadcast, the local holding its value. */
    private final Map<Expr.Deref, Integer> broadcastSlot = new IdentityHashMap<>();
    /** Per condition, the local holding whether it holds for the group (1) or not (0). */
    private final Map<Expr.Binary, Integer> predicateSlot = new IdentityHashMap<>();
    private int indexSlot;
    /** Temporaries of the checks: an address's segment and offset, and a condition's operands at both ends. */
    private int segTemp;
    private int offTemp;
    private int[] ends;
    /** Where a row's groups run with the row's checks ({@link #row}): the threads they cover, and where they end. */
    private int widthSlot;
    private int rowEndSlot;
    private Pass pass = Pass.GROUP;

    /** What the statements are emitted for. */
    private enum Pass {
        /** One group: its checks, then its lanes. */
        GROUP,
        /** The checks of a row's groups all at once, at its first group: no loads of values, no stores. */
        ROW_CHECK,
        /** A group of a row that passed its checks: its lanes alone. */
        ROW
    }

    RegionLaneEmitter(Emitter e, RegionForm.Region region, LaneSweepEmitter.Frame frame) {
        this.e = e;
        this.c = e.c;
        this.region = region;
        this.form = region.vectorLanes;
        this.f = frame;
        this.vector = VectorApi.vectorClass(form.lane());
        this.scalar = Jvm.kind(form.lane()).desc;
        this.array = scalar.arrayType();
        this.kind = form.lane() == CType.Prim.FLOAT ? "Floats" : "Doubles";
        this.size = form.lane().size();
        this.carried = region.loads.stream().filter(form.carried()::contains).toList();
    }

    /** Before the loop over the threads: the locals and the arrays the groups move saved values through. */
    void allocate() {
        for (Var v : form.carried()) {
            vectorSlot.put(v, c.allocateLocal(TypeKind.REFERENCE));
        }
        for (Var v : form.locals()) {
            vectorSlot.put(v, c.allocateLocal(TypeKind.REFERENCE));
        }
        for (Var v : carried) {
            int slot = c.allocateLocal(TypeKind.REFERENCE);
            scratch.put(v, slot);
            c.loadConstant(form.lanes());
            c.newarray(Jvm.kind(form.lane()).tk);
            c.astore(slot);
        }
        for (Expr.Deref d : form.vectors().keySet()) {
            address.put(d, new int[] {c.allocateLocal(TypeKind.REFERENCE), c.allocateLocal(TypeKind.LONG)});
        }
        for (Expr.Deref d : form.broadcasts()) {
            broadcastSlot.put(d, c.allocateLocal(Jvm.kind(form.lane()).tk));
            if (form.store() != null) {
                address.put(d, new int[] {c.allocateLocal(TypeKind.REFERENCE), c.allocateLocal(TypeKind.LONG)});
            }
        }
        for (Expr.Binary b : form.predicates().keySet()) {
            predicateSlot.put(b, c.allocateLocal(TypeKind.INT));
        }
        indexSlot = c.allocateLocal(TypeKind.INT);
        widthSlot = c.allocateLocal(TypeKind.INT);
        rowEndSlot = c.allocateLocal(TypeKind.INT);
        segTemp = c.allocateLocal(TypeKind.REFERENCE);
        offTemp = c.allocateLocal(TypeKind.LONG);
        ends = new int[] {c.allocateLocal(TypeKind.LONG), c.allocateLocal(TypeKind.LONG),
            c.allocateLocal(TypeKind.LONG), c.allocateLocal(TypeKind.LONG)};
        for (int[] at : address.values()) {
            c.aconst_null();
            c.astore(at[0]);
            c.lconst_0();
            c.lstore(at[1]);
        }
    }

    /**
     * For the running thread (in the region's thread loop): if it starts a group, runs the group as lanes and goes
     * to {@code threadNext} with the loop's thread counters on the group's last thread; else, or where the group
     * cannot run so, falls through to the scalar body.
     */
    void group(Label threadNext, int limitSlot) {
        Label scalarPath = c.newLabel();
        c.iload(e.txSlot);
        c.loadConstant(form.lanes());
        c.irem();
        c.ifne(scalarPath);
        c.iload(e.txSlot);
        c.loadConstant(form.lanes());
        c.iadd();
        c.iload(limitSlot);
        c.if_icmpgt(scalarPath);
        if (form.loopVars().isEmpty() && e.plan.laneRows) {
            Label perGroup = c.newLabel();
            row(threadNext, limitSlot, perGroup);
            c.labelBinding(perGroup);
        }
        pass = Pass.GROUP;
        lanes(scalarPath);
        c.loadConstant(form.lanes());
        LaneEmitter.tally(c);
        c.iinc(f.tidSlot(), form.lanes() - 1);
        c.iinc(e.txSlot, form.lanes() - 1);
        c.goto_(threadNext);
        c.labelBinding(scalarPath);
    }

    /**
     * The whole groups from the running thread to the row's end (a region without loops, of more than one group):
     * their checks once — each element's span over all of them inside its array, no index or operand wrapping
     * around over them, each condition holding for all their threads or for none — then the groups one after another
     * with no checks, and on to {@code threadNext}. A row that fails a check goes on to {@code perGroup}, where each
     * group checks itself. One check covers the row because its indexes and operands are consecutive over its threads
     * (they step by one thread's worth, or not at all): an element's lowest and highest address are its first and
     * last thread's, and a comparison of two such values that holds at the row's first and last thread holds at
     * every thread between. What a store must not overlap holds per group as it does in {@link #checkStore}: a
     * vector element keeps its distance from the store across the row, a broadcast one is checked against the
     * row's whole span.
     */
    private void row(Label threadNext, int limitSlot, Label perGroup) {
        c.iload(limitSlot);
        c.iload(e.txSlot);
        c.isub();
        c.loadConstant(-form.lanes());
        c.iand();
        c.dup();
        c.istore(widthSlot);
        c.loadConstant(form.lanes());
        c.if_icmple(perGroup);
        pass = Pass.ROW_CHECK;
        clearAddresses();
        f.enterThread().run();
        walk(perGroup);
        c.iload(e.txSlot);
        c.iload(widthSlot);
        c.iadd();
        c.istore(rowEndSlot);
        pass = Pass.ROW;
        Label top = c.newBoundLabel();
        lanes(null);
        c.iinc(f.tidSlot(), form.lanes());
        c.iinc(e.txSlot, form.lanes());
        c.iload(e.txSlot);
        c.iload(rowEndSlot);
        c.if_icmplt(top);
        c.iload(widthSlot);
        LaneEmitter.tally(c);
        c.iinc(f.tidSlot(), -1);
        c.iinc(e.txSlot, -1);
        c.goto_(threadNext);
    }

    /** What the store is checked against: the elements this group (or row) loaded, none yet. */
    private void clearAddresses() {
        if (form.store() != null) {
            for (int[] at : address.values()) {
                c.aconst_null();
                c.astore(at[0]);
            }
        }
    }

    /** The running group's lanes: its saved variables in, its statements (checked unless in a row), them out. */
    private void lanes(Label bail) {
        if (pass == Pass.GROUP) {
            clearAddresses();
        }
        f.enterThread().run();
        for (Var v : carried) {
            c.aload(f.primArray());
            f.saved().pushRunning(v);
            c.aload(scratch.get(v));
            c.invokestatic(SWEEPS, "load" + kind, mt(CD_void, PRIMS, CD_int, array));
            c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
            c.aload(scratch.get(v));
            c.iconst_0();
            c.invokestatic(vector, "fromArray", mt(vector, VectorApi.SPECIES, array, CD_int));
            c.astore(vectorSlot.get(v));
        }
        walk(bail);
        for (Var v : carried) {
            if (region.stores.contains(v)) {
                c.aload(vectorSlot.get(v));
                c.aload(scratch.get(v));
                c.iconst_0();
                c.invokevirtual(vector, "intoArray", mt(CD_void, array, CD_int));
                c.aload(scratch.get(v));
                c.aload(f.primArray());
                f.saved().pushRunning(v);
                c.invokestatic(SWEEPS, "save" + kind, mt(CD_void, array, PRIMS, CD_int));
            }
        }
    }

    private void walk(Label bail) {
        e.scopes.push(new ArrayList<>());
        for (Stmt s : region.statements) {
            statement(s, bail);
        }
        e.scopes.pop();
    }

    /** Pushes how many threads the checks cover: a group's, or (checking a row) the row's. */
    private void pushCount() {
        if (pass == Pass.ROW_CHECK) {
            c.iload(widthSlot);
        } else {
            c.loadConstant(form.lanes());
        }
    }

    private boolean checks() {
        return pass != Pass.ROW;
    }

    private boolean computes() {
        return pass != Pass.ROW_CHECK;
    }

    private void statement(Stmt s, Label bail) {
        switch (s) {
            case Stmt.Block b -> b.statements().forEach(x -> statement(x, bail));
            case Stmt.For loop -> {
                e.scopes.push(new ArrayList<>());
                loop.init().forEach(e::statement);
                Label top = c.newBoundLabel();
                Label end = c.newLabel();
                e.exprs.jumpIfFalse(loop.condition(), end);
                statement(loop.body(), bail);
                e.exprs.discard(loop.update());
                if (e.pollKind(loop) != LoopPolls.Kind.NONE) {
                    e.pollCancellation(loop.pos());
                }
                c.goto_(top);
                c.labelBinding(end);
                e.scopes.pop();
            }
            case Stmt.If i when region.range != null && !region.range.equal() && i == region.statements.get(0) ->
                    // the region's thread range visits exactly the threads for which this condition holds
                    statement(i.then(), bail);
            case Stmt.If i -> {
                Expr.Binary b = (Expr.Binary) i.condition();
                decide(b, bail);
                branch(b, () -> statement(i.then(), bail), () -> {
                    if (i.otherwise() != null) {
                        statement(i.otherwise(), bail);
                    }
                });
            }
            case Stmt.VarDecl d when !vectorSlot.containsKey(d.var()) -> e.statement(d);
            case Stmt.VarDecl d -> {
                load(d.init(), bail);
                if (computes()) {
                    value(d.init());
                    c.astore(vectorSlot.get(d.var()));
                }
            }
            case Stmt.ExprStmt x when x.expr() instanceof Expr.Assign a && a.target() instanceof Expr.Deref d -> {
                load(a.value(), bail);
                load(d, bail);
                checkStore(d, bail);
                if (computes()) {
                    value(a.value());
                    store(d);
                }
            }
            case Stmt.ExprStmt x when x.expr() instanceof Expr.CompoundAssign a
                    && a.target() instanceof Expr.Deref d -> {
                load(d, bail);
                load(a.value(), bail);
                checkStore(d, bail);
                if (computes()) {
                    value(d);
                    value(a.value());
                    arithmetic(a.op());
                    store(d);
                }
            }
            case Stmt.ExprStmt x when x.expr() instanceof Expr.Assign a -> {
                load(a.value(), bail);
                if (computes()) {
                    value(a.value());
                    c.astore(vectorSlot.get(((Expr.VarRef) a.target()).var()));
                }
            }
            case Stmt.ExprStmt x when x.expr() instanceof Expr.CompoundAssign a -> {
                load(a.value(), bail);
                if (computes()) {
                    value(a.target());
                    value(a.value());
                    arithmetic(a.op());
                    c.astore(vectorSlot.get(((Expr.VarRef) a.target()).var()));
                }
            }
            default -> throw new IllegalStateException("statement outside the region's lanes: " + s
                    + " (a bug in polygpu's kernel engine)");
        }
    }

    /**
     * Checks and loads the elements of {@code x}, in evaluation order, before it is computed: a failed check jumps
     * to {@code bail} with nothing on the stack and nothing stored.
     */
    private void load(Expr x, Label bail) {
        switch (x) {
            case Expr.Deref d when broadcastSlot.containsKey(d) || address.containsKey(d) -> element(d, bail);
            case Expr.Conditional q -> {
                Expr.Binary b = (Expr.Binary) q.condition();
                decide(b, bail);
                // only the side the group takes loads: the other's elements may lie outside their arrays
                branch(b, () -> load(q.ifTrue(), bail), () -> load(q.ifFalse(), bail));
            }
            case Expr.Binary b -> {
                load(b.left(), bail);
                load(b.right(), bail);
            }
            case Expr.Unary u -> load(u.operand(), bail);
            case Expr.Cast k -> load(k.operand(), bail);
            default -> { }
        }
    }

    /** Checks element {@code d} for the group and loads a broadcast one; a failed check jumps to {@code bail}. */
    private void element(Expr.Deref d, Label bail) {
        Expr.PtrAdd a = (Expr.PtrAdd) d.pointer();
        int[] at = address.get(d);
        int seg = at == null ? segTemp : at[0];
        int off = at == null ? offTemp : at[1];
        if (broadcastSlot.containsKey(d)) {
            e.exprs.value(a);
            c.lstore(off);
            c.astore(seg);
            if (checks()) {
                fits(seg, off, false, bail);
            }
            if (computes()) {
                e.exprs.value(d);
                c.storeLocal(Jvm.kind(form.lane()).tk, broadcastSlot.get(d));
            }
            return;
        }
        Expr index = form.vectors().get(d);
        boolean unsigned = index.type() == CType.Prim.UINT;
        e.exprs.value(index);
        c.istore(indexSlot);
        if (checks()) {
            c.iload(indexSlot);
            pushCount();
            c.invokestatic(REGIONS, unsigned ? "noWrapUnsigned" : "noWrap", mt(CD_boolean, CD_int, CD_int));
            c.ifeq(bail);
        }
        e.exprs.value(a.pointer());
        c.lstore(off);
        c.astore(seg);
        c.lload(off);
        c.iload(indexSlot);
        widen(unsigned);
        c.loadConstant((long) size);
        c.lmul();
        c.ladd();
        c.lstore(off);
        if (checks()) {
            fits(seg, off, true, bail);
        }
    }

    /**
     * Jumps to {@code bail} unless the element at (locals) {@code seg}, {@code off} lies inside it, aligned: one
     * element, or where {@code lanes}, one per thread the checks cover.
     */
    private void fits(int seg, int off, boolean lanes, Label bail) {
        c.lload(off);
        c.lconst_0();
        c.lcmp();
        c.iflt(bail);
        c.aload(seg);
        c.lload(off);
        if (lanes) {
            pushCount();
            c.loadConstant(size);
            c.imul();
        } else {
            c.loadConstant(size);
        }
        c.invokestatic(REGIONS, "inside", mt(CD_boolean, Jvm.SEGMENT, CD_long, CD_int));
        c.ifeq(bail);
        c.aload(seg);
        c.lload(off);
        c.loadConstant(size);
        c.invokestatic(REGIONS, "aligned", mt(CD_boolean, Jvm.SEGMENT, CD_long, CD_int));
        c.ifeq(bail);
    }

    /** [int] → the C value as a {@code long}: zero-extended where {@code unsigned}. */
    private void widen(boolean unsigned) {
        if (unsigned) {
            c.invokestatic(Jvm.INTEGER, "toUnsignedLong", mt(CD_long, CD_int));
        } else {
            c.i2l();
        }
    }

    /** Emits {@code then} where condition {@code b} held for the group ({@link #decide}), else {@code otherwise}. */
    private void branch(Expr.Binary b, Runnable then, Runnable otherwise) {
        Label no = c.newLabel();
        Label end = c.newLabel();
        c.iload(predicateSlot.get(b));
        c.ifeq(no);
        then.run();
        c.goto_(end);
        c.labelBinding(no);
        otherwise.run();
        c.labelBinding(end);
    }

    /**
     * Evaluates condition {@code b} for the group into its local: 1 if it holds in every lane, 0 if in none; a
     * group it splits (or whose operands would wrap around across its lanes) jumps to {@code bail}.
     */
    private void decide(Expr.Binary b, Label bail) {
        if (!checks()) {
            // a row's groups take the decision its check made for all of them
            return;
        }
        Long[] k = form.predicates().get(b);
        boolean unsigned = b.operandType() == CType.Prim.UINT;
        // ends: the left operand in the first and last lanes, then the right one
        operand(b.left(), k[0], unsigned, ends[0], ends[1], bail);
        operand(b.right(), k[1], unsigned, ends[2], ends[3], bail);
        boolean swap = b.op() == Expr.BinaryOp.GT || b.op() == Expr.BinaryOp.GE;
        c.lload(ends[swap ? 2 : 0]);
        c.lload(ends[swap ? 0 : 2]);
        c.lload(ends[swap ? 3 : 1]);
        c.lload(ends[swap ? 1 : 3]);
        boolean strict = b.op() == Expr.BinaryOp.LT || b.op() == Expr.BinaryOp.GT;
        c.invokestatic(REGIONS, strict ? "less" : "lessOrEqual", mt(CD_int, CD_long, CD_long, CD_long, CD_long));
        int slot = predicateSlot.get(b);
        c.istore(slot);
        c.iload(slot);
        c.iflt(bail);
    }

    /**
     * Stores operand {@code x} of a condition, as C's value, for the first thread the checks cover into
     * {@code first} and for the last into {@code last} ({@code x} plus {@code k} per thread); an operand whose last
     * value passes the type's largest jumps to {@code bail} (C's value would wrap around).
     */
    private void operand(Expr x, long k, boolean unsigned, int first, int last, Label bail) {
        e.exprs.value(x);
        widen(unsigned);
        c.dup2();
        c.lstore(first);
        if (k != 0) {
            // plus k for each thread the checks cover after the first (a constant the JIT folds for one group)
            pushCount();
            c.iconst_1();
            c.isub();
            c.i2l();
            c.loadConstant(k);
            c.lmul();
            c.ladd();
        }
        c.lstore(last);
        if (k != 0) {
            c.lload(last);
            c.loadConstant(unsigned ? 0xFFFF_FFFFL : (long) Integer.MAX_VALUE);
            c.lcmp();
            c.ifgt(bail);
        }
    }

    /**
     * Before the region's store to {@code d} (checked inside its array as a load): its memory must be writable (a
     * shared array always is), and no element the group loaded may be one an earlier lane of it stores (the scalar
     * loop would read the stored value there); a failed check jumps to {@code bail}, before anything is stored.
     */
    private void checkStore(Expr.Deref d, Label bail) {
        if (!checks()) {
            return;
        }
        int[] st = address.get(d);
        if (!shared(((Expr.PtrAdd) d.pointer()).pointer())) {
            c.aload(st[0]);
            c.invokestatic(REGIONS, "writable", mt(CD_boolean, Jvm.SEGMENT));
            c.ifeq(bail);
        }
        c.aload(st[0]);
        c.lload(st[1]);
        c.invokestatic(Jvm.MEM, "address", mt(CD_long, Jvm.SEGMENT, CD_long));
        c.lstore(offTemp);
        for (Map.Entry<Expr.Deref, int[]> other : address.entrySet()) {
            if (other.getKey() == d) {
                continue;
            }
            int[] ld = other.getValue();
            Label fine = c.newLabel();
            c.aload(ld[0]);
            c.ifnull(fine);
            c.aload(ld[0]);
            c.lload(ld[1]);
            c.invokestatic(Jvm.MEM, "address", mt(CD_long, Jvm.SEGMENT, CD_long));
            c.lload(offTemp);
            if (broadcastSlot.containsKey(other.getKey())) {
                // a broadcast element must lie outside every store the checks cover
                pushCount();
                c.loadConstant(size);
                c.imul();
                c.loadConstant(size);
                c.invokestatic(REGIONS, "apart", mt(CD_boolean, CD_long, CD_long, CD_int, CD_int));
            } else {
                // a vector element keeps its distance from the store over a row: one group's check holds for all
                c.loadConstant(form.lanes() * size);
                c.invokestatic(REGIONS, "laterOrApart", mt(CD_boolean, CD_long, CD_long, CD_int));
            }
            c.ifeq(bail);
            c.labelBinding(fine);
        }
    }

    /** True if {@code p} is a shared array or a row of one: the block's own memory, which is always writable. */
    private boolean shared(Expr p) {
        return switch (p) {
            case Expr.Decay d when d.array() instanceof Expr.VarRef r ->
                    e.plan.storage.get(r.var()) == Plan.Storage.SHARED;
            case Expr.Decay d when d.array() instanceof Expr.Deref row && row.pointer() instanceof Expr.PtrAdd a ->
                    shared(a.pointer());
            default -> false;
        };
    }

    /** [vector] → stored at the group's elements of {@code d}. */
    private void store(Expr.Deref d) {
        int[] at = address.get(d);
        c.aload(at[0]);
        c.lload(at[1]);
        c.invokestatic(VectorApi.BYTE_ORDER, "nativeOrder", mt(VectorApi.BYTE_ORDER));
        c.invokevirtual(vector, "intoMemorySegment", mt(CD_void, Jvm.SEGMENT, CD_long, VectorApi.BYTE_ORDER));
    }

    /** Pushes the vector of {@code x}'s values in the group's lanes; its elements were loaded by {@link #load}. */
    private void value(Expr x) {
        switch (x) {
            case Expr.VarRef r -> c.aload(vectorSlot.get(r.var()));
            case Expr.FloatConst k -> {
                c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
                e.exprs.value(k);
                c.invokestatic(vector, "broadcast", mt(vector, VectorApi.SPECIES, scalar));
            }
            case Expr.Deref d when broadcastSlot.containsKey(d) -> {
                c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
                c.loadLocal(Jvm.kind(form.lane()).tk, broadcastSlot.get(d));
                c.invokestatic(vector, "broadcast", mt(vector, VectorApi.SPECIES, scalar));
            }
            case Expr.Deref d -> {
                int[] at = address.get(d);
                c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
                c.aload(at[0]);
                c.lload(at[1]);
                c.invokestatic(VectorApi.BYTE_ORDER, "nativeOrder", mt(VectorApi.BYTE_ORDER));
                c.invokestatic(vector, "fromMemorySegment",
                        mt(vector, VectorApi.SPECIES, Jvm.SEGMENT, CD_long, VectorApi.BYTE_ORDER));
            }
            case Expr.Binary b -> {
                value(b.left());
                value(b.right());
                arithmetic(b.op());
            }
            case Expr.Unary u when u.op() == Expr.UnaryOp.NEG -> {
                value(u.operand());
                c.invokevirtual(vector, "neg", mt(vector));
            }
            case Expr.Unary u -> value(u.operand());
            case Expr.Cast k -> value(k.operand());
            case Expr.Conditional q ->
                    branch((Expr.Binary) q.condition(), () -> value(q.ifTrue()), () -> value(q.ifFalse()));
            default -> throw new IllegalStateException("expression outside the region's lanes: " + x
                    + " (a bug in polygpu's kernel engine)");
        }
    }

    private void arithmetic(Expr.BinaryOp op) {
        LaneEmitter.arithmetic(c, vector, op);
    }
}
