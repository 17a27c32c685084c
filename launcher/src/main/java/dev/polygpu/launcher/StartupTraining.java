package dev.polygpu.launcher;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The training run of the {@code ./polygpu} script's start-up cache (the JDK's AOT cache): runs, through
 * {@link Main} as a user's program would be run, a short Python program and a short JavaScript program that each
 * build and launch a kernel, so that the JVM records the classes (and method profiles) a typical run needs. The
 * script runs it once after each build with {@code -XX:AOTCacheOutput} and runs programs with the cache after.
 *
 * <p>Exits 0 when both programs ran, else 1 with what they printed on stderr: a cache trained on a failing run
 * would hold the wrong classes, and the script then runs without one.
 */
public final class StartupTraining {
    /** The training programs, resources beside this class. */
    static final List<String> PROGRAMS = List.of("train.py", "train.js");

    private StartupTraining() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(System.err);
        } catch (RuntimeException | Error e) {
            System.err.println("polygpu: the start-up cache's training run failed:");
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    /** Runs each training program in a fresh context; returns 0 when all ran, else 1 (the reasons on {@code err}). */
    static int run(PrintStream err) {
        Path dir;
        try {
            dir = Files.createTempDirectory("polygpu-training");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a folder for the training programs", e);
        }
        try {
            int status = 0;
            for (String name : PROGRAMS) {
                Path file = copyProgram(name, dir);
                ByteArrayOutputStream output = new ByteArrayOutputStream();
                PrintStream sink = new PrintStream(output, true, StandardCharsets.UTF_8);
                InputStream noInput = new ByteArrayInputStream(new byte[0]);
                int s = new Main(noInput, sink, sink, null).run(new String[] {file.toString()});
                if (s != 0) {
                    err.println("polygpu: training program " + name + " ended with status " + s + ":");
                    err.print(output.toString(StandardCharsets.UTF_8));
                    status = 1;
                }
            }
            return status;
        } finally {
            deleteFolder(dir);
        }
    }

    private static Path copyProgram(String name, Path dir) {
        try (InputStream in = StartupTraining.class.getResourceAsStream("training/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the launcher jar has no training program " + name);
            }
            Path file = dir.resolve(name);
            Files.copy(in, file);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the training program " + name + " to " + dir, e);
        }
    }

    private static void deleteFolder(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the training folder " + dir, e);
        }
    }
}
