package dev.polygpu.launcher.notebook;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.graalvm.polyglot.Engine;

/**
 * {@code polygpu notebook …}: {@code install} and {@code uninstall} write and remove the Jupyter kernelspecs
 * ({@link KernelSpecs}); {@code kernel} is what a kernelspec runs: the kernel itself ({@link PolygpuKernel}) on
 * the connection file Jupyter gives it.
 */
public final class NotebookCommand {
    private static final int EXIT_USAGE = 2;
    private static final String HELP = """
            Usage: polygpu notebook install [--user | --sys-prefix | --prefix DIR] [--grcuda.Name=value ...]
                   polygpu notebook uninstall [--user | --sys-prefix | --prefix DIR]

            install writes two Jupyter kernelspecs, polygpu-python (Python cells) and polygpu-js (JavaScript
            cells), that start the polygpu notebook kernel with this JDK, the Graal JIT and this class path; in
            either, a cell that starts with %%python or %%js runs in the other language, in the same context.
            --grcuda.Name=value options are passed to every kernel started from the kernelspecs.
            uninstall removes them.

            Where (as 'jupyter kernelspec install' puts them):
              --user         the user's Jupyter data folder: $JUPYTER_DATA_DIR, else $XDG_DATA_HOME/jupyter,
                             else ~/.local/share/jupyter (the default)
              --sys-prefix   the share/jupyter folder of the Python environment that runs 'jupyter'
              --prefix DIR   DIR/share/jupyter (then add DIR/share/jupyter to JUPYTER_PATH)
            """;

    private NotebookCommand() {
    }

    /** Runs {@code polygpu notebook args…} and returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            (args.length == 0 ? err : out).print(HELP);
            return args.length == 0 ? EXIT_USAGE : 0;
        }
        List<String> rest = List.of(args).subList(1, args.length);
        try {
            return switch (args[0]) {
                case "install" -> install(rest, out);
                case "uninstall" -> uninstall(rest, out);
                case "kernel" -> kernel(rest, err);
                default -> throw new UsageException("unknown notebook command '" + args[0]
                        + "': use install or uninstall");
            };
        } catch (UsageException e) {
            err.println("polygpu notebook: " + e.getMessage());
            err.println("Usage: polygpu notebook install|uninstall [--user | --sys-prefix | --prefix DIR]"
                    + "   (polygpu notebook --help for more)");
            return EXIT_USAGE;
        } catch (IOException e) {
            err.println("polygpu notebook: " + e.getMessage());
            return 1;
        }
    }

    /** A command line that cannot be run, with the reason. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    private static int install(List<String> args, PrintStream out) throws UsageException, IOException {
        Map<String, String> options = new LinkedHashMap<>();
        Path kernels = KernelSpecs.location(args, options);
        checkOptions(options);
        for (Path spec : KernelSpecs.install(kernels, KernelSpecs.currentJvm(), options)) {
            out.println("polygpu: installed the Jupyter kernel " + spec.getFileName() + " in " + spec);
        }
        return 0;
    }

    private static int uninstall(List<String> args, PrintStream out) throws UsageException, IOException {
        Map<String, String> options = new LinkedHashMap<>();
        Path kernels = KernelSpecs.location(args, options);
        if (!options.isEmpty()) {
            throw new UsageException("uninstall takes no options: " + options.keySet());
        }
        List<Path> removed = KernelSpecs.uninstall(kernels);
        if (removed.isEmpty()) {
            out.println("polygpu: no polygpu kernelspecs in " + kernels + ", nothing to remove");
        }
        for (Path spec : removed) {
            out.println("polygpu: removed the Jupyter kernel " + spec.getFileName() + " from " + spec);
        }
        return 0;
    }

    /** Unknown option names and bad values fail now, not each time Jupyter starts a kernel. */
    private static void checkOptions(Map<String, String> options) throws UsageException {
        if (options.isEmpty()) {
            return;
        }
        try (Engine e = Engine.newBuilder().options(options).out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream()).build()) {
            e.getLanguages();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** {@code kernel --language=python|js CONNECTION_FILE [--grcuda.Name=value …]}: runs until Jupyter stops it. */
    private static int kernel(List<String> args, PrintStream err) throws UsageException, IOException {
        String language = null;
        Path connection = null;
        Map<String, String> options = new LinkedHashMap<>();
        for (String a : args) {
            if (a.startsWith("--language=")) {
                language = switch (a.substring("--language=".length())) {
                    case "python" -> "python";
                    case "js", "javascript" -> "js";
                    default -> throw new UsageException("--language must be python or js, got " + a);
                };
            } else if (a.startsWith("--") && a.indexOf('=') > 2) {
                options.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
            } else if (connection == null && !a.startsWith("--")) {
                connection = Path.of(a);
            } else {
                throw new UsageException("kernel: unexpected argument " + a);
            }
        }
        if (language == null || connection == null) {
            throw new UsageException("kernel needs --language=python|js and the connection file Jupyter gives it");
        }
        if (!Files.isRegularFile(connection)) {
            throw new UsageException("kernel: no connection file " + connection);
        }
        return PolygpuKernel.serve(language, Files.readString(connection), options, err);
    }
}
