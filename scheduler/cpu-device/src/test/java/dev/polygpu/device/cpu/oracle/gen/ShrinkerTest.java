package dev.polygpu.device.cpu.oracle.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The shrinker against a made-up oracle whose "failure" is a source holding both a shuffle and an atomic:
 * it must keep failing the same way, end 1-minimal (removing any one remaining statement either leaves the
 * program incomplete or makes the failure go away), and be far smaller than the kernel it started from.
 */
class ShrinkerTest {
    private static final long SEED = 4242;

    private static boolean fails(String source) {
        return source.contains("__shfl") && source.contains("atomic");
    }

    private static OracleResult judge(OracleCase c) {
        return fails(c.source()) ? new OracleResult.Differ(c.name(), c.kernel(), "out_h", 0, "1", "2")
                : new OracleResult.Equal(c.name());
    }

    @Test
    void shrinksToAOneMinimalProgramThatStillFailsTheSameWay() {
        Profile p = Profile.defaults();
        GeneratedKernel k = null;
        for (long i = 0; i < 200 && k == null; i++) {
            GeneratedKernel g = KernelGenerator.generate(SEED, i, p);
            if (fails(g.toCase("k_").source())) {
                k = g;
            }
        }
        assertTrue(k != null, "no kernel of seed " + SEED + " has both a shuffle and an atomic");
        int[] calls = {0};
        Shrinker.Oracle oracle = cases -> {
            calls[0]++;
            List<OracleResult> out = new ArrayList<>();
            for (OracleCase c : cases) {
                out.add(judge(c));
            }
            return out;
        };
        OracleResult first = judge(k.toCase("k_"));
        Shrinker.Result r = new Shrinker(oracle, 8, 2000).shrink(k.name(), k.program(), first);
        String before = k.toCase("k_").source();
        String after = GeneratedKernel.toCase("x", r.program(), "k_").source();
        String where = "seed " + SEED + " case " + k.name();
        assertTrue(fails(after), where + ": the reduced kernel no longer fails:\n" + after);
        assertEquals("Differ:out_h", Shrinker.signature(r.result()), where);
        assertTrue(Edits.whole(r.program()), where + ": the reduced program is not whole:\n" + after);
        assertTrue(after.lines().count() * 3 < before.lines().count(), where + ": reduced " + before.lines().count()
                + " lines only to " + after.lines().count() + ":\n" + after);
        assertEquals(calls[0], r.calls(), "the result counts every oracle call");
        for (Stmt s : Edits.statements(r.program())) {
            if (s instanceof Stmt.Return || s instanceof Stmt.Simple x && x.kept()) {
                continue;
            }
            Program without = Edits.delete(r.program(), Set.of(s.id()));
            boolean stillFails = Edits.whole(without) && fails(GeneratedKernel.toCase("x", without, "k_").source());
            assertFalse(stillFails, where + ": statement " + s.id() + " could still go:\n" + after);
        }
    }

    /**
     * A made-up failure that any strided while loop shows: the shrinker empties the loop's body but keeps its step
     * (without it the loop would not end), the last statement of the body.
     */
    @Test
    void stridedWhileLoopsKeepTheirStep() {
        Profile p = Profile.parse("default,strided-loop=20");
        java.util.function.Predicate<String> failing = src -> src.contains("while (") && src.contains("gridDim");
        GeneratedKernel k = null;
        for (long i = 0; i < 100 && k == null; i++) {
            GeneratedKernel g = KernelGenerator.generate(SEED, i, p);
            if (failing.test(g.toCase("k_").source())) {
                k = g;
            }
        }
        assertTrue(k != null, "no kernel of seed " + SEED + " has a strided while loop");
        Shrinker.Oracle oracle = cases -> cases.stream().map(c -> failing.test(c.source())
                ? (OracleResult) new OracleResult.Differ(c.name(), c.kernel(), "out_h", 0, "1", "2")
                : new OracleResult.Equal(c.name())).toList();
        OracleResult first = new OracleResult.Differ("k", "k", "out_h", 0, "1", "2");
        Shrinker.Result r = new Shrinker(oracle, 8, 2000).shrink(k.name(), k.program(), first);
        String after = GeneratedKernel.toCase("x", r.program(), "k_").source();
        int steps = 0;
        for (Stmt s : Edits.statements(r.program())) {
            if (s instanceof Stmt.Loop l && l.kind() == Stmt.LoopKind.WHILE && after.contains("gridDim")) {
                List<Stmt> body = l.body().stmts();
                steps += !body.isEmpty() && body.getLast() instanceof Stmt.Simple x && x.kept() ? 1 : 0;
            }
        }
        assertTrue(steps > 0, "seed " + SEED + " case " + k.name() + ": the reduced while loop lost its step:\n"
                + after);
    }

    @Test
    void signaturesKeepKindBufferAndTheGistOfMessages() {
        assertEquals("Differ:out_f", Shrinker.signature(new OracleResult.Differ("a", "k", "out_f", 3, "1", "2")));
        OracleResult.Rejected a = new OracleResult.Rejected("a", OracleResult.Side.ENGINE,
                "kernel source does not compile:\nk1.cu:12:5: error: conflicting types deduced for 'T' ('int' vs "
                        + "'short')\n   code");
        OracleResult.Rejected b = new OracleResult.Rejected("b", OracleResult.Side.ENGINE,
                "kernel source does not compile:\ns9.cu:3:40: error: conflicting types deduced for 'T' ('int' vs "
                        + "'char')\n   other code");
        assertEquals(Shrinker.signature(a), Shrinker.signature(b));
        OracleResult.Rejected ptx = new OracleResult.Rejected("a", OracleResult.Side.PTX, a.message());
        assertFalse(Shrinker.signature(a).equals(Shrinker.signature(ptx)));
    }
}
