package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.GrDevice;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaSetDevice(i)}: makes device {@code i} current; only device 0 exists, other ids are errors. */
final class GrCudaSetDeviceBuiltin extends GrDeviceBuiltin {
    GrCudaSetDeviceBuiltin(GrContext context) {
        super("cudaSetDevice", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        GrDevice.check(context, Args.integer(args, 0, name(), "device id"), name());
        return GrNone.INSTANCE;
    }
}
