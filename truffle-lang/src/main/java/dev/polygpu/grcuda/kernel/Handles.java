package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.array.Allocations;
import dev.polygpu.grcuda.builtins.Args;
import dev.polygpu.grcuda.objects.GrDeviceMemory;

/**
 * Takes the grcuda objects that functions receive as arguments (device arrays, raw memory and addresses inside
 * them, streams, events) out of interop values, with a message naming the argument when it is something else. A Java object passed by a
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

    /** Device memory (a device array, a GPUPointer, an embedder's own), or null if {@code value} is none. */
    @TruffleBoundary
    public static GrDeviceMemory memoryOrNull(GrContext context, Object value) {
        return unwrap(context, value) instanceof GrDeviceMemory m ? m : null;
    }

    /**
     * The memory an address names (an integer, such as an array's {@code pointer} plus an offset, or any interop
     * pointer): from that byte to the end of the live allocation of the context that holds it. Null if
     * {@code value} is no address; a guest error naming it as {@code role} if no live allocation holds it.
     */
    @TruffleBoundary
    public static GrDeviceMemory atAddress(GrContext context, Object value, String role) {
        Long address = address(value, role);
        if (address == null) {
            return null;
        }
        GrDeviceMemory m = context.allocations().resolve(address);
        if (m == null) {
            throw GrError.of(role + " is the address " + Allocations.hex(address) + ", which is not inside any live"
                    + " allocation of this context (a device array or cudaMalloc memory not freed yet); pass the"
                    + " array or GPUPointer itself, or an address inside one");
        }
        return m;
    }

    /**
     * The address {@code value} gives (an integer or an interop pointer), or null if it is neither; a guest error
     * naming it as {@code role} for a number that is not a whole 64-bit integer.
     */
    @TruffleBoundary
    public static Long address(Object value, String role) {
        Long address = address(value);
        if (address == null && InteropLibrary.getUncached().isNumber(value)) {
            throw GrError.of(role + " is the number " + Args.display(value) + ", which is not an address: an"
                    + " address is an array's pointer plus a whole number of bytes");
        }
        return address;
    }

    private static Long address(Object value) {
        InteropLibrary interop = InteropLibrary.getUncached();
        try {
            if (interop.isNumber(value) && interop.fitsInLong(value)) {
                return interop.asLong(value);
            }
            if (interop.isPointer(value)) {
                return interop.asPointer(value);
            }
        } catch (UnsupportedMessageException e) {
            throw new IllegalStateException(e);
        }
        return null;
    }

    /** Argument {@code i} as device memory: a device array, a GPUPointer, or an address inside one. */
    @TruffleBoundary
    public static GrDeviceMemory memory(GrContext context, Object[] args, int i, String function, String what)
            throws UnsupportedTypeException {
        GrDeviceMemory m = memoryOrNull(context, args[i]);
        if (m == null) {
            m = atAddress(context, args[i], function + ": argument " + (i + 1) + " (" + what + ")");
        }
        if (m == null) {
            throw UnsupportedTypeException.create(args, function + ": argument " + (i + 1) + " (" + what
                    + ") must be a device array, a GPUPointer from cudaMalloc or an address inside one, got "
                    + Args.display(args[i]));
        }
        if (m.isFreed()) {
            throw GrError.of(function + ": argument " + (i + 1) + " (" + what + ") is " + m.describe()
                    + ", which was freed");
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

    /**
     * Argument {@code i} as a stream, or null for CUDA's default stream ({@code 0} or none), on which the
     * scheduler places the work by its dependencies.
     */
    @TruffleBoundary
    public static Stream streamOrDefault(GrContext context, Object[] args, int i, String function)
            throws UnsupportedTypeException {
        InteropLibrary interop = InteropLibrary.getUncached();
        try {
            if (interop.isNull(args[i]) || interop.fitsInLong(args[i]) && interop.asLong(args[i]) == 0) {
                return null;
            }
        } catch (UnsupportedMessageException e) {
            throw new IllegalStateException(e);
        }
        return stream(context, args, i, function).stream();
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
