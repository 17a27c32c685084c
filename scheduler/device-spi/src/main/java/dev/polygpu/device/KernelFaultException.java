package dev.polygpu.device;

/**
 * A kernel that failed while it ran (an out-of-bounds access, a misaligned atomic, a warp intrinsic whose
 * mask names lanes that are not there…). It names the kernel, the block and thread indices and, for memory
 * faults, the buffer and the index, as compute-sanitizer would. Reported at the next synchronization with
 * the stream the kernel ran on.
 */
public class KernelFaultException extends DeviceException {
    private static final long serialVersionUID = 1L;
    private final String kernel;

    public KernelFaultException(CudaError error, String kernel, String message) {
        super(error, message);
        this.kernel = kernel;
    }

    /** The name of the kernel that failed. */
    public String kernel() {
        return kernel;
    }
}
