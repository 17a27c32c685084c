package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import org.graalvm.polyglot.Context;

/**
 * A minimal device array for kernel tests (the real ones are written elsewhere): a buffer of the context's
 * device, an element type and a count, passed to kernels as a guest object.
 */
@ExportLibrary(InteropLibrary.class)
final class TestMemory implements GrDeviceMemory, TruffleObject {
    private final UnifiedBuffer buffer;
    private final ElementType type;
    private final long count;

    private TestMemory(UnifiedBuffer buffer, ElementType type, long count) {
        this.buffer = buffer;
        this.type = type;
        this.count = count;
    }

    /** {@code count} elements of {@code type} on the device of polyglot context {@code c}. */
    static TestMemory allocate(Context c, ElementType type, long count) {
        c.initialize("grcuda");
        c.enter();
        try {
            return new TestMemory(GrContext.get(null).device().allocate(count * type.size), type, count);
        } finally {
            c.leave();
        }
    }

    @Override
    public UnifiedBuffer buffer() {
        return buffer;
    }

    @Override
    public long byteOffset() {
        return 0;
    }

    @Override
    public ElementType elementType() {
        return type;
    }

    @Override
    public long elementCount() {
        return count;
    }

    @Override
    public boolean isFreed() {
        return buffer.isFreed();
    }

    @ExportMessage
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "TestMemory(" + type.cName + ", " + count + ")";
    }
}
