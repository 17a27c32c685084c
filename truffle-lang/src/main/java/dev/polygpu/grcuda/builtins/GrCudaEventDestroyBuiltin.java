package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaEventDestroy(e)}: releases the event. */
final class GrCudaEventDestroyBuiltin extends GrDeviceBuiltin {
    GrCudaEventDestroyBuiltin(GrContext context) {
        super("cudaEventDestroy", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        Handles.event(context, args, 0, name()).destroy(name());
        return GrNone.INSTANCE;
    }
}
