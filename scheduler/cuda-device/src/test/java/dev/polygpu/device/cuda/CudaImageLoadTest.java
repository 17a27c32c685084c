package dev.polygpu.device.cuda;

import static dev.polygpu.device.cuda.CubinImageTest.fixture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CudaDevice.load} on CUDA device 0: the PTX fixture, and cubins and a fatbinary that nvcc builds from
 * {@code increment.cu} for the device's own architecture, are loaded, their kernels found by C and C++ names,
 * launched, and their results checked. Skips, with the probe's reason, where no GPU can be used.
 */
@Tag("gpu")
class CudaImageLoadTest {
    private static final int N = 1000;
    private static CudaDevice device;

    @BeforeEach
    void open() {
        CudaProbe.Result probe = CudaProbe.result();
        assumeTrue(probe.usable(), () -> "no usable GPU: " + probe.reason());
        if (device == null) {
            device = CudaDevice.open(0);
        }
    }

    @AfterAll
    static void close() {
        if (device != null) {
            device.close();
        }
    }

    private static String arch() {
        return "" + device.properties().computeCapabilityMajor() + device.properties().computeCapabilityMinor();
    }

    /** Runs nvcc on increment.cu with {@code options}, returning the output file's bytes. */
    private static byte[] nvcc(Path dir, String output, String... options) throws Exception {
        Path nvcc = NvccTool.require();
        Files.write(dir.resolve("increment.cu"), fixture("increment.cu"));
        List<String> command = new java.util.ArrayList<>(List.of(nvcc.toString()));
        command.addAll(List.of(options));
        command.addAll(List.of("-o", output, "increment.cu"));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish");
        assertEquals(0, p.exitValue(), out);
        return Files.readAllBytes(dir.resolve(output));
    }

    /** Launches the image's kernels and checks what each computes. */
    private static void runsItsKernels(Module module) {
        Stream s = device.defaultStream();
        UnifiedBuffer a = device.allocate(4L * N);
        UnifiedBuffer f = device.allocate(4L * N);
        try {
            for (int i = 0; i < N; i++) {
                a.setInt(i, i * 7 - 300);
                f.setFloat(i, i * 0.5f);
            }
            KernelFunction cInc = module.function("c_inc");
            KernelFunction nsInc = module.function("aa::bb::inc_kernel");
            KernelFunction scaleInt = module.function("scale<int>");
            KernelFunction scaleFloat = module.function("scale<float>");
            LaunchConfig config = LaunchConfig.of((N + 127) / 128, 128);
            s.launch(cInc, config, KernelArgs.builder().pointer(a).i32(N).build()); // +1
            s.launch(nsInc, config, KernelArgs.builder().pointer(a).i32(N).build()); // +2
            s.launch(scaleInt, config, KernelArgs.builder().pointer(a).i32(-3).i32(N - 1).build());
            s.launch(scaleFloat, config, KernelArgs.builder().pointer(f).f32(4f).i32(N).build());
            s.synchronize();
            for (int i = 0; i < N; i++) {
                int incremented = i * 7 - 300 + 3;
                assertEquals(i < N - 1 ? incremented * -3 : incremented, a.getInt(i), "int element " + i);
                assertEquals(i * 2f, f.getFloat(i), "float element " + i);
            }
            assertEquals(List.of(), cInc.parameters());
            assertEquals(List.of(8, 4), cInc.imageParameters().stream().map(ImageParam::bytes).toList());
            // Sizes are checked against the image: a double where the kernel takes an int is refused.
            DeviceException wrong = assertThrows(DeviceException.class, () -> s.launch(cInc, config,
                    KernelArgs.builder().pointer(a).f64(1.0).build()));
            assertEquals(CudaError.INVALID_VALUE, wrong.error());
            assertTrue(wrong.getMessage().contains("argument 2 of kernel 'c_inc'"), wrong.getMessage());
        } finally {
            a.free();
            f.free();
        }
    }

    @Test
    void loadsThePtxFixture() throws Exception {
        try (Module m = device.load(fixture("increment.ptx"), "increment.ptx")) {
            assertTrue(m.intermediateCode().contains(".target sm_75"));
            runsItsKernels(m);
            assertEquals(List.of("c_inc_param_0", "c_inc_param_1"), m.function("c_inc").imageParameters().stream()
                    .map(ImageParam::name).toList());
        }
    }

    @Test
    void loadsACubinAndAFatbinaryBuiltForThisDevice(@TempDir Path dir) throws Exception {
        byte[] cubin = nvcc(dir, "k.cubin", "-cubin", "-arch=sm_" + arch());
        try (Module m = device.load(cubin, "k.cubin")) {
            assertNull(m.intermediateCode());
            runsItsKernels(m);
            DeviceException e = assertThrows(DeviceException.class, () -> m.function("scale<double>"));
            assertEquals(CudaError.NOT_FOUND, e.error());
            assertTrue(e.getMessage().contains("does not contain that instantiation"), e.getMessage());
        }
        byte[] fatbin = nvcc(dir, "k.fatbin", "-fatbin", "-arch=sm_" + arch());
        try (Module m = device.load(fatbin, "k.fatbin")) {
            assertNull(m.intermediateCode());
            runsItsKernels(m);
        }
    }

    @Test
    void loadsCompressedFatbinaries(@TempDir Path dir) throws Exception {
        // PTX only, zstd (nvcc's default): the kernels and their named parameters come from the decompressed PTX;
        // the driver decompresses and compiles it for the device.
        try (Module m = device.load(fixture("increment_ptx.fatbin"), "increment_ptx.fatbin")) {
            runsItsKernels(m);
            assertEquals(List.of("c_inc_param_0", "c_inc_param_1"), m.function("c_inc").imageParameters().stream()
                    .map(ImageParam::name).toList());
        }
        // Every entry compressed, with LZ4 and with zstd: the kernels come from the decompressed cubin.
        for (String mode : List.of("speed", "default")) {
            byte[] fatbin = nvcc(dir, mode + ".fatbin", "-fatbin", "-arch=sm_" + arch(), "-Xfatbin", "-compress-all",
                    "-compress-mode=" + mode);
            try (Module m = device.load(fatbin, mode + ".fatbin")) {
                runsItsKernels(m);
                assertEquals(2, m.function("c_inc").imageParameters().size(), mode);
            }
        }
    }

    @Test
    void aCubinForAnotherArchitectureIsRefusedBeforeTheDriver(@TempDir Path dir) throws Exception {
        String other = device.properties().computeCapabilityMajor() == 9 ? "sm_80" : "sm_90";
        byte[] cubin = nvcc(dir, "other.cubin", "-cubin", "-arch=" + other);
        DeviceException e = assertThrows(DeviceException.class, () -> device.load(cubin, "other.cubin"));
        assertEquals(CudaError.NO_BINARY_FOR_GPU, e.error());
        assertTrue(e.getMessage().contains("machine code for " + other) && e.getMessage().contains("sm_" + arch()),
                e.getMessage());
    }

    @Test
    void cudaCSourceIsNotAnImage() throws Exception {
        DeviceException e = assertThrows(DeviceException.class, () -> device.load(fixture("increment.cu"),
                "increment.cu"));
        assertEquals(CudaError.INVALID_IMAGE, e.error());
        assertTrue(e.getMessage().contains("this is CUDA C source: use buildkernel"), e.getMessage());
    }
}
