package dev.polygpu.device.cpu.oracle.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code strided-loop} construct: it writes grid-stride and block-stride loops in every form (for and while,
 * up and down, between barriers), each of which ends whatever the shrinker does to it, and some kernels keep to
 * block barriers, so that the engine runs their loops iteration-major.
 */
class StridedLoopsGeneratorTest {
    private static final long SEED = 20260102L;
    private static final Profile PROFILE = Profile.parse("default,strided-loop=20");

    private static List<Stmt.Loop> loops(Program p) {
        List<Stmt.Loop> out = new ArrayList<>();
        for (Stmt s : Edits.statements(p)) {
            if (s instanceof Stmt.Loop l) {
                out.add(l);
            }
        }
        return out;
    }

    /** True if the shrinker never replaces {@code e} as a whole (it replaces only what lies inside). */
    private static boolean kept(Expr e) {
        return e.fixed() || e.kind() == Expr.Kind.LIT;
    }

    @Test
    void everyFormIsWritten() {
        String all = "";
        for (long i = 0; i < 40; i++) {
            GeneratedKernel k = KernelGenerator.generate(SEED, i, PROFILE);
            all += k.toCase("k_").source();
        }
        for (String form : List.of("+= (int)(blockDim.x * gridDim.x))", "+= (unsigned int)(blockDim.x))",
                "-= (int)(blockDim.x * gridDim.x))", " >= 0; ", "while (", "out_s[", "__syncthreads();\n"
                + "    unsigned long long acc")) {
            assertTrue(all.contains(form), "seed " + SEED + ": 40 kernels never write " + form);
        }
    }

    /**
     * A strided while loop's step is its body's last statement and the shrinker may not delete it; a for loop's
     * start and step are fixed (the shrinker replaces only what lies inside their masks).
     */
    @Test
    void stridedLoopsEndWhateverTheShrinkerDoes() {
        int whiles = 0;
        int fors = 0;
        for (long i = 0; i < 40; i++) {
            for (Stmt.Loop l : loops(KernelGenerator.generate(SEED, i, PROFILE).program())) {
                List<Stmt> body = l.body().stmts();
                boolean strided = l.kind() == Stmt.LoopKind.WHILE && !body.isEmpty()
                        && body.getLast() instanceof Stmt.Simple s && s.kept();
                if (strided) {
                    whiles++;
                    Stmt.Simple step = (Stmt.Simple) body.getLast();
                    assertTrue(step.template().equals("$0 += $1;") || step.template().equals("$0 -= $1;"),
                            step.template());
                    assertTrue(kept(step.args().get(0)) && kept(step.args().get(1)), "case " + i);
                } else if (l.header().endsWith(" += $3)") || l.header().endsWith(" -= $3)")) {
                    fors++;
                    assertTrue(kept(l.args().get(1)) && kept(l.args().get(3)), "case " + i + ": " + l.header());
                }
                for (int k = 0; k < body.size() - 1; k++) {
                    assertTrue(!(body.get(k) instanceof Stmt.Simple s && s.kept()), "case " + i
                            + ": a kept statement that is not a loop's last");
                }
            }
        }
        assertTrue(whiles > 5 && fors > 5, whiles + " strided while loops, " + fors + " strided for loops");
    }

    @Test
    void someKernelsKeepToBlockBarriers() {
        int plain = 0;
        for (long i = 0; i < 60; i++) {
            String src = KernelGenerator.generate(SEED, i, PROFILE).toCase("k_").source();
            boolean warps = src.contains("_sync(") || src.contains("__syncwarp") || src.contains("volatile ")
                    || src.contains("__syncthreads_");
            plain += src.contains("__syncthreads();") && !warps ? 1 : 0;
        }
        assertTrue(plain >= 3, "seed " + SEED + ": " + plain + " of 60 kernels have block barriers and no warp "
                + "collectives");
    }

    @Test
    void offMeansNoStridedLoops() {
        Profile off = Profile.parse("default,-strided-loop");
        for (long i = 0; i < 20; i++) {
            GeneratedKernel k = KernelGenerator.generate(SEED, i, off);
            assertEquals(0, k.coverage().count(Construct.STRIDED_LOOP));
            assertTrue(!k.toCase("k_").source().contains("out_s"), "case " + i);
        }
    }
}
