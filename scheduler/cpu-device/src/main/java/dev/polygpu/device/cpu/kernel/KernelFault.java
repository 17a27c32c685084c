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

    /**
     * What a fault for writing through a read-only pointer says after the kernel, place and thread; {@code
     * params} names the parameters ({@link LaunchFrame#readOnlyParameters}). Both engines raise it with
     * NOT_PERMITTED.
     */
    public static String readOnlyWrite(String params) {
        return "wrote to its " + params + ", which its signature declares read-only ('in' or 'const'), so the"
                + " scheduler may run the kernel beside others that read the same array and the write would race"
                + " with them; declare the parameter 'inout' (or 'out') in the signature, or stop writing to it"
                + " (only the CPU device checks this; a GPU lets the write race)";
    }
}
