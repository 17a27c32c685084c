package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrPlainObject;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A CUDA stream as guest code holds it: the result of {@code cudaStreamCreate()}, the 4th (or 3rd) launch setting.
 * As in GrCUDA it is a pointer to interop ({@code Value.isNativePointer()}), whose value is its handle: a
 * non-zero number unique among the context's streams and events.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrStream extends GrPlainObject {
    private final Stream stream;
    private final long handle;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    public GrStream(Stream stream, long handle) {
        this.stream = stream;
        this.handle = handle;
    }

    public Stream stream() {
        return stream;
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
