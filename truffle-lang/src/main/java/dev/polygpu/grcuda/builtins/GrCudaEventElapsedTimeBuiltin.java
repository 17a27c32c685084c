package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.Handles;

/** {@code cudaEventElapsedTime(start, end)}: milliseconds between two completed events, as a float. */
final class GrCudaEventElapsedTimeBuiltin extends GrDeviceBuiltin {
    GrCudaEventElapsedTimeBuiltin(GrContext context) {
        super("cudaEventElapsedTime", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 2, 2);
        var start = Handles.event(context, args, 0, name()).event();
        var end = Handles.event(context, args, 1, name()).event();
        return end.elapsedMillisSince(start);
    }
}
