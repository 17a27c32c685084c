package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.SEGMENT;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.STATE;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_int;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.exec.WarpExchange;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.function.Consumer;

/**
 * Emits {@code runBlock} of a kernel in the barrier-region form ({@link RegionForm}): the uniform loops and
 * {@code if}s that hold barriers run once per block with their variables in JVM locals, and each region between
 * barriers is one loop over the block's threads (z, y, x, with the linear index beside them) that sets the
 * thread's coordinates, loads the variables saved by earlier regions, recomputes the ones derived from its
 * coordinates, runs the region's statements straight through, and stores what later regions read
 * ({@link SavedRegisters}). A thread that returns is marked exited in {@code BlockState.status} and later regions
 * skip it; when no thread is left the block ends. A uniform variable that the skeleton reads but regions assign is
 * reloaded after such a region from the last thread that finished it. Each barrier, and each back-edge of a loop
 * holding barriers, polls the stop request.
 * A loop that {@link Interchange} picks runs as a {@link RegionForm.Sweep}: passes over the threads, each running
 * a few iterations of every thread whose loop is still going, with a thread whose loop ended marked in
 * {@code status} until the sweep is over; where its loop has a lane form, groups of threads run it as SIMD lanes
 * first ({@link LaneSweepEmitter}). A warp intrinsic ({@link RegionForm.WarpOp}) calls
 * {@code WarpExchange.serveLive} for the warps of the running range; a thread-dependent {@code if} that holds them
 * ({@link RegionForm.Masked}) marks the threads that skip a side in {@code status}; a {@link RegionForm.PerWarp}
 * part runs its regions over one warp's lanes at a time.
 */
final class RegionEmitter {
    private static final int EXITED = 2;
    /** The status of a live thread whose loop in the running {@link #sweep} has ended. */
    private static final int DONE = 1;
    /**
     * How many iterations a thread runs in one pass of a {@link #sweep} before the next thread's turn. One per pass
     * pays the loading and storing of the thread's variables at every iteration; many make each thread walk alone
     * again, one element per stride. A few keep every pass within a few pages that all the block's threads share,
     * as a few prefetch streams (docs/benchmarks.md, "Loop interchange").
     */
    private static final int PASS_ITERATIONS = 4;
    private static final ClassDesc ARRAYS = ClassDesc.of("java.util.Arrays");
    private static final ClassDesc WARPS = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.WarpExchange");
    private static final ClassDesc RANGES = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.ThreadRanges");
    private static final int WARP_SIZE = 32;

    private final Emitter e;
    private final CodeBuilder c;
    private final RegionForm form;
    /** Where each saved variable lives in the block state's saved-register arrays. */
    private final SavedRegisters saved;
    private int threadsSlot;
    private int tidSlot;
    private int primArray;
    private int refArray;
    private int statusArray;
    private int liveSlot;
    /** The last thread that finished the current region (for its {@link RegionForm.Region#reloads}). */
    private int lastSlot;
    /** How many live threads' predicates held, in a predicate region. */
    private int countSlot;
    /** How many threads ran an iteration in the current pass of a {@link #sweep}. */
    private int goingSlot;
    /** The iterations the running thread has left in the current pass of a {@link #sweep}. */
    private int budgetSlot;
    /** The first and one past the last thread of the running warp, inside a {@link RegionForm.PerWarp} part. */
    private int loSlot;
    private int hiSlot;
    /** How many lanes of the running warp take the {@code then} side, and the {@code else} side, of a masked if. */
    private int takenSlot;
    private int skippedSlot;
    /**
     * The slots of the first and one past the last thread that the regions being emitted loop over, where that is
     * not the whole block: the running warp's, in a {@link RegionForm.PerWarp} part, or the warps that hold the
     * threads taking the running side of a {@link RegionForm.Masked} part; -1 for the whole block.
     */
    private int rangeLo = -1;
    private int rangeHi = -1;
    /** The first and last thread that take the {@code then} side, and the {@code else} side, of a masked if. */
    private int takenFirst;
    private int takenLast;
    private int skippedFirst;
    private int skippedLast;
    /** The range of warps that run the side of a masked if being emitted. */
    private int sideLo;
    private int sideHi;
    /** The first and one past the last {@code threadIdx.x} a region with a {@link ThreadRange} visits. */
    private int xFromSlot;
    private int xToSlot;
    /** The passes the running {@link #sweep} has made. */
    private int passesSlot;
    /**
     * Where a region goes when no thread that runs it is left (every one has returned): the end of the running
     * warp's part or of the side of a {@link RegionForm.Masked} part; null at the block's level, which then ends.
     */
    private Label noneLeft;

    RegionEmitter(Emitter e, RegionForm form) {
        this.e = e;
        this.c = e.c;
        this.form = form;
        this.saved = new SavedRegisters(e, form.saved);
    }

    /** Saved primitive slots per thread. */
    int primSlots() {
        return saved.primSlots;
    }

    /** Saved reference slots per thread (a pointer's segment). */
    int refSlots() {
        return saved.refSlots;
    }

    void emit() {
        e.allocateSlots();
        e.loadBlockConstants(false);
        for (Var v : e.plan.vars) {
            if (!e.plan.constantParams.contains(v)) {
                e.zeroVar(v);
            }
        }
        threadsSlot = c.allocateLocal(TypeKind.INT);
        tidSlot = c.allocateLocal(TypeKind.INT);
        primArray = c.allocateLocal(TypeKind.REFERENCE);
        refArray = c.allocateLocal(TypeKind.REFERENCE);
        statusArray = c.allocateLocal(TypeKind.REFERENCE);
        liveSlot = c.allocateLocal(TypeKind.INT);
        lastSlot = c.allocateLocal(TypeKind.INT);
        countSlot = c.allocateLocal(TypeKind.INT);
        goingSlot = c.allocateLocal(TypeKind.INT);
        budgetSlot = c.allocateLocal(TypeKind.INT);
        loSlot = c.allocateLocal(TypeKind.INT);
        hiSlot = c.allocateLocal(TypeKind.INT);
        takenSlot = c.allocateLocal(TypeKind.INT);
        skippedSlot = c.allocateLocal(TypeKind.INT);
        takenFirst = c.allocateLocal(TypeKind.INT);
        takenLast = c.allocateLocal(TypeKind.INT);
        skippedFirst = c.allocateLocal(TypeKind.INT);
        skippedLast = c.allocateLocal(TypeKind.INT);
        sideLo = c.allocateLocal(TypeKind.INT);
        sideHi = c.allocateLocal(TypeKind.INT);
        xFromSlot = c.allocateLocal(TypeKind.INT);
        xToSlot = c.allocateLocal(TypeKind.INT);
        passesSlot = c.allocateLocal(TypeKind.INT);
        // The emitter's exchanges with the block state (warp operands) address the running thread by this slot.
        e.tidSlot = tidSlot;
        c.iload(e.blockDimSlots[0]);
        c.iload(e.blockDimSlots[1]);
        c.imul();
        c.iload(e.blockDimSlots[2]);
        c.imul();
        c.istore(threadsSlot);
        stateArray("prims", "[J", primArray);
        stateArray("refs", "[Ljava/lang/Object;", refArray);
        saved.bind(threadsSlot, tidSlot, primArray, refArray);
        stateArray("status", "[B", statusArray);
        c.iconst_0();
        c.istore(tidSlot);
        c.iconst_0();
        c.istore(liveSlot);
        c.iconst_0();
        c.istore(lastSlot);
        c.iconst_0();
        c.istore(countSlot);
        c.iconst_0();
        c.istore(goingSlot);
        if (form.exits || form.sweeps > 0 || form.masked) {
            c.aload(statusArray);
            c.iconst_0();
            c.invokestatic(ARRAYS, "fill", MethodTypeDesc.ofDescriptor("([BB)V"));
        }
        for (Var p : form.savedParams) {
            saved.startParam(p);
        }
        node(form.root);
        c.return_();
    }

    private void stateArray(String field, String desc, int slot) {
        c.aload(MethodEmitter.STATE_SLOT);
        c.getfield(STATE, field, ClassDesc.ofDescriptor(desc));
        c.astore(slot);
    }

    private void node(RegionForm.Node n) {
        switch (n) {
            case RegionForm.Seq s -> s.parts().forEach(this::node);
            case RegionForm.RegionRef r -> region(form.region(r));
            case RegionForm.Barrier b -> barrier(b);
            case RegionForm.Cond q -> {
                Label otherwise = c.newLabel();
                Label end = c.newLabel();
                e.exprs.jumpIfFalse(q.condition(), otherwise);
                node(q.then());
                c.goto_(end);
                c.labelBinding(otherwise);
                node(q.otherwise());
                c.labelBinding(end);
            }
            case RegionForm.Loop l -> loop(l);
            case RegionForm.Sweep w -> sweep(form.regions.get(w.index()));
            case RegionForm.WarpOp w -> {
                c.aload(MethodEmitter.STATE_SLOT);
                c.loadConstant(w.op().ordinal());
                loadRange();
                c.loadConstant(w.pos().line() << 16 | w.pos().column());
                c.invokestatic(WARPS, "serveLive", MethodTypeDesc.ofDescriptor("(" + STATE.descriptorString()
                        + "IIII)V"));
            }
            case RegionForm.Masked m -> masked(m);
            case RegionForm.PerWarp p -> perWarp(p);
        }
    }

    /**
     * Runs {@code p}'s body once for each warp of the block, with {@code [lo, hi)} its threads; then, if threads
     * may return, ends the block when none is left.
     */
    private void perWarp(RegionForm.PerWarp p) {
        Label top = c.newLabel();
        Label next = c.newLabel();
        Label done = c.newLabel();
        c.iconst_0();
        c.istore(loSlot);
        c.labelBinding(top);
        c.iload(loSlot);
        c.iload(threadsSlot);
        c.if_icmpge(done);
        c.iload(loSlot);
        c.loadConstant(WARP_SIZE);
        c.iadd();
        c.iload(threadsSlot);
        c.invokestatic(Jvm.JAVA_MATH, "min", MethodTypeDesc.ofDescriptor("(II)I"));
        c.istore(hiSlot);
        Label outer = noneLeft;
        rangeLo = loSlot;
        rangeHi = hiSlot;
        noneLeft = next;
        node(p.body());
        noneLeft = outer;
        rangeLo = -1;
        rangeHi = -1;
        c.labelBinding(next);
        c.iload(loSlot);
        c.loadConstant(WARP_SIZE);
        c.iadd();
        c.istore(loSlot);
        c.goto_(top);
        c.labelBinding(done);
        if (form.exits) {
            Label go = c.newLabel();
            c.aload(MethodEmitter.STATE_SLOT);
            c.iload(threadsSlot);
            c.invokestatic(WARPS, "anyLive", MethodTypeDesc.ofDescriptor("(" + STATE.descriptorString() + "I)Z"));
            c.ifne(go);
            c.return_();
            c.labelBinding(go);
        }
    }

    /**
     * A {@link RegionForm.Masked} part in the block (or the running warp): the condition's region marks the threads
     * that skip the {@code then} side, which runs in the others; the marks are flipped for the {@code else} side,
     * then cleared.
     */
    private void masked(RegionForm.Masked m) {
        for (int slot : new int[] {takenSlot, skippedSlot, takenLast, skippedLast}) {
            c.iconst_0();
            c.istore(slot);
        }
        for (int slot : new int[] {takenFirst, skippedFirst}) {
            c.iconst_m1();
            c.istore(slot);
        }
        region(form.regions.get(m.condition()));
        Label outer = noneLeft;
        int outerLo = rangeLo;
        int outerHi = rangeHi;
        Label thenEnd = c.newLabel();
        noneLeft = thenEnd;
        // A side no lane takes is not run at all: its uniform loops could otherwise run on values no lane set.
        c.iload(takenSlot);
        c.ifeq(thenEnd);
        side(takenFirst, takenLast);
        node(m.then());
        rangeLo = outerLo;
        rangeHi = outerHi;
        c.labelBinding(thenEnd);
        boolean otherwise = !(m.otherwise() instanceof RegionForm.Seq s && s.parts().isEmpty());
        if (otherwise) {
            Label elseEnd = c.newLabel();
            c.iload(skippedSlot);
            c.ifeq(elseEnd);
            c.aload(MethodEmitter.STATE_SLOT);
            loadRange();
            c.invokestatic(WARPS, "flipSkipped", MethodTypeDesc.ofDescriptor("(" + STATE.descriptorString()
                    + "II)V"));
            noneLeft = elseEnd;
            side(skippedFirst, skippedLast);
            node(m.otherwise());
            rangeLo = outerLo;
            rangeHi = outerHi;
            c.labelBinding(elseEnd);
        }
        noneLeft = outer;
        clearMark(WarpExchange.SKIPPED);
    }

    /**
     * Narrows the range the regions of a side of a masked if loop over to the warps that hold its first and last
     * thread ({@code first}, {@code last}: slots), so that a side few threads take (the first warp's second step of
     * a block reduction) does not visit every thread of the block.
     */
    private void side(int first, int last) {
        c.iload(first);
        c.loadConstant(~(WARP_SIZE - 1));
        c.iand();
        c.istore(sideLo);
        c.iload(last);
        c.loadConstant(WARP_SIZE - 1);
        c.ior();
        c.iconst_1();
        c.iadd();
        c.iload(threadsSlot);
        c.invokestatic(Jvm.JAVA_MATH, "min", MethodTypeDesc.ofDescriptor("(II)I"));
        c.istore(sideHi);
        rangeLo = sideLo;
        rangeHi = sideHi;
    }

    /** Pushes the first and one past the last thread of the running range: the warp's, or the block's. */
    private void loadRange() {
        if (rangeLo >= 0) {
            c.iload(rangeLo);
            c.iload(rangeHi);
        } else {
            c.iconst_0();
            c.iload(threadsSlot);
        }
    }

    /** Makes every thread of the running range (the warp's, or the block) marked {@code mark} live again. */
    private void clearMark(int mark) {
        c.aload(MethodEmitter.STATE_SLOT);
        loadRange();
        c.loadConstant(mark);
        c.invokestatic(WARPS, "clearMark", MethodTypeDesc.ofDescriptor("(" + STATE.descriptorString() + "III)V"));
    }

    /**
     * A barrier: polls the stop request; a predicated one then stores its result, from the count of the predicate
     * region just before it, into its variable.
     */
    private void barrier(RegionForm.Barrier b) {
        e.pollCancellation(null);
        if (b.target() == null) {
            return;
        }
        c.iload(countSlot);
        switch (b.kind()) {
            case SYNCTHREADS_COUNT -> { }
            case SYNCTHREADS_AND -> {
                c.iload(liveSlot);
                compareToInt(true);
            }
            case SYNCTHREADS_OR -> {
                c.iconst_0();
                compareToInt(false);
            }
            default -> throw new IllegalStateException(b.kind().name());
        }
        e.storeVar(b.target());
    }

    /** Replaces the two ints on the stack by 1 if they are equal ({@code equal}) or differ (not), else 0. */
    private void compareToInt(boolean equal) {
        Label yes = c.newLabel();
        Label end = c.newLabel();
        if (equal) {
            c.if_icmpeq(yes);
        } else {
            c.if_icmpne(yes);
        }
        c.iconst_0();
        c.goto_(end);
        c.labelBinding(yes);
        c.iconst_1();
        c.labelBinding(end);
    }

    private void loop(RegionForm.Loop l) {
        l.init().forEach(e::statement);
        Label top = c.newBoundLabel();
        Label brk = c.newLabel();
        if (!l.testLast() && l.condition() != null) {
            e.exprs.jumpIfFalse(l.condition(), brk);
        }
        node(l.body());
        if (l.update() != null) {
            e.exprs.discard(l.update());
        }
        e.pollCancellation(l.loop().pos());
        if (l.testLast()) {
            e.exprs.jumpIfTrue(l.condition(), top);
        } else {
            c.goto_(top);
        }
        c.labelBinding(brk);
    }

    /** One region: a loop over the block's threads running its statements. */
    private void region(RegionForm.Region r) {
        if (countsLive(r)) {
            c.iconst_0();
            c.istore(liveSlot);
        }
        if (r.predicate != null) {
            c.iconst_0();
            c.istore(countSlot);
        }
        boolean narrowed = r.range != null && rangeLo < 0;
        if (narrowed) {
            xRange(r.range);
        }
        RegionLaneEmitter lanes = r.vectorLanes == null || rangeLo >= 0 ? null
                : new RegionLaneEmitter(e, r, frame(r));
        if (lanes != null) {
            lanes.allocate();
        }
        forEachThread(narrowed, threadNext -> {
            if (form.exits || form.masked) {
                c.aload(statusArray);
                c.iload(tidSlot);
                c.baload();
                c.ifne(threadNext);
            }
            if (lanes != null) {
                lanes.group(threadNext, narrowed ? xToSlot : e.blockDimSlots[0]);
            }
            e.setStateField("tid", tidSlot);
            threadBody(r, threadNext);
        });
        if (form.exits && r.mask == null) {
            Label go = c.newLabel();
            c.iload(liveSlot);
            c.ifne(go);
            if (noneLeft == null) {
                c.return_();
            } else {
                c.goto_(noneLeft);
            }
            c.labelBinding(go);
        }
        reload(r);
    }

    private void reload(RegionForm.Region r) {
        if (!r.reloads.isEmpty()) {
            c.iload(lastSlot);
            c.istore(tidSlot);
            r.reloads.forEach(saved::restore);
        }
    }

    /**
     * The loop over the block's threads (z, y, x, with the linear index in {@code tidSlot}): {@code perThread} emits
     * what one thread runs, given the label that goes on to the next thread.
     */
    private void forEachThread(Consumer<Label> perThread) {
        forEachThread(false, perThread);
    }

    /**
     * Sets {@code xFromSlot} and {@code xToSlot} to the {@code threadIdx.x} that pass {@code range}'s comparison,
     * evaluated once for the block.
     */
    private void xRange(ThreadRange range) {
        Expr bound = range.bound();
        e.exprs.value(bound);
        Ops.convert(c, bound.type(), range.operandType(), bound.pos());
        if (!range.wide()) {
            if (range.unsigned()) {
                c.invokestatic(Jvm.INTEGER, "toUnsignedLong", MethodTypeDesc.ofDescriptor("(I)J"));
            } else {
                c.i2l();
            }
        }
        c.loadConstant(range.wide() && range.unsigned() ? 1 : 0);
        c.iload(e.blockDimSlots[0]);
        c.invokestatic(RANGES, range.equal() ? "at" : "below", MethodTypeDesc.ofDescriptor("(JZI)I"));
        if (range.equal()) {
            c.dup();
            c.istore(xFromSlot);
            c.iconst_1();
            c.iadd();
            c.iload(e.blockDimSlots[0]);
            c.invokestatic(Jvm.JAVA_MATH, "min", MethodTypeDesc.ofDescriptor("(II)I"));
            c.istore(xToSlot);
        } else {
            c.istore(xToSlot);
            c.iconst_0();
            c.istore(xFromSlot);
        }
    }

    /**
     * The loop over the threads of the running range: the block's (z, y, x, the linear index beside them; with
     * {@code narrowed}, x only over {@code [xFromSlot, xToSlot)}), or the lanes of {@link #rangeLo} to
     * {@link #rangeHi}.
     */
    private void forEachThread(boolean narrowed, Consumer<Label> perThread) {
        if (rangeLo >= 0) {
            forEachLane(perThread);
            return;
        }
        Label[] top = new Label[3];
        Label[] next = {c.newLabel(), c.newLabel()};
        int[] coord = {e.tzSlot, e.tySlot, e.txSlot};
        int[] extent = {e.blockDimSlots[2], e.blockDimSlots[1], e.blockDimSlots[0]};
        c.iconst_0();
        c.istore(tidSlot);
        Label done = c.newLabel();
        for (int d = 0; d < 3; d++) {
            boolean x = d == 2 && narrowed;
            if (x) {
                // The linear index of the first thread visited in this row: (z * bdy + y) * bdx + xFrom.
                c.iload(e.tzSlot);
                c.iload(e.blockDimSlots[1]);
                c.imul();
                c.iload(e.tySlot);
                c.iadd();
                c.iload(e.blockDimSlots[0]);
                c.imul();
                c.iload(xFromSlot);
                c.iadd();
                c.istore(tidSlot);
                c.iload(xFromSlot);
            } else {
                c.iconst_0();
            }
            c.istore(coord[d]);
            top[d] = c.newBoundLabel();
            c.iload(coord[d]);
            c.iload(x ? xToSlot : extent[d]);
            c.if_icmpge(d == 0 ? done : next[d - 1]);
        }
        Label threadNext = c.newLabel();
        perThread.accept(threadNext);
        c.labelBinding(threadNext);
        c.iinc(tidSlot, 1);
        for (int d = 2; d >= 0; d--) {
            c.iinc(coord[d], 1);
            c.goto_(top[d]);
            if (d > 0) {
                c.labelBinding(next[d - 1]);
            }
        }
        c.labelBinding(done);
    }

    /** The loop over the running warp's threads, their coordinates from the block state's tables. */
    private void forEachLane(Consumer<Label> perThread) {
        Label top = c.newLabel();
        Label done = c.newLabel();
        Label threadNext = c.newLabel();
        c.iload(rangeLo);
        c.istore(tidSlot);
        c.labelBinding(top);
        c.iload(tidSlot);
        c.iload(rangeHi);
        c.if_icmpge(done);
        String[] table = {"threadX", "threadY", "threadZ"};
        int[] coord = {e.txSlot, e.tySlot, e.tzSlot};
        for (int d = 0; d < 3; d++) {
            c.aload(MethodEmitter.STATE_SLOT);
            c.getfield(STATE, table[d], ClassDesc.ofDescriptor("[I"));
            c.iload(tidSlot);
            c.iaload();
            c.istore(coord[d]);
        }
        perThread.accept(threadNext);
        c.labelBinding(threadNext);
        c.iinc(tidSlot, 1);
        c.goto_(top);
        c.labelBinding(done);
    }

    /**
     * A loop run iteration-major: passes over the block's threads, each running up to {@link #PASS_ITERATIONS}
     * iterations (condition, body, update) of every thread whose loop is still going and marking a thread whose
     * condition fails as done, until a pass finds none going; then the marks are cleared. Each pass polls the stop
     * request, so a loop that never ends still stops; an iteration's own inner loops poll as they do elsewhere.
     */
    private void sweep(RegionForm.Region r) {
        if (r.lanes != null && rangeLo < 0) {
            new LaneSweepEmitter(e, r, frame(r)).emit();
        }
        c.iconst_0();
        c.istore(passesSlot);
        Label pass = c.newBoundLabel();
        c.iinc(passesSlot, 1);
        c.iconst_0();
        c.istore(goingSlot);
        forEachThread(threadNext -> {
            c.aload(statusArray);
            c.iload(tidSlot);
            c.baload();
            c.ifne(threadNext);
            e.setStateField("tid", tidSlot);
            iteration(r);
        });
        Label finished = c.newLabel();
        c.iload(goingSlot);
        c.ifeq(finished);
        e.pollCancellation(r.loop.pos());
        c.goto_(pass);
        c.labelBinding(finished);
        clearMark(DONE);
        // For the runner's choice between the swept and the thread-loop form (KernelRunner).
        c.aload(MethodEmitter.STATE_SLOT);
        c.dup();
        c.getfield(STATE, "sweepPasses", CD_int);
        c.iload(passesSlot);
        c.invokestatic(Jvm.JAVA_MATH, "max", MethodTypeDesc.ofDescriptor("(II)I"));
        c.putfield(STATE, "sweepPasses", CD_int);
        reload(r);
    }

    /** What the lane emitters need of this one for region {@code r}. */
    private LaneSweepEmitter.Frame frame(RegionForm.Region r) {
        return new LaneSweepEmitter.Frame(threadsSlot, tidSlot, primArray, statusArray, DONE, saved,
                () -> enterThread(r));
    }

    /**
     * Up to {@link #PASS_ITERATIONS} iterations of the running thread in a {@link #sweep}, with its variables
     * loaded before them and stored after them.
     */
    private void iteration(RegionForm.Region r) {
        enterThread(r);
        Label ends = c.newLabel();
        Label save = c.newLabel();
        c.loadConstant(PASS_ITERATIONS);
        c.istore(budgetSlot);
        Label top = c.newBoundLabel();
        switch (r.loop) {
            case Stmt.For f -> {
                e.exprs.jumpIfFalse(f.condition(), ends);
                e.statement(f.body());
                if (f.update() != null) {
                    e.exprs.discard(f.update());
                }
            }
            case Stmt.While w -> {
                e.exprs.jumpIfFalse(w.condition(), ends);
                e.statement(w.body());
            }
            default -> throw new IllegalStateException("not a loop to interchange: " + r.loop);
        }
        c.iinc(budgetSlot, -1);
        c.iload(budgetSlot);
        c.ifgt(top);
        c.iinc(goingSlot, 1);
        c.goto_(save);
        c.labelBinding(ends);
        c.aload(statusArray);
        c.iload(tidSlot);
        c.loadConstant(DONE);
        c.bastore();
        c.labelBinding(save);
        r.stores.forEach(saved::save);
        if (!r.reloads.isEmpty()) {
            c.iload(tidSlot);
            c.istore(lastSlot);
        }
    }

    /** Points the running thread's local memory at its own, and loads and recomputes what region {@code r} reads. */
    private void enterThread(RegionForm.Region r) {
        for (Var v : r.localMemory) {
            c.aload(MethodEmitter.STATE_SLOT);
            c.iload(tidSlot);
            c.loadConstant(e.plan.memorySlot.get(v));
            c.invokevirtual(STATE, "local", mt(SEGMENT, CD_int, CD_int));
            c.astore(e.slot.get(v));
        }
        r.loads.forEach(saved::restore);
        for (Var v : r.recompute) {
            e.exprs.value(form.recomputed.get(v));
            e.storeVar(v);
        }
    }

    private void threadBody(RegionForm.Region r, Label threadNext) {
        enterThread(r);
        Label exited = c.newLabel();
        e.threadEnd = exited;
        if (r.predicate != null) {
            // As the cooperative form deposits it: converted to a long, true when not zero.
            Label no = c.newLabel();
            e.exprs.value(r.predicate);
            Ops.convert(c, r.predicate.type(), CType.Prim.LONG, r.predicate.pos());
            c.lconst_0();
            c.lcmp();
            c.ifeq(no);
            c.iinc(countSlot, 1);
            c.labelBinding(no);
        } else if (r.mask != null) {
            Label taken = c.newLabel();
            Label counted = c.newLabel();
            e.exprs.jumpIfTrue(r.mask, taken);
            c.aload(statusArray);
            c.iload(tidSlot);
            c.loadConstant(WarpExchange.SKIPPED);
            c.bastore();
            c.iinc(skippedSlot, 1);
            noteThread(skippedFirst, skippedLast);
            c.goto_(counted);
            c.labelBinding(taken);
            c.iinc(takenSlot, 1);
            noteThread(takenFirst, takenLast);
            c.labelBinding(counted);
        } else {
            int from = 0;
            int to = r.statements.size();
            if (r.result != null) {
                // The first statement only stands for this, for the analyses.
                c.aload(MethodEmitter.STATE_SLOT);
                c.getfield(STATE, "xResult", ClassDesc.ofDescriptor("[J"));
                c.iload(tidSlot);
                c.laload();
                e.exprs.fromBits(Jvm.kind(r.result.type));
                e.storeVar(r.result);
                from = 1;
            }
            if (r.deposit != null) {
                // The last statements only stand for the deposit's operands, for the analyses.
                to -= r.deposit.args().size();
            }
            for (Stmt s : r.statements.subList(from, to)) {
                e.statement(s);
            }
            if (r.deposit != null) {
                e.deposit(r.deposit);
            }
        }
        r.stores.forEach(saved::save);
        if (!r.reloads.isEmpty()) {
            c.iload(tidSlot);
            c.istore(lastSlot);
        }
        if (countsLive(r)) {
            c.iinc(liveSlot, 1);
        }
        if (r.returns) {
            c.goto_(threadNext);
            c.labelBinding(exited);
            c.aload(statusArray);
            c.iload(tidSlot);
            c.loadConstant(EXITED);
            c.bastore();
        } else {
            c.labelBinding(exited);
        }
    }

    /** Records the running thread as the last of a side, and the first if none came before it. */
    private void noteThread(int first, int last) {
        Label seen = c.newLabel();
        c.iload(first);
        c.ifge(seen);
        c.iload(tidSlot);
        c.istore(first);
        c.labelBinding(seen);
        c.iload(tidSlot);
        c.istore(last);
    }

    /** True if {@code r} counts the threads that finish it: threads may exit, or a predicated barrier follows. */
    private boolean countsLive(RegionForm.Region r) {
        return form.exits || r.predicate != null;
    }


}
