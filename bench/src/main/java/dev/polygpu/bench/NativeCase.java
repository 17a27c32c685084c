package dev.polygpu.bench;

/**
 * A case of {@code bench/run} that the native sides ({@link NativeTool}: C loops, OpenCL C on pocl) can run too:
 * what it is called there, the inputs it gives them, and the check of what they give back.
 */
interface NativeCase {

    /** The case's name for the native programs of {@code bench/native} and its OpenCL C file there. */
    String nativeCase();

    /** Why the case has no OpenCL C version to run on pocl, or null if it has one. */
    default String notOnPocl() {
        return null;
    }

    /** Build options for the OpenCL C file (a {@code -D} for a size the CUDA source defines). */
    default String openClOptions() {
        return "";
    }

    /** The inputs the native sides run on: the same values, from the same seed, as the other two sides. */
    NativeData nativeInputs();

    /**
     * Compares a native side's outputs with plain Java's results of the last iteration, with the tolerances the
     * case checks the CPU device with; throws {@link AssertionError} naming {@code side} if they differ.
     */
    void verifyNative(String side, NativeData outputs);
}
