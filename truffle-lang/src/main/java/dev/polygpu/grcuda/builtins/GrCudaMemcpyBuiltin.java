package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Work;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.kernel.ArgumentConverter;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.grcuda.objects.GrNone;

/**
 * {@code cudaMemcpy(dst, src, bytes)}: copies the first {@code bytes} bytes of device array {@code src} to
 * device array {@code dst} on the default stream and waits for the copy, as the synchronous CUDA call does.
 */
final class GrCudaMemcpyBuiltin extends GrDeviceBuiltin {
    GrCudaMemcpyBuiltin(GrContext context) {
        super("cudaMemcpy", context);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 3, 3);
        GrDeviceMemory dst = Handles.memory(context, args, 0, name(), "destination");
        GrDeviceMemory src = Handles.memory(context, args, 1, name(), "source");
        long bytes = Args.integer(args, 2, name(), "byte count");
        check(bytes, dst, "destination");
        check(bytes, src, "source");
        // A copy element ordered after the work on both arrays; cudaMemcpy returns once it is done.
        Work.Copy work = new Work.Copy(dst.buffer(), dst.byteOffset(), src.buffer(), src.byteOffset(), bytes);
        scheduler().submit(ComputationalElement.copy(name(), dst.tracked(), src.tracked(), work, null));
        scheduler().awaitHost(dst.tracked(), AccessMode.READ, name());
        return GrNone.INSTANCE;
    }

    private void check(long bytes, GrDeviceMemory m, String what) {
        if (m.isFreed()) {
            throw GrError.of(name() + ": the " + what + " array was freed");
        }
        if (!m.isContiguous()) {
            throw GrError.of(name() + ": the " + what + " is " + ArgumentConverter.notContiguous("the copy"));
        }
        long size = m.elementCount() * m.elementType().size;
        if (bytes < 0 || bytes > size) {
            throw GrError.of(name() + ": cannot copy " + bytes + " bytes; the " + what + " array has " + size);
        }
    }
}
