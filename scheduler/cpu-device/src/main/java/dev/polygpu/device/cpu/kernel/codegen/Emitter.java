package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.SEGMENT;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.codegen.Jvm.K;
import dev.polygpu.device.cpu.kernel.exec.KernelInfo;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ClassDesc;
import java.util.ArrayList;
import java.util.List;

/**
 * Emits the JVM method of one kernel from its lowered, typed AST: {@code runBlock} (all threads of a block
 * in a loop) for kernels without yield points, {@code resumeThreads} (each runnable thread of a range up to
 * its next yield point) for cooperative ones; for kernels in the barrier-region form {@link RegionEmitter} lays
 * out {@code runBlock} and this class emits the statements of each region. {@code __device__} functions are inlined at each call.
 * Expressions are in {@link ExprEmitter}; this class owns statements, control flow, inlining and yield points,
 * and its superclass {@link MethodEmitter} the method's layout, variables and prologue.
 *
 * <p>Layout of {@code resumeThreads}: a prologue loads what never changes within a block (extents, unassigned
 * parameters, shared memory); then a loop over the range's threads either starts a thread or jumps to the
 * dispatch block at the end. At a yield point a thread stores the variables in scope there and its site, and
 * the loop moves to the next thread. The dispatch block restores what was live at the thread's site and
 * enters the outermost loop holding the site through its header; each {@link ResumableLoop} header passes
 * the thread inward until it reaches the site, so no loop ever gets a second entry.
 */
final class Emitter extends MethodEmitter {
    /** How each loop polls the stop request at its back-edge. */
    private final LoopPolls loopPolls;

    /** {@code loopPolls} false leaves the stop polls out of loops (for measuring their cost only). */
    Emitter(CodeBuilder c, Plan plan, boolean loopPolls) {
        super(c, plan);
        this.loopPolls = new LoopPolls(plan, loopPolls);
    }

    /** How loop {@code loop} polls the stop request ({@link LoopPolls}). */
    LoopPolls.Kind pollKind(Stmt loop) {
        return loopPolls.kind(loop);
    }

    // ---- statements -----------------------------------------------------------------------------------

    void statement(Stmt s) {
        dev.polygpu.device.cpu.kernel.CompileCancel.check();
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
                // The init's declarations are in the loop's scope: a thread resumed in the body must get them back.
                scopes.push(new ArrayList<>());
                f.init().forEach(this::statement);
                loop(f, f.condition(), f.update(), f.body());
                scopes.pop();
            }
            case Stmt.DoWhile w -> {
                LoopPolls.Kind poll = loopPolls.kind(w);
                Label entry = countdownEntry(poll);
                Label top = c.newBoundLabel();
                ResumableLoop resumable = enterLoop(w, top);
                Label cont = c.newLabel();
                Label brk = c.newLabel();
                loops.push(new Loop(brk, cont));
                statement(w.body());
                loops.pop();
                c.labelBinding(cont);
                reconvergencePoint(w.pos(), w.body());
                if (poll == LoopPolls.Kind.COUNTDOWN) {
                    exprs.jumpIfFalse(w.condition(), brk);
                    countdownBackEdge(w.pos(), top, entry);
                } else {
                    if (poll == LoopPolls.Kind.EVERY) {
                        pollCancellation(w.pos());
                    }
                    exprs.jumpIfTrue(w.condition(), top);
                }
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

    /**
     * Before a {@link LoopPolls.Kind#COUNTDOWN} loop: binds and returns the label where the loop is entered, and
     * re-entered after each poll, which sets the budget of back-edges; null for the other kinds.
     */
    private Label countdownEntry(LoopPolls.Kind poll) {
        if (poll != LoopPolls.Kind.COUNTDOWN) {
            return null;
        }
        Label entry = c.newBoundLabel();
        c.loadConstant(LoopPolls.BUDGET);
        c.istore(budgetSlot);
        return entry;
    }

    /**
     * The back-edge of a {@link LoopPolls.Kind#COUNTDOWN} loop: to {@code top} while the budget lasts, else a poll
     * and back to {@code entry}. The two back-edges make the poll an outer loop of its own, outside the hot one.
     */
    private void countdownBackEdge(Pos p, Label top, Label entry) {
        c.iinc(budgetSlot, -1);
        c.iload(budgetSlot);
        c.ifgt(top);
        pollCancellation(p);
        c.goto_(entry);
    }

    private void loop(Stmt loop, Expr condition, Expr update, Stmt body) {
        Label brk = c.newLabel();
        CountedLoops.Strided strided = loopPolls.strided(loop);
        if (strided != null && (reconvergence == null || !reconvergence.needsPoint(body))) {
            // A copy without the countdown, for when the entry check shows the loop ends by itself.
            Label polled = c.newLabel();
            stridedLoopEnds(strided, loop.pos());
            c.ifeq(polled);
            iterate(loop, condition, update, body, LoopPolls.Kind.NONE, brk);
            c.labelBinding(polled);
        }
        ResumableLoop resumable = iterate(loop, condition, update, body, loopPolls.kind(loop), brk);
        c.labelBinding(brk);
        exitLoop(resumable);
    }

    /** One copy of a loop, from its entry to its back-edge; it leaves through {@code brk}, which the caller binds. */
    private ResumableLoop iterate(Stmt loop, Expr condition, Expr update, Stmt body, LoopPolls.Kind poll, Label brk) {
        Label entry = countdownEntry(poll);
        Label top = c.newBoundLabel();
        ResumableLoop resumable = enterLoop(loop, top);
        Label cont = c.newLabel();
        if (condition != null) {
            exprs.jumpIfFalse(condition, brk);
        }
        loops.push(new Loop(brk, cont));
        statement(body);
        loops.pop();
        c.labelBinding(cont);
        reconvergencePoint(loop.pos(), body);
        if (update != null) {
            exprs.discard(update);
        }
        if (poll == LoopPolls.Kind.COUNTDOWN) {
            countdownBackEdge(loop.pos(), top, entry);
        } else {
            if (poll == LoopPolls.Kind.EVERY) {
                pollCancellation(loop.pos());
            }
            c.goto_(top);
        }
        return resumable;
    }

    /** Pushes whether the strided loop {@code s} ends by itself: a positive step that cannot wrap its index. */
    private void stridedLoopEnds(CountedLoops.Strided s, Pos p) {
        exprs.value(s.bound());
        Ops.convert(c, s.bound().type(), s.type(), p);
        exprs.value(s.step());
        Ops.convert(c, s.step().type(), s.type(), p);
        CType.Prim t = (CType.Prim) s.type();
        boolean wide = t.size() == 8;
        boolean unsigned = !t.signed;
        ClassDesc k = wide ? CD_long : CD_int;
        c.invokestatic(Jvm.STRIDED_LOOPS, unsigned ? "endsUnsigned" : "ends", mt(CD_boolean, k, k));
    }

    /**
     * Where an iteration of a loop with body {@code body} ends (its {@code continue} target), a yield at which the
     * lanes of a warp going round again wait for those still in the iteration, where the loop needs one
     * ({@link Reconvergence}).
     */
    private void reconvergencePoint(Pos p, Stmt body) {
        if (reconvergence != null && reconvergence.needsPoint(body)) {
            yieldPoint(new Expr.IntrinsicCall(p, CType.Prim.VOID, Intrinsic.WARP_RECONVERGE, List.of()), null);
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
                } else if (coop || regionForm) {
                    // A resumed thread may reach a later use with this variable not restored (it was not in
                    // scope at the yield point), and in the region form the local still holds the previous
                    // thread's value; start it at zero so each thread's copy starts alike.
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

    /**
     * Inlines a call of a {@code __device__} function; its result (if any) is left on the stack. Every argument
     * is evaluated before any parameter is stored: all inlined calls of a function share its parameters' storage,
     * so an argument that calls the same function (directly or through another one) would otherwise overwrite
     * the parameters stored before it ({@code m(2, m(3, 5))}). The values wait on the operand stack, which is
     * safe because no argument holds a yield point ({@link YieldLowering} hoists them into statements).
     */
    void inline(Expr.Call call) {
        Function f = call.function();
        for (int i = 0; i < f.params.size(); i++) {
            exprs.value(call.args().get(i));
        }
        for (int i = f.params.size() - 1; i >= 0; i--) {
            storeParam(f.params.get(i), call.pos());
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

    /** Pops a parameter's value (on top of the operand stack) into the parameter's storage. */
    private void storeParam(Var p, Pos pos) {
        if (plan.storage.get(p) != Plan.Storage.LOCAL_MEMORY) {
            storeVar(p);
            return;
        }
        // A store to local memory takes the address below the value: the value waits in temporaries meanwhile.
        K[] ks = Jvm.multi(p.type) ? Jvm.leafKinds(p.type) : new K[] {Jvm.kind(p.type)};
        int[] parked = new int[ks.length];
        for (int i = ks.length - 1; i >= 0; i--) {
            parked[i] = temp(ks[i]);
            c.storeLocal(ks[i].tk, parked[i]);
        }
        c.aload(slot.get(p));
        c.lconst_0();
        for (int i = 0; i < ks.length; i++) {
            c.loadLocal(ks[i].tk, parked[i]);
            release(ks[i], parked[i]);
        }
        exprs.memStore(p.type, pos);
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

    void deposit(Expr.IntrinsicCall call) {
        List<Expr> a = call.args();
        switch (call.intrinsic()) {
            case SYNCTHREADS, WARP_STEP, WARP_RECONVERGE, ACTIVEMASK -> {
                // Nothing to deposit: the scheduler combines predicates only at the other barriers, and a warp
                // step, a reconvergence point and __activemask take the lanes that reach them as their mask.
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
            case BALLOT, ANY, ALL, REDUCE_ADD, REDUCE_MIN, REDUCE_MAX, REDUCE_AND, REDUCE_OR, REDUCE_XOR -> {
                // As a long: an int sign-extended, an unsigned zero-extended, so that min and max compare right.
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
}
