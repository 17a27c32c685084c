package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.builtins.Args;
import dev.polygpu.grcuda.objects.GrDeviceMemory;

/**
 * Takes the grcuda objects that functions receive as arguments (device arrays, streams, events) out of
 * interop values, with a message naming the argument when it is something else. A Java object passed by a
 * host program is unwrapped, so embedders may pass their own {@link GrDeviceMemory}.
 */
public final class Handles {
    private Handles() {
    }

    /** The object itself, or the Java object behind a host value. */
    @TruffleBoundary
    public static Object unwrap(GrContext context, Object value) {
        if (context != null && context.env().isHostObject(value)) {
            return context.env().asHostObject(value);
        }
        return value;
    }

    /** A device array, or null if {@code value} is none. */
    @TruffleBoundary
    public static GrDeviceMemory memoryOrNull(GrContext context, Object value) {
        return unwrap(context, value) instanceof GrDeviceMemory m ? m : null;
    }

    @TruffleBoundary
    public static GrDeviceMemory memory(GrContext context, Object[] args, int i, String function, String what)
            throws UnsupportedTypeException {
        GrDeviceMemory m = memoryOrNull(context, args[i]);
        if (m == null) {
            throw UnsupportedTypeException.create(args, function + ": argument " + (i + 1) + " (" + what
                    + ") must be a device array, got " + Args.display(args[i]));
        }
        return m;
    }

    @TruffleBoundary
    public static GrStream stream(GrContext context, Object[] args, int i, String function)
            throws UnsupportedTypeException {
        if (unwrap(context, args[i]) instanceof GrStream s) {
            return s;
        }
        throw UnsupportedTypeException.create(args, function + ": argument " + (i + 1)
                + " must be a stream from cudaStreamCreate(), got " + Args.display(args[i]));
    }

    @TruffleBoundary
    public static GrEvent event(GrContext context, Object[] args, int i, String function)
            throws UnsupportedTypeException {
        if (unwrap(context, args[i]) instanceof GrEvent e) {
            return e;
        }
        throw UnsupportedTypeException.create(args, function + ": argument " + (i + 1)
                + " must be an event from cudaEventCreate(), got " + Args.display(args[i]));
    }
}
