package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.GrDevice;
import dev.polygpu.grcuda.objects.GrNone;

/**
 * {@code cudaSetDevice(i)}: makes device {@code i} current (where the {@code single-gpu} policy runs kernels and
 * where streams and events are created); an id that is not a device is an error naming the valid ones.
 */
final class GrCudaSetDeviceBuiltin extends GrDeviceBuiltin {
    GrCudaSetDeviceBuiltin(GrContext context) {
        super("cudaSetDevice", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        context.setCurrentDevice(GrDevice.check(context, Args.integer(args, 0, name(), "device id"), name()));
        return GrNone.INSTANCE;
    }
}
