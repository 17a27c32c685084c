package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CompileException.Diagnostic;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.CxxNames;
import dev.polygpu.device.DeviceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compiling with nvcc (skipped where the CUDA toolkit is not installed), and finding a compiler. */
class PtxCompilerTest {
    @TempDir
    Path tmp;

    private PtxCompiler nvcc() {
        return PtxCompiler.nvcc(NvccTool.require(), tmp.resolve("cache"));
    }

    private static PtxParam p(String type, int bytes) {
        return new PtxParam(type, bytes);
    }

    private static Map<String, List<PtxParam>> byName(PtxCompiler.Ptx ptx) {
        return ptx.entries().stream().collect(java.util.stream.Collectors.toMap(PtxEntry::name,
                e -> PtxEntriesTest.typesAndSizes(e.params())));
    }

    @Test
    void conformanceKernelsForCompute75And90() throws Exception {
        PtxCompiler c = nvcc();
        for (int[] cc : new int[][] {{7, 5}, {9, 0}}) {
            PtxCompiler.Ptx saxpy = c.compile(NvccTool.conformanceKernel("SAXPY"), "saxpy.cu", cc[0], cc[1], List.of());
            assertFalse(saxpy.fromCache());
            assertTrue(saxpy.text().contains("\n.target sm_" + cc[0] + cc[1] + "\n"), saxpy.text());
            assertEquals(Map.of("saxpy", List.of(p(".u64", 8), p(".u64", 8), p(".f32", 4), p(".u32", 4))),
                    byName(saxpy));
            assertEquals("saxpy", CxxNames.resolve("saxpy", saxpy.loweredNames(), byName(saxpy).keySet()));

            PtxCompiler.Ptx mark = c.compile(NvccTool.conformanceKernel("MARK"), "mark.cu", cc[0], cc[1], List.of());
            assertTrue(mark.text().contains("\n.target sm_" + cc[0] + cc[1] + "\n"));
            assertEquals(Map.of("mark", List.of(p(".u64", 8))), byName(mark));
        }
    }

    static final String CXX = """
            __global__ void square(float* a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) a[i] = a[i] * a[i];
            }
            template <typename T>
            __global__ void scale(T* a, T f, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) a[i] *= f;
            }
            """;

    @Test
    void aCxxKernelAndTemplateInstantiations() {
        PtxCompiler c = nvcc();
        for (int[] cc : new int[][] {{7, 5}, {9, 0}}) {
            PtxCompiler.Ptx ptx = c.compile(CXX, "cxx.cu", cc[0], cc[1],
                    List.of("square", "scale<float>", "scale<double>"));
            // Itanium names: S_ is the template name, S0_ the parameter type T*, i the trailing int.
            assertEquals(Map.of(
                    "_Z6squarePfi", List.of(p(".u64", 8), p(".u32", 4)),
                    "_Z5scaleIfEvPT_S0_i", List.of(p(".u64", 8), p(".f32", 4), p(".u32", 4)),
                    "_Z5scaleIdEvPT_S0_i", List.of(p(".u64", 8), p(".f64", 8), p(".u32", 4))), byName(ptx));
            assertEquals(Map.of("square", "_Z6squarePfi", "scale<float>", "_Z5scaleIfEvPT_S0_i",
                    "scale<double>", "_Z5scaleIdEvPT_S0_i"), ptx.loweredNames());
        }
        // Without a name expression the template is not instantiated, so there is nothing to find.
        PtxCompiler.Ptx plain = c.compile(CXX, "cxx.cu", 7, 5, List.of());
        assertEquals(List.of("_Z6squarePfi"), plain.entries().stream().map(PtxEntry::name).toList());
        DeviceException e = assertThrows(DeviceException.class, () -> CxxNames.resolve("cxx.cu", "scale<float>",
                plain.loweredNames(), List.of("_Z6squarePfi")));
        assertEquals(CudaError.NOT_FOUND, e.error());
    }

    /**
     * nvcc puts module variables into the PTX as {@code .const}/{@code .global} declarations, those with
     * initializers in braces: the entries, their parameters and the lowered names are read as without them.
     */
    @Test
    void moduleVariablesBesideKernelsAndTemplates() {
        PtxCompiler.Ptx ptx = nvcc().compile(KernelSignaturesTest.WITH_GLOBALS, "globals.cu", 7, 5,
                List.of("smooth", "scaled<float>", "readCounter"));
        assertTrue(ptx.text().contains(".const .align 4 .b8 weights[12]"), ptx.text());
        assertTrue(ptx.text().contains(".global .align 4 .u32 counter"), ptx.text());
        assertEquals(Map.of(
                "smooth", List.of(p(".u64", 8), p(".u64", 8), p(".u32", 4)),
                "_Z6scaledIfEvPT_i", List.of(p(".u64", 8), p(".u32", 4)),
                "_Z11readCounterPj", List.of(p(".u64", 8))), byName(ptx));
        assertEquals("_Z6scaledIfEvPT_i", CxxNames.resolve("globals.cu", "scaled<float>", ptx.loweredNames(),
                byName(ptx).keySet()));
        assertEquals("_Z11readCounterPj", CxxNames.resolve("globals.cu", "readCounter", ptx.loweredNames(),
                byName(ptx).keySet()));
    }

    @Test
    void compileErrorsAgainstTheUsersFileAndLines() {
        String src = "extern \"C\" __global__ void bad(float* a) {\n  int x = ;\n  a[0] = undefined_thing;\n"
                + "  int unused;\n}\n";
        CompileException e = assertThrows(CompileException.class,
                () -> nvcc().compile(src, "kernels/my kernel", 7, 5, List.of()));
        assertEquals(CudaError.COMPILATION_ERROR, e.error());
        assertEquals(List.of(
                new Diagnostic("kernels/my kernel", 2, 11, "expected an expression", "  int x = ;"),
                new Diagnostic("kernels/my kernel", 3, 10, "identifier \"undefined_thing\" is undefined",
                        "  a[0] = undefined_thing;")), e.diagnostics());
        assertEquals("""
                kernel source does not compile:
                kernels/my kernel:2:11: error: expected an expression
                      int x = ;
                              ^
                kernels/my kernel:3:10: error: identifier "undefined_thing" is undefined
                      a[0] = undefined_thing;
                             ^ [NVRTC_ERROR_COMPILATION]""", e.getMessage());
    }

    @Test
    void aBadNameExpressionIsReportedAsSuchAndUserLinesStay() {
        String src = "template <typename T> __global__ void k(T* a) {}\n__global__ void j(int* a) { a[0] = ; }";
        CompileException e = assertThrows(CompileException.class,
                () -> nvcc().compile(src, "k.cu", 7, 5, List.of("k<float>", "k<nosuch>")));
        assertEquals(List.of(
                new Diagnostic("k.cu", 2, 36, "expected an expression", "__global__ void j(int* a) { a[0] = ; }"),
                new Diagnostic("k.cu", 0, 0, "in name expression 'k<nosuch>': identifier \"nosuch\" is undefined",
                        null)), e.diagnostics());
    }

    @Test
    void aMissingIncludeIsAPreprocessorError() {
        CompileException e = assertThrows(CompileException.class,
                () -> nvcc().compile("#include \"nope.h\"\n", "inc.cu", 7, 5, List.of()));
        assertEquals(List.of(new Diagnostic("inc.cu", 1, 10, "fatal error: nope.h: No such file or directory",
                "#include \"nope.h\"")), e.diagnostics());
    }

    @Test
    void anArchitectureNvccDoesNotSupportIsNamed() {
        DeviceException e = assertThrows(DeviceException.class,
                () -> nvcc().compile(CXX, "cxx.cu", 6, 0, List.of()));
        assertEquals(CudaError.NOT_SUPPORTED, e.error());
        assertTrue(e.detail().startsWith(nvcc().describe() + " cannot compile for compute capability 6.0"
                + " (compute_60); it supports compute_75"), e.detail());
        assertEquals(CudaError.INVALID_VALUE, assertThrows(DeviceException.class,
                () -> nvcc().compile(CXX, "cxx.cu", 7, 10, List.of())).error());
        assertEquals(CudaError.INVALID_VALUE, assertThrows(DeviceException.class,
                () -> nvcc().compile(null, "cxx.cu", 7, 5, List.of())).error());
    }

    /**
     * Below the compiler's lowest architecture (nvcc 13 starts at compute_75, after `nvcc --list-gpu-arch`), the
     * lowest one it lists is used; at or above it, the one asked for.
     */
    @Test
    void compileForAtLeastTakesTheLowestArchitectureTheCompilerTargets() throws Exception {
        Process p = new ProcessBuilder(NvccTool.require().toString(), "--list-gpu-arch").start();
        String lowest = new String(p.getInputStream().readAllBytes()).lines().map(String::strip)
                .filter(l -> l.matches("compute_\\d+")).findFirst().orElseThrow();
        assertEquals(0, p.waitFor());
        int cc = Integer.parseInt(lowest.substring("compute_".length()));
        String src = "__global__ void k(int *x) { x[0] = 1; }";
        assertTrue(nvcc().compileForAtLeast(src, "k.cu", 1, 0, List.of()).text().contains(".target sm_" + cc));
        assertTrue(nvcc().compileForAtLeast(src, "k.cu", 9, 0, List.of()).text().contains(".target sm_90"));
    }

    @Test
    void describeNamesTheReleaseAndPath() throws Exception {
        Path exe = NvccTool.require();
        Process p = new ProcessBuilder(exe.toString(), "--version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        Matcher m = Pattern.compile("Cuda compilation tools, release (\\d+\\.\\d+),").matcher(out);
        assertTrue(m.find(), out);
        assertEquals("nvcc " + m.group(1) + " (" + exe + ")", nvcc().describe());
    }

    @Test
    void nvccRunsInATemporaryFolderThatIsDeletedAndIsStoppedAtItsTimeout() throws Exception {
        Path log = tmp.resolve("runs.log");
        Path wrapper = NvccTool.countingWrapper(Files.createDirectory(tmp.resolve("bin")), log, 0);
        PtxCompiler c = PtxCompiler.nvcc(wrapper, new PtxCache(null), Duration.ofSeconds(120));
        c.compile(CXX, "cxx.cu", 7, 5, List.of());
        List<String> runs = NvccTool.runs(log);
        assertEquals(1, runs.size());
        assertTrue(runs.get(0).contains("polygpu-nvcc-"), runs.get(0));
        assertFalse(Files.exists(Path.of(runs.get(0))), runs.get(0) + " is left behind");

        Path slowLog = tmp.resolve("slow.log");
        // The wrapper logs its folder, then sleeps 120 s; the timeout leaves a loaded machine 5 s to start it
        // and log (with 1 s it could be stopped before it logged), and is still far from the sleep.
        Path slow = NvccTool.countingWrapper(Files.createDirectory(tmp.resolve("slow")), slowLog, 120);
        PtxCompiler s = PtxCompiler.nvcc(slow, new PtxCache(null), Duration.ofSeconds(5));
        long start = System.nanoTime();
        DeviceException e = assertThrows(DeviceException.class, () -> s.compile(CXX, "cxx.cu", 7, 5, List.of()));
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertEquals(CudaError.UNKNOWN, e.error());
        assertEquals(s.describe() + " did not finish compiling 'cxx.cu' within 5 s", e.detail());
        assertTrue(seconds < 60, "took " + seconds + " s: stopped at its timeout, not after the wrapper's 120 s");
        assertEquals(1, NvccTool.runs(slowLog).size(), "the wrapper logged its folder before it was stopped");
        assertFalse(Files.exists(Path.of(NvccTool.runs(slowLog).get(0))));
    }

    @Test
    void findTakesPolygpuNvccThenPathThenTheFixedPlaces() throws Exception {
        Path exe = NvccTool.require();
        Path bin = Files.createDirectory(tmp.resolve("bin"));
        Path wrapper = NvccTool.countingWrapper(bin, tmp.resolve("log"), 0);
        PtxCache none = new PtxCache(null);

        PtxCompiler own = PtxCompiler.find(Map.of("POLYGPU_NVCC", wrapper.toString(), "PATH", exe.getParent()
                .toString()), none, false, List.of());
        assertTrue(own.available());
        assertTrue(own.describe().endsWith("(" + wrapper + ")"), own.describe());

        PtxCompiler onPath = PtxCompiler.find(Map.of("PATH", "/nonexistent:" + bin), none, false, List.of(exe));
        assertTrue(onPath.describe().endsWith("(" + wrapper + ")"), onPath.describe());

        PtxCompiler fixed = PtxCompiler.find(Map.of("POLYGPU_NVCC", "/nonexistent/nvcc"), none, false, List.of(exe));
        assertTrue(fixed.describe().endsWith("(" + exe + ")"), fixed.describe());
    }

    @Test
    void withoutACompilerCompilingSaysWhatWasTriedAndWhatToInstall() {
        PtxCompiler c = PtxCompiler.find(Map.of("POLYGPU_NVCC", "/nonexistent/nvcc", "PATH", tmp.toString()),
                new PtxCache(null), false, List.of(tmp.resolve("cuda/bin/nvcc")));
        assertFalse(c.available());
        DeviceException e = assertThrows(DeviceException.class, () -> c.compile(CXX, "cxx.cu", 7, 5, List.of()));
        assertEquals(CudaError.NOT_SUPPORTED, e.error());
        assertEquals("cannot compile CUDA C: no compiler found. Tried: /nonexistent/nvcc (POLYGPU_NVCC) is not an"
                + " executable file; no nvcc on PATH; CUDA_HOME is not set; " + tmp.resolve("cuda/bin/nvcc") + " is"
                + " not an executable file. Install the CUDA toolkit (it has nvcc and libnvrtc.so.12), or set"
                + " POLYGPU_NVCC to the path of nvcc.", e.detail());

        PtxCompiler unset = PtxCompiler.find(Map.of(), new PtxCache(null), false, List.of());
        assertEquals("no CUDA compiler (POLYGPU_NVCC is not set; no nvcc on PATH; CUDA_HOME is not set)",
                unset.describe());
    }

    /** NVRTC is tried first; where libnvrtc.so.12 is missing (as on the development machines) the reason is kept. */
    @Test
    void nvrtcIsTriedFirst() {
        PtxCompiler c = PtxCompiler.find(Map.of(), new PtxCache(null), true, List.of());
        if (c.available()) {
            assertTrue(c.describe().startsWith("NVRTC "), c.describe());
        } else {
            assertTrue(c.describe().startsWith("no CUDA compiler (NVRTC (JCuda's JNvrtc): "), c.describe());
            assertTrue(c.describe().contains("libnvrtc"), c.describe());
        }
    }

    @Test
    void safeFileNames() {
        assertEquals("saxpy.cu", NvccBackend.safeName("saxpy.cu"));
        assertEquals("my_kernel.cu", NvccBackend.safeName("dir/sub\\my kernel"));
        assertEquals("k.txt.cu", NvccBackend.safeName("k.txt"));
        assertEquals("kernel-x.cu", NvccBackend.safeName("-x"));
        assertEquals("kernel.cu", NvccBackend.safeName(""));
        assertEquals("kernel_.cu", NvccBackend.safeName("kernel.ptx"));
    }
}
