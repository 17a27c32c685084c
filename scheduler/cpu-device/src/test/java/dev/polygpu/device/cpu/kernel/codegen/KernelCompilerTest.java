package dev.polygpu.device.cpu.kernel.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.exec.ModuleMemory;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Properties of the generated code itself: which kernels are cooperative, and that they stay JIT-able. */
class KernelCompilerTest {

    private static CompiledKernel compile(String src, String name) {
        return KernelCompiler.compile(FrontEnd.compile(src, "t.cu").kernel(name));
    }

    @Test
    void kernelsWithoutYieldPointsAreNotCooperative() {
        CompiledKernel k = compile("__global__ void k(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }",
                "k");
        assertFalse(k.cooperative());
        assertEquals(0, k.staticSharedBytes());
    }

    @Test
    void barriersInHelpersMakeTheKernelCooperative() {
        CompiledKernel k = compile("""
                __device__ void sync() { __syncthreads(); }
                __global__ void k(float *x) { __shared__ float s[64]; s[threadIdx.x] = 1; sync(); x[0] = s[0]; }""",
                "k");
        assertTrue(k.cooperative());
        assertEquals(256, k.staticSharedBytes());
    }

    @Test
    void typicalKernelsStayBelowHotSpotsHugeMethodLimit() {
        String blackScholes = """
                __device__ double cnd(double d) {
                    const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978,
                                 A5 = 1.330274429, RSQRT2PI = 0.39894228040143267794;
                    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
                    double c = RSQRT2PI * exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
                    return d > 0 ? 1.0 - c : c;
                }
                __global__ void bs(double *call, double *put, const double *s, const double *x, const double *t,
                                   double r, double v, int n) {
                    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                        double sq = sqrt(t[i]);
                        double d1 = (log(s[i] / x[i]) + (r + 0.5 * v * v) * t[i]) / (v * sq);
                        double d2 = d1 - v * sq;
                        double e = exp(-r * t[i]);
                        call[i] = s[i] * cnd(d1) - x[i] * e * cnd(d2);
                        put[i] = x[i] * e * (1.0 - cnd(d2)) - s[i] * (1.0 - cnd(d1));
                    }
                }""";
        String sgemm = """
                #define T 16
                __global__ void sgemm(const float *A, const float *B, float *C, int M, int N, int K) {
                    __shared__ float As[T][T];
                    __shared__ float Bs[T][T];
                    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
                    float acc = 0;
                    for (int t = 0; t < (K + T - 1) / T; t++) {
                        As[threadIdx.y][threadIdx.x] = row < M && t * T + threadIdx.x < K ? A[row * K + t * T + threadIdx.x] : 0;
                        Bs[threadIdx.y][threadIdx.x] = col < N && t * T + threadIdx.y < K ? B[(t * T + threadIdx.y) * N + col] : 0;
                        __syncthreads();
                        for (int k = 0; k < T; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
                        __syncthreads();
                    }
                    if (row < M && col < N) C[row * N + col] = acc;
                }""";
        int bs = KernelCompiler.codeBytes(compile(blackScholes, "bs"));
        int mm = KernelCompiler.codeBytes(compile(sgemm, "sgemm"));
        assertTrue(bs < KernelCompiler.HUGE_METHOD_LIMIT, "Black-Scholes compiled to " + bs + " bytes");
        assertTrue(mm < KernelCompiler.HUGE_METHOD_LIMIT, "SGEMM compiled to " + mm + " bytes");
    }

    /** A kernel of {@code regions} loop-free barrier regions whose threads run as lanes. */
    private static String laneRegions(int regions) {
        StringBuilder src = new StringBuilder("""
                __global__ void k(float *out, const float *x) {
                    __shared__ float s[256];
                    int t = threadIdx.x;
                    int i = blockIdx.x * blockDim.x + t;
                    s[t] = x[i];
                    __syncthreads();
                """);
        for (int r = 0; r < regions; r++) {
            src.append("    s[t] = s[t] * 2.0f + x[i];\n    __syncthreads();\n");
        }
        return src.append("    out[i] = s[t];\n}\n").toString();
    }

    @Test
    void rowChecksGiveWayWhereTheyWouldPassHotSpotsHugeMethodLimit() {
        LaneFormTest.lanesAreThere();
        int withRows = 0;
        for (int regions = 1; regions <= 100; regions++) {
            String src = laneRegions(regions);
            int chosen = KernelCompiler.codeBytes(compile(src, "k"));
            int without = KernelCompiler.codeBytes(KernelCompiler.compile(FrontEnd.compile(src, "t.cu").kernel("k"),
                    ModuleMemory.EMPTY, true, false));
            if (chosen > without) {
                // the rows' checks and their groups' own loops: kept while the method stays small enough
                assertTrue(chosen <= KernelCompiler.HUGE_METHOD_LIMIT, regions + " regions: " + chosen + " bytes");
                withRows = regions;
            } else {
                assertEquals(without, chosen);
                if (without <= KernelCompiler.HUGE_METHOD_LIMIT) {
                    assertTrue(withRows > 0, "no kernel checked rows at once");
                    return;
                }
            }
        }
        fail("no kernel of up to 100 regions left out the row checks to stay below "
                + KernelCompiler.HUGE_METHOD_LIMIT + " bytes");
    }

    @Test
    void theDumpPropertyWritesEachKernelsClassFile(@TempDir Path dir) throws IOException {
        String previous = System.getProperty(KernelCompiler.DUMP_PROPERTY);
        System.setProperty(KernelCompiler.DUMP_PROPERTY, dir.toString());
        try {
            compile("__global__ void twice(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }", "twice");
        } finally {
            if (previous == null) {
                System.clearProperty(KernelCompiler.DUMP_PROPERTY);
            } else {
                System.setProperty(KernelCompiler.DUMP_PROPERTY, previous);
            }
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(f -> f.getFileName().toString().startsWith("twice-")).toList();
        }
        assertEquals(1, files.size(), "files written: " + files);
        ClassModel model = ClassFile.of().parse(files.get(0));
        assertTrue(model.methods().stream().anyMatch(m -> m.methodName().equalsString("runBlock")),
                "the dumped class has no runBlock method");
    }
}
