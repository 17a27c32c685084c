package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GrCUDA programs read {@code kernel.ptx}. On the CPU device it is the PTX nvcc makes of the kernel's source: the
 * expected text is nvcc's own output for {@code -ptx -arch=compute_75} (nvcc 13's lowest architecture; the CPU
 * device reports compute capability 7.0), run here, compared without comment lines. The kernel still runs on the
 * CPU device's engine. Skipped where there is no nvcc.
 */
class KernelPtxTest {
    private static final Path NVCC = Path.of(System.getenv().getOrDefault("POLYGPU_NVCC", "/usr/local/bin/nvcc"));
    private static final String SRC = "__global__ void sq(float *x, int n) {"
            + " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * x[i]; }";
    private static final Map<String, String> CPU = Map.of("grcuda.Device", "cpu");
    private static String expected;

    @BeforeAll
    static void nvccsOwnPtx(@TempDir Path dir) throws IOException, InterruptedException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(NVCC), "no nvcc at " + NVCC);
        Path cu = dir.resolve("sq.cu");
        Files.writeString(cu, SRC);
        Path ptx = dir.resolve("sq.ptx");
        Process p = new ProcessBuilder(NVCC.toString(), "-ptx", "-arch=compute_75", "-o", ptx.toString(),
                cu.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, log);
        expected = code(Files.readString(ptx));
    }

    /** The PTX without comment lines and blank lines, which carry the compiler's build id. */
    private static String code(String ptx) {
        return ptx.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("//"))
                .collect(Collectors.joining("\n"));
    }

    @Test
    void java() {
        Compat.java(CPU, cu -> {
            Value k = cu.invokeMember("buildkernel", SRC, "sq(x: inout pointer float, n: sint32)");
            assertEquals(expected, code(k.getMember("ptx").asString()));
            assertEquals(expected, code(k.getMember("ptx").asString()), "read again");
            Value x = cu.invokeMember("DeviceArray", "float", 8);
            for (int i = 0; i < 8; i++) {
                x.setArrayElement(i, i + 0.5f);
            }
            k.execute(1, 8).execute(x, 8);
            assertEquals(7.5f * 7.5f, x.getArrayElement(7).asFloat());
        });
    }

    @Test
    void python() {
        String out = Guests.eval("python", Compat.PY + """
                k = cu.buildkernel('%s', 'sq', 'pointer, sint32')
                print(k.ptx)""".formatted(SRC));
        assertEquals(expected, code(out));
    }

    @Test
    void javascript() {
        String out = Guests.eval("js", Compat.JS + """
                const k = cu.buildkernel('%s', 'sq(x: inout pointer float, n: sint32)');
                console.log(k.ptx);""".formatted(SRC));
        assertEquals(expected, code(out));
    }

    /** A template kernel's PTX holds the instantiation its signature names. */
    @Test
    void aTemplateKernelsPtxHasItsInstantiation() {
        String out = Guests.eval("python", Compat.PY + """
                k = cu.buildkernel('template<typename T> __global__ void inc(T *x) { x[threadIdx.x] += 1; }',
                                   'inc<double>(x: inout pointer double)')
                print([l.strip() for l in k.ptx.splitlines() if '.entry' in l])""");
        assertEquals(List.of("['.visible .entry _Z3incIdEvPT_(']").toString(), "[" + out.strip() + "]");
    }
}
