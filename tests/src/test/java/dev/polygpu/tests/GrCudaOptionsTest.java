package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every option GrCUDA's README lists is accepted with each value it documents, shows in {@code getoptions()} as
 * given, and leaves a program's results as they are (they steer performance on GPUs: prefetching, attaching
 * memory to streams, timing, multi-GPU placement); an unknown value is refused, naming the valid ones (GrCUDA
 * falls back to the default silently). The program: y = x * x on a stream of its own while the host writes an
 * unrelated array, then z = x + y; expected values i * i and i + i * i.
 */
class GrCudaOptionsTest {
    /** GrCUDA's options with a value other than its default, and every value of the enumerated ones. */
    private static final String[][] VALUES = {
        {"ExecutionPolicy", "sync", "async"},
        {"DependencyPolicy", "no-const", "with-const"},
        {"RetrieveNewStreamPolicy", "always-new", "reuse"},
        {"RetrieveParentStreamPolicy", "same-as-parent", "disjoint", "multigpu-disjoint", "multigpu-early-disjoint"},
        {"InputPrefetch", "true", "false"},
        {"ForceStreamAttach", "true", "false"},
        {"EnableComputationTimers", "true", "false"},
        {"NumberOfGPUs", "2", "1"},
        {"DeviceSelectionPolicy", "single-gpu", "round-robin", "stream-aware", "min-transfer-size",
            "minmin-transfer-time", "minmax-transfer-time"},
        {"DataThreshold", "0.5", "0.1"},
        {"MemAdvisePolicy", "read-mostly", "preferred-location", "none"},
        {"BandwidthMatrix", "/tmp/connection_graph.csv"},
    };
    private static final String SRC = """
            __global__ void sq(const float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] * x[i]; }
            __global__ void add(const float *x, const float *y, float *z, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = x[i] + y[i]; }""";

    private static void runProgram(Value cu) {
        int n = 1000;
        Value sq = cu.invokeMember("buildkernel", SRC, "sq(x: in pointer float, y: out pointer float, n: sint32)");
        Value add = cu.invokeMember("buildkernel", SRC,
                "add(x: in pointer float, y: in pointer float, z: out pointer float, n: sint32)");
        Value x = cu.invokeMember("DeviceArray", "float", n);
        Value y = cu.invokeMember("DeviceArray", "float", n);
        Value z = cu.invokeMember("DeviceArray", "float", n);
        Value other = cu.invokeMember("DeviceArray", "float", n);
        for (int i = 0; i < n; i++) {
            x.setArrayElement(i, i);
        }
        Value s = cu.invokeMember("cudaStreamCreate");
        sq.execute(8, 128, s).execute(x, y, n);
        for (int i = 0; i < n; i++) {
            other.setArrayElement(i, -i);
        }
        add.execute(8, 128).execute(x, y, z, n);
        for (int i = 0; i < n; i++) {
            assertEquals((float) i * i, y.getArrayElement(i).asFloat(), "y[" + i + "]");
            assertEquals(i + (float) i * i, z.getArrayElement(i).asFloat(), "z[" + i + "]");
            assertEquals(-i, other.getArrayElement(i).asFloat(), "other[" + i + "]");
        }
    }

    @Test
    void javaEveryValueIsAcceptedShownAndComputes() {
        for (String[] option : VALUES) {
            for (int v = 1; v < option.length; v++) {
                String name = "grcuda." + option[0];
                String value = option[v];
                Compat.java(Map.of(name, value), cu -> {
                    assertEquals(value, cu.invokeMember("getoptions").getHashValue(name).asString(), name);
                    runProgram(cu);
                });
            }
        }
    }

    @Test
    void javaAllTogether() {
        Map<String, String> all = new LinkedHashMap<>();
        for (String[] option : VALUES) {
            all.put("grcuda." + option[0], option[1]);
        }
        Compat.java(all, GrCudaOptionsTest::runProgram);
    }

    @Test
    void javaRefusesUnknownValuesListingTheValidOnes() {
        for (String[] bad : new String[][] {{"MemAdvisePolicy", "mostly-read", "none, read-mostly, preferred-location"},
                {"DataThreshold", "10", "must be a number from 0 to 1"},
                {"DeviceSelectionPolicy", "fastest", "single-gpu, round-robin"},
                {"RetrieveParentStreamPolicy", "parent", "same-as-parent, disjoint"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Compat.java(Map.of("grcuda." + bad[0], bad[1]), cu -> { }));
            assertTrue(e.getMessage().contains(bad[2]), e.getMessage());
        }
    }

    @Test
    void pythonAndJavascriptThroughTheLauncher(@TempDir Path dir) throws IOException {
        Path py = dir.resolve("o.py");
        Files.writeString(py, Compat.PY + """
                o = cu.getoptions()
                print(o['grcuda.InputPrefetch'], o['grcuda.ForceStreamAttach'], o['grcuda.EnableComputationTimers'],
                      o['grcuda.MemAdvisePolicy'], o['grcuda.DataThreshold'])
                k = cu.buildkernel('__global__ void inc(int *a) { a[threadIdx.x] += threadIdx.x; }',
                                   'inc(a: inout pointer sint32)')
                a = cu.DeviceArray('int', 32)
                k(1, 32)(a)
                k(1, 32)(a)
                print(a[31])
                """);
        Guests.Run r = Guests.launch("--grcuda.InputPrefetch=true", "--grcuda.ForceStreamAttach=true",
                "--grcuda.EnableComputationTimers=true", "--grcuda.MemAdvisePolicy=read-mostly",
                "--grcuda.DataThreshold=0.25", py.toString());
        assertEquals(0, r.status(), r::toString);
        assertEquals("true true true read-mostly 0.25\n62\n", r.out(), r::toString);
        Path js = dir.resolve("o.js");
        Files.writeString(js, Compat.JS + """
                const o = cu.getoptions();
                console.log(o.get('grcuda.NumberOfGPUs'), o.get('grcuda.DeviceSelectionPolicy'),
                    o.get('grcuda.BandwidthMatrix'));
                """);
        r = Guests.launch("--grcuda.NumberOfGPUs=2", "--grcuda.DeviceSelectionPolicy=minmax-transfer-time",
                "--grcuda.BandwidthMatrix=/data/bw.csv", js.toString());
        assertEquals(0, r.status(), r::toString);
        assertEquals("2 minmax-transfer-time /data/bw.csv\n", r.out(), r::toString);
        r = Guests.launch("--grcuda.MemAdvisePolicy=often", js.toString());
        assertNotEquals(0, r.status(), r::toString);
        assertTrue(r.err().contains("none, read-mostly, preferred-location"), r::toString);
    }
}
