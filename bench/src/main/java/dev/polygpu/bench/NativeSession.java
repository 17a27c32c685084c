package dev.polygpu.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One native program running one case, driven line by line over its stdin and stdout
 * ({@code bench/native/pgbench.h}): each {@link #iteration()} restores the inputs and times one run inside the
 * program, {@link #results()} reads back the last run's outputs. Used by one thread.
 */
final class NativeSession implements AutoCloseable {

    private final String label;
    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    private final Path stderr;
    private final Path work;
    private int outputs;

    private NativeSession(String label, Process process, Path stderr, Path work) {
        this.label = label;
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.stderr = stderr;
        this.work = work;
    }

    /**
     * Starts {@code cmd} with {@code env} added to the environment and waits for its "ready" line; fails if the
     * program runs on another number of threads than {@code threads} (the environment did not take).
     */
    static NativeSession start(String label, List<String> cmd, Map<String, String> env, int threads, Path work)
            throws IOException {
        Path stderr = Files.createTempFile(work, label + "-", ".stderr");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(stderr.toFile());
        pb.environment().putAll(env);
        NativeSession s = new NativeSession(label, pb.start(), stderr, work);
        try {
            String ready = s.answer("ready ");
            int actual = Integer.parseInt(ready.strip());
            if (actual != threads) {
                throw new IllegalStateException(label + " runs on " + actual + " threads, not " + threads
                        + " (its environment " + env + " did not take)");
            }
            return s;
        } catch (RuntimeException | IOException e) {
            s.close();
            throw e;
        }
    }

    /** One iteration: the program restores the inputs (untimed) and runs the case; returns its time in ms. */
    double iteration() throws IOException {
        send("run");
        return Double.parseDouble(answer("ms ").strip());
    }

    /** The outputs of the last iteration. */
    NativeData results() throws IOException {
        Path file = work.resolve(label + "-out-" + outputs++ + ".pgb");
        send("write " + file);
        answer("ok");
        try {
            return NativeData.read(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private void send(String command) throws IOException {
        try {
            in.write(command + "\n");
            in.flush();
        } catch (IOException e) {
            throw new IllegalStateException(label + " stopped: " + diagnosis(), e);
        }
    }

    /** The next line of output, which must start with {@code prefix}; returns the rest of it. */
    private String answer(String prefix) throws IOException {
        String line = out.readLine();
        if (line == null) {
            throw new IllegalStateException(label + " stopped: " + diagnosis());
        }
        if (!line.startsWith(prefix)) {
            throw new IllegalStateException(label + " answered '" + line + "', expected '" + prefix.strip() + "…'");
        }
        return line.substring(prefix.length());
    }

    private String diagnosis() throws IOException {
        String status;
        try {
            status = process.waitFor(5, TimeUnit.SECONDS) ? "exit " + process.exitValue() : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = "interrupted";
        }
        String err = Files.readString(stderr).strip().replace('\n', ' ');
        return status + (err.isEmpty() ? "" : ": " + (err.length() > 500 ? err.substring(0, 500) + "…" : err));
    }

    /** Closes the program's input, which ends it; kills it if it has not ended within 10 s. */
    @Override
    public void close() throws IOException {
        try {
            in.close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            process.destroyForcibly();
        } finally {
            Files.deleteIfExists(stderr);
        }
    }
}
