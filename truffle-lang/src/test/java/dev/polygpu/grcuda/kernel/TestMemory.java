package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.TrackedArray;
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
    private final Scheduler scheduler;
    private final TrackedArray tracked;

    private TestMemory(Scheduler scheduler, UnifiedBuffer buffer, ElementType type, long count) {
        this.scheduler = scheduler;
        this.buffer = buffer;
        this.type = type;
        this.count = count;
        this.tracked = scheduler.track("TestMemory", buffer, count * type.size);
    }

    /** {@code count} elements of {@code type} on the device of polyglot context {@code c}. */
    static TestMemory allocate(Context c, ElementType type, long count) {
        c.initialize("grcuda");
        c.enter();
        try {
            GrContext g = GrContext.get(null);
            return new TestMemory(g.scheduler(), g.device().allocate(count * type.size), type, count);
        } finally {
            c.leave();
        }
    }

    @Override
    public UnifiedBuffer buffer() {
        return buffer;
    }

    /** The buffer for the test to read or write, once no kernel launched so far touches it. */
    UnifiedBuffer host() {
        scheduler.awaitHost(tracked, AccessMode.WRITE, "test access");
        return buffer;
    }

    @Override
    public TrackedArray tracked() {
        return tracked;
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
