package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;

/**
 * {@code cudaGetErrorString(code)} and {@code cudaGetErrorName(code)} of a CUDA runtime error code
 * ({@code cudaError_t}), as the CUDA runtime answers them: for 35 the description {@code CUDA driver version is
 * insufficient for CUDA runtime version} and the name {@code cudaErrorInsufficientDriver}; for a code it does
 * not know, {@code unrecognized error code}.
 */
final class GrCudaGetErrorStringBuiltin extends GrDeviceBuiltin {
    private final boolean giveName;

    private GrCudaGetErrorStringBuiltin(GrContext context, String function, boolean giveName) {
        super(function, context);
        this.giveName = giveName;
    }

    static GrCudaGetErrorStringBuiltin string(GrContext context) {
        return new GrCudaGetErrorStringBuiltin(context, "cudaGetErrorString", false);
    }

    static GrCudaGetErrorStringBuiltin name(GrContext context) {
        return new GrCudaGetErrorStringBuiltin(context, "cudaGetErrorName", true);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        long code = Args.integer(args, 0, name(), "error code");
        return giveName ? CudaRuntimeErrors.name(code) : CudaRuntimeErrors.description(code);
    }
}
