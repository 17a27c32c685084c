package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.device.CudaError;

/** {@code cudaGetErrorString(code)}: the symbolic name of a device error code ({@code 700} → {@code CUDA_ERROR_ILLEGAL_ADDRESS}). */
final class GrCudaGetErrorStringBuiltin extends GrDeviceBuiltin {
    GrCudaGetErrorStringBuiltin(GrContext context) {
        super("cudaGetErrorString", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        long code = Args.integer(args, 0, name(), "error code");
        if (code == 0) {
            return "CUDA_SUCCESS";
        }
        return code < Integer.MIN_VALUE || code > Integer.MAX_VALUE ? CudaError.UNKNOWN.symbol
                : CudaError.ofCode((int) code).symbol;
    }
}
