package dev.polygpu.launcher.daemon;

import dev.polygpu.launcher.Main;
import dev.polygpu.launcher.Surroundings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.graalvm.polyglot.Engine;

/**
 * One client's command in the daemon: the launcher's own {@link Main} on the daemon's warm engine, with the
 * client's working directory, environment and streams ({@link ClientLink}), so that a program behaves as it does
 * in a JVM of its own, only without that JVM's start-up. A second thread reads what the client sends while the
 * program runs (standard input); when the client goes away (Ctrl-C, a killed shell) the program is cancelled.
 */
final class DaemonSession {
    private final SocketChannel channel;
    private final ClientLink client;
    private final Engine engine;
    /** The thread that runs the program's main line, while it does. */
    private volatile Thread thread;

    DaemonSession(SocketChannel channel, Engine engine) {
        this.channel = channel;
        this.client = new ClientLink(channel);
        this.engine = engine;
    }

    /** Runs {@code run} for the client and tells it the exit status; returns when the program has ended. */
    void serve(Frames.Run run) {
        thread = Thread.currentThread();
        PrintStream out = new PrintStream(client.out, true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(client.err, true, StandardCharsets.UTF_8);
        Path cwd;
        try {
            cwd = Path.of(run.cwd());
        } catch (InvalidPathException e) {
            err.println("polygpu: the daemon cannot use the working directory " + run.cwd() + ": " + e.getMessage());
            client.send(Frames.EXIT, Frames.intPayload(1));
            return;
        }
        Main main = new Main(client.in, out, err, engine,
                new Surroundings(cwd, run.environment(), new SessionProcesses(client))).handingEngineOptionsBack();
        Thread reader = Thread.ofPlatform().daemon().name("polygpu-daemon client input")
                .start(() -> readInput(main));
        int status;
        try {
            status = main.run(run.args().toArray(String[]::new));
            if (main.ownEngineNeeded() != null) {
                client.send(Frames.OWN_PROCESS, Frames.textPayload("--" + main.ownEngineNeeded()
                        + " is an engine option"));
                return;
            }
        } catch (RuntimeException | Error e) {
            // as Main.main reports it; the daemon serves the next client all the same
            err.println("polygpu: internal error (please report it):");
            e.printStackTrace(err);
            status = 1;
        } finally {
            out.flush();
            err.flush();
        }
        client.send(Frames.EXIT, Frames.intPayload(status));
        reader.interrupt();
    }

    /** Whether this session's program runs on {@code t} (its main line; threads it starts are not known). */
    boolean runsOn(Thread t) {
        return thread == t;
    }

    /** The daemon is exiting under this session's program: tells its client why and how it ends. */
    void endWith(String message, int status) {
        byte[] line = Frames.textPayload(message + "\n");
        client.send(Frames.ERR, line);
        client.send(Frames.EXIT, Frames.intPayload(status));
    }

    /** Takes the client's frames while its program runs; the end of the connection cancels the program. */
    private void readInput(Main main) {
        try {
            Frames.Frame f;
            while ((f = Frames.read(channel)) != null) {
                if (f.type() == Frames.INPUT) {
                    client.received(f.payload());
                }
                // other frames have no meaning while a program runs; a newer client may send them
            }
        } catch (IOException e) {
            // the connection broke: the same as closing it
        }
        if (!client.isGone()) {
            client.clientGone();
            main.cancel();
        }
    }
}
