package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.Device;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/** Fixtures, buffers to and from Java arrays, and launches for the PTX tests. */
final class PtxTestSupport {
    private PtxTestSupport() {
    }

    /** A test resource under {@code /ptx/}. */
    static byte[] resource(String name) {
        try (InputStream in = PtxTestSupport.class.getResourceAsStream("/ptx/" + name)) {
            if (in == null) {
                throw new IllegalStateException("test resource /ptx/" + name + " is missing");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String name) {
        return new String(resource(name), StandardCharsets.UTF_8);
    }

    /** Loads PTX text given as a string. */
    static Module ptx(Device d, String text, String file) {
        return d.load(text.getBytes(StandardCharsets.UTF_8), file);
    }

    static void launch(Module m, String kernel, int grid, int block, KernelArgs args) {
        launch(m, kernel, new LaunchConfig(Dim3.of(grid), Dim3.of(block), 0), args);
    }

    static void launch(Module m, String kernel, LaunchConfig config, KernelArgs args) {
        Device d = m.device();
        d.defaultStream().launch(m.function(kernel), config, args);
        d.synchronize();
    }

    static UnifiedBuffer floats(Device d, float[] v) {
        UnifiedBuffer b = d.allocate(Math.max(1, v.length) * 4L);
        MemorySegment.copy(v, 0, b.hostView(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, v.length);
        return b;
    }

    static UnifiedBuffer doubles(Device d, double[] v) {
        UnifiedBuffer b = d.allocate(Math.max(1, v.length) * 8L);
        MemorySegment.copy(v, 0, b.hostView(), ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, v.length);
        return b;
    }

    static UnifiedBuffer ints(Device d, int[] v) {
        UnifiedBuffer b = d.allocate(Math.max(1, v.length) * 4L);
        MemorySegment.copy(v, 0, b.hostView(), ValueLayout.JAVA_INT_UNALIGNED, 0, v.length);
        return b;
    }

    static UnifiedBuffer longs(Device d, long[] v) {
        UnifiedBuffer b = d.allocate(Math.max(1, v.length) * 8L);
        MemorySegment.copy(v, 0, b.hostView(), ValueLayout.JAVA_LONG_UNALIGNED, 0, v.length);
        return b;
    }

    static float[] readFloats(UnifiedBuffer b, int n) {
        float[] r = new float[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, r, 0, n);
        return r;
    }

    static double[] readDoubles(UnifiedBuffer b, int n) {
        double[] r = new double[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, r, 0, n);
        return r;
    }

    static int[] readInts(UnifiedBuffer b, int n) {
        int[] r = new int[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_INT_UNALIGNED, 0, r, 0, n);
        return r;
    }

    static long[] readLongs(UnifiedBuffer b, int n) {
        long[] r = new long[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_LONG_UNALIGNED, 0, r, 0, n);
        return r;
    }

    /** Units in the last place between two floats. */
    static long ulps(float a, float b) {
        return Math.abs((long) Float.floatToIntBits(a) - Float.floatToIntBits(b));
    }
}
