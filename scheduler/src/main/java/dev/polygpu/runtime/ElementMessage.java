package dev.polygpu.runtime;

import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.LaunchConfig;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A computational element as a self-contained message, for running it on another machine: the kernel's
 * source, name and signature, the launch configuration, scalar values, and for each array argument its id,
 * size, offset and access mode (the contents travel separately). Copies and fills are described by their
 * arrays and byte ranges. Immutable and serializable; holds no device objects.
 *
 * @param elementId the owner scheduler's id of the element
 * @param kind      what the element does
 * @param label     the kernel name or operation
 * @param source    for kernels: how to build the kernel again; null otherwise
 * @param grid      grid size (x, y, z); {@code {1, 1, 1}} for copies and fills
 * @param block     block size (x, y, z); {@code {1, 1, 1}} for copies and fills
 * @param sharedBytes dynamic shared memory bytes
 * @param rangeBytes for copies, fills and prefetches: how many bytes; 0 for kernels
 * @param args      the arguments in parameter order (kernels) or destination then source (copies)
 */
public record ElementMessage(long elementId, ElementKind kind, String label, KernelSource source, int[] grid,
        int[] block, long sharedBytes, long rangeBytes, List<Arg> args) implements Serializable {

    /** One argument of the message. */
    public sealed interface Arg extends Serializable {
    }

    /** An array argument: which array, its size in bytes, the byte offset the element starts at, and how it is used. */
    public record ArrayArg(long arrayId, long arrayBytes, long byteOffset, AccessMode mode) implements Arg {
    }

    /** A scalar argument: its C type and value bits (as {@link KernelArg.Scalar}). */
    public record ScalarArg(ElementType type, long bits) implements Arg {
    }

    public ElementMessage {
        args = List.copyOf(args);
        grid = grid.clone();
        block = block.clone();
    }

    @Override
    public int[] grid() {
        return grid.clone();
    }

    @Override
    public int[] block() {
        return block.clone();
    }

    static ElementMessage of(long id, ComputationalElement e) {
        List<Arg> args = new ArrayList<>();
        switch (e.work()) {
            case Work.Kernel k -> {
                for (KernelArg a : k.args().list()) {
                    switch (a) {
                        case KernelArg.Pointer p -> args.add(arrayArg(e, p.buffer(), p.offset()));
                        case KernelArg.Scalar s -> args.add(new ScalarArg(s.type(), s.bits()));
                    }
                }
                LaunchConfig c = k.config();
                return new ElementMessage(id, e.kind(), e.label(), k.source(),
                        new int[] {c.grid().x(), c.grid().y(), c.grid().z()},
                        new int[] {c.block().x(), c.block().y(), c.block().z()}, c.dynamicSharedBytes(), 0, args);
            }
            case Work.Copy c -> {
                args.add(arrayArg(e, c.dst(), c.dstOffset()));
                args.add(arrayArg(e, c.src(), c.srcOffset()));
                return rangeMessage(id, e, c.bytes(), args);
            }
            case Work.Fill f -> {
                args.add(arrayArg(e, f.dst(), f.offset()));
                args.add(new ScalarArg(ElementType.UINT8, Byte.toUnsignedLong(f.value())));
                return rangeMessage(id, e, f.bytes(), args);
            }
            case Work.Prefetch p -> {
                args.add(arrayArg(e, p.buffer(), p.offset()));
                return rangeMessage(id, e, p.bytes(), args);
            }
        }
    }

    private static ElementMessage rangeMessage(long id, ComputationalElement e, long bytes, List<Arg> args) {
        return new ElementMessage(id, e.kind(), e.label(), null, new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, bytes,
                args);
    }

    private static ArrayArg arrayArg(ComputationalElement e, dev.polygpu.device.UnifiedBuffer buffer, long offset) {
        for (Access a : e.accesses()) {
            if (a.array().buffer() == buffer) {
                return new ArrayArg(a.array().id(), a.array().bytes(), offset, a.mode());
            }
        }
        throw new IllegalStateException(e.describe() + " passes a buffer that is not among its tracked arrays");
    }
}
