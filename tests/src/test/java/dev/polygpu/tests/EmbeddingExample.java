package dev.polygpu.tests;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

/**
 * How a Java program uses polygpu: the whole GrCUDA API is reached through {@code Context.eval("grcuda", …)}.
 * This example builds a SAXPY kernel, runs it on two device arrays, checks the result against plain Java, and
 * shows what a kernel fault looks like from Java. {@link EmbeddingExampleTest} runs it.
 *
 * <pre>
 * Context.newBuilder("grcuda")                  // plus "python", "js" for a polyglot program
 *        .option("grcuda.ExecutionPolicy", "sync") // any grcuda.* option
 *        .build()
 * </pre>
 */
public final class EmbeddingExample {
    static final String SAXPY = """
            __global__ void saxpy(float *y, const float *x, float a, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
                    y[i] = a * x[i] + y[i];
            }""";

    private EmbeddingExample() {
    }

    public static void main(String[] args) {
        System.out.println(run(null));
    }

    /** Runs the example (on {@code engine} when not null) and returns what it would print. */
    static String run(Engine engine) {
        StringBuilder out = new StringBuilder();
        Context.Builder builder = Context.newBuilder("grcuda").allowAllAccess(true);
        if (engine != null) {
            builder.engine(engine);
        }
        try (Context context = builder.build()) {
            Value cu = context.eval("grcuda", "CU");
            int n = 100_000;

            // Device arrays: created like GrCUDA's, filled in bulk from Java arrays (one copy, no per-element calls).
            Value x = cu.getMember("DeviceArray").execute("float", n);
            Value y = context.eval("grcuda", "float[100000]");
            float[] hostX = new float[n];
            float[] hostY = new float[n];
            for (int i = 0; i < n; i++) {
                hostX[i] = i % 1000 * 0.001f;
                hostY[i] = 1f;
            }
            x.invokeMember("copyFrom", hostX);
            y.invokeMember("copyFrom", hostY);

            // A kernel: CUDA C source plus a NIDL signature (in = read-only, inout = read and written).
            Value saxpy = cu.getMember("buildkernel").execute(SAXPY,
                    "saxpy(y: inout pointer float, x: in pointer float, a: float, n: sint32)");
            saxpy.execute(64, 256).execute(y, x, 2.0f, n);   // grid of 64 blocks of 256 threads

            float[] result = new float[n];
            y.invokeMember("copyTo", result);
            double maxError = 0;
            for (int i = 0; i < n; i++) {
                maxError = Math.max(maxError, Math.abs(result[i] - (2.0f * hostX[i] + hostY[i])));
            }
            out.append("saxpy: y[999] = ").append(result[999]).append(", max error vs Java ").append(maxError)
                    .append('\n');

            // Launches are asynchronous: a kernel's fault comes back as a PolyglotException with the device's
            // message at the first host access that needs the kernel's result; the context stays usable.
            saxpy.execute(64, 256).execute(y, x, 2.0f, n + 1);
            try {
                y.getArrayElement(0);
            } catch (PolyglotException e) {
                out.append("fault: ").append(e.getMessage().lines().findFirst().orElse("")).append('\n');
            }
            out.append("launches: ").append(saxpy.getMember("launchCount").asInt()).append('\n');
        }
        return out.toString();
    }
}
