package dev.polygpu.launcher.notebook;

import com.google.gson.GsonBuilder;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Jupyter kernelspecs of polygpu: {@code polygpu-python} and {@code polygpu-js}, each a folder with a
 * {@code kernel.json} whose {@code argv} starts this JVM's {@code java} with this JVM's flags (the Graal JIT's
 * upgrade module path among them) and class path, running {@code polygpu notebook kernel}. The kernels are
 * interrupted by message ({@code interrupt_mode: message}), not by a signal, so an interrupt stops the cell
 * and keeps the JVM.
 */
final class KernelSpecs {
    /** One kernelspec: its folder name, what Jupyter shows, the notebook language and the kernel's. */
    record Spec(String name, String displayName, String jupyterLanguage, String polyglotLanguage) {
    }

    static final List<Spec> SPECS = List.of(
            new Spec("polygpu-python", "polygpu (Python)", "python", "python"),
            new Spec("polygpu-js", "polygpu (JavaScript)", "javascript", "js"));

    /** How to start a JVM like this one: the {@code java} binary, its flags and the class path. */
    record Jvm(String java, List<String> flags, String classPath) {
    }

    /** JVM flags of this run that must not be copied into a kernel (a debugger port, agents). */
    private static final List<String> NOT_COPIED = List.of("-agentlib:", "-agentpath:", "-javaagent:", "-Xdebug",
            "-Xrunjdwp", "-Djava.class.path=");

    private KernelSpecs() {
    }

    /** This JVM, to be started again by Jupyter: its binary, flags (less debuggers and agents), class path. */
    static Jvm currentJvm() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> flags = new ArrayList<>();
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (NOT_COPIED.stream().noneMatch(flag::startsWith)) {
                flags.add(flag);
            }
        }
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                entries.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return new Jvm(java, List.copyOf(flags), String.join(File.pathSeparator, entries));
    }

    /**
     * The {@code kernels} folder of the Jupyter data folder that {@code --user} (the default), {@code --sys-prefix}
     * or {@code --prefix DIR} name (one of them at most; an IllegalArgumentException says so otherwise).
     *
     * @param user       {@code --user}
     * @param sysPrefix  {@code --sys-prefix}
     * @param prefix     {@code --prefix DIR}, or null
     */
    static Path location(boolean user, boolean sysPrefix, Path prefix) throws IOException {
        int given = (user ? 1 : 0) + (sysPrefix ? 1 : 0) + (prefix != null ? 1 : 0);
        if (given > 1) {
            throw new IllegalArgumentException("give one of --user, --sys-prefix and --prefix DIR, not "
                    + (given == 3 ? "all three" : "two"));
        }
        Path data;
        if (sysPrefix) {
            data = sysPrefix().resolve("share").resolve("jupyter");
        } else if (prefix != null) {
            data = prefix.toAbsolutePath().resolve("share").resolve("jupyter");
        } else {
            data = userDataDir();
        }
        return data.resolve("kernels");
    }

    /** Jupyter's user data folder, as {@code jupyter --data-dir} says it on Linux. */
    private static Path userDataDir() {
        String dataDir = System.getenv("JUPYTER_DATA_DIR");
        if (dataDir != null && !dataDir.isEmpty()) {
            return Path.of(dataDir).toAbsolutePath();
        }
        String xdg = System.getenv("XDG_DATA_HOME");
        if (xdg != null && !xdg.isEmpty()) {
            return Path.of(xdg).toAbsolutePath().resolve("jupyter");
        }
        String home = System.getProperty("user.home");
        if (home == null || home.isEmpty()) {
            throw new IllegalArgumentException("--user: no home folder to install into; use --prefix DIR");
        }
        return Path.of(home, ".local", "share", "jupyter");
    }

    /** {@code sys.prefix} of the Python that the {@code jupyter} command on the PATH runs with. */
    private static Path sysPrefix() throws IOException {
        Path jupyter = onPath("jupyter");
        if (jupyter == null) {
            throw new IllegalArgumentException("--sys-prefix: no 'jupyter' command on the PATH to take the Python"
                    + " environment from; use --user or --prefix DIR");
        }
        String python = "python3";
        List<String> head = Files.readAllLines(jupyter, StandardCharsets.ISO_8859_1);
        if (!head.isEmpty() && head.get(0).startsWith("#!")) {
            python = head.get(0).substring(2).trim().split("\\s+")[0];
        }
        Process p = new ProcessBuilder(python, "-c", "import sys; print(sys.prefix)").redirectErrorStream(true)
                .start();
        String answer = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0 || answer.isEmpty()) {
                throw new IllegalArgumentException("--sys-prefix: " + python + " (which runs " + jupyter
                        + ") did not say its sys.prefix: " + answer);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted asking " + python + " for sys.prefix", e);
        }
        return Path.of(answer);
    }

    private static Path onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isExecutable(candidate) && Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** The {@code kernel.json} of {@code spec}: how Jupyter starts the kernel and what it shows. */
    static Map<String, Object> kernelJson(Spec spec, Jvm jvm, Map<String, String> options) {
        List<String> argv = new ArrayList<>();
        argv.add(jvm.java());
        argv.addAll(jvm.flags());
        argv.addAll(List.of("-cp", jvm.classPath(), "dev.polygpu.launcher.Main", "notebook", "kernel",
                "--language=" + spec.polyglotLanguage()));
        for (Map.Entry<String, String> o : options.entrySet()) {
            argv.add("--" + o.getKey() + "=" + o.getValue());
        }
        argv.add("{connection_file}");
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("argv", argv);
        json.put("display_name", spec.displayName());
        json.put("language", spec.jupyterLanguage());
        json.put("interrupt_mode", "message");
        json.put("metadata", Map.of("polygpu", Map.of("default_language", spec.polyglotLanguage())));
        return json;
    }

    /** Writes both kernelspecs into {@code kernels} (replacing earlier ones) and returns their folders. */
    static List<Path> install(Path kernels, Jvm jvm, Map<String, String> options) throws IOException {
        List<Path> written = new ArrayList<>();
        for (Spec spec : SPECS) {
            Path dir = kernels.resolve(spec.name());
            try {
                Files.createDirectories(dir);
                String json = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create()
                        .toJson(kernelJson(spec, jvm, options));
                Files.writeString(dir.resolve("kernel.json"), json + "\n", StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IOException("cannot write the kernelspec " + dir + ": " + e, e);
            }
            written.add(dir);
        }
        return written;
    }

    /** Removes the kernelspecs found in {@code kernels} and returns the folders removed. */
    static List<Path> uninstall(Path kernels) throws IOException {
        List<Path> removed = new ArrayList<>();
        for (Spec spec : SPECS) {
            Path dir = kernels.resolve(spec.name());
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                    Files.delete(p);
                }
            } catch (IOException e) {
                throw new IOException("cannot remove the kernelspec " + dir + ": " + e, e);
            }
            removed.add(dir);
        }
        return removed;
    }
}
