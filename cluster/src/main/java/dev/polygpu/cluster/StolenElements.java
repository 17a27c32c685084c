package dev.polygpu.cluster;

import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.runtime.Access;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.TrackedArray;
import dev.polygpu.runtime.Work;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The thief's side of a stolen element: the computational element that its message and input bytes describe,
 * on arrays of this member's device, and the bytes it wrote. {@link ClusterNode} runs stolen elements through
 * it, and {@link Warmup} its test element, so that the warm-up readies the very code a stolen element takes.
 */
final class StolenElements {
    private StolenElements() {
    }

    /** An element ready to submit, and the arrays it runs on by the owner's array ids (release them after). */
    record Prepared(ComputationalElement element, Map<Long, TrackedArray> arrays) {
    }

    /**
     * The element {@code m} describes, running {@code function} on new arrays of {@code scheduler}'s device that
     * hold {@code inputs} (by the owner's array id; write-only arrays are not sent and start zeroed). The arrays
     * are named after {@code owner}. Throws {@link DeviceException} if an array it reads has no bytes or bytes of
     * the wrong size, or the device refuses an allocation; nothing stays allocated then.
     */
    static Prepared prepare(Scheduler scheduler, KernelFunction function, String owner, ElementMessage m,
            Map<Long, byte[]> inputs) {
        Map<Long, TrackedArray> arrays = new LinkedHashMap<>();
        try {
            Map<Long, AccessMode> modes = new LinkedHashMap<>();
            KernelArgs.Builder args = KernelArgs.builder();
            for (ElementMessage.Arg a : m.args()) {
                switch (a) {
                    case ElementMessage.ArrayArg arr -> {
                        TrackedArray t = arrays.get(arr.arrayId());
                        if (arr.mode().reads() && !inputs.containsKey(arr.arrayId())) {
                            throw new DeviceException(CudaError.INVALID_VALUE, "it reads array " + arr.arrayId()
                                    + ", but the reply carries no bytes for it");
                        }
                        if (t == null) {
                            t = localArray(scheduler, owner, arr, inputs.get(arr.arrayId()));
                            arrays.put(arr.arrayId(), t);
                        }
                        modes.merge(arr.arrayId(), arr.mode(), StolenElements::union);
                        args.pointer(t.buffer(), arr.byteOffset());
                    }
                    case ElementMessage.ScalarArg s -> args.add(new KernelArg.Scalar(s.type(), s.bits()));
                }
            }
            List<Access> accesses = new ArrayList<>();
            for (Map.Entry<Long, AccessMode> e : modes.entrySet()) {
                accesses.add(new Access(arrays.get(e.getKey()), e.getValue()));
            }
            int[] g = m.grid();
            int[] b = m.block();
            LaunchConfig launch = new LaunchConfig(new Dim3(g[0], g[1], g[2]), new Dim3(b[0], b[1], b[2]),
                    Math.toIntExact(m.sharedBytes()));
            return new Prepared(ComputationalElement.kernel(m.label(), accesses,
                    new Work.Kernel(function, launch, args.build(), m.source()), null), arrays);
        } catch (RuntimeException e) {
            release(scheduler, arrays);
            throw e;
        }
    }

    /**
     * The arrays {@code m} writes, as they are now in {@code arrays}, once its element completed: what goes home in
     * a work result. With several devices they are read from the copy on the device the element ran on.
     */
    static List<ArrayData> outputs(Scheduler scheduler, ElementMessage m, Map<Long, TrackedArray> arrays) {
        Set<Long> writes = new LinkedHashSet<>();
        for (ElementMessage.Arg a : m.args()) {
            if (a instanceof ElementMessage.ArrayArg arr && arr.mode().writes()) {
                writes.add(arr.arrayId());
            }
        }
        List<ArrayData> outputs = new ArrayList<>();
        for (Long id : writes) {
            TrackedArray t = arrays.get(id);
            outputs.add(new ArrayData(id, 0, scheduler.settledCopy(t).hostView().asSlice(0, t.bytes()).toArray(
                    ValueLayout.JAVA_BYTE)));
        }
        return outputs;
    }

    /** Ends the scheduler's tracking of {@code arrays} and frees their memory. */
    static void release(Scheduler scheduler, Map<Long, TrackedArray> arrays) {
        for (TrackedArray t : arrays.values()) {
            scheduler.release(t);
            t.buffer().free();
        }
    }

    private static TrackedArray localArray(Scheduler scheduler, String owner, ElementMessage.ArrayArg arr,
            byte[] input) {
        UnifiedBuffer buffer = scheduler.device().allocate(arr.arrayBytes());
        try {
            MemorySegment view = buffer.hostView();
            if (input != null) {
                if (input.length != arr.arrayBytes()) {
                    throw new DeviceException(CudaError.INVALID_VALUE, "array " + arr.arrayId() + " came with "
                            + input.length + " bytes, but the element says it has " + arr.arrayBytes());
                }
                MemorySegment.copy(input, 0, view, ValueLayout.JAVA_BYTE, 0, input.length);
            } else {
                // Write-only ('out'): not sent; the kernel is expected to write all of it.
                view.asSlice(0, arr.arrayBytes()).fill((byte) 0);
            }
            return scheduler.track("array " + arr.arrayId() + " of " + owner, buffer, arr.arrayBytes());
        } catch (RuntimeException e) {
            buffer.free();
            throw e;
        }
    }

    private static AccessMode union(AccessMode a, AccessMode b) {
        boolean reads = a.reads() || b.reads();
        boolean writes = a.writes() || b.writes();
        return reads && writes ? AccessMode.READ_WRITE : writes ? AccessMode.WRITE : AccessMode.READ;
    }
}
