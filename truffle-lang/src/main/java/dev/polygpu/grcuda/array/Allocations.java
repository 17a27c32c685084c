package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.runtime.TrackedArray;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The live device memory of one context (device arrays and {@code cudaMalloc} memory) by start address, so that
 * a raw address (an integer from an array's {@code pointer}, or any interop pointer) is checked against what
 * the context allocated and resolved to the allocation it falls in: polygpu never touches memory through an
 * address it cannot place, and the scheduler orders work on it as on the array it belongs to.
 *
 * <p>Thread-safety: a concurrent map; allocations are added when created and removed when freed.
 */
public final class Allocations {
    private final ConcurrentSkipListMap<Long, ArrayMemory> byAddress = new ConcurrentSkipListMap<>();

    void add(ArrayMemory m) {
        byAddress.put(m.address, m);
    }

    void remove(ArrayMemory m) {
        byAddress.remove(m.address, m);
    }

    /**
     * The memory from {@code address} to the end of the live allocation that holds that byte, or null if no
     * live allocation of this context holds it.
     */
    @TruffleBoundary
    public GrDeviceMemory resolve(long address) {
        Map.Entry<Long, ArrayMemory> e = byAddress.floorEntry(address);
        if (e == null) {
            return null;
        }
        ArrayMemory m = e.getValue();
        long offset = address - m.address;
        return offset < m.byteSize() && !m.isFreed() ? new Range(m, offset) : null;
    }

    /**
     * Frees the live allocation that starts exactly at {@code address} (after the work that uses it, as
     * {@code cudaFree} does); false if none starts there.
     */
    @TruffleBoundary
    public boolean freeAt(long address) {
        ArrayMemory m = byAddress.get(address);
        if (m == null || m.isFreed()) {
            return false;
        }
        m.free();
        return true;
    }

    /** The whole of an allocation as device memory. */
    static GrDeviceMemory whole(ArrayMemory m) {
        return new Range(m, 0);
    }

    /** How messages show an address. */
    public static String hex(long address) {
        return "0x" + Long.toHexString(address);
    }

    /**
     * The bytes from {@code offset} to the end of an allocation. Typed like the allocation (a kernel parameter
     * then checks the element type and the alignment); its element count is the whole elements left.
     */
    private record Range(ArrayMemory memory, long offset) implements GrDeviceMemory {
        @Override
        public UnifiedBuffer buffer() {
            return memory.live();
        }

        @Override
        public long byteOffset() {
            return offset;
        }

        @Override
        public ElementType elementType() {
            return memory.type;
        }

        @Override
        public long elementCount() {
            return byteCount() / memory.type.size;
        }

        @Override
        public long byteCount() {
            return memory.byteSize() - offset;
        }

        @Override
        public boolean isFreed() {
            return memory.isFreed();
        }

        @Override
        public boolean isTyped() {
            return memory.typed;
        }

        @Override
        public TrackedArray tracked() {
            return memory.tracked;
        }

        @Override
        public String describe() {
            return hex(memory.address + offset) + " (byte " + offset + " of " + memory.description + ")";
        }
    }
}
