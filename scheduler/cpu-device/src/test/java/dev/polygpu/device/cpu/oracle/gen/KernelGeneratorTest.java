package dev.polygpu.device.cpu.oracle.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The generator on its own: the same seed gives the same kernel, every construct is reachable, a profile's
 * switches are obeyed, and the launch keeps to whole warps.
 */
class KernelGeneratorTest {
    private static final long SEED = 20260101L;

    @Test
    void theSameSeedGivesTheSameSourceInputsAndLaunch() {
        for (String spec : List.of("default", "all", "int,size=10")) {
            Profile p = Profile.parse(spec);
            for (long i = 0; i < 12; i++) {
                OracleCase a = KernelGenerator.generate(SEED, i, p).toCase("k_");
                OracleCase b = KernelGenerator.generate(SEED, i, Profile.parse(spec)).toCase("k_");
                String where = "seed " + SEED + " index " + i + " profile " + spec;
                assertEquals(a.source(), b.source(), where);
                assertEquals(a.config(), b.config(), where);
                assertEquals(a.args().size(), b.args().size(), where);
                for (int k = 0; k < a.args().size(); k++) {
                    OracleArg x = a.args().get(k);
                    OracleArg y = b.args().get(k);
                    if (x instanceof OracleArg.Buffer bx && y instanceof OracleArg.Buffer by) {
                        assertArrayEquals(bx.initial(), by.initial(), where + " buffer " + bx.name());
                        assertEquals(bx.maxUlp(), by.maxUlp(), where);
                    } else {
                        assertEquals(x, y, where);
                    }
                }
            }
        }
    }

    @Test
    void otherIndicesAndSeedsGiveOtherKernels() {
        Profile p = Profile.defaults();
        String a = KernelGenerator.generate(SEED, 0, p).toCase("k_").source();
        assertNotEquals(a, KernelGenerator.generate(SEED, 1, p).toCase("k_").source());
        assertNotEquals(a, KernelGenerator.generate(SEED + 1, 0, p).toCase("k_").source());
    }

    @Test
    void everyConstructIsEmittedOverEnoughSeedsOfTheAllProfile() {
        Coverage total = new Coverage();
        Profile all = Profile.parse("all");
        for (long i = 0; i < 150; i++) {
            total.addAll(KernelGenerator.generate(SEED, i, all).coverage());
        }
        List<String> never = new ArrayList<>();
        for (Construct c : Construct.values()) {
            if (total.count(c) == 0) {
                never.add(c.flagName());
            }
        }
        assertTrue(never.isEmpty(), "seed " + SEED + ", 150 kernels of profile 'all' never emitted " + never);
    }

    @Test
    void constructsSwitchedOffAreNeverEmitted() {
        Profile p = Profile.parse("default,-printf,-shfl,-shfl-up,-shfl-down,-shfl-xor,-atomic-global,"
                + "-atomic-shared,-atomic-float-exact,-atomic-cas");
        Coverage total = new Coverage();
        for (long i = 0; i < 40; i++) {
            GeneratedKernel k = KernelGenerator.generate(SEED, i, p);
            total.addAll(k.coverage());
            String src = k.toCase("k_").source();
            assertTrue(!src.contains("printf(") && !src.contains("__shfl") && !src.contains("atomic"),
                    "seed " + SEED + " index " + i + " uses a construct switched off:\n" + src);
        }
        for (Construct c : Construct.values()) {
            if (c.defaultWeight == 0) {
                assertEquals(0, total.count(c), c.flagName() + " is off by default but was emitted");
            }
        }
    }

    @Test
    void everyBaseProfileGeneratesWholePrograms() {
        for (String base : Profile.BASES.keySet()) {
            Profile p = Profile.parse(base);
            for (long i = 0; i < 40; i++) {
                GeneratedKernel k = KernelGenerator.generate(SEED + 7, i, p);
                assertTrue(Edits.whole(k.program()), "seed " + (SEED + 7) + " index " + i + " profile " + base
                        + ": the shrinker's wholeness check rejects a generated program");
            }
        }
    }

    @Test
    void launchesUseWholeWarpsAndAtMost512Threads() {
        Profile p = Profile.parse("all");
        for (long i = 0; i < 60; i++) {
            OracleCase c = KernelGenerator.generate(SEED, i, p).toCase("k_");
            long block = c.config().block().volume();
            long threads = block * c.config().grid().volume();
            assertEquals(0, block % 32, "index " + i + ": block " + c.config().block());
            assertTrue(threads <= 512, "index " + i + ": " + threads + " threads");
        }
    }

    @Test
    void everyFileScopeNameCarriesThePrefix() {
        Profile p = Profile.parse("all");
        for (long i = 0; i < 30; i++) {
            String src = KernelGenerator.generate(SEED, i, p).toCase("zq9_").source();
            assertTrue(!src.contains("@"), "index " + i + " left an unprefixed name");
            for (String line : src.lines().toList()) {
                if (line.startsWith("__device__") || line.startsWith("struct ") || line.startsWith("#define ")
                        || line.startsWith("__constant__") || line.startsWith("__shared__")
                        || line.startsWith("extern \"C\"")) {
                    assertTrue(line.contains("zq9_"), "index " + i + ": file-scope line without the prefix: " + line);
                }
            }
        }
    }

    @Test
    void profileSpecsChangeWeightsAndNameWhatIsWrong() {
        Profile p = Profile.parse("int,+volatile-shared,shfl=7,-printf,size=40");
        assertEquals(0, p.weight(Construct.TYPE_FLOAT));
        assertEquals(7, p.weight(Construct.SHFL));
        assertEquals(0, p.weight(Construct.PRINTF));
        assertTrue(p.on(Construct.VOLATILE_SHARED));
        assertEquals(40, p.size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Profile.parse("default,+nope"));
        assertTrue(e.getMessage().contains("no construct named 'nope'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Profile.parse("default,size=0"));
        assertTrue(e.getMessage().contains("size=0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Profile.parse("default,int"));
        assertTrue(e.getMessage().contains("must come first"), e.getMessage());
    }

    /** A literal negative zero is kept out of divisors (nvcc 13.0 folds x / -0.0 wrongly: docs/fuzzing.md). */
    @Test
    void negativeZeroLiteralsAreRecognized() {
        for (String z : List.of("(-0.0)", "(-0.0f)", "-0x0p+0", "(-0.0F)")) {
            assertTrue(FloatExprs.negativeZero(Expr.lit(Prim.DOUBLE, z, 64)), z);
        }
        for (String other : List.of("0.0", "(0.0f)", "(-1.0)", "(-0x1p-1074)", "x", "(-0.0 + y)")) {
            assertTrue(!FloatExprs.negativeZero(Expr.lit(Prim.DOUBLE, other, 64)), other);
        }
        assertTrue(!FloatExprs.negativeZero(Expr.op(Prim.DOUBLE, "(-0.0)")), "only literals");
    }
}
