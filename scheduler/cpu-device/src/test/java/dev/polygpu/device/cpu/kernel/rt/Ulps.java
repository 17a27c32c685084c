package dev.polygpu.device.cpu.kernel.rt;

/** Distances in units in the last place, for accuracy assertions (NaN is at distance 0 from NaN only). */
final class Ulps {
    private Ulps() {
    }

    /** Number of representable doubles between a and b; counts -0.0 and +0.0 as neighbours. */
    static long between(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return Double.isNaN(a) && Double.isNaN(b) ? 0 : Long.MAX_VALUE;
        }
        long d = ordered(a) - ordered(b);
        return d == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(d);
    }

    static long between(float a, float b) {
        if (Float.isNaN(a) || Float.isNaN(b)) {
            return Float.isNaN(a) && Float.isNaN(b) ? 0 : Long.MAX_VALUE;
        }
        return Math.abs((long) ordered(a) - ordered(b));
    }

    private static long ordered(double x) {
        long bits = Double.doubleToRawLongBits(x);
        return bits < 0 ? -(bits & Long.MAX_VALUE) - 1 : bits;
    }

    private static long ordered(float x) {
        int bits = Float.floatToRawIntBits(x);
        return bits < 0 ? -(long) (bits & Integer.MAX_VALUE) - 1 : bits;
    }
}
