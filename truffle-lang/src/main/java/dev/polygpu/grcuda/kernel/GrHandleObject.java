package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrPlainObject;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A device object guest code holds by handle, as GrCUDA's streams and events: a pointer to interop
 * ({@code Value.isNativePointer()}) whose value is a non-zero number unique among the context's handles, and
 * destroyed once (a second destroy is a guest error, as {@code cudaFree} of freed memory is).
 */
@ExportLibrary(InteropLibrary.class)
public abstract class GrHandleObject extends GrPlainObject {
    private final long handle;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    protected GrHandleObject(long handle) {
        this.handle = handle;
    }

    @ExportMessage
    final boolean isPointer() {
        return true;
    }

    @ExportMessage
    final long asPointer() {
        return handle;
    }

    /** Releases the device object behind the handle; called once. */
    protected abstract void release();

    /**
     * Releases the object; a second call is a guest error.
     *
     * @param function the guest function, for the message
     */
    @TruffleBoundary
    public final void destroy(String function) {
        if (!destroyed.compareAndSet(false, true)) {
            throw GrError.of(function + ": " + displayString() + " was already destroyed");
        }
        release();
    }

    /** A guest error naming {@code function} if {@link #destroy} ran. */
    @TruffleBoundary
    public final void ensureLive(String function) {
        if (destroyed.get()) {
            throw GrError.of(function + ": " + displayString() + " was already destroyed");
        }
    }
}
