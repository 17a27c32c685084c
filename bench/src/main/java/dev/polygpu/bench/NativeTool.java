package dev.polygpu.bench;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A native side of {@code bench/run}: the cases as C loops with OpenMP ({@code bench/native/cloops.c}), or their
 * kernels in OpenCL C on pocl ({@code bench/native/oclhost.c} and {@code opencl/*.cl}). {@link #prepare} builds
 * the program with gcc into the build folder and says why the tool is not there if it cannot (no gcc, no OpenCL
 * headers or ICD loader, no pocl platform); {@link #start} runs it on one case's inputs as a
 * {@link NativeSession}, with its thread count set through the environment.
 */
final class NativeTool {

    /** Which native side. */
    enum Kind {
        /** {@code gcc -O3 -march=native -fopenmp}, OMP_NUM_THREADS threads. */
        C("C", "cloops"),
        /** pocl's CPU device through the OpenCL ICD loader, POCL_MAX_PTHREAD_COUNT threads. */
        POCL("pocl", "oclhost");

        final String label;
        final String program;

        Kind(String label, String program) {
            this.label = label;
            this.program = program;
        }
    }

    private static final long BUILD_TIMEOUT_S = 120;

    private final Kind kind;
    private final Path sourceDir;
    private final Path binary;
    private final String unavailable;

    private NativeTool(Kind kind, Path sourceDir, Path binary, String unavailable) {
        this.kind = kind;
        this.sourceDir = sourceDir;
        this.binary = binary;
        this.unavailable = unavailable;
    }

    /** {@code bench/native}, found from where this class was loaded ({@code bench/target/classes}). */
    static Path defaultSourceDir() {
        try {
            Path classes = Path.of(NativeTool.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.getParent().getParent().resolve("native");
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot tell where the bench's classes were loaded from", e);
        }
    }

    /** {@code bench/target/native}, beside this module's classes. */
    static Path defaultBuildDir() {
        return defaultSourceDir().getParent().resolve("target").resolve("native");
    }

    /**
     * Builds {@code kind}'s program with {@code gcc} (a command name or path) from {@code sourceDir} into
     * {@code buildDir}; for pocl also checks that the ICD loader finds a pocl CPU device. Never throws for a
     * missing tool: the result is then {@linkplain #available() unavailable}, with the reason.
     */
    static NativeTool prepare(Kind kind, Path sourceDir, Path buildDir, String gcc) {
        Path source = sourceDir.resolve(kind.program + ".c");
        Path binary = buildDir.resolve(kind.program);
        if (!Files.isRegularFile(source)) {
            return new NativeTool(kind, sourceDir, binary, "source " + source + " not found");
        }
        List<String> cmd = new ArrayList<>(List.of(gcc));
        cmd.addAll(kind == Kind.C
                ? List.of("-O3", "-march=native", "-fopenmp", "-ffp-contract=off")
                : List.of("-O2"));
        cmd.addAll(List.of("-o", binary.toString(), source.toString()));
        cmd.addAll(kind == Kind.C ? List.of("-lm") : List.of("-lOpenCL", "-lm"));
        try {
            Files.createDirectories(buildDir);
        } catch (IOException e) {
            return new NativeTool(kind, sourceDir, binary, "cannot create " + buildDir + ": " + e.getMessage());
        }
        String failure = runQuietly(cmd, Map.of(), "gcc");
        if (failure == null && kind == Kind.POCL) {
            failure = runQuietly(List.of(binary.toString(), "probe"), Map.of(), "pocl probe");
        }
        return new NativeTool(kind, sourceDir, binary, failure);
    }

    /** Runs {@code cmd} to completion; null if it exited with 0, otherwise why not, in one line. */
    private static String runQuietly(List<String> cmd, Map<String, String> env, String what) {
        Process p;
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().putAll(env);
            p = pb.start();
        } catch (IOException e) {
            return cmd.getFirst() + " not found (" + e.getMessage() + ")";
        }
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(BUILD_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return what + " did not finish in " + BUILD_TIMEOUT_S + " s";
            }
            if (p.exitValue() == 0) {
                return null;
            }
            String first = output.lines().filter(l -> !l.isBlank()).findFirst().orElse("no output");
            return what + " failed (exit " + p.exitValue() + "): " + first.strip();
        } catch (IOException e) {
            p.destroyForcibly();
            return what + ": " + e.getMessage();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return what + " interrupted";
        }
    }

    Kind kind() {
        return kind;
    }

    String label() {
        return kind.label;
    }

    boolean available() {
        return unavailable == null;
    }

    /** Why the tool is not there; null if it is. */
    String unavailableReason() {
        return unavailable;
    }

    /** How the tool runs with {@code threads} threads, for the report. */
    String describe(int threads) {
        return kind == Kind.C
                ? "gcc -O3 -march=native -fopenmp -ffp-contract=off, OMP_NUM_THREADS=" + threads
                : "pocl's CPU device through the OpenCL ICD loader, POCL_MAX_PTHREAD_COUNT=" + threads
                        + " (and POCL_CPU_MAX_CU_COUNT, its newer name)";
    }

    /**
     * Starts the program on case {@code c} with the inputs in {@code inputs} (written by the caller from
     * {@link NativeCase#nativeInputs()}), on {@code threads} threads; {@code work} holds its output files.
     */
    NativeSession start(NativeCase c, Path inputs, int threads, Path work) throws IOException {
        if (!available()) {
            throw new IllegalStateException(kind.label + " is not installed: " + unavailable);
        }
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), c.nativeCase(), inputs.toString()));
        Map<String, String> env;
        if (kind == Kind.C) {
            env = Map.of("OMP_NUM_THREADS", Integer.toString(threads), "OMP_DYNAMIC", "false");
        } else {
            cmd.add(sourceDir.resolve("opencl").resolve(c.nativeCase() + ".cl").toString());
            cmd.add(c.openClOptions());
            env = Map.of("POCL_MAX_PTHREAD_COUNT", Integer.toString(threads),
                    "POCL_CPU_MAX_CU_COUNT", Integer.toString(threads));
        }
        return NativeSession.start(kind.label, cmd, env, threads, work);
    }
}
