package dev.polygpu.grcuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A kernel's printf output and failed assertions reach the stream an embedder gives
 * {@code Context.Builder.out(...)} (the CPU device writes to the context's output, not to {@code System.out}).
 */
class GrKernelPrintfTest {
    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();

    private static final String SRC = """
            __global__ void scale(float *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    assert(x[i] >= 0.0f);
                    x[i] *= 2.0f;
                    if (i % 4 == 0) printf("x[%d] = %.1f\\n", i, x[i]);
                }
            }""";

    @Test
    void printfReachesTheContextsOutput() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Context c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true).out(out).build()) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", 8);
            for (int i = 0; i < 8; i++) {
                x.setArrayElement(i, i + 0.25f);
            }
            Value k = cu.getMember("buildkernel").execute(SRC, "scale(x: inout pointer float, n: sint32)");
            k.execute(1, 8).execute(x, 8);
            // Reading x waits for the kernel, whose output was written before it counted as complete.
            assertEquals(0.5f, x.getArrayElement(0).asFloat());
            assertEquals("x[0] = 0.5\nx[4] = 8.5\n", out.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aFailedAssertIsAGuestErrorAndItsMessageIsInTheOutput() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Context c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true).out(out).build()) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", 8);
            x.setArrayElement(5, -1f);
            Value k = cu.getMember("buildkernel").execute(SRC, "scale(x: inout pointer float, n: sint32)");
            k.execute(1, 8).execute(x, 8);
            PolyglotException e = assertThrows(PolyglotException.class, () -> x.getArrayElement(0));
            assertTrue(e.getMessage().contains("device-side assert triggered: Assertion `x[i] >= 0.0f` failed"),
                    e.getMessage());
            assertTrue(out.toString(StandardCharsets.UTF_8).contains(": void scale(float*, int): block: [0,0,0], "
                    + "thread: [5,0,0] Assertion `x[i] >= 0.0f` failed.\n"), out.toString(StandardCharsets.UTF_8));
        }
    }
}
