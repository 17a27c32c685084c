package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaEventRecord(e[, s])}: records {@code e} at the end of stream {@code s} (the default stream without one). */
final class GrCudaEventRecordBuiltin extends GrDeviceBuiltin {
    GrCudaEventRecordBuiltin(GrContext context) {
        super("cudaEventRecord", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 2);
        var event = Handles.event(context, args, 0, name()).event();
        var stream = args.length > 1 ? Handles.stream(context, args, 1, name()).stream() : device().defaultStream();
        // After the kernels launched so far on that stream; on the default stream, after all of them (as CUDA's
        // default stream waits for the others), so events around scheduled kernels time them.
        scheduler().fence(stream, args.length == 1);
        stream.record(event);
        return GrNone.INSTANCE;
    }
}
