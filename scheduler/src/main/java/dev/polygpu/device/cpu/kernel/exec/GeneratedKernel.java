package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.cpu.kernel.LaunchFrame;

/**
 * What the code generator's hidden classes implement. A kernel without yield points implements
 * {@link #runBlock}: all threads of a block run one after another in a loop inside one JVM method. A
 * cooperative kernel (barriers, warp intrinsics) implements {@link #resume}: it runs one thread from where it
 * last stopped up to its next yield point, saving its registers in the {@link BlockState}, and
 * {@link CoopScheduler} interleaves the threads.
 */
public interface GeneratedKernel {

    /** Runs every thread of the block (kernels without yield points). */
    default void runBlock(LaunchFrame frame, BlockState st, int bx, int by, int bz) {
        throw new IllegalStateException("cooperative kernel run without its scheduler");
    }

    /**
     * Runs thread {@code tid} (linear index in the block) from its saved resume point. Returns the yield site
     * it stopped at (an index into {@link KernelInfo#sites()}), or -1 when the thread has finished.
     */
    default int resume(LaunchFrame frame, BlockState st, int bx, int by, int bz, int tid) {
        throw new IllegalStateException("non-cooperative kernel resumed");
    }
}
