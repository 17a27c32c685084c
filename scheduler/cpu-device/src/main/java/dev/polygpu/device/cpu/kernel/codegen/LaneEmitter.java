package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;

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
 * Emits the start of an element-wise kernel's {@code runBlock} ({@link LaneForm}): threads run a vector's worth at
 * a time, each thread a lane, through the JDK's Vector API, where {@link dev.polygpu.device.cpu.kernel.exec.LaneRange}
 * allows it for the block. In the straight form the block's first threads run so and the scalar thread loop runs
 * the rest from the first thread not run; a grid-stride loop runs whole, iteration by iteration over the block.
 * Each lane's index is thread 0's plus its {@code threadIdx.x}, so the elements {@code p[i + k]} of a group of lanes
 * are consecutive and one vector load or store moves them.
 */
final class LaneEmitter {
    private static final ClassDesc LANE_RANGE = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.LaneRange");

    private final Emitter e;
    private final CodeBuilder c;
    private final LaneForm form;
    private final ClassDesc vector;
    private final ClassDesc scalar;
    private final int size;
    private final Map<Var, Integer> vectorSlot = new IdentityHashMap<>();
    /** Per stream but the fixed ones, the byte offset of the current group's first element. */
    private final Map<LaneForm.Stream, Integer> offset = new IdentityHashMap<>();
    /** Per stream but the fixed ones, the byte offset of a vector loop's first group. */
    private final Map<LaneForm.Stream, Integer> start = new IdentityHashMap<>();
    /** Per stream, its shift in elements as a {@code long} (0 for none), computed once per block. */
    private final Map<LaneForm.Stream, Integer> shift = new IdentityHashMap<>();
    /** The local holding the running iteration's vector mask, or -1 where every lane runs. */
    private int maskSlot = -1;

    LaneEmitter(Emitter e, LaneForm form) {
        this.e = e;
        this.c = e.c;
        this.form = form;
        this.vector = VectorApi.vectorClass(form.lane());
        this.scalar = Jvm.kind(form.lane()).desc;
        this.size = form.lane().size();
    }

    /**
     * Runs the lanes and stores into int local {@code startSlot} the {@code threadIdx.x} the scalar loop starts
     * from: 0 where the block runs no lanes, {@code blockDim.x} where the lanes ran the whole block.
     */
    void emit(int startSlot) {
        Label skip = c.newLabel();
        c.iconst_0();
        c.istore(startSlot);
        oneRow(skip);
        int first = prefix();
        if (form.step() == null) {
            straight(startSlot, first);
        } else {
            strided(first, e.blockDimSlots[0], skip);
            c.iload(e.blockDimSlots[0]);
            c.istore(startSlot);
        }
        c.labelBinding(skip);
    }

    /** Jumps to {@code otherwise} unless the block is one row ({@code blockDim.y == blockDim.z == 1}). */
    private void oneRow(Label otherwise) {
        for (int d = 1; d < 3; d++) {
            c.iload(e.blockDimSlots[d]);
            c.iconst_1();
            c.if_icmpne(otherwise);
        }
    }

    /**
     * Thread 0's declarations (the uniform ones are every thread's, and the index is thread 0's), then
     * {@link #allocate}; answers the index's local.
     */
    private int prefix() {
        for (int slot : new int[] {e.txSlot, e.tySlot, e.tzSlot}) {
            c.iconst_0();
            c.istore(slot);
        }
        e.scopes.push(new ArrayList<>());
        form.prefix().forEach(e::statement);
        e.scopes.pop();
        allocate();
        return e.slot.get(form.index());
    }

    /**
     * The body of {@code runBlocks} for a form {@link LaneForm#acrossBlocks}: runs blocks {@code blockIdx.x …
     * blockIdx.x + blocks - 1} (int local {@code blocksSlot}) as one stretch of lanes and returns how many ran, 0 for
     * none. Their threads' indices follow on from one block to the next, and every other value of the prefix is the
     * same in each, so thread 0's prefix serves them all. The straight form runs as many whole blocks as pass the
     * guard and the memory checks, in the order the blocks would run their groups one by one, and the checks over
     * the stretch cover each block's. The grid-stride form runs the loop iteration by iteration over all the
     * stretch's threads, or none of them: with a step of at least their number each element is one thread's, and the
     * checks over every element from the first to the bound make sure no thread reads what another stores, so the
     * order of their iterations cannot be seen, as for one block.
     */
    void emitRun(int blocksSlot) {
        Label none = c.newLabel();
        oneRow(none);
        // a group of lanes must not straddle the stretch's last block and the next
        c.iload(e.blockDimSlots[0]);
        c.loadConstant(form.lanes());
        c.irem();
        c.ifne(none);
        int first = prefix();
        int width = c.allocateLocal(TypeKind.INT);
        c.iload(e.blockDimSlots[0]);
        c.iload(blocksSlot);
        c.invokestatic(LANE_RANGE, "width", mt(CD_int, CD_int, CD_int));
        c.istore(width);
        if (form.step() != null) {
            strided(first, width, none);
            c.iload(blocksSlot);
        } else {
            int count = c.allocateLocal(TypeKind.INT);
            c.iload(first);
            bound();
            c.iload(width);
            c.iconst_1();
            c.iconst_1();
            c.loadConstant(form.lanes());
            c.invokestatic(LANE_RANGE, "threads", mt(CD_int, CD_int, CD_long, CD_int, CD_int, CD_int, CD_int));
            memoryChecks(first);
            // whole blocks only: the rest runs block by block
            c.dup();
            c.iload(e.blockDimSlots[0]);
            c.irem();
            c.isub();
            c.dup();
            tally(c);
            c.istore(count);
            vectorLoop(count, first);
            c.iload(count);
            c.iload(e.blockDimSlots[0]);
            c.idiv();
        }
        c.ireturn();
        c.labelBinding(none);
        c.iconst_0();
        c.ireturn();
    }

    /** [] → the guard's bound as a {@code long}, {@code Long.MAX_VALUE} for none. */
    private void bound() {
        if (form.bound() == null) {
            c.loadConstant(Long.MAX_VALUE);
        } else {
            e.exprs.value(form.bound());
            c.i2l();
        }
    }

    /**
     * Computes each stream's shift (block-uniform) and allocates the locals of the group's offsets and of the
     * vectors of the body's variables.
     */
    void allocate() {
        for (LaneForm.Stream st : form.streams()) {
            if (!st.fixed()) {
                offset.put(st, c.allocateLocal(TypeKind.LONG));
                start.put(st, c.allocateLocal(TypeKind.LONG));
            }
            int slot = c.allocateLocal(TypeKind.LONG);
            shift.put(st, slot);
            if (st.shift() == null) {
                c.lconst_0();
            } else {
                e.exprs.value(st.shift());
                c.i2l();
                if (st.minus()) {
                    c.lneg();
                }
            }
            c.lstore(slot);
        }
        for (Var v : form.locals()) {
            vectorSlot.put(v, c.allocateLocal(TypeKind.REFERENCE));
        }
    }

    /** The local that holds variable {@code v}'s vector. */
    int vectorSlot(Var v) {
        return vectorSlot.get(v);
    }

    /** The block's first threads, as many as fill vectors and the guard lets through; the thread loop the rest. */
    private void straight(int startSlot, int first) {
        int count = c.allocateLocal(TypeKind.INT);
        c.iload(first);
        bound();
        for (int d : e.blockDimSlots) {
            c.iload(d);
        }
        c.loadConstant(form.lanes());
        c.invokestatic(LANE_RANGE, "threads", mt(CD_int, CD_int, CD_long, CD_int, CD_int, CD_int, CD_int));
        memoryChecks(first);
        c.dup();
        tally(c);
        c.istore(count);
        vectorLoop(count, first);
        c.iload(count);
        c.istore(startSlot);
    }

    /**
     * The grid-stride loop, iteration by iteration over the whole block, or over the {@code width} threads (int
     * local) of a stretch of blocks: in each, the threads whose index is still below the bound run as lanes as far
     * as they fill vectors and the others of them one by one, as in the scalar loop. Where the memory or the step
     * does not allow lanes ({@code LaneRange.strided}) it jumps to {@code skip}, and the threads run in the thread
     * loop.
     */
    private void strided(int first, int width, Label skip) {
        int bound = c.allocateLocal(TypeKind.INT);
        int step = c.allocateLocal(TypeKind.INT);
        int base = c.allocateLocal(TypeKind.INT);
        int active = c.allocateLocal(TypeKind.INT);
        int vectors = c.allocateLocal(TypeKind.INT);
        int ran = c.allocateLocal(TypeKind.INT);
        e.exprs.value(form.bound());
        c.istore(bound);
        e.exprs.value(form.step());
        c.istore(step);
        c.iload(first);
        c.iload(bound);
        c.iload(step);
        c.iload(width);
        c.invokestatic(LANE_RANGE, "strided", mt(CD_int, CD_int, CD_int, CD_int, CD_int));
        // the checks' elements: every one from thread 0's first index up to the bound
        c.iload(first);
        c.istore(base);
        memoryChecks(base);
        c.ifeq(skip);
        e.setStateField("ty", e.tySlot);
        e.setStateField("tz", e.tzSlot);
        c.iconst_0();
        c.istore(ran);
        Label top = c.newLabel();
        c.labelBinding(top);
        e.pollCancellation(form.step().pos());
        activeThreads(width, bound, base, active, vectors);
        c.iload(ran);
        c.iload(vectors);
        c.iadd();
        c.istore(ran);
        vectorLoop(vectors, base);
        Label sTop = c.newLabel();
        Label sEnd = c.newLabel();
        c.labelBinding(sTop);
        c.iload(e.txSlot);
        c.iload(active);
        c.if_icmpge(sEnd);
        e.setStateField("tx", e.txSlot);
        c.iload(base);
        c.iload(e.txSlot);
        c.iadd();
        c.istore(first);
        e.scopes.push(new ArrayList<>());
        form.body().forEach(e::statement);
        e.scopes.pop();
        c.iinc(e.txSlot, 1);
        c.goto_(sTop);
        c.labelBinding(sEnd);
        // base += step; LaneRange.strided made sure it cannot pass Integer.MAX_VALUE
        c.iload(base);
        c.iload(step);
        c.iadd();
        c.dup();
        c.istore(base);
        c.iload(bound);
        c.if_icmplt(top);
        c.iload(ran);
        tally(c);
    }

    /**
     * For one iteration of a loop run over the block: int local {@code active} = min({@code limit}, {@code bound -
     * base}), the threads still below the bound (the first ones, their indices being consecutive; {@code base <
     * bound} here), and {@code whole} = those of them that fill whole vectors.
     */
    void activeThreads(int limit, int bound, int base, int active, int whole) {
        c.iload(limit);
        c.iload(bound);
        c.iload(base);
        c.isub();
        c.invokestatic(Jvm.JAVA_MATH, "min", mt(CD_int, CD_int, CD_int));
        c.dup();
        c.istore(active);
        c.dup();
        c.loadConstant(form.lanes());
        c.irem();
        c.isub();
        c.istore(whole);
    }

    /**
     * Runs threads {@code 0 … count - 1} (int local {@code count}, a multiple of the lanes) a group of lanes at a
     * time; leaves {@code tx} at {@code count}.
     */
    private void vectorLoop(int count, int base) {
        Label top = c.newLabel();
        Label end = c.newLabel();
        // Each stream's offset is a start fixed before the loop plus the counter times the element size, a form in
        // which C2 proves the accesses in bounds once for the loop and unrolls it; the checks made sure that
        // base + tx stays an int, so this is the offset of element base + tx (docs/benchmarks.md, "Stretches of
        // blocks").
        groupAt(base, start);
        c.iconst_0();
        c.istore(e.txSlot);
        c.labelBinding(top);
        c.iload(e.txSlot);
        c.iload(count);
        c.if_icmpge(end);
        for (LaneForm.Stream st : form.streams()) {
            if (!st.fixed()) {
                c.lload(start.get(st));
                c.iload(e.txSlot);
                c.i2l();
                c.loadConstant((long) size);
                c.lmul();
                c.ladd();
                c.lstore(offset.get(st));
            }
        }
        form.body().forEach(this::statement);
        c.iinc(e.txSlot, form.lanes());
        c.goto_(top);
        c.labelBinding(end);
    }

    /**
     * One iteration of a region's loop ({@link LaneForm#sweep}) in a group whose first lane's index is int local
     * {@code index}; with {@code mask} (a local holding a vector mask, or -1), only the lanes it sets load, and the
     * others keep their {@link LaneForm#carried} values.
     */
    void iteration(int index, int mask) {
        groupAt(index, offset);
        maskSlot = mask;
        form.body().forEach(this::statement);
        maskSlot = -1;
    }

    /**
     * Stores into each stream's local of {@code into} ({@link #offset} or {@link #start}) the byte offset of its
     * element for the lane whose index is int local {@code base}.
     */
    private void groupAt(int base, Map<LaneForm.Stream, Integer> into) {
        for (LaneForm.Stream st : form.streams()) {
            if (st.fixed()) {
                continue;
            }
            c.lload(e.offSlot.get(st.array()));
            c.iload(base);
            c.i2l();
            c.lload(shift.get(st));
            c.ladd();
            c.loadConstant((long) size);
            c.lmul();
            c.ladd();
            c.lstore(into.get(st));
        }
    }

    /**
     * [n] → n, or 0 where an array's elements {@code first … first + n - 1} (int local {@code first}) do not allow
     * lanes ({@code LaneRange.inside}, {@code LaneRange.apart}).
     */
    void memoryChecks(int first) {
        for (LaneForm.Stream st : form.streams()) {
            if (st.fixed()) {
                c.aload(e.slot.get(st.array()));
                c.lload(e.offSlot.get(st.array()));
                c.lload(shift.get(st));
                c.loadConstant(size);
                c.invokestatic(LANE_RANGE, "element", mt(CD_int, CD_int, Jvm.SEGMENT, CD_long, CD_long, CD_int));
                continue;
            }
            c.aload(e.slot.get(st.array()));
            c.lload(e.offSlot.get(st.array()));
            firstElement(first, st);
            c.loadConstant(size);
            c.loadConstant(form.stored().contains(st) ? 1 : 0);
            c.invokestatic(LANE_RANGE, "inside", mt(CD_int, CD_int, Jvm.SEGMENT, CD_long, CD_long, CD_int, CD_boolean));
        }
        List<LaneForm.Stream> streams = form.streams();
        for (int a = 0; a < streams.size(); a++) {
            for (int b = a + 1; b < streams.size(); b++) {
                LaneForm.Stream p = streams.get(a);
                LaneForm.Stream q = streams.get(b);
                if (p.fixed() || q.fixed()) {
                    LaneForm.Stream one = p.fixed() ? q : p;
                    LaneForm.Stream element = p.fixed() ? p : q;
                    if (form.stored().contains(one)) {
                        c.aload(e.slot.get(one.array()));
                        c.lload(e.offSlot.get(one.array()));
                        firstElement(first, one);
                        c.aload(e.slot.get(element.array()));
                        c.lload(e.offSlot.get(element.array()));
                        c.lload(shift.get(element));
                        c.loadConstant(size);
                        c.invokestatic(LANE_RANGE, "outside", mt(CD_int, CD_int, Jvm.SEGMENT, CD_long, CD_long,
                                Jvm.SEGMENT, CD_long, CD_long, CD_int));
                    }
                } else if (form.stored().contains(p) || form.stored().contains(q)) {
                    c.aload(e.slot.get(p.array()));
                    c.lload(e.offSlot.get(p.array()));
                    c.aload(e.slot.get(q.array()));
                    c.lload(e.offSlot.get(q.array()));
                    firstElement(first, p);
                    firstElement(first, q);
                    c.loadConstant(size);
                    c.invokestatic(LANE_RANGE, "apart", mt(CD_int, CD_int, Jvm.SEGMENT, CD_long, Jvm.SEGMENT, CD_long,
                            CD_long, CD_long, CD_int));
                }
            }
        }
    }

    /** Pushes the index of stream {@code st}'s element for thread 0: int local {@code first} plus its shift. */
    private void firstElement(int first, LaneForm.Stream st) {
        c.iload(first);
        c.i2l();
        c.lload(shift.get(st));
        c.ladd();
    }

    private void statement(Stmt s) {
        switch (s) {
            case Stmt.VarDecl d -> {
                value(d.init());
                c.astore(vectorSlot.get(d.var()));
            }
            case Stmt.ExprStmt x when x.expr() instanceof Expr.Assign a -> {
                if (a.target() instanceof Expr.VarRef r) {
                    keepUnmasked(r, () -> value(a.value()));
                    c.astore(vectorSlot.get(r.var()));
                } else {
                    value(a.value());
                    store(a.target());
                }
            }
            case Stmt.ExprStmt x when x.expr() instanceof Expr.CompoundAssign a -> {
                Runnable compute = () -> {
                    value(a.target());
                    bitwise(a.op());
                    value(a.value());
                    arithmetic(a.op());
                };
                if (a.target() instanceof Expr.VarRef r) {
                    keepUnmasked(r, compute);
                    c.astore(vectorSlot.get(r.var()));
                } else {
                    compute.run();
                    store(a.target());
                }
            }
            default -> throw new IllegalStateException("statement outside the lane form: " + s
                    + " (a bug in polygpu's kernel engine)");
        }
    }

    /**
     * Pushes the new vector of variable {@code r} that {@code compute} pushes; in a masked iteration, a carried
     * variable's lanes the mask leaves out keep their value (blended), as those threads' loops have ended.
     */
    private void keepUnmasked(Expr.VarRef r, Runnable compute) {
        if (maskSlot < 0 || !form.carried().contains(r.var())) {
            compute.run();
            return;
        }
        c.aload(vectorSlot.get(r.var()));
        compute.run();
        c.aload(maskSlot);
        c.invokevirtual(vector, "blend", mt(vector, VectorApi.VECTOR, VectorApi.MASK));
    }

    /** [vector] → stores it at the current group's elements of {@code p[i]}. */
    private void store(Expr target) {
        LaneForm.Stream st = form.accesses().get(target);
        c.aload(e.slot.get(st.array()));
        c.lload(offset.get(st));
        byteOrder();
        c.invokevirtual(vector, "intoMemorySegment", mt(CD_void, Jvm.SEGMENT, CD_long, VectorApi.BYTE_ORDER));
    }

    /** Pushes the vector of {@code x}'s values in the current group's lanes. */
    private void value(Expr x) {
        if (form.broadcasts().contains(x)) {
            c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
            e.exprs.value(x);
            c.invokestatic(vector, "broadcast", mt(vector, VectorApi.SPECIES, scalar));
            return;
        }
        switch (x) {
            case Expr.VarRef r -> c.aload(vectorSlot.get(r.var()));
            case Expr.Deref d -> {
                LaneForm.Stream st = form.accesses().get(d);
                c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
                c.aload(e.slot.get(st.array()));
                c.lload(offset.get(st));
                byteOrder();
                if (maskSlot >= 0) {
                    // Lanes past the loop's end load nothing: their elements may lie outside the array.
                    c.aload(maskSlot);
                    c.invokestatic(vector, "fromMemorySegment",
                            mt(vector, VectorApi.SPECIES, Jvm.SEGMENT, CD_long, VectorApi.BYTE_ORDER, VectorApi.MASK));
                } else {
                    c.invokestatic(vector, "fromMemorySegment",
                            mt(vector, VectorApi.SPECIES, Jvm.SEGMENT, CD_long, VectorApi.BYTE_ORDER));
                }
            }
            case Expr.Binary b -> {
                value(b.left());
                bitwise(b.op());
                value(b.right());
                arithmetic(b.op());
            }
            case Expr.Unary u when u.op() == Expr.UnaryOp.NEG -> {
                value(u.operand());
                c.invokevirtual(vector, "neg", mt(vector));
            }
            case Expr.Unary u when u.op() == Expr.UnaryOp.PLUS -> value(u.operand());
            case Expr.Cast k when form.narrowed().containsKey(k) -> value(form.narrowed().get(k));
            case Expr.Conditional q when form.choices().contains(q) -> {
                Label otherwise = c.newLabel();
                Label end = c.newLabel();
                e.exprs.jumpIfFalse(q.condition(), otherwise);
                value(q.ifTrue());
                c.goto_(end);
                c.labelBinding(otherwise);
                value(q.ifFalse());
                c.labelBinding(end);
            }
            case Expr.Conditional q -> {
                // both sides are computed in every lane (they cannot fault), then each lane takes its side
                Expr.Binary b = (Expr.Binary) q.condition();
                value(b.left());
                c.getstatic(VectorApi.OPERATORS, b.op().name(), VectorApi.COMPARISON);
                value(b.right());
                c.invokevirtual(vector, "compare", mt(VectorApi.MASK, VectorApi.COMPARISON, VectorApi.VECTOR));
                int mask = c.allocateLocal(TypeKind.REFERENCE);
                c.astore(mask);
                value(q.ifFalse());
                value(q.ifTrue());
                c.aload(mask);
                c.invokevirtual(vector, "blend", mt(vector, VectorApi.VECTOR, VectorApi.MASK));
            }
            default -> throw new IllegalStateException("expression outside the lane form: " + x
                    + " (a bug in polygpu's kernel engine)");
        }
    }

    /** Pushes the Vector API's operator for a bitwise {@code op}, which {@link #arithmetic} applies; else nothing. */
    private void bitwise(Expr.BinaryOp op) {
        String name = switch (op) {
            case BIT_AND -> "AND";
            case BIT_OR -> "OR";
            case BIT_XOR -> "XOR";
            default -> null;
        };
        if (name != null) {
            c.getstatic(VectorApi.OPERATORS, name, VectorApi.ASSOCIATIVE);
        }
    }

    /** [vector, (operator,) vector] → the lane-wise result of {@code op}. */
    private void arithmetic(Expr.BinaryOp op) {
        switch (op) {
            case BIT_AND, BIT_OR, BIT_XOR ->
                    c.invokevirtual(vector, "lanewise", mt(vector, VectorApi.BINARY, VectorApi.VECTOR));
            default -> arithmetic(c, vector, op);
        }
    }

    /** [int n] → []: adds {@code n} to the threads the block state counts as run in lanes. */
    static void tally(CodeBuilder c) {
        c.i2l();
        c.aload(MethodEmitter.STATE_SLOT);
        c.dup_x2();
        c.getfield(Jvm.STATE, "laneThreads", CD_long);
        c.ladd();
        c.putfield(Jvm.STATE, "laneThreads", CD_long);
    }

    /** [vector, vector] → the lane-wise result of {@code op}, one of {@code + - * /}, in vectors of class {@code vector}. */
    static void arithmetic(CodeBuilder c, ClassDesc vector, Expr.BinaryOp op) {
        String name = switch (op) {
            case ADD -> "add";
            case SUB -> "sub";
            case MUL -> "mul";
            case DIV -> "div";
            default -> throw new IllegalStateException("operator outside the lanes: " + op
                    + " (a bug in polygpu's kernel engine)");
        };
        c.invokevirtual(vector, name, mt(vector, VectorApi.VECTOR));
    }

    private void byteOrder() {
        c.invokestatic(VectorApi.BYTE_ORDER, "nativeOrder", mt(VectorApi.BYTE_ORDER));
    }
}
