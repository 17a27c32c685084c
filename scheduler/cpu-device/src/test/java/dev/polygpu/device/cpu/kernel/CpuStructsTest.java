package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
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

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
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
        return KernelTestSupport.gaussianFloats(r, n, 4);
    }

    private static ByteBuffer bytesOf(UnifiedBuffer b, int n) {
        return ByteBuffer.wrap(KernelTestSupport.readBytes(b, n)).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static KernelFaultException fault(String src, String name, KernelArgs args) {
        KernelFunction k = kernel(dev, src, name + ".cu", name);
        return assertThrows(KernelFaultException.class, () -> run(dev, k, 1, 4, args));
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

    /**
     * The structs whose layout the tests check, and their layout as nvcc 13.0 gives it (x86-64 host and device
     * agree): a program printing {@code sizeof}, {@code alignof} and {@code offsetof} of each member, compiled with
     * {@code nvcc -w lay.cu}. Particle: 28 aligned 4 (pos 0, vel 12, mass 24); Mixed: 64 aligned 16 (c 0, d 8,
     * s 16, q 32, w 48, tag 60); Inner: 16 aligned 8 (a 0, b 8); Outer: 56 aligned 8 (c 0, in 8, w 24, v 40,
     * flag 48); cplx: 8 aligned 4 (re 0, im 4).
     */
    private static final String LAYOUTS = PARTICLE + """
            struct Mixed { char c; double d; short s; int4 q; float w[3]; unsigned char tag; };
            struct Inner { short a; double b; };
            struct Outer { char c; Inner in; float w[4]; int2 v; bool flag; };
            typedef struct { float re, im; } cplx;
            """;

    @Test
    void sizesAndOffsetsAreNvccs() {
        String src = LAYOUTS + """
                __global__ void sizes(unsigned long* o, Mixed* m, float* f)
                {
                    o[0] = sizeof(Particle);
                    o[1] = sizeof(Mixed);
                    o[2] = sizeof(Inner);
                    o[3] = sizeof(struct Outer);
                    o[4] = sizeof(cplx);
                    Particle trio[3];
                    o[5] = sizeof(trio);
                    Mixed x = {1, 2.5, 3, {4, 5, 6, 7}, {8.5f, 9.5f, 10.5f}, 200};
                    m[1] = x;
                    Outer y = {-5, {-6, 7.25}, {1, 2, 3}, {11, 12}, true};
                    const char* bytes = (const char*)&y;
                    for (int k = 0; k < 56; k++) {
                        ((char*)f)[k] = bytes[k];
                    }
                    const float* member = (const float*)&m[1].w[1];
                    o[6] = (unsigned long)(member[0] * 2.0f);
                }
                """;
        UnifiedBuffer o = dev.allocate(8 * 7);
        UnifiedBuffer m = dev.allocate(128);
        UnifiedBuffer f = dev.allocate(64);
        run(dev, kernel(dev, src, "sizes.cu", "sizes"), 1, 1, KernelArgs.builder().pointer(o).pointer(m).pointer(f)
                .build());
        assertArrayEquals(new long[] {28, 64, 16, 56, 8, 84, 19}, readLongs(o, 7));
        ByteBuffer mb = bytesOf(m, 128);
        assertEquals(1, mb.get(64));
        assertEquals(2.5, mb.getDouble(64 + 8));
        assertEquals(3, mb.getShort(64 + 16));
        for (int k = 0; k < 4; k++) {
            assertEquals(4 + k, mb.getInt(64 + 32 + 4 * k));
        }
        assertEquals(8.5f, mb.getFloat(64 + 48));
        assertEquals(10.5f, mb.getFloat(64 + 56));
        assertEquals(200, mb.get(64 + 60) & 0xFF);
        ByteBuffer fb = bytesOf(f, 56);
        assertEquals(-5, fb.get(0));
        assertEquals(-6, fb.getShort(8));
        assertEquals(7.25, fb.getDouble(16));
        assertEquals(1f, fb.getFloat(24));
        assertEquals(3f, fb.getFloat(32));
        assertEquals(0f, fb.getFloat(36), "missing array element is zero");
        assertEquals(11, fb.getInt(40));
        assertEquals(12, fb.getInt(44));
        assertEquals(1, fb.get(48));
    }

    @Test
    void nestedStructWithAnArrayMemberIndexedAtRunTime() {
        String src = LAYOUTS + """
                __device__ float total(Outer o)
                {
                    float t = 0;
                    for (int k = 0; k < 4; k++) {
                        t += o.w[k];
                    }
                    return t + o.in.b + o.v.y;
                }

                __global__ void nest(const float* x, float* out, Outer* keep, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i >= n) {
                        return;
                    }
                    Outer o = {1, {2, 0.5}};
                    for (int k = 0; k < 8; k++) {
                        o.w[(i + k) % 4] += x[i] * k;
                    }
                    o.in.a = (short)(i * 3);
                    o.in.b += o.in.a;
                    o.v.y = i;
                    o.flag = i % 2 == 0;
                    out[i] = total(o);
                    keep[i] = o;
                }
                """;
        int n = 40;
        Random r = new Random(SEED + 2);
        float[] x = randomFloats(r, n);
        UnifiedBuffer out = dev.allocate(4L * n);
        UnifiedBuffer keep = dev.allocate(56L * n);
        run(dev, kernel(dev, src, "nest.cu", "nest"), 2, 32,
                KernelArgs.builder().pointer(floats(dev, x)).pointer(out).pointer(keep).i32(n).build());
        float[] got = readFloats(out, n);
        ByteBuffer kb = bytesOf(keep, 56 * n);
        for (int i = 0; i < n; i++) {
            float[] w = new float[4];
            for (int k = 0; k < 8; k++) {
                w[(i + k) % 4] += x[i] * k;
            }
            short a = (short) (i * 3);
            double b = 0.5 + a;
            float t = 0;
            for (int k = 0; k < 4; k++) {
                t += w[k];
            }
            // t + o.in.b is double (usual conversions), then + int, then converted to float.
            float expected = (float) (t + b + i);
            assertEquals(expected, got[i], "element " + i + ", seed " + (SEED + 2));
            int base = 56 * i;
            assertEquals(1, kb.get(base));
            assertEquals(a, kb.getShort(base + 8));
            assertEquals(b, kb.getDouble(base + 16));
            for (int k = 0; k < 4; k++) {
                assertEquals(w[k], kb.getFloat(base + 24 + 4 * k));
            }
            assertEquals(0, kb.getInt(base + 40));
            assertEquals(i, kb.getInt(base + 44));
            assertEquals(i % 2 == 0 ? 1 : 0, kb.get(base + 48));
        }
    }

    @Test
    void sharedArrayOfStructsAcrossSyncthreadsWithAStructLocalLiveAcrossTheBarrier() {
        String src = PARTICLE + """
                __global__ void mirror(const Particle* in, Particle* out, float* massAfter)
                {
                    __shared__ Particle sp[64];
                    int t = threadIdx.x;
                    Particle mine = in[blockIdx.x * 64 + t];
                    sp[t] = mine;
                    sp[t].mass *= 2.0f;
                    __syncthreads();
                    Particle other = sp[63 - t];
                    other.vel.y = mine.pos.x;
                    out[blockIdx.x * 64 + t] = other;
                    massAfter[blockIdx.x * 64 + t] = mine.mass + sp[(t + 1) % 64].mass;
                }
                """;
        int blocks = 3;
        int n = 64 * blocks;
        Random r = new Random(SEED + 3);
        float[] ps = randomFloats(r, 7 * n);
        UnifiedBuffer out = dev.allocate(28L * n);
        UnifiedBuffer mass = dev.allocate(4L * n);
        run(dev, kernel(dev, src, "mirror.cu", "mirror"), blocks, 64,
                KernelArgs.builder().pointer(floats(dev, ps)).pointer(out).pointer(mass).build());
        float[] eo = new float[7 * n];
        float[] em = new float[n];
        for (int b = 0; b < blocks; b++) {
            for (int t = 0; t < 64; t++) {
                int i = b * 64 + t;
                int j = b * 64 + 63 - t;
                System.arraycopy(ps, 7 * j, eo, 7 * i, 7);
                eo[7 * i + 6] = ps[7 * j + 6] * 2.0f;
                eo[7 * i + 4] = ps[7 * i];
                em[i] = ps[7 * i + 6] + ps[7 * (b * 64 + (t + 1) % 64) + 6] * 2.0f;
            }
        }
        assertArrayEquals(eo, readFloats(out, 7 * n), "seed " + (SEED + 3));
        assertArrayEquals(em, readFloats(mass, n), "seed " + (SEED + 3));
    }

    @Test
    void atomicsOnMembersOfStructsInGlobalMemory() {
        String src = """
                struct Bin { int count; float sum; unsigned long long bits; };

                __global__ void histo(const int* v, Bin* bins, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        Bin* b = &bins[v[i] % 8];
                        atomicAdd(&b->count, 1);
                        atomicAdd(&bins[v[i] % 8].sum, (float)v[i]);
                        atomicOr(&b->bits, 1ull << (v[i] % 64));
                    }
                }
                """;
        int n = 1000;
        Random r = new Random(SEED + 4);
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(200);
        }
        UnifiedBuffer bins = dev.allocate(16 * 8);
        run(dev, kernel(dev, src, "histo.cu", "histo"), 8, 128,
                KernelArgs.builder().pointer(ints(dev, v)).pointer(bins).i32(n).build());
        int[] count = new int[8];
        float[] sum = new float[8];
        long[] bits = new long[8];
        for (int x : v) {
            count[x % 8]++;
            sum[x % 8] += x; // integers below 2^24: exact in any order
            bits[x % 8] |= 1L << (x % 64);
        }
        ByteBuffer bb = bytesOf(bins, 128);
        for (int b = 0; b < 8; b++) {
            assertEquals(count[b], bb.getInt(16 * b), "count of bin " + b);
            assertEquals(sum[b], bb.getFloat(16 * b + 4), "sum of bin " + b);
            assertEquals(bits[b], bb.getLong(16 * b + 8), "bits of bin " + b);
        }
    }

    @Test
    void wholeStructCopiesThroughPointersAndAddressesOfLocalMembers() {
        String src = PARTICLE + """
                __device__ void bump(float* m)
                {
                    *m += 1.0f;
                }

                __global__ void copy(Particle* p, Particle* q, int n)
                {
                    int i = threadIdx.x;
                    q[i] = p[n - 1 - i];
                    if (i == 0) {
                        Particle* last = p + (n - 1);
                        last->pos.y = -1.0f;
                        (*last).vel = make_float3(7, 8, 9);
                        p[0] = p[1];
                        Particle s = p[2];
                        bump(&s.mass);
                        p[2] = s;
                        void* raw = p;
                        Particle* back = (Particle*)raw;
                        float* fs = (float*)(back + 3);
                        fs[6] = 42.0f;
                    }
                }
                """;
        int n = 8;
        Random r = new Random(SEED + 5);
        float[] ps = randomFloats(r, 7 * n);
        UnifiedBuffer p = floats(dev, ps);
        UnifiedBuffer q = dev.allocate(28L * n);
        run(dev, kernel(dev, src, "copy.cu", "copy"), 1, n,
                KernelArgs.builder().pointer(p).pointer(q).i32(n).build());
        float[] eq = new float[7 * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(ps, 7 * (n - 1 - i), eq, 7 * i, 7);
        }
        // Thread 0 ran first and changed p[n - 1] before the others read it? No: threads of a block run in order
        // on the CPU device, thread 0 first, so every q[i] with i > 0 read p[n - 1 - i] after thread 0's writes;
        // q[0] read p[n - 1] before them. Only p[n - 1] (read by thread 0 itself) and p[0..3] change.
        float[] ep = ps.clone();
        ep[7 * (n - 1) + 1] = -1.0f;
        ep[7 * (n - 1) + 3] = 7;
        ep[7 * (n - 1) + 4] = 8;
        ep[7 * (n - 1) + 5] = 9;
        System.arraycopy(ps, 7, ep, 0, 7);
        ep[7 * 2 + 6] = ps[7 * 2 + 6] + 1.0f;
        ep[7 * 3 + 6] = 42.0f;
        for (int i = 1; i < n; i++) {
            System.arraycopy(ep, 7 * (n - 1 - i), eq, 7 * i, 7);
        }
        assertArrayEquals(ep, readFloats(p, 7 * n), "seed " + (SEED + 5));
        assertArrayEquals(eq, readFloats(q, 7 * n), "seed " + (SEED + 5));
    }

    @Test
    void conditionalsLocalArraysOfStructsAndWholeMemberAssignments() {
        String src = LAYOUTS + """
                __global__ void misc(const struct Particle* in, float* o)
                {
                    int t = threadIdx.x;
                    Particle pair[2] = {{{1, 2, 3}, {4, 5, 6}, 7}, in[t]};
                    Particle pick = t % 2 ? pair[0] : pair[1];
                    Particle copy;
                    copy = pick;
                    copy.vel = make_float3(pick.pos.z, pick.pos.y, pick.pos.x);
                    copy.pos.y++;
                    Outer a = {0}, b;
                    b = a;
                    Inner tmp = {3, 0.5};
                    b.in = tmp;
                    Inner in2 = b.in;
                    in2.b *= 4;
                    o[4 * t] = copy.vel.x + copy.pos.y;
                    o[4 * t + 1] = (float)(in2.b + b.in.b);
                    o[4 * t + 2] = pair[t % 2].mass;
                    o[4 * t + 3] = (t % 2 ? pair[0] : pair[1]).vel.z;
                }
                """;
        int n = 4;
        Random r = new Random(SEED + 7);
        float[] ps = randomFloats(r, 7 * n);
        UnifiedBuffer o = dev.allocate(16L * n);
        run(dev, kernel(dev, src, "misc.cu", "misc"), 1, n, KernelArgs.builder().pointer(floats(dev, ps)).pointer(o)
                .build());
        float[] expected = new float[4 * n];
        float[] fixed = {1, 2, 3, 4, 5, 6, 7};
        for (int t = 0; t < n; t++) {
            float[] mine = java.util.Arrays.copyOfRange(ps, 7 * t, 7 * t + 7);
            float[] pick = t % 2 == 1 ? fixed : mine;
            expected[4 * t] = pick[2] + (pick[1] + 1);
            expected[4 * t + 1] = (float) (0.5 * 4 + 0.5);
            expected[4 * t + 2] = (t % 2 == 1 ? mine : fixed)[6];
            expected[4 * t + 3] = pick[5];
        }
        assertArrayEquals(expected, readFloats(o, 4 * n), "seed " + (SEED + 7));
    }

    @Test
    void definitionsInAllTheirForms() {
        String src = PARTICLE + """
                typedef struct Node { int key; float val; } Node;
                typedef struct Tag2 { float x; } Alias2;
                typedef struct Particle P2;
                typedef Particle P3, *PP;
                struct Cell { char kind; Particle p; float w[2]; };

                __global__ void forms(PP ps, float* o)
                {
                    Node a = {5, 1.5f};
                    struct Node b = a;
                    Alias2 c = {2.5f};
                    struct Tag2 d = c;
                    Tag2 e = d;
                    P2 f = {{1, 2, 3}, {}, 4};
                    P3 g = f;
                    Cell cell = {'k', g, {6, 7}};
                    cell.p.vel.z++;
                    *ps = ps[1];
                    ps->mass += 0.5f;
                    o[0] = b.key + b.val + e.x;
                    o[1] = f.vel.x + f.vel.y + f.vel.z + f.mass;
                    o[2] = cell.p.vel.z + cell.kind + cell.w[1];
                    o[3] = sizeof(Node) + sizeof(Alias2) + sizeof(Cell);
                }
                """;
        Random r = new Random(SEED + 8);
        float[] ps = randomFloats(r, 14);
        UnifiedBuffer p = floats(dev, ps);
        UnifiedBuffer o = dev.allocate(16);
        run(dev, kernel(dev, src, "forms.cu", "forms"), 1, 1, KernelArgs.builder().pointer(p).pointer(o).build());
        // sizeof: Node 8, Alias2 4, Cell 40 (kind at 0, p at 4, w at 32), as nvcc 13.0 gives them.
        assertArrayEquals(new float[] {5 + 1.5f + 2.5f, 4, 1 + 'k' + 7, 8 + 4 + 40}, readFloats(o, 4));
        float[] ep = ps.clone();
        System.arraycopy(ps, 7, ep, 0, 7);
        ep[6] = ps[13] + 0.5f;
        assertArrayEquals(ep, readFloats(p, 14));
    }

    @Test
    void aLargeStructLivesInLocalMemoryAndCopiesWhole() {
        String src = """
                struct Big { float w[100]; int n; };

                __device__ Big scaled(Big b, float f)
                {
                    Big r = b;
                    r.n = b.n + 1;
                    for (int k = 0; k < 100; k++) {
                        r.w[k] = b.w[k] * f;
                    }
                    return r;
                }

                __global__ void big(const Big* in, Big* out)
                {
                    Big b = in[threadIdx.x];
                    Big c = scaled(b, 2.0f);
                    out[threadIdx.x] = c;
                }
                """;
        Random r = new Random(SEED + 9);
        int n = 4;
        float[] in = new float[101 * n];
        for (int t = 0; t < n; t++) {
            for (int k = 0; k < 100; k++) {
                in[101 * t + k] = (float) r.nextGaussian();
            }
            in[101 * t + 100] = Float.intBitsToFloat(t * 10);
        }
        UnifiedBuffer out = dev.allocate(404L * n);
        run(dev, kernel(dev, src, "big.cu", "big"), 1, n, KernelArgs.builder().pointer(floats(dev, in)).pointer(out)
                .build());
        float[] got = readFloats(out, 101 * n);
        for (int t = 0; t < n; t++) {
            for (int k = 0; k < 100; k++) {
                assertEquals(in[101 * t + k] * 2.0f, got[101 * t + k], "w[" + k + "] of " + t);
            }
            assertEquals(t * 10 + 1, Float.floatToRawIntBits(got[101 * t + 100]), "n of " + t);
        }
    }

    @Test
    void aTemplateKernelInstantiatedWithAStruct() {
        String src = PARTICLE + """
                template <typename T>
                __global__ void gather(const T* in, T* out, const int* idx, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        T v = in[idx[i]];
                        out[i] = v;
                    }
                }
                """;
        int n = 50;
        Random r = new Random(SEED + 6);
        float[] ps = randomFloats(r, 7 * n);
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = r.nextInt(n);
        }
        UnifiedBuffer out = dev.allocate(28L * n);
        run(dev, kernel(dev, src, "gather.cu", "gather<Particle>"), 2, 32,
                KernelArgs.builder().pointer(floats(dev, ps)).pointer(out).pointer(ints(dev, idx)).i32(n).build());
        float[] expected = new float[7 * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(ps, 7 * idx[i], expected, 7 * i, 7);
        }
        assertArrayEquals(expected, readFloats(out, 7 * n), "seed " + (SEED + 6));
    }

    @Test
    void constantAndDeviceVariablesOfStructType() {
        String src = PARTICLE + """
                struct Coeffs { float a; double b; int2 n; float w[3]; };
                __constant__ Coeffs table[2] = {{1.5f, 2.25, {3, 4}, {5, 6, 7}}, {-1}};
                __constant__ Particle origin = {{1, 2, 3}, {4, 5, 6}, 7};
                __device__ Coeffs acc;

                __global__ void useTables(float* o)
                {
                    int t = threadIdx.x;
                    Coeffs c = table[t % 2];
                    o[t] = c.a + (float)c.b + c.n.y + table[t % 2].w[t % 3] + origin.vel.z;
                    atomicAdd(&acc.a, 1.0f);
                    if (t == 0) {
                        acc.w[1] = origin.mass;
                    }
                }

                __global__ void readAcc(float* o)
                {
                    o[0] = acc.a;
                    o[1] = acc.w[1];
                }
                """;
        var module = dev.compile(src, "tables.cu");
        UnifiedBuffer o = dev.allocate(4 * 8);
        run(dev, module.function("useTables"), 1, 8, KernelArgs.builder().pointer(o).build());
        float[] expected = new float[8];
        float[][] w = {{5, 6, 7}, {0, 0, 0}};
        for (int t = 0; t < 8; t++) {
            expected[t] = t % 2 == 0 ? 1.5f + 2.25f + 4 + w[0][t % 3] + 6 : -1 + 0 + 0 + w[1][t % 3] + 6;
        }
        assertArrayEquals(expected, readFloats(o, 8));
        UnifiedBuffer a = dev.allocate(8);
        run(dev, module.function("readAcc"), 1, 1, KernelArgs.builder().pointer(a).build());
        assertArrayEquals(new float[] {8, 7}, readFloats(a, 2));
    }

    // ---- faults -----------------------------------------------------------------------------------------------

    @Test
    void aStructPartlyOutsideItsBufferIsOutOfBoundsButItsFirstMemberIsNot() {
        String src = PARTICLE + """
                __global__ void oob(const Particle* p, float* o)
                {
                    if (threadIdx.x == 1) {
                        o[0] = p[2].pos.x;
                        Particle q = p[2];
                        o[1] = q.mass;
                    }
                }
                """;
        // 72 bytes: p[2] covers bytes 56..83, of which 72..83 are outside; its pos.x (56..59) is inside.
        UnifiedBuffer o = dev.allocate(8);
        KernelFaultException e = fault(src, "oob",
                KernelArgs.builder().pointer(floats(dev, new float[18])).pointer(o).build());
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error());
        assertContains("kernel 'oob' (line 6, ", e.getMessage());
        assertContains("threadIdx (1,0,0)", e.getMessage());
        assertContains("out-of-bounds read of 28 bytes at index 2 of argument 'p'", e.getMessage());

        String member = PARTICLE + """
                __global__ void oobm(Particle* p)
                {
                    p[threadIdx.x].mass = 1.0f;
                }
                """;
        KernelFaultException m = fault(member, "oobm", KernelArgs.builder().pointer(dev.allocate(72)).build());
        assertEquals(CudaError.ILLEGAL_ADDRESS, m.error());
        assertContains("threadIdx (2,0,0)", m.getMessage());
        // p[2].mass is bytes 80..83: float index 20 of the 72-byte buffer.
        assertContains("out-of-bounds write of 4 bytes at index 20 of argument 'p'", m.getMessage());
    }

    @Test
    void aMisalignedStructLoadAndStoreFault() {
        String src = """
                struct Inner { short a; double b; };

                __global__ void mis(const char* c, Inner* o)
                {
                    if (threadIdx.x == 3) {
                        Inner v = ((const Inner*)(c + 4))[0];
                        o[0] = v;
                    }
                }
                """;
        KernelFaultException e = fault(src, "mis",
                KernelArgs.builder().pointer(dev.allocate(64)).pointer(dev.allocate(16)).build());
        assertEquals(CudaError.MISALIGNED_ADDRESS, e.error());
        assertContains("kernel 'mis' (line 6, ", e.getMessage());
        assertContains("threadIdx (3,0,0)", e.getMessage());
        assertContains("misaligned read of struct Inner (16 bytes, which need 8-byte alignment) at byte 4 of "
                + "argument 'c'", e.getMessage());
        assertContains("4 bytes past a multiple of 8", e.getMessage());

        String store = """
                struct Inner { short a; double b; };

                __global__ void mst(float* f)
                {
                    Inner v = {1, 2.0};
                    reinterpret_cast<Inner*>(f + 1)[0] = v;
                }
                """;
        KernelFaultException s = fault(store, "mst", KernelArgs.builder().pointer(dev.allocate(64)).build());
        assertEquals(CudaError.MISALIGNED_ADDRESS, s.error());
        assertContains("misaligned write of struct Inner (16 bytes, which need 8-byte alignment) at byte 4 of "
                + "argument 'f'", s.getMessage());
    }

    @Test
    void aStructStoreThroughAReadOnlyParameterFails() {
        String src = """
                typedef struct { float re, im; } cplx;
                __global__ void ro(cplx* p)
                {
                    cplx z = {1, 2};
                    p[threadIdx.x] = z;
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
        String k = "__global__ void k(Particle* p, float* x)\n{\n";
        String ops = "structs have no operators but assignment (user-defined operators are not supported by the "
                + "CPU device's kernel engine); operate on the members";
        String engine = " by the CPU device's kernel engine";
        return Stream.of(
                Arguments.of("union U { int i; float f; };\n", 1, 1, "unions are not supported" + engine),
                Arguments.of("struct S { float x;\n  __device__ float len() { return x; }\n};\n", 2, 3,
                        "'__device__' in struct 'S': member functions, static members and other C++ class features"
                                + " are not supported"),
                Arguments.of("struct S { float x;\n  float len() { return x; }\n};\n", 2, 9,
                        "member functions (len) in struct 'S' are not supported" + engine),
                Arguments.of("struct S { float x;\n  S(float v) { x = v; }\n};\n", 2, 3,
                        "constructors in struct 'S' are not supported" + engine),
                Arguments.of("struct S {\npublic:\n  float x;\n};\n", 2, 1,
                        "access specifiers ('public:') in struct 'S' are not supported" + engine),
                Arguments.of("class C { float x; };\n", 1, 1, "classes (class 'C') are not supported" + engine),
                Arguments.of("struct A { int i; };\nstruct B : A { int j; };\n", 2, 10,
                        "inheritance (struct 'B' : …) is not supported" + engine),
                Arguments.of("struct S { unsigned flags : 3; };\n", 1, 27, "bit-field member 'flags' in struct 'S' "
                        + "is not supported" + engine + "; use a whole integer member and shifts and masks"),
                Arguments.of("struct S { float* data; int n; };\n", 1, 19, "pointer member 'data' in struct 'S' is "
                        + "not supported" + engine + " (pointers stored in memory are not supported)"),
                Arguments.of("struct S { int n; float data[]; };\n", 1, 25,
                        "flexible array member 'data' in struct 'S' is not supported" + engine),
                Arguments.of("struct S { S inner; };\n", 1, 14,
                        "member 'inner' of struct 'S' has the incomplete type 'S' (a struct cannot contain itself)"),
                Arguments.of("struct S;\n__global__ void k(S* s) {}\n", 1, 8, "unknown struct 'S': forward "
                        + "declarations of structs are not supported" + engine),
                Arguments.of(PARTICLE + k + "  struct L { int a; } l;\n}", 4, 3,
                        "struct definitions are supported only at file scope" + engine),
                Arguments.of(PARTICLE + k + "  Particle a = p[0], b = p[1];\n  p[2] = a + b;\n}", 5, 12,
                        "invalid operand of type 'Particle' to '+': " + ops),
                Arguments.of(PARTICLE + k + "  if (p[0] == p[1]) x[0] = 1;\n}", 4, 12,
                        "invalid operand of type 'Particle' to '==': " + ops),
                Arguments.of(PARTICLE + k + "  Particle a = p[0];\n  a += a;\n}", 5, 5,
                        "invalid operand of type 'Particle' to '+=': " + ops),
                Arguments.of(PARTICLE + k + "  x[0] = p[0].speed;\n}", 4, 14, "no member named 'speed' in struct "
                        + "'Particle' (its members are pos, vel, mass)"),
                Arguments.of(PARTICLE + k + "  x[0] = p[0];\n}", 4, 11,
                        "cannot convert 'Particle' to 'float' in assignment"),
                Arguments.of(PARTICLE + k + "  Particle a = {{1, 2, 3}, {4, 5, 6}, 7, 8};\n}", 4, 42,
                        "excess elements in initializer of struct 'Particle'"),
                Arguments.of(PARTICLE + "__global__ void k(Particle p, float* x)\n{\n  x[0] = p.mass;\n}", 2, 28,
                        "kernel parameter 'p' has the struct type 'Particle', which kernel signatures cannot pass "
                                + "by value (they have scalar and pointer types only); pass a pointer"),
                Arguments.of(PARTICLE + "struct Particle { int id; };\n", 2, 8, "redefinition of 'struct Particle'"),
                Arguments.of("struct S { float x = 1.0f; };\n", 1, 20,
                        "default member initializers (member 'x' in struct 'S') are not supported" + engine),
                Arguments.of("struct S { struct T { int a; } t; };\n", 1, 12,
                        "nested struct definitions in struct 'S' are not supported" + engine),
                Arguments.of("struct S { int a;\n  ~S() {}\n};\n", 2, 3, "destructors in struct 'S' are not supported"),
                Arguments.of("struct S { static int count; };\n", 1, 12, "'static' in struct 'S': member functions, "
                        + "static members and other C++ class features are not supported"),
                Arguments.of("struct S { };\n", 1, 8, "struct 'S' has no data members; empty structs are not supported"),
                Arguments.of("struct S { float w[2]; };\n__device__ S make() { S s = {1, 2}; return s; }\n"
                        + "__global__ void k(float* x)\n{\n  x[0] = make().w[1];\n}", 5, 16,
                        "array member 'w' of a struct value that is not stored anywhere"),
                Arguments.of(PARTICLE + "__constant__ Particle c = {{1, 2, 3}};\n" + k + "  c.mass = 1;\n}", 5, 4,
                        "cannot assign to __constant__ variable 'c'"));
    }

    @ParameterizedTest
    @MethodSource("compileErrors")
    void compileErrorsSayWhatIsWrongAndWhere(String src, int line, int column, String message) {
        CompileException e = assertThrows(CompileException.class, () -> dev.compile(src, "s.cu").function("k"));
        CompileException.Diagnostic d = e.diagnostics().getFirst();
        assertContains(message, d.message());
        assertEquals(line, d.line(), e.getMessage());
        assertEquals(column, d.column(), e.getMessage());
    }
}
