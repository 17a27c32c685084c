package dev.polygpu.device;

/**
 * A compilation stopped because the thread that asked for it was interrupted (a {@code Context.interrupt}, a
 * cancel, Ctrl-C). The interrupted status of the calling thread is set again when this is thrown, so a caller
 * that waits interruptibly sees the interrupt as it would in a blocking call.
 */
public class CompileInterruptedException extends DeviceException {
    private static final long serialVersionUID = 1L;

    public CompileInterruptedException(String what) {
        super(CudaError.COMPILATION_ERROR, "compilation of " + what + " was interrupted");
    }
}
