package dev.polygpu.device;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the CUDA toolkit's {@code nvcc}, the one search that the CUDA device's compiler, the CPU device's
 * differential oracle and the tests that compile all use. Candidates, in order: {@code $POLYGPU_NVCC}, every
 * {@code nvcc} on the {@code PATH}, {@code $CUDA_HOME/bin/nvcc}, then fixed places (by default
 * {@link #DEFAULT_PLACES}). The first that is an executable file and that the caller's {@link Probe} accepts is
 * used; otherwise the result lists what was tried, one note per source, in the order searched.
 *
 * <p>Stateless and thread-safe; it reads only the environment map it is given, so tests pass a fake one.
 */
public final class NvccLocator {
    /** Where nvcc is looked for after the environment: the CUDA toolkit's default install folder. */
    public static final List<Path> DEFAULT_PLACES = List.of(Path.of("/usr/local/cuda/bin/nvcc"));

    /** What is said after the list of what was tried, when no nvcc was found. */
    public static final String ADVICE = "Install the CUDA toolkit, or set POLYGPU_NVCC to the path of nvcc.";

    private NvccLocator() {
    }

    /** A caller's check of an executable candidate (runs {@code nvcc --version}, say). */
    @FunctionalInterface
    public interface Probe {
        /** Null when {@code nvcc} is usable, else a note saying why not, naming the file. */
        String problem(Path nvcc);
    }

    /**
     * The outcome of a search: the nvcc found ({@code path} null when none), and the notes on each candidate
     * passed over before it (all of them when none was found).
     */
    public record Result(Path path, List<String> tried) {
        public Result {
            tried = List.copyOf(tried);
        }

        /** Whether an nvcc was found. */
        public boolean found() {
            return path != null;
        }

        /**
         * Null when found, else the sentence to show a user: {@code no working nvcc. Tried: …; …. Install …}.
         */
        public String problem() {
            return found() ? null : "no working nvcc. Tried: " + String.join("; ", tried) + ". " + ADVICE;
        }
    }

    /** Searches {@code env} and {@link #DEFAULT_PLACES}, accepting any executable file. */
    public static Result locate(Map<String, String> env) {
        return locate(env, DEFAULT_PLACES, nvcc -> null);
    }

    /** Searches {@code env} and then {@code places}; a candidate is used when it is executable and passes probe. */
    public static Result locate(Map<String, String> env, List<Path> places, Probe probe) {
        List<String> tried = new ArrayList<>();
        Set<Path> seen = new LinkedHashSet<>();
        String own = env.get("POLYGPU_NVCC");
        if (own == null || own.isBlank()) {
            tried.add("POLYGPU_NVCC is not set");
        } else {
            Path found = consider(Path.of(own.strip()), " (POLYGPU_NVCC)", probe, seen, tried);
            if (found != null) {
                return new Result(found, tried);
            }
        }
        boolean onPath = false;
        String path = env.get("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path c = dir.isEmpty() ? null : Path.of(dir, "nvcc");
                if (c != null && isExecutableFile(c)) {
                    onPath = true;
                    Path found = consider(c, "", probe, seen, tried);
                    if (found != null) {
                        return new Result(found, tried);
                    }
                }
            }
        }
        if (!onPath) {
            tried.add("no nvcc on PATH");
        }
        String home = env.get("CUDA_HOME");
        if (home == null || home.isBlank()) {
            tried.add("CUDA_HOME is not set");
        } else {
            Path found = consider(Path.of(home.strip(), "bin", "nvcc"), " (CUDA_HOME)", probe, seen, tried);
            if (found != null) {
                return new Result(found, tried);
            }
        }
        for (Path place : places) {
            Path found = consider(place, "", probe, seen, tried);
            if (found != null) {
                return new Result(found, tried);
            }
        }
        return new Result(null, tried);
    }

    /** The candidate when usable; else null, with a note added unless the same file was considered before. */
    private static Path consider(Path c, String source, Probe probe, Set<Path> seen, List<String> tried) {
        if (!seen.add(c.toAbsolutePath().normalize())) {
            return null;
        }
        if (!isExecutableFile(c)) {
            tried.add(c + source + " is not an executable file");
            return null;
        }
        String problem = probe.problem(c);
        if (problem == null) {
            return c;
        }
        tried.add(problem);
        return null;
    }

    private static boolean isExecutableFile(Path p) {
        return Files.isRegularFile(p) && Files.isExecutable(p);
    }
}
