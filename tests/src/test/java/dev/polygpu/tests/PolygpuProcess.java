package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code polygpu} command run as an operating-system process: the launcher's {@code Main} on this test JVM's
 * class path, with the JVM flags of the {@code ./polygpu} script (without its build step). Its standard output
 * and error are collected on two background threads, so the process never blocks on a full pipe, and are
 * printed by {@link #toString} for assertion messages.
 *
 * <p>Thread-safety: each stream's collected output is guarded by its buffer's monitor (its reader thread
 * appends, the test thread reads); the other methods are for the test thread.
 */
final class PolygpuProcess implements AutoCloseable {
    /** How often {@link #await} looks again. */
    private static final long POLL_MILLIS = 50;
    /** Stats rows as the cluster's table prints them: two spaces, the label, spaces, the count. */
    private static final String ROW = "(?m)^  %s +(\\d+)$";
    /**
     * The most characters kept of a stream (a process printing in a loop must not fill this JVM's heap): past
     * it, what follows the first {@link #KEEP_HEAD} characters (where the join line is) is cut, keeping the end
     * (where the latest counters are).
     */
    private static final int KEEP_CHARS = 4 << 20;
    private static final int KEEP_HEAD = 64 << 10;
    /** How much of each stream a failure message shows, from the end. */
    private static final int REPORT_CHARS = 12_000;

    private final String name;
    private final List<String> args;
    private final Process process;
    private final StringBuilder out = new StringBuilder();
    private final StringBuilder err = new StringBuilder();
    private final Thread outReader;
    private final Thread errReader;

    private PolygpuProcess(String name, List<String> args, Process process) {
        this.name = name;
        this.args = args;
        this.process = process;
        this.outReader = Thread.ofPlatform().daemon().name(name + "-stdout")
                .start(() -> pump(process.getInputStream(), out));
        this.errReader = Thread.ofPlatform().daemon().name(name + "-stderr")
                .start(() -> pump(process.getErrorStream(), err));
    }

    /**
     * Starts {@code polygpu args…} with the environment of this JVM, less {@code POLYGPU_CLUSTER_SECRET}, plus
     * {@code env}; {@code name} labels it in messages.
     */
    static PolygpuProcess start(String name, Map<String, String> env, List<String> args) {
        List<String> command = new ArrayList<>(jvm());
        command.add("dev.polygpu.launcher.Main");
        command.addAll(args);
        return start(name, env, args, command, null);
    }

    /**
     * Starts {@code command} (its arguments {@code args}, for messages) in the folder {@code cwd} (this JVM's when
     * null), with the environment of this JVM less {@code POLYGPU_CLUSTER_SECRET}, plus {@code env}.
     */
    static PolygpuProcess start(String name, Map<String, String> env, List<String> args, List<String> command,
            Path cwd) {
        ProcessBuilder b = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(
                Path.of("/dev/null").toFile()));
        if (cwd != null) {
            b.directory(cwd.toFile());
        }
        b.environment().remove("POLYGPU_CLUSTER_SECRET");
        b.environment().putAll(env);
        try {
            return new PolygpuProcess(name, List.copyOf(args), b.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    /** The JVM command of {@code ./polygpu}, up to the main class: java, its flags, the class path. */
    static List<String> jvm() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The flags of ./polygpu: Truffle's JIT (the tests module copies it to target/jit), native access.
        // The repository root as surefire passes it (not Guests.root(): that would build Guests' engine here).
        Path root = Path.of(System.getProperty("polygpu.root", "..")).toAbsolutePath().normalize();
        Path target = root.resolve("tests").resolve("target");
        command.addAll(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI",
                "--upgrade-module-path", target.resolve("jit").toString(), "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Xss8m",
                "-Dpolyglot.engine.userResourceCache=" + target.resolve("polyglot-cache"),
                "-cp", ClassPath.VALUE));
        return command;
    }

    /** This JVM's class path, with the project's own jars copied aside when the first process starts. */
    private static final class ClassPath {
        static final String VALUE = snapshot(System.getProperty("java.class.path"));
    }

    /**
     * {@code classPath} with its {@code -SNAPSHOT.jar}s (the project's modules in the local Maven repository,
     * which other builds on the machine may install over during a run; a JVM whose jar is replaced under it
     * fails to load its next class) copied to a folder of their own, deleted when this JVM exits.
     */
    private static String snapshot(String classPath) {
        try {
            Path copies = Files.createTempDirectory("polygpu-e2e-jars");
            copies.toFile().deleteOnExit();
            List<String> entries = new ArrayList<>();
            for (String entry : classPath.split(File.pathSeparator)) {
                Path jar = Path.of(entry);
                if (entry.endsWith("-SNAPSHOT.jar") && Files.isRegularFile(jar)) {
                    Path copy = Files.copy(jar, copies.resolve(jar.getFileName()));
                    copy.toFile().deleteOnExit();
                    entries.add(copy.toString());
                } else {
                    entries.add(entry);
                }
            }
            return String.join(File.pathSeparator, entries);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the project's jars for the processes", e);
        }
    }

    private static void pump(InputStream in, StringBuilder into) {
        char[] buf = new char[8192];
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            for (int n; (n = r.read(buf)) >= 0;) {
                synchronized (into) {
                    into.append(buf, 0, n);
                    if (into.length() > KEEP_CHARS) {
                        into.replace(KEEP_HEAD, into.length() - KEEP_CHARS / 2, "\n[… output cut …]\n");
                    }
                }
            }
        } catch (IOException e) {
            // The process ended and its pipe closed under the reader: what was read is kept.
        }
    }

    String out() {
        synchronized (out) {
            return out.toString();
        }
    }

    /**
     * What the process wrote to stderr, less the JVM's own notice that it resolved the Vector API's incubator module
     * (the first line of every process started as {@code ./polygpu} starts the JVM), so tests compare the program's
     * messages alone.
     */
    String err() {
        synchronized (err) {
            return err.toString().replace(INCUBATOR_NOTICE, "");
        }
    }

    /** The line the JVM prints at start when {@code --add-modules jdk.incubator.vector} is given. */
    static final String INCUBATOR_NOTICE = "WARNING: Using incubator modules: jdk.incubator.vector\n";

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /**
     * Waits until {@code condition} holds for this process (its output so far); fails, naming {@code what} and
     * showing the output of {@code all}, if the process ends first or {@code timeout} passes.
     */
    void await(String what, Predicate<PolygpuProcess> condition, Duration timeout, List<PolygpuProcess> all) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.test(this)) {
            if (!process.isAlive()) {
                drain();
                if (condition.test(this)) {
                    return;
                }
                fail(name + " ended before " + what + "\n" + report(all));
            }
            if (System.nanoTime() - end > 0) {
                fail(name + ": no " + what + " within " + timeout.toSeconds() + " s\n" + report(all));
            }
            sleep(POLL_MILLIS);
        }
    }

    /** Waits for the process to end (killing it after {@code timeout}, which fails) and returns its status. */
    int awaitExit(Duration timeout, List<PolygpuProcess> all) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                drain();
                fail(name + " did not end within " + timeout.toSeconds() + " s (killed)\n" + report(all));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted waiting for " + name);
        }
        drain();
        return process.exitValue();
    }

    /**
     * SIGTERM: a graceful stop (the JVM runs its shutdown hooks). Sent through the process handle:
     * {@link Process#destroy} would also close the pipes, and what the process prints while it stops be lost.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    /** SIGKILL: the process ends at once, as in a crash. */
    void kill() {
        process.destroyForcibly();
    }

    /** Kills the process if it still runs and waits for it and its readers. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        drain();
    }

    /** Waits (briefly) for the readers to take the last output of an ended process. */
    private void drain() {
        try {
            outReader.join(2000);
            errReader.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The last value of a row of the cluster counters table in {@code text} ({@code "given (taken by others)"}),
     * or -1 when there is none.
     */
    static long counter(String text, String row) {
        Matcher m = Pattern.compile(String.format(ROW, Pattern.quote(row))).matcher(text);
        long last = -1;
        while (m.find()) {
            last = Long.parseLong(m.group(1));
        }
        return last;
    }

    /** Every process of a test, for a failure message. */
    static String report(List<PolygpuProcess> all) {
        StringBuilder b = new StringBuilder();
        for (PolygpuProcess p : all) {
            b.append(p).append('\n');
        }
        return b.toString();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        String status = process.isAlive() ? "running" : "exit " + process.exitValue();
        return "=== " + name + " (pid " + process.pid() + ", " + status + "): polygpu " + String.join(" ", args)
                + "\n--- stdout\n" + tail(out()) + "--- stderr\n" + tail(err());
    }

    /** The end of a long output (workers print their counters every 200 ms in some tests). */
    private static String tail(String s) {
        return s.length() <= REPORT_CHARS ? s : "[… " + (s.length() - REPORT_CHARS) + " characters left out]\n"
                + s.substring(s.length() - REPORT_CHARS);
    }
}
