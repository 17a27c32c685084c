package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.FRAME;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.MEM;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.SEGMENT;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.STATE;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.codegen.Jvm.K;
import dev.polygpu.device.cpu.kernel.exec.KernelInfo;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ClassDesc;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The layout of a kernel's JVM method, shared by the statement layer {@link Emitter}: the two entry methods
 * ({@code runBlock} and {@code resumeThreads}, described on {@link Emitter}), local-variable slots and temporaries,
 * the prologue that loads a block's constants and the kernel's parameters, and saving and restoring the variables
 * live at a yield point. Sealed so that {@link ExprEmitter} can be handed the {@link Emitter} it belongs to.
 */
abstract sealed class MethodEmitter permits Emitter {
    static final int FRAME_SLOT = 1;
    static final int STATE_SLOT = 2;
    static final int BX_SLOT = 3;
    static final int BY_SLOT = 4;
    static final int BZ_SLOT = 5;
    static final int FROM_SLOT = 6;
    /** {@code runBlocks}' count of blocks. */
    static final int BLOCKS_SLOT = 6;
    static final int TO_SLOT = 7;

    final CodeBuilder c;
    final Plan plan;
    /** True for a cooperative kernel run as a state machine ({@code resumeThreads}). */
    final boolean coop;
    /** True for a kernel run in the barrier-region form ({@link RegionEmitter}). */
    final boolean regionForm;
    final ExprEmitter exprs;
    /** Which loops get a reconvergence point at the end of their body (cooperative kernels). */
    final Reconvergence reconvergence;

    final Map<Var, Integer> slot = new IdentityHashMap<>();
    final Map<Var, Integer> offSlot = new IdentityHashMap<>();
    /** The JVM locals of each VECTOR variable's components (a struct's scalar leaves), in order. */
    final Map<Var, int[]> vectorSlots = new IdentityHashMap<>();
    int txSlot, tySlot, tzSlot;
    /** The launch's stop request ({@code BlockState.cancel}), polled at loop back-edges. */
    int cancelSlot;
    /** Back-edges a countdown loop may still take before it polls the stop request ({@link LoopPolls}). */
    int budgetSlot;
    final int[] blockDimSlots = new int[3];
    final int[] gridDimSlots = new int[3];

    private final Map<K, Deque<Integer>> freeTemps = new EnumMap<>(K.class);
    final Deque<Loop> loops = new ArrayDeque<>();
    final Deque<Inline> inlines = new ArrayDeque<>();
    Label threadEnd;

    final List<KernelInfo.Site> sites = new ArrayList<>();
    Label saveTail;
    private int primBase;
    private int refBase;
    private int primArray;
    private int refArray;
    /** Variables declared in the blocks being emitted, innermost last: what may be live at a yield point. */
    final Deque<List<Var>> scopes = new ArrayDeque<>();
    /** Per yield site: the saved variables in scope there (the others are dead and not saved). */
    final List<java.util.Set<Var>> liveAtSite = new ArrayList<>();
    int siteTemp;
    int resumeSlot;
    /** Linear index of the thread being run (cooperative kernels). */
    int tidSlot;
    Label exitLabel;
    /** Saved variables (cooperative kernels) and their indices in the prims/refs arrays. */
    private final List<Var> saved = new ArrayList<>();
    private final Map<Var, Integer> primIndex = new IdentityHashMap<>();
    private final Map<Var, Integer> refIndex = new IdentityHashMap<>();
    int primSlots;
    /** Set when the kernel (or a function inlined into it) calls printf or assert. */
    boolean prints;
    int refSlots;

    record Loop(Label breakLabel, Label continueLabel) {}

    final Deque<ResumableLoop> resumableLoops = new ArrayDeque<>();
    /** Where the top-level dispatch sends each resume point: a site, or the outermost loop holding it. */
    final List<SwitchCase> topTargets = new ArrayList<>();

    /** Marks an inlined function's body: break and continue do not reach past it. */
    static final Loop FUNCTION_BOUNDARY = new Loop(null, null);

    record Inline(Label end, CType returnType) {}

    MethodEmitter(CodeBuilder c, Plan plan) {
        this.c = c;
        this.plan = plan;
        this.regionForm = plan.regions != null;
        this.coop = plan.cooperative() && !regionForm;
        this.exprs = new ExprEmitter((Emitter) this);
        this.reconvergence = coop ? new Reconvergence(plan.kernel, plan.lowering) : null;
    }

    /** Emits one statement ({@link Emitter}). */
    abstract void statement(Stmt s);

    // ---- method bodies --------------------------------------------------------------------------------

    void emitRunBlock() {
        startBlockMethod();
        Label zTop = c.newLabel();
        Label yTop = c.newLabel();
        Label xTop = c.newLabel();
        Label zNext = c.newLabel();
        Label yNext = c.newLabel();
        Label done = c.newLabel();
        threadEnd = c.newLabel();
        // The threads of the first row the lanes ran are not run again.
        int firstTx = c.allocateLocal(TypeKind.INT);
        if (plan.lanes != null) {
            new LaneEmitter((Emitter) this, plan.lanes).emit(firstTx);
        } else {
            c.iconst_0();
            c.istore(firstTx);
        }
        c.iconst_0();
        c.istore(tzSlot);
        c.labelBinding(zTop);
        c.iload(tzSlot);
        c.iload(blockDimSlots[2]);
        c.if_icmpge(done);
        setStateField("tz", tzSlot);
        c.iconst_0();
        c.istore(tySlot);
        c.labelBinding(yTop);
        c.iload(tySlot);
        c.iload(blockDimSlots[1]);
        c.if_icmpge(zNext);
        setStateField("ty", tySlot);
        c.iload(firstTx);
        c.istore(txSlot);
        c.labelBinding(xTop);
        c.iload(txSlot);
        c.iload(blockDimSlots[0]);
        c.if_icmpge(yNext);
        setStateField("tx", txSlot);
        loadVariableParams();
        statement(plan.lowering.body(plan.kernel));
        c.labelBinding(threadEnd);
        c.iinc(txSlot, 1);
        c.goto_(xTop);
        c.labelBinding(yNext);
        c.iconst_0();
        c.istore(firstTx);
        c.iinc(tySlot, 1);
        c.goto_(yTop);
        c.labelBinding(zNext);
        c.iinc(tzSlot, 1);
        c.goto_(zTop);
        c.labelBinding(done);
        c.return_();
    }

    /**
     * {@code runBlocks} of a kernel whose lane form runs across blocks ({@link LaneForm#acrossBlocks}): its lanes
     * over a stretch of blocks, the count of which is the method's last parameter.
     */
    void emitRunBlocks() {
        startBlockMethod();
        new LaneEmitter((Emitter) this, plan.lanes).emitRun(BLOCKS_SLOT);
    }

    /** The start of a method that runs whole blocks: its slots, the launch's constants, every variable zeroed. */
    private void startBlockMethod() {
        allocateSlots();
        loadBlockConstants(false);
        for (Var v : plan.vars) {
            if (!plan.constantParams.contains(v)) {
                zeroVar(v);
            }
        }
    }

    void emitResume() {
        allocateSlots();
        for (Var v : plan.vars) {
            Plan.Storage s = plan.storage.get(v);
            if (plan.constantParams.contains(v) || s == Plan.Storage.SHARED || s == Plan.Storage.LOCAL_MEMORY
                    || s == Plan.Storage.GLOBAL) {
                continue;
            }
            saved.add(v);
            if (s == Plan.Storage.POINTER) {
                refIndex.put(v, refSlots++);
            }
            primIndex.put(v, primSlots);
            primSlots += Jvm.multi(v.type) ? CType.leaves(v.type).size() : 1;
        }
        tidSlot = c.allocateLocal(TypeKind.INT);
        siteTemp = c.allocateLocal(TypeKind.INT);
        resumeSlot = c.allocateLocal(TypeKind.INT);
        saveTail = c.newLabel();
        primBase = c.allocateLocal(TypeKind.INT);
        refBase = c.allocateLocal(TypeKind.INT);
        primArray = c.allocateLocal(TypeKind.REFERENCE);
        refArray = c.allocateLocal(TypeKind.REFERENCE);
        exitLabel = c.newLabel();
        Label dispatch = c.newLabel();
        Label loop = c.newLabel();
        Label next = c.newLabel();
        loadBlockConstants(true);
        c.aload(STATE_SLOT);
        c.getfield(STATE, "prims", ClassDesc.ofDescriptor("[J"));
        c.astore(primArray);
        c.aload(STATE_SLOT);
        c.getfield(STATE, "refs", ClassDesc.ofDescriptor("[Ljava/lang/Object;"));
        c.astore(refArray);
        c.iload(FROM_SLOT);
        c.istore(tidSlot);

        // for (tid = from; tid < to; tid++) if (status[tid] == RUNNABLE) run it to its next yield point
        c.labelBinding(loop);
        c.iload(tidSlot);
        c.iload(TO_SLOT);
        Label done = c.newLabel();
        c.if_icmpge(done);
        exchangeArray("status", "[B");
        c.baload();
        c.ifne(next);
        String[] coord = {"threadX", "threadY", "threadZ"};
        int[] slots = {txSlot, tySlot, tzSlot};
        for (int i = 0; i < 3; i++) {
            exchangeArray(coord[i], "[I");
            c.iaload();
            c.istore(slots[i]);
        }
        // Faults name the thread: record which one runs (its coordinates are looked up only then).
        setStateField("tid", tidSlot);
        c.iload(tidSlot);
        c.loadConstant(primSlots);
        c.imul();
        c.istore(primBase);
        c.iload(tidSlot);
        c.loadConstant(refSlots);
        c.imul();
        c.istore(refBase);
        loadLocalMemory(true);
        exchangeArray("resumePoint", "[I");
        c.iaload();
        c.dup();
        c.istore(resumeSlot);
        c.ifne(dispatch);
        for (Var v : saved) {
            zeroVar(v);
        }
        loadVariableParams();
        statement(plan.lowering.body(plan.kernel));

        c.labelBinding(exitLabel);
        exchangeArray("status", "[B");
        c.loadConstant(EXITED);
        c.bastore();
        c.goto_(next);

        c.labelBinding(saveTail);
        exchangeArray("resumePoint", "[I");
        c.iload(siteTemp);
        c.iconst_1();
        c.iadd();
        c.iastore();
        exchangeArray("status", "[B");
        c.loadConstant(WAITING);
        c.bastore();
        exchangeArray("site", "[I");
        c.iload(siteTemp);
        c.iastore();

        c.labelBinding(next);
        c.iinc(tidSlot, 1);
        c.goto_(loop);

        // Resume: restore what is live at the thread's site, then enter through the outermost loop holding it.
        c.labelBinding(dispatch);
        c.iload(resumeSlot);
        List<SwitchCase> restores = new ArrayList<>();
        for (int i = 0; i < topTargets.size(); i++) {
            restores.add(SwitchCase.of(i + 1, c.newLabel()));
        }
        c.tableswitch(1, Math.max(1, restores.size()), exitLabel, restores);
        for (int i = 0; i < restores.size(); i++) {
            c.labelBinding(restores.get(i).target());
            restoreVars(liveAtSite.get(i));
            c.goto_(topTargets.get(i).target());
        }

        c.labelBinding(done);
        c.return_();
    }

    /** Thread states in {@code BlockState.status}, as the cooperative scheduler reads them. */
    static final int WAITING = 1;
    static final int EXITED = 2;

    /** Stores the variables of {@code live} into thread {@code tid}'s register arrays. */
    void saveVars(java.util.Set<Var> live) {
        for (Var v : saved) {
            if (!live.contains(v)) {
                continue;
            }
            if (Jvm.multi(v.type)) {
                K[] ks = Jvm.leafKinds(v.type);
                int[] slots = vectorSlots.get(v);
                for (int i = 0; i < slots.length; i++) {
                    c.aload(primArray);
                    index(primBase, primIndex.get(v) + i);
                    c.loadLocal(ks[i].tk, slots[i]);
                    exprs.toBits(ks[i]);
                    c.lastore();
                }
                continue;
            }
            K k = Jvm.kind(v.type);
            if (k == K.P) {
                c.aload(refArray);
                index(refBase, refIndex.get(v));
                c.aload(slot.get(v));
                c.aastore();
            }
            c.aload(primArray);
            index(primBase, primIndex.get(v));
            K held = k == K.P ? K.J : k;
            c.loadLocal(held.tk, k == K.P ? offSlot.get(v) : slot.get(v));
            exprs.toBits(held);
            c.lastore();
        }
    }

    /**
     * Reloads the variables of {@code live}; the other saved variables are dead at this site and get zero,
     * so that every variable is assigned on every path into the loops the thread re-enters (the verifier
     * merges those paths at the loop headers).
     */
    private void restoreVars(java.util.Set<Var> live) {
        for (Var v : saved) {
            if (!live.contains(v)) {
                zeroVar(v);
                continue;
            }
            if (Jvm.multi(v.type)) {
                K[] ks = Jvm.leafKinds(v.type);
                int[] slots = vectorSlots.get(v);
                for (int i = 0; i < slots.length; i++) {
                    c.aload(primArray);
                    index(primBase, primIndex.get(v) + i);
                    c.laload();
                    exprs.fromBits(ks[i]);
                    c.storeLocal(ks[i].tk, slots[i]);
                }
                continue;
            }
            K k = Jvm.kind(v.type);
            if (k == K.P) {
                c.aload(refArray);
                index(refBase, refIndex.get(v));
                c.aaload();
                c.checkcast(SEGMENT);
                c.astore(slot.get(v));
            }
            c.aload(primArray);
            index(primBase, primIndex.get(v));
            c.laload();
            K held = k == K.P ? K.J : k;
            exprs.fromBits(held);
            c.storeLocal(held.tk, k == K.P ? offSlot.get(v) : slot.get(v));
        }
    }

    /** The saved variables that may be live at the current point: those in scope, and assigned parameters. */
    java.util.Set<Var> varsInScope() {
        java.util.Set<Var> live = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Var p : plan.kernel.params) {
            live.add(p);
        }
        for (List<Var> scope : scopes) {
            live.addAll(scope);
        }
        return live;
    }

    private void index(int baseSlot, int i) {
        c.iload(baseSlot);
        if (i != 0) {
            c.loadConstant(i);
            c.iadd();
        }
    }

    void setStateField(String field, int fromSlot) {
        c.aload(STATE_SLOT);
        c.iload(fromSlot);
        c.putfield(STATE, field, CD_int);
    }

    void allocateSlots() {
        cancelSlot = c.allocateLocal(TypeKind.REFERENCE);
        budgetSlot = c.allocateLocal(TypeKind.INT);
        txSlot = c.allocateLocal(TypeKind.INT);
        tySlot = c.allocateLocal(TypeKind.INT);
        tzSlot = c.allocateLocal(TypeKind.INT);
        for (int i = 0; i < 3; i++) {
            blockDimSlots[i] = c.allocateLocal(TypeKind.INT);
            gridDimSlots[i] = c.allocateLocal(TypeKind.INT);
        }
        for (Var v : plan.vars) {
            switch (plan.storage.get(v)) {
                case SCALAR -> slot.put(v, c.allocateLocal(Jvm.kind(v.type).tk));
                case POINTER -> {
                    slot.put(v, c.allocateLocal(TypeKind.REFERENCE));
                    offSlot.put(v, c.allocateLocal(TypeKind.LONG));
                }
                case VECTOR -> {
                    K[] ks = Jvm.leafKinds(v.type);
                    int[] slots = new int[ks.length];
                    for (int i = 0; i < slots.length; i++) {
                        slots[i] = c.allocateLocal(ks[i].tk);
                    }
                    vectorSlots.put(v, slots);
                }
                case LOCAL_MEMORY, SHARED, GLOBAL -> slot.put(v, c.allocateLocal(TypeKind.REFERENCE));
            }
        }
    }

    /** Extents, thread coordinates (cooperative), unassigned parameters, shared and local memory. */
    void loadBlockConstants(boolean cooperative) {
        c.aload(STATE_SLOT);
        c.getfield(STATE, "cancel", Jvm.CANCELLATION);
        c.astore(cancelSlot);
        // Each countdown loop sets the budget as it is entered; this only gives the local a value for the verifier.
        c.iconst_0();
        c.istore(budgetSlot);
        String[] bd = {"bdx", "bdy", "bdz"};
        String[] xyz = {"x", "y", "z"};
        for (int i = 0; i < 3; i++) {
            c.aload(STATE_SLOT);
            c.getfield(STATE, bd[i], CD_int);
            c.istore(blockDimSlots[i]);
            c.aload(FRAME_SLOT);
            c.invokevirtual(FRAME, "grid", mt(Jvm.DIM3));
            c.invokevirtual(Jvm.DIM3, xyz[i], mt(CD_int));
            c.istore(gridDimSlots[i]);
        }
        for (Var v : plan.vars) {
            if (plan.constantParams.contains(v)) {
                loadParam(v);
            }
            Plan.Storage s = plan.storage.get(v);
            if (s == Plan.Storage.SHARED || s == Plan.Storage.GLOBAL) {
                c.aload(STATE_SLOT);
                c.loadConstant(plan.memorySlot.get(v));
                c.invokevirtual(STATE, s == Plan.Storage.SHARED ? "shared" : "global", mt(SEGMENT, CD_int));
                c.astore(slot.get(v));
            }
        }
        if (!cooperative) {
            loadLocalMemory(false);
        }
    }

    /** Points the local-memory variables at the current thread's arrays (thread 0's when not cooperative). */
    private void loadLocalMemory(boolean cooperative) {
        for (Var v : plan.localMemory) {
            c.aload(STATE_SLOT);
            if (cooperative) {
                c.iload(tidSlot);
            } else {
                c.iconst_0();
            }
            c.loadConstant(plan.memorySlot.get(v));
            c.invokevirtual(STATE, "local", mt(SEGMENT, CD_int, CD_int));
            c.astore(slot.get(v));
        }
    }

    private void loadVariableParams() {
        for (Var p : plan.kernel.params) {
            if (!plan.constantParams.contains(p)) {
                loadParam(p);
            }
        }
    }

    /** Loads kernel parameter {@code p} from the launch frame into its storage. */
    void loadParam(Var p) {
        int i = plan.kernel.params.indexOf(p);
        Plan.Storage s = plan.storage.get(p);
        if (p.type instanceof CType.Pointer) {
            if (s == Plan.Storage.LOCAL_MEMORY) {
                throw new CodegenException(p.pos, "taking the address of pointer parameter '" + p.name
                        + "' is not supported by the CPU device");
            }
            c.aload(FRAME_SLOT);
            c.invokevirtual(FRAME, "segments", mt(ClassDesc.ofDescriptor("[Ljava/lang/foreign/MemorySegment;")));
            c.loadConstant(i);
            c.aaload();
            c.astore(slot.get(p));
            loadFrameValue(i);
            c.lstore(offSlot.get(p));
            return;
        }
        if (s == Plan.Storage.LOCAL_MEMORY) {
            c.aload(slot.get(p));
            c.lconst_0();
            loadFrameValue(i);
            exprs.fromBits(Jvm.kind(p.type));
            normalize(p.type);
            exprs.memStore(p.type, p.pos);
            return;
        }
        loadFrameValue(i);
        exprs.fromBits(Jvm.kind(p.type));
        normalize(p.type);
        c.storeLocal(Jvm.kind(p.type).tk, slot.get(p));
    }

    private void normalize(CType t) {
        if (Jvm.kind(t) == K.I) {
            Ops.narrow(c, (CType.Prim) t);
        }
    }

    private void loadFrameValue(int i) {
        c.aload(FRAME_SLOT);
        c.invokevirtual(FRAME, "values", mt(ClassDesc.ofDescriptor("[J")));
        c.loadConstant(i);
        c.laload();
    }

    void zeroVar(Var v) {
        Plan.Storage s = plan.storage.get(v);
        if (s == Plan.Storage.SCALAR) {
            K k = Jvm.kind(v.type);
            Ops.zero(c, k);
            c.storeLocal(k.tk, slot.get(v));
        } else if (s == Plan.Storage.POINTER) {
            c.aconst_null();
            c.astore(slot.get(v));
            c.lconst_0();
            c.lstore(offSlot.get(v));
        } else if (s == Plan.Storage.VECTOR) {
            K[] ks = Jvm.leafKinds(v.type);
            int[] slots = vectorSlots.get(v);
            for (int i = 0; i < slots.length; i++) {
                Ops.zero(c, ks[i]);
                c.storeLocal(ks[i].tk, slots[i]);
            }
        }
    }

    // ---- temporaries ----------------------------------------------------------------------------------

    int temp(K k) {
        Deque<Integer> free = freeTemps.computeIfAbsent(k, x -> new ArrayDeque<>());
        Integer s = free.poll();
        return s != null ? s : c.allocateLocal(k.tk);
    }

    void release(K k, int s) {
        freeTemps.get(k).push(s);
    }

    /**
     * A loop of a cooperative kernel that contains yield points. A resumed thread enters it only through its
     * header, which sees a non-zero resume point and jumps to {@link #dispatch}; that block jumps to the site
     * or to the header of the nested loop that holds it. Every loop thus keeps a single entry: jumping from
     * outside straight to a site in its body would make the loop irreducible, which HotSpot's C2 optimizes
     * poorly (measured: 2–3 times the cost per barrier).
     */
    static final class ResumableLoop {
        final Label header;
        final Label dispatch;
        final List<SwitchCase> targets = new ArrayList<>();

        ResumableLoop(Label header, Label dispatch) {
            this.header = header;
            this.dispatch = dispatch;
        }
    }

    static CType elementType(CType t) {
        while (t instanceof CType.Array a) {
            t = a.element();
        }
        return t;
    }

    /** Stores the value on the stack into variable {@code v} held in JVM locals. */
    void storeVar(Var v) {
        if (plan.storage.get(v) == Plan.Storage.POINTER) {
            c.lstore(offSlot.get(v));
            c.astore(slot.get(v));
        } else if (plan.storage.get(v) == Plan.Storage.VECTOR) {
            K[] ks = Jvm.leafKinds(v.type);
            int[] slots = vectorSlots.get(v);
            for (int i = slots.length - 1; i >= 0; i--) {
                c.storeLocal(ks[i].tk, slots[i]);
            }
        } else {
            c.storeLocal(Jvm.kind(v.type).tk, slot.get(v));
        }
    }

    void loadVar(Var v) {
        if (plan.storage.get(v) == Plan.Storage.POINTER) {
            c.aload(slot.get(v));
            c.lload(offSlot.get(v));
        } else if (plan.storage.get(v) == Plan.Storage.VECTOR) {
            K[] ks = Jvm.leafKinds(v.type);
            int[] slots = vectorSlots.get(v);
            for (int i = 0; i < slots.length; i++) {
                c.loadLocal(ks[i].tk, slots[i]);
            }
        } else {
            c.loadLocal(Jvm.kind(v.type).tk, slot.get(v));
        }
    }

    /**
     * Ends the launch with the fault of its stop request if one was made: emitted at loop back-edges as
     * {@link LoopPolls} decides, so a kernel that never leaves a loop still stops. One volatile read.
     */
    void pollCancellation(Pos p) {
        Label go = c.newLabel();
        c.aload(cancelSlot);
        c.invokevirtual(Jvm.CANCELLATION, "requested", mt(java.lang.constant.ConstantDescs.CD_boolean));
        c.ifeq(go);
        c.aload(STATE_SLOT);
        c.loadConstant(pos(p));
        c.invokevirtual(STATE, "stopped", mt(Jvm.FAULT, CD_int));
        c.athrow();
        c.labelBinding(go);
    }

    static int pos(Pos p) {
        return p == null ? 0 : p.line() << 16 | Math.min(p.column(), 0xFFFF);
    }

    void callMem(String name, boolean store, K valueKind) {
        ClassDesc v = valueKind.desc;
        if (store) {
            c.invokestatic(MEM, name, mt(CD_void, SEGMENT, CD_long, v, STATE, CD_int));
        } else {
            c.invokestatic(MEM, name, mt(v, SEGMENT, CD_long, STATE, CD_int));
        }
    }

    void exchangeArray(String field, String desc) {
        c.aload(STATE_SLOT);
        c.getfield(STATE, field, ClassDesc.ofDescriptor(desc));
        c.iload(tidSlot);
    }
}
