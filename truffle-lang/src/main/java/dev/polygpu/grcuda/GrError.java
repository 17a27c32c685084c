package dev.polygpu.grcuda;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.exception.AbstractTruffleException;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.DeviceException;

/**
 * An error of the grcuda language as guest programs see it: its message says what was wrong, where, and
 * what to do. Errors that have a standard interop meaning (wrong argument count or type, index out of range)
 * are thrown as interop exceptions instead, so Python sees TypeError/IndexError and JavaScript TypeError/
 * RangeError; this class carries the rest (device errors, compile errors, misuse).
 */
public final class GrError extends AbstractTruffleException {
    private static final long serialVersionUID = 1L;

    private GrError(String message, Throwable cause, Node location) {
        super(message, cause, UNLIMITED_STACK_TRACE, location);
    }

    @TruffleBoundary
    public static GrError of(String message) {
        return new GrError(message, null, null);
    }

    @TruffleBoundary
    public static GrError of(String message, Node location) {
        return new GrError(message, null, location);
    }

    /** A failure of a host-side service (its message already wrapped in {@code message}), kept as the cause. */
    @TruffleBoundary
    public static GrError of(String message, Throwable cause) {
        return new GrError(message, cause, null);
    }

    /** A device failure (CUDA-like code included) as a guest error. */
    @TruffleBoundary
    public static GrError of(DeviceException e) {
        return new GrError(e.getMessage(), e, null);
    }
}
