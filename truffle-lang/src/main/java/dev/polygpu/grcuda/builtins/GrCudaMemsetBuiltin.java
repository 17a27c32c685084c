package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.kernel.ArgumentConverter;
import dev.polygpu.grcuda.kernel.Handles;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.grcuda.objects.GrNone;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Work;

/**
 * {@code cudaMemset(ptr, value, bytes)} and {@code cudaMemsetAsync(ptr, value, bytes[, stream])}: set
 * {@code bytes} bytes from {@code ptr} (a device array, raw memory, or an address inside either) to the byte
 * {@code value}, as a fill element of the schedule ordered after the work on that memory. The synchronous form
 * returns once the bytes are set.
 */
final class GrCudaMemsetBuiltin extends GrDeviceBuiltin {
    private final boolean async;

    private GrCudaMemsetBuiltin(String name, GrContext context, boolean async) {
        super(name, context);
        this.async = async;
    }

    static GrCudaMemsetBuiltin memset(GrContext context) {
        return new GrCudaMemsetBuiltin("cudaMemset", context, false);
    }

    static GrCudaMemsetBuiltin memsetAsync(GrContext context) {
        return new GrCudaMemsetBuiltin("cudaMemsetAsync", context, true);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 3, async ? 4 : 3);
        GrDeviceMemory m = Handles.memory(context, args, 0, name(), "memory");
        long value = Args.integer(args, 1, name(), "value");
        long bytes = Args.integer(args, 2, name(), "byte count");
        Stream stream = args.length > 3 ? Handles.streamOrDefault(context, args, 3, name()) : null;
        if (value < Byte.MIN_VALUE || value > 0xFF) {
            throw GrError.of(name() + ": argument 2 (value) is the value of each byte, from -128 to 255, got " + value);
        }
        if (!m.isContiguous()) {
            throw GrError.of(name() + ": argument 1 is " + ArgumentConverter.notContiguous("the fill"));
        }
        if (bytes < 0) {
            throw GrError.of(name() + ": argument 3 (byte count) must not be negative, got " + bytes);
        }
        if (bytes > m.byteCount()) {
            throw GrError.of(name() + ": cannot set " + bytes + " bytes; " + m.describe() + " has " + m.byteCount()
                    + " bytes from there on");
        }
        if (bytes == 0) {
            return GrNone.INSTANCE;
        }
        Work.Fill work = new Work.Fill(m.buffer(), m.byteOffset(), bytes, (byte) value);
        scheduler().submit(ComputationalElement.fill(name(), m.tracked(), work, stream));
        if (!async) {
            awaitWriters(m.tracked());
        }
        return GrNone.INSTANCE;
    }
}
