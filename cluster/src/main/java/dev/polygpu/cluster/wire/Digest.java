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
 * <p>The function is MurmurHash3_x64_128 (Austin Appleby's reference in SMHasher, {@code MurmurHash3.cpp},
 * called "Murmur3F" there) with one difference: its initial state. The reference starts both 64-bit lanes at
 * the 32-bit seed ({@code h1 = h2 = seed}); this digest starts {@code h1 = 0x243f6a8885a308d3} and {@code h2 =
 * 0x13198a2e03707344} (the first 128 bits of the fraction of pi), a state no 32-bit seed gives. So a digest is
 * not the MurmurHash3 of the contents under any seed, and tools that compute MurmurHash3 cannot check it; with
 * both lanes started at a seed the same code gives the reference's values ({@code DigestTest} checks SMHasher's
 * verification value). Everything else is the reference's: 16-byte blocks read as two little-endian words, the
 * tail of 1 to 15 bytes padded with zeros, the length mixed in, the 64-bit finalizer (fmix64) on both lanes;
 * {@link #hi} is the reference's first output word ({@code h1}), {@link #lo} its second ({@code h2}). It is part
 * of the wire format (since version 2): every member must compute it the same way, so the initial state stays.
 *
 * @param hi the high 64 bits
 * @param lo the low 64 bits
 */
public record Digest(long hi, long lo) {

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    /** The initial state of the lanes (see the class comment): pi's fraction, not a MurmurHash3 seed. */
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
        return murmur3(contents, SEED_HI, SEED_LO);
    }

    /**
     * MurmurHash3_x64_128 of {@code contents} with the lanes started at {@code h1} and {@code h2}: the reference
     * function with seed {@code s} is {@code murmur3(contents, s, s)} for {@code 0 <= s < 2^32}.
     */
    static Digest murmur3(MemorySegment contents, long h1, long h2) {
        long length = contents.byteSize();
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
