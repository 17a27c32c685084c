package dev.polygpu.device;

/**
 * Error codes of the device SPI. The numbers are those of the CUDA driver API ({@code CUresult}), so a CUDA
 * backend reports the driver's code unchanged and a CPU device reports the code a GPU would have given.
 * {@link #COMPILATION_ERROR} stands for NVRTC's compilation failure, which has no driver code.
 */
public enum CudaError {
    INVALID_VALUE(1, "CUDA_ERROR_INVALID_VALUE"),
    OUT_OF_MEMORY(2, "CUDA_ERROR_OUT_OF_MEMORY"),
    NOT_INITIALIZED(3, "CUDA_ERROR_NOT_INITIALIZED"),
    DEINITIALIZED(4, "CUDA_ERROR_DEINITIALIZED"),
    NO_DEVICE(100, "CUDA_ERROR_NO_DEVICE"),
    INVALID_DEVICE(101, "CUDA_ERROR_INVALID_DEVICE"),
    INVALID_IMAGE(200, "CUDA_ERROR_INVALID_IMAGE"),
    INVALID_CONTEXT(201, "CUDA_ERROR_INVALID_CONTEXT"),
    NO_BINARY_FOR_GPU(209, "CUDA_ERROR_NO_BINARY_FOR_GPU"),
    INVALID_PTX(218, "CUDA_ERROR_INVALID_PTX"),
    UNSUPPORTED_PTX_VERSION(222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"),
    INVALID_SOURCE(300, "CUDA_ERROR_INVALID_SOURCE"),
    FILE_NOT_FOUND(301, "CUDA_ERROR_FILE_NOT_FOUND"),
    INVALID_HANDLE(400, "CUDA_ERROR_INVALID_HANDLE"),
    NOT_FOUND(500, "CUDA_ERROR_NOT_FOUND"),
    NOT_READY(600, "CUDA_ERROR_NOT_READY"),
    ILLEGAL_ADDRESS(700, "CUDA_ERROR_ILLEGAL_ADDRESS"),
    LAUNCH_OUT_OF_RESOURCES(701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"),
    LAUNCH_TIMEOUT(702, "CUDA_ERROR_LAUNCH_TIMEOUT"),
    ASSERT(710, "CUDA_ERROR_ASSERT"),
    ILLEGAL_INSTRUCTION(715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"),
    MISALIGNED_ADDRESS(716, "CUDA_ERROR_MISALIGNED_ADDRESS"),
    LAUNCH_FAILED(719, "CUDA_ERROR_LAUNCH_FAILED"),
    NOT_PERMITTED(800, "CUDA_ERROR_NOT_PERMITTED"),
    NOT_SUPPORTED(801, "CUDA_ERROR_NOT_SUPPORTED"),
    COMPILATION_ERROR(6, "NVRTC_ERROR_COMPILATION"),
    UNKNOWN(999, "CUDA_ERROR_UNKNOWN");

    /** The driver API's numeric code (NVRTC's for {@link #COMPILATION_ERROR}). */
    public final int code;
    /** The driver API's symbolic name. */
    public final String symbol;

    CudaError(int code, String symbol) {
        this.code = code;
        this.symbol = symbol;
    }

    /** The error for a driver API code; {@link #UNKNOWN} for a code not listed here. */
    public static CudaError ofCode(int code) {
        for (CudaError e : values()) {
            if (e.code == code && e != COMPILATION_ERROR) {
                return e;
            }
        }
        return UNKNOWN;
    }
}
