package dev.polygpu.bench;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;

/**
 * One benchmark case: the same computation on the CPU device (a CUDA kernel) and in plain Java. The driver
 * calls {@link #setUp}, then per iteration {@link #reset} (untimed), {@link #runDevice} and {@link #runJava}
 * (each timed) and {@link #verify} (untimed), and finally {@link #close}.
 */
abstract class BenchCase implements AutoCloseable {

    private final String name;
    private final String kernelName;
    private final String source;
    private final double goal;
    private final List<UnifiedBuffer> buffers = new ArrayList<>();
    protected Device device;
    protected Stream stream;
    protected JavaPool pool;
    protected KernelFunction kernel;
    private Module module;

    BenchCase(String name, String kernelName, String source, double goal) {
        this.name = name;
        this.kernelName = kernelName;
        this.source = source;
        this.goal = goal;
    }

    final String name() {
        return name;
    }

    final String kernelName() {
        return kernelName;
    }

    final String source() {
        return source;
    }

    final String fileName() {
        return name + ".cu";
    }

    /** The goal for the CPU device's time over plain Java's. */
    final double goal() {
        return goal;
    }

    /** The problem size, for the table. */
    abstract String size();

    /** Compiles the kernel, allocates the buffers and arrays and fills the inputs (same values on both sides). */
    final void setUp(Device dev, JavaPool javaPool) {
        this.device = dev;
        this.stream = dev.defaultStream();
        this.pool = javaPool;
        this.module = dev.compile(source, fileName());
        this.kernel = module.function(kernelName);
        allocate();
    }

    /** Allocates the device buffers (with {@link #buffer}) and Java arrays and fills the inputs. */
    protected abstract void allocate();

    /** Restores inputs an iteration overwrites; untimed. */
    void reset() {
    }

    /** Runs the computation on the CPU device, to completion. */
    abstract void runDevice();

    /** Runs the computation in plain Java, to completion. */
    abstract void runJava();

    /** Compares the two results of the last iteration; throws {@link AssertionError} if they differ. */
    abstract void verify();

    protected final UnifiedBuffer buffer(long bytes) {
        UnifiedBuffer b = device.allocate(bytes);
        buffers.add(b);
        return b;
    }

    @Override
    public void close() {
        for (UnifiedBuffer b : buffers) {
            b.free();
        }
        buffers.clear();
        if (module != null) {
            module.close();
            module = null;
        }
    }

    // ---- helpers shared by the cases

    static void copyIn(float[] src, UnifiedBuffer dst) {
        MemorySegment.copy(src, 0, dst.hostView(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, src.length);
    }

    static void copyIn(double[] src, UnifiedBuffer dst) {
        MemorySegment.copy(src, 0, dst.hostView(), ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, src.length);
    }

    static void copyOut(UnifiedBuffer src, float[] dst) {
        MemorySegment.copy(src.hostView(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, dst, 0, dst.length);
    }

    static void copyOut(UnifiedBuffer src, double[] dst) {
        MemorySegment.copy(src.hostView(), ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, dst, 0, dst.length);
    }

    static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /**
     * Checks {@code |device - java| <= abs + rel * |java|} element-wise; reports the first mismatch and the
     * number of mismatches.
     */
    static void assertClose(String what, float[] device, float[] java, double abs, double rel) {
        assertClose(what, "CPU device", device, java, abs, rel);
    }

    static void assertClose(String what, double[] device, double[] java, double abs, double rel) {
        assertClose(what, "CPU device", device, java, abs, rel);
    }

    /** As above, for the results of {@code side} (the CPU device, C or pocl). */
    static void assertClose(String what, String side, float[] device, float[] java, double abs, double rel) {
        sameLength(what, side, device.length, java.length);
        assertClose(what, side, java.length, i -> device[i], i -> java[i], abs, rel);
    }

    static void assertClose(String what, String side, double[] device, double[] java, double abs, double rel) {
        sameLength(what, side, device.length, java.length);
        assertClose(what, side, java.length, i -> device[i], i -> java[i], abs, rel);
    }

    /** {@code |sum - javaSum| <= rel * |javaSum|}, the reductions' check. */
    static void assertSumClose(String what, String side, double sum, double javaSum, double rel) {
        if (!(Math.abs(sum - javaSum) <= rel * Math.abs(javaSum))) {
            throw new AssertionError(what + ": " + side + " sum " + sum + ", Java sum " + javaSum);
        }
    }

    private static void sameLength(String what, String side, int length, int javaLength) {
        if (length != javaLength) {
            throw new AssertionError(what + ": " + side + " gave " + length + " elements, Java " + javaLength);
        }
    }

    private static void assertClose(String what, String side, int n, IntToDoubleFunction device,
                                    IntToDoubleFunction java, double abs, double rel) {
        int bad = 0;
        int first = -1;
        for (int i = 0; i < n; i++) {
            double d = device.applyAsDouble(i);
            double j = java.applyAsDouble(i);
            if (!(Math.abs(d - j) <= abs + rel * Math.abs(j))) {
                if (bad++ == 0) {
                    first = i;
                }
            }
        }
        if (bad > 0) {
            throw new AssertionError(what + ": " + bad + " of " + n + " elements differ; first at " + first
                    + ": " + side + " " + device.applyAsDouble(first) + ", Java " + java.applyAsDouble(first));
        }
    }
}
