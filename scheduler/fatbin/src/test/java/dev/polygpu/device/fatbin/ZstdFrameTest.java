package dev.polygpu.device.fatbin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The zstd decoder on frames built by hand (RFC 8878 layouts), on frames of the {@code zstd} tool where it is
 * installed (every level, with and without checksum), and on damaged frames.
 */
class ZstdFrameTest {

    /** A frame header: magic, a descriptor with a 1-byte content size in a single segment, that size. */
    private static ByteArrayOutputStream frame(int descriptor, int contentSize) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, (byte) descriptor});
        if (contentSize >= 0) {
            out.write(contentSize);
        }
        return out;
    }

    /** A block header: last flag, type (0 raw, 1 RLE, 2 compressed, 3 reserved) and size. */
    private static void block(ByteArrayOutputStream out, boolean last, int type, int size) {
        int h = (last ? 1 : 0) | type << 1 | size << 3;
        out.writeBytes(new byte[] {(byte) h, (byte) (h >>> 8), (byte) (h >>> 16)});
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void rawAndRleBlocksAfterASkippableFrame() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x53, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 9, 9}); // skippable, 2 bytes
        ByteArrayOutputStream f = frame(0x20, 8);
        block(f, false, 0, 3);
        f.writeBytes(ascii("abc"));
        block(f, true, 1, 5);
        f.write('x');
        out.writeBytes(f.toByteArray());
        byte[] src = out.toByteArray();
        assertArrayEquals(ascii("abcxxxxx"), ZstdFrame.decode(src, 0, src.length, 8));
        // Two frames in a row decode one after the other.
        byte[] twice = Arrays.copyOf(src, 2 * src.length);
        System.arraycopy(src, 0, twice, src.length, src.length);
        assertArrayEquals(ascii("abcxxxxxabcxxxxx"), ZstdFrame.decode(twice, 0, twice.length, 16));
    }

    @Test
    void theChecksumIsTheLowHalfOfXxh64() throws Exception {
        // XXH64 of no bytes with seed 0 is ef46db3751d8e999 (the xxHash reference's test vector).
        assertEquals(0xef46db3751d8e999L, XxHash64.hash(new byte[0], 0, 0));
        ByteArrayOutputStream f = frame(0x24, 0);
        block(f, true, 0, 0);
        f.writeBytes(new byte[] {(byte) 0x99, (byte) 0xe9, (byte) 0xd8, 0x51});
        byte[] good = f.toByteArray();
        assertEquals(0, ZstdFrame.decode(good, 0, good.length, 0).length);
        byte[] bad = good.clone();
        bad[bad.length - 1] ^= 1;
        CorruptPayload e = assertThrows(CorruptPayload.class, () -> ZstdFrame.decode(bad, 0, bad.length, 0));
        assertEquals("fails its checksum (the frame says 50d8e999, its content hashes to 51d8e999)", e.getMessage());
    }

    @Test
    void defectsAreNamed() {
        ByteArrayOutputStream reserved = frame(0x20, 1);
        block(reserved, true, 3, 1);
        assertCorrupt(reserved.toByteArray(), 1, "has a block of the reserved type 3 at byte 6");
        ByteArrayOutputStream dict = frame(0x21, -1); // dictionary ID of 1 byte, then a 1-byte content size
        dict.writeBytes(new byte[] {7, 1});
        block(dict, true, 0, 1);
        dict.write('a');
        assertCorrupt(dict.toByteArray(), 1, "needs zstd dictionary 7, which a fatbinary does not carry");
        ByteArrayOutputStream mismatch = frame(0x20, 2);
        block(mismatch, true, 0, 1);
        mismatch.write('a');
        assertCorrupt(mismatch.toByteArray(), 1, "has a frame that declares 2 bytes but decodes to 1");
        ByteArrayOutputStream reservedBit = frame(0x28, 1);
        assertCorrupt(reservedBit.toByteArray(), 1, "sets the reserved bit of its frame header, at byte 4");
        ByteArrayOutputStream cut = frame(0x20, 3);
        block(cut, true, 0, 3);
        cut.write('a');
        assertCorrupt(cut.toByteArray(), 3, "ends in a raw block of 3 bytes, at byte 9");
        assertCorrupt(ascii("PK\3\4"), 1, "has no zstd frame at byte 0 (it starts with 04034b50");
        assertCorrupt(new byte[0], 1, "holds no zstd frame");
    }

    private static void assertCorrupt(byte[] src, int size, String expected) {
        CorruptPayload e = assertThrows(CorruptPayload.class, () -> ZstdFrame.decode(src, 0, src.length, size));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /** zstd where installed: its frames at every level decode to the input, checksums checked where present. */
    @Test
    void framesOfTheZstdToolDecodeToTheirInput(@TempDir Path dir) throws Exception {
        Path zstd = CompressionTools.require("zstd");
        List<byte[]> inputs = CompressionTools.inputs(0x25d);
        List<List<String>> options = List.of(List.of("-1"), List.of("-3"), List.of("-9", "--no-check"),
                List.of("-19"), List.of("--ultra", "-22"), List.of("--fast=4"), List.of("-6", "--long=20"));
        for (int i = 0; i < inputs.size(); i++) {
            Files.write(dir.resolve("in" + i), inputs.get(i));
            for (List<String> option : options) {
                List<String> command = new ArrayList<>(List.of(zstd.toString(), "-q", "-f"));
                command.addAll(option);
                command.addAll(List.of("in" + i, "-o", "out.zst"));
                CompressionTools.run(dir, command);
                byte[] frame = Files.readAllBytes(dir.resolve("out.zst"));
                byte[] decoded = ZstdFrame.decode(frame, 0, frame.length, inputs.get(i).length);
                assertArrayEquals(inputs.get(i), decoded, "input " + i + " with " + option);
            }
        }
    }

    /** Truncated and bit-flipped frames of nvcc: a payload of the declared size or CorruptPayload, nothing else. */
    @Test
    void damagedFramesFailOnlyAsCorrupt() throws Exception {
        int corrupt = FatbinFixtures.fuzz(FatbinFixtures.fixture("increment_all.fatbin"), 0x5eedL, ZstdFrame::decode);
        assertTrue(corrupt > 3000, "only " + corrupt + " of 6000 damaged frames were found corrupt");
    }
}
