package dev.polygpu.device.cpu.oracle.gen;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Initial contents of buffers: little-endian elements biased towards edge values (0, ±1, bounds, powers of
 * two; for floats also -0, infinities, NaNs with payloads, subnormals) among random ones.
 */
public final class InputData {
    private InputData() {
    }

    /** {@code n} elements of type {@code t}. */
    public static byte[] random(Rng rng, Prim t, int n) {
        ByteBuffer b = ByteBuffer.allocate(n * t.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            switch (t) {
                case FLOAT -> b.putFloat(randomFloat(rng));
                case DOUBLE -> b.putDouble(randomDouble(rng));
                case HALF -> b.putShort((short) rng.below(1 << 16));
                default -> put(b, t, randomInt(rng, t));
            }
        }
        return b.array();
    }

    static void put(ByteBuffer b, Prim t, long v) {
        switch (t.size()) {
            case 1 -> b.put((byte) v);
            case 2 -> b.putShort((short) v);
            case 4 -> b.putInt((int) v);
            default -> b.putLong(v);
        }
    }

    static long randomInt(Rng rng, Prim t) {
        long v = switch (rng.below(10)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> -1;
            case 3 -> t.max();
            case 4 -> t.min();
            case 5 -> 1L << rng.below(t.width());
            case 6, 7 -> rng.range(-1000, 1000);
            default -> rng.nextLong();
        };
        return t.wrap(v);
    }

    static float randomFloat(Rng rng) {
        return switch (rng.below(16)) {
            case 0 -> 0.0f;
            case 1 -> -0.0f;
            case 2 -> 1.0f;
            case 3 -> Float.POSITIVE_INFINITY;
            case 4 -> Float.NEGATIVE_INFINITY;
            case 5 -> Float.intBitsToFloat(0x7fc00000 | rng.below(1 << 22));
            case 6 -> Float.MIN_VALUE * rng.range(1, 1000);
            case 7 -> Float.MAX_VALUE;
            case 8, 9 -> rng.range(-1000, 1000) / 4.0f;
            case 10, 11 -> (float) Math.scalb(rng.below(1 << 24) / (double) (1 << 24), rng.range(-20, 20))
                    * (rng.coin() ? 1 : -1);
            default -> Float.intBitsToFloat((int) rng.nextLong());
        };
    }

    static double randomDouble(Rng rng) {
        return switch (rng.below(16)) {
            case 0 -> 0.0;
            case 1 -> -0.0;
            case 2 -> 1.0;
            case 3 -> Double.POSITIVE_INFINITY;
            case 4 -> Double.NEGATIVE_INFINITY;
            case 5 -> Double.longBitsToDouble(0x7ff8000000000000L | rng.below(1 << 30));
            case 6 -> Double.MIN_VALUE * rng.range(1, 1000);
            case 7 -> Double.MAX_VALUE;
            case 8, 9 -> rng.range(-1000, 1000) / 4.0;
            case 10, 11 -> Math.scalb(rng.nextLong() * 0x1p-63, rng.range(-40, 40));
            default -> Double.longBitsToDouble(rng.nextLong());
        };
    }
}
