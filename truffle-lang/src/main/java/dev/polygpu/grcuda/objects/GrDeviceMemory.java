package dev.polygpu.grcuda.objects;

import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.runtime.TrackedArray;

/**
 * What a kernel launch needs from an array argument: the unified buffer behind it, where the array starts
 * in it, and its element type. Implemented by the device array objects (1-D and multi-dimensional, views
 * included); kernels accept any {@code GrDeviceMemory} where a pointer is expected.
 */
public interface GrDeviceMemory {

    /** The buffer; throws a guest error if the array was freed. */
    UnifiedBuffer buffer();

    /** Byte offset of the first element in {@link #buffer()}. */
    long byteOffset();

    ElementType elementType();

    /** Number of elements. */
    long elementCount();

    /** Number of bytes from {@link #byteOffset()} that belong to this memory. */
    default long byteCount() {
        return elementCount() * elementType().size;
    }

    /** How messages name this memory (the array's description by default). */
    default String describe() {
        return toString();
    }

    boolean isFreed();

    /**
     * True if the {@link #elementCount()} elements lie one after the other from {@link #byteOffset()}, as a
     * kernel or a byte copy sees them. Not so for a row of a column-major ("F") array.
     */
    default boolean isContiguous() {
        return true;
    }

    /**
     * False for raw memory ({@code cudaMalloc}, {@code cudaMallocManaged}): bytes without an element type, which
     * a kernel's pointer parameter of any type may take (as {@code void*} converts to any pointer in C).
     */
    default boolean isTyped() {
        return true;
    }

    /** The scheduler's handle on the array's memory (shared by all views of one array). */
    TrackedArray tracked();
}
