package dev.polygpu.launcher;

import dev.polygpu.cli.CommandLines;
import dev.polygpu.cluster.Worker;
import dev.polygpu.cluster.sim.SimulateCommand;
import dev.polygpu.launcher.notebook.NotebookCommand;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The {@code polygpu} command: {@code polygpu [--grcuda.Name=value …] FILE.py|FILE.js [args …]} runs a Python
 * or JavaScript file in a polyglot context where the {@code grcuda} language is available, prints which device
 * runs kernels, and turns guest errors into the guest language's own error report and exit code 1. Its command
 * line is {@link LauncherCommand}; the {@code --cluster…} flags are short names of the {@code grcuda.Cluster…}
 * options; {@code polygpu worker …}
 * runs a cluster worker (the cluster module's {@link Worker}) instead of a file, with no polyglot context;
 * {@code polygpu notebook …} installs or runs the Jupyter kernel ({@link NotebookCommand}).
 *
 * <p>{@link #run} does the work without exiting the JVM, so tests can call it in-process with a shared
 * {@link Engine} and their own streams.
 */
public final class Main {
    static final String GRCUDA = "grcuda";
    /** The help section after the options: the language options, the grcuda ones listed from the language. */
    private static final String LANGUAGE_OPTIONS = "languageOptions";

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final Engine engine;
    private final Surroundings surroundings;
    /** The command line being run, for its usage errors. */
    private CommandLine commandLine;
    /** The program's context while it runs, for {@link #cancel}. */
    private volatile Context running;
    private volatile boolean cancelled;
    private String ownEngineNeeded;
    private boolean handsEngineOptionsBack;

    /**
     * @param engine the engine contexts are created on, or {@code null} for a fresh one per run
     */
    public Main(InputStream in, PrintStream out, PrintStream err, Engine engine) {
        this(in, out, err, engine, Surroundings.PROCESS);
    }

    /**
     * @param engine the engine contexts are created on, or {@code null} for a fresh one per run
     * @param surroundings the working directory, environment and subprocess handling the program gets
     */
    public Main(InputStream in, PrintStream out, PrintStream err, Engine engine, Surroundings surroundings) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.engine = engine;
        this.surroundings = surroundings;
    }

    /**
     * Makes {@link #run} hand a command with an engine option back instead of refusing it: a context on the shared
     * engine given to the constructor cannot have one, so nothing runs, {@link #ownEngineNeeded} names the option,
     * and the caller (the daemon) runs the command in a process of its own.
     */
    public Main handingEngineOptionsBack() {
        handsEngineOptionsBack = true;
        return this;
    }

    /** The engine option that kept the last {@link #run} from running its file, or null. */
    public String ownEngineNeeded() {
        return ownEngineNeeded;
    }

    /**
     * Stops the program this {@code Main} runs, from another thread (its client went away): its context is
     * cancelled, and {@link #run} returns soon after. Before the context exists, it is cancelled as it is made.
     */
    public void cancel() {
        cancelled = true;
        Context c = running;
        if (c != null) {
            c.close(true);
        }
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
            return Worker.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && args[0].equals("simulate")) {
            return SimulateCommand.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && args[0].equals("notebook")) {
            return NotebookCommand.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        commandLine = CommandLines.create(new LauncherCommand(this), out, err);
        // Everything after the file is the program's, options or not.
        commandLine.setStopAtPositional(true);
        CommandLines.optionSections(commandLine, LauncherCommand.SECTIONS);
        List<String> sections = new ArrayList<>(commandLine.getHelpSectionKeys());
        sections.add(sections.indexOf(UsageMessageSpec.SECTION_KEY_OPTION_LIST) + 1, LANGUAGE_OPTIONS);
        commandLine.setHelpSectionKeys(sections);
        commandLine.getHelpSectionMap().put(LANGUAGE_OPTIONS, help -> languageOptionsHelp());
        return CommandLines.execute(commandLine, args);
    }

    /** Runs the program {@code command} names, with its options; returns the exit status. */
    int launch(LauncherCommand command) {
        if (command.bandwidthMatrix != null) {
            Map<String, String> written = new LinkedHashMap<>();
            Map<String, String> options = command.contextOptions(written);
            return new BandwidthCommand(out, err, engine, surroundings, commandLine).run(command, options, written);
        }
        if (command.file == null) {
            return CommandLines.usageError(commandLine, "no file to run: write polygpu [options] FILE.py|FILE.js "
                    + "[args...]");
        }
        // How the user wrote each option that a cluster flag set, for errors in the user's terms.
        Map<String, String> written = new LinkedHashMap<>();
        Map<String, String> options = command.contextOptions(written);
        warnClusterOptionsWithoutCluster(options, written);
        File file = new File(command.file);
        File resolved = surroundings.resolve(file);
        String[] scriptArgs = command.programArgs.toArray(String[]::new);
        String language = languageOf(file.getName());
        if (language == null) {
            return CommandLines.usageError(commandLine, "cannot tell the language of " + file + ": polygpu runs .py "
                    + "(Python) and .js (JavaScript) files");
        }
        if (!resolved.isFile()) {
            err.println("polygpu: " + (resolved.isDirectory() ? file + " is a folder, not a file to run"
                    : "no such file: " + file));
            return CommandLines.EXIT_USAGE;
        }
        if (engine != null) {
            for (String name : options.keySet()) {
                if (engine.getOptions().get(name) != null) {
                    if (handsEngineOptionsBack) {
                        ownEngineNeeded = name;
                        return 1;
                    }
                    return CommandLines.usageError(commandLine, "--" + name + " is an engine option, which a program"
                            + " on a shared engine cannot set: run it in a process of its own");
                }
            }
        }
        Source source;
        try {
            source = Source.newBuilder(language, resolved).build();
        } catch (IOException e) {
            err.println("polygpu: cannot read " + file + ": " + e.getMessage());
            return CommandLines.EXIT_USAGE;
        }
        return runFile(language, source, file, resolved, scriptArgs, options, written);
    }

    private int runFile(String language, Source source, File file, File resolved, String[] scriptArgs,
            Map<String, String> options, Map<String, String> written) {
        Context context;
        try {
            context = newContext(language, file, resolved, scriptArgs, options);
        } catch (IllegalArgumentException e) {
            // unknown option or bad option value: polyglot's message says which and suggests names
            err.println("polygpu: " + withHelpHint(asWritten(e.getMessage(), written)));
            return CommandLines.EXIT_USAGE;
        }
        running = context;
        if (cancelled) {
            context.close(true);
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
            running = null;
            out.flush();
            err.flush();
        }
    }

    private Context newContext(String language, File file, File resolved, String[] scriptArgs,
            Map<String, String> options) {
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
            b.option("python.PythonPath", resolved.getAbsoluteFile().getParent());
        }
        if (engine != null) {
            b.engine(engine);
        }
        return surroundings.applyTo(b).build();
    }

    /** Whether the polyglot option {@code name} ({@code js.commonjs-require}) takes true or false. */
    boolean isBooleanOption(String name) {
        return isBooleanOption(engine, name);
    }

    /**
     * Whether the polyglot option {@code name} is a boolean one, looked up on {@code engine} or, when it is null,
     * on a short-lived engine; false for a name no language or the engine has (polyglot then reports it).
     */
    public static boolean isBooleanOption(Engine engine, String name) {
        if (engine == null) {
            try (Engine e = Engine.newBuilder().out(OutputStream.nullOutputStream())
                    .err(OutputStream.nullOutputStream()).build()) {
                return isBooleanOption(e, name);
            }
        }
        int dot = name.indexOf('.');
        String group = dot < 0 ? name : name.substring(0, dot);
        OptionDescriptor d = engine.getOptions().get(name);
        Language language = engine.getLanguages().get(group);
        if (d == null && language != null) {
            d = language.getOptions().get(name);
        }
        return d != null && d.getKey().getDefaultValue() instanceof Boolean;
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

    private int report(PolyglotException e) {
        return report(e, err);
    }

    /** Prints a guest error on {@code err} as its language would and returns the exit status. */
    static int report(PolyglotException e, PrintStream err) {
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

    /** The help's language options: how to write them, then the grcuda language's, from the language itself. */
    private static String languageOptionsHelp() {
        String nl = System.lineSeparator();
        StringBuilder b = new StringBuilder(nl + "Language options (passed to GraalVM polyglot as written):" + nl
                + "      --<lang>.<Name>=value  set a language option, also written --<lang>.<Name> value (e.g."
                + " --grcuda.ExecutionPolicy=sync)" + nl
                + "      --                     end of the options: the file follows (for a name that starts with -)"
                + nl + nl + "grcuda options:" + nl);
        try (Engine e = Engine.newBuilder().out(OutputStream.nullOutputStream()).err(OutputStream.nullOutputStream())
                .build()) {
            Language grcuda = e.getLanguages().get(GRCUDA);
            for (OptionDescriptor d : grcuda.getOptions()) {
                b.append("  --").append(d.getName()).append('=').append(d.getUsageSyntax()).append(nl);
                b.append("        ").append(d.getHelp()).append(nl);
            }
        }
        return b.toString();
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
            if (!w.getValue().equals("--" + w.getKey())) {
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

    static String languageOf(String name) {
        if (name.endsWith(".py")) {
            return "python";
        }
        if (name.endsWith(".js") || name.endsWith(".mjs")) {
            return "js";
        }
        return null;
    }
}
