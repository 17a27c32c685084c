package dev.polygpu.launcher.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelSpecsTest {
    private static final KernelSpecs.Jvm JVM = new KernelSpecs.Jvm("/jdk/bin/java",
            List.of("-XX:+EnableJVMCI", "--upgrade-module-path=/p/jit"), "/p/a.jar:/p/classes");

    @TempDir
    Path dir;

    @Test
    void argvStartsTheKernelWithTheJvmItsLanguageAndOptions() {
        Map<String, Object> json = KernelSpecs.kernelJson(KernelSpecs.SPECS.get(1), JVM,
                Map.of("grcuda.ExecutionPolicy", "sync"));
        assertEquals(List.of("/jdk/bin/java", "-XX:+EnableJVMCI", "--upgrade-module-path=/p/jit", "-cp",
                "/p/a.jar:/p/classes", "dev.polygpu.launcher.Main", "notebook", "kernel", "--language=js",
                "--grcuda.ExecutionPolicy=sync", "{connection_file}"), json.get("argv"));
        assertEquals("javascript", json.get("language"));
        assertEquals("message", json.get("interrupt_mode"));
        assertEquals("polygpu (JavaScript)", json.get("display_name"));
    }

    @Test
    void prefixPutsTheKernelsUnderShareJupyterAndOptionsAreCollected() throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        Path kernels = KernelSpecs.location(List.of("--prefix", dir.toString(), "--grcuda.CpuBlocks=2"), options);
        assertEquals(dir.resolve("share/jupyter/kernels"), kernels);
        assertEquals(Map.of("grcuda.CpuBlocks", "2"), options);
        assertEquals(dir.resolve("share/jupyter/kernels"),
                KernelSpecs.location(List.of("--prefix=" + dir), new LinkedHashMap<>()));
    }

    @Test
    void badLocationsAreUsageErrors() {
        Map<String, String> options = new LinkedHashMap<>();
        assertThrows(NotebookCommand.UsageException.class, () -> KernelSpecs.location(List.of("--prefix"), options));
        assertThrows(NotebookCommand.UsageException.class,
                () -> KernelSpecs.location(List.of("--user", "--prefix", "/x"), options));
        assertThrows(NotebookCommand.UsageException.class, () -> KernelSpecs.location(List.of("--everywhere"),
                options));
    }

    @Test
    void installWritesBothSpecsAndUninstallRemovesThem() throws Exception {
        Path kernels = dir.resolve("kernels");
        List<Path> written = KernelSpecs.install(kernels, JVM, Map.of());
        assertEquals(List.of(kernels.resolve("polygpu-python"), kernels.resolve("polygpu-js")), written);
        String python = Files.readString(kernels.resolve("polygpu-python/kernel.json"));
        assertTrue(python.contains("\"--language=python\"") && python.contains("\"{connection_file}\""), python);
        Files.writeString(kernels.resolve("other.txt"), "not ours");
        assertEquals(written, KernelSpecs.uninstall(kernels));
        assertFalse(Files.exists(kernels.resolve("polygpu-python")));
        assertFalse(Files.exists(kernels.resolve("polygpu-js")));
        assertTrue(Files.exists(kernels.resolve("other.txt")), "uninstall removes only polygpu's kernelspecs");
        assertEquals(List.of(), KernelSpecs.uninstall(kernels));
    }
}
