package dev.polygpu.device.cpu.kernel;

/**
 * The kernel engine's cancellation point: the preprocessor, parser, semantic analysis and code generator call
 * {@link #check()} in their loops, so that interrupting the compiling thread stops a compile that would run for
 * long (a huge source, a limit not yet reached) within a few statements.
 */
public final class CompileCancel {
    /** Thrown on the compiling thread when it was interrupted; {@link KernelEngine} reports it to the caller. */
    public static final class Cancelled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Cancelled() {
            super("the compiling thread was interrupted", null, false, false);
        }
    }

    private CompileCancel() {
    }

    /** Throws {@link Cancelled} if the current thread has been interrupted (leaving its interrupted status set). */
    public static void check() {
        if (Thread.currentThread().isInterrupted()) {
            throw new Cancelled();
        }
    }
}
