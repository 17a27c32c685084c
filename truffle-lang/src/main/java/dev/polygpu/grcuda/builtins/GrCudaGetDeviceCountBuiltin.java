package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.GrDevice;

/** {@code cudaGetDeviceCount()}: the number of devices the context can use. */
final class GrCudaGetDeviceCountBuiltin extends GrDeviceBuiltin {
    GrCudaGetDeviceCountBuiltin(GrContext context) {
        super("cudaGetDeviceCount", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 0, 0);
        return GrDevice.count(context);
    }
}
