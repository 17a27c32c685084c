package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jcuda.driver.CUresult;
import org.junit.jupiter.api.Test;

/**
 * Which CUDA errors leave the process unable to use CUDA (the driver API's documentation of each code: "the
 * context cannot be used"), and that the first such error is what {@link CudaProcessHealth#lostBecause} says.
 * It changes the process-wide state, which no other test of this module reads.
 */
class CudaProcessHealthTest {
    @Test
    void kernelFaultsAreStickyAndTheFirstIsKept() {
        for (int sticky : new int[] {CUresult.CUDA_ERROR_ILLEGAL_ADDRESS, CUresult.CUDA_ERROR_ASSERT,
            CUresult.CUDA_ERROR_LAUNCH_FAILED, CUresult.CUDA_ERROR_MISALIGNED_ADDRESS,
            CUresult.CUDA_ERROR_ILLEGAL_INSTRUCTION, CUresult.CUDA_ERROR_INVALID_PC}) {
            assertTrue(CudaProcessHealth.isSticky(sticky), CUresult.stringFor(sticky));
        }
        for (int recoverable : new int[] {CUresult.CUDA_ERROR_OUT_OF_MEMORY, CUresult.CUDA_ERROR_INVALID_VALUE,
            CUresult.CUDA_ERROR_UNSUPPORTED_PTX_VERSION, CUresult.CUDA_ERROR_NOT_FOUND}) {
            assertFalse(CudaProcessHealth.isSticky(recoverable), CUresult.stringFor(recoverable));
        }
        CudaProcessHealth.recordIfSticky(CUresult.CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc failed");
        assertNull(CudaProcessHealth.lostBecause(), "running out of memory leaves the context usable");
        CudaProcessHealth.recordIfSticky(CUresult.CUDA_ERROR_ILLEGAL_ADDRESS, "cuStreamSynchronize failed: 700");
        CudaProcessHealth.recordIfSticky(CUresult.CUDA_ERROR_ASSERT, "cuMemcpy failed: 710");
        assertEquals("cuStreamSynchronize failed: 700", CudaProcessHealth.lostBecause());
    }
}
