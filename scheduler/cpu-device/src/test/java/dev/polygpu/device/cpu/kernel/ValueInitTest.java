package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.bytes;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cuda.NvccTool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * C++ value-initialization and functional casts in kernels ({@code T{}}, {@code T()}, {@code T{x}},
 * {@code float(x)}, {@code (float(x) / 255)}, {@code T z{};}, {@code T z(v);}, {@code if constexpr}), run by the
 * CUDA C engine and compared byte for byte with nvcc's PTX of the same source ({@code -fmad=false}, so that
 * neither side contracts a multiply-add) run on the PTX interpreter. The nvcc comparisons are skipped, saying
 * why, where the toolkit is not installed; {@link #handDerived} checks a few values without it.
 *
 * <p>The zero checks declare the variable inside a loop whose previous round wrote it, so an initializer that
 * did nothing would show the old value.
 */
class ValueInitTest {
    private static final long SEED = 20260407L;
    private static final int N = 96;

    private static final String SOURCE = """
            struct Pt { float x; int n; float2 v; };

            template <typename T> __global__ void acc_k(const T* x, T* out, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                for (int r = 0; r < 3; r++) {
                    T acc{};
                    for (int j = 0; j <= i % 5; j++) acc += x[(i + j) % n];
                    acc += T(2);
                    T w{x[i]};
                    T z = T();
                    out[4 * i + r] = acc * T(r + 1) + w - z + T{};
                    acc = x[0];
                    z = x[1];
                }
                out[4 * i + 3] = (T(x[i]) / T(3) + T{x[(i + 1) % n]});
            }
            template __global__ void acc_k<float>(const float*, float*, int);
            template __global__ void acc_k<int>(const int*, int*, int);
            template __global__ void acc_k<double>(const double*, double*, int);

            extern "C" __global__ void scalar_forms(const int* in, const float* fin, float* f, int* o, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                int v = in[i];
                float g = fin[i];
                f[8 * i + 0] = (float(v) / 255);
                f[8 * i + 1] = (float(v) / 255 + float{g}) * 2;
                f[8 * i + 2] = float{v} / 2;
                float q{1.5f};
                f[8 * i + 3] = q * float(v) + float() + float{};
                f[8 * i + 4] = (float)(v) / 2 + (float(g));
                double d(g);
                f[8 * i + 5] = float(d * 3.0);
                f[8 * i + 6] = sizeof(float(v)) + sizeof(double);
                f[8 * i + 7] = g > 0 ? float(v) : float{};
                int z{};
                for (int r = 0; r < 2; r++) {
                    int t{};
                    t += v + r;
                    z += t;
                }
                o[6 * i + 0] = z;
                int w(v * 3);
                o[6 * i + 1] = w;
                o[6 * i + 2] = int(g * 100.0f);
                o[6 * i + 3] = unsigned(v) >> 28;
                o[6 * i + 4] = int{} + int() + int{v};
                o[6 * i + 5] = (int(g) + int{7}) % 5;
            }

            __device__ float2 pair(float a) {
                static const float w[3] = {0.25f, 0.5f, 0.75f};
                static constexpr int three = 3;
                return {a, w[(int) a & 1] * three * a};
            }
            __device__ Pt point(float a, int n) { return {a, n}; }

            extern "C" __global__ void aggregate_forms(const float* in, float* out, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                float a0 = in[i];
                for (int r = 0; r < 2; r++) {
                    float2 a{};
                    Pt p{};
                    float4 c = float4();
                    Pt s = Pt();
                    out[8 * i + r] = a.x + a.y + p.x + p.n + p.v.x + p.v.y + c.x + c.y + c.z + c.w + s.x + s.v.y;
                    a.x = 5; p.n = 7; p.v.y = 3; c.w = 9; s.x = 11;
                }
                float2 b = float2{a0, 2.0f};
                float4 c2{a0};
                Pt q = Pt{a0, 3, float2{1.0f, a0}};
                Pt r{q};
                float2 e(b);
                out[8 * i + 2] = b.x * b.y;
                out[8 * i + 3] = c2.x + c2.y + c2.z + c2.w;
                out[8 * i + 4] = r.x + r.n + r.v.x - r.v.y;
                out[8 * i + 5] = e.x + e.y + float2{}.y;
                out[8 * i + 6] = Pt{a0, 4}.n + Pt{}.v.x;
                out[8 * i + 7] = (float4{a0, a0}.y + float2{}.x);
                Pt t{};
                t = {a0 * 2, 5};
                out[8 * i + 7] += pair(a0).y - point(a0, 6).n + t.x + t.n + t.v.y;
            }

            template <typename T> __global__ void zero_k(const T* in, T* out, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                T z{};
                T y = T();
                T c{in[i]};
                out[3 * i + 0] = z;
                out[3 * i + 1] = y;
                out[3 * i + 2] = c;
            }
            template __global__ void zero_k<float2>(const float2*, float2*, int);
            template __global__ void zero_k<Pt>(const Pt*, Pt*, int);

            template <typename T> __device__ T halve(T v) {
                static_assert(sizeof(T) >= 4, "halve needs 32 or 64 bits");
                if constexpr (sizeof(T) == 8) {
                    return v / T(2);
                } else {
                    return v >> 1;
                }
            }
            template <typename T> __global__ void halve_k(T* x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = halve(x[i]) + T{};
            }
            template __global__ void halve_k<int>(int*, int);
            template __global__ void halve_k<double>(double*, int);
            """;

    private static CpuDevice device;
    private static Module engine;

    @BeforeAll
    static void compile() {
        device = new CpuDevice(4);
        engine = device.compile(SOURCE, "value_init.cu");
    }

    @AfterAll
    static void close() {
        device.close();
    }

    /** One launch: the buffers' initial bytes, then the scalar {@code n}. */
    private record Launch(String kernel, List<byte[]> buffers) {
    }

    private static Stream<Launch> launches() {
        Random r = new Random(SEED);
        byte[] floats = le(N * 4, b -> {
            for (int i = 0; i < N; i++) {
                b.putFloat((float) (r.nextGaussian() * 40));
            }
        });
        byte[] ints = le(N * 4, b -> {
            for (int i = 0; i < N; i++) {
                b.putInt(r.nextInt(-100_000, 100_000));
            }
        });
        byte[] doubles = le(N * 8, b -> {
            for (int i = 0; i < N; i++) {
                b.putDouble(r.nextGaussian() * 1e6);
            }
        });
        byte[] floatPairs = le(N * 8, b -> {
            for (int i = 0; i < 2 * N; i++) {
                b.putFloat((float) (r.nextGaussian() * 40));
            }
        });
        byte[] pts = le(N * 16, b -> {
            for (int i = 0; i < N; i++) {
                b.putFloat(r.nextFloat() + 1).putInt(r.nextInt(1, 1000)).putFloat(r.nextFloat() - 2)
                        .putFloat(r.nextFloat() + 3);
            }
        });
        return Stream.of(
                new Launch("acc_k<float>", List.of(floats, garbage(N * 16))),
                new Launch("acc_k<int>", List.of(ints, garbage(N * 16))),
                new Launch("acc_k<double>", List.of(doubles, garbage(N * 32))),
                new Launch("scalar_forms", List.of(ints, floats, garbage(N * 32), garbage(N * 24))),
                new Launch("aggregate_forms", List.of(floats, garbage(N * 32))),
                new Launch("zero_k<float2>", List.of(floatPairs, garbage(N * 24))),
                new Launch("zero_k<Pt>", List.of(pts, garbage(N * 48))),
                new Launch("halve_k<int>", List.of(ints)),
                new Launch("halve_k<double>", List.of(doubles)));
    }

    @Test
    void sameBytesAsNvccPtxOnThePtxInterpreter() throws Exception {
        Module ptx = device.load(nvccPtx(SOURCE), "value_init.ptx");
        try {
            for (Launch l : launches().toList()) {
                List<byte[]> expected = run(ptx, l);
                List<byte[]> actual = run(engine, l);
                for (int b = 0; b < expected.size(); b++) {
                    int at = Arrays.mismatch(expected.get(b), actual.get(b));
                    assertEquals(-1, at, l.kernel() + ", buffer " + b + ": first byte that differs from nvcc's PTX"
                            + " (seed " + SEED + ")");
                }
            }
        } finally {
            ptx.close();
        }
    }

    /** Values derived by hand, checked without nvcc. */
    @Test
    void handDerived() {
        // acc_k<int>, thread 0 of n = 3, x = {5, -3, 7}: each round acc = T{} + x[0] + 2 = 7 (j runs to 0 % 5 = 0),
        // w = 5, z = 0, so out[r] = 7 * (r + 1) + 5; out[3] = 5 / 3 + x[1] = 1 - 3 = -2.
        byte[] x = le(12, b -> b.putInt(5).putInt(-3).putInt(7));
        byte[] out = run(engine, new Launch("acc_k<int>", List.of(x, garbage(48)))).get(1);
        assertArrayEquals(new int[] {12, 19, 26, -2}, Arrays.copyOf(ints(out), 4));
        // scalar_forms, v = 510, g = 2.5: 510/255 = 2; (2 + 2.5) * 2 = 9; 510/2 = 255; 1.5 * 510 = 765;
        // 255 + 2.5 = 257.5; 2.5 * 3 = 7.5; sizeof(float) + sizeof(double) = 12; g > 0 gives 510.
        // z = (510 + 0) + (510 + 1) = 1021; w = 1530; int(250.0f) = 250; 510 >> 28 = 0; 0 + 0 + 510;
        // (2 + 7) % 5 = 4.
        List<byte[]> s = run(engine, new Launch("scalar_forms", List.of(le(4, b -> b.putInt(510)),
                le(4, b -> b.putFloat(2.5f)), garbage(32), garbage(24))));
        assertArrayEquals(new float[] {2, 9, 255, 765, 257.5f, 7.5f, 12, 510}, floats(s.get(2)));
        assertArrayEquals(new int[] {1021, 1530, 250, 0, 510, 4}, ints(s.get(3)));
        // The unsigned conversion of a negative value: unsigned(-1) >> 28 = 0xFFFFFFFF >> 28 = 15.
        s = run(engine, new Launch("scalar_forms", List.of(le(4, b -> b.putInt(-1)), le(4, b -> b.putFloat(1)),
                garbage(32), garbage(24))));
        assertEquals(15, ints(s.get(3))[3]);
    }

    private static List<byte[]> run(Module m, Launch l) {
        List<UnifiedBuffer> buffers = new ArrayList<>();
        KernelArgs.Builder args = KernelArgs.builder();
        for (byte[] initial : l.buffers()) {
            UnifiedBuffer b = bytes(device, initial);
            buffers.add(b);
            args.pointer(b);
        }
        int n = l.buffers().getFirst().length / elementSize(l.kernel());
        args.i32(n);
        try {
            device.defaultStream().launch(m.function(l.kernel()),
                    new LaunchConfig(Dim3.of((n + 31) / 32), Dim3.of(32), 0), args.build());
            device.synchronize();
            List<byte[]> after = new ArrayList<>();
            for (int i = 0; i < buffers.size(); i++) {
                after.add(readBytes(buffers.get(i), l.buffers().get(i).length));
            }
            return after;
        } finally {
            buffers.forEach(UnifiedBuffer::free);
        }
    }

    /** The size of one element of a kernel's first buffer, which gives the thread count. */
    private static int elementSize(String kernel) {
        if (kernel.endsWith("<double>") || kernel.endsWith("<float2>")) {
            return 8;
        }
        return kernel.endsWith("<Pt>") ? 16 : 4;
    }

    /** nvcc's PTX for {@code source}, made here by running nvcc directly (skips the test where it is absent). */
    private static byte[] nvccPtx(String source) throws IOException, InterruptedException {
        Path nvcc = NvccTool.require();
        Path dir = Files.createTempDirectory("value-init-");
        try {
            Files.writeString(dir.resolve("k.cu"), source);
            Process p = new ProcessBuilder(nvcc.toString(), "-ptx", "-arch=sm_90", "-fmad=false", "-o", "k.ptx",
                    "k.cu").directory(dir.toFile()).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(true, p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish");
            assertEquals(0, p.exitValue(), log);
            return Files.readAllBytes(dir.resolve("k.ptx"));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** A little-endian byte array of {@code size} bytes filled by {@code fill}. */
    private static byte[] le(int size, java.util.function.Consumer<ByteBuffer> fill) {
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        fill.accept(b);
        return b.array();
    }

    /** Output memory that is not zero, so that a zero the kernel should write cannot be there already. */
    private static byte[] garbage(int size) {
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) 0x5a);
        return b;
    }

    private static int[] ints(byte[] b) {
        int[] v = new int[b.length / 4];
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(v);
        return v;
    }

    private static float[] floats(byte[] b) {
        float[] v = new float[b.length / 4];
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }
}
