package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.STATE;
import static dev.polygpu.device.cpu.kernel.codegen.Jvm.mt;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

import dev.polygpu.device.cpu.kernel.ast.Var;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.List;

/**
 * Emits the SIMD part of a {@link RegionForm.Sweep} whose loop has a lane form ({@link LaneForm#sweep}): before the
 * passes over the threads, each group of a vector's worth of consecutive threads whose indices are consecutive runs
 * its whole loop as lanes — the carried variables (a reduction's running sums) loaded from the threads' saved
 * registers into vectors, the iterations in which every lane's index is below the bound as plain vector loads, then
 * at most one iteration under a mask (a step of at least the vector's width ends every lane's loop there), then the
 * variables and indices saved back and the threads marked done, so the passes skip them. Each lane runs its own
 * thread's iterations in their order, with Java's rounding, which is CUDA's: the same results bit for bit. A group
 * whose indices are not consecutive, whose step is below the vector's width, or whose elements from its first index
 * to the bound do not all lie inside their arrays ({@code LaneRange}) is left to the passes, which fault or stop as
 * before; so is a block of more than one row of threads, and the threads after the last whole group. Each vector
 * iteration polls the stop request.
 */
final class LaneSweepEmitter {
    private static final ClassDesc LANE_RANGE = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.LaneRange");
    private static final ClassDesc SWEEPS = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.LaneSweeps");
    private static final ClassDesc ARRAYS = ClassDesc.of("java.util.Arrays");
    private static final ClassDesc PRIMS = ClassDesc.ofDescriptor("[J");

    /** What the region emitter lends: the running thread's slot, the thread count, the state arrays. */
    record Frame(int threadsSlot, int tidSlot, int primArray, int statusArray, int done, SavedRegisters saved,
                 Runnable enterThread) {}

    private final Emitter e;
    private final CodeBuilder c;
    private final RegionForm.Region region;
    private final LaneForm form;
    private final Frame f;
    private final ClassDesc vector;
    private final ClassDesc array;
    private final String kind;

    LaneSweepEmitter(Emitter e, RegionForm.Region region, Frame frame) {
        this.e = e;
        this.c = e.c;
        this.region = region;
        this.form = region.lanes;
        this.f = frame;
        this.vector = VectorApi.vectorClass(form.lane());
        this.array = Jvm.kind(form.lane()).desc.arrayType();
        this.kind = switch (form.lane()) {
            case FLOAT -> "Floats";
            case DOUBLE -> "Doubles";
            default -> "Ints";
        };
    }

    void emit() {
        Label end = c.newLabel();
        c.iload(e.blockDimSlots[1]);
        c.iconst_1();
        c.if_icmpne(end);
        c.iload(e.blockDimSlots[2]);
        c.iconst_1();
        c.if_icmpne(end);
        for (int slot : new int[] {e.txSlot, e.tySlot, e.tzSlot, f.tidSlot()}) {
            c.iconst_0();
            c.istore(slot);
        }
        // Thread 0's values of what the region reads: the block-uniform ones the bound, step and shifts use.
        f.enterThread().run();
        LaneEmitter lanes = new LaneEmitter(e, form);
        lanes.allocate();
        int bound = c.allocateLocal(TypeKind.INT);
        int step = c.allocateLocal(TypeKind.INT);
        int scratch = c.allocateLocal(TypeKind.REFERENCE);
        int group = c.allocateLocal(TypeKind.INT);
        int base = c.allocateLocal(TypeKind.INT);
        int iterations = c.allocateLocal(TypeKind.INT);
        int mask = c.allocateLocal(TypeKind.REFERENCE);
        e.exprs.value(form.bound());
        c.istore(bound);
        e.exprs.value(form.step());
        c.istore(step);
        c.loadConstant(form.lanes());
        c.newarray(Jvm.kind(form.lane()).tk);
        c.astore(scratch);
        c.iconst_0();
        c.istore(group);
        Label top = c.newBoundLabel();
        Label next = c.newLabel();
        c.iload(group);
        c.loadConstant(form.lanes());
        c.iadd();
        c.iload(f.threadsSlot());
        c.if_icmpgt(end);
        c.iload(group);
        c.dup();
        c.istore(f.tidSlot());
        c.istore(e.txSlot);
        f.enterThread().run();
        Var index = form.index();
        c.iload(e.slot.get(index));
        c.istore(base);
        c.aload(f.primArray());
        at(index, group);
        c.loadConstant(form.lanes());
        c.invokestatic(SWEEPS, "consecutive", mt(CD_boolean, PRIMS, CD_int, CD_int));
        c.ifeq(next);
        c.iload(base);
        c.iload(bound);
        c.iload(step);
        c.loadConstant(form.lanes());
        c.invokestatic(LANE_RANGE, "strided", mt(CD_int, CD_int, CD_int, CD_int, CD_int));
        lanes.memoryChecks(base);
        c.ifeq(next);
        c.loadConstant(form.lanes());
        c.invokestatic(LANE_RANGE, "run", mt(CD_int, CD_int));
        c.pop();
        List<Var> carried = region.loads.stream().filter(form.carried()::contains).toList();
        for (Var v : carried) {
            c.aload(f.primArray());
            at(v, group);
            c.aload(scratch);
            c.invokestatic(SWEEPS, "load" + kind, mt(CD_void, PRIMS, CD_int, array));
            c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
            c.aload(scratch);
            c.iconst_0();
            c.invokestatic(vector, "fromArray", mt(vector, VectorApi.SPECIES, array, CD_int));
            c.astore(lanes.vectorSlot(v));
        }
        c.iconst_0();
        c.istore(iterations);
        // Every lane's index is below the bound while the last one's is.
        Label full = c.newBoundLabel();
        Label tail = c.newLabel();
        c.iload(base);
        c.loadConstant(form.lanes() - 1);
        c.iadd();
        c.iload(bound);
        c.if_icmpge(tail);
        e.pollCancellation(region.loop.pos());
        lanes.iteration(base, -1);
        advance(base, step, iterations);
        c.goto_(full);
        c.labelBinding(tail);
        Label save = c.newLabel();
        c.iload(base);
        c.iload(bound);
        c.if_icmpge(save);
        c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
        c.iconst_0();
        c.iload(bound);
        c.iload(base);
        c.isub();
        c.invokeinterface(VectorApi.SPECIES, "indexInRange", mt(VectorApi.MASK, CD_int, CD_int));
        c.astore(mask);
        lanes.iteration(base, mask);
        c.iinc(iterations, 1);
        c.labelBinding(save);
        for (Var v : carried) {
            if (region.stores.contains(v)) {
                c.aload(lanes.vectorSlot(v));
                c.aload(scratch);
                c.iconst_0();
                c.invokevirtual(vector, "intoArray", mt(CD_void, array, CD_int));
                c.aload(scratch);
                c.aload(f.primArray());
                at(v, group);
                c.invokestatic(SWEEPS, "save" + kind, mt(CD_void, array, PRIMS, CD_int));
            }
        }
        if (region.stores.contains(index)) {
            c.aload(f.primArray());
            at(index, group);
            c.loadConstant(form.lanes());
            c.iload(base);
            c.iload(bound);
            c.iload(step);
            c.invokestatic(SWEEPS, "saveIndex", mt(CD_void, PRIMS, CD_int, CD_int, CD_int, CD_int, CD_int));
        }
        c.aload(f.statusArray());
        c.iload(group);
        c.iload(group);
        c.loadConstant(form.lanes());
        c.iadd();
        c.loadConstant(f.done());
        c.invokestatic(ARRAYS, "fill", MethodTypeDesc.ofDescriptor("([BIIB)V"));
        // For the runner's choice between the swept and the thread-loop form (KernelRunner), as the passes count.
        c.aload(MethodEmitter.STATE_SLOT);
        c.dup();
        c.getfield(STATE, "sweepPasses", CD_int);
        c.iload(iterations);
        c.invokestatic(Jvm.JAVA_MATH, "max", mt(CD_int, CD_int, CD_int));
        c.putfield(STATE, "sweepPasses", CD_int);
        c.labelBinding(next);
        c.iinc(group, form.lanes());
        c.goto_(top);
        c.labelBinding(end);
    }

    /** Pushes the index of the group's first thread in {@code v}'s saved slot: {@code slot * threads + group}. */
    private void at(Var v, int group) {
        c.loadConstant(f.saved().primSlot(v));
        c.iload(f.threadsSlot());
        c.imul();
        c.iload(group);
        c.iadd();
    }

    /** {@code base += step; iterations++}: no overflow, as {@code LaneRange.strided} checked. */
    private void advance(int base, int step, int iterations) {
        c.iload(base);
        c.iload(step);
        c.iadd();
        c.istore(base);
        c.iinc(iterations, 1);
    }
}
