package dev.polygpu.grcuda.kernel;

import dev.polygpu.device.Stream;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrMetaObject;
import java.util.concurrent.atomic.AtomicBoolean;
import dev.polygpu.grcuda.objects.GrPlainObject;

/** A CUDA stream as guest code holds it: the result of {@code cudaStreamCreate()}, the 4th launch setting. */
public final class GrStream extends GrPlainObject {
    private final Stream stream;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    public GrStream(Stream stream) {
        this.stream = stream;
    }

    public Stream stream() {
        return stream;
    }

    /**
     * Releases the stream; a second call is a guest error, as {@code cudaFree} of freed memory is.
     *
     * @param function the guest function, for the message
     */
    @TruffleBoundary
    public void destroy(String function) {
        if (!destroyed.compareAndSet(false, true)) {
            throw GrError.of(function + ": " + displayString() + " was already destroyed");
        }
        stream.close();
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
        return "stream " + stream.id();
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.STREAM;
    }
}
