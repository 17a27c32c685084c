package dev.polygpu.device.fatbin;

/**
 * A compressed payload that cannot be decoded: the message says what is wrong and where (a byte offset into the
 * payload). {@link Fatbinary} turns it into INVALID_IMAGE naming the file and the entry.
 */
final class CorruptPayload extends Exception {
    CorruptPayload(String message) {
        super(message, null, false, false);
    }
}
