package dev.polygpu.device.cpu.oracle.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.oracle.OracleTests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated kernels are valid CUDA C: nvcc compiles a batch of them (all profiles' constructs, under their
 * case prefixes in one translation unit) without the warnings that point at undefined behaviour it can see
 * (integer overflow in constant expressions, negative or too large shift counts, variables used before set),
 * and the engine answers each with a module or a compile error, never another exception.
 */
@Timeout(300)
class GeneratedSourcesCompileTest {
    private static final long SEED = 777;
    /** nvcc diagnostics that mean undefined behaviour nvcc can see statically. */
    private static final List<String> UB_WARNINGS = List.of("#61-D", "#62-D", "#63-D", "#549-D",
            "integer operation result is out of range", "shift count is negative", "shift count is too large",
            "used before its value is set");

    private static List<String> sources(String spec, int n) {
        List<String> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add(KernelGenerator.generate(SEED, i, Profile.parse(spec)).toCase("c" + spec.length() + "_" + i + "_")
                    .source());
        }
        return out;
    }

    @Test
    void nvccCompilesABatchWithoutWarningsOfUndefinedBehaviour(@TempDir Path dir) throws Exception {
        OracleTests.assumeNvcc();
        List<String> all = new ArrayList<>(sources("default", 20));
        all.addAll(sources("all", 20));
        Path cu = dir.resolve("batch.cu");
        Files.writeString(cu, String.join("\n", all));
        Process p = new ProcessBuilder("nvcc", "-ptx", "-arch=sm_90", "-fmad=false", "-o",
                dir.resolve("batch.ptx").toString(), cu.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), "nvcc did not finish");
        assertEquals(0, p.exitValue(), "nvcc refused generated kernels (seed " + SEED + "):\n" + log);
        for (String w : UB_WARNINGS) {
            assertTrue(!log.contains(w), "nvcc warns '" + w + "' on generated kernels (seed " + SEED + "):\n" + log);
        }
    }

    @Test
    void theEngineAnswersEveryKernelWithAModuleOrACompileError() throws IOException {
        try (CpuDevice device = new CpuDevice(1)) {
            for (String spec : List.of("default", "all")) {
                List<String> srcs = sources(spec, 30);
                for (int i = 0; i < srcs.size(); i++) {
                    try {
                        device.compile(srcs.get(i), "gen.cu").close();
                    } catch (CompileException e) {
                        assertTrue(e.diagnostics().stream().allMatch(d -> d.line() > 0),
                                "compile error without a line, seed " + SEED + " index " + i + ": " + e.getMessage());
                    } catch (RuntimeException | Error e) {
                        fail("seed " + SEED + " index " + i + " profile " + spec + ": the engine threw " + e
                                + " instead of a compile error or a module", e);
                    }
                }
            }
        }
    }
}
