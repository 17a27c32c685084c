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
