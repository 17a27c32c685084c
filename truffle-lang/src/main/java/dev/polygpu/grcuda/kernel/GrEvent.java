package dev.polygpu.grcuda.kernel;

import dev.polygpu.device.Event;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrPlainObject;

/** A CUDA event as guest code holds it: the result of {@code cudaEventCreate()}. */
public final class GrEvent extends GrPlainObject {
    private final Event event;

    public GrEvent(Event event) {
        this.event = event;
    }

    public Event event() {
        return event;
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
