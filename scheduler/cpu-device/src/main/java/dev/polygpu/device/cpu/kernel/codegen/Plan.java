package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Exprs;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.exec.ModuleMemory;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each variable of a kernel (and of the {@code __device__} functions inlined into it) lives in the
 * generated method, the layout of shared and local memory, and whether the kernel is cooperative.
 * Built from the lowered bodies ({@link YieldLowering}).
 */
final class Plan {

    /** Storage classes of variables. */
    enum Storage {
        /** A scalar in one JVM local. */
        SCALAR,
        /** A pointer in two JVM locals: segment and byte offset. */
        POINTER,
        /**
         * A vector ({@code float4} …) or struct whose address is not taken: one JVM local per component or scalar
         * leaf of the struct.
         */
        VECTOR,
        /** An array, or a scalar whose address is taken, in per-thread local memory. */
        LOCAL_MEMORY,
        /** A {@code __shared__} array or scalar. */
        SHARED,
        /** A file-scope {@code __device__} or {@code __constant__} variable, in the module's memory. */
        GLOBAL
    }

    /**
     * A struct with more scalar leaves than this lives in local memory rather than one JVM local per leaf, which
     * would make large methods (and save every leaf across each barrier).
     */
    static final int MAX_REGISTER_LEAVES = 64;

    final Function kernel;
    final YieldLowering lowering;
    final Map<Var, Storage> storage = new IdentityHashMap<>();
    /** Shared slot, local-memory slot and module-memory slot of each SHARED / LOCAL_MEMORY / GLOBAL variable. */
    final Map<Var, Integer> memorySlot = new IdentityHashMap<>();
    /** Kernel parameters that are never assigned: loaded once, never saved across yields. */
    final Set<Var> constantParams = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    final List<Var> shared = new ArrayList<>();
    final List<Var> localMemory = new ArrayList<>();
    final int[] sharedOffsets;
    final int staticShared;
    /** All variables in declaration order (kernel first, then callees). */
    final List<Var> vars = new ArrayList<>();

    /** The module's {@code __device__} and {@code __constant__} variables. */
    final ModuleMemory memory;
    /** Every store into a pointer variable (declarations, assignments, inlined calls' arguments). */
    private final List<Alignment.PointerStore> pointerStores = new ArrayList<>();
    /** Which pointer accesses need an alignment check. */
    final Alignment alignment;
    /** The kernel's barrier-region form, or null where it runs as a plain thread loop or a state machine. */
    RegionForm regions;
    /** The element-wise form whose first threads run as SIMD lanes, or null ({@link LaneForm}). */
    LaneForm lanes;
    /**
     * Whether a loop-free region's lanes check a row's groups at once ({@link RegionLaneEmitter}); off where the
     * code it adds would make the method too large for the JIT.
     */
    boolean laneRows = true;

    Plan(Function kernel, YieldLowering lowering, ModuleMemory memory) {
        this.kernel = kernel;
        this.lowering = lowering;
        this.memory = memory;
        Set<Var> assigned = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Function> seen = new LinkedHashSet<>();
        visitFunction(kernel, assigned, seen);
        alignment = new Alignment(pointerStores);
        for (Var p : kernel.params) {
            if (!assigned.contains(p) && !p.addressTaken) {
                constantParams.add(p);
            }
        }
        sharedOffsets = new int[shared.size()];
        long off = 0;
        for (int i = 0; i < shared.size(); i++) {
            Var v = shared.get(i);
            if (v.kind == Var.Kind.EXTERN_SHARED) {
                sharedOffsets[i] = -1;
                continue;
            }
            int align = Math.min(16, Integer.highestOneBit(Math.max(1, alignOf(v.type))));
            off = (off + align - 1) & -align;
            sharedOffsets[i] = (int) off;
            off += v.type.size();
            if (off > Integer.MAX_VALUE - 16) {
                throw new CodegenException(v.pos, "the __shared__ variables of kernel '" + kernel.name + "' need "
                        + off + " bytes with '" + v.name + "', more than the " + Integer.MAX_VALUE + " bytes (2 GiB)"
                        + " the CPU device's kernel engine can address in a block's shared memory; make them smaller");
            }
        }
        staticShared = (int) ((off + 15) & -16);
    }

    boolean cooperative() {
        return lowering.hasYields(kernel);
    }

    private static int alignOf(CType t) {
        return CType.alignOf(t);
    }

    private void declare(Var v) {
        if (storage.containsKey(v)) {
            return;
        }
        Storage s;
        if (v.inModuleMemory()) {
            int slot = memory.slot(v);
            if (slot < 0) {
                throw new IllegalStateException("module variable '" + v.name + "' has no memory (a bug in polygpu)");
            }
            s = Storage.GLOBAL;
            memorySlot.put(v, slot);
        } else if (v.kind == Var.Kind.SHARED || v.kind == Var.Kind.EXTERN_SHARED) {
            s = Storage.SHARED;
            memorySlot.put(v, shared.size());
            shared.add(v);
        } else if (v.type instanceof CType.Array || v.addressTaken
                || v.type instanceof CType.Struct && CType.leaves(v.type).size() > MAX_REGISTER_LEAVES) {
            s = Storage.LOCAL_MEMORY;
            memorySlot.put(v, localMemory.size());
            localMemory.add(v);
        } else if (v.type instanceof CType.Pointer) {
            s = Storage.POINTER;
        } else if (Jvm.multi(v.type)) {
            s = Storage.VECTOR;
        } else {
            s = Storage.SCALAR;
        }
        storage.put(v, s);
        vars.add(v);
    }

    private void visitFunction(Function f, Set<Var> assigned, Set<Function> seen) {
        if (!seen.add(f)) {
            return;
        }
        for (Var p : f.params) {
            declare(p);
        }
        visit(lowering.body(f), assigned, seen);
    }

    private void visit(Stmt s, Set<Var> assigned, Set<Function> seen) {
        switch (s) {
            case null -> { }
            case Stmt.Block b -> b.statements().forEach(x -> visit(x, assigned, seen));
            case Stmt.VarDecl d -> {
                declare(d.var());
                storeOf(d.var(), d.init());
                visit(d.init(), assigned, seen);
                if (d.arrayInit() != null) {
                    d.arrayInit().forEach(e -> visit(e, assigned, seen));
                }
            }
            case Stmt.ExprStmt e -> visit(e.expr(), assigned, seen);
            case Stmt.If i -> {
                visit(i.condition(), assigned, seen);
                visit(i.then(), assigned, seen);
                visit(i.otherwise(), assigned, seen);
            }
            case Stmt.While w -> {
                visit(w.condition(), assigned, seen);
                visit(w.body(), assigned, seen);
            }
            case Stmt.DoWhile w -> {
                visit(w.body(), assigned, seen);
                visit(w.condition(), assigned, seen);
            }
            case Stmt.For f -> {
                f.init().forEach(x -> visit(x, assigned, seen));
                visit(f.condition(), assigned, seen);
                visit(f.update(), assigned, seen);
                visit(f.body(), assigned, seen);
            }
            case Stmt.Return r -> visit(r.value(), assigned, seen);
            case Stmt.Switch sw -> {
                visit(sw.selector(), assigned, seen);
                sw.cases().forEach(c -> c.statements().forEach(x -> visit(x, assigned, seen)));
            }
            case Stmt.Break b -> { }
            case Stmt.Continue c -> { }
            case Stmt.Empty e -> { }
        }
    }

    private void visit(Expr e, Set<Var> assigned, Set<Function> seen) {
        if (e == null) {
            return;
        }
        switch (e) {
            case Expr.Assign a -> {
                markAssigned(a.target(), assigned);
                if (a.target() instanceof Expr.VarRef v) {
                    storeOf(v.var(), a.value());
                }
            }
            case Expr.CompoundAssign a -> markAssigned(a.target(), assigned);
            case Expr.IncDec a -> markAssigned(a.target(), assigned);
            case Expr.VarRef v -> declare(v.var());
            case Expr.Call c -> {
                for (int i = 0; i < c.args().size() && i < c.function().params.size(); i++) {
                    storeOf(c.function().params.get(i), c.args().get(i));
                }
                visitFunction(c.function(), assigned, seen);
            }
            default -> { }
        }
        for (Expr child : Exprs.children(e)) {
            visit(child, assigned, seen);
        }
    }

    private void storeOf(Var target, Expr value) {
        if (value != null && target.type instanceof CType.Pointer) {
            pointerStores.add(new Alignment.PointerStore(target, value));
        }
    }

    private static void markAssigned(Expr target, Set<Var> assigned) {
        if (target instanceof Expr.VarRef v) {
            assigned.add(v.var());
        }
    }
}
