package dev.polygpu.device.cpu.kernel.codegen;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.CompiledKernel.Form;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleTests;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Kernels without barriers whose strided loops get a second, iteration-major method ({@code runBlockSwept}), which
 * the runner picks per launch from the first block it runs: both forms are checked against nvcc's PTX, launched
 * with grids that give each thread many iterations (the swept form kept) and one (the thread loop taken), and a
 * fault names its thread in either.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SweptKernelsTest {
    private static final long SEED = 0x5e97_0d1aL;

    /** A grid-stride loop with a per-thread bound, a nested loop, an early return and a value live after it. */
    private static final String GRID_STRIDE = """
            extern "C" __global__ void NAME(const int *in, int *out, int n) {
                int gid = blockIdx.x * blockDim.x + threadIdx.x;
                if (gid % 13 == 12) {
                    return;
                }
                unsigned int acc = (unsigned int) gid;
                int lim = n - (gid & 7);
                for (int i = gid; i < lim; i += blockDim.x * gridDim.x) {
                    acc = acc * 31u + (unsigned int) in[i];
                    for (int k = 0; k < (i & 3); k++) {
                        acc ^= (unsigned int) in[(i + k) % n] << k;
                    }
                }
                out[gid] = (int) acc;
            }
            """;

    /** SAXPY written grid-stride, as GrCUDA's benchmarks launch it with a fixed small grid. */
    private static final String SAXPY = """
            extern "C" __global__ void NAME(float a, const float *x, float *y, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                    y[i] = a * x[i] + y[i];
                }
            }
            """;

    @Test
    void barrierFreeStridedLoopsGetASweptForm() {
        CompiledKernel k = NamedKernels.compile(GRID_STRIDE, "k");
        assertEquals(Form.THREAD_LOOP, k.form());
        assertEquals(1, KernelCompiler.interchangedLoops(k));
        // An element-wise loop runs as SIMD lanes, iteration by iteration already (LaneFormTest): no swept form.
        CompiledKernel saxpy = NamedKernels.compile(SAXPY, "k");
        assertEquals(Form.THREAD_LOOP, saxpy.form());
        assertEquals(0, KernelCompiler.interchangedLoops(saxpy));
        assertEquals(VectorApi.lanes(dev.polygpu.device.cpu.kernel.ast.CType.Prim.FLOAT), KernelCompiler.lanes(saxpy));
        // A kernel that prints keeps one form; one without a strided loop has nothing to sweep.
        assertEquals(0, KernelCompiler.interchangedLoops(NamedKernels.compile("""
                __global__ void k(int *x, int n) {
                    for (int i = threadIdx.x; i < n; i += blockDim.x) { x[i] += 1; printf("%d\\n", i); }
                }""", "k")));
        assertEquals(0, KernelCompiler.interchangedLoops(
                NamedKernels.compile("__global__ void k(int *x) { x[threadIdx.x] = 1; }", "k")));
    }

    @Test
    void bothFormsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        Random r = new Random(SEED);
        List<OracleCase> cases = new ArrayList<>();
        // {blocks, threads, n}: many iterations per thread, about one, and fewer threads than elements by a little
        int[][] shapes = {{2, 64, 5000}, {40, 64, 2500}, {3, 96, 400}, {64, 32, 2048}};
        for (int[] sh : shapes) {
            String name = "gs" + sh[0] + "x" + sh[1];
            cases.add(new OracleCase(name, NamedKernels.named(GRID_STRIDE, name), name, LaunchConfig.of(sh[0], sh[1]),
                    List.of(OracleTests.randomInts("in", r, sh[2]), OracleTests.randomInts("out", r, sh[0] * sh[1]),
                            OracleTests.intScalar(sh[2]))));
        }
        OracleTests.assertAllEqual(cases, SEED);
    }

    /**
     * Thread 37 of block {@code bad} reads past the input at the element past {@code n}; with 6 blocks of 64 and
     * n = 384 each thread runs one iteration (the runner takes the thread loop after its first block), with n =
     * 3840 ten (it keeps the swept form).
     */
    @Test
    void aFaultNamesItsThreadInEitherForm() {
        String src = """
                __global__ void oob(const int *in, int *x, int n, int bad) {
                    int acc = 0;
                    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                        acc += in[i + (blockIdx.x == bad && threadIdx.x == 37 && i + blockDim.x * gridDim.x >= n
                                ? n : 0)];
                    }
                    x[blockIdx.x * blockDim.x + threadIdx.x] = acc;
                }
                """;
        for (int n : new int[] {384, 3840}) {
            for (int bad : new int[] {0, 4}) {
                try (CpuDevice dev = new CpuDevice(1)) {
                    UnifiedBuffer in = ints(dev, new int[n]);
                    UnifiedBuffer x = ints(dev, new int[384]);
                    var s = dev.defaultStream();
                    s.launch(dev.compile(src, "oob.cu").function("oob"), LaunchConfig.of(6, 64),
                            KernelArgs.builder().pointer(in).pointer(x).i32(n).i32(bad).build());
                    KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
                    assertContains("blockIdx (" + bad + ",0,0) threadIdx (37,0,0)", e.getMessage());
                    assertContains("out-of-bounds read", e.getMessage());
                }
            }
        }
    }
}
