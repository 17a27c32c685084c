package dev.polygpu.bench.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code dev.polygpu.cluster.Worker} in a process of its own, as a real member of the benchmark's cluster.
 * Its standard output is read line by line: the "joined" line gives its member id, and the counters table it
 * prints when it leaves gives its {@link WorkerTable}. Standard error goes to the benchmark's, prefixed.
 *
 * <p>{@link #stop} sends SIGTERM, which the worker takes as a graceful leave (it finishes what it holds, prints
 * its counters and exits); {@link #close} kills what is still alive. Thread-safety: the reader threads append
 * under {@code this}; the other methods are for the benchmark thread.
 */
final class WorkerProcess implements AutoCloseable {
    private static final Pattern JOINED = Pattern.compile("^polygpu worker (\\S+) joined cluster");

    private final String name;
    private final Process process;
    private final long spawnedNanos;
    private final List<String> lines = new ArrayList<>();
    private final Thread stdout;
    private final Thread stderr;
    private String memberId;

    private WorkerProcess(String name, Process process, long spawnedNanos, PrintStream log) {
        this.name = name;
        this.process = process;
        this.spawnedNanos = spawnedNanos;
        this.stdout = Thread.ofPlatform().daemon().name(name + "-out").start(() -> readOut(process.getInputStream()));
        this.stderr = Thread.ofPlatform().daemon().name(name + "-err").start(() -> copy(process.getErrorStream(),
                log));
    }

    /** Starts {@code java [jvmOptions] -cp classPath dev.polygpu.cluster.Worker [args]}. */
    static WorkerProcess start(String name, String java, List<String> jvmOptions, String classPath, List<String> args,
            PrintStream log) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add("dev.polygpu.cluster.Worker");
        command.addAll(args);
        try {
            long now = System.nanoTime();
            Process p = new ProcessBuilder(command).start();
            return new WorkerProcess(name, p, now, log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start worker " + name + " (" + String.join(" ", command) + ")",
                    e);
        }
    }

    String name() {
        return name;
    }

    /** {@link System#nanoTime()} just before the process was started. */
    long spawnedNanos() {
        return spawnedNanos;
    }

    private void readOut(InputStream in) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (this) {
                    lines.add(line);
                    Matcher m = JOINED.matcher(line);
                    if (memberId == null && m.find()) {
                        memberId = m.group(1);
                    }
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // The process ended and its pipe closed: nothing more to read.
        }
    }

    private void copy(InputStream in, PrintStream log) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                log.println("[" + name + "] " + line);
            }
        } catch (IOException e) {
            // As above.
        }
    }

    /** The worker's member id once it printed that it joined; waits up to {@code timeout}. */
    synchronized String awaitMemberId(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (memberId == null) {
            long left = deadline - System.nanoTime();
            if (!process.isAlive() && memberId == null) {
                throw new IllegalStateException("worker " + name + " exited with status " + process.exitValue()
                        + " before joining; its output:\n" + String.join("\n", lines));
            }
            if (left <= 0) {
                throw new IllegalStateException("worker " + name + " did not join within " + timeout.toSeconds()
                        + " s; its output so far:\n" + String.join("\n", lines));
            }
            wait(Math.max(1, Math.min(100, left / 1_000_000)));
        }
        return memberId;
    }

    /**
     * Asks the worker to leave (SIGTERM), waits up to {@code timeout} for it to exit, and returns the counters
     * it printed last.
     *
     * @throws IllegalStateException if it did not exit in time (it is then killed) or printed no counters
     */
    WorkerTable stop(Duration timeout) throws InterruptedException {
        // Through the handle: Process.destroy() would also close our ends of its pipes, losing what it prints
        // while it leaves (its counters).
        process.toHandle().destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("worker " + name + " did not leave within " + timeout.toSeconds()
                    + " s of SIGTERM; killed");
        }
        stdout.join(5_000);
        stderr.join(5_000);
        synchronized (this) {
            try {
                return WorkerTable.parseLast(name, lines);
            } catch (IllegalStateException e) {
                throw new IllegalStateException(e.getMessage() + "\n(exit status " + process.exitValue() + ")", e);
            }
        }
    }

    /** Kills the process if it is still alive and waits briefly for it to go (never throws). */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }
}
