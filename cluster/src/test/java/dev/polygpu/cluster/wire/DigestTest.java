package dev.polygpu.cluster.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DigestTest {

    @Test
    void theSameContentsGiveTheSameDigestOnTheHeapAndOffIt() {
        Random r = new Random(1);
        for (int n = 0; n < 70; n++) {
            byte[] b = new byte[n];
            r.nextBytes(b);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment native_ = arena.allocate(Math.max(1, n + 3)).asSlice(3, n);
                MemorySegment.copy(b, 0, native_, ValueLayout.JAVA_BYTE, 0, n);
                assertEquals(Digest.of(b), Digest.of(native_), "length " + n + ", unaligned native copy");
            }
            assertEquals(Digest.of(b), Digest.of(b.clone()));
        }
    }

    @Test
    void everySingleBitFlipChangesTheDigest() {
        Random r = new Random(2);
        for (int n : new int[] {1, 7, 8, 15, 16, 17, 33, 100}) {
            byte[] b = new byte[n];
            r.nextBytes(b);
            Digest original = Digest.of(b);
            for (int i = 0; i < n; i++) {
                for (int bit = 0; bit < 8; bit++) {
                    b[i] ^= (byte) (1 << bit);
                    assertNotEquals(original, Digest.of(b), "length " + n + ", byte " + i + ", bit " + bit);
                    b[i] ^= (byte) (1 << bit);
                }
            }
        }
    }

    @Test
    void trailingZerosAndSwappedWordsCount() {
        Set<Digest> seen = new HashSet<>();
        for (int n = 0; n <= 64; n++) {
            assertEquals(true, seen.add(Digest.of(new byte[n])), "all-zero arrays of length " + n);
        }
        byte[] a = new byte[32];
        byte[] b = new byte[32];
        for (int i = 0; i < 16; i++) {
            a[i] = (byte) (i + 1);
            b[i + 16] = (byte) (i + 1);
        }
        assertNotEquals(Digest.of(a), Digest.of(b), "the same bytes in another place");
        float[] values = {1f, 2f};
        byte[] x = new byte[8];
        byte[] y = new byte[8];
        MemorySegment.ofArray(x).set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, values[0]);
        MemorySegment.ofArray(x).set(ValueLayout.JAVA_FLOAT_UNALIGNED, 4, values[1]);
        MemorySegment.ofArray(y).set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, values[1]);
        MemorySegment.ofArray(y).set(ValueLayout.JAVA_FLOAT_UNALIGNED, 4, values[0]);
        assertNotEquals(Digest.of(x), Digest.of(y), "swapped elements");
    }

    @Test
    void manyDistinctArraysGiveDistinctDigests() {
        Set<Digest> seen = new HashSet<>();
        byte[] b = new byte[24];
        for (int i = 0; i < 200_000; i++) {
            MemorySegment.ofArray(b).set(ValueLayout.JAVA_INT_UNALIGNED, 20, i);
            assertEquals(true, seen.add(Digest.of(b)), "counter " + i);
        }
    }

    /**
     * With both lanes started at a seed the function is MurmurHash3_x64_128: SMHasher's verification test gives
     * the value SMHasher lists for it ("Murmur3F", 0x6384BA69 in its main.cpp). The test (KeysetTest.cpp): key i
     * is the bytes 0, 1, …, i-1, hashed with seed 256 - i; the 256 results, each 16 bytes (h1 then h2,
     * little-endian), are hashed with seed 0; the first four bytes of that, little-endian, are the value.
     */
    @Test
    void startedAtASeedItIsMurmurHash3ByTheSmhasherVerificationValue() {
        byte[] key = new byte[256];
        ByteBuffer hashes = ByteBuffer.allocate(16 * 256).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 256; i++) {
            key[i] = (byte) i;
            Digest d = Digest.murmur3(MemorySegment.ofArray(key).asSlice(0, i), 256 - i, 256 - i);
            hashes.putLong(d.hi()).putLong(d.lo());
        }
        Digest last = Digest.murmur3(MemorySegment.ofArray(hashes.array()), 0, 0);
        assertEquals(0x6384BA69, (int) last.hi(), () -> Integer.toHexString((int) last.hi()));
    }

    @Test
    void showsAs32HexDigits() {
        assertEquals("0000000000000001ffffffffffffffff", new Digest(1, -1).toString());
    }
}
