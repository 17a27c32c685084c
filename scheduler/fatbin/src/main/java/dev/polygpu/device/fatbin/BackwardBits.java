package dev.polygpu.device.fatbin;

/**
 * A zstd bit stream read backwards: written forwards by the encoder and closed by a marker bit (the highest set
 * bit of the last byte), it is read from just below the marker towards the first byte; each field read takes the
 * next lower bits, its highest bit first. Reading past the start gives zero bits and leaves the stream
 * {@link #overflowed()}, which is how the decoders of FSE weights detect its end; every other decoder requires
 * the stream to end {@link #exhausted()} exactly.
 */
final class BackwardBits {
    private final byte[] b;
    private final int start;
    /** How many unread bits lie below the read position; negative once reads went past the start. */
    private long remaining;

    /**
     * The stream of {@code length} bytes of {@code b} from {@code start}, called {@code what} in messages.
     *
     * @throws CorruptPayload for an empty stream or one whose last byte is 0 (it has no marker bit)
     */
    BackwardBits(byte[] b, int start, int length, String what) throws CorruptPayload {
        if (length <= 0) {
            throw new CorruptPayload(what + " is empty");
        }
        int last = b[start + length - 1] & 0xff;
        if (last == 0) {
            throw new CorruptPayload(what + " ends in a zero byte, which lacks the end-of-stream marker bit");
        }
        this.b = b;
        this.start = start;
        this.remaining = 8L * (length - 1) + (31 - Integer.numberOfLeadingZeros(last));
    }

    /** The next {@code n} bits (0 to 25) as a number, and moves past them. */
    int read(int n) {
        int v = peek(n);
        remaining -= n;
        return v;
    }

    /** The next {@code n} bits (0 to 25), zeros where the stream has none left, without moving past them. */
    int peek(int n) {
        if (n == 0 || remaining <= 0) {
            return 0;
        }
        if (remaining >= n) {
            return field(remaining - n, n);
        }
        return field(0, (int) remaining) << (n - remaining);
    }

    /** Moves past {@code n} bits. */
    void skip(int n) {
        remaining -= n;
    }

    /** Whether more bits were read than the stream holds. */
    boolean overflowed() {
        return remaining < 0;
    }

    /** Whether exactly every bit was read. */
    boolean exhausted() {
        return remaining == 0;
    }

    /** The {@code n} bits from bit {@code at} up (bit 0 is the lowest bit of the first byte). */
    private int field(long at, int n) {
        int index = start + (int) (at >>> 3);
        int shift = (int) (at & 7);
        int bytes = (shift + n + 7) >>> 3;
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v |= (long) (b[index + i] & 0xff) << (8 * i);
        }
        return (int) ((v >>> shift) & ((1L << n) - 1));
    }
}
