package dev.polygpu.grcuda.kernel;

import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.objects.GrMetaObject;

/**
 * A CUDA stream as guest code holds it: the result of {@code cudaStreamCreate()}, the 4th (or 3rd) launch setting.
 * As in GrCUDA it is a pointer to interop ({@code Value.isNativePointer()}), whose value is its handle: a
 * non-zero number unique among the context's streams and events.
 */
public final class GrStream extends GrHandleObject {
    private final Stream stream;

    public GrStream(Stream stream, long handle) {
        super(handle);
        this.stream = stream;
    }

    public Stream stream() {
        return stream;
    }

    @Override
    protected void release() {
        stream.close();
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
