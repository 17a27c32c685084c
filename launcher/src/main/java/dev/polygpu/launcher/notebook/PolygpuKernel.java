package dev.polygpu.launcher.notebook;

import dev.polygpu.launcher.GuestErrors;
import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.kernel.BaseKernel;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.messages.Message;
import io.github.spencerpark.jupyter.messages.MessageType;
import io.github.spencerpark.jupyter.messages.publish.PublishDisplayData;
import io.github.spencerpark.jupyter.messages.publish.PublishError;
import io.github.spencerpark.jupyter.messages.publish.PublishExecuteInput;
import io.github.spencerpark.jupyter.messages.publish.PublishExecuteResult;
import io.github.spencerpark.jupyter.messages.publish.PublishUpdateDisplayData;
import io.github.spencerpark.jupyter.messages.reply.ErrorReply;
import io.github.spencerpark.jupyter.messages.reply.ExecuteReply;
import io.github.spencerpark.jupyter.messages.request.ExecuteRequest;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;

/**
 * The polygpu Jupyter kernel: one polyglot context with Python, JavaScript and {@code grcuda} for the whole
 * notebook. A cell runs in the kernel's language unless a {@link CellMagics magic} says otherwise; top-level
 * variables are shared between the two languages ({@link SharedGlobals}); the global {@code polygpu} draws the
 * DAG and timeline ({@link NotebookHelpers}). The Jupyter protocol is jupyter-jvm-basekernel's; this class
 * replaces its execute handler to report guest errors with their own names and tracebacks and to stream output.
 *
 * <p>Threads: cells, completions and inspections run one at a time on the library's shell thread, which is the
 * only one that enters the context. Interrupts arrive on the control thread, which calls
 * {@link Context#interrupt(Duration)}: the running cell stops with an error and the context stays usable.
 * {@link #running} is written by the shell thread and read by the control thread; an interrupt that races the
 * end of a cell finds nothing to stop (the context's interrupt with no code running returns at once).
 */
public final class PolygpuKernel extends BaseKernel {
    /** How long an interrupt waits for the cell to stop before it says the cell would not stop. */
    static final Duration INTERRUPT_WAIT = Duration.ofSeconds(10);

    private final String language;
    private final Context context;
    private final CellStream out;
    private final CellStream err;
    private final PrintStream log;
    private final SharedGlobals globals;
    private final Value pythonMain;
    private final String pythonVersion;
    private volatile boolean running;
    private ShellReplyEnvironment cellEnv;

    PolygpuKernel(String language, Map<String, String> options, PrintStream log) {
        this.language = language;
        this.log = log;
        this.out = new CellStream(false, log);
        this.err = new CellStream(true, log);
        setShouldReplaceStdStreams(false);
        this.context = Context.newBuilder("python", "js", "grcuda")
                .allowAllAccess(true)
                .allowPolyglotAccess(PolyglotAccess.ALL)
                .allowExperimentalOptions(true)
                .in(InputStream.nullInputStream())
                .out(out).err(err)
                .option("grcuda.RecordSchedule", "true")
                // the notebook's folder first on sys.path, as IPython has it
                .option("python.PythonPath", Path.of("").toAbsolutePath().toString())
                .options(options)
                .build();
        NotebookHelpers helpers = new NotebookHelpers(context, this::publishDisplay);
        for (String l : SharedGlobals.LANGUAGES) {
            context.getBindings(l).putMember("polygpu", helpers);
        }
        this.pythonMain = context.eval("python", "import __main__\n__main__");
        this.pythonVersion = context.eval("python", "import sys\nsys.version.split()[0]").asString();
        this.globals = new SharedGlobals(context, new PrintStream(err, true, StandardCharsets.UTF_8));
        // Reached from Python, so that grcuda sets up Python's display of device arrays now (PythonArrayDisplay in
        // the grcuda language), also for arrays that JavaScript cells make and Python cells print; one
        // expression, which leaves no name in the notebook's namespace.
        Value cu = context.eval("python", "__import__('polyglot').eval(language='grcuda', string='CU')");
        log.println("polygpu notebook kernel (" + language + "): "
                + cu.getMember("polygpu_device_info").execute().asString());
    }

    /**
     * Runs a kernel in {@code language} on the connection Jupyter described in {@code connectionJson} until a
     * shutdown request; returns the exit status.
     */
    static int serve(String language, String connectionJson, Map<String, String> options, PrintStream log) {
        // The library logs every message at INFO on stderr, the Jupyter server's log: keep only problems.
        Logger.getLogger("").setLevel(Level.WARNING);
        KernelConnectionProperties properties = KernelConnectionProperties.parse(connectionJson);
        JupyterConnection connection;
        try {
            connection = new JupyterConnection(properties);
        } catch (GeneralSecurityException e) {
            log.println("polygpu notebook: the connection file's signature scheme cannot be used: " + e);
            return 1;
        }
        PolygpuKernel kernel;
        try {
            kernel = new PolygpuKernel(language, options, log);
        } catch (IllegalArgumentException e) {
            log.println("polygpu notebook: " + e.getMessage());
            return 2;
        }
        kernel.becomeHandlerForConnection(connection);
        connection.connect();
        connection.waitUntilClose();
        kernel.context.close(true);
        return 0;
    }

    @Override
    public void becomeHandlerForConnection(JupyterConnection connection) {
        super.becomeHandlerForConnection(connection);
        connection.setHandler(MessageType.EXECUTE_REQUEST, this::execute);
    }

    @Override
    public LanguageInfo getLanguageInfo() {
        return language.equals("python")
                ? new LanguageInfo.Builder("python").version(pythonVersion)
                        .mimetype("text/x-python").fileExtension(".py").pygments("python3").codemirror("python")
                        .build()
                : new LanguageInfo.Builder("javascript").version("ECMAScript").mimetype("application/javascript")
                        .fileExtension(".js").pygments("javascript").codemirror("javascript").build();
    }

    @Override
    public String getBanner() {
        return "polygpu: GPU arrays and CUDA kernels from Python and JavaScript (cell magics: "
                + CellMagics.KNOWN + "; helpers: polygpu.dag(), polygpu.timeline(), polygpu.progress(n))";
    }

    /** The library's entry point; cells go through {@link #execute} instead. */
    @Override
    public DisplayData eval(String code) {
        throw new UnsupportedOperationException("cells are run by PolygpuKernel.execute");
    }

    private void execute(ShellReplyEnvironment env, Message<ExecuteRequest> message) {
        commManager.setMessageContext(message);
        ExecuteRequest request = message.getContent();
        env.setBusyDeferIdle();
        int count = request.isSilent() ? executionCount.get() : executionCount.getAndIncrement();
        env.publish(new PublishExecuteInput(request.getCode(), count));
        cellEnv = env;
        out.attach(env);
        err.attach(env);
        try {
            Value value = runCell(request.getCode(), count);
            out.detach();
            err.detach();
            String text = value == null || request.isSilent() ? null : displayString(value);
            if (text != null) {
                env.publish(new PublishExecuteResult(count, new DisplayData(text)));
            }
            env.defer().reply(new ExecuteReply(count, Collections.emptyMap()));
        } catch (CellError e) {
            replyError(env, count, e);
        } catch (RuntimeException e) {
            // the kernel's own failure (not the guest's): still a reply, or the client waits for ever
            List<String> tb = new ArrayList<>();
            tb.add("polygpu kernel: internal error (please report it): " + e);
            for (StackTraceElement f : e.getStackTrace()) {
                tb.add("    at " + f);
            }
            replyError(env, count, new CellError("InternalError", String.valueOf(e.getMessage()), tb));
        } finally {
            cellEnv = null;
        }
    }

    private void replyError(ShellReplyEnvironment env, int count, CellError e) {
        out.detach();
        err.detach();
        env.publish(new PublishError(e.name, e.value, e.traceback));
        ErrorReply reply = new ErrorReply(e.name, e.value, e.traceback);
        reply.setExecutionCount(count);
        env.defer().replyError(ExecuteReply.MESSAGE_TYPE.error(), reply);
    }

    /** A cell that failed, as Jupyter reports it. */
    private static final class CellError extends Exception {
        final String name;
        final String value;
        final List<String> traceback;

        CellError(String name, String value, List<String> traceback) {
            super(name + ": " + value, null, false, false);
            this.name = name;
            this.value = value;
            this.traceback = traceback;
        }
    }

    /** Runs one cell and returns its value, or null when it has none to show. */
    private Value runCell(String code, int count) throws CellError {
        CellMagics.Cell cell;
        try {
            cell = CellMagics.parse(code, language);
        } catch (CellMagics.MagicException e) {
            throw new CellError("UsageError", e.getMessage(), List.of("UsageError: " + e.getMessage()));
        }
        Source source = Source.newBuilder(cell.language(), cell.code(), "<cell " + count + ">").buildLiteral();
        long start = System.nanoTime();
        running = true;
        try {
            return context.eval(source);
        } catch (PolyglotException e) {
            throw describe(e, cell.language());
        } finally {
            running = false;
            if (cell.timed()) {
                out.flush();
                err.flush();
                byte[] line = ("Wall time: " + wallTime(System.nanoTime() - start) + "\n").getBytes(StandardCharsets.UTF_8);
                out.write(line, 0, line.length);
            }
            afterCell(cell.language());
        }
    }

    private void afterCell(String cellLanguage) {
        try {
            globals.afterCell(cellLanguage);
        } catch (PolyglotException | IllegalStateException e) {
            log.println("polygpu: sharing the cell's variables failed: " + e.getMessage());
        }
    }

    static String wallTime(long nanos) {
        if (nanos < 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    /** What the cell's value shows as, or null for nothing (a statement, None, undefined). */
    private String displayString(Value value) {
        if (value.isNull() || value.equals(pythonMain)) {
            return null;
        }
        Value meta = value.getMetaObject();
        if (meta != null && meta.getMetaSimpleName().equals("NoneType")) {
            return null;
        }
        return value.toString();
    }

    /** A guest error as Jupyter shows it: its name, message and the traceback of the cell's language. */
    private CellError describe(PolyglotException e, String cellLanguage) {
        if (e.isInterrupted() || e.isCancelled()) {
            List<String> tb = new ArrayList<>();
            tb.add("KeyboardInterrupt: the cell was interrupted at");
            tb.addAll(GuestErrors.locations(e));
            return new CellError("KeyboardInterrupt", "the cell was interrupted", tb);
        }
        if (e.isHostException() || e.isInternalError()) {
            Throwable host = e.isHostException() ? e.asHostException() : e;
            List<String> tb = new ArrayList<>(GuestErrors.describe(e));
            for (StackTraceElement f : host.getStackTrace()) {
                tb.add("    at " + f);
            }
            String message = host.getMessage() == null ? host.toString() : host.getMessage();
            return new CellError(host.getClass().getSimpleName(), message, tb);
        }
        // Python's own traceback for errors that reach a Python cell (a JavaScript error in one included)
        String python = cellLanguage.equals("python") ? GuestErrors.pythonTraceback(context, e) : null;
        String name = errorName(e);
        String value = e.getMessage() == null ? "" : e.getMessage();
        if (value.startsWith(name + ": ")) {
            value = value.substring(name.length() + 2);
        }
        List<String> tb = python != null ? List.of(python.stripTrailing().split("\n")) : GuestErrors.describe(e);
        return new CellError(name, value, tb);
    }

    /** The guest's name for the error: Python's type, JavaScript's {@code name}, or the language's own. */
    private static String errorName(PolyglotException e) {
        Value guest = e.getGuestObject();
        if (guest != null && !guest.isNull()) {
            if (guest.hasMembers() && guest.hasMember("name") && guest.getMember("name").isString()) {
                return guest.getMember("name").asString();
            }
            Value meta = guest.getMetaObject();
            if (meta != null) {
                return meta.getMetaSimpleName();
            }
        }
        if (e.isSyntaxError()) {
            return "SyntaxError";
        }
        return e.isExit() ? "SystemExit" : "GrCUDAException";
    }

    /** Interrupt requests (control thread): stops the running cell, if any; the context stays usable. */
    @Override
    public void interrupt() {
        if (!running) {
            return;
        }
        try {
            context.interrupt(INTERRUPT_WAIT);
        } catch (TimeoutException e) {
            log.println("polygpu: the cell did not stop within " + INTERRUPT_WAIT.toSeconds()
                    + " s of the interrupt (it is in a call no interrupt reaches); interrupt again or restart the kernel");
        }
    }

    @Override
    public ReplacementOptions complete(String code, int at) {
        String language;
        try {
            language = CellMagics.parse(code, this.language).language();
        } catch (CellMagics.MagicException e) {
            language = this.language;
        }
        return Completions.complete(context, language, code, at);
    }

    @Override
    public void onShutdown(boolean isRestarting) {
        log.println("polygpu notebook kernel: shutting down" + (isRestarting ? " for a restart" : ""));
        // a running cell would keep the shell thread, and so the process, from ending
        interrupt();
    }

    /** Shows {@code data} in the running cell, after the output printed before it. */
    private void publishDisplay(DisplayData data, boolean update) {
        ShellReplyEnvironment env = cellEnv;
        if (env == null) {
            throw new IllegalStateException("polygpu: displays can be shown only while a cell runs");
        }
        out.flush();
        err.flush();
        if (update) {
            env.publish(new PublishUpdateDisplayData(data));
        } else {
            env.publish(new PublishDisplayData(data));
        }
    }
}
