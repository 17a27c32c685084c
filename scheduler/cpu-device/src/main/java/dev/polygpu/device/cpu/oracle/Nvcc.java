package dev.polygpu.device.cpu.oracle;

import dev.polygpu.device.NvccLocator;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The CUDA toolkit's {@code nvcc}, run as a process to turn CUDA C into PTX for the oracle's reference side.
 *
 * <p>It is looked for by {@link NvccLocator}, as the CUDA device looks for it: {@code $POLYGPU_NVCC}, then every
 * {@code nvcc} on the {@code PATH}, {@code $CUDA_HOME/bin/nvcc}, {@code /usr/local/cuda/bin/nvcc}; the first
 * that answers {@code nvcc --version} with its release is used. This class does not reuse the CUDA device's compiler
 * because that one tries NVRTC through JCuda first and caches PTX, neither of which the oracle wants: it needs
 * exactly {@code nvcc -ptx} with its own flags, on sources it will never see again.
 *
 * <p>Thread-safety: immutable; each {@link #compile} works in a temporary folder of its own.
 */
final class Nvcc implements PtxBatches.Compiler {
    /** What one run gave: the PTX when {@code ok}, and nvcc's output (its diagnostics) in any case. */
    record Output(boolean ok, String ptx, String log) {
    }

    /** The nvcc of this process, or why there is none; looked up on first use. */
    private static final class Found {
        static final NvccLocator.Result NVCC = NvccLocator.locate(System.getenv(), NvccLocator.DEFAULT_PLACES,
                Nvcc::versionProblem);
    }

    private final Path exe;
    private final List<String> flags;
    private final Duration timeout;

    Nvcc(Path exe, List<String> flags, Duration timeout) {
        this.exe = exe;
        this.flags = List.copyOf(flags);
        this.timeout = timeout;
    }

    /** The nvcc this process uses; throws {@link IllegalStateException} saying what was tried when there is none. */
    static Path located() {
        NvccLocator.Result found = Found.NVCC;
        if (!found.found()) {
            throw new IllegalStateException(found.problem());
        }
        return found.path();
    }

    /** Empty when {@link #located()} finds nvcc, else the reason. */
    static Optional<String> unavailableReason() {
        return Optional.ofNullable(Found.NVCC.problem());
    }

    /** Null when {@code nvcc --version} runs and names a release, else what went wrong. */
    private static String versionProblem(Path nvcc) {
        Run r = run(nvcc, List.of("--version"), null, Duration.ofSeconds(30));
        if (r.timedOut) {
            return nvcc + " --version did not answer within 30 s";
        }
        if (r.exit != 0 || !r.output.contains("release")) {
            return nvcc + " --version failed (exit " + r.exit + "): " + r.output.strip();
        }
        return null;
    }

    /** Where this nvcc is. */
    Path exe() {
        return exe;
    }

    /**
     * Compiles {@code source}, written to a file named {@code fileName}, to PTX with this nvcc's flags. A run
     * that takes longer than the timeout is killed and reported as failed.
     */
    @Override
    public Output compile(String source, String fileName) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("polygpu-oracle-");
            Files.writeString(dir.resolve(fileName), source, StandardCharsets.UTF_8);
            List<String> args = new ArrayList<>(flags);
            args.addAll(List.of("-o", "out.ptx", fileName));
            Run r = run(exe, args, dir, timeout);
            if (r.timedOut) {
                return new Output(false, null, exe + " did not finish within " + timeout.toSeconds() + " s");
            }
            if (r.exit != 0) {
                return new Output(false, null, r.output.strip());
            }
            return new Output(true, Files.readString(dir.resolve("out.ptx"), StandardCharsets.UTF_8), r.output);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + exe + ": " + e, e);
        } finally {
            deleteTree(dir);
        }
    }

    private record Run(int exit, String output, boolean timedOut) {
    }

    private static Run run(Path exe, List<String> args, Path dir, Duration timeout) {
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(args);
        Path log = null;
        try {
            log = Files.createTempFile("polygpu-oracle-nvcc-", ".log");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                return new Run(-1, Files.readString(log, StandardCharsets.UTF_8), true);
            }
            return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8), false);
        } catch (IOException e) {
            return new Run(-1, String.valueOf(e), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + exe, e);
        } finally {
            deleteTree(log);
        }
    }

    private static void deleteTree(Path root) {
        if (root == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // A file left in the temporary folder harms nothing; the compilation's result stands.
            System.getLogger(Nvcc.class.getName()).log(System.Logger.Level.DEBUG, "could not delete " + root, e);
        }
    }
}
