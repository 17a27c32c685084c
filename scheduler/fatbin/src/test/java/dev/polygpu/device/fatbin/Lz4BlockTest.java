package dev.polygpu.device.fatbin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LZ4 block decoder on blocks built by hand, on blocks of the {@code lz4} tool, and on damaged blocks. */
class Lz4BlockTest {

    private static byte[] bytes(Object... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof String s) {
                out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
            } else {
                out.write((Integer) p);
            }
        }
        return out.toByteArray();
    }

    private static String decode(byte[] block, int size) throws CorruptPayload {
        return new String(Lz4Block.decode(block, 0, block.length, size), StandardCharsets.US_ASCII);
    }

    @Test
    void literalsMatchesAndLengthExtensions() throws Exception {
        assertEquals("abc", decode(bytes(0x30, "abc"), 3));
        // 1 literal, then a match of 8 one byte back (overlapping itself), then a last literal.
        assertEquals("aaaaaaaaaz", decode(bytes(0x14, "a", 1, 0, 0x10, "z"), 10));
        // 15 + 255 + 10 literals; a match of 4 + 15 + 3 from 280 back.
        String lits = "0123456789".repeat(28);
        String expected = lits + lits.substring(0, 22) + "!";
        assertEquals(expected, decode(bytes(0xff, 255, 10, lits, 24, 1, 3, 0x10, "!"), expected.length()));
    }

    @Test
    void defectsAreNamed() {
        assertCorrupt(bytes(0x14, "a", 0, 0, 0x10, "z"), 10, "refers 0 bytes back, but only 1 have been decoded");
        assertCorrupt(bytes(0x14, "a", 2, 0, 0x10, "z"), 10, "refers 2 bytes back, but only 1 have been decoded");
        assertCorrupt(bytes(0x50, "abc"), 5, "has 5 literal bytes at byte 1, past its end (4 bytes)");
        assertCorrupt(bytes(0x14, "a", 1), 10, "ends inside a match offset, at byte 2");
        assertCorrupt(bytes(0x30, "abc"), 4, "decodes to 3 bytes, but the entry header declares 4");
        assertCorrupt(bytes(0x30, "abc"), 2, "decodes to more than the 2 bytes the entry header declares");
        assertCorrupt(bytes(0xf0, 255, 255), 100_000, "ends inside a literal length, at byte 3");
        assertCorrupt(new byte[0], 1, "is empty");
    }

    private static void assertCorrupt(byte[] block, int size, String expected) {
        CorruptPayload e = assertThrows(CorruptPayload.class, () -> Lz4Block.decode(block, 0, block.length, size));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /**
     * lz4 where installed: its frames (parsed here: magic, descriptor, then blocks each with a 32-bit size whose
     * top bit marks a stored block) hold blocks that decode to the input.
     */
    @Test
    void blocksOfTheLz4ToolDecodeToTheirInput(@TempDir Path dir) throws Exception {
        Path lz4 = CompressionTools.require("lz4");
        List<byte[]> inputs = CompressionTools.inputs(0x14);
        for (int i = 0; i < inputs.size(); i++) {
            Files.write(dir.resolve("in" + i), inputs.get(i));
            for (String level : List.of("-1", "-9", "-12", "--fast=3")) {
                CompressionTools.run(dir, List.of(lz4.toString(), "-q", "-f", "-B7", "--no-frame-crc", level,
                        "in" + i, "out.lz4"));
                byte[] frame = Files.readAllBytes(dir.resolve("out.lz4"));
                assertEquals(0x184D2204, FatbinFixtures.u32(frame, 0) & 0xffffffffL);
                int flg = frame[4] & 0xff;
                int at = 4 + 2 + ((flg & 0x08) != 0 ? 8 : 0) + ((flg & 0x01) != 0 ? 4 : 0) + 1;
                java.io.ByteArrayOutputStream decoded = new java.io.ByteArrayOutputStream();
                while (true) {
                    long word = FatbinFixtures.u32(frame, at);
                    at += 4;
                    if (word == 0) {
                        break;
                    }
                    int n = (int) (word & 0x7fffffff);
                    if ((word & 0x80000000L) != 0) {
                        decoded.write(frame, at, n);
                    } else {
                        // A block of a 4 MiB frame: decode with the rest of the input as its size.
                        int rest = inputs.get(i).length - decoded.size();
                        decoded.writeBytes(Lz4Block.decode(frame, at, n, Math.min(rest, 4 << 20)));
                    }
                    at += n + ((flg & 0x10) != 0 ? 4 : 0);
                }
                assertArrayEquals(inputs.get(i), decoded.toByteArray(), "input " + i + " at " + level);
            }
        }
    }

    @Test
    void damagedBlocksFailOnlyAsCorrupt() throws Exception {
        int corrupt = FatbinFixtures.fuzz(FatbinFixtures.fixture("increment_speed.fatbin"), 0x1e4L, Lz4Block::decode);
        assertTrue(corrupt > 2000, "only " + corrupt + " of 6000 damaged blocks were found corrupt");
    }
}
