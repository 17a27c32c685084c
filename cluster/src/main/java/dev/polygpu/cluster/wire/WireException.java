package dev.polygpu.cluster.wire;

import java.util.Objects;

/**
 * A frame was refused: it is not a polygpu frame, it was not made with our shared secret, or its contents break
 * the format. The {@link #reason()} says which kind of problem it was; the message says what was wrong and where
 * (the field and the byte offset in the frame). A refused frame is dropped whole; nothing of it is used.
 */
public final class WireException extends Exception {
    /** Why a frame was refused. */
    public enum Reason {
        /** The frame does not start with the polygpu magic number: not one of our frames. */
        BAD_MAGIC,
        /** A polygpu frame of a format version this member does not speak. */
        BAD_VERSION,
        /** The HMAC does not match: the frame was altered or made with another secret. */
        BAD_MAC,
        /** The frame ends before a field or element it announces. */
        TRUNCATED,
        /** The frame is larger than the receiver accepts. */
        TOO_LARGE,
        /**
         * The frame is authentic but breaks the format: a bad count, an unknown name or type, invalid UTF-8,
         * trailing bytes, or fields no message may have.
         */
        MALFORMED
    }

    private final Reason reason;

    /**
     * @param reason  the kind of problem
     * @param message what was wrong and where
     */
    public WireException(Reason reason, String message) {
        super(reason + ": " + message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** The kind of problem. */
    public Reason reason() {
        return reason;
    }
}
