package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.kernel.GrDevice;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code cudaDeviceGetAttribute(attribute, device)}: one attribute of {@code DeviceProperties.asMap()}, named
 * either by its CUDA {@code cudaDeviceAttr} code as GrCUDA scripts pass it ({@code 10} =
 * {@code cudaDevAttrWarpSize}) or by name ({@code "warpSize"}, {@code "maxThreadsPerBlock"}…); an unknown one
 * is an error listing the names and codes.
 */
final class GrCudaDeviceGetAttributeBuiltin extends GrDeviceBuiltin {
    /** CUDA's {@code cudaDeviceAttr} codes of the attributes the device reports, in code order. */
    private static final Map<Integer, String> CODES = Map.ofEntries(
            Map.entry(1, "maxThreadsPerBlock"), Map.entry(2, "maxBlockDimX"), Map.entry(3, "maxBlockDimY"),
            Map.entry(4, "maxBlockDimZ"), Map.entry(5, "maxGridDimX"), Map.entry(6, "maxGridDimY"),
            Map.entry(7, "maxGridDimZ"), Map.entry(8, "maxSharedMemoryPerBlock"), Map.entry(10, "warpSize"),
            Map.entry(13, "clockRate"), Map.entry(16, "multiProcessorCount"), Map.entry(31, "concurrentKernels"),
            Map.entry(75, "computeCapabilityMajor"), Map.entry(76, "computeCapabilityMinor"),
            Map.entry(83, "managedMemory"));

    GrCudaDeviceGetAttributeBuiltin(GrContext context) {
        super("cudaDeviceGetAttribute", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 2, 2);
        String attribute = InteropLibrary.getUncached().fitsInInt(args[0])
                ? byCode(Args.integer(args, 0, name(), "attribute code"))
                : Args.string(args, 0, name(), "attribute name or code");
        GrDevice.check(context, Args.integer(args, 1, name(), "device id"), name());
        Map<String, Object> attributes = device().properties().asMap();
        Object value = attributes.get(attribute);
        if (value == null) {
            throw GrError.of(name() + ": unknown attribute '" + attribute + "'; attributes are "
                    + String.join(", ", attributes.keySet()) + "; codes are " + codes());
        }
        return value;
    }

    private String byCode(long code) {
        String attribute = CODES.get((int) code);
        if (attribute == null) {
            throw GrError.of(name() + ": attribute code " + code + " is not one the device reports; codes are "
                    + codes() + " (or pass the attribute's name)");
        }
        return attribute;
    }

    @TruffleBoundary
    private static String codes() {
        return new TreeMap<>(CODES).entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")")
                .collect(Collectors.joining(", "));
    }
}
