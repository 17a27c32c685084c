package dev.polygpu.device.fatbin;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The fatbinary fixtures of {@code src/test/resources/bindkernel} (see its {@code build-fixtures.sh}) and what
 * tests compare them with, read by test code of its own rather than by the classes under test.
 */
final class FatbinFixtures {
    private static final Pattern SPACE = Pattern.compile("[ \\t]+");

    private FatbinFixtures() {
    }

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = FatbinFixtures.class.getResourceAsStream("/bindkernel/" + name)) {
            if (in == null) {
                throw new IOException("test resource bindkernel/" + name + " is missing");
            }
            return in.readAllBytes();
        }
    }

    /**
     * Where an entry's fields lie, read independently of {@link Fatbinary}: the header offset, the payload offset,
     * the stored, compressed and uncompressed sizes, and the flags.
     */
    record Raw(int header, int payload, long stored, long compressed, long size, long flags) {
    }

    static List<Raw> raw(byte[] b) {
        List<Raw> out = new ArrayList<>();
        int at = (int) u16(b, 6);
        long end = at + u64(b, 8);
        while (at < end) {
            int headerSize = (int) u32(b, at + 4);
            out.add(new Raw(at, at + headerSize, u64(b, at + 8), u32(b, at + 16), u64(b, at + 56), u64(b, at + 40)));
            at += headerSize + (int) u64(b, at + 8);
        }
        return out;
    }

    /**
     * PTX as nvcc stores it in a fatbinary: {@code nvcc -ptx}'s lines without comments, each with its white space
     * runs reduced to one space and trimmed, and no NUL at the end. Lines are kept, so line numbers match.
     */
    static List<String> normalized(String ptx) {
        List<String> lines = new ArrayList<>();
        for (String line : ptx.replace("\0", "").split("\n", -1)) {
            int comment = line.indexOf("//");
            String code = comment < 0 ? line : line.substring(0, comment);
            lines.add(SPACE.matcher(code).replaceAll(" ").strip());
        }
        while (!lines.isEmpty() && lines.getLast().isEmpty()) {
            lines.removeLast();
        }
        return lines;
    }

    static long u16(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    static long u32(byte[] b, int at) {
        return u16(b, at) | u16(b, at + 2) << 16;
    }

    static long u64(byte[] b, int at) {
        return u32(b, at) | u32(b, at + 4) << 32;
    }

    static void put64(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }

    static void put32(byte[] b, int at, long v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }

    /** A payload decoder under test: {@link Lz4Block#decode} or {@link ZstdFrame#decode}. */
    interface Decoder {
        byte[] decode(byte[] b, int from, int length, int size) throws CorruptPayload;
    }

    /**
     * Damages each compressed payload of {@code image} 3,000 times (a third truncated, the rest with 1 to 4 bits
     * flipped) and decodes it: each must give a payload of the declared size or {@link CorruptPayload}, nothing
     * else, within 60 s in all.
     *
     * @return how many were found corrupt
     */
    static int fuzz(byte[] image, long seed, Decoder decoder) {
        java.util.Random random = new java.util.Random(seed);
        return org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> {
            int corrupt = 0;
            for (Raw entry : raw(image)) {
                byte[] payload = java.util.Arrays.copyOfRange(image, entry.payload(),
                        entry.payload() + (int) entry.compressed());
                int size = (int) entry.size();
                for (int round = 0; round < 3000; round++) {
                    byte[] b = payload.clone();
                    int length = b.length;
                    if (round % 3 == 0) {
                        length = random.nextInt(b.length);
                    } else {
                        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
                            b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
                        }
                    }
                    try {
                        org.junit.jupiter.api.Assertions.assertEquals(size, decoder.decode(b, 0, length, size).length);
                    } catch (CorruptPayload e) {
                        corrupt++;
                    } catch (RuntimeException e) {
                        throw new AssertionError("seed " + seed + ", round " + round + ": " + e, e);
                    }
                }
            }
            return corrupt;
        });
    }
}
