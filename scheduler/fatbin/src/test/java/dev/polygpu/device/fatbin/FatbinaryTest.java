package dev.polygpu.device.fatbin;

import static dev.polygpu.device.fatbin.FatbinFixtures.fixture;
import static dev.polygpu.device.fatbin.FatbinFixtures.normalized;
import static dev.polygpu.device.fatbin.FatbinFixtures.put32;
import static dev.polygpu.device.fatbin.FatbinFixtures.put64;
import static dev.polygpu.device.fatbin.FatbinFixtures.raw;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cuda.NvccTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fatbinaries as nvcc 13.0 writes them in each compression mode, read and decompressed, compared with what nvcc
 * writes for the same source with {@code -ptx} and {@code -cubin} (the ground truth: nvcc stores the very cubin,
 * and the PTX without comments and with its white space reduced); malformed ones are refused with INVALID_IMAGE.
 */
class FatbinaryTest {

    /** The PTX of a readable entry, as nvcc -ptx wrote it for {@code ptxFixture}, line by line. */
    private static void assertSamePtx(String ptxFixture, FatbinEntry e) throws IOException {
        String expected = new String(fixture(ptxFixture), StandardCharsets.UTF_8);
        assertEquals(normalized(expected), normalized(e.text()), e.describe() + " vs " + ptxFixture);
    }

    @Test
    void everyFixtureDecodesToThePtxAndCubinNvccWrote() throws IOException {
        // fixture, its entries as described, then per entry the nvcc -ptx / -cubin output it must equal
        Object[][] cases = {
            {"increment.fatbin", "sm_75 cubin, compute_75 PTX (zstd)", "increment.cubin", "increment.ptx"},
            {"increment_ptx.fatbin", "compute_75 PTX (zstd)", "increment.ptx"},
            {"increment_all.fatbin", "sm_75 cubin (zstd), compute_75 PTX (zstd)", "increment.cubin",
                "increment.ptx"},
            {"increment_speed.fatbin", "sm_75 cubin (LZ4), compute_75 PTX (LZ4)", "increment.cubin",
                "increment.ptx"},
            {"increment_multi.fatbin", "compute_75 PTX (zstd), compute_90 PTX (zstd)", "increment.ptx",
                "increment_sm90.ptx"},
            {"increment_sm75only.fatbin", "sm_75 cubin (zstd)", "increment.cubin"},
        };
        for (Object[] c : cases) {
            String name = (String) c[0];
            Fatbinary fat = Fatbinary.read(fixture(name), name);
            assertEquals(c[1], fat.describe(), name);
            assertEquals(c.length - 2, fat.entries().size(), name);
            for (int i = 0; i < fat.entries().size(); i++) {
                FatbinEntry e = fat.entries().get(i);
                String truth = (String) c[2 + i];
                assertNull(e.unreadable(), name);
                if (e.isPtx()) {
                    assertSamePtx(truth, e);
                    assertEquals(truth.contains("sm90") ? 90 : 75, e.sm(), name);
                } else {
                    assertArrayEquals(fixture(truth), e.payload(), name + ": " + e.describe());
                }
            }
        }
    }

    @Test
    void theDecompressedSizeIsTheOneTheEntryDeclares() throws IOException {
        byte[] b = fixture("increment_all.fatbin");
        List<FatbinFixtures.Raw> raw = raw(b);
        Fatbinary fat = Fatbinary.read(b, "increment_all.fatbin");
        for (int i = 0; i < raw.size(); i++) {
            assertEquals(raw.get(i).size(), fat.entries().get(i).payload().length);
            assertTrue(raw.get(i).compressed() < raw.get(i).size(), "compressed: " + raw.get(i));
        }
        // nvcc stores PTX ending in one NUL, which text() drops.
        FatbinEntry ptx = fat.entries().get(1);
        assertEquals(0, ptx.payload()[ptx.payload().length - 1]);
        assertFalse(ptx.text().contains("\0"));
    }

    @Test
    void newestPtxIsTheOneForTheHighestArchitecture() throws IOException {
        assertEquals(90, Fatbinary.read(fixture("increment_multi.fatbin"), "m.fatbin").newestPtx().sm());
        assertEquals(75, Fatbinary.read(fixture("increment.fatbin"), "i.fatbin").newestPtx().sm());
        assertNull(Fatbinary.read(fixture("increment_sm75only.fatbin"), "c.fatbin").newestPtx());
    }

    /**
     * nvcc where installed: every compression mode its help lists, for PTX alone and for a cubin with PTX with
     * every entry compressed, decodes to what nvcc -ptx and -cubin write now.
     */
    @Tag("slow")
    @Test
    void everyCompressionModeOfTheInstalledNvccDecodesToItsPtxAndCubin(@TempDir Path dir) throws Exception {
        Path nvcc = NvccTool.require();
        Files.write(dir.resolve("k.cu"), fixture("increment.cu"));
        String help = run(dir, nvcc.toString(), "--help");
        Matcher m = Pattern.compile("--compress-mode \\[([a-z,]+)]").matcher(help);
        assertTrue(m.find(), "nvcc --help lists no --compress-mode [..]");
        List<String> modes = List.of(m.group(1).split(","));
        assertTrue(modes.containsAll(List.of("default", "speed", "none")), modes.toString());
        run(dir, nvcc.toString(), "-ptx", "-arch=compute_75", "-o", "k.ptx", "k.cu");
        run(dir, nvcc.toString(), "-cubin", "-arch=sm_75", "-o", "k.cubin", "k.cu");
        List<String> ptx = normalized(Files.readString(dir.resolve("k.ptx")));
        byte[] cubin = Files.readAllBytes(dir.resolve("k.cubin"));
        for (String mode : modes) {
            run(dir, nvcc.toString(), "-fatbin", "-arch=compute_75", "-compress-mode=" + mode, "-o", "p.fatbin",
                    "k.cu");
            run(dir, nvcc.toString(), "-fatbin", "-arch=sm_75", "-Xfatbin", "-compress-all", "-compress-mode=" + mode,
                    "-o", "a.fatbin", "k.cu");
            Fatbinary p = Fatbinary.read(Files.readAllBytes(dir.resolve("p.fatbin")), mode + " p.fatbin");
            Fatbinary a = Fatbinary.read(Files.readAllBytes(dir.resolve("a.fatbin")), mode + " a.fatbin");
            assertEquals(1, p.entries().size(), mode);
            assertEquals(ptx, normalized(p.entries().getFirst().text()), mode);
            assertEquals(2, a.entries().size(), mode);
            assertArrayEquals(cubin, a.entries().get(0).payload(), mode);
            assertEquals(ptx, normalized(a.entries().get(1).text()), mode);
            FatbinEntry.Compression expected = switch (mode) {
                case "none" -> FatbinEntry.Compression.NONE;
                case "speed" -> FatbinEntry.Compression.LZ4;
                default -> FatbinEntry.Compression.ZSTD;
            };
            assertEquals(expected, a.entries().get(0).compression(), mode);
            assertEquals(expected, p.entries().getFirst().compression(), mode);
        }
        run(dir, nvcc.toString(), "-fatbin", "-arch=compute_75", "-no-compress", "-o", "n.fatbin", "k.cu");
        FatbinEntry plain = Fatbinary.read(Files.readAllBytes(dir.resolve("n.fatbin")), "n.fatbin").entries().get(0);
        assertEquals(FatbinEntry.Compression.NONE, plain.compression());
        assertEquals(ptx, normalized(plain.text()));
    }

    private static String run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
        return out;
    }

    private static DeviceException invalid(byte[] b, String expected) {
        DeviceException e = assertThrows(DeviceException.class, () -> Fatbinary.read(b, "bad.fatbin"));
        assertEquals(CudaError.INVALID_IMAGE, e.error(), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        return e;
    }

    @Test
    void sizeFieldsThatLieAreRefusedWithoutAllocatingWhatTheyClaim() throws IOException {
        byte[] original = fixture("increment_ptx.fatbin");
        FatbinFixtures.Raw entry = raw(original).getFirst();

        byte[] huge = original.clone();
        put64(huge, entry.header() + 56, 1L << 40);
        DeviceException e = invalid(huge, "fatbinary bad.fatbin: its compute_75 PTX entry (zstd, at byte 16)"
                + " declares 1099511627776 bytes uncompressed; polygpu reads from 1 byte to 256 MiB");

        // Within the cap, a size the data does not decode to: the output grows only with what really decodes.
        byte[] large = original.clone();
        put64(large, entry.header() + 56, 255L << 20);
        invalid(large, "decodes to 3538 bytes, but the entry header declares 267386880");

        byte[] small = original.clone();
        put64(small, entry.header() + 56, 3000);
        invalid(small, "decodes to more than the 3000 bytes the entry header declares");

        byte[] none = original.clone();
        put32(none, entry.header() + 16, 0);
        invalid(none, "declares 0 compressed bytes in a payload of 744");
        byte[] more = original.clone();
        put32(more, entry.header() + 16, 745);
        invalid(more, "declares 745 compressed bytes in a payload of 744");

        byte[] zero = original.clone();
        put64(zero, entry.header() + 56, 0);
        invalid(zero, "declares 0 bytes uncompressed");
        assertTrue(e.getMessage().startsWith("fatbinary bad.fatbin"), e.getMessage());
    }

    @Test
    void aPayloadThatIsNotWhatItsFlagSaysIsRefused() throws IOException {
        byte[] b = fixture("increment.fatbin");
        FatbinFixtures.Raw cubin = raw(b).getFirst(); // stored as is
        put64(b, cubin.header() + 40, cubin.flags() | 0x8000);
        put32(b, cubin.header() + 16, cubin.stored());
        put64(b, cubin.header() + 56, cubin.stored());
        invalid(b, "its sm_75 cubin entry (zstd, at byte 16) is corrupt: its 9128-byte compressed payload has"
                + " no zstd frame at byte 0 (it starts with 464c457f, not the magic number fd2fb528)");
    }

    @Test
    void anEntryWithBothCompressionFlagsIsKeptUnreadableWithTheReason() throws IOException {
        byte[] b = fixture("increment.fatbin");
        FatbinFixtures.Raw ptx = raw(b).get(1);
        put64(b, ptx.header() + 40, ptx.flags() | 0x2000);
        Fatbinary fat = Fatbinary.read(b, "both.fatbin");
        FatbinEntry e = fat.entries().get(1);
        assertEquals("sm_75 cubin, compute_75 PTX (compressed by an unknown method)", fat.describe());
        assertNull(e.payload());
        assertEquals("its compute_75 PTX entry has both compression flags set (flags 0xa011; 0x2000 is LZ4, 0x8000"
                + " zstd), a format polygpu does not know", e.unreadable());
        assertNull(fat.newestPtx());
    }

    @Test
    void headersThatDoNotFitAreRefused() throws IOException {
        byte[] b = fixture("increment_ptx.fatbin");
        invalid(Arrays.copyOf(b, 15), "is shorter than its 16-byte header");
        invalid(Arrays.copyOf(b, 100), "declares a 16-byte header and 824 bytes of entries, but has 100 bytes");
        byte[] shortHeader = b.clone();
        put32(shortHeader, 16 + 4, 32);
        invalid(shortHeader, "has an entry at byte 16 whose header (32 bytes) and payload (744 bytes) run past");
        byte[] kind = b.clone();
        kind[16] = 7;
        invalid(kind, "has an entry of unknown kind 7 at byte 16 (1 is PTX, 2 a cubin)");
    }

    /**
     * Flipped bits (mostly in compressed payloads) and shortened compressed sizes: every outcome is a readable
     * fatbinary or INVALID_IMAGE naming the file and the entry; never another exception, a bounds fault caught
     * late, or a hang.
     */
    @Tag("slow")
    @Test
    void garbledCompressedFatbinariesFailOnlyWithInvalidImage() throws IOException {
        long seed = 0xc0ffee5L;
        Random random = new Random(seed);
        List<String> names = List.of("increment_all.fatbin", "increment_speed.fatbin", "increment_multi.fatbin");
        int[] refused = new int[1];
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int round = 0; round < 6000; round++) {
                String name = names.get(round % names.size());
                byte[] b = fixture(name);
                List<FatbinFixtures.Raw> raw = raw(b);
                FatbinFixtures.Raw entry = raw.get(random.nextInt(raw.size()));
                switch (random.nextInt(4)) {
                    case 0, 1 -> {
                        for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                            int at = entry.payload() + random.nextInt((int) entry.compressed());
                            b[at] ^= (byte) (1 << random.nextInt(8));
                        }
                    }
                    case 2 -> put32(b, entry.header() + 16, 1 + random.nextInt((int) entry.compressed()));
                    default -> b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                }
                try {
                    Fatbinary fat = Fatbinary.read(b, "garbled.fatbin");
                    for (FatbinEntry e : fat.entries()) {
                        assertTrue(e.payload() == null || e.payload().length <= Fatbinary.MAX_ENTRY_BYTES);
                    }
                } catch (DeviceException e) {
                    refused[0]++;
                    String message = e.getMessage();
                    assertEquals(CudaError.INVALID_IMAGE, e.error(), message);
                    assertTrue(message.contains("garbled.fatbin"), "seed " + seed + ", round " + round + ": "
                            + message);
                    assertFalse(message.contains("out of bounds"), "seed " + seed + ", round " + round + ": "
                            + message);
                } catch (RuntimeException e) {
                    fail("seed " + seed + ", round " + round + " (" + name + "): " + e, e);
                }
            }
        });
        assertTrue(refused[0] > 3000, "only " + refused[0] + " of 6000 garbled fatbinaries were refused (seed "
                + seed + ")");
    }
}
