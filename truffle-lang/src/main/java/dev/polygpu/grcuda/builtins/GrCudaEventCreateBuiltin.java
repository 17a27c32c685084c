package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.GrEvent;

/**
 * {@code cudaEventCreate()}: a new event of the current device that records timestamps (for
 * {@code cudaEventElapsedTime}).
 */
final class GrCudaEventCreateBuiltin extends GrDeviceBuiltin {
    GrCudaEventCreateBuiltin(GrContext context) {
        super("cudaEventCreate", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 0, 0);
        return new GrEvent(context.currentDeviceObject().createEvent(true), context.nextHandle());
    }
}
