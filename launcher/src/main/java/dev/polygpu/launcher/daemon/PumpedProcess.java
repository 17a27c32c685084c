package dev.polygpu.launcher.daemon;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A subprocess whose output threads copy it to the client ({@link SessionProcesses}): it counts as ended only
 * when the process has ended and its output has been copied, so that a program that waits for it (Python's
 * {@code subprocess.run}) prints its next line after the subprocess's last one, as it would on a terminal. A
 * copied stream is not the caller's: it gets an empty one in its place, as {@link ProcessBuilder} gives for an
 * inherited stream, so that closing it when the process ends (GraalPy does) cannot cut the copy short.
 */
final class PumpedProcess extends Process {
    private final Process process;
    private final List<Thread> pumps;
    private final boolean outCopied;
    private final boolean errCopied;

    PumpedProcess(Process process, List<Thread> pumps, boolean outCopied, boolean errCopied) {
        this.process = process;
        this.pumps = pumps;
        this.outCopied = outCopied;
        this.errCopied = errCopied;
    }

    @Override
    public OutputStream getOutputStream() {
        return process.getOutputStream();
    }

    @Override
    public InputStream getInputStream() {
        return outCopied ? InputStream.nullInputStream() : process.getInputStream();
    }

    @Override
    public InputStream getErrorStream() {
        return errCopied ? InputStream.nullInputStream() : process.getErrorStream();
    }

    @Override
    public int waitFor() throws InterruptedException {
        int status = process.waitFor();
        for (Thread pump : pumps) {
            pump.join();
        }
        return status;
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        if (!process.waitFor(timeout, unit)) {
            return false;
        }
        for (Thread pump : pumps) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !pump.join(java.time.Duration.ofNanos(left))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int exitValue() {
        if (pumpsRunning()) {
            throw new IllegalThreadStateException("the process's output is still being copied");
        }
        return process.exitValue();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive() || pumpsRunning();
    }

    @Override
    public void destroy() {
        process.destroy();
    }

    @Override
    public Process destroyForcibly() {
        process.destroyForcibly();
        return this;
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public CompletableFuture<Process> onExit() {
        return process.onExit().thenApplyAsync(p -> {
            for (Thread pump : pumps) {
                try {
                    pump.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return this;
        });
    }

    @Override
    public ProcessHandle toHandle() {
        return process.toHandle();
    }

    private boolean pumpsRunning() {
        for (Thread pump : pumps) {
            if (pump.isAlive()) {
                return true;
            }
        }
        return false;
    }
}
