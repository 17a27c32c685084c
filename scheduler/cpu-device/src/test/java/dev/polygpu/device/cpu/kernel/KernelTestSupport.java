package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.Device;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/** Buffers to and from Java arrays, launches, and float comparisons for the kernel tests. */
public final class KernelTestSupport {
    private KernelTestSupport() {
    }

    /** Asserts that {@code message} contains {@code part}, showing both when it does not. */
    public static void assertContains(String part, String message) {
        assertTrue(message.contains(part), () -> "expected '" + part + "' in: " + message);
    }

    /** {@code n} floats from {@code r}, normally distributed with standard deviation {@code scale}. */
    static float[] gaussianFloats(Random r, int n, double scale) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (r.nextGaussian() * scale);
        }
        return v;
    }

    public static UnifiedBuffer floats(Device d, float[] v) {
        UnifiedBuffer b = d.allocate(Math.max(1, v.length) * 4L);
        MemorySegment.copy(v, 0, b.hostView(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, v.length);
        return b;
    }

    public static UnifiedBuffer doubles(Device d, double[] v) {
        UnifiedBuffer b = d.allocate(Math.max(1, v.length) * 8L);
        MemorySegment.copy(v, 0, b.hostView(), ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, v.length);
        return b;
    }

    public static UnifiedBuffer ints(Device d, int[] v) {
        UnifiedBuffer b = d.allocate(Math.max(1, v.length) * 4L);
        MemorySegment.copy(v, 0, b.hostView(), ValueLayout.JAVA_INT_UNALIGNED, 0, v.length);
        return b;
    }

    public static UnifiedBuffer longs(Device d, long[] v) {
        UnifiedBuffer b = d.allocate(Math.max(1, v.length) * 8L);
        MemorySegment.copy(v, 0, b.hostView(), ValueLayout.JAVA_LONG_UNALIGNED, 0, v.length);
        return b;
    }

    static UnifiedBuffer bytes(Device d, byte[] v) {
        UnifiedBuffer b = d.allocate(Math.max(1, v.length));
        MemorySegment.copy(v, 0, b.hostView(), ValueLayout.JAVA_BYTE, 0, v.length);
        return b;
    }

    static byte[] readBytes(UnifiedBuffer b, int n) {
        byte[] r = new byte[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_BYTE, 0, r, 0, n);
        return r;
    }

    public static float[] readFloats(UnifiedBuffer b, int n) {
        float[] r = new float[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, r, 0, n);
        return r;
    }

    public static double[] readDoubles(UnifiedBuffer b, int n) {
        double[] r = new double[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, r, 0, n);
        return r;
    }

    public static int[] readInts(UnifiedBuffer b, int n) {
        int[] r = new int[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_INT_UNALIGNED, 0, r, 0, n);
        return r;
    }

    public static long[] readLongs(UnifiedBuffer b, int n) {
        long[] r = new long[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_LONG_UNALIGNED, 0, r, 0, n);
        return r;
    }

    /** Compiles {@code source} and returns its kernel {@code name}. */
    static KernelFunction kernel(Device d, String source, String fileName, String name) {
        Module m = d.compile(source, fileName);
        return m.function(name);
    }

    /** Launches on the default stream and waits; a fault is thrown from here. */
    static void run(Device d, KernelFunction k, Dim3 grid, Dim3 block, int sharedBytes, KernelArgs args) {
        var s = d.defaultStream();
        s.launch(k, new LaunchConfig(grid, block, sharedBytes), args);
        s.synchronize();
    }

    static void run(Device d, KernelFunction k, int grid, int block, KernelArgs args) {
        run(d, k, Dim3.of(grid), Dim3.of(block), 0, args);
    }

    /**
     * Asserts {@code |actual - expected| <= relTol * scale}, where {@code scale} is the magnitude the error is
     * relative to (|expected|, or the sum of the magnitudes of the terms where there is cancellation).
     */
    static void assertClose(double expected, double actual, double relTol, double scale, String context) {
        double tol = relTol * Math.max(Math.abs(scale), Double.MIN_NORMAL);
        if (!(Math.abs(actual - expected) <= tol)) {
            fail(context + ": expected " + expected + " but was " + actual + " (difference "
                    + Math.abs(actual - expected) + ", tolerance " + tol + ")");
        }
    }

    /** Distance in units in the last place between two floats (0 for equal values, including NaN and NaN). */
    public static long ulpsFloat(float a, float b) {
        if (Float.isNaN(a) && Float.isNaN(b) || a == b) {
            return 0;
        }
        if (Float.isNaN(a) || Float.isNaN(b)) {
            return Long.MAX_VALUE;
        }
        return Math.abs(ordered(Float.floatToIntBits(a)) - ordered(Float.floatToIntBits(b)));
    }

    static long ulpsDouble(double a, double b) {
        if (Double.isNaN(a) && Double.isNaN(b) || a == b) {
            return 0;
        }
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return Long.MAX_VALUE;
        }
        long x = orderedL(Double.doubleToLongBits(a));
        long y = orderedL(Double.doubleToLongBits(b));
        long d = x - y;
        return (x >= y) == (d >= 0) ? Math.abs(d) : Long.MAX_VALUE;
    }

    private static long ordered(int bits) {
        return bits < 0 ? (long) Integer.MIN_VALUE - bits : bits;
    }

    private static long orderedL(long bits) {
        return bits < 0 ? Long.MIN_VALUE - bits : bits;
    }

    /** {@code v} as little-endian bytes, as an oracle case's buffer holds it. */
    public static byte[] littleEndianInts(int... v) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * v.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int x : v) {
            b.putInt(x);
        }
        return b.array();
    }
}
