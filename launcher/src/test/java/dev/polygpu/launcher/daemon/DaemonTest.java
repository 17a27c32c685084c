package dev.polygpu.launcher.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.graalvm.polyglot.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon and its client in this JVM: a {@link DaemonServer} on a socket in a temporary folder, with one
 * engine for the class, and runs sent to it by {@link DaemonClient#converse} with the client's folder,
 * environment and streams. What a program sees (its folder, environment, arguments, standard input, its
 * subprocesses' streams, its exit status) must be the client's, and a client that goes away must not leave its
 * program running.
 */
@Timeout(300)
class DaemonTest {
    @TempDir
    static Path dir;
    private static Engine engine;
    private static DaemonServer server;
    private static CompletableFuture<Void> serving;
    private static Path socket;

    @BeforeAll
    static void start() throws IOException {
        engine = Engine.newBuilder().option("engine.WarnInterpreterOnly", "false").build();
        socket = DaemonFiles.socket(dir, "test");
        server = new DaemonServer(socket, Duration.ofMinutes(30), "/test/install", "b1", () -> null);
        server.listen();
        // threads of their own: the common pool may have a single worker on a small machine
        serving = CompletableFuture.runAsync(() -> {
            try {
                server.serve(engine);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, r -> Thread.ofPlatform().name("daemon under test").start(r));
    }

    @AfterAll
    static void stop() throws Exception {
        assertNotNull(DaemonClient.ask(socket, Frames.STOP));
        serving.get();
        assertFalse(Files.exists(socket), "a stopped daemon removes its socket");
        engine.close();
    }

    /** What one run gave back. */
    record Result(int status, String out, String err) {
    }

    private static Result run(Path cwd, Map<String, String> env, InputStream in, String... args) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (SocketChannel channel = connect()) {
            int status = DaemonClient.converse(channel, new Frames.Run(cwd.toString(), env, List.of(args)), in, out,
                    err);
            return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    private static SocketChannel connect() throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        return channel;
    }

    private static Path write(Path folder, String name, String text) throws IOException {
        Files.createDirectories(folder);
        return Files.writeString(folder.resolve(name), text);
    }

    /** Fails the test when read: for programs that must not ask for input. */
    private static final InputStream NO_INPUT = new InputStream() {
        @Override
        public int read() {
            fail("the daemon asked for standard input that the program never reads");
            return -1;
        }
    };

    @Test
    void aProgramSeesTheClientsFolderEnvironmentAndArguments() throws IOException {
        Path work = dir.resolve("work");
        write(work.resolve("data"), "in.txt", "from the client's folder\n");
        write(work, "app.py", """
                import os, sys
                print(open("data/in.txt").read().strip())
                print(os.getcwd())
                print(sys.argv)
                print(os.environ.get("POLYGPU_TEST_VAR"), "HOME" in os.environ)
                sys.exit(3)
                """);
        Result r = run(work, Map.of("POLYGPU_TEST_VAR", "client value"), NO_INPUT, "app.py", "-n", "5");
        assertEquals(3, r.status(), r.toString());
        assertEquals("from the client's folder\n" + work + "\n['app.py', '-n', '5']\nclient value False\n", r.out());
        assertTrue(r.err().contains("polygpu: running kernels on"), r.err());
    }

    @Test
    void aJavaScriptProgramAndItsErrors() throws IOException {
        write(dir, "fail.js", "console.log('before'); throw new Error('bad thing');\n");
        Result r = run(dir, Map.of(), NO_INPUT, "fail.js");
        assertEquals(1, r.status(), r.toString());
        assertEquals("before\n", r.out());
        assertTrue(r.err().contains("bad thing"), r.err());
        Result missing = run(dir, Map.of(), NO_INPUT, "nowhere.py");
        assertEquals(2, missing.status(), missing.toString());
        assertTrue(missing.err().contains("no such file: nowhere.py"), missing.err());
    }

    @Test
    void standardInputIsReadOnlyWhenTheProgramReadsIt() throws IOException {
        write(dir, "echo.py", """
                import sys
                first = sys.stdin.readline()
                rest = sys.stdin.read()
                print("first", repr(first), "rest", repr(rest))
                """);
        InputStream in = new ByteArrayInputStream("one\ntwo\nthree\n".getBytes(StandardCharsets.UTF_8));
        Result r = run(dir, Map.of(), in, "echo.py");
        assertEquals(0, r.status(), r.toString());
        assertEquals("first 'one\\n' rest 'two\\nthree\\n'\n", r.out());
    }

    @Test
    void subprocessesWriteToTheClientAndLeaveItsInputToTheProgram() throws IOException {
        write(dir, "sub.py", """
                import subprocess, sys
                subprocess.run(["echo", "child output"])
                subprocess.run(["sh", "-c", "echo child error >&2"])
                r = subprocess.run(["cat"])
                captured = subprocess.run(["echo", "captured"], capture_output=True).stdout
                print("parent", r.returncode, captured, repr(sys.stdin.read()))
                """);
        InputStream in = new ByteArrayInputStream("for the parent\n".getBytes(StandardCharsets.UTF_8));
        Result r = run(dir, Map.of("PATH", System.getenv("PATH")), in, "sub.py");
        assertEquals(0, r.status(), r.toString());
        // GraalPy merges an inherited standard error into standard output (so does ./polygpu without the daemon);
        // cat gets an empty input, and the parent reads all of its own
        assertEquals("child output\nchild error\nparent 0 b'captured\\n' 'for the parent\\n'\n", r.out());
    }

    @Test
    void aRelativeExportPathIsTheClientsFolder() throws IOException {
        Path work = dir.resolve("export");
        write(work, "k.py", """
                import polyglot
                cu = polyglot.eval(language="grcuda", string="CU")
                a = cu.DeviceArray("int", 4)
                a[0] = 1
                print(a[0])
                """);
        Result r = run(work, Map.of(), NO_INPUT, "--grcuda.ExportDAG=dag.dot", "k.py");
        assertEquals(0, r.status(), r.toString());
        assertTrue(Files.isRegularFile(work.resolve("dag.dot")), r.toString());
        Result bad = run(work, Map.of(), NO_INPUT, "--grcuda.ExportDAG=no/such/folder/dag.dot", "k.py");
        assertEquals(1, bad.status(), bad.toString());
        assertTrue(bad.err().contains("grcuda.ExportDAG=no/such/folder/dag.dot cannot be written: the folder "
                + work.resolve("no/such/folder") + " does not exist"), bad.err());
        assertEquals("", bad.out());
    }

    @Test
    void twoProgramsRunAtOnce() throws Exception {
        write(dir, "waits.py", "import sys\nprint('waiting')\nopen('started', 'w').close()\n"
                + "print('got', sys.stdin.readline().strip())\n");
        write(dir, "quick.py", "print('quick')\n");
        PipedOutputStream feed = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(feed);
        CompletableFuture<Result> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return run(dir, Map.of(), in, "waits.py");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, r -> Thread.ofPlatform().name("waiting client").start(r));
        // its first line: it is running, and next blocked on its input
        while (!Files.exists(dir.resolve("started"))) {
            assertFalse(waiting.isDone(), () -> waiting.join().toString());
            Thread.sleep(50);
        }
        // the first program is blocked on its input: the second runs to its end meanwhile
        Result quick = run(dir, Map.of(), NO_INPUT, "quick.py");
        assertEquals("quick\n", quick.out(), quick.toString());
        assertFalse(waiting.isDone());
        feed.write("go\n".getBytes(StandardCharsets.UTF_8));
        feed.close();
        Result r = waiting.get();
        assertEquals("waiting\ngot go\n", r.out(), r.toString());
    }

    @Test
    void aClientThatGoesAwayCancelsItsProgram() throws Exception {
        write(dir, "spin.py", "print('spinning', flush=True)\nwhile True:\n    pass\n");
        try (SocketChannel channel = connect()) {
            Frames.write(channel, Frames.RUN, new Frames.Run(dir.toString(), Map.of(), List.of("spin.py")).encode());
            // wait for the program's own line: it is running
            StringBuilder seen = new StringBuilder();
            while (!seen.toString().contains("spinning")) {
                Frames.Frame f = Frames.read(channel);
                assertNotNull(f, "the daemon closed the connection");
                if (f.type() == Frames.OUT) {
                    seen.append(f.asText());
                }
            }
        }
        // gone: the daemon cancels it (polled: the cancellation reaches the program at its next safepoint)
        String status = DaemonClient.ask(socket, Frames.STATUS);
        for (int i = 0; i < 600 && !status.contains(" 0 running"); i++) {
            Thread.sleep(100);
            status = DaemonClient.ask(socket, Frames.STATUS);
        }
        assertTrue(status.contains(" 0 running"), status);
        write(dir, "after.py", "print('still serving')\n");
        assertEquals("still serving\n", run(dir, Map.of(), NO_INPUT, "after.py").out());
    }

    @Test
    void anEngineOptionAsksForAProcessOfItsOwn() throws IOException {
        write(dir, "plain.py", "print('never here')\n");
        Result r = run(dir, Map.of(), NO_INPUT, "--engine.WarnInterpreterOnly=false", "plain.py");
        assertEquals(DaemonClient.OWN_PROCESS, r.status(), r.toString());
        assertEquals("", r.out());
    }

    @Test
    void aClientOfAnotherProtocolVersionIsToldWhatToDo() throws IOException {
        byte[] payload = new Frames.Run(dir.toString(), Map.of(), List.of("x.py")).encode();
        payload[3] = (byte) (Frames.VERSION + 1);
        try (SocketChannel channel = connect()) {
            Frames.write(channel, Frames.RUN, payload);
            Frames.Frame err = Frames.read(channel);
            assertEquals(Frames.ERR, err.type());
            assertTrue(err.asText().contains("polygpu daemon stop"), err.asText());
            Frames.Frame exit = Frames.read(channel);
            assertEquals(Frames.EXIT, exit.type());
            assertEquals(1, exit.asInt());
        }
    }

    @Test
    void statusDescribesTheDaemon() {
        String status = DaemonClient.ask(socket, Frames.STATUS);
        assertTrue(status.matches("pid \\d+, up \\d+ min, \\d+ programs run, \\d+ running, /test/install"), status);
        assertEquals(null, DaemonClient.ask(dir.resolve("none.sock"), Frames.STATUS));
    }

    @Test
    void aNewDaemonRetiresTheEndedDaemonsOfEarlierBuildsOfItsInstallation() throws IOException {
        Path other = Files.createDirectories(dir.resolve("retire"));
        DaemonServer fresh = new DaemonServer(DaemonFiles.socket(other, "new"), Duration.ofMinutes(1), "/i", "b2",
                () -> null);
        Path old = DaemonFiles.socket(other, "old");
        Path sameBuild = DaemonFiles.socket(other, "samebuild");
        Path elsewhere = DaemonFiles.socket(other, "elsewhere");
        for (Path s : List.of(old, sameBuild, elsewhere)) {
            Files.writeString(DaemonFiles.command(s), "java\0");
            Files.writeString(DaemonFiles.log(s), "log\n");
        }
        Files.writeString(DaemonFiles.info(old), "pid 1\ninstall /i\nbuild b1\n");
        Files.writeString(DaemonFiles.info(sameBuild), "pid 2\ninstall /i\nbuild b2\n");
        Files.writeString(DaemonFiles.info(elsewhere), "pid 3\ninstall /j\nbuild b1\n");
        Path neverStarted = DaemonFiles.command(DaemonFiles.socket(other, "never"));
        Files.writeString(neverStarted, "java\0");
        Files.setLastModifiedTime(neverStarted, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
        Path justWritten = Files.writeString(DaemonFiles.command(DaemonFiles.socket(other, "soon")), "java\0");
        fresh.retireOlderBuilds();
        assertFalse(Files.exists(neverStarted), "a day-old command file of a daemon that never started goes");
        assertTrue(Files.exists(justWritten), "a fresh one stays: its daemon may be starting");
        assertFalse(Files.exists(DaemonFiles.info(old)), "an ended daemon of an earlier build: its files go");
        assertFalse(Files.exists(DaemonFiles.command(old)));
        assertFalse(Files.exists(DaemonFiles.log(old)));
        assertTrue(Files.exists(DaemonFiles.info(sameBuild)), "the same build with other settings stays");
        assertTrue(Files.exists(DaemonFiles.info(elsewhere)), "another installation's stays");
    }

    @Test
    void aDaemonWhoseProcessCanNoLongerUseCudaStopsAfterTheProgram() throws Exception {
        Path own = Files.createDirectories(dir.resolve("lost"));
        Path lostSocket = DaemonFiles.socket(own, "lost");
        AtomicReference<String> lost = new AtomicReference<>();
        DaemonServer d = new DaemonServer(lostSocket, Duration.ofMinutes(30), "/test/install", "b1", lost::get);
        d.listen();
        CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
            try {
                d.serve(engine);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, r -> Thread.ofPlatform().name("daemon that loses CUDA").start(r));
        write(own, "faults.py", "print('a kernel faulted')\n");
        // what the CUDA device records when a kernel faults on a GPU (CudaProcessHealth)
        lost.set("cuStreamSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS (700)");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(lostSocket));
            int status = DaemonClient.converse(channel, new Frames.Run(own.toString(), Map.of(),
                    List.of("faults.py")), NO_INPUT, out, new ByteArrayOutputStream());
            assertEquals(0, status);
        }
        assertEquals("a kernel faulted\n", out.toString(StandardCharsets.UTF_8), "the program ran to its end");
        running.get();
        assertFalse(Files.exists(lostSocket), "the daemon stopped: the next run starts a fresh one");
    }
}
