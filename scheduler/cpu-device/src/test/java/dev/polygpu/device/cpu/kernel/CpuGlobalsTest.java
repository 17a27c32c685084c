package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
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
 * File-scope {@code __constant__} and {@code __device__} variables on the CPU device: one instance per compiled
 * module, initialized from constant initializers (the rest zero), kept across launches and shared by launches on
 * any stream, with real atomics; {@code __constant__} ones are read-only in kernel code. Expected values are
 * computed in Java.
 */
@Timeout(60)
class CpuGlobalsTest {
    private static final long SEED = 0xC0257L;
    private static Device dev;

    @BeforeAll
    static void open() {
        // Several workers, so that blocks (and the launches of two streams) really run at once.
        dev = new CpuDevice(4);
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    // ---- __constant__ tables ----------------------------------------------------------------------------

    static final String CONVOLVE = """
            #define RADIUS 2
            __constant__ float weights[2 * RADIUS + 1] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
            static __constant__ const float gain = 1.5f;

            __global__ void convolve(const float* in, float* out, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                float acc = 0.0f;
                for (int k = -RADIUS; k <= RADIUS; k++) {
                    int j = min(max(i + k, 0), n - 1);
                    acc += weights[k + RADIUS] * in[j];
                }
                out[i] = acc * gain;
            }
            """;

    @Test
    void constantFilterWeights() {
        int n = 1000;
        Random r = new Random(SEED);
        float[] in = new float[n];
        for (int i = 0; i < n; i++) {
            in[i] = r.nextFloat() * 4 - 2;
        }
        float[] w = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
        UnifiedBuffer out = dev.allocate(4L * n);
        KernelFunction k = dev.compile(CONVOLVE, "convolve.cu").function("convolve");
        run(dev, k, (n + 127) / 128, 128, KernelArgs.builder().pointer(floats(dev, in)).pointer(out).i32(n).build());
        float[] got = readFloats(out, n);
        for (int i = 0; i < n; i++) {
            float acc = 0.0f;
            for (int q = -2; q <= 2; q++) {
                acc += w[q + 2] * in[Math.min(Math.max(i + q, 0), n - 1)];
            }
            assertEquals(acc * 1.5f, got[i], 0.0f, "element " + i + " (seed " + SEED + ")");
        }
    }

    static final String TYPES = """
            enum { COUNT = 2 };
            const int BIG = 1 << 20;
            __constant__ char c8[3] = {-1, 2, 'a'};
            __constant__ unsigned char u8[COUNT] = {200, 255};
            __constant__ short s16 = -300;
            __constant__ unsigned u32[COUNT] = {4000000000u, BIG + 7};
            __constant__ long long i64[2] = {-5000000000LL, 1LL << 40};
            __constant__ unsigned long long u64 = 18446744073709551615ULL;
            __constant__ double f64[2] = {0.1, -2.5e300};
            __constant__ float f32 = 1.0f / 3.0f;
            __device__ __constant__ bool flag = true;
            __constant__ int fromDouble = 7.9;

            __global__ void read(long long* ints, double* reals) {
                ints[0] = c8[0]; ints[1] = c8[1]; ints[2] = c8[2];
                ints[3] = u8[0]; ints[4] = u8[1];
                ints[5] = s16;
                ints[6] = u32[0]; ints[7] = u32[1];
                ints[8] = i64[0]; ints[9] = i64[1];
                ints[10] = (long long) u64;
                ints[11] = flag;
                ints[12] = fromDouble;
                reals[0] = f64[0]; reals[1] = f64[1]; reals[2] = f32;
            }
            """;

    @Test
    void constantScalarsAndArraysOfEachType() {
        UnifiedBuffer ints = longs(dev, new long[13]);
        UnifiedBuffer reals = doubles(dev, new double[3]);
        run(dev, dev.compile(TYPES, "types.cu").function("read"), 1, 1,
                KernelArgs.builder().pointer(ints).pointer(reals).build());
        assertArrayEquals(new long[] {-1, 2, 97, 200, 255, -300, 4_000_000_000L, (1 << 20) + 7, -5_000_000_000L,
                1L << 40, -1L, 1, 7}, readLongs(ints, 13));
        assertArrayEquals(new double[] {0.1, -2.5e300, (double) (1.0f / 3.0f)}, readDoubles(reals, 3));
    }

    static final String INIT = """
            #define ROWS 3
            enum { COLS = 4 };
            __constant__ int matrix[ROWS][COLS] = {{1, 2, 3}, {4, 5, 6, 7}, {8}};
            __constant__ int primes[] = {2, 3, 5, 7, 11, 13};
            __constant__ int grid2[][2] = {{9, 8}, {7, 6}, {5}};
            __constant__ int partial[8] = {5, 6};
            __device__ int zeros[100];
            __device__ double zeroScalar;
            __device__ int initialized = 42, alsoInitialized = -3;

            __global__ void read(int* out, double* d) {
                int k = 0;
                for (int r = 0; r < ROWS; r++)
                    for (int c = 0; c < COLS; c++)
                        out[k++] = matrix[r][c];
                out[k++] = sizeof(primes) / sizeof(primes[0]);
                for (int i = 0; i < 6; i++) out[k++] = primes[i];
                out[k++] = sizeof(grid2) / sizeof(grid2[0]);
                for (int i = 0; i < 3; i++) { out[k++] = grid2[i][0]; out[k++] = grid2[i][1]; }
                for (int i = 0; i < 8; i++) out[k++] = partial[i];
                int nonzero = 0;
                for (int i = 0; i < 100; i++) nonzero += zeros[i] != 0;
                out[k++] = nonzero;
                out[k++] = initialized;
                out[k++] = alsoInitialized;
                d[0] = zeroScalar;
            }
            """;

    @Test
    void initializersNestedPartialUnsizedAndZero() {
        int[] expected = {1, 2, 3, 0, 4, 5, 6, 7, 8, 0, 0, 0, // matrix, rows padded with zeros
                6, 2, 3, 5, 7, 11, 13, // primes[]: size from the initializer
                3, 9, 8, 7, 6, 5, 0, // grid2[][2]: three rows
                5, 6, 0, 0, 0, 0, 0, 0, // partial
                0, // no nonzero element in zeros[100]
                42, -3};
        UnifiedBuffer out = ints(dev, new int[expected.length]);
        UnifiedBuffer d = doubles(dev, new double[] {123.0});
        run(dev, dev.compile(INIT, "init.cu").function("read"), 1, 1,
                KernelArgs.builder().pointer(out).pointer(d).build());
        assertArrayEquals(expected, readInts(out, expected.length));
        assertEquals(0.0, readDoubles(d, 1)[0]);
    }

    // ---- __device__ variables: kept across launches, shared, atomics -----------------------------------

    static final String COUNTER = """
            __device__ unsigned int counter;
            __device__ unsigned long long total;

            __global__ void count(int per) {
                for (int i = 0; i < per; i++) {
                    atomicAdd(&counter, 1u);
                }
            }

            // A cooperative kernel (barriers): its module variables are reached from every resumed thread.
            __global__ void blockSum(const int* in, int n) {
                __shared__ int part[128];
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                part[threadIdx.x] = i < n ? in[i] : 0;
                __syncthreads();
                for (int s = blockDim.x / 2; s > 0; s >>= 1) {
                    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
                    __syncthreads();
                }
                if (threadIdx.x == 0) atomicAdd(&total, (unsigned long long) part[0]);
            }

            __global__ void read(unsigned int* c, unsigned long long* t) {
                *c = counter;
                *t = total;
            }
            """;

    private static long[] readCounter(Module m) {
        UnifiedBuffer c = ints(dev, new int[] {-7});
        UnifiedBuffer t = longs(dev, new long[] {-7});
        run(dev, m.function("read"), 1, 1, KernelArgs.builder().pointer(c).pointer(t).build());
        return new long[] {Integer.toUnsignedLong(readInts(c, 1)[0]), readLongs(t, 1)[0]};
    }

    @Test
    void deviceCounterKeepsCountingAcrossBlocksAndLaunches() {
        Module m = dev.compile(COUNTER, "counter.cu");
        KernelFunction count = m.function("count");
        run(dev, count, 64, 128, KernelArgs.builder().i32(3).build());
        assertEquals(64 * 128 * 3, readCounter(m)[0]);
        run(dev, count, 10, 32, KernelArgs.builder().i32(5).build());
        assertEquals(64 * 128 * 3 + 10 * 32 * 5, readCounter(m)[0], "a __device__ variable keeps its value");

        int n = 5000;
        Random r = new Random(SEED);
        int[] in = new int[n];
        long sum = 0;
        for (int i = 0; i < n; i++) {
            in[i] = r.nextInt(1000);
            sum += in[i];
        }
        KernelFunction blockSum = m.function("blockSum");
        UnifiedBuffer b = ints(dev, in);
        run(dev, blockSum, (n + 127) / 128, 128, KernelArgs.builder().pointer(b).i32(n).build());
        run(dev, blockSum, (n + 127) / 128, 128, KernelArgs.builder().pointer(b).i32(n).build());
        assertEquals(2 * sum, readCounter(m)[1], "seed " + SEED);
    }

    @Test
    void concurrentLaunchesOnTwoStreamsShareOneInstance() {
        Module m = dev.compile(COUNTER, "counter.cu");
        KernelFunction count = m.function("count");
        Stream a = dev.createStream();
        Stream b = dev.createStream();
        try {
            for (int i = 0; i < 10; i++) {
                a.launch(count, new LaunchConfig(Dim3.of(16), Dim3.of(64), 0), KernelArgs.builder().i32(50).build());
                b.launch(count, new LaunchConfig(Dim3.of(8), Dim3.of(96), 0), KernelArgs.builder().i32(40).build());
            }
            a.synchronize();
            b.synchronize();
        } finally {
            a.close();
            b.close();
        }
        assertEquals(10L * (16 * 64 * 50 + 8 * 96 * 40), readCounter(m)[0]);
    }

    @Test
    void separatelyCompiledModulesHaveSeparateInstances() {
        Module first = dev.compile(COUNTER, "counter.cu");
        Module second = dev.compile(COUNTER, "counter.cu");
        run(dev, first.function("count"), 4, 32, KernelArgs.builder().i32(3).build());
        run(dev, second.function("count"), 2, 32, KernelArgs.builder().i32(1).build());
        run(dev, first.function("count"), 1, 1, KernelArgs.builder().i32(1).build());
        assertEquals(4 * 32 * 3 + 1, readCounter(first)[0]);
        assertEquals(2 * 32, readCounter(second)[0]);
    }

    static final String HISTOGRAM = """
            #define BINS 16
            __device__ int hist[BINS];
            __device__ int seen;
            __device__ float grid[4][8];

            __device__ void bump(int* p, int v) { atomicAdd(p, v); }

            template <typename T>
            __global__ void histogram(const T* in, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    bump(&hist[(int) in[i] % BINS], 1);
                    bump(&seen, 1);
                }
            }

            __global__ void fill() {
                // every element through a pointer into the 2-D array, then doubled in place
                float* row = grid[threadIdx.y];
                row[threadIdx.x] = threadIdx.y * 10 + threadIdx.x;
                grid[threadIdx.y][threadIdx.x] *= 2;
            }

            __global__ void read(int* h, float* g) {
                for (int b = 0; b < BINS; b++) h[b] = hist[b];
                h[BINS] = seen;
                for (int y = 0; y < 4; y++)
                    for (int x = 0; x < 8; x++)
                        g[y * 8 + x] = grid[y][x];
            }
            """;

    @Test
    void addressesOfVariablesAndElementsGoToDeviceFunctionsAndTemplates() {
        int n = 3000;
        Random r = new Random(SEED + 1);
        int[] in = new int[n];
        int[] expected = new int[17];
        for (int i = 0; i < n; i++) {
            in[i] = r.nextInt(1 << 20);
            expected[in[i] % 16]++;
        }
        expected[16] = n;
        Module m = dev.compile(HISTOGRAM, "histogram.cu");
        run(dev, m.function("histogram<int>"), (n + 255) / 256, 256, KernelArgs.builder().pointer(ints(dev, in))
                .i32(n).build());
        run(dev, m.function("fill"), Dim3.of(1), Dim3.of(8, 4), 0, KernelArgs.builder().build());
        UnifiedBuffer h = ints(dev, new int[17]);
        UnifiedBuffer g = floats(dev, new float[32]);
        run(dev, m.function("read"), 1, 1, KernelArgs.builder().pointer(h).pointer(g).build());
        assertArrayEquals(expected, readInts(h, 17), "seed " + (SEED + 1));
        float[] grid = new float[32];
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 8; x++) {
                grid[y * 8 + x] = 2 * (y * 10 + x);
            }
        }
        assertArrayEquals(grid, readFloats(g, 32));
    }

    static final String WARP = """
            __device__ int votes;
            __device__ float shifted[64];

            __global__ void exchange(const float* in) {
                int t = threadIdx.x;
                votes = __syncthreads_count(in[t] > 0.0f);
                shifted[t] = __shfl_down_sync(0xffffffffu, in[t], 1);
            }

            __global__ void read(int* v, float* s) {
                *v = votes;
                for (int i = 0; i < 64; i++) s[i] = shifted[i];
            }
            """;

    @Test
    void resultsOfBarriersAndShufflesStoredIntoModuleVariables() {
        Random r = new Random(SEED + 2);
        float[] in = new float[64];
        int positive = 0;
        for (int i = 0; i < 64; i++) {
            in[i] = r.nextFloat() * 2 - 1;
            positive += in[i] > 0 ? 1 : 0;
        }
        float[] expected = new float[64];
        for (int i = 0; i < 64; i++) {
            // __shfl_down_sync: a lane whose source lane is past the warp keeps its own value
            expected[i] = i % 32 + 1 < 32 ? in[i + 1] : in[i];
        }
        Module m = dev.compile(WARP, "warp.cu");
        run(dev, m.function("exchange"), 1, 64, KernelArgs.builder().pointer(floats(dev, in)).build());
        UnifiedBuffer v = ints(dev, new int[] {-1});
        UnifiedBuffer s = floats(dev, new float[64]);
        run(dev, m.function("read"), 1, 1, KernelArgs.builder().pointer(v).pointer(s).build());
        assertEquals(positive, readInts(v, 1)[0], "seed " + (SEED + 2));
        assertArrayEquals(expected, readFloats(s, 64), "seed " + (SEED + 2));
    }

    // ---- faults -----------------------------------------------------------------------------------------

    static final String OOB = """
            __constant__ int lut[4] = {10, 20, 30, 40};
            __device__ float acc[3];

            __global__ void lookup(int* out, int n) {
                int i = threadIdx.x;
                if (i < n) out[i] = lut[i];
            }

            __global__ void store(int at) {
                acc[at] = 1.0f;
            }

            __global__ void sneaky(int v) {
                int* p = lut;
                p[1] = v;
            }
            """;

    private static KernelFaultException fault(KernelFunction k, int threads, KernelArgs args) {
        Stream s = dev.defaultStream();
        s.launch(k, new LaunchConfig(Dim3.of(1), Dim3.of(threads), 0), args);
        return assertThrows(KernelFaultException.class, s::synchronize);
    }

    @Test
    void outOfBoundsAccessesFaultNamingTheVariable() {
        Module m = dev.compile(OOB, "oob.cu");
        UnifiedBuffer out = ints(dev, new int[8]);
        KernelFaultException read = fault(m.function("lookup"), 8, KernelArgs.builder().pointer(out).i32(8).build());
        assertEquals(CudaError.ILLEGAL_ADDRESS, read.error());
        assertContains("(line 6, column ", read.getMessage());
        assertContains("out-of-bounds read of 4 bytes at index 4 of __constant__ array 'lut' (16 bytes)",
                read.getMessage());

        KernelFaultException write = fault(m.function("store"), 1, KernelArgs.builder().i32(-1).build());
        assertContains("out-of-bounds write of 4 bytes at index -1 of __device__ array 'acc' (12 bytes)",
                write.getMessage());

        // In bounds, the module works on after the faults.
        run(dev, m.function("lookup"), 1, 4, KernelArgs.builder().pointer(out).i32(4).build());
        assertArrayEquals(new int[] {10, 20, 30, 40}, readInts(out, 4));
    }

    @Test
    void aStoreThroughAPointerToConstantMemoryFaults() {
        Module m = dev.compile(OOB, "oob.cu");
        KernelFaultException e = fault(m.function("sneaky"), 1, KernelArgs.builder().i32(5).build());
        assertEquals(CudaError.NOT_PERMITTED, e.error());
        assertContains("(line 15, column ", e.getMessage());
        assertContains("wrote through a pointer to __constant__ array 'lut', which is constant memory, read-only in"
                + " kernel code", e.getMessage());
        UnifiedBuffer out = ints(dev, new int[4]);
        run(dev, m.function("lookup"), 1, 4, KernelArgs.builder().pointer(out).i32(4).build());
        assertArrayEquals(new int[] {10, 20, 30, 40}, readInts(out, 4), "the table is unchanged");
    }

    // ---- compile errors ---------------------------------------------------------------------------------

    static java.util.stream.Stream<Arguments> errors() {
        String c = "__constant__ int lut[4] = {1, 2, 3, 4};\n__constant__ float scale = 2.0f;\n";
        String k = "__global__ void k(int* x, int n) {\n";
        String constWrite = ": constant memory is read-only in kernel code; declare it __device__ if kernels change it";
        String notConstant = " is not a constant expression; module variables are initialized when the module is"
                + " compiled, from literals, enumerators, #defines and file-scope constants: compute other values in"
                + " a kernel (into a __device__ variable)";
        Builder<Arguments> b = java.util.stream.Stream.builder();
        b.add(Arguments.of(c + k + "  scale = 3.0f;\n}", 4, 3, "cannot assign to __constant__ variable 'scale'" + constWrite));
        b.add(Arguments.of(c + k + "  lut[n] = 7;\n}", 4, 6, "cannot assign to __constant__ array 'lut'" + constWrite));
        b.add(Arguments.of(c + k + "  lut[1] += n;\n}", 4, 6, "cannot assign to __constant__ array 'lut'" + constWrite));
        b.add(Arguments.of(c + k + "  scale++;\n}", 4, 3, "cannot increment __constant__ variable 'scale'" + constWrite));
        b.add(Arguments.of(c + k + "  --lut[0];\n}", 4, 8, "cannot decrement __constant__ array 'lut'" + constWrite));
        b.add(Arguments.of(c + k + "  atomicAdd(&lut[2], 1);\n}", 4, 13,
                "cannot apply atomicAdd to __constant__ array 'lut'" + constWrite));
        b.add(Arguments.of(c + k + "  atomicExch(lut + 1, n);\n}", 4, 18,
                "cannot apply atomicExch to __constant__ array 'lut'" + constWrite));
        b.add(Arguments.of("__device__ const int limit = 5;\n" + k + "  limit = n;\n}", 3, 3,
                "cannot assign to __device__ variable 'limit': it is declared const"));
        b.add(Arguments.of("__device__ float f = sinf(1.0f);\n", 1, 22, "initializer of __device__ variable 'f'"
                + notConstant));
        b.add(Arguments.of("__device__ int a = 1;\n__constant__ int t[2] = {3, a};\n", 2, 29,
                "initializer of __constant__ variable 't'" + notConstant));
        b.add(Arguments.of("__constant__ int t[2] = {1, 2, 3};\n", 1, 25, "excess elements in array initializer"));
        b.add(Arguments.of("__constant__ int m[2][2] = {{1}, {2}, {3}};\n", 1, 28, "excess elements in array initializer"));
        b.add(Arguments.of("__device__ float* p;\n", 1, 19, "__device__ variable 'p' has type 'float*', which the CPU"
                + " device's kernel engine cannot keep in module memory (pointers stored in memory are not supported);"
                + " use an arithmetic type (int, unsigned, long long, float, double, char, …), a vector type (float4, int2,"
                + " …), a struct or an array of one"));
        b.add(Arguments.of("extern __device__ int shared_elsewhere;\n", 1, 1, "extern __device__ variables (defined in"
                + " another file) are not supported by the CPU device's kernel engine, which compiles one file at a"
                + " time; define the variable in this source"));
        b.add(Arguments.of("const int N = 4;\n__device__ int N[2];\n", 2, 16, "redefinition of 'N'"));
        b.add(Arguments.of(k + "  __constant__ int local = 1;\n}", 2, 3,
                "__constant__ variables must be declared at file scope, outside functions"));
        b.add(Arguments.of(k + "  x[0] = late;\n}\n__device__ int late;\n", 2, 10, "use of undeclared identifier 'late'"));
        b.add(Arguments.of("__device__ int a[n];\n", 1, 18, "use of undeclared identifier 'n'"));
        return b.build();
    }

    @ParameterizedTest(name = "{3}")
    @MethodSource("errors")
    void compileErrorsNameLineAndColumn(String source, int line, int column, String message) {
        CompileException e = assertThrows(CompileException.class, () -> KernelEngine.compile(source, "g.cu"));
        CompileException.Diagnostic d = e.diagnostics().getFirst();
        assertEquals(message, d.message());
        assertEquals(line, d.line(), "line of: " + d);
        assertEquals(column, d.column(), "column of: " + d);
    }

    // ---- lifetime -----------------------------------------------------------------------------------------

    @Test
    void memoryIsFreedWhenReleasedAndTheLastPinGoes() {
        ModuleMemory m = ModuleMemory.allocate(FrontEnd.compile(COUNTER, "counter.cu").globals(), "counter.cu");
        assertEquals(2, m.variables().size());
        m.pin();
        m.pin();
        m.release();
        assertFalse(m.isFreed(), "a queued launch still pins it");
        m.unpin();
        assertFalse(m.isFreed());
        m.unpin();
        assertTrue(m.isFreed());
        DeviceException e = assertThrows(DeviceException.class, m::pin);
        assertEquals(CudaError.INVALID_HANDLE, e.error());
        assertContains("module 'counter.cu' was closed", e.getMessage());
        m.release();

        ModuleMemory unused = ModuleMemory.allocate(FrontEnd.compile(COUNTER, "counter.cu").globals(), "counter.cu");
        unused.release();
        assertTrue(unused.isFreed(), "nothing pinned: freed at once");
        String none = "__global__ void k(int* x) { x[0] = 1; }";
        assertEquals(ModuleMemory.EMPTY, ModuleMemory.allocate(FrontEnd.compile(none, "none.cu").globals(), "none.cu"),
                "no variables, nothing to allocate");
    }

    @Test
    void closingAModuleLetsQueuedLaunchesFinish() {
        Module m = dev.compile(COUNTER, "counter.cu");
        KernelFunction count = m.function("count");
        KernelFunction read = m.function("read");
        UnifiedBuffer c = ints(dev, new int[] {-7});
        UnifiedBuffer t = longs(dev, new long[] {-7});
        Stream s = dev.createStream();
        try {
            for (int i = 0; i < 20; i++) {
                s.launch(count, new LaunchConfig(Dim3.of(32), Dim3.of(64), 0), KernelArgs.builder().i32(20).build());
            }
            s.launch(read, new LaunchConfig(Dim3.of(1), Dim3.of(1), 0), KernelArgs.builder().pointer(c).pointer(t)
                    .build());
            m.close();
            s.synchronize();
            assertEquals(20 * 32 * 64 * 20, readInts(c, 1)[0]);
            DeviceException e = assertThrows(DeviceException.class, () -> s.launch(count,
                    new LaunchConfig(Dim3.of(1), Dim3.of(1), 0), KernelArgs.builder().i32(1).build()));
            assertEquals(CudaError.INVALID_HANDLE, e.error());
        } finally {
            s.close();
        }
    }
}
