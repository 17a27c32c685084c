package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaStreamWaitEvent(s, e)}: later work on {@code s} waits for {@code e}; the host does not block. */
final class GrCudaStreamWaitEventBuiltin extends GrDeviceBuiltin {
    GrCudaStreamWaitEventBuiltin(GrContext context) {
        super("cudaStreamWaitEvent", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 2, 2);
        var stream = Handles.stream(context, args, 0, name()).stream();
        scheduler().fence(stream, false);
        stream.waitFor(Handles.event(context, args, 1, name()).event());
        return GrNone.INSTANCE;
    }
}
