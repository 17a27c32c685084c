package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.codegen.Jvm.SEGMENT;

import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.codegen.Jvm.K;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-thread copies of the variables a region-form kernel keeps across regions ({@link RegionForm#saved}), in
 * {@code BlockState.prims} (and {@code refs} for pointers' segments), slot-major: slot {@code k} of thread {@code t}
 * at {@code k * threads + t}, so that a region's loop over the threads walks each with unit stride. A vector or
 * struct takes one primitive slot per leaf, a pointer one for its offset and a reference slot for its segment.
 * {@link RegionEmitter} binds the JVM locals that hold the arrays, the thread count and the running thread.
 */
final class SavedRegisters {
    private static final ClassDesc ARRAYS = ClassDesc.of("java.util.Arrays");

    private final Emitter e;
    private final CodeBuilder c;
    private final Map<Var, Integer> primIndex = new IdentityHashMap<>();
    private final Map<Var, Integer> refIndex = new IdentityHashMap<>();
    /** Saved primitive slots per thread. */
    final int primSlots;
    /** Saved reference slots per thread (a pointer's segment). */
    final int refSlots;
    private int threadsSlot;
    private int tidSlot;
    private int primArray;
    private int refArray;

    SavedRegisters(Emitter e, List<Var> saved) {
        this.e = e;
        this.c = e.c;
        int prims = 0;
        int refs = 0;
        for (Var v : saved) {
            if (e.plan.storage.get(v) == Plan.Storage.POINTER) {
                refIndex.put(v, refs++);
            }
            primIndex.put(v, prims);
            prims += leaves(v);
        }
        this.primSlots = prims;
        this.refSlots = refs;
    }

    /**
     * Pushes where thread 0's bits of scalar {@code v} lie in the saved primitives, {@code slot * threads}: thread
     * {@code t}'s are {@code t} further (for the lanes, which move a group's values at once).
     */
    void pushFirst(Var v) {
        slotStart(primIndex.get(v));
    }

    /** Pushes where the running thread's bits of scalar {@code v} lie in the saved primitives. */
    void pushRunning(Var v) {
        index(primIndex.get(v));
    }

    /** The JVM locals of the thread count, the running thread and the two arrays. */
    void bind(int threadsSlot, int tidSlot, int primArray, int refArray) {
        this.threadsSlot = threadsSlot;
        this.tidSlot = tidSlot;
        this.primArray = primArray;
        this.refArray = refArray;
    }

    private int leaves(Var v) {
        return e.plan.storage.get(v) == Plan.Storage.VECTOR ? Jvm.leafKinds(v.type).length : 1;
    }

    /** Gives every thread's copy of assigned parameter {@code p} the launch's value. */
    void startParam(Var p) {
        e.loadParam(p);
        for (int i = 0; i < leaves(p); i++) {
            c.aload(primArray);
            slotStart(primIndex.get(p) + i);
            slotStart(primIndex.get(p) + i);
            c.iload(threadsSlot);
            c.iadd();
            loadLeafBits(p, i);
            c.invokestatic(ARRAYS, "fill", MethodTypeDesc.ofDescriptor("([JIIJ)V"));
        }
        if (refIndex.containsKey(p)) {
            c.aload(refArray);
            slotStart(refIndex.get(p));
            slotStart(refIndex.get(p));
            c.iload(threadsSlot);
            c.iadd();
            c.aload(e.slot.get(p));
            c.invokestatic(ARRAYS, "fill", MethodTypeDesc.ofDescriptor("([Ljava/lang/Object;IILjava/lang/Object;)V"));
        }
    }

    /** Pushes the index of the running thread in saved slot {@code k}: {@code k * threads + tid}. */
    private void index(int k) {
        if (k != 0) {
            slotStart(k);
            c.iload(tidSlot);
            c.iadd();
        } else {
            c.iload(tidSlot);
        }
    }

    private void slotStart(int k) {
        c.loadConstant(k);
        c.iload(threadsSlot);
        c.imul();
    }

    /** Stores the running thread's value of {@code v} into its saved slots. */
    void save(Var v) {
        if (refIndex.containsKey(v)) {
            c.aload(refArray);
            index(refIndex.get(v));
            c.aload(e.slot.get(v));
            c.aastore();
        }
        for (int i = 0; i < leaves(v); i++) {
            c.aload(primArray);
            index(primIndex.get(v) + i);
            loadLeafBits(v, i);
            c.lastore();
        }
    }

    /** Loads the running thread's value of {@code v} from its saved slots. */
    void restore(Var v) {
        if (refIndex.containsKey(v)) {
            c.aload(refArray);
            index(refIndex.get(v));
            c.aaload();
            c.checkcast(SEGMENT);
            c.astore(e.slot.get(v));
        }
        for (int i = 0; i < leaves(v); i++) {
            c.aload(primArray);
            index(primIndex.get(v) + i);
            c.laload();
            K k = leafKind(v, i);
            e.exprs.fromBits(k);
            c.storeLocal(k.tk, leafSlot(v, i));
        }
    }

    /** Pushes leaf {@code i} of {@code v} (a pointer's offset, a scalar, or a vector's component) as long bits. */
    private void loadLeafBits(Var v, int i) {
        K k = leafKind(v, i);
        c.loadLocal(k.tk, leafSlot(v, i));
        e.exprs.toBits(k);
    }

    private K leafKind(Var v, int i) {
        return switch (e.plan.storage.get(v)) {
            case POINTER -> K.J;
            case VECTOR -> Jvm.leafKinds(v.type)[i];
            default -> Jvm.kind(v.type);
        };
    }

    private int leafSlot(Var v, int i) {
        return switch (e.plan.storage.get(v)) {
            case POINTER -> e.offSlot.get(v);
            case VECTOR -> e.vectorSlots.get(v)[i];
            default -> e.slot.get(v);
        };
    }
}
