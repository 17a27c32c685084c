package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.GrDevice;

/** {@code getdevice(i)}: device {@code i}, or an error naming the valid ids. */
final class GrGetDeviceBuiltin extends GrDeviceBuiltin {
    GrGetDeviceBuiltin(GrContext context) {
        super("getdevice", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        return new GrDevice(context, GrDevice.check(context, Args.integer(args, 0, name(), "device id"), name()));
    }
}
