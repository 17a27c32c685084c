package dev.polygpu.cluster.wire;

import java.nio.ByteBuffer;

/**
 * Standard UTF-8 (not Java's modified UTF-8) for the encoder: the exact encoded length first, then the bytes, by
 * the same rules, so the encoder can size a frame exactly before writing it. Strings with an unpaired surrogate
 * have no UTF-8 form and are refused rather than silently replaced.
 */
final class Utf8 {
    private Utf8() {
    }

    /**
     * The UTF-8 length of {@code s}.
     *
     * @throws IllegalArgumentException if {@code s} holds an unpaired surrogate, naming {@code field}
     */
    static long length(String s, String field) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(
                        field + " holds an unpaired surrogate at index " + i + " and cannot be written as UTF-8");
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** Writes {@code s} as UTF-8; {@code s} must have passed {@link #length}. */
    static void encode(String s, ByteBuffer out) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out.put((byte) c);
            } else if (c < 0x800) {
                out.put((byte) (0xC0 | (c >> 6)));
                out.put((byte) (0x80 | (c & 0x3F)));
            } else if (Character.isHighSurrogate(c)) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                out.put((byte) (0xF0 | (cp >> 18)));
                out.put((byte) (0x80 | ((cp >> 12) & 0x3F)));
                out.put((byte) (0x80 | ((cp >> 6) & 0x3F)));
                out.put((byte) (0x80 | (cp & 0x3F)));
            } else {
                out.put((byte) (0xE0 | (c >> 12)));
                out.put((byte) (0x80 | ((c >> 6) & 0x3F)));
                out.put((byte) (0x80 | (c & 0x3F)));
            }
        }
    }
}
