package dev.polygpu.cluster.wire;

import java.nio.ByteBuffer;

/**
 * Where {@link MessageLayout} writes a message body: the layout is written once and run twice, first into a
 * {@link Sizer} to learn the exact frame size, then into a {@link Filler} over an array of exactly that size, so
 * large array contents are copied once and no buffer grows. The composite writes (strings, names, byte ranges)
 * live here, so both passes follow the same rules; string limits are checked in the sizing pass, before anything
 * is allocated.
 */
abstract sealed class BodyWriter permits BodyWriter.Sizer, BodyWriter.Filler {

    abstract void i8(int v);

    abstract void i32(int v);

    abstract void i64(long v);

    abstract void raw(byte[] b);

    /** The UTF-8 bytes of {@code s} (no prefix), which {@link Utf8#length} measured as {@code length}. */
    abstract void utf8(String s, long length);

    final void bool(boolean v) {
        i8(v ? 1 : 0);
    }

    /** A count of list elements that follow. */
    final void count(int n) {
        i32(n);
    }

    /** A length-prefixed byte range. */
    final void bytes(byte[] b) {
        i32(b.length);
        raw(b);
    }

    /** A length-prefixed UTF-8 string of at most {@code maxBytes} encoded bytes. */
    final void string(String s, int maxBytes, String field) {
        if (s == null) {
            throw new IllegalArgumentException(field + " must not be null");
        }
        long n = Utf8.length(s, field);
        if (n > maxBytes) {
            throw new IllegalArgumentException(
                    field + " is " + n + " bytes in UTF-8; the wire format allows at most " + maxBytes);
        }
        i32((int) n);
        utf8(s, n);
    }

    /** As {@link #string}, or length -1 for null. */
    final void nullableString(String s, int maxBytes, String field) {
        if (s == null) {
            i32(-1);
        } else {
            string(s, maxBytes, field);
        }
    }

    /** An enum constant by its name, so that reordering the enum does not change what a frame means. */
    final void name(Enum<?> e, String field) {
        string(e.name(), WireCodec.MAX_NAME_BYTES, field);
    }

    /** Counts bytes without writing them. */
    static final class Sizer extends BodyWriter {
        private long size;

        long size() {
            return size;
        }

        @Override
        void i8(int v) {
            size += 1;
        }

        @Override
        void i32(int v) {
            size += 4;
        }

        @Override
        void i64(long v) {
            size += 8;
        }

        @Override
        void raw(byte[] b) {
            size += b.length;
        }

        @Override
        void utf8(String s, long length) {
            size += length;
        }
    }

    /** Writes big-endian into an array sized by a {@link Sizer}. */
    static final class Filler extends BodyWriter {
        private final ByteBuffer out;

        Filler(byte[] frame) {
            this.out = ByteBuffer.wrap(frame); // big-endian by default
        }

        int position() {
            return out.position();
        }

        @Override
        void i8(int v) {
            out.put((byte) v);
        }

        @Override
        void i32(int v) {
            out.putInt(v);
        }

        @Override
        void i64(long v) {
            out.putLong(v);
        }

        @Override
        void raw(byte[] b) {
            out.put(b);
        }

        @Override
        void utf8(String s, long length) {
            Utf8.encode(s, out);
        }
    }
}
