package dev.polygpu.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's part of {@code ./polygpu} ({@code dev/daemon.sh}): which commands go to it, the user's daemon
 * folder (which must be the user's alone: whoever reaches a socket runs programs as its user), which daemon a
 * run goes to (its key), and the JVM command file the client starts the daemon with.
 */
class DaemonScriptTest {
    private static final BashScript SCRIPT = new BashScript("daemon.sh");

    @TempDir
    Path tmp;

    private static BashScript.Result bash(String command, Map<String, String> env) {
        return SCRIPT.run(command, env);
    }

    private static String out(String command, Map<String, String> env) {
        BashScript.Result r = bash(command, env);
        assertEquals(0, r.status(), command + ": " + r);
        return r.out();
    }

    @Test
    void whichCommandsGoToTheDaemon() {
        String wanted = "polygpu_daemon_wanted \"$@\" && echo yes || echo no";
        assertEquals("yes\n", out("set -- app.py -n 3; " + wanted, Map.of()));
        assertEquals("no\n", out("set -- app.py; " + wanted, Map.of("POLYGPU_DAEMON", "off")));
        for (String own : new String[] {"worker", "notebook", "simulate"}) {
            assertEquals("no\n", out("set -- " + own + " --help; " + wanted, Map.of()), own);
        }
    }

    @Test
    void theFolderIsMadeForTheUserAloneAndAnotherOneIsRefused() throws IOException {
        Path dir = tmp.resolve("made");
        assertEquals(dir.toString(), out("polygpu_daemon_dir", Map.of("POLYGPU_DAEMON_DIR", dir.toString())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));

        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        BashScript.Result r = bash("polygpu_daemon_dir", Map.of("POLYGPU_DAEMON_DIR", open.toString()));
        assertEquals(1, r.status(), r.toString());
        assertEquals("", r.out());
        assertTrue(r.err().contains("must belong to you with mode 700 (it is owner ")
                && r.err().contains("mode 755); running without the daemon"), r.err());
    }

    @Test
    void idleMinutesAreCheckedAndDefaultToThirty() {
        assertEquals("30", out("polygpu_daemon_idle", Map.of()));
        assertEquals("5", out("polygpu_daemon_idle", Map.of("POLYGPU_DAEMON_IDLE", "5")));
        BashScript.Result r = bash("polygpu_daemon_idle", Map.of("POLYGPU_DAEMON_IDLE", "soon"));
        assertEquals("30", r.out());
        assertTrue(r.err().contains("whole number of minutes of at least 1, not 'soon'"), r.err());
    }

    @Test
    void aNewBuildOrOtherProcessWideSettingsAreAnotherDaemon() throws IOException {
        Path install = tmp.resolve("install");
        Path lib = Files.createDirectories(install.resolve("launcher/target/lib"));
        Path jar = Files.writeString(lib.resolve("a.jar"), "a");
        Path stamp = Files.writeString(lib.resolve(".built"), "");
        String buildCommand = "polygpu_daemon_build '" + install + "' '" + stamp + "' java -Xss8m";
        String build = out(buildCommand, Map.of()).strip();
        assertEquals(16, build.length(), build);
        assertEquals(build, out(buildCommand, Map.of()).strip());
        assertNotEquals(build, out("polygpu_daemon_build '" + install + "' '" + stamp + "' java -Xss4m", Map.of())
                .strip(), "other JVM flags");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));
        assertNotEquals(build, out(buildCommand, Map.of()).strip(), "a rebuilt jar");

        String keyCommand = "polygpu_daemon_key '" + install + "' b1";
        String key = out(keyCommand, Map.of()).strip();
        assertEquals(key, out(keyCommand, Map.of("SOME_PROGRAM_SETTING", "x")).strip(),
                "a variable the program reads is sent with each run, not a daemon of its own");
        assertNotEquals(key, out(keyCommand, Map.of("CUDA_VISIBLE_DEVICES", "1")).strip());
        assertNotEquals(key, out("polygpu_daemon_key '" + install + "' b2", Map.of()).strip());
    }

    @Test
    void theCommandFileIsWrittenOnlyWhenItChanges() throws IOException {
        Path file = tmp.resolve("k.cmd");
        String write = "polygpu_daemon_write_command '" + file + "' /jdk/bin/java '-Dx=a b' -cp 'c:d'";
        out(write, Map.of());
        assertEquals("/jdk/bin/java\0-Dx=a b\0-cp\0c:d\0", Files.readString(file, StandardCharsets.UTF_8));
        FileTime old = FileTime.from(Instant.now().minusSeconds(3600));
        Files.setLastModifiedTime(file, old);
        out(write, Map.of());
        assertEquals(old, Files.getLastModifiedTime(file), "unchanged: not written again");
        out("polygpu_daemon_write_command '" + file + "' /jdk/bin/java -cp e", Map.of());
        assertEquals("/jdk/bin/java\0-cp\0e\0", Files.readString(file, StandardCharsets.UTF_8));
    }
}
