package dev.polygpu.cluster.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A 128-bit fingerprint of an array's contents: what an owner sends instead of the bytes when the thief already
 * holds them ({@link ArrayData#reference}). Two different contents of the same array get the same digest with a
 * probability of about 2<sup>-128</sup> for any data a program computes; the function is fast (several GB/s)
 * rather than cryptographic, so it is no defence against contents crafted to collide, which only the program that
 * owns the array could craft, and only against its own results. Integrity on the wire is the frame's HMAC.
 *
 * <p>The function: two 64-bit lanes take 16 bytes a step, each word multiplied, rotated and multiplied again
 * before it is added into its lane, the lanes rotated and mixed into each other; the tail is padded with zeros
 * and the length is mixed in, so contents that differ only in trailing zeros differ; both lanes are finished with
 * a 64-bit avalanche. It is part of the wire format (since version 2): every member must compute it the same way.
 *
 * @param hi the high 64 bits
 * @param lo the low 64 bits
 */
public record Digest(long hi, long lo) {

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    private static final long SEED_HI = 0x243f6a8885a308d3L;
    private static final long SEED_LO = 0x13198a2e03707344L;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED
            .withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * The digest of {@code contents}.
     *
     * @param contents the bytes; not null
     * @return their digest
     */
    public static Digest of(byte[] contents) {
        return of(MemorySegment.ofArray(contents));
    }

    /**
     * The digest of the bytes of {@code contents} (a host view of an array, or a heap segment), read in place.
     *
     * @param contents the bytes; not null
     * @return their digest
     */
    public static Digest of(MemorySegment contents) {
        long length = contents.byteSize();
        long h1 = SEED_HI;
        long h2 = SEED_LO;
        long at = 0;
        for (long end = length - 15; at < end; at += 16) {
            h1 = step1(h1, h2, contents.get(WORD, at));
            h2 = step2(h2, h1, contents.get(WORD, at + 8));
        }
        if (at < length) {
            long k1 = 0;
            long k2 = 0;
            for (long i = length - 1; i >= at; i--) {
                long b = contents.get(ValueLayout.JAVA_BYTE, i) & 0xFFL;
                if (i - at >= 8) {
                    k2 = (k2 << 8) | b;
                } else {
                    k1 = (k1 << 8) | b;
                }
            }
            h1 ^= Long.rotateLeft(k1 * C1, 31) * C2;
            h2 ^= Long.rotateLeft(k2 * C2, 33) * C1;
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = avalanche(h1);
        h2 = avalanche(h2);
        h1 += h2;
        h2 += h1;
        return new Digest(h1, h2);
    }

    private static long step1(long h1, long h2, long k) {
        h1 ^= Long.rotateLeft(k * C1, 31) * C2;
        return (Long.rotateLeft(h1, 27) + h2) * 5 + 0x52dce729L;
    }

    private static long step2(long h2, long h1, long k) {
        h2 ^= Long.rotateLeft(k * C2, 33) * C1;
        return (Long.rotateLeft(h2, 31) + h1) * 5 + 0x38495ab5L;
    }

    private static long avalanche(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    @Override
    public String toString() {
        return String.format("%016x%016x", hi, lo);
    }
}
