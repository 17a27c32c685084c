package dev.polygpu.grcuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Device arrays and kernels together from Java, as an embedding program uses them. */
class GrEndToEndTest {
    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();

    private static final String SQUARE = """
            __global__ void square(float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i] * x[i];
            }""";

    @Test
    void buildAndLaunchOnDeviceArrays() {
        try (Context c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true).build()) {
            Value cu = c.eval("grcuda", "CU");
            int n = 1000;
            Value x = cu.getMember("DeviceArray").execute("float", n);
            Value y = c.eval("grcuda", "float[1000]");
            for (int i = 0; i < n; i++) {
                x.setArrayElement(i, i * 0.5f);
            }
            Value k = cu.getMember("buildkernel").execute(SQUARE, "square(x: in pointer float, y: out pointer float, n: sint32)");
            k.execute(8, 128).execute(x, y, n);
            for (int i = 0; i < n; i++) {
                assertEquals(i * 0.5f * (i * 0.5f), y.getArrayElement(i).asFloat(), "element " + i);
            }
            assertEquals(1, k.getMember("launchCount").asInt());
            assertEquals("DeviceArray", x.getMetaObject().getMetaSimpleName());
            assertEquals("Kernel", k.getMetaObject().getMetaSimpleName());
            assertEquals("Function", cu.getMember("buildkernel").getMetaObject().getMetaSimpleName());
            assertTrue(k.getMetaObject().isMetaInstance(k));
            // legacy signature and dim3 config forms
            Value k2 = cu.getMember("buildkernel").execute(SQUARE, "square", "const pointer, pointer, sint32");
            k2.execute(new int[] {8, 1}, new int[] {128, 1, 1}).execute(y, x, n);
            assertEquals(Math.pow(3 * 0.5f, 4), x.getArrayElement(3).asFloat(), 1e-4);
        }
    }

    @Test
    void aKernelFaultIsAGuestErrorAndTheContextKeepsWorking() {
        try (Context c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true).build()) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", 10);
            Value y = cu.getMember("DeviceArray").execute("float", 10);
            Value k = cu.getMember("buildkernel").execute(SQUARE, "square(x: in pointer float, y: out pointer float, n: sint32)");
            k.execute(1, 32).execute(x, y, 32);   // asynchronous: the launch returns at once
            // The fault surfaces at the first host access that needs the kernel's result.
            PolyglotException e = assertThrows(PolyglotException.class, () -> y.getArrayElement(0));
            assertTrue(e.getMessage().contains("kernel 'square'") && e.getMessage().contains("out-of-bounds read")
                    && e.getMessage().contains("argument 'x'"), e.getMessage());
            k.execute(1, 32).execute(x, y, 10);
            assertEquals(0f, y.getArrayElement(9).asFloat());
        }
    }
}
