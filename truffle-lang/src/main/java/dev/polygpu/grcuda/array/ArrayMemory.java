package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrError;

/**
 * The memory of one device array (1-D or multi-dimensional, shared by the views of the latter): its unified
 * buffer, element type and count, and the description used in messages ({@code DeviceArray(float, 10, 20)}).
 */
final class ArrayMemory {
    final UnifiedBuffer buffer;
    final ElementType type;
    final long count;
    final String description;

    ArrayMemory(UnifiedBuffer buffer, ElementType type, long count, String description) {
        this.buffer = buffer;
        this.type = type;
        this.count = count;
        this.description = description;
    }

    boolean isFreed() {
        return buffer.isFreed();
    }

    /** The buffer, or a guest error if the array was freed. */
    UnifiedBuffer live() {
        if (buffer.isFreed()) {
            throw freed();
        }
        return buffer;
    }

    @TruffleBoundary
    GrError freed() {
        return GrError.of(description + " (buffer " + buffer.id() + ") was freed; it can no longer be read,"
                + " written or copied");
    }

    void free() {
        buffer.free();
    }
}
