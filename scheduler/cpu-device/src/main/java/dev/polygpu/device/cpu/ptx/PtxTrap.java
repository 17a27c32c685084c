package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.CudaError;

/**
 * A fault raised by one instruction (an illegal or misaligned address, a broken warp contract), without the
 * context; the {@link PtxBlockRunner} adds kernel, line, block and thread and turns it into a
 * {@code KernelFault}. No stack trace: it is an expected outcome of a kernel, not a bug.
 */
final class PtxTrap extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final CudaError error;

    PtxTrap(CudaError error, String what) {
        super(what, null, false, false);
        this.error = error;
    }
}
