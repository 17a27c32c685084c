package dev.polygpu.grcuda.kernel;

import dev.polygpu.device.Event;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrMetaObject;
import java.util.concurrent.atomic.AtomicBoolean;
import dev.polygpu.grcuda.objects.GrPlainObject;

/** A CUDA event as guest code holds it: the result of {@code cudaEventCreate()}. */
public final class GrEvent extends GrPlainObject {
    private final Event event;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    public GrEvent(Event event) {
        this.event = event;
    }

    public Event event() {
        return event;
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
