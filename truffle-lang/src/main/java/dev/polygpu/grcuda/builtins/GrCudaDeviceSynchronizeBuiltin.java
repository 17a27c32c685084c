package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaDeviceSynchronize()}: waits for all work on the device; reports the first failure not yet reported. */
final class GrCudaDeviceSynchronizeBuiltin extends GrDeviceBuiltin {
    GrCudaDeviceSynchronizeBuiltin(GrContext context) {
        super("cudaDeviceSynchronize", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 0, 0);
        synchronizeAll();
        return GrNone.INSTANCE;
    }
}
