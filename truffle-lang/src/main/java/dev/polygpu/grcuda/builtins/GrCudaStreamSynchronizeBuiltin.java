package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaStreamSynchronize(s)}: waits for the work queued on {@code s}; reports its first failure. */
final class GrCudaStreamSynchronizeBuiltin extends GrDeviceBuiltin {
    GrCudaStreamSynchronizeBuiltin(GrContext context) {
        super("cudaStreamSynchronize", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        synchronize(Handles.stream(context, args, 0, name()).stream());
        return GrNone.INSTANCE;
    }
}
