package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.GrDevice;
import dev.polygpu.grcuda.kernel.GrDeviceList;

/** {@code getdevices()}: the devices of the context as an array of device objects. */
final class GrGetDevicesBuiltin extends GrDeviceBuiltin {
    GrGetDevicesBuiltin(GrContext context) {
        super("getdevices", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException {
        Args.arity(args, 0, 0);
        GrDevice[] devices = new GrDevice[GrDevice.count(context)];
        for (int i = 0; i < devices.length; i++) {
            devices[i] = new GrDevice(context, i);
        }
        return new GrDeviceList(devices);
    }
}
