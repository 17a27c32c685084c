package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;

/** {@code cudaGetDevice()}: the current device's id ({@code cudaSetDevice}; 0 unless set). */
final class GrCudaGetDeviceBuiltin extends GrDeviceBuiltin {
    GrCudaGetDeviceBuiltin(GrContext context) {
        super("cudaGetDevice", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 0, 0);
        return context.currentDevice();
    }
}
