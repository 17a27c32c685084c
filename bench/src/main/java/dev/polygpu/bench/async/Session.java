package dev.polygpu.bench.async;

import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.Value;

/**
 * One polyglot context of the grcuda language with one {@link Policy}, and what the DAG programs use of it:
 * device arrays, kernels built from CUDA C and a NIDL signature, bulk host copies, element writes and
 * {@code cudaDeviceSynchronize}. Everything goes through the public polyglot API, as an embedder's program
 * would. While a {@link Trace} is attached, launches and host accesses are recorded into it.
 *
 * <p>Not thread-safe: one program thread uses a session.
 */
final class Session implements AutoCloseable {
    private final Policy policy;
    private final Context context;
    private final Value deviceArray;
    private final Value buildKernel;
    private final Value synchronize;
    private final java.util.List<DevArray> arrays = new java.util.ArrayList<>();
    private Trace trace;

    Session(Engine engine, Policy policy) {
        this(engine, policy, Map.of());
    }

    /** A session with more {@code grcuda.*} options (for example {@code grcuda.Timeline}). */
    Session(Engine engine, Policy policy, Map<String, String> options) {
        this.policy = policy;
        this.context = Context.newBuilder("grcuda").engine(engine).allowAllAccess(true)
                .option("grcuda.ExecutionPolicy", policy.execution())
                .option("grcuda.DependencyPolicy", policy.dependency())
                .option("grcuda.Device", "cpu")
                .options(options)
                .build();
        Value cu = context.eval("grcuda", "CU");
        this.deviceArray = cu.getMember("DeviceArray");
        this.buildKernel = cu.getMember("buildkernel");
        this.synchronize = cu.getMember("cudaDeviceSynchronize");
    }

    Policy policy() {
        return policy;
    }

    /** Starts recording into {@code t}, or stops recording when {@code t} is null. */
    void record(Trace t) {
        this.trace = t;
    }

    Trace trace() {
        return trace;
    }

    /** A new device array of {@code n} elements of {@code type} ({@code float}, {@code double}, {@code int}). */
    DevArray array(String name, String type, int n) {
        DevArray a = new DevArray(deviceArray.execute(type, n), arrays.size(), name, type, n);
        arrays.add(a);
        return a;
    }

    /** The arrays made so far, each at its id. */
    java.util.List<DevArray> arrays() {
        return java.util.List.copyOf(arrays);
    }

    /** A new device array holding a copy of {@code values} ({@code float[]}, {@code double[]} or {@code int[]}). */
    DevArray array(String name, Object values) {
        String type = switch (values) {
            case float[] f -> "float";
            case double[] d -> "double";
            case int[] i -> "int";
            default -> throw new IllegalArgumentException("not a float[], double[] or int[]: " + values);
        };
        DevArray a = array(name, type, java.lang.reflect.Array.getLength(values));
        write(a, values);
        return a;
    }

    Kernel kernel(String source, String signature) {
        return new Kernel(this, buildKernel.execute(source, signature), Kernel.modes(signature));
    }

    /** Copies {@code values} (a Java array of the element type) into {@code a}: one host write. */
    void write(DevArray a, Object values) {
        host("write " + a.name(), a, Trace.Mode.WRITE);
        a.value().invokeMember("copyFrom", values);
    }

    /** Writes one element: one host write. */
    void set(DevArray a, int index, Object value) {
        host("write " + a.name() + "[" + index + "]", a, Trace.Mode.WRITE);
        a.value().setArrayElement(index, value);
    }

    /** Copies {@code a} into a new Java array of its element type: one host read. */
    Object read(DevArray a) {
        host("read " + a.name(), a, Trace.Mode.READ);
        Object values = a.newHostArray();
        a.value().invokeMember("copyTo", values);
        return values;
    }

    /**
     * {@code cu.polygpu_schedule("summary")}: one line on what ran since the last {@link #clearSchedule()}, with its
     * transfers and their bytes on several devices (the context needs {@code grcuda.RecordSchedule=true}).
     */
    String scheduleSummary() {
        return context.eval("grcuda", "CU").getMember("polygpu_schedule").execute("summary").asString();
    }

    /** {@code cu.polygpu_schedule_clear()}: forgets what was recorded. */
    void clearSchedule() {
        context.eval("grcuda", "CU").getMember("polygpu_schedule_clear").execute();
    }

    /** {@code cudaDeviceSynchronize()}: waits for everything submitted so far. */
    void synchronize() {
        synchronize.execute();
    }

    private void host(String label, DevArray a, Trace.Mode mode) {
        if (trace != null) {
            trace.host(label, new Trace.Use(a.id(), mode));
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
