package dev.polygpu.launcher.daemon;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.SynchronousQueue;

/**
 * What {@code ./polygpu FILE} runs when the daemon is on: a small JVM (no polyglot, no compiler; it starts in a
 * tenth of a second) that hands the command to the user's daemon ({@link DaemonServer}) and plays the program's
 * standard streams and exit status back, starting the daemon first when none runs. A command the daemon cannot
 * run (engine options), and a daemon that cannot be started, run in a JVM of the client's own instead, as
 * {@code POLYGPU_DAEMON=off} would.
 *
 * <p>{@code DaemonClient DIR KEY IDLE_MINUTES INSTALL BUILD ARGS…}: DIR the user's daemon folder, KEY the
 * daemon's name in it, INSTALL the polygpu folder, BUILD its build's identity ({@code dev/daemon.sh}); {@code ARGS}
 * {@code daemon status} or {@code daemon stop} act on every daemon in DIR.
 */
public final class DaemonClient {
    /** How long a client waits for a daemon it started to listen (its JVM's start, on a busy machine). */
    private static final long START_TIMEOUT_MILLIS = 120_000;
    private static final long POLL_MILLIS = 50;
    /** What {@link #converse} returns when the daemon cannot run the command: outside the statuses 0–255. */
    static final int OWN_PROCESS = -1;
    /** What {@link #converse} returns when the connection ended without an exit status. */
    static final int DAEMON_ENDED = -2;
    /** The status of a process stopped by SIGPIPE (128 + 13), as a shell reports it. */
    private static final int BROKEN_PIPE = 141;
    /** How long a client waits before it starts a daemon again after one found the lock held. */
    private static final long RESTART_PAUSE_MILLIS = 1000;

    private final Path dir;
    private final Path socket;
    private final String idleMinutes;
    private final String install;
    private final String build;
    private final PrintStream err = System.err;

    DaemonClient(Path dir, String key, String idleMinutes, String install, String build) {
        this.dir = dir;
        this.socket = DaemonFiles.socket(dir, key);
        this.idleMinutes = idleMinutes;
        this.install = install;
        this.build = build;
    }

    public static void main(String[] args) {
        if (args.length < 5) {
            System.err.println("usage: DaemonClient DIR KEY IDLE_MINUTES INSTALL BUILD ARGS... (run by ./polygpu)");
            System.exit(2);
        }
        DaemonClient client = new DaemonClient(Path.of(args[0]), args[1], args[2], args[3], args[4]);
        List<String> command = Arrays.asList(args).subList(5, args.length);
        int status;
        try {
            status = !command.isEmpty() && command.get(0).equals("daemon")
                    ? client.daemonCommand(command.subList(1, command.size()))
                    : client.run(command);
        } catch (IOException e) {
            System.err.println("polygpu: the connection to the daemon failed (" + e.getMessage() + "; its log: "
                    + DaemonFiles.log(client.socket) + "); run again, or with POLYGPU_DAEMON=off");
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    /** {@code polygpu daemon status|stop}. */
    int daemonCommand(List<String> args) throws IOException {
        String what = args.isEmpty() ? "status" : args.get(0);
        if (args.size() > 1 || !(what.equals("status") || what.equals("stop"))) {
            err.println("usage: polygpu daemon [status|stop]\n  status  lists your polygpu daemons\n  stop    stops "
                    + "them (each after the programs it runs); the next ./polygpu starts one again");
            return what.equals("--help") || what.equals("-h") ? 0 : 2;
        }
        int found = 0;
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> sockets = Files.newDirectoryStream(dir, "*" + DaemonFiles.SOCKET)) {
                for (Path s : sockets) {
                    String answer = ask(s, what.equals("stop") ? Frames.STOP : Frames.STATUS);
                    if (answer == null) {
                        // a daemon that died without cleaning up: its socket file only misleads
                        Files.deleteIfExists(s);
                        continue;
                    }
                    found++;
                    System.out.println(answer + " (log: " + DaemonFiles.log(s) + ")");
                }
            }
        }
        if (found == 0) {
            System.out.println("no polygpu daemon is running");
        }
        return 0;
    }

    /** Runs {@code polygpu args} through the daemon; returns its exit status. */
    int run(List<String> args) throws IOException {
        SocketChannel connected = connect();
        if (connected == null) {
            Process starting = startDaemon(true);
            connected = starting == null ? null : awaitDaemon(starting);
            if (connected == null) {
                return runOwnJvm(args);
            }
        }
        try (SocketChannel channel = connected) {
            Frames.Run run = new Frames.Run(System.getProperty("user.dir"), System.getenv(), args);
            int status = converse(channel, run, new FileInputStream(FileDescriptor.in),
                    new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err));
            if (status == OWN_PROCESS) {
                return runOwnJvm(args);
            }
            if (status == DAEMON_ENDED) {
                err.println("polygpu: the daemon ended while it ran the program (its log: " + DaemonFiles.log(socket)
                        + "); run again, or with POLYGPU_DAEMON=off");
                return 1;
            }
            return status;
        }
    }

    /**
     * Sends {@code run} on {@code channel} and plays the daemon's answer back: the program's output to {@code out}
     * and {@code err}, {@code in} read only when the program reads its standard input. Returns the program's exit
     * status, {@link #OWN_PROCESS} when the daemon cannot run the command, {@link #DAEMON_ENDED} when the
     * connection ended without a status, or 141 (as SIGPIPE) when {@code out} or {@code err} is closed.
     */
    static int converse(SocketChannel channel, Frames.Run run, InputStream in, OutputStream out, OutputStream err)
            throws IOException {
        Frames.write(channel, Frames.RUN, run.encode());
        SynchronousQueue<Integer> reads = new SynchronousQueue<>();
        Thread input = Thread.ofPlatform().daemon().name("polygpu stdin").start(() -> sendInput(channel, in, reads));
        try {
            Frames.Frame f;
            while ((f = Frames.read(channel)) != null) {
                switch (f.type()) {
                    case Frames.OUT, Frames.ERR -> {
                        try {
                            (f.type() == Frames.OUT ? out : err).write(f.payload());
                            (f.type() == Frames.OUT ? out : err).flush();
                        } catch (IOException e) {
                            // a closed pipe (polygpu app.py | head): end as a process that SIGPIPE stopped;
                            // closing the connection cancels the program
                            return BROKEN_PIPE;
                        }
                    }
                    case Frames.READ -> {
                        try {
                            reads.put(f.asInt());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return 130;
                        }
                    }
                    case Frames.EXIT -> {
                        return f.asInt();
                    }
                    case Frames.OWN_PROCESS -> {
                        return OWN_PROCESS;
                    }
                    default -> {
                        // a frame this client does not know: from a newer daemon; ignore it
                    }
                }
            }
            return DAEMON_ENDED;
        } finally {
            input.interrupt();
        }
    }

    /** Reads standard input when the daemon asks for it, and sends it; an empty frame at its end. */
    private static void sendInput(SocketChannel channel, InputStream in, SynchronousQueue<Integer> reads) {
        try {
            while (true) {
                int want = reads.take();
                byte[] buffer = new byte[Math.min(Math.max(want, 1), 64 << 10)];
                int n = in.read(buffer);
                Frames.write(channel, Frames.INPUT, buffer, 0, Math.max(n, 0));
            }
        } catch (IOException | InterruptedException e) {
            // the run ended (the socket closed) or this JVM is exiting
        }
    }

    private SocketChannel connect() {
        if (!Files.exists(socket)) {
            return null;
        }
        try {
            SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                channel.connect(UnixDomainSocketAddress.of(socket));
                return channel;
            } catch (IOException e) {
                channel.close();
                return null;
            }
        } catch (IOException e) {
            return null;
        }
    }

    /** Starts a daemon for this build in its own session (a Ctrl-C here must not stop it); null if it cannot be. */
    private Process startDaemon(boolean announce) {
        List<String> command;
        try {
            command = readCommand();
        } catch (IOException e) {
            err.println("polygpu: cannot read the daemon's command " + DaemonFiles.command(socket) + " ("
                    + e.getMessage() + "); running without the daemon");
            return null;
        }
        List<String> full = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            full.add("/usr/bin/setsid");
        }
        full.addAll(command);
        full.addAll(List.of(DaemonServer.class.getName(), socket.toString(), idleMinutes, install, build));
        if (announce) {
            err.println("polygpu: starting a daemon that keeps the runtime warm for the next runs (stops after "
                    + idleMinutes + " idle minutes; POLYGPU_DAEMON=off runs without it)");
        }
        try {
            // in the daemon folder: it holds no user's folder open, and a path the program did not resolve
            // against its own working directory shows up as one that does not exist
            return new ProcessBuilder(full).directory(dir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(DaemonFiles.log(socket).toFile()))
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            err.println("polygpu: cannot start the daemon (" + e.getMessage() + "); running without it");
            return null;
        }
    }

    /**
     * Waits for the daemon just started to listen; null (said why) if it ends first or takes too long. One that
     * found the lock held (another client's daemon is starting, or an old one is stopping) is started again
     * after a pause, until one listens.
     */
    private SocketChannel awaitDaemon(Process starting) throws IOException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            SocketChannel channel = connect();
            if (channel != null) {
                return channel;
            }
            if (!starting.isAlive()) {
                if (starting.exitValue() != DaemonServer.LOCK_HELD) {
                    err.println("polygpu: the daemon did not start (status " + starting.exitValue() + ", its log: "
                            + DaemonFiles.log(socket) + "); running without it");
                    return null;
                }
                pause(RESTART_PAUSE_MILLIS);
                if (connect() instanceof SocketChannel c) {
                    return c;
                }
                starting = startDaemon(false);
                if (starting == null) {
                    return null;
                }
            }
            if (!pause(POLL_MILLIS)) {
                return null;
            }
        }
        err.println("polygpu: the daemon did not listen within " + START_TIMEOUT_MILLIS / 1000 + " s (its log: "
                + DaemonFiles.log(socket) + "); running without it");
        return null;
    }

    /** Sleeps; false when interrupted. */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs the command in a JVM of its own, with this process's streams, as {@code POLYGPU_DAEMON=off} does. */
    private int runOwnJvm(List<String> args) {
        List<String> command;
        try {
            command = readCommand();
        } catch (IOException e) {
            err.println("polygpu: cannot run the program: the JVM command " + DaemonFiles.command(socket)
                    + " cannot be read (" + e.getMessage() + "); run ./polygpu again, which writes it");
            return 1;
        }
        command.add("dev.polygpu.launcher.Main");
        command.addAll(args);
        try {
            return new ProcessBuilder(command).inheritIO().start().waitFor();
        } catch (IOException e) {
            err.println("polygpu: cannot run the program in a JVM of its own (" + e.getMessage() + "); the command "
                    + "is in " + DaemonFiles.command(socket));
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    /** The JVM command {@code ./polygpu} wrote for this build, up to the main class. */
    private List<String> readCommand() throws IOException {
        List<String> command = new ArrayList<>();
        for (String a : Files.readString(DaemonFiles.command(socket), StandardCharsets.UTF_8).split("\0")) {
            if (!a.isEmpty()) {
                command.add(a);
            }
        }
        return command;
    }

    /** Sends {@code type} (status or stop) to the daemon at {@code socket}; its answer, or null if none listens. */
    static String ask(Path socket, byte type) {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            Frames.write(channel, type, new byte[0]);
            Frames.Frame answer = Frames.read(channel);
            return answer != null && answer.type() == Frames.INFO ? answer.asText() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
