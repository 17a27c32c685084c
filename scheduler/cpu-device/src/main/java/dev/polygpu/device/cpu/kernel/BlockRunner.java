package dev.polygpu.device.cpu.kernel;

/**
 * Runs whole thread blocks of one kernel. Not thread-safe: one instance per worker thread.
 */
public interface BlockRunner {

    /**
     * Runs every thread of block {@code (bx, by, bz)} of the launch described by {@code frame} to completion.
     * A fault (out-of-bounds access, broken warp-intrinsic contract…) throws {@link KernelFault}; the block
     * is then abandoned.
     */
    void runBlock(LaunchFrame frame, int bx, int by, int bz);

    /**
     * Runs blocks {@code bx … bx + blocks - 1} (each with {@code by}, {@code bz}) as {@link #runBlock} would, as far
     * as the kernel can run them together, and answers how many of them, from {@code bx} on, ran; 0 where none did,
     * and the caller runs them one by one. Faults as {@link #runBlock}.
     */
    default int runBlocks(LaunchFrame frame, int bx, int by, int bz, int blocks) {
        return 0;
    }

    /**
     * Called once the blocks of a chunk of the launch have run, or one of them faulted: publishes what the runner
     * tallied while they ran (before the launch completes).
     */
    default void finishChunk() {
    }

    /**
     * Where the {@code printf} records (and assertion messages) of the blocks this runner runs next go; null to
     * stop. Called only for kernels whose {@link CompiledKernel#prints()} is true.
     */
    default void printTo(PrintfOutput.Writer writer) {
        throw new UnsupportedOperationException("this runner's kernel does not print");
    }
}
