package dev.polygpu.device;

/**
 * A failed device operation. Carries the CUDA-like {@link CudaError} and a message that names what failed
 * (the operation, the kernel, the buffer) and, where there is one, what to do about it.
 */
public class DeviceException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final CudaError error;

    public DeviceException(CudaError error, String message) {
        super(message);
        this.error = error;
    }

    public DeviceException(CudaError error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    public CudaError error() {
        return error;
    }

    @Override
    public String getMessage() {
        return super.getMessage() + " [" + error.symbol + "]";
    }

    /** The message without the error code suffix. */
    public String detail() {
        return super.getMessage();
    }
}
