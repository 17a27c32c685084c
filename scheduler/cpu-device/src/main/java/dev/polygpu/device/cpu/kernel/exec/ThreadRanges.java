package dev.polygpu.device.cpu.kernel.exec;

/**
 * The {@code threadIdx.x} a region of the barrier-region form visits when its body is {@code if (tid < s)} or
 * {@code if (tid == k)} ({@code codegen.ThreadRange}): the bound, already widened to a {@code long} (an unsigned
 * {@code int} zero-extended), clamped to the block's x extent. Called by generated code.
 */
public final class ThreadRanges {
    private ThreadRanges() {
    }

    /** One past the last {@code x} below {@code bound}; {@code unsigned64}: the bound is an unsigned 64-bit value. */
    public static int below(long bound, boolean unsigned64, int extent) {
        if (unsigned64 && bound < 0) {
            return extent;
        }
        return (int) Math.max(0, Math.min(bound, extent));
    }

    /** The {@code x} equal to {@code value}, or {@code extent} (no thread) where none is. */
    public static int at(long value, boolean unsigned64, int extent) {
        return value >= 0 && value < extent ? (int) value : extent;
    }
}
