package dev.polygpu.grcuda;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.exception.AbstractTruffleException;
import com.oracle.truffle.api.nodes.EncapsulatingNodeReference;
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
        super(message, cause, UNLIMITED_STACK_TRACE, locate(location));
    }

    /**
     * {@code location}, or when there is none (an error raised in a slow path, such as an interop message run
     * behind a boundary) the node of the guest call that led here, so that the guest's stack trace keeps the
     * frame that made the call (its function name and line) rather than starting at its caller.
     */
    private static Node locate(Node location) {
        if (location != null && location.isAdoptable()) {
            return location;
        }
        Node encapsulating = EncapsulatingNodeReference.getCurrent().get();
        return encapsulating != null ? encapsulating : location;
    }

    /**
     * Marks {@code node}, the node of the guest call being run (an interop message's {@code @Bind Node}), as the
     * location of the errors raised until {@link #leaveCall} with the result: the guest's stack trace then shows
     * the frame that made the call, with its line. Returns what {@code leaveCall} restores. An uncached call's
     * node is not adoptable and changes nothing: whoever made it uncached has set the location already.
     */
    @TruffleBoundary
    public static Node enterCall(Node node) {
        EncapsulatingNodeReference current = EncapsulatingNodeReference.getCurrent();
        return node != null && node.isAdoptable() ? current.set(node) : current.get();
    }

    /** Ends what {@link #enterCall} began. */
    @TruffleBoundary
    public static void leaveCall(Node previous) {
        EncapsulatingNodeReference.getCurrent().set(previous);
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
