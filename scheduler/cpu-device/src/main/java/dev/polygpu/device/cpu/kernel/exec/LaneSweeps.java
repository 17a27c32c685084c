package dev.polygpu.device.cpu.kernel.exec;

/**
 * The run-time half of running a barrier region's loop as SIMD lanes (the code generator's
 * {@code LaneForm.sweep}): moving a group of threads' saved variables between the block's saved registers
 * ({@link BlockState#prims}, one {@code long} of bits per thread, as the generated code saves them) and the arrays
 * the vectors load from and store into, and checking that the group's indices are consecutive. A group that fails
 * runs in the thread loop as before.
 */
public final class LaneSweeps {
    private LaneSweeps() {
    }

    /** True if the {@code int}s saved at {@code at … at + lanes - 1} are {@code k, k + 1, …}: one vector's elements. */
    public static boolean consecutive(long[] prims, int at, int lanes) {
        int first = (int) prims[at];
        for (int j = 1; j < lanes; j++) {
            if ((int) prims[at + j] != first + j) {
                return false;
            }
        }
        // The last lane's index must not wrap, as first + j would not in C.
        return first <= Integer.MAX_VALUE - (lanes - 1);
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
     * Saves each lane's index after its loop ended: {@code base} is the first lane's index after the last
     * iteration all lanes ran, so a lane that ran the last (masked) iteration, {@code base + j < bound}, went on by
     * {@code step}, and the others stopped at {@code base + j}.
     */
    public static void saveIndex(long[] prims, int at, int lanes, int base, int bound, int step) {
        for (int j = 0; j < lanes; j++) {
            int i = base + j;
            prims[at + j] = i < bound ? i + step : i;
        }
    }
}
