package dev.polygpu.cluster.wire;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Builds frames byte by byte with {@link DataOutputStream} (big-endian), independently of the codec's writer,
 * so tests can pin the documented layout and forge frames that carry a valid MAC but a bad body.
 */
final class HandFrame {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    /** A clear frame with the right magic and version and the given type byte. */
    static HandFrame ofType(int type) {
        return new HandFrame().i32(WireCodec.MAGIC).i8(WireCodec.VERSION).i8(type).i8(WireCodec.CLEAR);
    }

    HandFrame i8(int v) {
        return write(() -> out.writeByte(v));
    }

    HandFrame i32(int v) {
        return write(() -> out.writeInt(v));
    }

    HandFrame i64(long v) {
        return write(() -> out.writeLong(v));
    }

    HandFrame raw(byte[] b) {
        return write(() -> out.write(b));
    }

    /** A length-prefixed standard UTF-8 string. */
    HandFrame str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return i32(b.length).raw(b);
    }

    /** The bytes so far, without a MAC. */
    byte[] unsigned() {
        return bytes.toByteArray();
    }

    /** The bytes so far followed by their MAC under {@code key}. */
    byte[] sign(SharedSecret key) {
        return withMac(bytes.toByteArray(), key);
    }

    /** {@code body} (header included) followed by its MAC under {@code key}. */
    static byte[] withMac(byte[] body, SharedSecret key) {
        byte[] frame = new byte[body.length + SharedSecret.MAC_BYTES];
        System.arraycopy(body, 0, frame, 0, body.length);
        System.arraycopy(key.mac(body, 0, body.length), 0, frame, body.length, SharedSecret.MAC_BYTES);
        return frame;
    }

    private interface Write {
        void run() throws IOException;
    }

    private HandFrame write(Write w) {
        try {
            w.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }
}
