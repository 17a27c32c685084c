package dev.polygpu.device.cpu.kernel.exec;

/**
 * The check at the entry of a strided loop, {@code for (…; i < b; i += s)} (a grid-stride loop): true when the
 * loop ends by itself, because {@code s} is positive and {@code i + s} cannot wrap while {@code i < b}. The
 * generated code then runs a copy of the loop without the countdown that polls the launch's stop request, as
 * it does for loops that count by one ({@code codegen.CountedLoops}). Arguments are in the index's type.
 */
public final class StridedLoops {
    private StridedLoops() {
    }

    /** {@code int}: {@code s >= 1} and {@code b - 1 + s <= Integer.MAX_VALUE}. */
    public static boolean ends(int b, int s) {
        return s >= 1 && (long) b + s <= (long) Integer.MAX_VALUE + 1;
    }

    /** {@code unsigned int}: {@code s != 0} and {@code b - 1 + s <= 2^32 - 1}, both unsigned. */
    public static boolean endsUnsigned(int b, int s) {
        return s != 0 && Integer.toUnsignedLong(b) + Integer.toUnsignedLong(s) <= 1L << 32;
    }

    /** {@code long long}: {@code s >= 1} and {@code b - 1 + s <= Long.MAX_VALUE}. */
    public static boolean ends(long b, long s) {
        return s >= 1 && b <= Long.MAX_VALUE - (s - 1);
    }

    /** {@code unsigned long long}: {@code s != 0} and {@code b <= 2^64 - s}, both unsigned. */
    public static boolean endsUnsigned(long b, long s) {
        return s != 0 && Long.compareUnsigned(b, -s) <= 0;
    }
}
