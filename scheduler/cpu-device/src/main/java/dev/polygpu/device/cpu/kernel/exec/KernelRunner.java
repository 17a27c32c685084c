package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.cpu.kernel.BlockRunner;
import dev.polygpu.device.cpu.kernel.KernelFault;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import dev.polygpu.device.cpu.kernel.PrintfOutput;

/**
 * The {@link BlockRunner} of a generated kernel: holds the worker's {@link BlockState} and turns JVM
 * exceptions that escape kernel code into kernel faults that name the block and thread.
 */
public final class KernelRunner implements BlockRunner {
    private final GeneratedKernel kernel;
    private final BlockState st;
    private final CoopScheduler coop;

    public KernelRunner(GeneratedKernel kernel, KernelInfo info) {
        this.kernel = kernel;
        this.st = new BlockState(info);
        this.coop = info.cooperative() ? new CoopScheduler(kernel, st) : null;
    }

    @Override
    public void printTo(PrintfOutput.Writer writer) {
        st.printf = writer;
    }

    @Override
    public void runBlock(LaunchFrame frame, int bx, int by, int bz) {
        st.beginBlock(frame, bx, by, bz);
        try {
            if (coop != null) {
                coop.runBlock(frame, bx, by, bz);
            } else {
                kernel.runBlock(frame, st, bx, by, bz);
            }
        } catch (KernelFault f) {
            throw f;
        } catch (ArithmeticException e) {
            throw st.fault(CudaError.LAUNCH_FAILED, "integer division or remainder by zero", 0);
        } catch (IllegalStateException e) {
            throw st.fault(CudaError.LAUNCH_FAILED, "memory became inaccessible while the kernel ran: "
                    + e.getMessage(), 0);
        } catch (StackOverflowError e) {
            throw st.fault(CudaError.LAUNCH_OUT_OF_RESOURCES, "stack overflow", 0);
        }
    }
}
