package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.kernel;
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
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * Plain C structs on the CPU device's kernel engine: arrays of structs in global and shared memory, struct
 * locals (scalar-replaced or in local memory), values through {@code __device__} functions, nested structs and
 * array members, whole-struct copies, atomics on members, C layout against nvcc's, the faults of partly
 * out-of-bounds and misaligned struct accesses, and the compile errors. Expected values are computed here in
 * Java, in the same float operations as the kernels.
 */
@Timeout(60)
class CpuStructsTest {
    private static final long SEED = 20_251_122L;
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
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (r.nextGaussian() * 4);
        }
        return v;
    }

    private static ByteBuffer bytesOf(UnifiedBuffer b, int n) {
        byte[] r = new byte[n];
        MemorySegment.copy(b.hostView(), ValueLayout.JAVA_BYTE, 0, r, 0, n);
        return ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static KernelFaultException fault(String src, String name, KernelArgs args) {
        KernelFunction k = kernel(dev, src, name + ".cu", name);
        return assertThrows(KernelFaultException.class, () -> run(dev, k, 1, 4, args));
    }

    private static void assertContains(String part, String message) {
        assertTrue(message.contains(part), () -> "expected '" + part + "' in: " + message);
    }

    private static final String PARTICLE = "struct Particle { float3 pos; float3 vel; float mass; };\n";

    // ---- what works -------------------------------------------------------------------------------------------

    @Test
    void nBodyStepOverAnArrayOfParticlesMatchesJava() {
        String src = PARTICLE + """
                __device__ float3 pull(Particle a, Particle b)
                {
                    float3 d = make_float3(b.pos.x - a.pos.x, b.pos.y - a.pos.y, b.pos.z - a.pos.z);
                    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + 0.01f;
                    float s = b.mass / (r2 * sqrtf(r2));
                    float3 f = {d.x * s, d.y * s, d.z * s};
                    return f;
                }

                __global__ void step(const Particle* in, Particle* out, float dt, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i >= n) {
                        return;
                    }
                    Particle p = in[i];
                    float3 acc = {0.0f, 0.0f, 0.0f};
                    for (int j = 0; j < n; j++) {
                        if (j != i) {
                            float3 f = pull(p, in[j]);
                            acc.x += f.x;
                            acc.y += f.y;
                            acc.z += f.z;
                        }
                    }
                    p.vel.x += acc.x * dt;
                    p.vel.y += acc.y * dt;
                    p.vel.z += acc.z * dt;
                    p.pos.x += p.vel.x * dt;
                    p.pos.y += p.vel.y * dt;
                    p.pos.z += p.vel.z * dt;
                    out[i] = p;
                }
                """;
        int n = 100;
        Random r = new Random(SEED);
        float[] ps = randomFloats(r, 7 * n);
        for (int i = 0; i < n; i++) {
            ps[7 * i + 6] = 1 + Math.abs(ps[7 * i + 6]);
        }
        float dt = 0.01f;
        UnifiedBuffer out = dev.allocate(28L * n);
        run(dev, kernel(dev, src, "nbody.cu", "step"), (n + 31) / 32, 32,
                KernelArgs.builder().pointer(floats(dev, ps)).pointer(out).f32(dt).i32(n).build());
        float[] expected = new float[7 * n];
        for (int i = 0; i < n; i++) {
            float ax = 0;
            float ay = 0;
            float az = 0;
            for (int j = 0; j < n; j++) {
                if (j == i) {
                    continue;
                }
                float dx = ps[7 * j] - ps[7 * i];
                float dy = ps[7 * j + 1] - ps[7 * i + 1];
                float dz = ps[7 * j + 2] - ps[7 * i + 2];
                float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
                float s = ps[7 * j + 6] / (r2 * (float) Math.sqrt(r2));
                ax += dx * s;
                ay += dy * s;
                az += dz * s;
            }
            float vx = ps[7 * i + 3] + ax * dt;
            float vy = ps[7 * i + 4] + ay * dt;
            float vz = ps[7 * i + 5] + az * dt;
            expected[7 * i] = ps[7 * i] + vx * dt;
            expected[7 * i + 1] = ps[7 * i + 1] + vy * dt;
            expected[7 * i + 2] = ps[7 * i + 2] + vz * dt;
            expected[7 * i + 3] = vx;
            expected[7 * i + 4] = vy;
            expected[7 * i + 5] = vz;
            expected[7 * i + 6] = ps[7 * i + 6];
        }
        assertArrayEquals(expected, readFloats(out, 7 * n), "seed " + SEED);
    }

    @Test
    void complexNumbersAsATypedefStructThroughDeviceFunctions() {
        String src = """
                typedef struct { float re, im; } cplx;

                __device__ cplx cmul(cplx a, cplx b)
                {
                    cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
                    return r;
                }

                __device__ cplx cadd(cplx a, cplx b)
                {
                    cplx r;
                    r.re = a.re + b.re;
                    r.im = a.im + b.im;
                    return r;
                }

                __global__ void iterate(const cplx* c, cplx* z, float* im2, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        cplx v = {0};
                        for (int k = 0; k < 5; k++) {
                            v = cadd(cmul(v, v), c[i]);
                        }
                        z[i] = v;
                        im2[i] = cmul(c[i], c[i]).im;
                    }
                }
                """;
        int n = 64;
        Random r = new Random(SEED + 1);
        float[] c = new float[2 * n];
        for (int i = 0; i < 2 * n; i++) {
            c[i] = (float) (r.nextDouble() - 0.5);
        }
        UnifiedBuffer z = dev.allocate(8L * n);
        UnifiedBuffer im2 = dev.allocate(4L * n);
        run(dev, kernel(dev, src, "cplx.cu", "iterate"), 2, 32,
                KernelArgs.builder().pointer(floats(dev, c)).pointer(z).pointer(im2).i32(n).build());
        float[] ez = new float[2 * n];
        float[] eim = new float[n];
        for (int i = 0; i < n; i++) {
            float re = 0;
            float im = 0;
            float cr = c[2 * i];
            float ci = c[2 * i + 1];
            for (int k = 0; k < 5; k++) {
                float mr = re * re - im * im;
                float mi = re * im + im * re;
                re = mr + cr;
                im = mi + ci;
            }
            ez[2 * i] = re;
            ez[2 * i + 1] = im;
            eim[i] = cr * ci + ci * cr;
        }
        assertArrayEquals(ez, readFloats(z, 2 * n), "seed " + (SEED + 1));
        assertArrayEquals(eim, readFloats(im2, n), "seed " + (SEED + 1));
    }
}
