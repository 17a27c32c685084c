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
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
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
 * Emits the JVM method of one kernel from its lowered, typed AST: {@code runBlock} (all threads of a block
 * in a loop) for kernels without yield points, {@code resumeThreads} (each runnable thread of a range up to
 * its next yield point) for cooperative ones. {@code __device__} functions are inlined at each call.
 * Expressions are in {@link ExprEmitter}; this class owns the method's layout, variables, control flow and
 * yield points.
 *
 * <p>Layout of {@code resumeThreads}: a prologue loads what never changes within a block (extents, unassigned
 * parameters, shared memory); then a loop over the range's threads either starts a thread or jumps to the
 * dispatch block at the end. At a yield point a thread stores the variables in scope there and its site, and
 * the loop moves to the next thread. The dispatch block restores what was live at the thread's site and
 * enters the outermost loop holding the site through its header; each {@link ResumableLoop} header passes
 * the thread inward until it reaches the site, so no loop ever gets a second entry.
 */
final class Emitter {
    static final int FRAME_SLOT = 1;
    static final int STATE_SLOT = 2;
    static final int BX_SLOT = 3;
    static final int BY_SLOT = 4;
    static final int BZ_SLOT = 5;
    static final int FROM_SLOT = 6;
    static final int TO_SLOT = 7;

    final CodeBuilder c;
    final Plan plan;
    final boolean coop;
    final ExprEmitter exprs;

    final Map<Var, Integer> slot = new IdentityHashMap<>();
    final Map<Var, Integer> offSlot = new IdentityHashMap<>();
    /** The JVM locals of each VECTOR variable's components (a struct's scalar leaves), in order. */
    final Map<Var, int[]> vectorSlots = new IdentityHashMap<>();
    int txSlot, tySlot, tzSlot;
    final int[] blockDimSlots = new int[3];
    final int[] gridDimSlots = new int[3];

    private final Map<K, Deque<Integer>> freeTemps = new EnumMap<>(K.class);
    private final Deque<Loop> loops = new ArrayDeque<>();
    private final Deque<Inline> inlines = new ArrayDeque<>();
    private Label threadEnd;

    final List<KernelInfo.Site> sites = new ArrayList<>();
    private Label saveTail;
    private int primBase;
    private int refBase;
    private int primArray;
    private int refArray;
    /** Variables declared in the blocks being emitted, innermost last: what may be live at a yield point. */
    private final Deque<List<Var>> scopes = new ArrayDeque<>();
    /** Per yield site: the saved variables in scope there (the others are dead and not saved). */
    private final List<java.util.Set<Var>> liveAtSite = new ArrayList<>();
    private int siteTemp;
    private int resumeSlot;
    /** Linear index of the thread being run (cooperative kernels). */
    int tidSlot;
    private Label exitLabel;
    /** Saved variables (cooperative kernels) and their indices in the prims/refs arrays. */
    private final List<Var> saved = new ArrayList<>();
    private final Map<Var, Integer> primIndex = new IdentityHashMap<>();
    private final Map<Var, Integer> refIndex = new IdentityHashMap<>();
    int primSlots;
    /** Set when the kernel (or a function inlined into it) calls printf or assert. */
    boolean prints;
    int refSlots;

    private record Loop(Label breakLabel, Label continueLabel) {}

    private final Deque<ResumableLoop> resumableLoops = new ArrayDeque<>();
    /** Where the top-level dispatch sends each resume point: a site, or the outermost loop holding it. */
    private final List<SwitchCase> topTargets = new ArrayList<>();

    /** Marks an inlined function's body: break and continue do not reach past it. */
    private static final Loop FUNCTION_BOUNDARY = new Loop(null, null);

    private record Inline(Label end, CType returnType) {}

    Emitter(CodeBuilder c, Plan plan) {
        this.c = c;
        this.plan = plan;
        this.coop = plan.cooperative();
        this.exprs = new ExprEmitter(this);
    }

    // ---- method bodies --------------------------------------------------------------------------------

    void emitRunBlock() {
        allocateSlots();
        loadBlockConstants(false);
        for (Var v : plan.vars) {
            if (!plan.constantParams.contains(v)) {
                zeroVar(v);
            }
        }
        Label zTop = c.newLabel();
        Label yTop = c.newLabel();
        Label xTop = c.newLabel();
        Label zNext = c.newLabel();
        Label yNext = c.newLabel();
        Label done = c.newLabel();
        threadEnd = c.newLabel();
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
        c.iconst_0();
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
        c.iinc(tySlot, 1);
        c.goto_(yTop);
        c.labelBinding(zNext);
        c.iinc(tzSlot, 1);
        c.goto_(zTop);
        c.labelBinding(done);
        c.return_();
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
    private void saveVars(java.util.Set<Var> live) {
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
    private java.util.Set<Var> varsInScope() {
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

    private void setStateField(String field, int fromSlot) {
        c.aload(STATE_SLOT);
        c.iload(fromSlot);
        c.putfield(STATE, field, CD_int);
    }

    private void allocateSlots() {
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
    private void loadBlockConstants(boolean cooperative) {
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
    private void loadParam(Var p) {
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

    private void zeroVar(Var v) {
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

    // ---- statements -----------------------------------------------------------------------------------

    void statement(Stmt s) {
        switch (s) {
            case null -> { }
            case Stmt.Block b -> {
                boolean scope = !plan.lowering.isSynthetic(b);
                if (scope) {
                    scopes.push(new ArrayList<>());
                }
                b.statements().forEach(this::statement);
                if (scope) {
                    scopes.pop();
                }
            }
            case Stmt.VarDecl d -> declaration(d);
            case Stmt.ExprStmt e -> expressionStatement(e.expr());
            case Stmt.If i -> {
                Label otherwise = c.newLabel();
                exprs.jumpIfFalse(i.condition(), otherwise);
                statement(i.then());
                if (i.otherwise() != null) {
                    Label end = c.newLabel();
                    c.goto_(end);
                    c.labelBinding(otherwise);
                    statement(i.otherwise());
                    c.labelBinding(end);
                } else {
                    c.labelBinding(otherwise);
                }
            }
            case Stmt.While w -> loop(w, w.condition(), null, w.body());
            case Stmt.For f -> {
                scopes.push(new ArrayList<>());
                statement(f.init());
                loop(f, f.condition(), f.update(), f.body());
                scopes.pop();
            }
            case Stmt.DoWhile w -> {
                Label top = c.newBoundLabel();
                ResumableLoop resumable = enterLoop(w, top);
                Label cont = c.newLabel();
                Label brk = c.newLabel();
                loops.push(new Loop(brk, cont));
                statement(w.body());
                loops.pop();
                c.labelBinding(cont);
                exprs.jumpIfTrue(w.condition(), top);
                c.labelBinding(brk);
                exitLoop(resumable);
            }
            case Stmt.Break b -> {
                if (loops.isEmpty() || loops.peek() == FUNCTION_BOUNDARY) {
                    throw new CodegenException(b.pos(), "'break' outside a loop or switch");
                }
                c.goto_(loops.peek().breakLabel());
            }
            case Stmt.Continue k -> {
                Label target = null;
                for (Loop l : loops) {
                    if (l == FUNCTION_BOUNDARY) {
                        break;
                    }
                    if (l.continueLabel() != null) {
                        target = l.continueLabel();
                        break;
                    }
                }
                if (target == null) {
                    throw new CodegenException(k.pos(), "'continue' outside a loop");
                }
                c.goto_(target);
            }
            case Stmt.Return r -> returnStatement(r);
            case Stmt.Switch sw -> switchStatement(sw);
            case Stmt.Empty e -> { }
        }
    }

    private void loop(Stmt loop, Expr condition, Expr update, Stmt body) {
        Label top = c.newBoundLabel();
        ResumableLoop resumable = enterLoop(loop, top);
        Label cont = c.newLabel();
        Label brk = c.newLabel();
        if (condition != null) {
            exprs.jumpIfFalse(condition, brk);
        }
        loops.push(new Loop(brk, cont));
        statement(body);
        loops.pop();
        c.labelBinding(cont);
        if (update != null) {
            exprs.discard(update);
        }
        c.goto_(top);
        c.labelBinding(brk);
        exitLoop(resumable);
    }

    /**
     * A loop of a cooperative kernel that contains yield points. A resumed thread enters it only through its
     * header, which sees a non-zero resume point and jumps to {@link #dispatch}; that block jumps to the site
     * or to the header of the nested loop that holds it. Every loop thus keeps a single entry: jumping from
     * outside straight to a site in its body would make the loop irreducible, which HotSpot's C2 optimizes
     * poorly (measured: 2–3 times the cost per barrier).
     */
    private static final class ResumableLoop {
        final Label header;
        final Label dispatch;
        final List<SwitchCase> targets = new ArrayList<>();

        ResumableLoop(Label header, Label dispatch) {
            this.header = header;
            this.dispatch = dispatch;
        }
    }

    private ResumableLoop enterLoop(Stmt loop, Label header) {
        if (!coop || !plan.lowering.containsYield(loop)) {
            return null;
        }
        ResumableLoop r = new ResumableLoop(header, c.newLabel());
        c.iload(resumeSlot);
        c.ifne(r.dispatch);
        resumableLoops.push(r);
        return r;
    }

    private void exitLoop(ResumableLoop r) {
        if (r == null) {
            return;
        }
        resumableLoops.pop();
        Label after = c.newLabel();
        c.goto_(after);
        c.labelBinding(r.dispatch);
        c.iload(resumeSlot);
        c.lookupswitch(exitLabel, r.targets);
        c.labelBinding(after);
    }

    private void returnStatement(Stmt.Return r) {
        if (!inlines.isEmpty()) {
            Inline in = inlines.peek();
            if (r.value() != null) {
                exprs.value(r.value());
            } else if (in.returnType() != CType.Prim.VOID) {
                exprs.zeroValue(in.returnType());
            }
            c.goto_(in.end());
            return;
        }
        if (r.value() != null) {
            exprs.discard(r.value());
        }
        c.goto_(coop ? exitLabel : threadEnd);
    }

    private void switchStatement(Stmt.Switch sw) {
        Label brk = c.newLabel();
        Label dflt = brk;
        List<Label> labels = new ArrayList<>();
        for (Stmt.Case cs : sw.cases()) {
            Label l = c.newLabel();
            labels.add(l);
            if (cs.value() == null) {
                dflt = l;
            }
        }
        K k = Jvm.kind(sw.selector().type());
        exprs.value(sw.selector());
        if (k == K.J) {
            int t = temp(K.J);
            c.lstore(t);
            for (int i = 0; i < sw.cases().size(); i++) {
                Long v = sw.cases().get(i).value();
                if (v != null) {
                    c.lload(t);
                    c.loadConstant(v);
                    c.lcmp();
                    c.ifeq(labels.get(i));
                }
            }
            release(K.J, t);
            c.goto_(dflt);
        } else {
            List<SwitchCase> cases = new ArrayList<>();
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (int i = 0; i < sw.cases().size(); i++) {
                Long v = sw.cases().get(i).value();
                if (v != null && seen.add(v.intValue())) {
                    cases.add(SwitchCase.of(v.intValue(), labels.get(i)));
                }
            }
            cases.sort(java.util.Comparator.comparingInt(SwitchCase::caseValue));
            c.lookupswitch(dflt, cases);
        }
        loops.push(new Loop(brk, null));
        for (int i = 0; i < sw.cases().size(); i++) {
            c.labelBinding(labels.get(i));
            sw.cases().get(i).statements().forEach(this::statement);
        }
        loops.pop();
        c.labelBinding(brk);
    }

    private void declaration(Stmt.VarDecl d) {
        Var v = d.var();
        Plan.Storage s = plan.storage.get(v);
        if (!scopes.isEmpty()) {
            scopes.peek().add(v);
        }
        switch (s) {
            case SCALAR, POINTER, VECTOR -> {
                if (d.init() != null) {
                    exprs.value(d.init());
                    storeVar(v);
                } else if (coop) {
                    // A resumed thread may reach a later use with this variable not restored (it was not in
                    // scope at the yield point); start it at zero so it is always assigned.
                    zeroVar(v);
                }
            }
            case LOCAL_MEMORY -> {
                if (d.arrayInit() != null) {
                    CType elem = elementType(v.type);
                    int n = v.type.size() / elem.size();
                    // Elements without an initializer are zero; clear the whole array first.
                    c.aload(slot.get(v));
                    c.iconst_0();
                    c.invokeinterface(SEGMENT, "fill", mt(SEGMENT, ClassDesc.ofDescriptor("B")));
                    c.pop();
                    for (int i = 0; i < d.arrayInit().size() && i < n; i++) {
                        c.aload(slot.get(v));
                        c.loadConstant((long) i * elem.size());
                        exprs.value(d.arrayInit().get(i));
                        exprs.memStore(elem, d.pos());
                    }
                } else if (d.init() != null) {
                    c.aload(slot.get(v));
                    c.lconst_0();
                    exprs.value(d.init());
                    exprs.memStore(v.type, d.pos());
                }
            }
            case SHARED -> {
                if (d.init() != null || d.arrayInit() != null) {
                    throw new CodegenException(d.pos(), "__shared__ variable '" + v.name
                            + "' cannot have an initializer (CUDA does not allow one)");
                }
            }
            case GLOBAL -> throw new IllegalStateException("module variable '" + v.name
                    + "' declared inside a function (a bug in polygpu)");
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

    private void expressionStatement(Expr e) {
        if (e instanceof Expr.IntrinsicCall call && call.intrinsic().isYieldPoint()) {
            yieldPoint(call, null);
        } else if (e instanceof Expr.Assign a && a.value() instanceof Expr.IntrinsicCall call
                && call.intrinsic().isYieldPoint() && a.target() instanceof Expr.VarRef ref) {
            yieldPoint(call, ref.var());
        } else {
            exprs.discard(e);
        }
    }

    // ---- inlining -------------------------------------------------------------------------------------

    /** Inlines a call of a {@code __device__} function; its result (if any) is left on the stack. */
    void inline(Expr.Call call) {
        Function f = call.function();
        for (int i = 0; i < f.params.size(); i++) {
            Var p = f.params.get(i);
            if (plan.storage.get(p) == Plan.Storage.LOCAL_MEMORY) {
                c.aload(slot.get(p));
                c.lconst_0();
                exprs.value(call.args().get(i));
                exprs.memStore(p.type, call.pos());
            } else {
                exprs.value(call.args().get(i));
                storeVar(p);
            }
        }
        Label end = c.newLabel();
        scopes.push(new ArrayList<>(f.params));
        inlines.push(new Inline(end, f.returnType));
        loops.push(FUNCTION_BOUNDARY);
        Stmt.Block body = plan.lowering.body(f);
        statement(body);
        loops.pop();
        inlines.pop();
        scopes.pop();
        if (f.returnType != CType.Prim.VOID) {
            // Falling off the end of a non-void function is undefined in C; give zero.
            exprs.zeroValue(f.returnType);
        }
        c.labelBinding(end);
    }

    // ---- yield points ---------------------------------------------------------------------------------

    private void yieldPoint(Expr.IntrinsicCall call, Var target) {
        if (!coop) {
            throw new IllegalStateException("yield point in a non-cooperative kernel");
        }
        int site = sites.size();
        sites.add(new KernelInfo.Site(call.intrinsic(), call.pos().line(), call.pos().column()));
        Label resume = c.newLabel();
        java.util.Set<Var> live = varsInScope();
        if (target != null) {
            live.remove(target);
        }
        liveAtSite.add(live);
        deposit(call);
        saveVars(live);
        c.loadConstant(site);
        c.istore(siteTemp);
        c.goto_(saveTail);
        Label entry = resume;
        for (ResumableLoop r : resumableLoops) {
            r.targets.add(SwitchCase.of(site + 1, entry));
            entry = r.header;
        }
        topTargets.add(SwitchCase.of(site + 1, entry));
        c.labelBinding(resume);
        c.iconst_0();
        c.istore(resumeSlot);
        if (target != null) {
            exchangeArray("xResult", "[J");
            c.laload();
            K k = Jvm.kind(call.type());
            exprs.fromBits(k);
            storeVar(target);
        }
    }

    private void exchangeArray(String field, String desc) {
        c.aload(STATE_SLOT);
        c.getfield(STATE, field, ClassDesc.ofDescriptor(desc));
        c.iload(tidSlot);
    }

    private void deposit(Expr.IntrinsicCall call) {
        List<Expr> a = call.args();
        switch (call.intrinsic()) {
            case SYNCTHREADS, WARP_STEP, ACTIVEMASK -> {
                // Nothing to deposit: the scheduler combines predicates only at the other barriers, and a warp
                // step and __activemask take the lanes that reach them as their mask.
            }
            case SYNCTHREADS_COUNT, SYNCTHREADS_AND, SYNCTHREADS_OR -> {
                exchangeArray("xValue", "[J");
                exprs.value(a.get(0));
                Ops.convert(c, a.get(0).type(), CType.Prim.LONG, call.pos());
                c.lastore();
            }
            case SYNCWARP -> depositInt("xMask", a.get(0));
            case SHFL, SHFL_UP, SHFL_DOWN, SHFL_XOR -> {
                depositInt("xMask", a.get(0));
                exchangeArray("xValue", "[J");
                exprs.value(a.get(1));
                exprs.toBits(Jvm.kind(a.get(1).type()));
                c.lastore();
                depositInt("xLane", a.get(2));
                depositInt("xWidth", a.get(3));
            }
            case BALLOT, ANY, ALL -> {
                depositInt("xMask", a.get(0));
                exchangeArray("xValue", "[J");
                exprs.value(a.get(1));
                Ops.convert(c, a.get(1).type(), CType.Prim.LONG, call.pos());
                c.lastore();
            }
            default -> throw new IllegalStateException(call.intrinsic().name());
        }
    }

    private void depositInt(String field, Expr value) {
        exchangeArray(field, "[I");
        exprs.value(value);
        if (Jvm.kind(value.type()) == K.J) {
            c.l2i();
        }
        c.iastore();
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
}
