package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.NvccLocator;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** The CUDA toolkit's nvcc for tests that compile, found by {@link NvccLocator} as the devices find it. */
public final class NvccTool {
    private static final NvccLocator.Result FOUND = NvccLocator.locate(System.getenv());
    static final Path NVCC = FOUND.path();

    private NvccTool() {
    }

    /** True where nvcc is installed. */
    public static boolean installed() {
        return NVCC != null;
    }

    /**
     * nvcc's path; skips the test, saying why, where the toolkit is not installed, or fails it where
     * {@code POLYGPU_REQUIRE_NVCC=1} (CI, whose machines have the toolkit).
     */
    public static Path require() {
        if (NVCC == null && "1".equals(System.getenv("POLYGPU_REQUIRE_NVCC"))) {
            org.junit.jupiter.api.Assertions.fail("POLYGPU_REQUIRE_NVCC=1 but " + FOUND.problem());
        }
        Assumptions.assumeTrue(NVCC != null, () -> "this test compiles with the CUDA toolkit, and "
                + FOUND.problem());
        return NVCC;
    }

    /** PTX from running nvcc directly (not through the class under test) on {@code source}. */
    static String ptxOf(String source, String arch) throws IOException, InterruptedException {
        return ptxOf(source, arch, List.of());
    }

    /**
     * As {@link #ptxOf(String, String)}, with more nvcc options ({@code -fmad=false} for results that do not
     * depend on fused multiply-adds); skips the test where nvcc is not installed.
     */
    public static String ptxOf(String source, String arch, List<String> options)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("nvcc-tool-");
        try {
            Files.writeString(dir.resolve("t.cu"), source);
            List<String> command = new ArrayList<>(List.of(require().toString(), "-ptx", "-arch=" + arch));
            command.addAll(options);
            command.addAll(List.of("-o", "t.ptx", "t.cu"));
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(120, TimeUnit.SECONDS);
            assertEquals(0, p.exitValue(), out);
            return Files.readString(dir.resolve("t.ptx"));
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /**
     * A script that logs each {@code -ptx} run (its working folder, one line) to {@code log}, and can sleep first,
     * then runs the real nvcc.
     */
    static Path countingWrapper(Path dir, Path log, int sleepSeconds) throws IOException {
        Path script = dir.resolve("nvcc");
        String body = "#!/bin/sh\n"
                + "case \" $* \" in *\" -ptx \"*) pwd >> '" + log + "'; sleep " + sleepSeconds + ";; esac\n"
                + "exec '" + require() + "' \"$@\"\n";
        Files.writeString(script, body);
        script.toFile().setExecutable(true);
        return script;
    }

    /** Runs recorded in a wrapper's log. */
    static List<String> runs(Path log) throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /** A kernel source of the device conformance suite (DeviceConformanceTest.SAXPY, .MARK). */
    static String conformanceKernel(String field) throws ReflectiveOperationException {
        Class<?> c = Class.forName("dev.polygpu.device.cpu.DeviceConformanceTest");
        Field f = c.getDeclaredField(field);
        f.setAccessible(true);
        return (String) f.get(null);
    }
}
