package dev.polygpu.device.fatbin;

import java.util.Arrays;

/**
 * The bytes a decoder produces, exactly {@code size} of them in the end. The array starts small and grows with
 * what is really written (doubling, never past {@code size}), so a size field that lies costs no memory: only
 * bytes the compressed data truly decodes to are held. Every write is checked against {@code size}.
 */
final class Output {
    private final int size;
    private byte[] bytes;
    private int at;

    /** An output that must end up {@code size} bytes long; {@code hint} is a first guess of how much comes. */
    Output(int size, long hint) {
        this.size = size;
        this.bytes = new byte[(int) Math.max(0, Math.min(size, Math.max(hint, 4096)))];
    }

    /** How many bytes have been written. */
    int position() {
        return at;
    }

    /** The byte written at {@code index} (which is below {@link #position()}). */
    byte get(int index) {
        return bytes[index];
    }

    void put(byte b) throws CorruptPayload {
        reserve(1);
        bytes[at++] = b;
    }

    /** Appends {@code length} bytes of {@code src} from {@code from} (which the caller has bounds-checked). */
    void put(byte[] src, int from, int length) throws CorruptPayload {
        reserve(length);
        System.arraycopy(src, from, bytes, at, length);
        at += length;
    }

    /** Appends {@code count} copies of {@code b}. */
    void fill(byte b, int count) throws CorruptPayload {
        reserve(count);
        Arrays.fill(bytes, at, at + count, b);
        at += count;
    }

    /**
     * Appends {@code length} bytes copied from {@code distance} bytes back, byte by byte where the two overlap
     * (a distance of 1 repeats the last byte).
     *
     * @throws CorruptPayload when {@code distance} reaches before {@code floor}, the first byte the copy may read
     */
    void copyBack(int distance, int length, int floor, String what) throws CorruptPayload {
        if (distance <= 0 || distance > at - floor) {
            throw new CorruptPayload(what + " refers " + distance + " bytes back, but only " + (at - floor)
                    + " have been decoded");
        }
        reserve(length);
        int from = at - distance;
        if (distance >= length) {
            System.arraycopy(bytes, from, bytes, at, length);
            at += length;
        } else {
            for (int i = 0; i < length; i++) {
                bytes[at++] = bytes[from + i];
            }
        }
    }

    /** Makes room for {@code n} more bytes, refusing to go past {@code size}. */
    private void reserve(int n) throws CorruptPayload {
        if (n < 0 || n > size - at) {
            throw new CorruptPayload("decodes to more than the " + size + " bytes the entry header declares");
        }
        if (at + n > bytes.length) {
            long grown = Math.max((long) bytes.length * 2, (long) at + n);
            bytes = Arrays.copyOf(bytes, (int) Math.min(grown, size));
        }
    }

    /** XXH64 of the bytes written from {@code from} on. */
    long hash(int from) {
        return XxHash64.hash(bytes, from, at - from);
    }

    /**
     * The bytes, which must number exactly {@code size}.
     *
     * @throws CorruptPayload when fewer were written
     */
    byte[] finish() throws CorruptPayload {
        if (at != size) {
            throw new CorruptPayload("decodes to " + at + " bytes, but the entry header declares " + size);
        }
        return bytes.length == size ? bytes : Arrays.copyOf(bytes, size);
    }
}
