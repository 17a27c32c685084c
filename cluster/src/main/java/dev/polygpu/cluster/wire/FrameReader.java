package dev.polygpu.cluster.wire;

import dev.polygpu.cluster.wire.WireException.Reason;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Strict big-endian reads from an authenticated frame body, bounded by where the MAC starts. Every read checks
 * that its bytes are there; every count and length is checked against the bytes that remain before anything is
 * allocated for it, so a forged count cannot make the receiver allocate more than the frame's own size. Errors
 * name the field and the byte offset in the frame. Not thread-safe (one per decode).
 */
final class FrameReader {
    private final byte[] frame;
    private final int end;
    private int pos;

    /** Reads {@code frame[start, end)}. */
    FrameReader(byte[] frame, int start, int end) {
        this.frame = frame;
        this.pos = start;
        this.end = end;
    }

    int offset() {
        return pos;
    }

    int remaining() {
        return end - pos;
    }

    byte i8(String field) throws WireException {
        need(1, field);
        return frame[pos++];
    }

    boolean bool(String field) throws WireException {
        int at = pos;
        byte b = i8(field);
        if (b != 0 && b != 1) {
            throw malformed(field + " must be 0 or 1, not " + b, at);
        }
        return b == 1;
    }

    int i32(String field) throws WireException {
        need(4, field);
        int v = ((frame[pos] & 0xFF) << 24) | ((frame[pos + 1] & 0xFF) << 16) | ((frame[pos + 2] & 0xFF) << 8)
                | (frame[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }

    long i64(String field) throws WireException {
        long hi = i32(field) & 0xFFFF_FFFFL;
        long lo = i32(field) & 0xFFFF_FFFFL;
        return (hi << 32) | lo;
    }

    /**
     * A list count, checked against the remaining bytes: each element takes at least {@code minElementBytes}.
     */
    int count(String field, int minElementBytes) throws WireException {
        int at = pos;
        int n = i32(field);
        if (n < 0) {
            throw malformed(field + " is negative (" + n + ")", at);
        }
        if ((long) n * minElementBytes > remaining()) {
            throw new WireException(Reason.TRUNCATED, field + " announces " + n + " elements of at least "
                    + minElementBytes + " bytes at offset " + at + " but only " + remaining() + " bytes remain");
        }
        return n;
    }

    /** A length-prefixed byte range (copied out of the frame). */
    byte[] bytes(String field) throws WireException {
        int n = length(field);
        byte[] b = Arrays.copyOfRange(frame, pos, pos + n);
        pos += n;
        return b;
    }

    /** A length-prefixed UTF-8 string of at most {@code maxBytes} bytes; never null. */
    String string(String field, int maxBytes) throws WireException {
        int at = pos;
        String s = nullableString(field, maxBytes);
        if (s == null) {
            throw malformed(field + " must not be null", at);
        }
        return s;
    }

    /** A length-prefixed UTF-8 string of at most {@code maxBytes} bytes, or null for length -1. */
    String nullableString(String field, int maxBytes) throws WireException {
        int at = pos;
        int n = i32(field);
        if (n == -1) {
            return null;
        }
        if (n < 0 || n > maxBytes) {
            throw malformed(field + " has length " + n + "; allowed 0.." + maxBytes, at);
        }
        needAfterPrefix(n, field, at);
        String s = decodeUtf8(pos, n, field);
        pos += n;
        return s;
    }

    /** The next {@code n} bytes as strict UTF-8 (no length prefix). */
    String utf8(String field, int n) throws WireException {
        need(n, field);
        String s = decodeUtf8(pos, n, field);
        pos += n;
        return s;
    }

    /** An enum constant written by its name; an unknown name is refused. */
    <E extends Enum<E>> E name(Class<E> type, String field) throws WireException {
        int at = pos;
        String name = string(field, WireCodec.MAX_NAME_BYTES);
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw malformed(field + " names no " + type.getSimpleName() + " constant: '" + name + "' (known: "
                    + Arrays.toString(type.getEnumConstants()) + ")", at);
        }
    }

    /** Refuses bytes left over after the body. */
    void expectEnd(String what) throws WireException {
        if (pos != end) {
            throw malformed(remaining() + " trailing bytes after the " + what + " body", pos);
        }
    }

    WireException malformed(String what, int at) {
        return new WireException(Reason.MALFORMED, what + " (at offset " + at + ")");
    }

    private int length(String field) throws WireException {
        int at = pos;
        int n = i32(field);
        if (n < 0) {
            throw malformed(field + " has negative length " + n, at);
        }
        needAfterPrefix(n, field, at);
        return n;
    }

    private void need(int n, String field) throws WireException {
        if (n > remaining()) {
            throw new WireException(Reason.TRUNCATED, field + " needs " + n + " bytes at offset " + pos + " but only "
                    + remaining() + " remain");
        }
    }

    private void needAfterPrefix(int n, String field, int prefixAt) throws WireException {
        if (n > remaining()) {
            throw new WireException(Reason.TRUNCATED, field + " announces " + n + " bytes at offset " + prefixAt
                    + " but only " + remaining() + " remain");
        }
    }

    private String decodeUtf8(int off, int n, String field) throws WireException {
        boolean ascii = true;
        for (int i = off; i < off + n && ascii; i++) {
            ascii = frame[i] >= 0;
        }
        if (ascii) {
            return new String(frame, off, n, StandardCharsets.US_ASCII);
        }
        try {
            // A strict decoder: malformed, overlong and surrogate encodings are refused, not replaced.
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(frame, off, n));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw malformed(field + " is not valid UTF-8", off);
        }
    }
}
