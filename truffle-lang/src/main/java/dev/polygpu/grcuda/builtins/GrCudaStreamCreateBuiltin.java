package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.GrStream;

/**
 * {@code cudaStreamCreate()}: a new stream of the current device, usable as the 4th launch setting
 * {@code k(grid, block, 0, s)}.
 */
final class GrCudaStreamCreateBuiltin extends GrDeviceBuiltin {
    GrCudaStreamCreateBuiltin(GrContext context) {
        super("cudaStreamCreate", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 0, 0);
        // A stream belongs to the current device (cudaSetDevice), and the work queued on it runs there.
        return new GrStream(context.currentDeviceObject().createStream(), context.nextHandle());
    }
}
