package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cubin reader on the fixtures of {@code src/test/resources/bindkernel} (built from {@code increment.cu}). The
 * expected kernels and parameters come from the C declarations there: entry names by the Itanium C++ ABI (as
 * {@code readelf -s} lists them), parameter offsets and sizes by the C layout of the parameters on a 64-bit device
 * (pointers, long long and double 8 bytes aligned to 8, int 4, short 2, char 1, the struct of three ints 12 bytes
 * aligned to 4).
 */
class CubinImageTest {

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = CubinImageTest.class.getResourceAsStream("/bindkernel/" + name)) {
            if (in == null) {
                throw new IOException("test resource bindkernel/" + name + " is missing");
            }
            return in.readAllBytes();
        }
    }

    private static ImageParam param(int bytes, int align) {
        return new ImageParam(null, bytes, align, bytes + (bytes == 1 ? " byte" : " bytes"));
    }

    /** The kernels of increment.cu, in declaration order, with the parameters their C declarations give. */
    static final Map<String, List<ImageParam>> EXPECTED = expected();

    private static Map<String, List<ImageParam>> expected() {
        Map<String, List<ImageParam>> m = new LinkedHashMap<>();
        m.put("c_inc", List.of(param(8, 8), param(4, 4))); // int* @0, int @8
        m.put("_ZN2aa2bb10inc_kernelEPii", List.of(param(8, 8), param(4, 4)));
        m.put("_Z5scaleIfEvPT_S0_i", List.of(param(8, 8), param(4, 4), param(4, 4))); // float* @0, float @8, int @12
        m.put("_Z5scaleIiEvPT_S0_i", List.of(param(8, 8), param(4, 4), param(4, 4)));
        // char @0, short @2, int @4, double @8, long long* @16, Triple @24 (12 bytes), double* @40
        m.put("mixed", List.of(param(1, 1), param(2, 2), param(4, 4), param(8, 8), param(8, 8), param(12, 4),
                param(8, 8)));
        return m;
    }

    static Map<String, List<ImageParam>> byName(List<ImageKernel> kernels) {
        Map<String, List<ImageParam>> m = new LinkedHashMap<>();
        for (ImageKernel k : kernels) {
            m.put(k.name(), k.params());
        }
        return m;
    }

    @Test
    void readsArchKernelsAndParameters() throws IOException {
        CubinImage sm75 = CubinImage.read(fixture("increment.cubin"), "increment.cubin");
        assertEquals(75, sm75.sm());
        assertEquals(EXPECTED, byName(sm75.kernels()));
        CubinImage sm90 = CubinImage.read(fixture("increment_sm90.cubin"), "increment_sm90.cubin");
        assertEquals(90, sm90.sm());
        assertEquals(EXPECTED, byName(sm90.kernels()));
    }

    /** CUDA 12 and older put the SM number in the low byte (EF_CUDA_SM75 with the virtual SM in bits 16–23). */
    @Test
    void readsTheOlderFlagLayout() throws IOException {
        byte[] b = fixture("increment.cubin");
        b[8] = 7; // ELF ABI version 7
        putU32(b, 48, 0x4b054b); // e_flags of an sm_75 cubin as cuobjdump of CUDA 12 shows them
        assertEquals(75, CubinImage.read(b, "old.cubin").sm());
        putU32(b, 48, 0x5a055a);
        assertEquals(90, CubinImage.read(b, "old.cubin").sm());
        // The new layout is recognised by its low byte even at ABI version 7 (CUDA 12.8 for sm_100: 0x6006402).
        putU32(b, 48, 0x6006402);
        assertEquals(100, CubinImage.read(b, "new.cubin").sm());
    }

    @Test
    void alignmentIsTheLargestPowerOfTwoDividingOffsetAndSize() {
        assertEquals(1, CubinImage.alignment(0, 1));
        assertEquals(2, CubinImage.alignment(2, 2));
        assertEquals(4, CubinImage.alignment(24, 12));
        assertEquals(8, CubinImage.alignment(40, 8));
        assertEquals(4, CubinImage.alignment(12, 8)); // never more than the offset allows
        assertEquals(16, CubinImage.alignment(0, 16));
        assertEquals(16, CubinImage.alignment(64, 64));
    }

    @Test
    void whatIsNotACubinIsSaid() throws IOException {
        assertInvalid(new byte[] {0x7f, 'E', 'L', 'F'}, "shorter than an ELF64 header");
        byte[] b = fixture("increment.cubin");
        byte[] elf32 = b.clone();
        elf32[4] = 1;
        assertInvalid(elf32, "32-bit ELF file");
        byte[] bigEndian = b.clone();
        bigEndian[5] = 2;
        assertInvalid(bigEndian, "big-endian");
        byte[] host = b.clone();
        host[18] = 62; // EM_X86_64
        host[19] = 0;
        DeviceException hostElf = assertThrows(DeviceException.class, () -> CubinImage.read(host, "k.o"));
        assertEquals(CudaError.INVALID_IMAGE, hostElf.error());
        assertTrue(hostElf.getMessage().startsWith("k.o is an ELF file for machine 62 (x86-64), not a cubin"),
                hostElf.getMessage());
        byte[] noArch = b.clone();
        putU32(noArch, 48, 0x6000004); // SM 0
        assertInvalid(noArch, "names no GPU architecture");
        byte[] sectionsBeyond = b.clone();
        putU32(sectionsBeyond, 0x28, 0x7fff0000);
        assertInvalid(sectionsBeyond, "section headers at offset " + 0x7fff0000L);
    }

    @Test
    void truncatedCubinsAreInvalidImages() throws IOException {
        byte[] b = fixture("increment.cubin");
        for (int length : new int[] {63, 64, 100, 1000, b.length / 2, b.length - 1}) {
            byte[] cut = java.util.Arrays.copyOf(b, length);
            DeviceException e = assertThrows(DeviceException.class, () -> CubinImage.read(cut, "cut.cubin"),
                    "length " + length);
            assertEquals(CudaError.INVALID_IMAGE, e.error(), e.getMessage());
            assertTrue(e.getMessage().startsWith("cubin cut.cubin "), e.getMessage());
        }
    }

    /**
     * Random bit flips and truncations never raise anything but a DeviceException: either the image still reads
     * (a flip in machine code), or INVALID_IMAGE says what is wrong.
     */
    @Test
    void garbledCubinsFailOnlyWithDeviceExceptions() throws IOException {
        long seed = 0x5eed_c0b1L;
        Random random = new Random(seed);
        byte[] original = fixture("increment.cubin");
        int shoff = (original[0x28] & 0xff) | (original[0x29] & 0xff) << 8 | (original[0x2a] & 0xff) << 16;
        int invalid = 0;
        for (int round = 0; round < 3000; round++) {
            byte[] b = original.clone();
            int flips = 1 + random.nextInt(4);
            for (int i = 0; i < flips; i++) {
                // Flips go into the ELF header, the symbols and .nv.info sections (in the first 0xf00 bytes) and
                // the section header table, where they change what is read.
                int at = random.nextInt(4) == 0 ? shoff + random.nextInt(b.length - shoff)
                        : random.nextInt(0xf00);
                b[at] ^= (byte) (1 << random.nextInt(8));
            }
            if (random.nextInt(5) == 0) {
                b = java.util.Arrays.copyOf(b, random.nextInt(b.length));
            }
            try {
                CubinImage.read(b, "garbled.cubin");
            } catch (DeviceException e) {
                assertEquals(CudaError.INVALID_IMAGE, e.error(), "seed " + seed + ", round " + round);
                invalid++;
            } catch (RuntimeException e) {
                fail("seed " + seed + ", round " + round + ": " + e, e);
            }
        }
        assertTrue(invalid > 100, "only " + invalid + " of 3000 garbled images were refused (seed " + seed + ")");
    }

    /** nvcc where installed: the fixtures rebuilt from increment.cu read the same as the ones checked in. */
    @Test
    void rebuiltFixturesReadTheSame(@TempDir Path dir) throws Exception {
        Path nvcc = NvccTool.require();
        Files.write(dir.resolve("increment.cu"), fixture("increment.cu"));
        for (String arch : List.of("sm_75", "sm_80", "sm_90")) {
            Process p = new ProcessBuilder(nvcc.toString(), "-cubin", "-arch=" + arch, "-o", arch + ".cubin",
                    "increment.cu").directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish");
            assertEquals(0, p.exitValue(), out);
            CubinImage cubin = CubinImage.read(Files.readAllBytes(dir.resolve(arch + ".cubin")), arch + ".cubin");
            assertEquals(Integer.parseInt(arch.substring(3)), cubin.sm(), arch);
            assertEquals(EXPECTED, byName(cubin.kernels()), arch);
        }
    }

    private static void assertInvalid(byte[] image, String expected) {
        DeviceException e = assertThrows(DeviceException.class, () -> CubinImage.read(image, "k.cubin"));
        assertEquals(CudaError.INVALID_IMAGE, e.error());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().startsWith("cubin k.cubin "), e.getMessage());
    }

    static void putU32(byte[] b, int at, long v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
