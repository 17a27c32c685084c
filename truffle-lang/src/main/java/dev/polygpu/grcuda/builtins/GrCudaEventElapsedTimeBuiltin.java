package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.kernel.Handles;

/**
 * {@code cudaEventElapsedTime(start, end)}: milliseconds between two completed events, as a float. As in CUDA,
 * an event whose work is still running is an error ({@code CUDA_ERROR_NOT_READY}), not a wait; its message says
 * how to wait, since {@code CU} has no {@code cudaEventSynchronize} (GrCUDA has none either).
 */
final class GrCudaEventElapsedTimeBuiltin extends GrDeviceBuiltin {
    GrCudaEventElapsedTimeBuiltin(GrContext context) {
        super("cudaEventElapsedTime", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 2, 2);
        var start = Handles.event(context, args, 0, name()).event();
        var end = Handles.event(context, args, 1, name()).event();
        try {
            return end.elapsedMillisSince(start);
        } catch (DeviceException e) {
            if (e.error() != CudaError.NOT_READY) {
                throw e;
            }
            throw new DeviceException(CudaError.NOT_READY, name() + ": the work recorded before an event is still"
                    + " running (" + e.detail() + "); wait for it first with cudaDeviceSynchronize(), or"
                    + " cudaStreamSynchronize(s) for events recorded on stream s", e);
        }
    }
}
