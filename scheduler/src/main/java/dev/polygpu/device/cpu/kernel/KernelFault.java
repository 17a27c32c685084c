package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.CudaError;

/**
 * A fault raised by a running kernel, with the full compute-sanitizer-like message (kernel, block, thread,
 * buffer, index). Has no stack trace: the JVM frames of generated code mean nothing to the user.
 */
public final class KernelFault extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final CudaError error;

    public KernelFault(CudaError error, String message) {
        super(message, null, false, false);
        this.error = error;
    }

    public CudaError error() {
        return error;
    }
}
