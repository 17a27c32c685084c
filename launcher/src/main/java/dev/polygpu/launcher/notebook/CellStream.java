package dev.polygpu.launcher.notebook;

import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The standard output or error of the polyglot context, sent to the notebook as {@code stream} messages of
 * the cell that runs: line by line while it runs (so long cells show their output as it comes) and the rest
 * when it ends. Output written while no cell runs (a thread a cell left behind) goes to the kernel's own
 * error stream, the Jupyter server's log, rather than being lost.
 *
 * <p>Thread-safety: every method synchronizes on the stream; guest threads may print concurrently.
 */
final class CellStream extends OutputStream {
    private final boolean isErr;
    private final PrintStream log;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private ShellReplyEnvironment env;

    CellStream(boolean isErr, PrintStream log) {
        this.isErr = isErr;
        this.log = log;
    }

    /** From now on, output goes to the cell that {@code cellEnv} answers. */
    synchronized void attach(ShellReplyEnvironment cellEnv) {
        flush();
        this.env = cellEnv;
    }

    /** Sends what is left to the cell and detaches from it. */
    synchronized void detach() {
        flush();
        env = null;
    }

    @Override
    public synchronized void write(int b) {
        pending.write(b);
        if (b == '\n') {
            flush();
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        pending.write(b, off, len);
        // Send the complete lines; a partial line (maybe ending inside a UTF-8 sequence) waits for the rest.
        byte[] all = pending.toByteArray();
        for (int i = all.length - 1; i >= 0; i--) {
            if (all[i] == '\n') {
                pending.reset();
                pending.write(all, i + 1, all.length - i - 1);
                send(new String(all, 0, i + 1, StandardCharsets.UTF_8));
                return;
            }
        }
    }

    @Override
    public synchronized void flush() {
        if (pending.size() == 0) {
            return;
        }
        String text = pending.toString(StandardCharsets.UTF_8);
        pending.reset();
        send(text);
    }

    private void send(String text) {
        if (env == null) {
            log.print(text);
            log.flush();
        } else if (isErr) {
            env.writeToStdErr(text);
        } else {
            env.writeToStdOut(text);
        }
    }
}
