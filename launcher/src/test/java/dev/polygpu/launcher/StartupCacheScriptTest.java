package dev.polygpu.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up cache of {@code ./polygpu} ({@code dev/startup-cache.sh}): when it is made again, what it is made
 * with, and what a failure leaves. The script's functions run in bash against a launcher target folder of small
 * stand-in jars and a stand-in JDK whose {@code jlink} and {@code java} write what the real ones would (a runtime
 * image with a {@code bin/java}; the file named by {@code -XX:AOTCacheOutput}) and log how they were called.
 */
class StartupCacheScriptTest {
    private static final BashScript SCRIPT = new BashScript("startup-cache.sh");
    @TempDir
    Path tmp;
    private Path target;
    private Path jdk;
    private Path cache;
    private Path calls;

    @BeforeEach
    void layout() throws IOException {
        target = tmp.resolve("target");
        Files.createDirectories(target.resolve("lib"));
        Files.createDirectories(target.resolve("jit"));
        Files.writeString(target.resolve("polygpu-launcher-0.1.0.jar"), "launcher");
        Files.writeString(target.resolve("lib/b-lib.jar"), "b");
        Files.writeString(target.resolve("lib/a-lib.jar"), "a");
        Files.writeString(target.resolve("jit/compiler.jar"), "compiler");
        cache = target.resolve("startup-cache");
        calls = tmp.resolve("calls.log");
        jdk = tmp.resolve("jdk");
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25\"\nJAVA_RUNTIME_VERSION=\"25.0.3+9\"\n");
        executable(jdk.resolve("bin/java"), """
                #!/bin/bash
                echo "java $*" >>"$CALLS"
                if [ "$1" = --list-modules ]; then
                  printf '%s\\n' java.base@25 jdk.graal.compiler@25 jdk.graal.compiler.management@25 jdk.jlink@25 \\
                    jdk.jpackage@25 jdk.internal.vm.ci@25 java.logging@25
                  exit 0
                fi
                [ -n "${FAIL_TRAINING:-}" ] && { echo "training failed"; exit 1; }
                for a in "$@"; do case "$a" in -XX:AOTCacheOutput=*) echo aot >"${a#-XX:AOTCacheOutput=}" ;; esac; done
                """);
        executable(jdk.resolve("bin/jlink"), """
                #!/bin/bash
                echo "jlink $*" >>"$CALLS"
                [ -n "${FAIL_JLINK:-}" ] && { echo "jlink: no packaged modules"; exit 1; }
                while [ $# -gt 0 ]; do [ "$1" = --output ] && out="$2"; shift; done
                mkdir -p "$out/bin" && cp "$(dirname "$0")/java" "$out/bin/java"
                """);
    }

    @Test
    void inputsChangeWhenAJarIsRebuiltAndNotOtherwise() throws IOException {
        String first = inputs();
        assertEquals(first, inputs(), "nothing changed");
        Files.setLastModifiedTime(target.resolve("lib/a-lib.jar"), FileTime.from(Instant.parse("2030-01-01T00:00:00Z")));
        String touched = inputs();
        assertNotEquals(first, touched, "a jar with a new time");
        Files.writeString(target.resolve("jit/compiler.jar"), "compiler, longer");
        assertNotEquals(touched, inputs(), "a jar of the module path with a new size");
        Files.writeString(target.resolve("lib/c-lib.jar"), "c");
        assertTrue(inputs().contains("c-lib.jar"), "a new jar");
    }

    @Test
    void inputsNameTheJdkAndTheCacheVersion() {
        String inputs = inputs();
        assertTrue(inputs.startsWith("version "), inputs);
        assertTrue(inputs.contains("jdk " + jdk + " \"25.0.3+9\""), inputs);
    }

    @Test
    void aCacheIsMadeThenUsedThenMadeAgainWhenAJarChanges() throws IOException {
        assertEquals("stale", state(inputs()), "no cache yet");
        make(inputs(), 0);
        assertEquals("ready", state(inputs()));
        assertTrue(Files.isExecutable(cache.resolve("jre/bin/java")));
        Files.writeString(cache.resolve("left-over"), "from the first cache");

        Files.writeString(target.resolve("lib/a-lib.jar"), "a, rebuilt");
        String changed = inputs();
        assertEquals("stale", state(changed), "a jar changed");
        make(changed, 0);
        assertEquals("ready", state(changed));
        assertFalse(Files.exists(cache.resolve("left-over")), "the old cache is replaced, not added to");
        assertEquals(changed.strip(), Files.readString(cache.resolve("inputs")).strip());
        try (var siblings = Files.list(target)) {
            assertEquals(List.of(), siblings.filter(p -> p.getFileName().toString().startsWith("startup-cache.new"))
                    .toList(), "no work folder left behind");
        }
    }

    @Test
    void whatAStoppedRunLeftIsRemovedByTheNextMake() throws IOException {
        Path leftOver = target.resolve("startup-cache.new.AbC123");
        Files.createDirectories(leftOver.resolve("jre/bin"));
        Files.writeString(leftOver.resolve("polygpu.aot"), "half written");
        make(inputs(), 0);
        assertFalse(Files.exists(leftOver));
        assertEquals("ready", state(inputs()));
    }

    @Test
    void theImageLeavesOutTheCompilerPlaceholdersAndTheLinker() throws IOException {
        make(inputs(), 0);
        String jlink = Files.readAllLines(calls).stream().filter(l -> l.startsWith("jlink ")).findFirst().orElseThrow();
        assertTrue(jlink.contains("--add-modules java.base,jdk.internal.vm.ci,java.logging "), jlink);
    }

    @Test
    void theTrainingRunUsesTheFlagsAndClassPathOfTheRunsAfterIt() throws IOException {
        make(inputs(), 0);
        String training = Files.readAllLines(calls).stream().filter(l -> l.contains("StartupTraining"))
                .findFirst().orElseThrow();
        String flags = String.join(" ", bash("polygpu_startup_cache_jvm_flags '" + target + "'").strip().split("\n"));
        String classPath = bash("polygpu_startup_cache_classpath '" + target + "'");
        assertEquals(target + "/polygpu-launcher-0.1.0.jar:" + target + "/lib/a-lib.jar:" + target + "/lib/b-lib.jar",
                classPath, "jars only, the launcher first, then lib in name order");
        assertTrue(flags.contains("--module-path " + target.resolve("jit")), flags);
        assertTrue(training.contains(flags + " -XX:AOTCacheOutput="), training);
        assertTrue(training.endsWith("-cp " + classPath + " dev.polygpu.launcher.StartupTraining"), training);
    }

    @Test
    void aFailureIsRememberedForTheSameInputsOnly() throws IOException {
        String inputs = inputs();
        make(inputs, 1, "FAIL_TRAINING=1");
        assertEquals("failed", state(inputs), "not tried again on every run");
        assertTrue(Files.readString(cache.resolve("make.log")).contains("training failed"));
        assertFalse(Files.exists(cache.resolve("jre")), "no half-made image kept");

        Files.writeString(target.resolve("lib/b-lib.jar"), "b, rebuilt");
        assertEquals("stale", state(inputs()), "a rebuild tries again");
        make(inputs(), 0);
        assertEquals("ready", state(inputs()));
        assertFalse(Files.exists(cache.resolve("failed")));
    }

    @Test
    void aJdkWithoutALinkableImageIsAFailureWithTheReason() throws IOException {
        make(inputs(), 1, "FAIL_JLINK=1");
        assertEquals("failed", state(inputs()));
        assertTrue(Files.readString(cache.resolve("make.log")).contains("jlink: no packaged modules"));
    }

    private String inputs() {
        return bash("polygpu_startup_cache_inputs '" + target + "' '" + jdk + "'").stripTrailing();
    }

    private String state(String inputs) {
        return bash("polygpu_startup_cache_state '" + cache + "' \"$INPUTS\"", "INPUTS=" + inputs).strip();
    }

    private void make(String inputs, int expectedStatus, String... env) {
        String[] all = new String[env.length + 1];
        all[0] = "INPUTS=" + inputs;
        System.arraycopy(env, 0, all, 1, env.length);
        int status = run("polygpu_startup_cache_make '" + cache + "' '" + target + "' '" + jdk + "' \"$INPUTS\"",
                new StringBuilder(), all);
        assertEquals(expectedStatus, status, "status of polygpu_startup_cache_make");
    }

    private String bash(String command, String... env) {
        StringBuilder out = new StringBuilder();
        int status = run(command, out, env);
        assertEquals(0, status, command + " printed " + out);
        return out.toString();
    }

    /** Runs {@code command} in bash with the script sourced; its stdout goes to {@code out}. */
    private int run(String command, StringBuilder out, String... env) {
        Map<String, String> vars = new HashMap<>();
        vars.put("CALLS", calls.toString());
        for (String e : env) {
            int eq = e.indexOf('=');
            vars.put(e.substring(0, eq), e.substring(eq + 1));
        }
        BashScript.Result r = SCRIPT.run(command, vars);
        System.err.print(r.err());
        out.append(r.out());
        return r.status();
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
