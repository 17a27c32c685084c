package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.kernel.GrDevice;
import java.util.Map;

/**
 * {@code cudaDeviceGetAttribute(attribute, device)}: one attribute of {@code DeviceProperties.asMap()} by
 * name ({@code "warpSize"}, {@code "maxThreadsPerBlock"}…); an unknown name is an error listing the names.
 */
final class GrCudaDeviceGetAttributeBuiltin extends GrDeviceBuiltin {
    GrCudaDeviceGetAttributeBuiltin(GrContext context) {
        super("cudaDeviceGetAttribute", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 2, 2);
        String attribute = Args.string(args, 0, name(), "attribute name");
        GrDevice.check(context, Args.integer(args, 1, name(), "device id"), name());
        Map<String, Object> attributes = device().properties().asMap();
        Object value = attributes.get(attribute);
        if (value == null) {
            throw GrError.of(name() + ": unknown attribute '" + attribute + "'; attributes are "
                    + String.join(", ", attributes.keySet()));
        }
        return value;
    }
}
