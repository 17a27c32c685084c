package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.Source;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shape of the DAG the scheduler builds, seen through the public API: guest programs run with
 * {@code grcuda.ExportDAG}, and the DOT file they leave is checked for its vertices, edges (each expected
 * edge derived by hand from the access modes) and, where the program makes it certain, stream placement.
 * Edges to parents that already completed are kept, so the DAG does not depend on how fast the device is.
 */
@Tag("slow")
class ScheduleDagTest {
    /** Kernels named by what they do to their arrays; {@code heavy} runs long enough to keep its children waiting. */
    static final String KERNELS = """
            const SRC = `
            extern "C" __global__ void inplace(float* x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * 2.0f + 1.0f; }
            extern "C" __global__ void heavy(float* x, int iters, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) { float v = x[i]; for (int k = 0; k < iters; k++) v = v * 0.999f + 0.5f; x[i] = v; } }
            extern "C" __global__ void unary(float* y, const float* x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] + 1.0f; }
            extern "C" __global__ void binary(float* z, const float* x, const float* y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = x[i] * y[i]; }
            extern "C" __global__ void ternary(float* z, const float* a, const float* b, const float* c, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = a[i] + b[i] - c[i]; }
            extern "C" __global__ void accum(float* z, const float* x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] += x[i]; }
            `;
            const cu = Polyglot.eval('grcuda', 'CU');
            const inplace = cu.buildkernel(SRC, 'inplace(x: inout pointer float, n: sint32)');
            const heavy = cu.buildkernel(SRC, 'heavy(x: inout pointer float, iters: sint32, n: sint32)');
            const unary = cu.buildkernel(SRC, 'unary(y: out pointer float, x: in pointer float, n: sint32)');
            const binary = cu.buildkernel(SRC, 'binary(z: out pointer float, x: in pointer float, y: in pointer float, n: sint32)');
            const ternary = cu.buildkernel(SRC,
                'ternary(z: out pointer float, a: in pointer float, b: in pointer float, c: in pointer float, n: sint32)');
            const accum = cu.buildkernel(SRC, 'accum(z: inout pointer float, x: in pointer float, n: sint32)');
            const N = 1024;
            function array() { const a = cu.DeviceArray('float', N); for (let i = 0; i < N; i++) a[i] = 1 + i % 7; return a; }
            """;

    @TempDir
    Path dir;

    /** A DAG read back from DOT: vertex labels and stream (or "host") by id, and edges "parent->child". */
    record Dag(Map<Integer, String> labels, Map<Integer, String> placement, Set<String> edges) {
        String stream(int id) {
            return placement.get(id);
        }
    }

    private Dag run(String program, String... options) throws IOException {
        Path dot = dir.resolve("dag.dot");
        Context.Builder b = Context.newBuilder("js", "grcuda").engine(Guests.engine()).allowAllAccess(true)
                .allowPolyglotAccess(PolyglotAccess.ALL).option("grcuda.ExportDAG", dot.toString());
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        try (Context c = b.build()) {
            c.eval(Source.create("js", KERNELS + program));
        }
        return parse(Files.readString(dot));
    }

    static Dag parse(String dot) {
        Map<Integer, String> labels = new TreeMap<>();
        Map<Integer, String> placement = new TreeMap<>();
        Matcher n = Pattern.compile("(?m)^\\s*\"e(\\d+)\" \\[label=\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(dot);
        while (n.find()) {
            String[] parts = n.group(2).split("\\\\n");
            int id = Integer.parseInt(n.group(1));
            labels.put(id, parts[0].replaceAll(" #\\d+$", ""));
            placement.put(id, parts.length > 1 ? parts[1] : "");
        }
        Set<String> edges = new TreeSet<>();
        Matcher e = Pattern.compile("\"e(\\d+)\" -> \"e(\\d+)\"").matcher(dot);
        while (e.find()) {
            edges.add(e.group(1) + "->" + e.group(2));
        }
        return new Dag(labels, placement, edges);
    }

    private static Set<String> edges(String... e) {
        return new TreeSet<>(Set.of(e));
    }

    @Test
    void aPipelineIsAChainOnOneStreamEndedByTheHostRead() throws IOException {
        Dag d = run("""
                const x = array();
                inplace(4, 256)(x, N); inplace(4, 256)(x, N); inplace(4, 256)(x, N);
                if (x[5] !== ((6 * 2 + 1) * 2 + 1) * 2 + 1) throw new Error('wrong x[5]: ' + x[5]);
                """);
        assertEquals(Map.of(1, "inplace", 2, "inplace", 3, "inplace", 4, "read DeviceArray(float, 1024) #1"),
                d.labels());
        assertEquals(edges("1->2", "2->3", "3->4"), d.edges());
        assertEquals(d.stream(1), d.stream(2));
        assertEquals(d.stream(2), d.stream(3));
        assertEquals("host read", d.stream(4));
    }

    private static final String FORK_JOIN = """
            const x = array(), y1 = array(), y2 = array(), z = array();
            heavy(1, 64)(x, 3000000, 64);      // 1: long, so its children are placed while it runs
            unary(4, 256)(y1, x, N);           // 2: reads x
            unary(4, 256)(y2, x, N);           // 3: reads x
            binary(4, 256)(z, y1, y2, N);      // 4: joins
            const v = z[100];                  // 5: the host waits for the join
            """;

    @Test
    void constReadersForkFromTheirWriterAndJoinWithoutOrderingEachOther() throws IOException {
        Dag d = run(FORK_JOIN);
        assertEquals(edges("1->2", "1->3", "2->4", "3->4", "4->5"), d.edges());
        assertEquals(d.stream(1), d.stream(2), "the first child continues on its parent's stream");
        assertNotEquals(d.stream(1), d.stream(3), "its sibling runs beside it on another stream");
    }

    @Test
    void underNoConstReadersAreOrdered() throws IOException {
        Dag d = run(FORK_JOIN, "grcuda.DependencyPolicy", "no-const");
        assertEquals(edges("1->2", "2->3", "2->4", "3->4", "4->5"), d.edges());
    }

    @Test
    void underSameAsParentSiblingsShareTheParentsStream() throws IOException {
        Dag d = run(FORK_JOIN, "grcuda.RetrieveParentStreamPolicy", "same-as-parent");
        assertEquals(edges("1->2", "1->3", "2->4", "3->4", "4->5"), d.edges());
        assertEquals(d.stream(1), d.stream(2));
        assertEquals(d.stream(1), d.stream(3));
    }

    @Test
    void theSyncPolicyBuildsTheSameDag() throws IOException {
        Dag d = run(FORK_JOIN, "grcuda.ExecutionPolicy", "sync");
        assertEquals(edges("1->2", "1->3", "2->4", "3->4", "4->5"), d.edges());
    }

    @Test
    void aHostReadIsASyncPointThatTheNextWriterFollows() throws IOException {
        Dag d = run("""
                const x = array();
                inplace(4, 256)(x, N);                 // 1
                const before = x[3];                   // 2: host read, waits for 1
                inplace(4, 256)(x, N);                 // 3: after 1 and after the host's read
                const again = x[3];                    // 4
                if (again !== before * 2 + 1) throw new Error('wrong: ' + before + ' then ' + again);
                """);
        assertEquals("read DeviceArray(float, 1024) #1", d.labels().get(2));
        assertEquals(edges("1->2", "1->3", "2->3", "3->4"), d.edges());
    }

    @Test
    void aHitsLikeIterationWithHostResetsOfTheNorms() throws IOException {
        Dag d = run("""
                const a = array(), h = array(), a2 = array(), h2 = array();
                const na = cu.DeviceArray('float', N), nh = cu.DeviceArray('float', N);
                for (let it = 0; it < 2; it++) {
                    na[0] = 0; nh[0] = 0;              // host resets: sync points from the 2nd iteration
                    unary(4, 256)(a2, h, N);           // authorities from hubs
                    unary(4, 256)(h2, a, N);           // hubs from authorities
                    accum(4, 256)(na, a2, N);          // norms
                    accum(4, 256)(nh, h2, N);
                    binary(4, 256)(a, a2, na, N);      // normalise
                    binary(4, 256)(h, h2, nh, N);
                }
                const r = a[0];
                """);
        // Iteration 1: 1 a2<-h, 2 h2<-a, 3 na+=a2, 4 nh+=h2, 5 a<-a2,na, 6 h<-h2,nh (a was read by 2, h by 1).
        // Iteration 2: host writes 7 (na) and 8 (nh), then 9..14 as above, and the host read 15 of a.
        assertEquals("write DeviceArray(float, 1024) #5", d.labels().get(7));
        assertEquals("write DeviceArray(float, 1024) #6", d.labels().get(8));
        assertEquals(edges(
                "1->3", "2->4", "1->5", "2->5", "3->5", "1->6", "2->6", "4->6",
                "3->7", "5->7", "4->8", "6->8",
                "1->9", "3->9", "5->9", "6->9", "2->10", "4->10", "5->10", "6->10",
                "7->11", "9->11", "8->12", "10->12",
                "5->13", "9->13", "10->13", "11->13", "6->14", "9->14", "10->14", "12->14",
                "13->15"), d.edges());
    }

    @Test
    void anImagePipelineLikeDagForksIntoMinAndMaxAndJoins() throws IOException {
        Dag d = run("""
                const img = array(), blur = array(), edge = array(), mx = array(), mn = array(),
                      ext = array(), out = array();
                heavy(1, 64)(img, 3000000, 64);        // 1: the source image is being produced
                unary(4, 256)(blur, img, N);           // 2
                unary(4, 256)(edge, blur, N);          // 3
                unary(4, 256)(mx, edge, N);            // 4
                unary(4, 256)(mn, edge, N);            // 5
                ternary(4, 256)(ext, edge, mx, mn, N); // 6
                binary(4, 256)(out, ext, img, N);      // 7
                const r = out[0];                      // 8
                """);
        assertEquals(edges("1->2", "2->3", "3->4", "3->5", "3->6", "4->6", "5->6", "6->7", "1->7", "7->8"),
                d.edges());
        assertTrue(d.labels().get(6).equals("ternary"), d.labels().toString());
    }

    @Test
    void pythonProgramsBuildTheSameDag() throws IOException {
        Path dot = dir.resolve("py.dot");
        try (Context c = Context.newBuilder("python", "grcuda").engine(Guests.engine()).allowAllAccess(true)
                .allowPolyglotAccess(PolyglotAccess.ALL).option("grcuda.ExportDAG", dot.toString()).build()) {
            c.eval("python", """
                    import polyglot
                    cu = polyglot.eval(language="grcuda", string="CU")
                    src = 'extern "C" __global__ void inplace(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * 2.0f + 1.0f; }'
                    inplace = cu.buildkernel(src, "inplace(x: inout pointer float, n: sint32)")
                    x = cu.DeviceArray("float", 100)
                    for i in range(100):
                        x[i] = i
                    inplace(1, 128)(x, 100)
                    inplace(1, 128)(x, 100)
                    assert x[7] == (7 * 2 + 1) * 2 + 1
                    """);
        }
        Dag d = parse(Files.readString(dot));
        assertEquals(edges("1->2", "2->3"), d.edges());
        assertEquals("host read", d.stream(3));
    }
}
