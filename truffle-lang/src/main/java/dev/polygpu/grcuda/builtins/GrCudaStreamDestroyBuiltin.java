package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.GrStream;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrNone;

/** {@code cudaStreamDestroy(s)}: waits for the work queued on {@code s}, then releases it. */
final class GrCudaStreamDestroyBuiltin extends GrDeviceBuiltin {
    GrCudaStreamDestroyBuiltin(GrContext context) {
        super("cudaStreamDestroy", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        GrStream s = Handles.stream(context, args, 0, name());
        s.ensureLive(name());
        scheduler().synchronize(s.stream());
        s.destroy(name());
        return GrNone.INSTANCE;
    }
}
