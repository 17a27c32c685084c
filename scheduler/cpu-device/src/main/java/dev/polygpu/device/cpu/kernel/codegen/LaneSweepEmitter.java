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
 * passes over the threads, the block's threads run their loops as lanes, iteration by iteration over the block as
 * the passes do: in each, the threads whose index is still below the bound (always the first ones: their indices
 * are consecutive) a vector's worth at a time, the last group under a mask, the carried variables (a reduction's
 * running sums) held in an array per variable, one element per thread, between iterations. Each lane runs its own
 * thread's iterations in their order, with Java's rounding, which is CUDA's: the same results bit for bit; and since
 * the loop stores nothing, interleaving the threads' iterations shows nothing either. Then the variables and
 * indices are saved back and the threads marked done, so the passes skip them. A block of more than one row, whose
 * threads' indices at the loop's start are not consecutive, whose {@code bound + step} overflows or whose elements
 * from the first index to the bound do not all lie inside their arrays ({@code LaneRange}) runs in the passes, which
 * fault or stop as before; so do the threads after the last whole vector. Each iteration polls the stop request.
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
        // Thread 0's values of what the region reads: its index, and the block-uniform values of the bound, step
        // and shifts.
        f.enterThread().run();
        LaneEmitter lanes = new LaneEmitter(e, form);
        lanes.allocate();
        int bound = c.allocateLocal(TypeKind.INT);
        int step = c.allocateLocal(TypeKind.INT);
        int first = c.allocateLocal(TypeKind.INT);
        int count = c.allocateLocal(TypeKind.INT);
        int base = c.allocateLocal(TypeKind.INT);
        int index = c.allocateLocal(TypeKind.INT);
        int active = c.allocateLocal(TypeKind.INT);
        int whole = c.allocateLocal(TypeKind.INT);
        int group = c.allocateLocal(TypeKind.INT);
        int iterations = c.allocateLocal(TypeKind.INT);
        int mask = c.allocateLocal(TypeKind.REFERENCE);
        Var indexVar = form.index();
        e.exprs.value(form.bound());
        c.istore(bound);
        e.exprs.value(form.step());
        c.istore(step);
        c.iload(e.slot.get(indexVar));
        c.istore(first);
        // count: the threads that run as lanes, whole vectors of them
        c.iload(f.threadsSlot());
        c.dup();
        c.loadConstant(form.lanes());
        c.irem();
        c.isub();
        c.dup();
        c.istore(count);
        c.ifeq(end);
        c.aload(f.primArray());
        f.saved().pushFirst(indexVar);
        c.iload(count);
        c.invokestatic(SWEEPS, "consecutive", mt(CD_boolean, PRIMS, CD_int, CD_int));
        c.ifeq(end);
        c.iload(first);
        c.iload(bound);
        c.iload(step);
        c.iconst_1();
        c.invokestatic(LANE_RANGE, "strided", mt(CD_int, CD_int, CD_int, CD_int, CD_int));
        lanes.memoryChecks(first);
        c.ifeq(end);
        c.iload(count);
        LaneEmitter.tally(c);
        List<Var> carried = region.loads.stream().filter(form.carried()::contains).toList();
        int[] values = new int[carried.size()];
        for (int k = 0; k < values.length; k++) {
            values[k] = c.allocateLocal(TypeKind.REFERENCE);
            c.iload(count);
            c.newarray(Jvm.kind(form.lane()).tk);
            c.astore(values[k]);
            c.aload(f.primArray());
            f.saved().pushFirst(carried.get(k));
            c.aload(values[k]);
            c.invokestatic(SWEEPS, "load" + kind, mt(CD_void, PRIMS, CD_int, array));
        }
        c.iload(first);
        c.istore(base);
        c.iconst_0();
        c.istore(iterations);
        Label iteration = c.newBoundLabel();
        lanes.activeThreads(count, bound, base, active, whole);
        c.iconst_0();
        c.istore(group);
        Label groups = c.newBoundLabel();
        Label last = c.newLabel();
        c.iload(group);
        c.iload(whole);
        c.if_icmpge(last);
        group(lanes, carried, values, base, group, index, -1);
        c.iinc(group, form.lanes());
        c.goto_(groups);
        c.labelBinding(last);
        Label stepped = c.newLabel();
        c.iload(whole);
        c.iload(active);
        c.if_icmpge(stepped);
        c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
        c.iconst_0();
        c.iload(active);
        c.iload(whole);
        c.isub();
        c.invokeinterface(VectorApi.SPECIES, "indexInRange", mt(VectorApi.MASK, CD_int, CD_int));
        c.astore(mask);
        group(lanes, carried, values, base, group, index, mask);
        c.labelBinding(stepped);
        c.iinc(iterations, 1);
        e.pollCancellation(region.loop.pos());
        // base += step, which LaneRange.strided made sure cannot pass Integer.MAX_VALUE
        c.iload(base);
        c.iload(step);
        c.iadd();
        c.dup();
        c.istore(base);
        c.iload(bound);
        c.if_icmplt(iteration);
        for (int k = 0; k < values.length; k++) {
            if (region.stores.contains(carried.get(k))) {
                c.aload(values[k]);
                c.aload(f.primArray());
                f.saved().pushFirst(carried.get(k));
                c.invokestatic(SWEEPS, "save" + kind, mt(CD_void, array, PRIMS, CD_int));
            }
        }
        if (region.stores.contains(indexVar)) {
            c.aload(f.primArray());
            f.saved().pushFirst(indexVar);
            c.iload(count);
            c.iload(first);
            c.iload(bound);
            c.iload(step);
            c.invokestatic(SWEEPS, "saveIndices", mt(CD_void, PRIMS, CD_int, CD_int, CD_int, CD_int, CD_int));
        }
        c.aload(f.statusArray());
        c.iconst_0();
        c.iload(count);
        c.loadConstant(f.done());
        c.invokestatic(ARRAYS, "fill", MethodTypeDesc.ofDescriptor("([BIIB)V"));
        // For the runner's choice between the swept and the thread-loop form (KernelRunner), as the passes count.
        c.aload(MethodEmitter.STATE_SLOT);
        c.dup();
        c.getfield(STATE, "sweepPasses", CD_int);
        c.iload(iterations);
        c.invokestatic(Jvm.JAVA_MATH, "max", mt(CD_int, CD_int, CD_int));
        c.putfield(STATE, "sweepPasses", CD_int);
        c.labelBinding(end);
    }

    /**
     * One iteration of the group of threads from int local {@code group}: its carried values from their arrays,
     * the body at index {@code base + group}, the values back; under the mask in local {@code mask} unless -1.
     */
    private void group(LaneEmitter lanes, List<Var> carried, int[] values, int base, int group, int index,
            int mask) {
        for (int k = 0; k < values.length; k++) {
            c.getstatic(vector, "SPECIES_PREFERRED", VectorApi.SPECIES);
            c.aload(values[k]);
            c.iload(group);
            c.invokestatic(vector, "fromArray", mt(vector, VectorApi.SPECIES, array, CD_int));
            c.astore(lanes.vectorSlot(carried.get(k)));
        }
        c.iload(base);
        c.iload(group);
        c.iadd();
        c.istore(index);
        lanes.iteration(index, mask);
        for (int k = 0; k < values.length; k++) {
            c.aload(lanes.vectorSlot(carried.get(k)));
            c.aload(values[k]);
            c.iload(group);
            c.invokevirtual(vector, "intoArray", mt(CD_void, array, CD_int));
        }
    }
}
