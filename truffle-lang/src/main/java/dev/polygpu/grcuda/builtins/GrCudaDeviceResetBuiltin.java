package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaDeviceReset()}: a no-op that waits for outstanding work. GrCUDA's arrays and kernels outlive it, so it releases nothing; the device is released with the context. */
final class GrCudaDeviceResetBuiltin extends GrDeviceBuiltin {
    GrCudaDeviceResetBuiltin(GrContext context) {
        super("cudaDeviceReset", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 0, 0);
        synchronizeAll();
        return GrNone.INSTANCE;
    }
}
