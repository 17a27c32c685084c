package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaProfilerStop()}: a no-op, the counterpart of {@code cudaProfilerStart()}. */
final class GrCudaProfilerStopBuiltin extends GrDeviceBuiltin {
    GrCudaProfilerStopBuiltin(GrContext context) {
        super("cudaProfilerStop", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 0, 0);
        return GrNone.INSTANCE;
    }
}
