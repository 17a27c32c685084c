package dev.polygpu.device.cuda;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CompileException.Diagnostic;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.CxxNames;
import dev.polygpu.device.DeviceException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code nvcc -ptx}: the CUDA toolkit's compiler driver, run as a process.
 *
 * <p>Each compilation gets a fresh temporary folder (deleted afterwards) holding the source, written under the
 * user's file name made safe (and ending in {@code .cu}, which nvcc needs to treat it as CUDA), and the PTX
 * output. Template instantiations named in the name expressions are forced by appending, after the user's last
 * line, one line per expression that takes the kernel's address; that keeps the user's line numbers. nvcc runs
 * with a timeout, its output (stdout and stderr together) goes to a file in that folder and becomes the
 * diagnostics of a failed compilation.
 *
 * <p>Options: {@code -ptx -arch=compute_XY} only. Not {@code -lineinfo}: it would write the temporary folder's
 * path into the PTX ({@code .file}), making cached PTX depend on where it was compiled, and it is only of use to
 * profilers.
 */
final class NvccBackend implements PtxCompiler.Backend {
    private static final Pattern RELEASE = Pattern.compile("release (\\d+\\.\\d+)");
    private static final Pattern UNSUPPORTED_ARCH = Pattern.compile("Unsupported gpu architecture '([^']*)'");

    private final Path nvcc;
    private final Duration timeout;
    private final String versionText;
    private final String release;
    private volatile List<String> architectures;

    private NvccBackend(Path nvcc, Duration timeout, String versionText, String release) {
        this.nvcc = nvcc;
        this.timeout = timeout;
        this.versionText = versionText;
        this.release = release;
    }

    /** The nvcc at {@code nvcc}, after checking that {@code nvcc --version} runs; throws with the reason if not. */
    static NvccBackend at(Path nvcc, Duration timeout) {
        if (!Files.isRegularFile(nvcc) || !Files.isExecutable(nvcc)) {
            throw new IllegalStateException(nvcc + " is not an executable file");
        }
        Run r = run(nvcc, List.of("--version"), null, Duration.ofSeconds(30));
        if (r.exit != 0) {
            throw new IllegalStateException(nvcc + " --version failed (exit " + r.exit + "): " + r.output.strip());
        }
        Matcher m = RELEASE.matcher(r.output);
        if (!m.find()) {
            throw new IllegalStateException(nvcc + " --version does not say which release it is: " + r.output.strip());
        }
        return new NvccBackend(nvcc, timeout, r.output.strip(), m.group(1));
    }

    @Override
    public String describe() {
        return "nvcc " + release + " (" + nvcc + ")";
    }

    @Override
    public String identity() {
        return "nvcc\n" + versionText;
    }

    @Override
    public List<String> options(String arch) {
        return List.of("-ptx", "-arch=" + arch);
    }

    /** What {@code nvcc --list-gpu-arch} lists (compute_75 …); empty when this nvcc cannot tell. */
    List<String> architectures() {
        List<String> a = architectures;
        if (a == null) {
            Run r = run(nvcc, List.of("--list-gpu-arch"), null, Duration.ofSeconds(30));
            List<String> found = new ArrayList<>();
            if (r.exit == 0) {
                for (String l : r.output.split("\\R")) {
                    if (l.strip().matches("compute_\\d+[a-z]?")) {
                        found.add(l.strip());
                    }
                }
            }
            a = List.copyOf(found);
            architectures = a;
        }
        return a;
    }

    /** The plain {@code compute_XY} architectures of {@code --list-gpu-arch} (not the {@code a}/{@code f} ones). */
    @Override
    public List<Integer> capabilities() {
        List<Integer> c = new ArrayList<>();
        for (String a : architectures()) {
            if (a.matches("compute_\\d+")) {
                c.add(Integer.parseInt(a.substring("compute_".length())));
            }
        }
        c.sort(null);
        return List.copyOf(c);
    }

    @Override
    public void checkArchitecture(String arch, int ccMajor, int ccMinor) {
        List<String> supported = architectures();
        if (!supported.isEmpty() && !supported.contains(arch)) {
            throw unsupported(arch, ccMajor, ccMinor);
        }
    }

    private DeviceException unsupported(String arch, int ccMajor, int ccMinor) {
        List<String> supported = architectures();
        return new DeviceException(CudaError.NOT_SUPPORTED, describe() + " cannot compile for compute capability "
                + ccMajor + "." + ccMinor + " (" + arch + ")"
                + (supported.isEmpty() ? "" : "; it supports " + String.join(", ", supported))
                + ". Use a CUDA toolkit that supports this GPU (POLYGPU_NVCC names the nvcc to use).");
    }

    @Override
    public PtxCompiler.Result compile(String source, String fileName, String arch, int ccMajor, int ccMinor,
            List<String> nameExpressions) {
        String name = safeName(fileName);
        List<String> forced = new ArrayList<>();
        for (String e : nameExpressions) {
            if (e.indexOf('<') >= 0) {
                if (e.indexOf('\n') >= 0 || e.indexOf('\r') >= 0 || e.contains("//") || e.contains("/*")) {
                    throw new DeviceException(CudaError.INVALID_VALUE, "name expression '" + e
                            + "' must be one line without comments");
                }
                forced.add(e);
            }
        }
        StringBuilder text = new StringBuilder(source);
        if (!source.isEmpty() && !source.endsWith("\n")) {
            text.append('\n');
        }
        for (int i = 0; i < forced.size(); i++) {
            text.append("static void* __polygpu_ref_").append(i).append(" __attribute__((unused)) = (void*)&")
                    .append(forced.get(i)).append(";\n");
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory("polygpu-nvcc-");
            Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
            List<String> args = new ArrayList<>(options(arch));
            args.addAll(List.of("-o", "kernel.ptx", name));
            Run r = run(nvcc, args, dir, timeout);
            if (r.timedOut) {
                throw new DeviceException(CudaError.UNKNOWN, describe() + " did not finish compiling '" + fileName
                        + "' within " + timeout.toSeconds() + " s");
            }
            if (r.exit != 0) {
                Matcher m = UNSUPPORTED_ARCH.matcher(r.output);
                if (m.find()) {
                    throw unsupported(arch, ccMajor, ccMinor);
                }
                CompilerLog log = new CompilerLog(name, fileName, source, forced);
                List<Diagnostic> errors = log.errors(r.output);
                if (errors.isEmpty()) {
                    errors = List.of(new Diagnostic(fileName, 0, 0, "nvcc failed (exit " + r.exit + "): "
                            + r.output.strip(), null));
                }
                throw new CompileException(errors);
            }
            String ptx = Files.readString(dir.resolve("kernel.ptx"), StandardCharsets.UTF_8);
            return new PtxCompiler.Result(ptx, lowered(ptx, nameExpressions));
        } catch (IOException e) {
            throw new DeviceException(CudaError.UNKNOWN, "cannot run " + describe() + " on '" + fileName + "': " + e,
                    e);
        } finally {
            deleteTree(dir);
        }
    }

    /**
     * nvcc does not say which entry a name expression became, so each is looked up the way a kernel name is
     * ({@link CxxNames#resolve}); expressions that find no single entry are left out, and their lookup later
     * reports why.
     */
    private static Map<String, String> lowered(String ptx, List<String> nameExpressions) {
        List<String> entries = PtxEntries.parse(ptx).stream().map(PtxEntry::name).toList();
        Map<String, String> out = new LinkedHashMap<>();
        for (String e : nameExpressions) {
            try {
                out.put(e, CxxNames.resolve(e, Map.of(), entries));
            } catch (DeviceException notFound) {
                // reported when the kernel is looked up
            }
        }
        return out;
    }

    /** {@code fileName}'s last path element with unsafe characters replaced, ending in {@code .cu}. */
    static String safeName(String fileName) {
        String base = fileName == null ? "" : fileName.replaceAll(".*[/\\\\]", "");
        base = base.replaceAll("[^A-Za-z0-9._-]", "_");
        if (base.isEmpty() || base.startsWith("-") || base.startsWith(".")) {
            base = "kernel" + base;
        }
        if (base.equals("kernel.ptx")) {
            base = "kernel_";
        }
        return base.endsWith(".cu") ? base : base + ".cu";
    }

    private record Run(int exit, String output, boolean timedOut) {
    }

    private static Run run(Path exe, List<String> args, Path dir, Duration timeout) {
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(args);
        Path out = null;
        try {
            out = Files.createTempFile("polygpu-nvcc-", ".log");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullFile()));
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            Process p = pb.start();
            boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                return new Run(-1, Files.readString(out, StandardCharsets.UTF_8), true);
            }
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), false);
        } catch (IOException e) {
            return new Run(-1, String.valueOf(e), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeviceException(CudaError.UNKNOWN, "interrupted while running " + exe, e);
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a leftover log in the temp folder
                }
            }
        }
    }

    private static java.io.File nullFile() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // left in the temp folder
                }
            });
        } catch (IOException ignored) {
            // left in the temp folder
        }
    }
}
