package dev.polygpu.grcuda.kernel;

import dev.polygpu.grcuda.SharedEngine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.ElementType;
import java.util.Random;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** buildkernel and launches from Java through the polyglot API: every launch form and every error message. */
class GrKernelTest {
    static final String SQUARE = """
            extern "C" __global__ void square(const float* x, float* y, int n) {
                int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
                int threads = blockDim.x * blockDim.y * blockDim.z;
                int i = block * threads + (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
                int stride = threads * gridDim.x * gridDim.y * gridDim.z;
                for (; i < n; i += stride) {
                    y[i] = x[i] * x[i];
                }
            }
            """;
    static final String SIG = "square(x: in pointer float, y: out pointer float, n: sint32)";
    static final long SEED = 20240611L;
    static final int N = 1000;

    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();
    private Context c;
    private Value cu;

    @BeforeEach
    void open() {
        c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true).build();
        cu = c.eval("grcuda", "CU");
    }

    @AfterEach
    void close() {
        c.close();
    }

    private Value build(String source, String signature) {
        return cu.getMember("buildkernel").execute(source, signature);
    }

    /** The message of a guest error, or of the IllegalArgumentException that interop type errors become in Java. */
    private String error(Runnable r) {
        return assertThrows(RuntimeException.class, r::run).getMessage();
    }

    private TestMemory randomFloats(int n) {
        TestMemory m = TestMemory.allocate(c, ElementType.FLOAT, n);
        Random r = new Random(SEED);
        for (int i = 0; i < n; i++) {
            m.host().setFloat(i, r.nextFloat() * 10 - 5);
        }
        return m;
    }

    private void assertSquares(TestMemory x, TestMemory y) {
        for (int i = 0; i < N; i++) {
            float v = x.host().getFloat(i);
            assertEquals(v * v, y.host().getFloat(i), "element " + i + " (seed " + SEED + ")");
        }
    }

    @Test
    void everyLaunchConfigurationFormRunsTheKernel() {
        Value k = build(SQUARE, SIG);
        Value stream = cu.getMember("cudaStreamCreate").execute();
        Object[][] configs = {
            {4, 128}, {new int[] {2, 2}, new int[] {16, 4}}, {new int[] {2, 1, 2}, new int[] {8, 2, 2}},
            {3, 64, 256}, {5, 32, 0, stream}, {Value.asValue(new int[] {7}), 100},
        };
        for (Object[] config : configs) {
            TestMemory x = randomFloats(N);
            TestMemory y = TestMemory.allocate(c, ElementType.FLOAT, N);
            Value result = k.execute(config).execute(x, y, N);
            assertTrue(result.isNull());
            assertSquares(x, y);
        }
        assertEquals(configs.length, k.getMember("launchCount").asLong());
        assertEquals("square", k.getMember("name").asString());
        Value ptx = k.getMember("ptx");
        assertTrue(ptx.isNull() || ptx.asString().contains(".entry"), "kernel.ptx is nvcc's PTX or null: " + ptx);
        assertEquals("kernel " + SIG, k.toString());
    }

    @Test
    void legacySignaturesAndTemplates() {
        Value k = cu.getMember("buildkernel").execute(SQUARE, "square", "const pointer, pointer, sint32");
        assertEquals("kernel square(x: in pointer, y: inout pointer, n: sint32)", k.toString());
        TestMemory x = randomFloats(N);
        TestMemory y = TestMemory.allocate(c, ElementType.FLOAT, N);
        k.execute(8, 32).execute(x, y, N);
        assertSquares(x, y);

        String template = """
                template <typename T> __global__ void scale(T* x, T a, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) x[i] = x[i] * a;
                }
                """;
        Value t = build(template, "scale<double>(x: inout pointer double, a: double, n: sint32)");
        TestMemory d = TestMemory.allocate(c, ElementType.DOUBLE, 10);
        for (int i = 0; i < 10; i++) {
            d.host().setDouble(i, i + 0.5);
        }
        t.execute(1, 10).execute(d, 3, 10);
        for (int i = 0; i < 10; i++) {
            assertEquals((i + 0.5) * 3, d.host().getDouble(i));
        }
        assertEquals("scale<double>", t.getMember("name").asString());
    }

    @Test
    void buildErrorsNameTheProblem() {
        assertEquals("signature error at column 10: expected ':' after parameter name 'x' in"
                + " \"square(x inout pointer float)\"", error(() -> build(SQUARE, "square(x inout pointer float)")));
        String compile = error(() -> build("__global__ void square(float* x) {\n  x[0] = y;\n}\n",
                "square(x: inout pointer float)"));
        assertTrue(compile.startsWith("kernel source does not compile:\nsquare.cu:2:"), compile);
        String missing = error(() -> build(SQUARE, "sqr(x: in pointer float, y: out pointer float, n: sint32)"));
        assertEquals("no kernel named 'sqr' in sqr.cu; its kernels are: square [CUDA_ERROR_NOT_FOUND]", missing);
        assertEquals("buildkernel: the signature of kernel 'square' has 2 parameters, but the kernel declares 3:"
                + " [float* x, float* y, int n]", error(() -> build(SQUARE, "square(x: in pointer float, n: sint32)")));
        assertEquals("buildkernel: parameter 2 ('y') of kernel 'square' is a scalar float in the signature, but"
                + " the kernel declares 'float* y'",
                error(() -> build(SQUARE, "square(x: in pointer float, y: float, n: sint32)")));
        assertEquals("buildkernel: parameter 3 ('n') of kernel 'square' is a pointer in the signature, but the"
                + " kernel declares 'int n'",
                error(() -> build(SQUARE, "square(x: in pointer float, y: out pointer float, n: in pointer sint32)")));
        assertEquals("buildkernel: parameter 3 ('n') of kernel 'square' is double in the signature, but the"
                + " kernel declares 'int n'",
                error(() -> build(SQUARE, "square(x: in pointer float, y: out pointer float, n: double)")));
    }

    @Test
    void launchErrorsNameTheArgument() {
        Value k = build(SQUARE, SIG);
        TestMemory x = randomFloats(N);
        Value launch = k.execute(1, 32);
        String notArray = error(() -> launch.execute(42, x, N));
        assertTrue(notArray.contains("argument 1 ('x') of kernel 'square' is the address 0x2a, which is not inside"
                + " any live allocation of this context"), notArray);
        String notPointer = error(() -> launch.execute(true, x, N));
        assertTrue(notPointer.contains("argument 1 ('x') of kernel 'square' must be a device array, a GPUPointer"
                + " from cudaMalloc or an address inside one, got true"), notPointer);
        String fraction = error(() -> launch.execute(x, x, 2.5));
        assertTrue(fraction.contains("argument 3 ('n') of kernel 'square' (sint32) must be an integer, got 2.5"),
                fraction);
        String range = error(() -> launch.execute(x, x, 1L << 40));
        assertTrue(range.contains("argument 3 ('n') of kernel 'square' (sint32) must be between -2147483648 and"
                + " 2147483647, got 1099511627776"), range);
        String arity = error(() -> launch.execute(x, x));
        assertTrue(arity.contains("Expected 3 argument(s) but got 2"), arity);
        assertEquals(0, k.getMember("launchCount").asLong());

        Value u8 = build("__global__ void f(unsigned char* p, unsigned char v) { p[0] = v; }",
                "f(p: out pointer uint8, v: uint8)");
        TestMemory b = TestMemory.allocate(c, ElementType.UINT8, 1);
        String uint8 = error(() -> u8.execute(1, 1).execute(b, 300));
        assertTrue(uint8.contains("argument 2 ('v') of kernel 'f' (uint8) must be between 0 and 255, got 300"),
                uint8);
        u8.execute(1, 1).execute(b, 255);
        assertEquals((byte) 255, b.host().getByte(0));

        String grid = error(() -> k.execute("big", 1));
        assertTrue(grid.contains("kernel 'square': grid must be an int or a sequence of 1 to 3 ints, got \"big\""),
                grid);
        assertTrue(error(() -> k.execute(new int[] {1, 2, 3, 4}, 1)).contains("grid must be an int or a sequence"));
        assertTrue(error(() -> k.execute(0, 1)).contains("kernel 'square': grid extents must be positive, got 0"));
        String configArity = error(() -> k.execute(1));
        assertTrue(configArity.contains("Expected 2-4 argument(s) but got 1"), configArity);
        String stream = error(() -> k.execute(1, 1, 0, 7));
        assertTrue(stream.contains("kernel 'square': argument 4 must be a stream from cudaStreamCreate(), got 7"),
                stream);
        String threads = error(() -> k.execute(1, 100000).execute(x, x, N));
        assertTrue(threads.contains("block (100000, 1, 1) has 100000 threads"), threads);
    }

    @Test
    void aKernelFaultIsAGuestErrorWithTheFaultMessage() {
        Value k = build("__global__ void oob(float* x, int i) { x[i] = 1.0f; }", "oob(x: out pointer float, i: sint32)");
        TestMemory x = TestMemory.allocate(c, ElementType.FLOAT, 10);
        k.execute(1, 1).execute(x, 1000);   // asynchronous: the fault surfaces where the host waits for it
        PolyglotException e = assertThrows(PolyglotException.class,
                () -> cu.getMember("cudaDeviceSynchronize").execute());
        assertTrue(e.isGuestException(), e.getMessage());
        assertTrue(e.getMessage().contains("oob") && e.getMessage().contains("CUDA_ERROR_ILLEGAL_ADDRESS"),
                e.getMessage());
        k.execute(1, 1).execute(x, 3);
        assertEquals(1.0f, x.host().getFloat(3));
    }
}
