package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.CompileInterruptedException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * Runs one compilation of the kernel engine on a thread of its own whose stack is deep enough for every nesting
 * the front end allows ({@code Limits}), so that how deep a source may nest does not depend on the caller's
 * thread or {@code -Xss}. The caller waits interruptibly: when it is interrupted, the compile thread is
 * interrupted too (it stops at its next {@link CompileCancel#check()}) and the caller gets a
 * {@link CompileInterruptedException} at once, its interrupted status set again.
 */
final class CompileThread extends Thread {
    /**
     * Reserved, not committed: the pages are touched only as deep as a compile goes. The front end's nesting
     * limits keep the deepest compile well inside it.
     */
    static final long STACK_BYTES = 1L << 30;

    private CompileThread(Runnable task) {
        super(null, task, "polygpu-kernel-compile", STACK_BYTES);
        setDaemon(true);
    }

    /** {@code task}'s result, computed on a compile thread ({@code what} names it if interrupted). */
    static <T> T run(String what, Supplier<T> task) {
        if (Thread.currentThread() instanceof CompileThread) {
            return task.get();
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new CompileInterruptedException(what);
        }
        FutureTask<T> future = new FutureTask<>(task::get);
        CompileThread thread = new CompileThread(future);
        thread.start();
        try {
            return future.get();
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            throw new CompileInterruptedException(what);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CompileCancel.Cancelled) {
                // the compile thread alone was interrupted (by whoever else holds it): the caller's wait ends too
                throw new CompileInterruptedException(what);
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }
}
