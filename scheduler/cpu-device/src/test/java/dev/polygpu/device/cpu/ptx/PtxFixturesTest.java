package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.cpu.kernel.KernelTestSupport;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cuda.NvccTool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Regenerates the committed PTX fixtures with the installed nvcc (the commands of {@code ptx/README.md}) and
 * checks that the result still loads and runs, so a newer nvcc that emits an instruction the interpreter does
 * not support shows up here. Skipped, saying why, without nvcc.
 */
class PtxFixturesTest {

    @ParameterizedTest
    @CsvSource({"kernels.cu, sm_75, kernels_sm75.ptx", "kernels.cu, sm_90, kernels_sm90.ptx",
            "cxx.cu, sm_75, cxx_sm75.ptx", "readonly.cu, sm_75, readonly_sm75.ptx",
            "intops.cu, sm_75, intops_sm75.ptx", "printf.cu, sm_75, printf_sm75.ptx",
            "warp.cu, sm_90, warp_sm90.ptx"})
    void regeneratedFixtureLoadsAndKeepsItsKernels(String source, String arch, String fixture, @TempDir Path dir)
            throws Exception {
        Path nvcc = NvccTool.require();
        Files.write(dir.resolve(source), PtxTestSupport.resource(source));
        Process p = new ProcessBuilder(nvcc.toString(), "-ptx", "-arch=" + arch, "-o", "out.ptx", source)
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish in 2 minutes");
        assertEquals(0, p.exitValue(), log);
        byte[] fresh = Files.readAllBytes(dir.resolve("out.ptx"));
        try (CpuDevice device = new CpuDevice(2)) {
            Module regenerated = device.load(fresh, fixture + " (regenerated)");
            Module committed = device.load(PtxTestSupport.resource(fixture), fixture);
            List<String> names = entries(committed);
            assertEquals(names, entries(regenerated), "the regenerated PTX has other kernels than " + fixture);
            if (source.equals("kernels.cu")) {
                float[] x = {1, 2, 3, 4, 5};
                UnifiedBuffer y = floats(device, new float[] {10, 20, 30, 40, 50});
                launch(regenerated, "saxpy", 1, 32, KernelArgs.builder().pointer(y).pointer(floats(device, x))
                        .f32(3f).i32(5).build());
                assertEquals(List.of(13f, 26f, 39f, 52f, 65f), boxed(readFloats(y, 5)));
            }
        }
    }

    /** PTX with line information (-lineinfo) or full debug information (-G) loads and computes the same. */
    @ParameterizedTest
    @CsvSource({"-lineinfo", "-G"})
    void debugInformationIsSkipped(String flag, @TempDir Path dir) throws Exception {
        Path nvcc = NvccTool.require();
        Files.write(dir.resolve("kernels.cu"), PtxTestSupport.resource("kernels.cu"));
        Process p = new ProcessBuilder(nvcc.toString(), "-ptx", "-arch=sm_75", flag, "-o", "out.ptx", "kernels.cu")
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish in 2 minutes");
        assertEquals(0, p.exitValue(), log);
        try (CpuDevice device = new CpuDevice(2)) {
            Module m = device.load(Files.readAllBytes(dir.resolve("out.ptx")), "kernels" + flag + ".ptx");
            int n = 300;
            int[] in = new int[n];
            for (int i = 0; i < n; i++) {
                in[i] = i - 100;
            }
            UnifiedBuffer out = device.allocate(4L * 2);
            launch(m, "block_sum", 2, 256, KernelArgs.builder().pointer(KernelTestSupport.ints(device, in))
                    .pointer(out).i32(n).build());
            int first = 0;
            int second = 0;
            for (int i = 0; i < n; i++) {
                if (i < 256) {
                    first += in[i];
                } else {
                    second += in[i];
                }
            }
            assertEquals(List.of(first, second), java.util.Arrays.stream(KernelTestSupport.readInts(out, 2)).boxed()
                    .toList());
            float[] x = {0.5f, 1f, 2f, 4f};
            UnifiedBuffer r = device.allocate(4L * 5 * 4);
            launch(m, "math_f", 1, 32, KernelArgs.builder().pointer(floats(device, x)).pointer(r).i32(4).build());
            float[] got = readFloats(r, 20);
            for (int i = 0; i < 4; i++) {
                assertEquals((float) Math.sqrt(x[i]), got[5 * i]);
                assertTrue(KernelTestSupport.ulpsFloat((float) Math.sin(x[i]), got[5 * i + 2]) <= 2, "sinf " + x[i]);
            }
        }
    }

    @Test
    void committedFixturesNameTheirTarget() {
        assertTrue(PtxTestSupport.text("kernels_sm75.ptx").contains(".target sm_75"));
        assertTrue(PtxTestSupport.text("kernels_sm90.ptx").contains(".target sm_90"));
    }

    private static List<String> entries(Module m) {
        return m.intermediateCode().lines().filter(l -> l.startsWith(".visible .entry"))
                .map(l -> l.substring(".visible .entry ".length(), l.indexOf('('))).toList();
    }

    private static List<Float> boxed(float[] v) {
        List<Float> out = new java.util.ArrayList<>();
        for (float f : v) {
            out.add(f);
        }
        return out;
    }
}
