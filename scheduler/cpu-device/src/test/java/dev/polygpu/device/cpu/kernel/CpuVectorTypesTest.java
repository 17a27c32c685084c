package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readDoubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readLongs;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.ast.CType;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CUDA's built-in vector types on the CPU device's kernel engine: vectorized loads and stores, make_T,
 * components, vectors in shared memory and across barriers, through {@code __device__} functions, the faults of
 * misaligned and partly out-of-bounds vector accesses, and the compile errors. Expected values are computed here
 * in Java, in the same float or double operations as the kernel.
 */
@Timeout(60)
class CpuVectorTypesTest {
    private static final long SEED = 20_250_611L;
    private static Device dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        if (dev != null) {
            dev.close();
        }
    }

    private static float[] randomFloats(Random r, int n) {
        return KernelTestSupport.gaussianFloats(r, n, 10);
    }

    // ---- what works -------------------------------------------------------------------------------------------

    @Test
    void float4VectorizedSaxpyMatchesScalarJava() {
        String src = """
                __global__ void saxpy4(float* __restrict__ y, const float* __restrict__ x, float a, int n4)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n4) {
                        float4 xv = reinterpret_cast<const float4*>(x)[i];
                        float4 yv = ((float4*)y)[i];
                        yv.x = a * xv.x + yv.x;
                        yv.y = a * xv.y + yv.y;
                        yv.z = a * xv.z + yv.z;
                        yv.w = a * xv.w + yv.w;
                        reinterpret_cast<float4*>(y)[i] = yv;
                    }
                }
                """;
        int n = 4 * 1000;
        Random r = new Random(SEED);
        float[] x = randomFloats(r, n);
        float[] y = randomFloats(r, n);
        float a = 2.5f;
        UnifiedBuffer yb = floats(dev, y);
        run(dev, kernel(dev, src, "saxpy4.cu", "saxpy4"), (n / 4 + 127) / 128, 128,
                KernelArgs.builder().pointer(yb).pointer(floats(dev, x)).f32(a).i32(n / 4).build());
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            expected[i] = a * x[i] + y[i];
        }
        assertArrayEquals(expected, readFloats(yb, n), "seed " + SEED);
    }

    @Test
    void float2ComplexMultiplyThroughADeviceFunction() {
        String src = """
                __device__ float2 cmul(float2 a, float2 b)
                {
                    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
                }

                __device__ float2 conj(float2 v)
                {
                    float2 r;
                    r.x = v.x;
                    r.y = -v.y;
                    return r;
                }

                __global__ void cmulk(const float2* a, const float2* b, float2* c, float* re, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        float2 p = cmul(a[i], conj(b[i]));
                        c[i] = p;
                        re[i] = cmul(a[i], b[i]).x;
                    }
                }
                """;
        int n = 500;
        Random r = new Random(SEED + 1);
        float[] a = randomFloats(r, 2 * n);
        float[] b = randomFloats(r, 2 * n);
        UnifiedBuffer cb = dev.allocate(8L * n);
        UnifiedBuffer reb = dev.allocate(4L * n);
        run(dev, kernel(dev, src, "cmul.cu", "cmulk"), (n + 63) / 64, 64,
                KernelArgs.builder().pointer(floats(dev, a)).pointer(floats(dev, b)).pointer(cb).pointer(reb).i32(n)
                        .build());
        float[] expectedC = new float[2 * n];
        float[] expectedRe = new float[n];
        for (int i = 0; i < n; i++) {
            float ar = a[2 * i];
            float ai = a[2 * i + 1];
            float br = b[2 * i];
            float bi = -b[2 * i + 1];
            expectedC[2 * i] = ar * br - ai * bi;
            expectedC[2 * i + 1] = ar * bi + ai * br;
            expectedRe[i] = ar * b[2 * i] - ai * b[2 * i + 1];
        }
        assertArrayEquals(expectedC, readFloats(cb, 2 * n), "seed " + (SEED + 1));
        assertArrayEquals(expectedRe, readFloats(reb, n), "seed " + (SEED + 1));
    }

    @Test
    void uchar4PixelsSwizzleRgbaToBgraAsUnsignedBytes() {
        String src = """
                __global__ void swizzle(const uchar4* __restrict__ in, uchar4* out, int* sum, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        uchar4 p = in[i];
                        out[i] = make_uchar4(p.z, p.y, p.x, p.w);
                        sum[i] = p.x + p.y + p.z + p.w;
                    }
                }
                """;
        int n = 300;
        byte[] rgba = new byte[4 * n];
        new Random(SEED + 2).nextBytes(rgba);
        rgba[0] = (byte) 255;
        rgba[3] = (byte) 200;
        UnifiedBuffer out = dev.allocate(4L * n);
        UnifiedBuffer sum = dev.allocate(4L * n);
        run(dev, kernel(dev, src, "swizzle.cu", "swizzle"), (n + 127) / 128, 128,
                KernelArgs.builder().pointer(KernelTestSupport.bytes(dev, rgba)).pointer(out).pointer(sum).i32(n).build());
        byte[] expected = new byte[4 * n];
        int[] expectedSum = new int[n];
        for (int i = 0; i < n; i++) {
            expected[4 * i] = rgba[4 * i + 2];
            expected[4 * i + 1] = rgba[4 * i + 1];
            expected[4 * i + 2] = rgba[4 * i];
            expected[4 * i + 3] = rgba[4 * i + 3];
            for (int k = 0; k < 4; k++) {
                expectedSum[i] += rgba[4 * i + k] & 0xFF;
            }
        }
        assertArrayEquals(expected, KernelTestSupport.readBytes(out, 4 * n), "seed " + (SEED + 2));
        assertArrayEquals(expectedSum, readInts(sum, n), "seed " + (SEED + 2));
    }

    @Test
    void double2ComponentUpdatesAggregateInitializerAndConditional() {
        String src = """
                __global__ void d2(const double2* in, double2* out, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        double2 v = in[i];
                        v.x += 1.5;
                        v.y *= v.x;
                        v.x++;
                        --v.y;
                        double2 w = {v.y, v.x};
                        double2 z;
                        z = i % 2 == 0 ? w : v;
                        out[i] = z;
                        out[i].y -= 0.25;
                    }
                }
                """;
        int n = 200;
        Random r = new Random(SEED + 3);
        double[] in = new double[2 * n];
        for (int i = 0; i < in.length; i++) {
            in[i] = r.nextGaussian() * 100;
        }
        UnifiedBuffer out = dev.allocate(16L * n);
        run(dev, kernel(dev, src, "d2.cu", "d2"), 2, 128,
                KernelArgs.builder().pointer(doubles(dev, in)).pointer(out).i32(n).build());
        double[] expected = new double[2 * n];
        for (int i = 0; i < n; i++) {
            double x = in[2 * i];
            double y = in[2 * i + 1];
            x += 1.5;
            y *= x;
            x++;
            --y;
            double zx = i % 2 == 0 ? y : x;
            double zy = i % 2 == 0 ? x : y;
            expected[2 * i] = zx;
            expected[2 * i + 1] = zy - 0.25;
        }
        assertArrayEquals(expected, readDoubles(out, 2 * n), "seed " + (SEED + 3));
    }

    @Test
    void sharedFloat4ArrayAcrossSyncthreadsKeepsVectorLocals() {
        String src = """
                __global__ void reverse4(const float4* in, float4* out)
                {
                    __shared__ float4 tile[64];
                    int t = threadIdx.x;
                    int g = blockIdx.x * 64 + t;
                    float4 mine = in[g];
                    tile[t] = mine;
                    tile[t].y = mine.y * 2.0f;
                    __syncthreads();
                    float4 other = tile[63 - t];
                    out[g] = make_float4(other.x, other.y, mine.z, mine.w + other.w);
                }
                """;
        int blocks = 3;
        int n = blocks * 64;
        float[] in = randomFloats(new Random(SEED + 4), 4 * n);
        UnifiedBuffer out = dev.allocate(16L * n);
        run(dev, kernel(dev, src, "reverse4.cu", "reverse4"), blocks, 64,
                KernelArgs.builder().pointer(floats(dev, in)).pointer(out).build());
        float[] expected = new float[4 * n];
        for (int b = 0; b < blocks; b++) {
            for (int t = 0; t < 64; t++) {
                int g = b * 64 + t;
                int o = b * 64 + 63 - t;
                expected[4 * g] = in[4 * o];
                expected[4 * g + 1] = in[4 * o + 1] * 2f;
                expected[4 * g + 2] = in[4 * g + 2];
                expected[4 * g + 3] = in[4 * g + 3] + in[4 * o + 3];
            }
        }
        assertArrayEquals(expected, readFloats(out, 4 * n), "seed " + (SEED + 4));
    }

    @Test
    void componentStoresThroughPointersLeaveTheOtherComponentsUntouched() {
        String src = """
                __global__ void poke(float4* p, int4* q)
                {
                    p->x = 7.0f;
                    p[1].y = 9.0f;
                    (p + 2)->z += 0.5f;
                    p[3].w++;
                    int4* r = q + 1;
                    r->y = p[1].y + p->x;
                    q->w = -3;
                    reinterpret_cast<float*>(p + 3)[1] = 1.5f;
                }
                """;
        float[] p = new float[16];
        for (int i = 0; i < 16; i++) {
            p[i] = 100 + i;
        }
        int[] q = {1, 2, 3, 4, 5, 6, 7, 8};
        UnifiedBuffer pb = floats(dev, p);
        UnifiedBuffer qb = ints(dev, q);
        run(dev, kernel(dev, src, "poke.cu", "poke"), 1, 1, KernelArgs.builder().pointer(pb).pointer(qb).build());
        float[] expected = p.clone();
        expected[0] = 7f;
        expected[5] = 9f;
        expected[10] += 0.5f;
        expected[15] += 1f;
        expected[13] = 1.5f;
        assertArrayEquals(expected, readFloats(pb, 16));
        assertArrayEquals(new int[] {1, 2, 3, -3, 5, 16, 7, 8}, readInts(qb, 8));
    }

    @Test
    void integerVectorsWrapConvertAndZeroFillAsC() {
        String src = """
                __global__ void ints(int* o, long long* l)
                {
                    int4 a = {1, -2, 3};
                    uint2 u = make_uint2(0u, 5u);
                    u.x--;
                    char4 c = make_char4(127, -128, 0, 1);
                    c.x++;
                    short2 s = make_short2(-32768, 32767);
                    s.y += 1;
                    ushort2 us = {65535, 1};
                    us.x += 2;
                    longlong2 ll = make_longlong2(9000000000LL, -1);
                    ll.y *= 3;
                    int1 one = make_int1(42);
                    o[0] = a.x; o[1] = a.y; o[2] = a.z; o[3] = a.w;
                    o[4] = (int) u.x; o[5] = (int) u.y;
                    o[6] = c.x; o[7] = c.y; o[8] = c.w;
                    o[9] = s.x; o[10] = s.y;
                    o[11] = us.x; o[12] = us.y;
                    o[13] = one.x;
                    o[14] = sizeof(int4) + sizeof(char3) * 100;
                    l[0] = ll.x; l[1] = ll.y;
                }
                """;
        UnifiedBuffer o = dev.allocate(15 * 4L);
        UnifiedBuffer l = dev.allocate(2 * 8L);
        run(dev, kernel(dev, src, "ints.cu", "ints"), 1, 1, KernelArgs.builder().pointer(o).pointer(l).build());
        int[] expected = {1, -2, 3, 0, -1, 5, -128, -128, 1, -32768, -32768, 1, 1, 42, 16 + 300};
        assertArrayEquals(expected, readInts(o, 15));
        assertArrayEquals(new long[] {9_000_000_000L, -3}, readLongs(l, 2));
    }

    @Test
    void rvalueComponentsLocalVectorArraysAndAddressesOfComponents() {
        String src = """
                __device__ float3 cross(float3 a, float3 b)
                {
                    return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
                }

                __global__ void misc(const float* x, float* o)
                {
                    float4 acc[2] = {make_float4(1, 2, 3, 4), {5, 6}};
                    acc[1].z = x[0];
                    float3 a = make_float3(x[0], x[1], x[2]);
                    float3 b = make_float3(x[3], x[4], x[5]);
                    o[0] = cross(a, b).x;
                    o[1] = cross(a, b).y;
                    o[2] = cross(a, b).z;
                    o[3] = make_float2(x[1], x[2]).y;
                    o[4] = acc[0].w + acc[1].x + acc[1].z + acc[1].w;
                    float2 sc;
                    sincosf(x[0], &sc.x, &sc.y);
                    o[5] = sc.x;
                    o[6] = sc.y;
                    float4 v = acc[1];
                    o[7] = v.y;
                }
                """;
        float[] x = {0.5f, -1.25f, 2f, 3.5f, 0.75f, -2f};
        UnifiedBuffer o = dev.allocate(8 * 4L);
        run(dev, kernel(dev, src, "misc.cu", "misc"), 1, 1,
                KernelArgs.builder().pointer(floats(dev, x)).pointer(o).build());
        float[] got = readFloats(o, 8);
        assertEquals(x[1] * x[5] - x[2] * x[4], got[0]);
        assertEquals(x[2] * x[3] - x[0] * x[5], got[1]);
        assertEquals(x[0] * x[4] - x[1] * x[3], got[2]);
        assertEquals(x[2], got[3]);
        assertEquals(4f + 5f + x[0] + 0f, got[4]);
        assertEquals((float) Math.sin(x[0]), got[5], 1e-7f);
        assertEquals((float) Math.cos(x[0]), got[6], 1e-7f);
        assertEquals(6f, got[7]);
    }

    @Test
    void aFloat3NeedsOnlyFourByteAlignmentAndAComponentReadOnlyItsOwnBytes() {
        String src = """
                __global__ void f3(const float* x, float* o)
                {
                    float3 v = reinterpret_cast<const float3*>(x + 1)[0];
                    o[0] = v.x + v.y * 10.0f + v.z * 100.0f;
                    o[1] = reinterpret_cast<const float4*>(x)[1].z;
                }
                """;
        // 7 floats: the second float4 (floats 4..7) is partly outside, but its .z (float 6) is inside.
        float[] x = {1, 2, 3, 4, 5, 6, 7};
        UnifiedBuffer o = dev.allocate(2 * 4L);
        run(dev, kernel(dev, src, "f3.cu", "f3"), 1, 1,
                KernelArgs.builder().pointer(floats(dev, x)).pointer(o).build());
        assertArrayEquals(new float[] {2 + 30 + 400, 7}, readFloats(o, 2));
    }

    @Test
    void warpShuffleOfComponentsReducesComplexNumbers() {
        String src = """
                __global__ void csum(const float2* in, float2* out)
                {
                    float2 v = in[blockIdx.x * 32 + threadIdx.x];
                    for (int d = 16; d > 0; d /= 2) {
                        v.x += __shfl_down_sync(0xffffffffu, v.x, d);
                        v.y = v.y + __shfl_down_sync(0xffffffffu, v.y, d);
                    }
                    if (threadIdx.x == 0) {
                        out[blockIdx.x] = v;
                    }
                }
                """;
        int blocks = 4;
        Random r = new Random(SEED + 5);
        float[] in = new float[2 * 32 * blocks];
        for (int i = 0; i < in.length; i++) {
            in[i] = r.nextInt(1000) - 500; // integers: every order of summation gives the same float
        }
        UnifiedBuffer out = dev.allocate(8L * blocks);
        run(dev, kernel(dev, src, "csum.cu", "csum"), blocks, 32,
                KernelArgs.builder().pointer(floats(dev, in)).pointer(out).build());
        float[] expected = new float[2 * blocks];
        for (int b = 0; b < blocks; b++) {
            for (int t = 0; t < 32; t++) {
                expected[2 * b] += in[2 * (b * 32 + t)];
                expected[2 * b + 1] += in[2 * (b * 32 + t) + 1];
            }
        }
        assertArrayEquals(expected, readFloats(out, 2 * blocks), "seed " + (SEED + 5));
    }

    @Test
    void aTemplateKernelInstantiatedWithAVectorType() {
        String src = """
                template <typename T>
                __global__ void copyv(const T* in, T* out, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        T v = in[n - 1 - i];
                        out[i] = v;
                    }
                }
                """;
        int n = 10;
        int[] in = new int[4 * n];
        for (int i = 0; i < in.length; i++) {
            in[i] = 3 * i - 7;
        }
        UnifiedBuffer out = dev.allocate(16L * n);
        KernelFunction k = dev.compile(src, "copyv.cu").function("copyv<int4>");
        run(dev, k, 1, 32, KernelArgs.builder().pointer(ints(dev, in)).pointer(out).i32(n).build());
        int[] expected = new int[4 * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(in, 4 * (n - 1 - i), expected, 4 * i, 4);
        }
        assertArrayEquals(expected, readInts(out, 4 * n));
    }

    // ---- faults -----------------------------------------------------------------------------------------------

    private static KernelFaultException fault(String src, String name, KernelArgs args) {
        KernelFunction k = kernel(dev, src, name + ".cu", name);
        return assertThrows(KernelFaultException.class, () -> run(dev, k, 1, 4, args));
    }

    @Test
    void aMisalignedFloat4LoadFaultsAsOnAGpu() {
        String src = """
                __global__ void mis(const float* x, float* o)
                {
                    if (threadIdx.x == 2) {
                        float4 v = reinterpret_cast<const float4*>(x + 1)[0];
                        o[0] = v.x;
                    }
                }
                """;
        KernelFaultException e = fault(src, "mis",
                KernelArgs.builder().pointer(floats(dev, new float[16])).pointer(dev.allocate(4)).build());
        assertEquals(CudaError.MISALIGNED_ADDRESS, e.error());
        String m = e.getMessage();
        assertContains("kernel 'mis' (line 4, ", m);
        assertContains("threadIdx (2,0,0)", m);
        assertContains("misaligned read of float4 (16 bytes, which need 16-byte alignment) at byte 4 of argument 'x'",
                m);
        assertContains("4 bytes past a multiple of 16", m);
    }

    @Test
    void aMisalignedDouble2StoreAndAMisalignedPointerArgumentFault() {
        String src = """
                __global__ void mst(double* d, float4* v)
                {
                    if (threadIdx.x == 0) {
                        reinterpret_cast<double2*>(d + 1)[0] = make_double2(1.0, 2.0);
                    }
                }
                """;
        KernelFaultException e = fault(src, "mst",
                KernelArgs.builder().pointer(dev.allocate(64)).pointer(dev.allocate(64)).build());
        assertEquals(CudaError.MISALIGNED_ADDRESS, e.error());
        assertContains("misaligned write of double2 (16 bytes, which need 16-byte alignment) at byte 8 of argument 'd'",
                e.getMessage());

        String load = """
                __global__ void marg(const float4* v, float* o)
                {
                    o[threadIdx.x] = v[threadIdx.x].x;
                    float4 w = v[threadIdx.x];
                    o[threadIdx.x] = w.y;
                }
                """;
        // A component read needs only the float's alignment; the whole float4 from a pointer 8 bytes into the
        // buffer faults on its first load.
        KernelFaultException e2 = fault(load, "marg",
                KernelArgs.builder().pointer(dev.allocate(128), 8).pointer(dev.allocate(16)).build());
        assertEquals(CudaError.MISALIGNED_ADDRESS, e2.error());
        assertContains("(line 4, ", e2.getMessage());
        assertContains("threadIdx (0,0,0)", e2.getMessage());
    }

    @Test
    void aVectorPartlyOutsideItsBufferIsOutOfBounds() {
        String src = """
                __global__ void oob(const float* x, float* o)
                {
                    if (threadIdx.x == 1) {
                        float4 v = ((const float4*)x)[1];
                        o[0] = v.x;
                    }
                }
                """;
        // 6 floats: the second float4 covers floats 4..7, of which 6 and 7 are outside.
        KernelFaultException e = fault(src, "oob",
                KernelArgs.builder().pointer(floats(dev, new float[6])).pointer(dev.allocate(4)).build());
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error());
        assertContains("kernel 'oob' (line 4, ", e.getMessage());
        assertContains("out-of-bounds read of 16 bytes at index 1 of argument 'x'", e.getMessage());
    }

    @Test
    void aVectorStoreThroughAReadOnlyParameterFails() {
        String src = """
                __global__ void ro(float2* p)
                {
                    p[threadIdx.x] = make_float2(1.0f, 2.0f);
                }
                """;
        float[] before = {3, 4, 5, 6, 7, 8, 9, 10};
        UnifiedBuffer b = floats(dev, before);
        KernelFaultException e = fault(src, "ro", KernelArgs.builder().readOnlyPointer(b).build());
        assertEquals(CudaError.NOT_PERMITTED, e.error());
        assertArrayEquals(before, readFloats(b, 8));
    }

    // ---- compile errors ---------------------------------------------------------------------------------------

    static Stream<Arguments> compileErrors() {
        String k = "__global__ void k(float4* p, float* x)\n{\n";
        String ops = "CUDA defines no arithmetic, comparison or logical operators on vector types";
        return Stream.of(
                Arguments.of(k + "  float4 a = p[0], b = p[1];\n  p[2] = a + b;\n}", 4, 12,
                        "invalid operand of type 'float4' to '+': " + ops),
                Arguments.of(k + "  float4 a = p[0];\n  a *= 2.0f;\n}", 4, 5, "invalid operand of type 'float4' to '*=': " + ops),
                Arguments.of(k + "  float4 a = p[0];\n  p[1] = -a;\n}", 4, 10, "invalid operand of type 'float4' to '-': " + ops),
                Arguments.of(k + "  if (p[0] == p[1]) x[0] = 1;\n}", 3, 12, "invalid operand of type 'float4' to '==': " + ops),
                Arguments.of(k + "  x[0] = p[0].q;\n}", 3, 14, "no member named 'q' in 'float4' (its components are .x, .y, .z, .w)"),
                Arguments.of(k + "  float3 v = make_float3(1, 2, 3);\n  x[0] = v.w;\n}", 4, 11,
                        "no member named 'w' in 'float3' (its components are .x, .y, .z)"),
                Arguments.of(k + "  x[0] = x->x;\n}", 3, 11, "member reference base type 'float' is not a structure or a vector type"),
                Arguments.of(k + "  float4 v = make_float4(1, 2, 3);\n}", 3, 14, "function 'make_float4' expects 4 arguments, but 3 were given"),
                Arguments.of(k + "  float4 v = 1.0f;\n}", 3, 14, "cannot convert 'float' to 'float4' in initialization of 'v'"),
                Arguments.of(k + "  float2 v = {1, 2, 3};\n}", 3, 14, "excess elements in initializer of 'float2' (it has 2 components)"),
                Arguments.of(k + "  x[0] = p[0];\n}", 3, 11, "cannot convert 'float4' to 'float' in assignment"),
                Arguments.of(k + "  if (p[0]) x[0] = 1;\n}", 3, 8, "statement requires expression of scalar type ('float4' invalid)"),
                Arguments.of(k + "  dim3 d;\n}", 3, 3, "type 'dim3' is not supported in kernel code by the CPU device's kernel engine"),
                Arguments.of("__global__ void k(float4 v, float* x)\n{\n  x[0] = v.x;\n}", 1, 26,
                        "kernel parameter 'v' has the vector type 'float4', which kernel signatures cannot pass by "
                                + "value (they have scalar and pointer types only); pass its components as scalars "
                                + "(float v_x, v_y, …) or pass a pointer ('float4*')"));
    }

    @ParameterizedTest
    @MethodSource("compileErrors")
    void compileErrorsSayWhatIsWrongAndWhere(String src, int line, int column, String message) {
        CompileException e = assertThrows(CompileException.class, () -> dev.compile(src, "v.cu").function("k"));
        CompileException.Diagnostic d = e.diagnostics().getFirst();
        assertContains(message, d.message());
        assertEquals(line, d.line(), e.getMessage());
        assertEquals(column, d.column(), e.getMessage());
    }

    // ---- sizes and alignments -----------------------------------------------------------------------------

    /**
     * {@code sizeof} and {@code alignof} of all 48 types as nvcc 13.0 (host side, x86-64) prints them from CUDA's
     * {@code vector_types.h}: a program with {@code printf("%s %zu %zu\n", #T, sizeof(T), alignof(T))} for each,
     * compiled with {@code nvcc -w}.
     */
    private static final String NVCC_SIZES = "char1 1 1;char2 2 2;char3 3 1;char4 4 4;uchar1 1 1;uchar2 2 2;"
            + "uchar3 3 1;uchar4 4 4;short1 2 2;short2 4 4;short3 6 2;short4 8 8;ushort1 2 2;ushort2 4 4;ushort3 6 2;"
            + "ushort4 8 8;int1 4 4;int2 8 8;int3 12 4;int4 16 16;uint1 4 4;uint2 8 8;uint3 12 4;uint4 16 16;"
            + "long1 8 8;long2 16 16;long3 24 8;long4 32 16;ulong1 8 8;ulong2 16 16;ulong3 24 8;ulong4 32 16;"
            + "longlong1 8 8;longlong2 16 16;longlong3 24 8;longlong4 32 16;ulonglong1 8 8;ulonglong2 16 16;"
            + "ulonglong3 24 8;ulonglong4 32 16;float1 4 4;float2 8 8;float3 12 4;float4 16 16;double1 8 8;"
            + "double2 16 16;double3 24 8;double4 32 16";

    @Test
    void sizesAndAlignmentsAreCudas() {
        String[] rows = NVCC_SIZES.split(";");
        assertEquals(48, rows.length);
        StringBuilder src = new StringBuilder("__global__ void k(unsigned long* o)\n{\n");
        for (int i = 0; i < rows.length; i++) {
            String type = rows[i].split(" ")[0];
            src.append("    o[").append(i).append("] = sizeof(").append(type).append(");\n");
        }
        src.append("}\n");
        UnifiedBuffer o = dev.allocate(8L * rows.length);
        run(dev, kernel(dev, src.toString(), "sizes.cu", "k"), 1, 1, KernelArgs.builder().pointer(o).build());
        long[] sizes = readLongs(o, rows.length);
        for (int i = 0; i < rows.length; i++) {
            String[] f = rows[i].split(" ");
            assertEquals(Long.parseLong(f[1]), sizes[i], "sizeof(" + f[0] + ")");
            CType.Vector v = vectorNamed(f[0]);
            assertEquals(f[0], v.toString());
            assertEquals(Integer.parseInt(f[1]), v.size(), "size of " + f[0]);
            assertEquals(Integer.parseInt(f[2]), v.align(), "alignment of " + f[0]);
        }
    }

    private static CType.Vector vectorNamed(String name) {
        for (CType.Prim p : CType.Prim.values()) {
            for (int n = 1; n <= 4; n++) {
                if (p.isArithmetic() && p != CType.Prim.BOOL && new CType.Vector(p, n).toString().equals(name)) {
                    return new CType.Vector(p, n);
                }
            }
        }
        throw new AssertionError("no vector type " + name);
    }

    @Test
    void sharedVectorsAreLaidOutAtTheirAlignment() {
        String src = """
                __global__ void lay(float* o)
                {
                    __shared__ float f;
                    __shared__ double2 d[2];
                    __shared__ char3 c;
                    __shared__ float4 v[2];
                    if (threadIdx.x == 0) {
                        f = 1.0f;
                        c = make_char3(1, 2, 3);
                        d[1] = make_double2(2.0, 3.0);
                        v[1] = make_float4(4, 5, 6, 7);
                        o[0] = f + d[1].y + c.z + v[1].w;
                    }
                }
                """;
        UnifiedBuffer o = dev.allocate(4);
        run(dev, kernel(dev, src, "lay.cu", "lay"), 1, 32, KernelArgs.builder().pointer(o).build());
        assertEquals(1f + 3f + 3f + 7f, readFloats(o, 1)[0]);
    }
}
