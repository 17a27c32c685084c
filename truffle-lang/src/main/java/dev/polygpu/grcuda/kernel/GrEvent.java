package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.Event;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrPlainObject;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A CUDA event as guest code holds it: the result of {@code cudaEventCreate()}.
 * As in GrCUDA it is a pointer to interop ({@code Value.isNativePointer()}), whose value is its handle: a
 * non-zero number unique among the context's streams and events.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrEvent extends GrPlainObject {
    private final Event event;
    private final long handle;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    public GrEvent(Event event, long handle) {
        this.event = event;
        this.handle = handle;
    }

    public Event event() {
        return event;
    }

    @ExportMessage
    boolean isPointer() {
        return true;
    }

    @ExportMessage
    long asPointer() {
        return handle;
    }

    /**
     * Releases the event; a second call is a guest error, as {@code cudaFree} of freed memory is.
     *
     * @param function the guest function, for the message
     */
    @TruffleBoundary
    public void destroy(String function) {
        if (!destroyed.compareAndSet(false, true)) {
            throw GrError.of(function + ": " + displayString() + " was already destroyed");
        }
        event.close();
    }

    /** A guest error naming {@code function} if {@link #destroy} ran. */
    @TruffleBoundary
    public void ensureLive(String function) {
        if (destroyed.get()) {
            throw GrError.of(function + ": " + displayString() + " was already destroyed");
        }
    }

    @Override
    protected String displayString() {
        return "event";
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.EVENT;
    }
}
