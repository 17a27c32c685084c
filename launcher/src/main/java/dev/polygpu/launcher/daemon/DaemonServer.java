package dev.polygpu.launcher.daemon;

import dev.polygpu.device.cuda.CudaProcessHealth;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.graalvm.polyglot.Engine;

/**
 * The polygpu daemon: a JVM that keeps one polyglot engine warm (GraalPy's and GraalJS's code loaded, parsed
 * and compiled) and runs each {@code ./polygpu FILE} sent to it on its Unix-domain socket in a fresh context of
 * that engine ({@link DaemonSession}), several at once. It is what takes a Python program's start from seconds to
 * a fraction of one from the second run on; {@link DaemonClient} starts it on the first.
 *
 * <p>{@code DaemonServer SOCKET IDLE_MINUTES INSTALL BUILD}: one daemon per socket (a lock file beside it, held
 * while it runs, keeps a second one from starting); only the user it runs as may connect (the socket's folder is the
 * user's alone, and each connection's peer is checked); it stops after {@code IDLE_MINUTES} with nothing to run,
 * when asked ({@code polygpu daemon stop}), when a daemon of a newer build of the same installation starts, or
 * after a program that left the process unable to use CUDA ({@link CudaProcessHealth}).
 */
public final class DaemonServer {
    /** The exit status of a daemon that found another one holding its lock (starting, running or stopping). */
    static final int LOCK_HELD = 3;
    /** How often the idle timeout is looked at. */
    private static final Duration IDLE_CHECK = Duration.ofSeconds(20);

    private final Path socket;
    private final Duration idle;
    private final String install;
    private final String build;
    /** Null while this process can still run programs; otherwise why it cannot (a CUDA context lost). */
    private final Supplier<String> unusable;
    private final Instant started = Instant.now();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger served = new AtomicInteger();
    private final AtomicLong lastActivity = new AtomicLong(System.nanoTime());
    /** The sessions running a program now. */
    private final Set<DaemonSession> live = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;
    private ServerSocketChannel server;

    DaemonServer(Path socket, Duration idle, String install, String build, Supplier<String> unusable) {
        this.socket = socket;
        this.idle = idle;
        this.install = install;
        this.build = build;
        this.unusable = unusable;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: DaemonServer SOCKET IDLE_MINUTES INSTALL BUILD (started by ./polygpu)");
            System.exit(2);
        }
        Path socket = Path.of(args[0]);
        DaemonServer daemon = new DaemonServer(socket, Duration.ofMinutes(Long.parseLong(args[1])), args[2],
                args[3], CudaProcessHealth::lostBecause);
        try (FileChannel lockFile = FileChannel.open(DaemonFiles.lock(socket), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = lockFile.tryLock()) {
            if (lock == null) {
                log("another daemon holds " + DaemonFiles.lock(socket) + ": this one is not needed");
                System.exit(LOCK_HELD);
            }
            daemon.listen();
            ExitNotice.install(daemon.live);
            Thread.ofPlatform().daemon().name("polygpu-daemon retire").start(daemon::retireOlderBuilds);
            try (Engine engine = Engine.newBuilder().build()) {
                daemon.serve(engine);
            }
        }
        System.exit(0);
    }

    /** Opens the socket, for the user alone, and writes the info file beside it. */
    void listen() throws IOException {
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        Files.writeString(DaemonFiles.info(socket), "pid " + ProcessHandle.current().pid() + "\ninstall " + install
                + "\nbuild " + build + "\n", StandardCharsets.UTF_8);
        log("listening on " + socket + " (pid " + ProcessHandle.current().pid() + ", stops after " + idle.toMinutes()
                + " idle minutes)");
    }

    /**
     * Runs each client's command in a context of {@code engine} until the daemon is stopped (asked to, or idle
     * for the timeout) and the programs it runs have ended.
     */
    void serve(Engine engine) throws IOException {
        Thread.ofPlatform().daemon().name("polygpu-daemon idle timeout").start(this::watchIdle);
        try {
            acceptLoop(engine);
            while (running.get() > 0) {
                sleep(Duration.ofMillis(200));
            }
        } finally {
            log("stopped after " + served.get() + " programs");
        }
    }

    private void acceptLoop(Engine engine) throws IOException {
        while (!stopping) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException e) {
                return;
            }
            lastActivity.set(System.nanoTime());
            if (!sameUser(channel)) {
                channel.close();
                continue;
            }
            Thread.ofPlatform().name("polygpu-daemon session").start(() -> handle(channel, engine));
        }
    }

    private void handle(SocketChannel channel, Engine engine) {
        running.incrementAndGet();
        try (channel) {
            Frames.Frame first = Frames.read(channel);
            if (first == null) {
                return;
            }
            switch (first.type()) {
                case Frames.RUN -> {
                    Frames.Run run;
                    try {
                        run = Frames.Run.decode(first.payload());
                    } catch (IOException e) {
                        Frames.write(channel, Frames.ERR, Frames.textPayload("polygpu: " + e.getMessage()
                                + "; stop the old daemon (polygpu daemon stop) and run again\n"));
                        Frames.write(channel, Frames.EXIT, Frames.intPayload(1));
                        return;
                    }
                    served.incrementAndGet();
                    DaemonSession session = new DaemonSession(channel, engine);
                    live.add(session);
                    try {
                        session.serve(run);
                    } finally {
                        live.remove(session);
                    }
                    String why = unusable.get();
                    if (why != null) {
                        // the program was told of its error; the next one must not meet a process CUDA gave up on
                        stop("CUDA cannot be used in this process any more (" + why + "); the next run starts a "
                                + "fresh daemon");
                    }
                }
                case Frames.STATUS -> Frames.write(channel, Frames.INFO, Frames.textPayload(describe()));
                case Frames.STOP -> {
                    Frames.write(channel, Frames.INFO, Frames.textPayload(describe() + "; stopping"
                            + (running.get() > 1 ? " when its programs end" : "")));
                    stop("asked to");
                }
                default -> log("a connection opened with frame '" + (char) first.type() + "': closed");
            }
        } catch (IOException e) {
            log("a connection ended early: " + e.getMessage());
        } finally {
            running.decrementAndGet();
            lastActivity.set(System.nanoTime());
        }
    }

    /** One line about this daemon, for {@code polygpu daemon status}. */
    private String describe() {
        Duration up = Duration.between(started, Instant.now());
        return "pid " + ProcessHandle.current().pid() + ", up " + up.toMinutes() + " min, " + served.get()
                + " programs run, " + Math.max(0, running.get() - 1) + " running, " + install;
    }

    void stop(String why) {
        if (!stopping) {
            stopping = true;
            log("stopping: " + why);
            try {
                Files.deleteIfExists(socket);
                server.close();
            } catch (IOException e) {
                log("closing the socket: " + e.getMessage());
            }
        }
    }

    private void watchIdle() {
        while (!stopping) {
            sleep(IDLE_CHECK);
            if (running.get() == 0 && System.nanoTime() - lastActivity.get() > idle.toNanos()) {
                stop("idle for " + idle.toMinutes() + " minutes");
            }
        }
    }

    /**
     * The socket's folder is the user's alone, so another user cannot reach it; the peer's user is checked
     * all the same, in case the folder's permissions were changed after it was made.
     */
    private static boolean sameUser(SocketChannel channel) {
        try {
            UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
            String me = System.getProperty("user.name");
            if (!peer.user().getName().equals(me)) {
                log("refused a connection from user " + peer.user().getName());
                return false;
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            log("cannot check a connection's user (" + e + "): refused");
            return false;
        }
    }

    /**
     * Stops the daemons of earlier builds of this installation (their sockets are no longer used) and removes
     * the files of those that have ended: a daemon leaves its info file when it stops, for this.
     */
    void retireOlderBuilds() {
        try (DirectoryStream<Path> infos = Files.newDirectoryStream(socket.getParent(), "*" + DaemonFiles.INFO)) {
            for (Path info : infos) {
                Path other = DaemonFiles.socketOf(info);
                List<String> lines = Files.readAllLines(info);
                if (other.equals(socket) || !lines.contains("install " + install) || lines.contains("build " + build)) {
                    // another installation's, or this build's with other process-wide settings (dev/daemon.sh)
                    continue;
                }
                String answer = DaemonClient.ask(other, Frames.STOP);
                if (answer != null) {
                    log("stopped the daemon of an earlier build: " + answer);
                }
                removeIfEnded(other);
            }
            removeUnusedCommands();
        } catch (IOException e) {
            log("looking for daemons of earlier builds: " + e.getMessage());
        }
    }

    /**
     * Removes the command files ./polygpu wrote for daemons that never started (a run that went to a JVM of its
     * own), once they are a day old: nothing else would.
     */
    private void removeUnusedCommands() throws IOException {
        long dayAgo = System.currentTimeMillis() - Duration.ofDays(1).toMillis();
        Path dir = socket.getParent();
        try (DirectoryStream<Path> commands = Files.newDirectoryStream(dir, "*" + DaemonFiles.COMMAND)) {
            for (Path command : commands) {
                Path other = DaemonFiles.socketOf(command);
                if (!Files.exists(DaemonFiles.info(other)) && !Files.exists(DaemonFiles.lock(other))
                        && Files.getLastModifiedTime(command).toMillis() < dayAgo) {
                    Files.deleteIfExists(command);
                }
            }
        }
    }

    /**
     * Removes the files of the daemon at {@code other} once it has ended (its lock is free), waiting a little for
     * one just asked to stop.
     */
    private static void removeIfEnded(Path other) throws IOException {
        Path lockPath = DaemonFiles.lock(other);
        try (FileChannel lockFile = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = null;
            for (int i = 0; i < 25 && lock == null; i++) {
                lock = lockFile.tryLock();
                if (lock == null) {
                    sleep(Duration.ofMillis(200));
                }
            }
            if (lock == null) {
                // still running the programs it had: its files go at the next daemon's start
                return;
            }
            for (Path p : List.of(other, DaemonFiles.info(other), DaemonFiles.command(other), DaemonFiles.log(other))) {
                Files.deleteIfExists(p);
            }
            Files.delete(lockPath);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void log(String line) {
        System.err.println(Instant.now() + " polygpu daemon: " + line);
    }
}
