package dev.polygpu.grcuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A kernel that writes through a parameter its signature declares {@code in} or {@code const}, through the
 * polyglot API. From CUDA C, {@code buildkernel} finds the write in the source: it warns once, naming kernel,
 * parameter and line, and schedules the parameter as {@code inout}, so the program computes. From PTX
 * ({@code bindkernel}, no source to analyze) the CPU device's run-time check is the backstop: under the default
 * {@code with-const} policy the launch fails with an error naming the kernel and the parameter, raised by the
 * host access or synchronization that waits for the kernel; declared {@code inout}, or under {@code no-const},
 * the same program computes.
 */
class GrReadOnlyParameterTest {
    private static final long SEED = 31_337L;
    private static final int N = 500;

    /** y = 3x, and x is overwritten with 7 (line 5): a write through x. */
    private static final String SCALE = """
            __global__ void scale(float* x, float* y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    y[i] = 3.0f * x[i];
                    x[i] = 7.0f;
                }
            }""";

    private static Engine engine;
    private static String ptx;

    @BeforeAll
    static void start() throws URISyntaxException {
        engine = Engine.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false").build();
        ptx = Path.of(GrReadOnlyParameterTest.class.getResource("readonly/scale_sm75.ptx").toURI()).toString();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static Context context(String dependencyPolicy) {
        return context(dependencyPolicy, new ByteArrayOutputStream());
    }

    private static Context context(String dependencyPolicy, ByteArrayOutputStream err) {
        return Context.newBuilder("grcuda").engine(engine).allowAllAccess(true).err(err)
                .option("grcuda.DependencyPolicy", dependencyPolicy).build();
    }

    /** A device array of n random floats (multiples of 1/8, so 3x is exact), and the values in Java. */
    private static float[] fill(Value array) {
        Random r = new Random(SEED);
        float[] v = new float[N];
        for (int i = 0; i < N; i++) {
            v[i] = r.nextInt(8000) / 8f - 500f;
            array.setArrayElement(i, v[i]);
        }
        return v;
    }

    private static void assertComputed(float[] in, Value x, Value y) {
        for (int i = 0; i < N; i++) {
            assertEquals(3f * in[i], y.getArrayElement(i).asFloat(), "y[" + i + "] (seed " + SEED + ")");
            assertEquals(7f, x.getArrayElement(i).asFloat(), "x[" + i + "]");
        }
    }

    private static void assertNamesKernelAndParameter(PolyglotException e) {
        String m = e.getMessage();
        assertTrue(m.contains("kernel 'scale'") && m.contains("wrote to its parameter 'scale_param_0' (argument 1")
                && m.contains("read-only ('in' or 'const')") && m.contains("'inout'")
                && m.contains("CUDA_ERROR_NOT_PERMITTED"), m);
    }

    @Test
    void aWriteInTheSourceIsFoundWarnedOnceAndScheduledAsInout() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = context("with-const", err)) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", N);
            Value y = cu.getMember("DeviceArray").execute("float", N);
            for (int round = 0; round < 2; round++) {
                Value k = cu.getMember("buildkernel").execute(SCALE,
                        "scale(x: in pointer float, y: out pointer float, n: sint32)");
                assertEquals("kernel scale(x: inout pointer float, y: out pointer float, n: sint32)", k.toString());
                float[] in = fill(x);
                k.execute(4, 128).execute(x, y, N);
                assertComputed(in, x, y);
            }
        }
        String warnings = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, warnings.lines().filter(l -> l.contains("warning")).count(), warnings);
        assertTrue(warnings.contains("kernel 'scale' writes through its parameter 'x' (argument 1) at scale.cu:5:")
                && warnings.contains("read-only ('in' or 'const')") && warnings.contains("scheduled as 'inout'"),
                warnings);
    }

    @Test
    void writingAnInParameterOfPtxFailsAtTheHostReadThatWaitsForTheKernel() {
        try (Context c = context("with-const")) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", N);
            Value y = cu.getMember("DeviceArray").execute("float", N);
            fill(x);
            Value k = cu.getMember("bindkernel").execute(ptx,
                    "scale(x: in pointer float, y: out pointer float, n: sint32)");
            k.execute(4, 128).execute(x, y, N); // returns at once: the kernel runs asynchronously
            assertNamesKernelAndParameter(assertThrows(PolyglotException.class, () -> y.getArrayElement(0)));

            // The context keeps working: the same kernel declared honestly computes.
            Value fixed = cu.getMember("bindkernel").execute(ptx,
                    "scale(x: inout pointer float, y: out pointer float, n: sint32)");
            float[] again = fill(x);
            fixed.execute(4, 128).execute(x, y, N);
            assertComputed(again, x, y);
        }
    }

    @Test
    void aPtxKernelThatOnlyWritesItsConstParameterFailsAtSynchronize() {
        // Legacy signature: 'const pointer'. Nothing the kernel declares is written, so no host read waits for
        // it; the device synchronization does.
        try (Context c = context("with-const")) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", N);
            fill(x);
            Value k = cu.getMember("bindkernel").execute(ptx, "poke", "const pointer, sint32");
            k.execute(4, 128).execute(x, N);
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> cu.getMember("cudaDeviceSynchronize").execute());
            assertTrue(e.getMessage().contains("kernel 'poke'") && e.getMessage().contains("read-only"),
                    e.getMessage());
        }
    }

    @Test
    void aConstParameterWrittenThroughACastInTheSourceIsScheduledAsInout() {
        String poke = """
                __global__ void poke(const float* x, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        ((float*) x)[i] = 1.0f;
                    }
                }""";
        try (Context c = context("with-const")) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", N);
            fill(x);
            Value k = cu.getMember("buildkernel").execute(poke, "poke", "const pointer, sint32");
            k.execute(4, 128).execute(x, N);
            cu.getMember("cudaDeviceSynchronize").execute();
            for (int i = 0; i < N; i++) {
                assertEquals(1f, x.getArrayElement(i).asFloat(), "x[" + i + "]");
            }
        }
    }

    @Test
    void underNoConstNothingIsReadOnly() {
        try (Context c = context("no-const")) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", N);
            Value y = cu.getMember("DeviceArray").execute("float", N);
            float[] in = fill(x);
            cu.getMember("buildkernel").execute(SCALE, "scale(x: in pointer float, y: out pointer float, n: sint32)")
                    .execute(4, 128).execute(x, y, N);
            assertComputed(in, x, y);
        }
    }

    @Test
    void anArrayPassedForAnInAndAnInoutParameterMayBeWritten() {
        // scale(x, x): y is x too, so the element writes x and neither pointer is passed read-only. Each thread
        // reads x[i], then writes 3x[i] and 7 to it: 7 is what stays.
        try (Context c = context("with-const")) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", N);
            fill(x);
            cu.getMember("buildkernel").execute(SCALE, "scale(x: in pointer float, y: inout pointer float, n: sint32)")
                    .execute(4, 128).execute(x, x, N);
            for (int i = 0; i < N; i++) {
                assertEquals(7f, x.getArrayElement(i).asFloat(), "x[" + i + "]");
            }
        }
    }

    @Test
    void aKernelThatOnlyReadsItsInParameterIsUnaffected() {
        String twice = """
                __global__ void twice(const float* x, float* y, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) y[i] = 2.0f * x[i];
                }""";
        try (Context c = context("with-const")) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", N);
            Value y = cu.getMember("DeviceArray").execute("float", N);
            Value z = cu.getMember("DeviceArray").execute("float", N);
            float[] in = fill(x);
            Value k = cu.getMember("buildkernel").execute(twice,
                    "twice(x: in pointer float, y: out pointer float, n: sint32)");
            // Two readers of x, which the scheduler may run at the same time.
            k.execute(4, 128).execute(x, y, N);
            k.execute(4, 128).execute(x, z, N);
            for (int i = 0; i < N; i++) {
                assertEquals(2f * in[i], y.getArrayElement(i).asFloat(), "y[" + i + "] (seed " + SEED + ")");
                assertEquals(2f * in[i], z.getArrayElement(i).asFloat(), "z[" + i + "] (seed " + SEED + ")");
                assertEquals(in[i], x.getArrayElement(i).asFloat(), "x[" + i + "]");
            }
        }
    }
}
