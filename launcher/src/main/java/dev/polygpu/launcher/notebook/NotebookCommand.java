package dev.polygpu.launcher.notebook;

import dev.polygpu.cli.CommandLines;
import dev.polygpu.launcher.PolyglotArgs;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.graalvm.polyglot.Engine;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code polygpu notebook …}: {@code install} and {@code uninstall} write and remove the Jupyter kernelspecs
 * ({@link KernelSpecs}); {@code kernel} is what a kernelspec runs: the kernel itself ({@link PolygpuKernel}) on
 * the connection file Jupyter gives it. Each is a picocli subcommand; language options
 * ({@code --grcuda.Name=value}) go through {@link PolyglotArgs}.
 */
@Command(name = "polygpu notebook", synopsisHeading = "Usage: ",
        customSynopsis = {"polygpu notebook install [--user | --sys-prefix | --prefix DIR] [--grcuda.Name=value ...]",
            "       polygpu notebook uninstall [--user | --sys-prefix | --prefix DIR]"},
        description = {"", "install writes two Jupyter kernelspecs, polygpu-python (Python cells) and polygpu-js "
                + "(JavaScript cells), that start the polygpu notebook kernel with this JDK, the Graal JIT and this "
                + "class path; in either, a cell that starts with %%python or %%js runs in the other language, in "
                + "the same context. --grcuda.Name=value options are passed to every kernel started from the "
                + "kernelspecs. uninstall removes them.", "",
            "Where (as 'jupyter kernelspec install' puts them):",
            "  --user         the user's Jupyter data folder: $JUPYTER_DATA_DIR, else $XDG_DATA_HOME/jupyter, else "
                + "~/.local/share/jupyter (the default)",
            "  --sys-prefix   the share/jupyter folder of the Python environment that runs 'jupyter'",
            "  --prefix DIR   DIR/share/jupyter (then add DIR/share/jupyter to JUPYTER_PATH)"},
        optionListHeading = "%nOptions:%n", commandListHeading = "%nCommands:%n")
public final class NotebookCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
    private boolean help;

    private NotebookCommand() {
    }

    /** Runs {@code polygpu notebook args…} and returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(new NotebookCommand())
                .addSubcommand("install", new Install(out))
                .addSubcommand("uninstall", new Uninstall(out))
                .addSubcommand("kernel", new Kernel(err));
        CommandLines.configure(commandLine, out, err);
        return CommandLines.execute(commandLine, args);
    }

    /** {@code polygpu notebook} alone: which of its commands to run. */
    @Override
    public Integer call() {
        return CommandLines.usageError(spec.commandLine(), "give a command: install or uninstall");
    }

    /** {@code --user}, {@code --sys-prefix} or {@code --prefix DIR}: where the kernelspecs go. */
    static class Where {
        @Option(names = "--user", description = "the user's Jupyter data folder (the default)")
        boolean user;

        @Option(names = "--sys-prefix", description = "the share/jupyter folder of the Python environment that runs "
                + "'jupyter'")
        boolean sysPrefix;

        @Option(names = "--prefix", paramLabel = "DIR", description = "DIR/share/jupyter")
        Path prefix;

        Path kernels() throws IOException {
            return KernelSpecs.location(user, sysPrefix, prefix);
        }
    }

    /** {@code install}: writes both kernelspecs, with the language options every kernel is started with. */
    @Command(name = "install", description = "write the kernelspecs polygpu-python and polygpu-js",
            preprocessor = PolyglotArgs.class, optionListHeading = "%nOptions:%n")
    static final class Install extends Where implements Callable<Integer>, PolyglotArgs.Target {
        private final PrintStream out;
        private final Map<String, String> options = new LinkedHashMap<>();

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        Install(PrintStream out) {
            this.out = out;
        }

        @Override
        public Map<String, String> polyglotOptions() {
            return options;
        }

        @Override
        public boolean optionsEndAtProgram() {
            return false;
        }

        @Override
        public boolean isBooleanOption(String name) {
            return dev.polygpu.launcher.Main.isBooleanOption(null, name);
        }

        @Override
        public Integer call() throws IOException {
            checkOptions(options);
            for (Path spec : KernelSpecs.install(kernels(), KernelSpecs.currentJvm(), options)) {
                out.println("polygpu: installed the Jupyter kernel " + spec.getFileName() + " in " + spec);
            }
            return 0;
        }
    }

    /** {@code uninstall}: removes the kernelspecs found where they would be installed. */
    @Command(name = "uninstall", description = "remove the kernelspecs", optionListHeading = "%nOptions:%n")
    static final class Uninstall extends Where implements Callable<Integer> {
        private final PrintStream out;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        Uninstall(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() throws IOException {
            Path kernels = kernels();
            var removed = KernelSpecs.uninstall(kernels);
            if (removed.isEmpty()) {
                out.println("polygpu: no polygpu kernelspecs in " + kernels + ", nothing to remove");
            }
            for (Path spec : removed) {
                out.println("polygpu: removed the Jupyter kernel " + spec.getFileName() + " from " + spec);
            }
            return 0;
        }
    }

    /** {@code kernel --language=python|js CONNECTION_FILE [--grcuda.Name=value …]}: runs until Jupyter stops it. */
    @Command(name = "kernel", hidden = true, description = "the kernel a kernelspec starts",
            preprocessor = PolyglotArgs.class)
    static final class Kernel implements Callable<Integer>, PolyglotArgs.Target {
        private final PrintStream err;
        private final Map<String, String> options = new LinkedHashMap<>();

        @Option(names = "--language", paramLabel = "python|js", required = true, description = "the cells' "
                + "language")
        private String language;

        @Parameters(paramLabel = "CONNECTION_FILE", description = "the connection file Jupyter gives the kernel")
        private Path connection;

        Kernel(PrintStream err) {
            this.err = err;
        }

        @Override
        public Map<String, String> polyglotOptions() {
            return options;
        }

        @Override
        public boolean optionsEndAtProgram() {
            return false;
        }

        @Override
        public boolean isBooleanOption(String name) {
            return dev.polygpu.launcher.Main.isBooleanOption(null, name);
        }

        @Override
        public Integer call() throws IOException {
            String lang = switch (language.toLowerCase(Locale.ROOT)) {
                case "python" -> "python";
                case "js", "javascript" -> "js";
                default -> throw new IllegalArgumentException("--language must be python or js, got '" + language
                        + "'");
            };
            if (!Files.isRegularFile(connection)) {
                throw new IllegalArgumentException("no connection file " + connection);
            }
            return PolygpuKernel.serve(lang, Files.readString(connection), options, err);
        }
    }

    /** Unknown option names and bad values fail now, not each time Jupyter starts a kernel. */
    private static void checkOptions(Map<String, String> options) {
        if (options.isEmpty()) {
            return;
        }
        try (Engine e = Engine.newBuilder().options(options).out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream()).build()) {
            e.getLanguages();
        }
    }
}
