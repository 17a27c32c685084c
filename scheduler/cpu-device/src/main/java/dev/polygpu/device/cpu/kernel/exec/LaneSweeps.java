package dev.polygpu.device.cpu.kernel.exec;

/**
 * The run-time half of running a barrier region's loop as SIMD lanes (the code generator's
 * {@code LaneForm.sweep}): moving a group of threads' saved variables between the block's saved registers
 * ({@link BlockState#prims}, one {@code long} of bits per thread, as the generated code saves them) and the arrays
 * the vectors load from and store into, and checking that the threads' indices are consecutive. A block that fails
 * runs in the thread loop as before.
 */
public final class LaneSweeps {
    private LaneSweeps() {
    }

    /**
     * True if the {@code int}s saved at {@code at … at + count - 1} are {@code k, k + 1, …}: the threads' indices
     * are consecutive, so each vector's worth of them is one vector's elements.
     */
    public static boolean consecutive(long[] prims, int at, int count) {
        int first = (int) prims[at];
        if (first > Integer.MAX_VALUE - (count - 1)) {
            return false;
        }
        for (int j = 1; j < count; j++) {
            if ((int) prims[at + j] != first + j) {
                return false;
            }
        }
        return true;
    }

    public static void loadFloats(long[] prims, int at, float[] into) {
        for (int j = 0; j < into.length; j++) {
            into[j] = Float.intBitsToFloat((int) prims[at + j]);
        }
    }

    public static void loadDoubles(long[] prims, int at, double[] into) {
        for (int j = 0; j < into.length; j++) {
            into[j] = Double.longBitsToDouble(prims[at + j]);
        }
    }

    public static void loadInts(long[] prims, int at, int[] into) {
        for (int j = 0; j < into.length; j++) {
            into[j] = (int) prims[at + j];
        }
    }

    public static void saveFloats(float[] from, long[] prims, int at) {
        for (int j = 0; j < from.length; j++) {
            prims[at + j] = Float.floatToRawIntBits(from[j]);
        }
    }

    public static void saveDoubles(double[] from, long[] prims, int at) {
        for (int j = 0; j < from.length; j++) {
            prims[at + j] = Double.doubleToRawLongBits(from[j]);
        }
    }

    public static void saveInts(int[] from, long[] prims, int at) {
        for (int j = 0; j < from.length; j++) {
            prims[at + j] = from[j];
        }
    }

    /**
     * Saves the index of each of {@code count} threads after its loop {@code for (; i < bound; i += step)} ended,
     * thread {@code t} having started at {@code first + t}: the first {@code first + t + k * step} not below the
     * bound ({@code bound + step} fits an {@code int}, as {@code LaneRange.strided} checked).
     */
    public static void saveIndices(long[] prims, int at, int count, int first, int bound, int step) {
        for (int t = 0; t < count; t++) {
            int i = first + t;
            if (i < bound) {
                long k = ((long) bound - i + step - 1) / step;
                i = (int) (i + k * step);
            }
            prims[at + t] = i;
        }
    }
}
