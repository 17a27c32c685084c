package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrBuiltin;

/**
 * {@code polygpu_device_info()}: a polygpu extension (not GrCUDA API) returning one line that says which
 * device runs kernels and why; the launcher prints it at start-up. Choosing the device happens here if it
 * has not happened yet.
 */
final class DeviceInfoBuiltin extends GrBuiltin {
    private final GrContext context;

    DeviceInfoBuiltin(GrContext context) {
        super("polygpu_device_info");
        this.context = context;
    }

    @Override
    protected Object call(Object[] args) throws ArityException {
        Args.arity(args, 0, 0);
        return context.deviceReason();
    }
}
