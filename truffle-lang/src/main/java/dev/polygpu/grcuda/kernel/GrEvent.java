package dev.polygpu.grcuda.kernel;

import dev.polygpu.device.Event;
import dev.polygpu.grcuda.objects.GrMetaObject;

/**
 * A CUDA event as guest code holds it: the result of {@code cudaEventCreate()}.
 * As in GrCUDA it is a pointer to interop ({@code Value.isNativePointer()}), whose value is its handle: a
 * non-zero number unique among the context's streams and events.
 */
public final class GrEvent extends GrHandleObject {
    private final Event event;

    public GrEvent(Event event, long handle) {
        super(handle);
        this.event = event;
    }

    public Event event() {
        return event;
    }

    @Override
    protected void release() {
        event.close();
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
