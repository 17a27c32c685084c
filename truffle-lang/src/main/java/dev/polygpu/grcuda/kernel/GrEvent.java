package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.Event;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrPlainObject;

/**
 * A CUDA event as guest code holds it: the result of {@code cudaEventCreate()}. As in GrCUDA it is a pointer to interop ({@code Value.isNativePointer()}), whose value is
 * its handle: a non-zero number unique among the context's streams and events.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrEvent extends GrPlainObject {
    private final Event event;
    private final long handle;

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

    @Override
    protected String displayString() {
        return "event";
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.EVENT;
    }
}
