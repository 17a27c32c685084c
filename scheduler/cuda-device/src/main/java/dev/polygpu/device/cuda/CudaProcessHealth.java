package dev.polygpu.device.cuda;

import jcuda.driver.CUresult;

/**
 * Whether this process can still use CUDA. A kernel that faults (an illegal address, a failed assert, …) leaves a
 * "sticky" error: every later call on that context fails, and NVIDIA documents that only ending the process
 * gives the GPU back; a fresh context in the same process is not enough. A host that runs many programs one
 * after another in one process (the launcher's daemon) asks {@link #lostBecause} after each and retires itself,
 * so that the next program starts in a new process. It refers to the driver's status codes only as constants,
 * so asking loads no driver binding.
 */
public final class CudaProcessHealth {
    private static volatile String lost;

    private CudaProcessHealth() {
    }

    /** Whether {@code status} is an error that leaves the context, and with it the process, unable to use CUDA. */
    static boolean isSticky(int status) {
        return switch (status) {
            case CUresult.CUDA_ERROR_ILLEGAL_ADDRESS, CUresult.CUDA_ERROR_ASSERT,
                    CUresult.CUDA_ERROR_HARDWARE_STACK_ERROR, CUresult.CUDA_ERROR_ILLEGAL_INSTRUCTION,
                    CUresult.CUDA_ERROR_MISALIGNED_ADDRESS, CUresult.CUDA_ERROR_INVALID_ADDRESS_SPACE,
                    CUresult.CUDA_ERROR_INVALID_PC, CUresult.CUDA_ERROR_LAUNCH_FAILED -> true;
            default -> false;
        };
    }

    /** Records {@code what} (the failed call and its error) when {@code status} is a sticky error. */
    static void recordIfSticky(int status, String what) {
        if (isSticky(status) && lost == null) {
            lost = what;
        }
    }

    /** Null while this process can use CUDA; otherwise the first error that took that away. */
    public static String lostBecause() {
        return lost;
    }
}
