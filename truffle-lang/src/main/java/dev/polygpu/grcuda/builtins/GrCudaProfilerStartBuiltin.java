package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaProfilerStart()}: a no-op; no profiler is attached to polygpu's devices (tracing plugs into the scheduler from outside). */
final class GrCudaProfilerStartBuiltin extends GrDeviceBuiltin {
    GrCudaProfilerStartBuiltin(GrContext context) {
        super("cudaProfilerStart", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 0, 0);
        return GrNone.INSTANCE;
    }
}
