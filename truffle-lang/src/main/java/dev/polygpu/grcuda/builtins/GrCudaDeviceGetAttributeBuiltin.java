package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.DeviceAttribute;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.kernel.GrDevice;
import java.util.Map;

/**
 * {@code cudaDeviceGetAttribute(attribute, device)}: one attribute of {@code DeviceProperties.asMap()}, named
 * either by its CUDA {@code cudaDeviceAttr} code as GrCUDA scripts pass it ({@code 10} =
 * {@code cudaDevAttrWarpSize}, see {@link DeviceAttribute}) or by name ({@code "warpSize"},
 * {@code "maxThreadsPerBlock"}…); an unknown one is an error listing the names.
 */
final class GrCudaDeviceGetAttributeBuiltin extends GrDeviceBuiltin {
    GrCudaDeviceGetAttributeBuiltin(GrContext context) {
        super("cudaDeviceGetAttribute", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 2, 2);
        String attribute = InteropLibrary.getUncached().fitsInInt(args[0])
                ? byCode(Args.integer(args, 0, name(), "attribute code"))
                : Args.string(args, 0, name(), "attribute name or code");
        int id = GrDevice.check(context, Args.integer(args, 1, name(), "device id"), name());
        Map<String, Object> attributes = context.devices().get(id).properties().asMap();
        Object value = attributes.get(attribute);
        if (value == null) {
            throw GrError.of(name() + ": unknown attribute '" + attribute + "'; attributes are "
                    + String.join(", ", attributes.keySet()) + " (or pass CUDA's cudaDeviceAttr code)");
        }
        return value;
    }

    private String byCode(long code) {
        DeviceAttribute attribute = DeviceAttribute.ofCode(code);
        if (attribute == null) {
            throw GrError.of(name() + ": attribute code " + code + " is not a cudaDeviceAttr code of a device"
                    + " attribute polygpu reports (codes 1 to 101 and 106, as CUDA's driver_types.h numbers them);"
                    + " pass the attribute's name or one of those codes");
        }
        return attribute.attributeName();
    }
}
