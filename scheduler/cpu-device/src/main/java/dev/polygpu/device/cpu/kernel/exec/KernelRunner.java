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
    private final boolean swept;
    /** The launch this runner last chose a form for, and whether it chose the swept one. */
    private LaunchFrame chosenFor;
    private boolean sweptChosen;

    public KernelRunner(GeneratedKernel kernel, KernelInfo info) {
        this.kernel = kernel;
        this.st = new BlockState(info);
        this.coop = info.cooperative() ? new CoopScheduler(kernel, st) : null;
        this.swept = info.swept();
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
            } else if (swept) {
                runEitherForm(frame, bx, by, bz);
            } else {
                kernel.runBlock(frame, st, bx, by, bz);
            }
        } catch (RuntimeException | StackOverflowError e) {
            throw fault(e);
        }
    }

    @Override
    public int runBlocks(LaunchFrame frame, int bx, int by, int bz, int blocks) {
        st.beginBlock(frame, bx, by, bz);
        try {
            int ran = kernel.runBlocks(frame, st, bx, by, bz, blocks);
            st.blocksTogether += ran;
            return ran;
        } catch (RuntimeException | StackOverflowError e) {
            throw fault(e);
        }
    }

    /** The kernel fault of a JVM exception that escaped kernel code; a {@link KernelFault} as it is. */
    private RuntimeException fault(Throwable e) {
        return switch (e) {
            case KernelFault f -> f;
            case ArithmeticException a -> st.fault(CudaError.LAUNCH_FAILED, "integer division or remainder by zero", 0);
            case IllegalStateException i -> st.fault(CudaError.LAUNCH_FAILED,
                    "memory became inaccessible while the kernel ran: " + i.getMessage(), 0);
            case StackOverflowError s -> st.fault(CudaError.LAUNCH_OUT_OF_RESOURCES, "stack overflow", 0);
            case RuntimeException r -> r;
            default -> throw (Error) e;
        };
    }

    @Override
    public void finishChunk() {
        LaneRange.ran(st.laneThreads, st.blocksTogether);
        st.laneThreads = 0;
        st.blocksTogether = 0;
    }

    /**
     * A kernel with a swept form: the first block this runner runs of a launch runs swept, and the rest of the
     * launch's blocks here run swept too if one of its sweeps took more than one pass (some thread ran more than the
     * four iterations of a pass), else as the plain thread loop. Many iterations per thread (a grid
     * smaller than the data) make the iteration-major walk several times faster; one per thread (a full grid) makes
     * it slower than the thread loop (docs/benchmarks.md, "Loop interchange").
     */
    private void runEitherForm(LaunchFrame frame, int bx, int by, int bz) {
        if (chosenFor != frame) {
            st.byTid = true;
            st.sweepPasses = 0;
            kernel.runBlockSwept(frame, st, bx, by, bz);
            chosenFor = frame;
            sweptChosen = st.sweepPasses > 1;
            return;
        }
        st.byTid = sweptChosen;
        if (sweptChosen) {
            kernel.runBlockSwept(frame, st, bx, by, bz);
        } else {
            kernel.runBlock(frame, st, bx, by, bz);
        }
    }
}
