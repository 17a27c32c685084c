package dev.polygpu.runtime;

import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.LaunchConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A computational element as a self-contained message, for running it on another machine: the kernel's
 * source, name and signature, the launch configuration, scalar values, and for each array argument its id,
 * size, offset and access mode (the contents travel separately). Copies and fills are described by their
 * arrays and byte ranges. Immutable; holds no device objects. It crosses machines through the cluster's explicit
 * wire format (not Java serialization). Equality compares {@code grid} and {@code block} by content.
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
        int[] block, long sharedBytes, long rangeBytes, List<Arg> args) {

    /** One argument of the message. */
    public sealed interface Arg {
    }

    /** An array argument: which array, its size in bytes, the byte offset the element starts at, and how it is used. */
    public record ArrayArg(long arrayId, long arrayBytes, long byteOffset, AccessMode mode) implements Arg {
        public ArrayArg {
            Objects.requireNonNull(mode, "mode");
        }
    }

    /** A scalar argument: its C type and value bits (as {@link KernelArg.Scalar}). */
    public record ScalarArg(ElementType type, long bits) implements Arg {
        public ScalarArg {
            Objects.requireNonNull(type, "type");
        }
    }

    /**
     * Checks and copies the parts: {@code kind}, {@code label} and {@code args} (and each argument) must not be
     * null, {@code grid} and {@code block} must have three entries; {@code source} may be null.
     */
    public ElementMessage {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(label, "label");
        args = List.copyOf(Objects.requireNonNull(args, "args"));
        grid = dim3(grid, "grid");
        block = dim3(block, "block");
    }

    private static int[] dim3(int[] dims, String what) {
        Objects.requireNonNull(dims, what);
        if (dims.length != 3) {
            throw new IllegalArgumentException(what + " must have 3 entries (x, y, z), not " + dims.length);
        }
        return dims.clone();
    }

    @Override
    public int[] grid() {
        return grid.clone();
    }

    @Override
    public int[] block() {
        return block.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ElementMessage m && elementId == m.elementId && kind == m.kind && label.equals(m.label)
                && Objects.equals(source, m.source) && Arrays.equals(grid, m.grid) && Arrays.equals(block, m.block)
                && sharedBytes == m.sharedBytes && rangeBytes == m.rangeBytes && args.equals(m.args);
    }

    @Override
    public int hashCode() {
        return Objects.hash(elementId, kind, label, source, Arrays.hashCode(grid), Arrays.hashCode(block),
                sharedBytes, rangeBytes, args);
    }

    @Override
    public String toString() {
        return "ElementMessage[elementId=" + elementId + ", kind=" + kind + ", label=" + label + ", source="
                + (source == null ? "null" : source.name()) + ", grid=" + Arrays.toString(grid) + ", block="
                + Arrays.toString(block) + ", sharedBytes=" + sharedBytes + ", rangeBytes=" + rangeBytes + ", args="
                + args + "]";
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
            case Work.HostCall h -> throw new IllegalArgumentException(e.describe() + " runs on the host that calls"
                    + " it; it is never stolen, so it has no message");
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
