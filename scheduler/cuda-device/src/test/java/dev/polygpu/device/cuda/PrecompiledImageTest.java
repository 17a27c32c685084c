package dev.polygpu.device.cuda;

import static dev.polygpu.device.cuda.CubinImageTest.EXPECTED;
import static dev.polygpu.device.cuda.CubinImageTest.byName;
import static dev.polygpu.device.cuda.CubinImageTest.fixture;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.CxxNames;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Precompiled images without a GPU: which kind bytes are, the PTX, cubin and fatbinary fixtures of {@code
 * bindkernel/increment.cu}, kernel lookup by C and C++ names, and every refusal's code and message.
 */
class PrecompiledImageTest {

    private static DeviceException refused(CudaError code, Executable what) {
        DeviceException e = assertThrows(DeviceException.class, what);
        assertEquals(code, e.error(), e.getMessage());
        return e;
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void ptxIsReadWithItsTargetKernelsAndNamedParameters() throws IOException {
        byte[] bytes = fixture("increment.ptx");
        PrecompiledImage ptx = PrecompiledImage.read(bytes, "increment.ptx");
        assertEquals(PrecompiledImage.Kind.PTX, ptx.kind());
        assertEquals("PTX for sm_75", ptx.describe()); // nvcc -ptx -arch=compute_75
        assertEquals(new String(bytes, StandardCharsets.UTF_8), ptx.ptx());
        byte[] driver = ptx.driverImage();
        assertEquals(bytes.length + 1, driver.length);
        assertEquals(0, driver[bytes.length], "the driver reads PTX up to a NUL");
        assertArrayEquals(bytes, Arrays.copyOf(driver, bytes.length));
        // Sizes as for the cubin (same C declarations); the PTX adds names and types: char .u8, short .u16,
        // int .u32, float .f32, double .f64, pointers .u64, and the 12-byte struct as bytes aligned to its int.
        assertEquals(EXPECTED.keySet(), byName(ptx.kernels()).keySet());
        assertEquals(List.of(new ImageParam("c_inc_param_0", 8, 8, ".u64"), new ImageParam("c_inc_param_1", 4, 4,
                ".u32")), ptx.kernel("c_inc").params());
        assertEquals(List.of(".u64", ".f32", ".u32"), declared(ptx.kernel("scale<float>").params()));
        assertEquals(List.of(".u64", ".u32", ".u32"), declared(ptx.kernel("scale<int>").params()));
        List<ImageParam> mixed = ptx.kernel("mixed").params();
        assertEquals(List.of(".u8", ".u16", ".u32", ".f64", ".u64", ".align 4 .b8[12]", ".u64"), declared(mixed));
        for (int i = 0; i < mixed.size(); i++) {
            ImageParam fromCubin = EXPECTED.get("mixed").get(i);
            assertEquals(fromCubin.bytes(), mixed.get(i).bytes(), "parameter " + i);
            assertEquals(fromCubin.align(), mixed.get(i).align(), "parameter " + i);
            assertEquals("mixed_param_" + i, mixed.get(i).name());
        }
    }

    private static List<String> declared(List<ImageParam> params) {
        return params.stream().map(ImageParam::declaredAs).toList();
    }

    @Test
    void ptxEndingWithANulIsHandedOverAsIs() {
        byte[] bytes = text(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n\0");
        PrecompiledImage ptx = PrecompiledImage.read(bytes, "k.ptx");
        assertArrayEquals(bytes, ptx.driverImage());
        assertEquals(List.of("k"), ptx.kernels().stream().map(ImageKernel::name).toList());
        assertTrue(ptx.ptx().endsWith("}\n"), "the text has no NUL");
    }

    @Test
    void cubinAndFatbinaryHaveNoIntermediateCode() throws IOException {
        PrecompiledImage cubin = PrecompiledImage.read(fixture("increment.cubin"), "increment.cubin");
        assertEquals(PrecompiledImage.Kind.CUBIN, cubin.kind());
        assertEquals("cubin for sm_75", cubin.describe());
        assertNull(cubin.ptx());
        assertEquals(EXPECTED, byName(cubin.kernels()));
        assertArrayEquals(fixture("increment.cubin"), cubin.driverImage());

        PrecompiledImage fat = PrecompiledImage.read(fixture("increment.fatbin"), "increment.fatbin");
        assertEquals(PrecompiledImage.Kind.FATBIN, fat.kind());
        // nvcc -fatbin -arch=sm_75: a cubin for sm_75 and PTX for compute_75, which nvcc compresses with zstd.
        assertEquals("fatbinary (sm_75 cubin, compute_75 PTX (zstd))", fat.describe());
        assertNull(fat.ptx());
        assertEquals(EXPECTED, byName(fat.kernels()));
    }

    @Test
    void kernelsAreFoundByCMangledAndCxxNames() throws IOException {
        for (String file : List.of("increment.cubin", "increment.ptx", "increment.fatbin")) {
            PrecompiledImage image = PrecompiledImage.read(fixture(file), file);
            assertEquals("c_inc", image.kernel("c_inc").name(), file);
            assertEquals("_ZN2aa2bb10inc_kernelEPii", image.kernel("aa::bb::inc_kernel").name(), file);
            assertEquals("_ZN2aa2bb10inc_kernelEPii", image.kernel("_ZN2aa2bb10inc_kernelEPii").name(), file);
            assertEquals("_Z5scaleIfEvPT_S0_i", image.kernel("scale<float>").name(), file);
            assertEquals("_Z5scaleIiEvPT_S0_i", image.kernel("scale< int >").name(), file);
            assertEquals(EXPECTED.get("mixed"), image.kernel("mixed").params().stream()
                    .map(p -> new ImageParam(null, p.bytes(), p.align(), p.bytes() + (p.bytes() == 1 ? " byte"
                            : " bytes"))).toList(), file);
        }
    }

    @Test
    void aMissingKernelListsTheImagesKernelsBySourceName() throws IOException {
        PrecompiledImage cubin = PrecompiledImage.read(fixture("increment.cubin"), "increment.cubin");
        String missing = refused(CudaError.NOT_FOUND, () -> cubin.kernel("dec")).getMessage();
        assertTrue(missing.startsWith("cubin increment.cubin has no kernel 'dec'; it has "), missing);
        // In the image's order, which for a cubin is the symbol table's.
        for (String kernel : List.of("c_inc", "aa::bb::inc_kernel (_ZN2aa2bb10inc_kernelEPii)",
                "scale<float> (_Z5scaleIfEvPT_S0_i)", "scale<int> (_Z5scaleIiEvPT_S0_i)", "mixed")) {
            assertTrue(missing.contains(kernel), missing);
        }

        String template = refused(CudaError.NOT_FOUND, () -> cubin.kernel("scale<double>")).getMessage();
        assertTrue(template.contains("has no kernel 'scale<double>'; it does not contain that instantiation"),
                template);
        assertTrue(template.contains("template __global__ void scale<double>(…);"), template);
        // A namespace the kernel is not in is not found either (no recompilation, no guessing).
        refused(CudaError.NOT_FOUND, () -> cubin.kernel("bb::inc_kernel"));
        refused(CudaError.NOT_FOUND, () -> cubin.kernel("inc_kernel"));
    }

    @Test
    void overloadsAreNamedByTheLookup() {
        String ptx = ".version 8.0\n.target sm_75\n.address_size 64\n"
                + ".visible .entry _Z1kPi(.param .u64 a)\n{\nret;\n}\n"
                + ".visible .entry _Z1kPf(.param .u64 a)\n{\nret;\n}\n";
        PrecompiledImage image = PrecompiledImage.read(text(ptx), "over.ptx");
        String several = refused(CudaError.NOT_FOUND, () -> image.kernel("k")).getMessage();
        assertTrue(several.contains("several kernels named 'k'"), several);
        assertEquals("_Z1kPf", image.kernel("_Z1kPf").name());
    }

    @Test
    void whatIsNoImageIsSaidWithWhatItLookedLike() {
        String cuda = refused(CudaError.INVALID_IMAGE, () -> PrecompiledImage.read(text(
                "\n__global__ void inc(int *a) { a[0]++; }\n"), "inc.cu")).getMessage();
        assertTrue(cuda.startsWith("inc.cu starts with '__global__ void inc(int *a) { a[0]++; }' — this is CUDA C"
                + " source: use buildkernel"), cuda);
        String include = refused(CudaError.INVALID_IMAGE, () -> PrecompiledImage.read(text(
                "#include <cstdio>\nextern \"C\" __global__ void k() {}\n"), "k.cu")).getMessage();
        assertTrue(include.contains("this is CUDA C source"), include);
        String zip = refused(CudaError.INVALID_IMAGE, () -> PrecompiledImage.read(new byte[] {0x50, 0x4b, 3, 4,
                20, 0, 0, 0, 8, 0}, "k.zip")).getMessage();
        assertTrue(zip.startsWith("k.zip starts with bytes 50 4b 03 04 14 00 00 00, which is not PTX"), zip);
        String prose = refused(CudaError.INVALID_IMAGE, () -> PrecompiledImage.read(text("hello, kernels\n"),
                "notes.txt")).getMessage();
        assertTrue(prose.startsWith("notes.txt starts with 'hello, kernels', which is not PTX (text starting with"
                + " .version"), prose);
        String empty = refused(CudaError.INVALID_IMAGE, () -> PrecompiledImage.read(new byte[0], "e.ptx"))
                .getMessage();
        assertTrue(empty.startsWith("e.ptx is empty"), empty);
        refused(CudaError.INVALID_VALUE, () -> PrecompiledImage.read(null, "n.ptx"));
        String noVersion = refused(CudaError.INVALID_PTX, () -> PrecompiledImage.read(text(
                ".target sm_75\n.visible .entry k()\n{\nret;\n}\n"), "nov.ptx")).getMessage();
        assertTrue(noVersion.contains("nov.ptx looks like PTX but does not start with a .version directive"),
                noVersion);
        String noTarget = refused(CudaError.INVALID_PTX, () -> PrecompiledImage.read(text(
                "// generated\n.version 8.0\n.address_size 64\n"), "not.ptx")).getMessage();
        assertTrue(noTarget.contains("PTX not.ptx has no .target directive"), noTarget);
        String badParam = refused(CudaError.INVALID_PTX, () -> PrecompiledImage.read(text(
                ".version 8.0\n.target sm_75\n.visible .entry k(.param .u64 a, junk)\n{\nret;\n}\n"), "bad.ptx"))
                .getMessage();
        assertTrue(badParam.startsWith("PTX bad.ptx: cannot read parameter 'junk' of PTX entry 'k'"), badParam);
        String hostElf = refused(CudaError.INVALID_IMAGE, () -> {
            byte[] b = fixture("increment.cubin");
            b[18] = 62;
            b[19] = 0;
            PrecompiledImage.read(b, "k.o");
        }).getMessage();
        assertTrue(hostElf.startsWith("k.o is an ELF file for machine 62 (x86-64), not a cubin"), hostElf);
    }

    @Test
    void architecturesAreCheckedAgainstTheDevice() throws IOException {
        String t4 = "CUDA device 0 (Tesla T4)";
        PrecompiledImage sm90 = PrecompiledImage.read(fixture("increment_sm90.cubin"), "increment_sm90.cubin");
        sm90.checkRunsOn(9, 0, "H100");
        String newer = refused(CudaError.NO_BINARY_FOR_GPU, () -> sm90.checkRunsOn(7, 5, t4)).getMessage();
        assertTrue(newer.startsWith("cubin increment_sm90.cubin is machine code for sm_90, which CUDA device 0"
                + " (Tesla T4) (compute capability 7.5, sm_75) cannot run"), newer);
        assertTrue(newer.contains("nvcc -cubin -arch=sm_75"), newer);
        // A cubin does not run on a later major architecture either, nor on an earlier minor version.
        refused(CudaError.NO_BINARY_FOR_GPU, () -> sm90.checkRunsOn(10, 0, "B200"));
        PrecompiledImage sm75 = PrecompiledImage.read(fixture("increment.cubin"), "increment.cubin");
        sm75.checkRunsOn(7, 5, t4);
        refused(CudaError.NO_BINARY_FOR_GPU, () -> sm75.checkRunsOn(7, 0, "V100"));
        refused(CudaError.NO_BINARY_FOR_GPU, () -> sm75.checkRunsOn(8, 0, "A100"));

        // PTX runs on its target and every later architecture, which the driver compiles it for.
        PrecompiledImage ptx = PrecompiledImage.read(fixture("increment.ptx"), "increment.ptx");
        ptx.checkRunsOn(7, 5, t4);
        ptx.checkRunsOn(9, 0, "H100");
        ptx.checkRunsOn(12, 0, "RTX 5090");
        String older = refused(CudaError.NO_BINARY_FOR_GPU, () -> ptx.checkRunsOn(7, 0, "V100")).detail();
        assertEquals("PTX increment.ptx targets sm_75, which is newer than V100 (compute capability 7.0, sm_70);"
                + " rebuild it with nvcc -ptx -arch=compute_70 (or older)", older);
        PrecompiledImage exact = PrecompiledImage.read(text(".version 8.0\n.target sm_90a\n.address_size 64\n"),
                "a.ptx");
        exact.checkRunsOn(9, 0, "H100");
        String notExact = refused(CudaError.NO_BINARY_FOR_GPU, () -> exact.checkRunsOn(10, 0, "B200"))
                .getMessage();
        assertTrue(notExact.contains("targets sm_90a, code for exactly that architecture, which B200"), notExact);
        PrecompiledImage family = PrecompiledImage.read(text(".version 8.8\n.target sm_100f\n.address_size 64\n"),
                "f.ptx");
        family.checkRunsOn(10, 3, "B300");
        refused(CudaError.NO_BINARY_FOR_GPU, () -> family.checkRunsOn(12, 0, "RTX 5090"));

        PrecompiledImage fat = PrecompiledImage.read(fixture("increment.fatbin"), "increment.fatbin");
        fat.checkRunsOn(7, 5, t4);
        fat.checkRunsOn(9, 0, "H100"); // through its compute_75 PTX
        String fatOlder = refused(CudaError.NO_BINARY_FOR_GPU, () -> fat.checkRunsOn(7, 0, "V100")).getMessage();
        assertTrue(fatOlder.startsWith("fatbinary increment.fatbin holds sm_75 cubin, compute_75 PTX (zstd),"
                + " none of which V100"), fatOlder);
    }

    @Test
    void compressedFatbinariesListTheKernelsOfTheirDecompressedEntries() throws IOException {
        // Every entry compressed (zstd or LZ4): the kernels come from the decompressed cubin, exactly.
        for (String name : List.of("increment_all.fatbin", "increment_speed.fatbin", "increment_sm75only.fatbin")) {
            PrecompiledImage fat = PrecompiledImage.read(fixture(name), name);
            assertEquals(EXPECTED, byName(fat.kernels()), name);
            fat.checkRunsOn(7, 5, "T4");
            assertArrayEquals(fixture(name), fat.driverImage(), "the driver gets the fatbinary as it is");
        }
        // PTX only (what nvcc -fatbin -arch=compute_75 writes, compressed by default): the kernels of the newest
        // PTX, with the parameter names and types PTX declares.
        PrecompiledImage ptx = PrecompiledImage.read(fixture("increment_multi.fatbin"), "multi.fatbin");
        assertEquals("fatbinary (compute_75 PTX (zstd), compute_90 PTX (zstd))", ptx.describe());
        assertEquals(List.of(new ImageParam("c_inc_param_0", 8, 8, ".u64"), new ImageParam("c_inc_param_1", 4, 4,
                ".u32")), ptx.kernel("c_inc").params());
        assertEquals(EXPECTED.keySet(), byName(ptx.kernels()).keySet());
        ptx.checkRunsOn(7, 5, "T4");
    }

    @Test
    void aFatbinaryOfUnreadableEntriesOnlyCannotListItsKernels() throws IOException {
        byte[] b = fixture("increment.fatbin");
        // Set both compression flags (0x2000 LZ4, 0x8000 zstd) on both entries: a method polygpu does not know.
        int entry = 16;
        while (entry < b.length) {
            b[entry + 41] |= (byte) 0xa0;
            entry += u32(b, entry + 4) + u32(b, entry + 8); // header, then stored payload
        }
        PrecompiledImage fat = PrecompiledImage.read(b, "packed.fatbin");
        assertEquals("fatbinary (sm_75 cubin (compressed by an unknown method), compute_75 PTX (compressed by an"
                + " unknown method))", fat.describe());
        String e = refused(CudaError.NOT_SUPPORTED, () -> fat.checkRunsOn(7, 5, "T4")).detail();
        assertEquals("fatbinary packed.fatbin holds no entry whose kernels polygpu can list (its sm_75 cubin entry"
                + " has both compression flags set (flags 0xa011; 0x2000 is LZ4, 0x8000 zstd), a format polygpu"
                + " does not know; its compute_75 PTX entry has both compression flags set (flags 0xa011; 0x2000 is"
                + " LZ4, 0x8000 zstd), a format polygpu does not know); rebuild it with nvcc -fatbin (any"
                + " -compress-mode nvcc 13 offers), or load the .cubin or .ptx instead", e);
    }

    private static int u32(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    @Test
    void garbledFatbinariesFailOnlyWithDeviceExceptions() throws IOException {
        long seed = 0xfa7b1aL;
        Random random = new Random(seed);
        byte[] original = fixture("increment.fatbin");
        for (int round = 0; round < 2000; round++) {
            byte[] b = original.clone();
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                int at = random.nextInt(4) == 0 ? random.nextInt(b.length) : random.nextInt(0x50 + 0xf00);
                b[at] ^= (byte) (1 << random.nextInt(8));
            }
            if (random.nextInt(4) == 0) {
                b = Arrays.copyOf(b, 4 + random.nextInt(b.length - 4));
            }
            try {
                PrecompiledImage.read(b, "garbled.fatbin").checkRunsOn(7, 5, "T4");
            } catch (DeviceException e) {
                assertTrue(e.getMessage().contains("garbled.fatbin"), "seed " + seed + ", round " + round + ": "
                        + e.getMessage());
            } catch (RuntimeException e) {
                fail("seed " + seed + ", round " + round + ": " + e, e);
            }
        }
    }

    @Test
    void garbledPtxFailsOnlyWithDeviceExceptions() throws IOException {
        long seed = 0x9e7a1L;
        Random random = new Random(seed);
        byte[] original = fixture("increment.ptx");
        String alphabet = "().,[]; \n0123456789_.alignparamentrytargetsm_b8u64f32";
        for (int round = 0; round < 2000; round++) {
            byte[] b = original.clone();
            for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
                b[random.nextInt(b.length)] = (byte) alphabet.charAt(random.nextInt(alphabet.length()));
            }
            if (random.nextInt(4) == 0) {
                b = Arrays.copyOf(b, random.nextInt(b.length));
            }
            try {
                PrecompiledImage image = PrecompiledImage.read(b, "garbled.ptx");
                image.checkRunsOn(9, 0, "H100");
                for (ImageKernel k : image.kernels()) {
                    assertTrue(k.params().stream().allMatch(p -> p.bytes() > 0), k.toString());
                }
            } catch (DeviceException e) {
                assertTrue(e.getMessage().contains("garbled.ptx"), "seed " + seed + ", round " + round + ": "
                        + e.getMessage());
            } catch (RuntimeException e) {
                fail("seed " + seed + ", round " + round + ": " + e, e);
            }
        }
    }

    @Test
    void demangledNamesForMessages() {
        assertEquals("aa::bb::inc_kernel", CxxNames.demangledName("_ZN2aa2bb10inc_kernelEPii"));
        assertEquals("scale<float>", CxxNames.demangledName("_Z5scaleIfEvPT_S0_i"));
        assertEquals("k<unsigned int, 4>", CxxNames.demangledName("_Z1kIjLi4EEvPT_"));
        assertEquals("k<const float*, true>", CxxNames.demangledName("_Z1kIPKfLb1EEvv"));
        assertEquals("square", CxxNames.demangledName("_Z6squarePfi"));
        assertNull(CxxNames.demangledName("c_inc"));
        assertNull(CxxNames.demangledName("_Z1kISt6vectorIiEEvv")); // std:: abbreviations are not read
        assertNull(CxxNames.demangledName("_Z999"));
        // What CxxNames mangles, it reads back.
        for (String name : List.of("ns::k", "k<float, 4>", "a::b::c<double, -3>", "k<unsigned long long, 7ull>")) {
            String prefix = CxxNames.mangledPrefix(name);
            assertEquals(name, CxxNames.demangledName(prefix + "v"), prefix);
        }
    }
}
