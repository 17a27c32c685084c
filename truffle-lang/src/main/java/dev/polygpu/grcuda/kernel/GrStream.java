package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrPlainObject;

/**
 * A CUDA stream as guest code holds it: the result of {@code cudaStreamCreate()}, the 4th (or 3rd) launch setting. As in GrCUDA it is a pointer to interop ({@code Value.isNativePointer()}), whose value is
 * its handle: a non-zero number unique among the context's streams and events.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrStream extends GrPlainObject {
    private final Stream stream;
    private final long handle;

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

    @Override
    protected String displayString() {
        return "stream " + stream.id();
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.STREAM;
    }
}
