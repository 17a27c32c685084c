package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon as {@code ./polygpu} uses it, in processes: the client JVM ({@code DaemonClient}, what
 * {@code ./polygpu FILE} runs) starts a daemon from the command file {@code ./polygpu} writes, hands it the
 * program, and later clients reuse it; a client killed mid-run does not leave its program running; a command the
 * daemon cannot run goes to a JVM of its own; {@code polygpu daemon status|stop}.
 */
@Tag("slow")
class DaemonProcessTest {
    private static final Duration RUN = Duration.ofMinutes(4);
    private static final String KEY = "processtest";

    @TempDir
    Path tmp;
    private Path daemons;
    private Path work;
    private final List<PolygpuProcess> all = new ArrayList<>();

    @BeforeEach
    void folders() throws IOException {
        daemons = Files.createDirectory(tmp.resolve("daemons"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        work = Files.createDirectory(tmp.resolve("work"));
        // what ./polygpu writes: the JVM command, NUL-separated
        StringBuilder command = new StringBuilder();
        for (String a : PolygpuProcess.jvm()) {
            command.append(a).append('\0');
        }
        Files.writeString(daemons.resolve(KEY + ".cmd"), command, StandardCharsets.UTF_8);
        Files.writeString(work.resolve("hi.py"), """
                import os, sys
                print("hi from", os.getcwd(), sys.argv[1:], os.environ.get("POLYGPU_TEST_VAR"))
                """);
    }

    @AfterEach
    void stopDaemons() {
        try (PolygpuProcess stop = client("stop", "daemon", "stop")) {
            stop.awaitExit(RUN, all);
        }
        for (PolygpuProcess p : all) {
            p.close();
        }
    }

    private PolygpuProcess client(String name, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        List<String> jvm = PolygpuProcess.jvm();
        command.addAll(jvm.subList(jvm.indexOf("-cp"), jvm.size()));
        command.addAll(List.of("dev.polygpu.launcher.daemon.DaemonClient", daemons.toString(), KEY, "5",
                "/polygpu/test/install", "testbuild"));
        command.addAll(List.of(args));
        PolygpuProcess p = PolygpuProcess.start(name, Map.of("POLYGPU_TEST_VAR", name), List.of(args), command,
                work);
        all.add(p);
        return p;
    }

    private String status() {
        PolygpuProcess p = client("status", "daemon", "status");
        assertEquals(0, p.awaitExit(RUN, all), p.toString());
        return p.out();
    }

    @Test
    void theFirstRunStartsTheDaemonTheNextOnesUseIt() throws IOException {
        PolygpuProcess first = client("first", "hi.py", "a");
        assertEquals(0, first.awaitExit(RUN, all), first.toString());
        assertEquals("hi from " + work + " ['a'] first\n", first.out());
        assertTrue(first.err().contains("polygpu: starting a daemon"), first.err());

        PolygpuProcess second = client("second", "hi.py", "b");
        assertEquals(0, second.awaitExit(RUN, all), second.toString());
        assertEquals("hi from " + work + " ['b'] second\n", second.out());
        assertFalse(second.err().contains("starting a daemon"), second.err());
        assertTrue(status().contains("2 programs run, 0 running, /polygpu/test/install"), status());

        // the daemon runs in its own folder and session: the client's files are not its
        assertTrue(Files.readString(daemons.resolve(KEY + ".info"), StandardCharsets.UTF_8)
                .contains("install /polygpu/test/install"));

        // an engine option: a JVM of the client's own runs it, with the same result
        PolygpuProcess own = client("own", "--engine.WarnInterpreterOnly=false", "hi.py", "c");
        assertEquals(0, own.awaitExit(RUN, all), own.toString());
        assertEquals("hi from " + work + " ['c'] own\n", own.out());
    }

    @Test
    void aKilledClientDoesNotLeaveItsProgramRunning() throws Exception {
        Files.writeString(work.resolve("spin.py"), "print('spinning', flush=True)\nwhile True:\n    pass\n");
        PolygpuProcess spin = client("spin", "spin.py");
        spin.await("its first line", p -> p.out().contains("spinning"), RUN, all);
        assertTrue(status().contains("1 running"), status());
        spin.kill();
        spin.awaitExit(RUN, all);
        String s = status();
        for (int i = 0; i < 120 && !s.contains(" 0 running"); i++) {
            Thread.sleep(500);
            s = status();
        }
        assertTrue(s.contains(" 0 running"), s);

        PolygpuProcess stop = client("stop now", "daemon", "stop");
        assertEquals(0, stop.awaitExit(RUN, all), stop.toString());
        assertTrue(stop.out().contains("stopping"), stop.out());
        s = status();
        for (int i = 0; i < 120 && !s.contains("no polygpu daemon is running"); i++) {
            Thread.sleep(500);
            s = status();
        }
        assertEquals("no polygpu daemon is running\n", s);
        assertFalse(Files.exists(daemons.resolve(KEY + ".sock")));
    }

    @Test
    void aDaemonThatCannotStartLeavesTheRunToAJvmOfItsOwn() throws IOException {
        // a stale socket file, no daemon behind it, and a command file the daemon cannot start from
        Files.writeString(daemons.resolve(KEY + ".cmd"), "/nonexistent/java\0", StandardCharsets.UTF_8);
        Files.createFile(daemons.resolve(KEY + ".sock"));
        PolygpuProcess r = client("no daemon", "hi.py");
        int status = r.awaitExit(RUN, all);
        assertTrue(r.err().contains("cannot start the daemon") || r.err().contains("the daemon did not start"),
                r.toString());
        // and the JVM of its own cannot start either: said so, not a hang or a stack trace
        assertEquals(1, status, r.toString());
        assertTrue(r.err().contains("polygpu: cannot run"), r.toString());
        if (r.err().contains("Exception in thread")) {
            fail(r.toString());
        }
    }

    @Test
    void aProgramThatCallsSystemExitEndsTheDaemonAndEveryClientIsToldWhy() throws IOException {
        Files.writeString(work.resolve("spin.py"), "print('spinning', flush=True)\nwhile True:\n    pass\n");
        Files.writeString(work.resolve("exits.py"), "import java\njava.type('java.lang.System').exit(5)\n");
        PolygpuProcess spin = client("spin", "spin.py");
        spin.await("its first line", p -> p.out().contains("spinning"), RUN, all);
        PolygpuProcess exits = client("exits", "exits.py");
        assertEquals(5, exits.awaitExit(RUN, all), exits.toString());
        assertTrue(exits.err().contains("the program called System.exit(5), which ends the daemon"), exits.err());
        assertEquals(1, spin.awaitExit(RUN, all), spin.toString());
        assertTrue(spin.err().contains("another program in the daemon called System.exit(5)"), spin.err());
        assertEquals("no polygpu daemon is running\n", status());
        // the next run starts a daemon again
        PolygpuProcess again = client("again", "hi.py");
        assertEquals(0, again.awaitExit(RUN, all), again.toString());
        assertTrue(again.err().contains("starting a daemon"), again.err());
    }

    @Test
    void twoFirstRunsAtOnceShareOneDaemon() {
        // both find no daemon and start one; one of the two gets the lock, the other client waits for it
        PolygpuProcess a = client("first a", "hi.py", "a");
        PolygpuProcess b = client("first b", "hi.py", "b");
        assertEquals(0, a.awaitExit(RUN, all), a.toString());
        assertEquals(0, b.awaitExit(RUN, all), b.toString());
        assertEquals("hi from " + work + " ['a'] first a\n", a.out());
        assertEquals("hi from " + work + " ['b'] first b\n", b.out());
        String s = status();
        assertTrue(s.contains("2 programs run"), s);
        assertEquals(1, s.lines().count(), "one daemon: " + s);
    }
}
