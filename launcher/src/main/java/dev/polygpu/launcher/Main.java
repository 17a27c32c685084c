package dev.polygpu.launcher;

import dev.polygpu.cluster.Worker;
import dev.polygpu.cluster.sim.SimulateCommand;
import dev.polygpu.launcher.notebook.NotebookCommand;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.graalvm.options.OptionDescriptor;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.Language;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;

/**
 * The {@code polygpu} command: {@code polygpu [--grcuda.Name=value …] FILE.py|FILE.js [args …]} runs a Python
 * or JavaScript file in a polyglot context where the {@code grcuda} language is available, prints which device
 * runs kernels, and turns guest errors into the guest language's own error report and exit code 1. The
 * {@code --cluster…} flags are short names of the {@code grcuda.Cluster…} options; {@code polygpu worker …}
 * runs a cluster worker (the cluster module's {@link Worker}) instead of a file, with no polyglot context;
 * {@code polygpu notebook …} installs or runs the Jupyter kernel ({@link NotebookCommand}).
 *
 * <p>{@link #run} does the work without exiting the JVM, so tests can call it in-process with a shared
 * {@link Engine} and their own streams.
 */
public final class Main {
    static final String GRCUDA = "grcuda";
    private static final int EXIT_USAGE = 2;
    /**
     * The launcher's cluster flags ({@code --cluster-name=lab}) and the options they set; {@code --cluster-stats}
     * alone means {@code --cluster-stats=true}.
     */
    private static final Map<String, String> CLUSTER_FLAGS = Map.of(
            "cluster", "grcuda.Cluster",
            "cluster-name", "grcuda.ClusterName",
            "cluster-bind", "grcuda.ClusterBind",
            "cluster-port", "grcuda.ClusterPort",
            "cluster-secret", "grcuda.ClusterSecret",
            "cluster-stats", "grcuda.ClusterStats");

    /** The flags {@code polygpu} itself takes before the file (the language options aside). */
    private static final List<String> FLAGS = List.of("help", "version", "cluster", "cluster-name", "cluster-bind",
            "cluster-port", "cluster-secret", "cluster-stats");

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final Engine engine;

    /**
     * @param engine the engine contexts are created on, or {@code null} for a fresh one per run
     */
    public Main(InputStream in, PrintStream out, PrintStream err, Engine engine) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.engine = engine;
    }

    public static void main(String[] args) {
        int status;
        try {
            status = new Main(System.in, System.out, System.err, null).run(args);
        } catch (RuntimeException | Error e) {
            // Exit all the same: threads that are not daemons (a cluster member's) would keep the JVM alive.
            System.err.println("polygpu: internal error (please report it):");
            e.printStackTrace();
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    /** Runs the command line {@code args} and returns the exit status. */
    public int run(String[] args) {
        if (args.length > 0 && args[0].equals("worker")) {
            return Worker.run(Arrays.copyOfRange(args, 1, args.length), out, err, ClosestFlag::among);
        }
        if (args.length > 0 && args[0].equals("simulate")) {
            return SimulateCommand.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && args[0].equals("notebook")) {
            return NotebookCommand.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        Map<String, String> options = new LinkedHashMap<>();
        // How the user wrote each option that a cluster flag set, for errors in the user's terms.
        Map<String, String> written = new LinkedHashMap<>();
        int i = 0;
        for (; i < args.length && (args[i].startsWith("--") || args[i].equals("-h")); i++) {
            String a = args[i];
            if (a.equals("--")) {
                // the end of the options: what follows is the file, even if its name starts with --
                i++;
                break;
            }
            switch (a) {
                case "--help", "-h" -> {
                    printHelp();
                    return 0;
                }
                case "--version" -> {
                    Properties v = versions();
                    out.println("polygpu " + v.getProperty("version", "unknown") + " (GraalVM polyglot "
                            + v.getProperty("graalvm", "unknown") + ", Java " + Runtime.version() + ")");
                    return 0;
                }
                case "--cluster-stats" -> {
                    options.put("grcuda.ClusterStats", "true");
                    written.put("grcuda.ClusterStats", "--cluster-stats");
                }
                default -> {
                    int eq = a.indexOf('=');
                    String name = a.substring(2, eq < 0 ? a.length() : eq);
                    if (eq < 0 && CLUSTER_FLAGS.containsKey(name)) {
                        return usage(a + " needs a value: write " + a + "=" + (a.equals("--cluster")
                                ? "HOST:PORT,HOST:PORT" : "VALUE") + " (polygpu --help lists the cluster flags)");
                    }
                    if (!name.contains(".") && !CLUSTER_FLAGS.containsKey(name)) {
                        // not a language option (those are --<lang>.<Name>): a flag of polygpu's own, misspelled
                        return usage(unknownFlag(name));
                    }
                    if (eq < 0) {
                        return usage("an option needs a value: " + a + " (write --name=value)");
                    }
                    String option = CLUSTER_FLAGS.getOrDefault(name, name);
                    options.put(option, a.substring(eq + 1));
                    written.put(option, "--" + name);
                }
            }
        }
        if (i >= args.length) {
            return usage("no file to run");
        }
        warnClusterOptionsWithoutCluster(options, written);
        File file = new File(args[i]);
        String[] scriptArgs = Arrays.copyOfRange(args, i + 1, args.length);
        String language = languageOf(file.getName());
        if (language == null) {
            return usage("cannot tell the language of " + file + ": polygpu runs .py (Python) and .js (JavaScript) files");
        }
        if (!file.isFile()) {
            err.println("polygpu: " + (file.isDirectory() ? file + " is a folder, not a file to run"
                    : "no such file: " + file));
            return EXIT_USAGE;
        }
        Source source;
        try {
            source = Source.newBuilder(language, file).build();
        } catch (IOException e) {
            err.println("polygpu: cannot read " + file + ": " + e.getMessage());
            return EXIT_USAGE;
        }
        return runFile(language, source, file, scriptArgs, options, written);
    }

    private int runFile(String language, Source source, File file, String[] scriptArgs, Map<String, String> options,
            Map<String, String> written) {
        Context context;
        try {
            context = newContext(language, file, scriptArgs, options);
        } catch (IllegalArgumentException e) {
            // unknown option or bad option value: polyglot's message says which and suggests names
            err.println("polygpu: " + withHelpHint(asWritten(e.getMessage(), written)));
            return EXIT_USAGE;
        }
        try (context) {
            try {
                String device;
                try {
                    device = deviceLine(context);
                } catch (PolyglotException e) {
                    if (!e.isGuestException() || e.isExit() || e.isInterrupted() || e.isCancelled()) {
                        throw e;
                    }
                    // The grcuda language could not open its device or join the cluster, before the program's
                    // first line: its message says which option and why; no guest frames or exception class.
                    err.println("polygpu: " + asWritten(e.getMessage(), written));
                    return 1;
                }
                err.println("polygpu: " + device);
                context.eval(source);
                return 0;
            } catch (PolyglotException e) {
                // reported while the context is open: its stack frames refer to it
                if (language.equals("python")) {
                    GuestErrors.PythonExit exit = GuestErrors.pythonExit(context, e);
                    if (exit != null) {
                        return exit(exit);
                    }
                    if (!e.isExit() && e.isGuestException() && pythonTraceback(context, e)) {
                        return 1;
                    }
                }
                return report(e);
            }
        } catch (PolyglotException e) {
            // closing failed (a cancelled or exiting context)
            return report(e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private Context newContext(String language, File file, String[] scriptArgs, Map<String, String> options) {
        String[] appArgs;
        if (language.equals("python")) {
            // sys.argv, as CPython gives it: the script, then its arguments
            appArgs = new String[scriptArgs.length + 1];
            appArgs[0] = file.getPath();
            System.arraycopy(scriptArgs, 0, appArgs, 1, scriptArgs.length);
        } else {
            // the global `arguments` of GraalJS's shell: the script's arguments only
            appArgs = scriptArgs;
        }
        Context.Builder b = Context.newBuilder("python", "js", GRCUDA)
                .allowAllAccess(true)
                .allowPolyglotAccess(PolyglotAccess.ALL)
                .allowExperimentalOptions(true)
                .in(in).out(out).err(err)
                .arguments(language, appArgs)
                .options(options);
        if (language.equals("js")) {
            // the shell built-ins of GraalJS's own launcher (quit, read, readline)
            b.option("js.shell", "true");
        }
        if (language.equals("python")) {
            // the script's folder first on sys.path, as CPython does
            b.option("python.PythonPath", file.getAbsoluteFile().getParent());
        }
        if (engine != null) {
            b.engine(engine);
        }
        return b.build();
    }

    /** The grcuda language's own line about the device (a polygpu extension builtin). */
    static String deviceLine(Context context) {
        Value cu = context.eval(GRCUDA, "CU");
        return cu.getMember("polygpu_device_info").execute().asString();
    }

    /** Prints a Python exception with Python's own traceback module; false when it is not one. */
    private boolean pythonTraceback(Context context, PolyglotException e) {
        String text = GuestErrors.pythonTraceback(context, e);
        if (text == null) {
            return false;
        }
        err.print(text);
        return true;
    }

    /** Ends a Python program stopped by {@code SystemExit} as CPython does: prints its message, if any. */
    private int exit(GuestErrors.PythonExit exit) {
        if (exit.message() != null) {
            // after what the program printed, as CPython flushes sys.stdout before it writes the message
            out.flush();
            err.println(exit.message());
        }
        return exit.status();
    }

    /** Prints a guest error as its language would and returns the exit status. */
    private int report(PolyglotException e) {
        if (e.isExit()) {
            return e.getExitStatus();
        }
        if (e.isInternalError() || e.isHostException()) {
            err.println("polygpu: internal error (please report it):");
            e.printStackTrace(err);
            return 1;
        }
        if (e.isInterrupted() || e.isCancelled()) {
            err.println("polygpu: " + (e.isCancelled() ? "cancelled" : "interrupted"));
            return 130;
        }
        for (String line : GuestErrors.describe(e)) {
            err.println(line);
        }
        return 1;
    }

    private void printHelp() {
        out.println("""
                Usage: polygpu [options] FILE.py|FILE.js [args...]
                       polygpu worker [worker options]
                       polygpu simulate [simulator options]
                       polygpu notebook install|uninstall [--user | --sys-prefix | --prefix DIR]

                Runs a Python (GraalPy) or JavaScript (GraalJS) file with the grcuda language: GrCUDA's API
                (cu = polyglot.eval(language="grcuda", string="CU") / Polyglot.eval("grcuda", "CU")).
                Arguments after the file are the script's (sys.argv[1:] in Python, `arguments` in JavaScript).
                'polygpu worker' starts a cluster member with a device and no program, which runs kernels it
                steals from programs started with --cluster (polygpu worker --help lists its options).
                'polygpu simulate' runs the work-stealing policy in a simulated cluster of up to thousands of
                members, with no GPU and no network (polygpu simulate --help lists its options).
                'polygpu notebook install' adds the Jupyter kernels polygpu-python and polygpu-js
                (polygpu notebook --help for more).

                Options:
                  -h, --help             print this help
                  --version              print the versions of polygpu, GraalVM polyglot and Java
                  --<lang>.<Name>=value  set a language option (e.g. --grcuda.ExecutionPolicy=sync)
                  --                     end of the options: the file follows (for a name that starts with -)

                Cluster (docs/cluster.md):
                  --cluster=HOST:PORT,...  join the cluster of these members: idle members steal ready kernels
                                           from this program (grcuda.Cluster)
                  --cluster-name=NAME      join only members of this cluster (grcuda.ClusterName, default polygpu)
                  --cluster-bind=ADDRESS   interface to listen on (grcuda.ClusterBind, default 127.0.0.1)
                  --cluster-port=N         first port to listen on (grcuda.ClusterPort, default 5701)
                  --cluster-secret=S       shared secret of the cluster (grcuda.ClusterSecret); better: set the
                                           POLYGPU_CLUSTER_SECRET environment variable, which ps does not show
                  --cluster-stats          print this member's cluster counters when the program ends

                grcuda options:""");
        try (Engine e = Engine.newBuilder().out(OutputStream.nullOutputStream()).err(OutputStream.nullOutputStream()).build()) {
            Language grcuda = e.getLanguages().get(GRCUDA);
            for (OptionDescriptor d : grcuda.getOptions()) {
                String head = "  --" + d.getName() + "=" + d.getUsageSyntax();
                out.println(head);
                out.println("        " + d.getHelp());
            }
        }
    }

    /**
     * The cluster's options do nothing without {@code --cluster=} (no member is started): says so, since a user
     * who gave {@code --cluster-port} or {@code --cluster-stats} alone expects a cluster. Each is named as the user
     * wrote it ({@code written}: {@code --cluster-port} or {@code --grcuda.ClusterPort}).
     */
    private void warnClusterOptionsWithoutCluster(Map<String, String> options, Map<String, String> written) {
        String members = options.getOrDefault("grcuda.Cluster", "");
        if (!members.isBlank()) {
            return;
        }
        List<String> ignored = new ArrayList<>();
        for (String name : options.keySet()) {
            if (name.startsWith("grcuda.Cluster") && !name.equals("grcuda.Cluster")) {
                ignored.add(written.getOrDefault(name, "--" + name));
            }
        }
        if (!ignored.isEmpty()) {
            err.println("polygpu: " + String.join(", ", ignored) + (ignored.size() == 1 ? " does" : " do")
                    + " nothing without --cluster=HOST:PORT,…: this program joins no cluster");
        }
    }

    /**
     * {@code message} with each {@code grcuda.Cluster…} option that the user set through a short flag named by that
     * flag, as written ({@code grcuda.ClusterPort} becomes {@code --cluster-port}); {@code written} maps an
     * option to the flag that set it ({@code --grcuda.ClusterPort} for the long form, which stays as it is).
     */
    static String asWritten(String message, Map<String, String> written) {
        if (message == null) {
            return null;
        }
        String m = message;
        for (Map.Entry<String, String> w : written.entrySet()) {
            if (CLUSTER_FLAGS.containsKey(w.getValue().substring(2))) {
                // whole names only: grcuda.Cluster is the start of every other one, and of "grcuda.Cluster*"
                m = m.replaceAll(Pattern.quote(w.getKey()) + "(?![A-Za-z*])", Matcher.quoteReplacement(w.getValue()));
            }
        }
        return m;
    }

    /**
     * Polyglot's message for an unknown option name, with a pointer to the list when it suggests no name close to
     * the one written ({@code --grcuda.Bogus=1}); other messages unchanged.
     */
    static String withHelpHint(String message) {
        if (message == null || !message.startsWith("Could not find option with name ")
                || message.contains("Did you mean")) {
            return message;
        }
        String m = message.strip();
        return (m.endsWith(".") ? m.substring(0, m.length() - 1) : m) + "; polygpu --help lists the grcuda options";
    }

    /** What is wrong with {@code --name}, which is neither a flag of polygpu's nor a language option. */
    static String unknownFlag(String name) {
        if (name.equals("help") || name.equals("version")) {
            return "--" + name + " takes no value";
        }
        String closest = ClosestFlag.among(name, FLAGS);
        return "unknown option --" + name + (closest != null ? " (did you mean --" + closest + "?)" : "")
                + "; polygpu takes --help, --version, the --cluster… flags and language options written"
                + " --<lang>.<Name>=value, such as --grcuda.ExecutionPolicy=sync";
    }

    private int usage(String problem) {
        err.println("polygpu: " + problem);
        err.println("Usage: polygpu [options] FILE.py|FILE.js [args...]   (polygpu --help for more)");
        return EXIT_USAGE;
    }

    static String languageOf(String name) {
        if (name.endsWith(".py")) {
            return "python";
        }
        if (name.endsWith(".js") || name.endsWith(".mjs")) {
            return "js";
        }
        return null;
    }

    private static Properties versions() {
        Properties p = new Properties();
        try (InputStream s = Main.class.getResourceAsStream("version.properties")) {
            if (s != null) {
                p.load(new java.io.InputStreamReader(s, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
