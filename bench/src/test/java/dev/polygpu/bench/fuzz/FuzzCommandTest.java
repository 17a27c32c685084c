package dev.polygpu.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.gen.KernelGenerator;
import dev.polygpu.device.cpu.oracle.gen.Profile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parts of bench/fuzz that need no nvcc: flags, the case files and their JSON (a written case reads back
 * as the same launch and arguments), and how results are sorted into kinds.
 */
class FuzzCommandTest {
    @Test
    void flagsParseAndBadOnesNameThemselves() {
        FuzzArgs a = FuzzArgs.parse(new String[] {"--seed", "7", "--count", "20", "--batch", "4", "--profile",
            "int,size=8", "--shrink-calls", "0", "--invalid"});
        assertEquals(7, a.seed());
        assertEquals(20, a.count());
        assertEquals(4, a.batch());
        assertEquals("int,size=8", a.profile());
        assertTrue(a.invalid());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FuzzArgs.parse(new String[] {"--count", "0"}));
        assertTrue(e.getMessage().contains("--count"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FuzzArgs.parse(new String[] {"--colour"}));
        assertTrue(e.getMessage().contains("--colour"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FuzzArgs.parse(new String[] {"--profile", "default,+y"}));
        assertTrue(e.getMessage().contains("'y'"), e.getMessage());
    }

    @Test
    void usageErrorsExitWith2AndHelpListsConstructs() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, FuzzCommand.run(new String[] {"--seed"}, new PrintStream(out), new PrintStream(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--seed needs a value"));
        assertEquals(0, FuzzCommand.run(new String[] {"--help", "constructs"}, new PrintStream(out),
                new PrintStream(err)));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("for-multi-decl-barrier"));
    }

    @Test
    void optionsTakeEitherSpellingAndAMisspeltOneIsNamedWithTheClosest() {
        FuzzArgs a = FuzzArgs.parse(new String[] {"--seed=9", "--first", "40", "--count=5", "--summary", "s.jsonl",
            "--resume"});
        assertEquals(9, a.seed());
        assertArrayEquals(new long[] {40, 45}, a.range());
        assertEquals(Path.of("s.jsonl"), a.summary());
        assertArrayEquals(new long[] {7, 8}, FuzzArgs.parse(new String[] {"--only", "7", "--count", "50"}).range());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, FuzzCommand.run(new String[] {"--shrink-call", "3"}, new PrintStream(out),
                new PrintStream(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("did you mean --shrink-calls?"), err.toString());
        err.reset();
        assertEquals(2, FuzzCommand.run(new String[] {"--resume"}, new PrintStream(out), new PrintStream(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--resume needs --summary"), err.toString());
        assertEquals(0, FuzzCommand.run(new String[] {"--help"}, new PrintStream(out), new PrintStream(err)));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--shrink-calls=M"), out.toString());
    }

    /** A case file as the hand-written JSON writer of the first runs wrote it, escapes and all, still reads. */
    @Test
    void aCaseFileOfTheFirstRunsStillReads(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("case-2.cu"), "__global__ void k2_kernel(int* o) { o[0] = 1; }\n");
        Files.writeString(dir.resolve("case-2.json"), """
                {
                  "seed": 11,
                  "index": 2,
                  "profile": "default,size=8",
                  "invalid": false,
                  "result": "Differ[k \\"a\\"\\n\\tb \\u0001]",
                  "kernel": "k2_kernel",
                  "launch": {
                    "grid": [
                      2,
                      1,
                      1
                    ],
                    "block": [
                      64,
                      1,
                      1
                    ],
                    "dynamicSharedBytes": 0
                  },
                  "args": [
                    {
                      "buffer": "out_h",
                      "type": "U32",
                      "maxUlp": 0,
                      "initial": "AQAAAP////8="
                    },
                    {
                      "scalar": "I64",
                      "bits": -5
                    }
                  ],
                  "source": "case-2.cu",
                  "original": "case-2.orig.cu"
                }
                """);
        Map<String, Object> m = CaseFiles.read(dir.resolve("case-2.json"));
        assertEquals(11L, ((Number) m.get("seed")).longValue());
        assertEquals("Differ[k \"a\"\n\tb \u0001]", m.get("result"));
        OracleCase c = CaseFiles.reducedCase(dir.resolve("case-2.json"), m);
        assertEquals("k2_kernel", c.kernel());
        assertEquals(64, c.config().block().x());
        assertEquals(2, c.config().grid().x());
        assertArrayEquals(new byte[] {1, 0, 0, 0, -1, -1, -1, -1}, ((OracleArg.Buffer) c.args().get(0)).initial());
        assertEquals(-5L, ((OracleArg.Scalar) c.args().get(1)).bits());
    }

    @Test
    void aSummaryResumesWhereItsCampaignStoppedAndAddsUp(@TempDir Path dir) {
        Path file = dir.resolve("summary.jsonl");
        FuzzArgs first = FuzzArgs.parse(new String[] {"--seed", "3", "--count", "100", "--summary", file.toString()});
        assertEquals(0, RunSummary.resumeFrom(RunSummary.read(file), 3, "default", false));
        RunSummary.append(file, RunSummary.entry(first, "default", Map.of("equal", 99, "difference", 1), 1, 30.0,
                List.of(17L)));
        FuzzArgs other = FuzzArgs.parse(new String[] {"--seed", "4", "--count", "500"});
        RunSummary.append(file, RunSummary.entry(other, "default", Map.of("equal", 500), 0, 60.0, List.of()));
        FuzzArgs second = FuzzArgs.parse(new String[] {"--seed", "3", "--first", "100", "--count", "200"});
        RunSummary.append(file, RunSummary.entry(second, "default", Map.of("equal", 200), 0, 30.0, List.of()));
        List<RunSummary.Entry> entries = RunSummary.read(file);
        assertEquals(3, entries.size());
        assertEquals(300, RunSummary.resumeFrom(entries, 3, "default", false));
        assertEquals(0, RunSummary.resumeFrom(entries, 3, "warp", false));
        assertEquals(0, RunSummary.resumeFrom(entries, 3, "default", true));
        String totals = RunSummary.totals(entries, 3, "default", false);
        assertTrue(totals.contains("2 runs, 300 kernels, cases 0-299 (300 covered)"), totals);
        assertTrue(totals.contains("1 unexplained, 1 findings written, 60 s (300.0/minute)"), totals);
        FuzzArgs late = FuzzArgs.parse(new String[] {"--seed", "3", "--first", "400", "--count", "10"});
        RunSummary.append(file, RunSummary.entry(late, "default", Map.of("equal", 10), 0, 1.0, List.of()));
        assertTrue(RunSummary.totals(RunSummary.read(file), 3, "default", false).contains("gaps 300-399"));
    }

    @Test
    void aCaseFileReadsBackAsTheSameCase(@TempDir Path dir) {
        OracleCase c = KernelGenerator.generate(3, 5, Profile.defaults()).toCase("k5_");
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("seed", 3L);
        info.put("index", 5L);
        info.put("profile", "default");
        info.put("result", "Differ[\"quoted\"\nline]");
        info.putAll(CaseFiles.caseInfo(c));
        info.put("originalCase", CaseFiles.caseInfo(c));
        Path json = CaseFiles.write(dir, 5, info, c.source(), c.source());
        Map<String, Object> back = CaseFiles.read(json);
        assertEquals("Differ[\"quoted\"\nline]", back.get("result"));
        for (OracleCase r : List.of(CaseFiles.reducedCase(json, back), CaseFiles.originalCase(json, back))) {
            assertEquals(c.source(), r.source());
            assertEquals(c.kernel(), r.kernel());
            assertEquals(c.config(), r.config());
            assertEquals(c.args().size(), r.args().size());
            for (int i = 0; i < c.args().size(); i++) {
                if (c.args().get(i) instanceof OracleArg.Buffer b) {
                    OracleArg.Buffer rb = (OracleArg.Buffer) r.args().get(i);
                    assertArrayEquals(b.initial(), rb.initial(), b.name());
                    assertEquals(b.type(), rb.type());
                    assertEquals(b.maxUlp(), rb.maxUlp());
                } else {
                    assertEquals(c.args().get(i), r.args().get(i));
                }
            }
        }
        assertTrue(Files.exists(dir.resolve("case-5.orig.cu")));
        List<?> replay = (List<?>) back.get("replay");
        assertTrue(replay.get(0).toString().startsWith("bench/fuzz --replay "), replay.toString());
    }

    @Test
    void resultsSortIntoKinds() {
        assertEquals(Triage.Kind.EQUAL, Triage.kind(new OracleResult.Equal("a")));
        assertEquals(Triage.Kind.PTX_GAP, Triage.kind(new OracleResult.Rejected("a", OracleResult.Side.PTX,
                "k.ptx:3: instruction x is not supported by the CPU device's PTX interpreter (see docs/ptx.md)")));
        assertEquals(Triage.Kind.ENGINE_COMPILE, Triage.kind(new OracleResult.Rejected("a",
                OracleResult.Side.ENGINE, "kernel source does not compile:\nx.cu:1:1: error: y")));
        assertEquals(Triage.Kind.BOTH_REJECTED, Triage.kind(new OracleResult.Rejected("a", OracleResult.Side.PTX,
                OracleResult.Rejected.BOTH_SIDES + "PTX: a\nengine: b")));
        assertEquals(Triage.Kind.ENGINE_LIMIT, Triage.kind(new OracleResult.Rejected("a", OracleResult.Side.ENGINE,
                "kernel source does not compile:\nx.cu:2:1: error: kernel 'k' is too large for the CPU device's "
                        + "kernel engine: it compiles to more than …")));
        assertTrue(Triage.Kind.PTX_GAP.explained && Triage.Kind.ENGINE_LIMIT.explained
                && !Triage.Kind.DIFFER.explained);
        assertEquals("math", Triage.category(new OracleResult.Differ("a", "k", "math_f", 0, "1", "2"), "x"));
        assertEquals("atomics", Triage.category(new OracleResult.Differ("a", "k", "out_h", 0, "1", "2"),
                "atomicAdd(&a[0], 1);"));
    }

    @Test
    void templateFunctionsAreMarkedNotInlined() {
        String src = "template <typename T>\n__device__ T t(T a) { T arr[2] = {a, a}; return arr[0]; }\n"
                + "template <int N> static __device__ int u(int x) { return x + N; }\n"
                + "__device__ int w(int x) { return x; }\n__global__ void k() {}\n";
        String marked = Triage.notInlined(src);
        assertEquals(src.replace("T>\n__device__", "T>\n__device__ __noinline__").replace("static __device__",
                "static __device__ __noinline__"), marked);
        assertNull(Triage.notInlined(marked), "nothing left to mark");
        assertNull(Triage.notInlined("__device__ int w(int x) { return x; }\n__global__ void k() {}\n"));
    }

    /**
     * Seed 7 case 1585, the nvcc 13.0 miscompile reduced in docs/fuzzing.md: its optimized PTX differs from the
     * engine, and agrees once the template functions stay calls, which is what files such differences as
     * explained.
     */
    @Test
    void theKnownMiscompileGoesAwayWithoutInlining() {
        Assumptions.assumeTrue(DifferentialOracle.unavailableReason().isEmpty(), "nvcc is not available");
        Path json = Path.of("fuzz-findings/case-1585.json");
        OracleCase reduced = CaseFiles.reducedCase(json, CaseFiles.read(json));
        OracleCase kept = new OracleCase(reduced.name(), Triage.notInlined(reduced.source()), reduced.kernel(),
                reduced.config(), reduced.args());
        try (DifferentialOracle oracle = DifferentialOracle.create()) {
            assertInstanceOf(OracleResult.Differ.class, oracle.check(reduced));
            assertInstanceOf(OracleResult.Equal.class, oracle.check(kept));
        }
    }
}
