package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.array.ByteCopy;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.grcuda.objects.GrNone;

/**
 * {@code cudaMemcpy(dst, src, bytes[, kind])} and {@code cudaMemcpyAsync(dst, src, bytes[, kind][, stream])}:
 * copy bytes between device arrays, raw memory ({@code cudaMalloc}) or addresses inside either. Both are
 * copy elements of the schedule, ordered after the work on both memories. {@code cudaMemcpy} returns once the
 * copy is done, as the CUDA call does; {@code cudaMemcpyAsync} returns at once, on the user's stream if one is
 * given, else on one the scheduler chooses. A {@code kind} (CUDA's {@code cudaMemcpyKind}, 0 to 4) is checked
 * and otherwise ignored: all memory is unified, so every copy is {@code cudaMemcpyDefault}.
 */
final class GrCudaMemcpyBuiltin extends GrDeviceBuiltin {
    /** cudaMemcpyHostToHost (0) to cudaMemcpyDefault (4). */
    private static final int MAX_KIND = 4;

    private final boolean async;

    private GrCudaMemcpyBuiltin(String name, GrContext context, boolean async) {
        super(name, context);
        this.async = async;
    }

    static GrCudaMemcpyBuiltin memcpy(GrContext context) {
        return new GrCudaMemcpyBuiltin("cudaMemcpy", context, false);
    }

    static GrCudaMemcpyBuiltin memcpyAsync(GrContext context) {
        return new GrCudaMemcpyBuiltin("cudaMemcpyAsync", context, true);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 3, async ? 5 : 4);
        GrDeviceMemory dst = Handles.memory(context, args, 0, name(), "destination");
        GrDeviceMemory src = Handles.memory(context, args, 1, name(), "source");
        long bytes = Args.integer(args, 2, name(), "byte count");
        int n = args.length;
        Stream stream = null;
        if (async && (n == 5 || n == 4 && !InteropLibrary.getUncached().isNumber(args[3]))) {
            stream = Handles.streamOrDefault(context, args, --n, name());
        }
        if (n == 4) {
            long kind = Args.integer(args, 3, name(), "kind");
            if (kind < 0 || kind > MAX_KIND) {
                throw GrError.of(name() + ": argument 4 (kind) must be a cudaMemcpyKind from 0 (host to host) to 4"
                        + " (default), got " + kind);
            }
        }
        ByteCopy.submit(scheduler(), name(), dst, src, bytes, stream);
        if (!async && bytes > 0) {
            awaitWriters(dst.tracked());
        }
        return GrNone.INSTANCE;
    }
}
