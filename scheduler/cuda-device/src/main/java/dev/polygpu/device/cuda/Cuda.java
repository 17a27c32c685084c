package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * The one place CUDA driver status codes become exceptions: {@link #check} names the call that failed, the
 * CUDA error's symbol and the driver's own description, and maps the code to a {@link CudaError} (codes the
 * SPI has no constant for become {@link CudaError#UNKNOWN}, their number and symbol kept in the message).
 * Only used once {@link CudaProbe} has loaded the driver bindings.
 */
final class Cuda {
    private Cuda() {
    }

    /** Returns normally on {@code CUDA_SUCCESS}; otherwise throws a DeviceException for {@code call}. */
    static void check(int status, String call) {
        if (status != CUresult.CUDA_SUCCESS) {
            throw error(status, call);
        }
    }

    /** The exception for {@code status} returned by {@code call} ({@code "cuLaunchKernel of kernel 'k'"}). */
    static DeviceException error(int status, String call) {
        String what = call + " failed: " + describe(status);
        CudaProcessHealth.recordIfSticky(status, what);
        return new DeviceException(CudaError.ofCode(status), what + hint(status));
    }

    /** {@code CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access was encountered}. */
    static String describe(int status) {
        String[] name = new String[1];
        String[] text = new String[1];
        String symbol = JCudaDriver.cuGetErrorName(status, name) == CUresult.CUDA_SUCCESS && name[0] != null
                ? name[0] : CUresult.stringFor(status);
        String description = JCudaDriver.cuGetErrorString(status, text) == CUresult.CUDA_SUCCESS && text[0] != null
                ? text[0] : "no description";
        return symbol + " (" + status + "): " + description;
    }

    /** What to do about the errors users can act on; empty for the others. */
    private static String hint(int status) {
        if (status == CUresult.CUDA_ERROR_UNSUPPORTED_PTX_VERSION) {
            return " (the PTX comes from a compiler newer than this NVIDIA driver: update the driver, or point"
                    + " POLYGPU_NVCC at the nvcc of a CUDA toolkit no newer than the driver; nvidia-smi shows the"
                    + " CUDA version the driver supports)";
        }
        if (CudaProcessHealth.isSticky(status)) {
            return " (a kernel faulted; CUDA cannot use this device's context any more, so later work on it fails"
                    + " too: fix the kernel, e.g. its index bounds, and restart the program)";
        }
        if (status == CUresult.CUDA_ERROR_OUT_OF_MEMORY) {
            return " (free arrays that are no longer needed, or use smaller ones)";
        }
        return "";
    }
}
