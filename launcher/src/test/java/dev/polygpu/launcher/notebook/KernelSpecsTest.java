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
    void prefixPutsTheKernelsUnderShareJupyter() throws Exception {
        assertEquals(dir.resolve("share/jupyter/kernels"), KernelSpecs.location(false, false, dir));
    }

    @Test
    void twoLocationsAreAUsageError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KernelSpecs.location(true, false, Path.of("/x")));
        assertEquals("give one of --user, --sys-prefix and --prefix DIR, not two", e.getMessage());
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
