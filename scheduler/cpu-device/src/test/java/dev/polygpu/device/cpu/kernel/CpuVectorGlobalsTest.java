package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.longs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readDoubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.ast.GlobalVariable;
import dev.polygpu.device.cpu.kernel.exec.ModuleMemory;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import java.util.Random;
import java.util.stream.Stream.Builder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code __constant__} and {@code __device__} variables of CUDA's vector types on the CPU device: initializers
 * (braced, nested, partial, unsized, braces elided), the layout of each element at its type's size and alignment,
 * component and whole-vector access, atomics on components, and writes to {@code __constant__} ones refused at
 * compile time. Expected values are computed in Java.
 */
@Timeout(60)
class CpuVectorGlobalsTest {
    private static final long SEED = 0x7EC61L;
    private static Device dev;

    @BeforeAll
    static void open() {
        // Several workers, so that blocks really run at once and the atomics race.
        dev = new CpuDevice(4);
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    // ---- a __constant__ float4 table --------------------------------------------------------------------------

    static final String POLY = """
            #define TERMS 4
            __constant__ float4 coeffs[TERMS] = {{1.5f, -2.0f, 0.25f, 3.0f}, {0.5f, 1.0f}, {},
                                                 {-1.0f, 2.0f, -3.0f, 4.0f}};
            __constant__ float4 bias = {0.125f, 0.25f, 0.5f, 1.0f};

            __global__ void poly(const float* x, float* out, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                float4 c = coeffs[i % TERMS];
                float v = x[i];
                out[i] = c.x + v * (c.y + v * (c.z + v * c.w)) + bias.y * coeffs[(i + 1) % TERMS].w;
            }
            """;

    @Test
    void aConstantFloat4TableEvaluatesPolynomials() {
        int n = 1000;
        Random r = new Random(SEED);
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = r.nextFloat() * 4 - 2;
        }
        float[][] c = {{1.5f, -2.0f, 0.25f, 3.0f}, {0.5f, 1.0f, 0, 0}, {0, 0, 0, 0}, {-1.0f, 2.0f, -3.0f, 4.0f}};
        UnifiedBuffer out = dev.allocate(4L * n);
        run(dev, dev.compile(POLY, "poly.cu").function("poly"), (n + 127) / 128, 128,
                KernelArgs.builder().pointer(floats(dev, x)).pointer(out).i32(n).build());
        float[] got = readFloats(out, n);
        for (int i = 0; i < n; i++) {
            float[] k = c[i % 4];
            float v = x[i];
            float expected = k[0] + v * (k[1] + v * (k[2] + v * k[3])) + 0.25f * c[(i + 1) % 4][3];
            assertEquals(expected, got[i], 0.0f, "element " + i + " (seed " + SEED + ")");
        }
    }

    // ---- initializers and layout, read back through scalar pointers ---------------------------------------------

    static final String LAYOUT = """
            __constant__ float2 tw[2][3] = {{{1, 0}, {0.5f, -0.5f}}, {{-1, 2}, {3}, {4, 5}}};
            __constant__ float2 elided[3] = {1, 2, 3, 4, 5};
            __constant__ float2 halfElided[2][2] = {{1, 2, 3, 4}, {5}};
            __constant__ int2 pairs[] = {{1, 2}, {3, 4}, {5}};
            __constant__ uchar4 bytes4 = {200, 1, 255};
            __constant__ char3 signed3 = {-1, 2, -128};
            __constant__ longlong2 wide = {-5000000000LL, 7};
            __constant__ double2 d2 = {0.1, -3};
            __constant__ short4 fromDoubles = {1.9, -2.9, 3, 40000};

            __global__ void read(float* f, long long* i, double* d) {
                const float* twf = (const float*) tw;
                for (int k = 0; k < 12; k++) f[k] = twf[k];
                for (int k = 0; k < 6; k++) f[12 + k] = ((const float*) elided)[k];
                for (int k = 0; k < 8; k++) f[18 + k] = ((const float*) halfElided)[k];
                int n = 0;
                i[n++] = sizeof(pairs) / sizeof(pairs[0]);
                for (int k = 0; k < 3; k++) { i[n++] = pairs[k].x; i[n++] = pairs[k].y; }
                i[n++] = bytes4.x; i[n++] = bytes4.y; i[n++] = bytes4.z; i[n++] = bytes4.w;
                i[n++] = signed3.x; i[n++] = signed3.y; i[n++] = signed3.z;
                i[n++] = wide.x; i[n++] = wide.y;
                const short* s = (const short*) &fromDoubles;
                for (int k = 0; k < 4; k++) i[n++] = s[k];
                i[n++] = sizeof(tw); i[n++] = sizeof(bytes4); i[n++] = sizeof(signed3);
                double2 v = d2;
                d[0] = v.x; d[1] = v.y;
            }
            """;

    @Test
    void initializersAreLaidOutElementByElement() {
        UnifiedBuffer f = floats(dev, new float[26]);
        UnifiedBuffer i = longs(dev, new long[26]);
        UnifiedBuffer d = doubles(dev, new double[2]);
        run(dev, dev.compile(LAYOUT, "layout.cu").function("read"), 1, 1,
                KernelArgs.builder().pointer(f).pointer(i).pointer(d).build());
        float[] expectedFloats = {
            1, 0, 0.5f, -0.5f, 0, 0, // tw[0]: the third element zero
            -1, 2, 3, 0, 4, 5, // tw[1]: {3} leaves .y zero
            1, 2, 3, 4, 5, 0, // elided: the last vector's .y zero
            1, 2, 3, 4, // halfElided[0]: both vectors from one flat list
            5, 0, 0, 0}; // halfElided[1]
        assertArrayEquals(expectedFloats, readFloats(f, 26));
        long[] expectedInts = {3, 1, 2, 3, 4, 5, 0,
            200, 1, 255, 0,
            -1, 2, -128,
            -5_000_000_000L, 7,
            1, -2, 3, (short) 40000,
            2 * 3 * 8, 4, 3, 0, 0, 0};
        assertArrayEquals(expectedInts, readLongs(i, 26));
        assertArrayEquals(new double[] {0.1, -3.0}, readDoubles(d, 2));
    }

    // ---- a __device__ float2 array accumulated by atomics on components ---------------------------------------

    static final String ACCUMULATE = """
            #define BINS 8
            __device__ float2 acc[BINS];

            __global__ void accumulate(const float* x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                atomicAdd(&acc[i % BINS].x, 1.0f);
                atomicAdd(&acc[i % BINS].y, x[i]);
            }

            __global__ void read(float* out) {
                int b = threadIdx.x;
                float2 v = acc[b];
                out[2 * b] = v.x;
                out[2 * b + 1] = v.y;
            }
            """;

    @Test
    void atomicsOnComponentsAccumulateAcrossBlocksAndLaunches() {
        int n = 5000;
        Random r = new Random(SEED);
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = r.nextInt(9) * 0.5f; // halves: every partial sum is exact, whatever the order
        }
        float[] expected = new float[16];
        for (int launch = 0; launch < 2; launch++) {
            for (int i = 0; i < n; i++) {
                expected[2 * (i % 8)] += 1.0f;
                expected[2 * (i % 8) + 1] += x[i];
            }
        }
        Module m = dev.compile(ACCUMULATE, "accumulate.cu");
        UnifiedBuffer xs = floats(dev, x);
        for (int launch = 0; launch < 2; launch++) {
            run(dev, m.function("accumulate"), (n + 255) / 256, 256, KernelArgs.builder().pointer(xs).i32(n).build());
        }
        UnifiedBuffer out = floats(dev, new float[16]);
        run(dev, m.function("read"), 1, 8, KernelArgs.builder().pointer(out).build());
        assertArrayEquals(expected, readFloats(out, 16), "seed " + SEED);
    }

    static final String UPDATE = """
            __device__ float2 state[4];

            __device__ void scale(float2* p, float s) {
                p->x *= s;
                p->y = p->y * s;
            }

            __global__ void reset() {
                state[threadIdx.x] = make_float2(threadIdx.x + 1, -1.0f);
            }

            __global__ void update() {
                int i = threadIdx.x;
                state[i].x += 1;
                state[i].y -= i;
                scale(&state[i], 2.0f);
            }

            __global__ void read(float* out) {
                const float* all = (const float*) state;
                for (int k = 0; k < 8; k++) out[k] = all[k];
            }
            """;

    @Test
    void componentsAndWholeElementsAreWrittenInPlace() {
        Module m = dev.compile(UPDATE, "update.cu");
        run(dev, m.function("reset"), 1, 4, KernelArgs.builder().build());
        run(dev, m.function("update"), 1, 4, KernelArgs.builder().build());
        run(dev, m.function("update"), 1, 4, KernelArgs.builder().build());
        float[] expected = new float[8];
        for (int i = 0; i < 4; i++) {
            float sx = i + 1;
            float sy = -1.0f;
            for (int u = 0; u < 2; u++) {
                sx = (sx + 1) * 2.0f;
                sy = (sy - i) * 2.0f;
            }
            expected[2 * i] = sx;
            expected[2 * i + 1] = sy;
        }
        UnifiedBuffer out = floats(dev, new float[8]);
        run(dev, m.function("read"), 1, 1, KernelArgs.builder().pointer(out).build());
        assertArrayEquals(expected, readFloats(out, 8));
    }

    static final String BLOCK_SUMS = """
            __constant__ float2 weight = {2.0f, -0.5f};
            __device__ float2 total;

            __global__ void blockSums(const float* x, int n) {
                __shared__ float2 partial[128];
                int t = threadIdx.x;
                int i = blockIdx.x * blockDim.x + t;
                float v = i < n ? x[i] : 0.0f;
                partial[t] = make_float2(v * weight.x, v * weight.y);
                __syncthreads();
                for (int s = blockDim.x / 2; s > 0; s >>= 1) {
                    if (t < s) {
                        partial[t].x += partial[t + s].x;
                        partial[t].y += partial[t + s].y;
                    }
                    __syncthreads();
                }
                if (t == 0) {
                    float2 p = partial[0];
                    atomicAdd(&total.x, p.x);
                    atomicAdd(&total.y, p.y);
                }
            }

            __global__ void read(float* out) {
                out[0] = total.x;
                out[1] = total.y;
            }
            """;

    @Test
    void aKernelWithBarriersReadsAndAccumulatesVectorVariables() {
        int n = 1000;
        Random r = new Random(SEED + 1);
        float[] x = new float[n];
        float sum = 0;
        for (int i = 0; i < n; i++) {
            x[i] = r.nextInt(17) - 8; // integers: the sums are exact in any order
            sum += x[i];
        }
        Module m = dev.compile(BLOCK_SUMS, "blocksums.cu");
        run(dev, m.function("blockSums"), (n + 127) / 128, 128, KernelArgs.builder().pointer(floats(dev, x)).i32(n)
                .build());
        UnifiedBuffer out = floats(dev, new float[2]);
        run(dev, m.function("read"), 1, 1, KernelArgs.builder().pointer(out).build());
        assertArrayEquals(new float[] {2.0f * sum, -0.5f * sum}, readFloats(out, 2), "seed " + (SEED + 1));
    }

    // ---- float3: 12-byte stride; double2: 16-byte alignment --------------------------------------------------

    static final String FLOAT3 = """
            __device__ float3 pts[5];

            __global__ void fill() {
                int i = threadIdx.x;
                pts[i] = make_float3(i, 10.0f * i, 100.0f * i);
            }

            __global__ void read(float* out, int* sizes) {
                const float* f = (const float*) pts;
                for (int k = 0; k < 15; k++) out[k] = f[k];
                sizes[0] = sizeof(pts);
                sizes[1] = (int) ((const char*) &pts[3] - (const char*) &pts[0]);
                sizes[2] = (int) ((const char*) &pts[2].z - (const char*) pts);
            }
            """;

    @Test
    void float3ElementsAreTwelveBytesApart() {
        Module m = dev.compile(FLOAT3, "float3.cu");
        run(dev, m.function("fill"), 1, 5, KernelArgs.builder().build());
        UnifiedBuffer out = floats(dev, new float[15]);
        UnifiedBuffer sizes = ints(dev, new int[3]);
        run(dev, m.function("read"), 1, 1, KernelArgs.builder().pointer(out).pointer(sizes).build());
        float[] expected = new float[15];
        for (int k = 0; k < 15; k++) {
            int element = k / 3;
            expected[k] = element * (k % 3 == 0 ? 1.0f : k % 3 == 1 ? 10.0f : 100.0f);
        }
        assertArrayEquals(expected, readFloats(out, 15));
        assertArrayEquals(new int[] {60, 36, 2 * 12 + 8}, readInts(sizes, 3));
    }

    static final String ALIGNED = """
            __device__ int before = 5;
            __device__ char odd[3];
            __device__ double2 pairs[3];
            __constant__ double2 scale = {1.5, -2.5};

            __global__ void fill() {
                int i = threadIdx.x;
                pairs[i] = make_double2(scale.x * i + before, scale.y * i);
            }

            __global__ void read(double* out) {
                int i = threadIdx.x;
                double2 v = pairs[i];
                out[2 * i] = v.x;
                out[2 * i + 1] = v.y;
            }

            __global__ void misaligned(double* out) {
                double2 v = ((const double2*) ((const double*) pairs + 1))[0];
                out[0] = v.x;
            }
            """;

    @Test
    void double2ElementsAreSixteenByteAlignedAfterSmallerVariables() {
        for (GlobalVariable g : FrontEnd.compile(ALIGNED, "aligned.cu").globals()) {
            ModuleMemory memory = ModuleMemory.allocate(java.util.List.of(g), "aligned.cu");
            try {
                assertEquals(0, memory.segment(0).address() % 16, g.describe() + " starts 16-byte aligned");
            } finally {
                memory.release();
            }
        }
        ModuleMemory all = ModuleMemory.allocate(FrontEnd.compile(ALIGNED, "aligned.cu").globals(), "aligned.cu");
        try {
            for (int slot = 0; slot < all.variables().size(); slot++) {
                assertEquals(0, all.segment(slot).address() % 16, all.variables().get(slot).describe()
                        + " is 16-byte aligned after the variables declared before it");
            }
        } finally {
            all.release();
        }

        Module m = dev.compile(ALIGNED, "aligned.cu");
        run(dev, m.function("fill"), 1, 3, KernelArgs.builder().build());
        UnifiedBuffer out = doubles(dev, new double[6]);
        run(dev, m.function("read"), 1, 3, KernelArgs.builder().pointer(out).build());
        double[] expected = new double[6];
        for (int i = 0; i < 3; i++) {
            expected[2 * i] = 1.5 * i + 5;
            expected[2 * i + 1] = -2.5 * i;
        }
        assertArrayEquals(expected, readDoubles(out, 6));

        Stream s = dev.defaultStream();
        s.launch(m.function("misaligned"), new LaunchConfig(Dim3.of(1), Dim3.of(1), 0),
                KernelArgs.builder().pointer(out).build());
        KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
        assertEquals(CudaError.MISALIGNED_ADDRESS, e.error());
        assertTrue(e.getMessage().contains("misaligned read of double2 (16 bytes, which need 16-byte alignment) at"
                + " byte 8 of __device__ array 'pairs'"), e.getMessage());
    }

    // ---- brace elision in a local array: the same rules as for module variables ---------------------------------

    @Test
    void localArraysElideBracesToo() {
        String src = """
                __global__ void k(float* out) {
                    float2 v[3] = {1, 2, 3, 4, 5};
                    int2 w[2][2] = {{6, 7, 8}, {{9, 10}}};
                    for (int i = 0; i < 3; i++) { out[2 * i] = v[i].x; out[2 * i + 1] = v[i].y; }
                    for (int i = 0; i < 2; i++)
                        for (int j = 0; j < 2; j++) {
                            out[6 + 4 * i + 2 * j] = w[i][j].x;
                            out[7 + 4 * i + 2 * j] = w[i][j].y;
                        }
                }
                """;
        UnifiedBuffer out = floats(dev, new float[14]);
        run(dev, dev.compile(src, "local.cu").function("k"), 1, 1, KernelArgs.builder().pointer(out).build());
        assertArrayEquals(new float[] {1, 2, 3, 4, 5, 0, 6, 7, 8, 0, 9, 10, 0, 0}, readFloats(out, 14));
    }

    // ---- compile errors ---------------------------------------------------------------------------------------

    static java.util.stream.Stream<Arguments> errors() {
        String c = "__constant__ float4 c = {1, 2, 3, 4};\n__constant__ float2 tw[4] = {{1, 0}, {0, 1}};\n";
        String k = "__global__ void k(float* x, int i) {\n";
        String constWrite = ": constant memory is read-only in kernel code; declare it __device__ if kernels change it";
        String notConstant = " is not a constant expression; module variables are initialized when the module is"
                + " compiled, from literals, enumerators, #defines and file-scope constants: compute other values in"
                + " a kernel (into a __device__ variable)";
        Builder<Arguments> b = java.util.stream.Stream.builder();
        b.add(Arguments.of(c + k + "  c.x = 1.0f;\n}", 4, 4,
                "cannot assign to __constant__ variable 'c'" + constWrite));
        b.add(Arguments.of(c + k + "  c = make_float4(0, 0, 0, 0);\n}", 4, 3,
                "cannot assign to __constant__ variable 'c'" + constWrite));
        b.add(Arguments.of(c + k + "  c.w++;\n}", 4, 4, "cannot increment __constant__ variable 'c'" + constWrite));
        b.add(Arguments.of(c + k + "  tw[i].y += x[0];\n}", 4, 8, "cannot assign to __constant__ array 'tw'"
                + constWrite));
        b.add(Arguments.of(c + k + "  tw[i] = make_float2(x[0], x[1]);\n}", 4, 5,
                "cannot assign to __constant__ array 'tw'" + constWrite));
        b.add(Arguments.of(c + k + "  atomicAdd(&tw[1].x, 1.0f);\n}", 4, 13,
                "cannot apply atomicAdd to __constant__ array 'tw'" + constWrite));
        b.add(Arguments.of(c + k + "  atomicAdd(&c.z, 1.0f);\n}", 4, 13,
                "cannot apply atomicAdd to __constant__ variable 'c'" + constWrite));
        b.add(Arguments.of("__device__ const int2 limit = {1, 2};\n" + k + "  limit.y = i;\n}", 3, 8,
                "cannot assign to __device__ variable 'limit': it is declared const"));
        b.add(Arguments.of("__constant__ float2 t[2] = {{1, 2}, {3, 4}, {5, 6}};\n", 1, 28,
                "excess elements in array initializer"));
        b.add(Arguments.of("__constant__ float2 t[2] = {1, 2, 3, 4, 5};\n", 1, 28,
                "excess elements in array initializer"));
        b.add(Arguments.of("__constant__ float4 v = {1, 2, 3, 4, 5};\n", 1, 25,
                "excess elements in initializer of 'float4' (it has 4 components)"));
        b.add(Arguments.of("__device__ int2 t[2] = {{1, 2, 3}};\n", 1, 25,
                "excess elements in initializer of 'int2' (it has 2 components)"));
        b.add(Arguments.of("__constant__ float4 v = make_float4(1, 2, 3, 4);\n", 1, 25,
                "initializer of __constant__ variable 'v'" + notConstant));
        b.add(Arguments.of("__device__ float2 a[2] = {{1, 2}, make_float2(3, 4)};\n", 1, 35,
                "initializer of __device__ variable 'a'" + notConstant));
        b.add(Arguments.of("__constant__ float2 w = {1.0f, sinf(1.0f)};\n", 1, 32,
                "initializer of __constant__ variable 'w'" + notConstant));
        b.add(Arguments.of("__constant__ float2 u = {1, 2};\n__constant__ float2 w = u;\n", 2, 25,
                "initializer of __constant__ variable 'w'" + notConstant));
        b.add(Arguments.of("__constant__ float2 w[2] = {1, {2, 3}};\n", 1, 32,
                "a component of 'float2' must be initialized by a single expression"));
        return b.build();
    }

    @ParameterizedTest(name = "{3}")
    @MethodSource("errors")
    void compileErrorsNameLineAndColumn(String source, int line, int column, String message) {
        CompileException e = assertThrows(CompileException.class, () -> KernelEngine.compile(source, "v.cu"));
        CompileException.Diagnostic d = e.diagnostics().getFirst();
        assertEquals(message, d.message());
        assertEquals(line, d.line(), "line of: " + d);
        assertEquals(column, d.column(), "column of: " + d);
    }
}
