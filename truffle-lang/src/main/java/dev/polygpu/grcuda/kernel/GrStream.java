package dev.polygpu.grcuda.kernel;

import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrPlainObject;

/** A CUDA stream as guest code holds it: the result of {@code cudaStreamCreate()}, the 4th launch setting. */
public final class GrStream extends GrPlainObject {
    private final Stream stream;

    public GrStream(Stream stream) {
        this.stream = stream;
    }

    public Stream stream() {
        return stream;
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
