package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.cpu.kernel.LaunchFrame;

/**
 * What the code generator's hidden classes implement. A kernel without yield points implements
 * {@link #runBlock}: all threads of a block run one after another in a loop inside one JVM method; so does a
 * kernel in the barrier-region form ({@link KernelInfo#regions()}), with one such loop per stretch between
 * barriers. A
 * cooperative kernel (barriers, warp intrinsics) implements {@link #resumeThreads}: it runs each runnable
 * thread of a range from where it last stopped up to its next yield point, saving its registers in the
 * {@link BlockState}, and {@link CoopScheduler} decides which ranges run when.
 */
public interface GeneratedKernel {

    /** Runs every thread of the block (kernels without yield points, and those in the barrier-region form). */
    default void runBlock(LaunchFrame frame, BlockState st, int bx, int by, int bz) {
        throw new IllegalStateException("cooperative kernel run without its scheduler");
    }

    /**
     * Runs blocks {@code bx … bx + blocks - 1} (all with {@code by}, {@code bz}) as {@link #runBlock} would run them
     * one after another, as far as the kernel can run them together, and answers how many of them, from {@code bx}
     * on, it ran: 0 where it did not run any (a kernel without the form, a stretch the run-time checks refuse). The
     * element-wise kernels whose lanes run across blocks implement it.
     */
    default int runBlocks(LaunchFrame frame, BlockState st, int bx, int by, int bz, int blocks) {
        return 0;
    }

    /**
     * Runs every thread of the block as {@link #runBlock} does, with the strided loops of a kernel without barriers
     * run iteration-major ({@link KernelInfo#swept()}); records in {@link BlockState#sweepPasses} the most passes
     * one of its sweeps took.
     */
    default void runBlockSwept(LaunchFrame frame, BlockState st, int bx, int by, int bz) {
        throw new IllegalStateException("kernel compiled without a swept form");
    }

    /**
     * Runs every thread {@code t} in {@code [from, to)} whose {@code st.status[t]} is runnable (0) from its
     * saved resume point to its next yield point, leaving {@code status[t]} waiting (1) with
     * {@code st.site[t]} set to the yield site (an index into {@link KernelInfo#sites()}), or exited (2).
     */
    default void resumeThreads(LaunchFrame frame, BlockState st, int bx, int by, int bz, int from, int to) {
        throw new IllegalStateException("non-cooperative kernel resumed");
    }
}
