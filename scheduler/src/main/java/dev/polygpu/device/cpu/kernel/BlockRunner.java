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
}
