package dev.polygpu.device.cpu.kernel.codegen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.cpu.kernel.exec.ModuleMemory;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.kernel.front.TranslationUnit;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.gen.GeneratedOracleChecks;
import dev.polygpu.device.cpu.oracle.gen.KernelGenerator;
import dev.polygpu.device.cpu.oracle.gen.Profile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fuzzer's strided loops reach the engine's loop interchange: generated kernels with the {@code strided-loop}
 * construct have loops that run iteration-major in barrier regions, and those kernels give nvcc's results
 * (its PTX on the PTX interpreter) through the differential oracle.
 */
@Timeout(240)
class GeneratedInterchangedLoopsTest {
    private static final long SEED = 131;
    private static final String PROFILE = "default,strided-loop=20";
    /** Cases of {@link #SEED} that hold interchanged loops (found by the first test's count). */
    private static final long[] INTERCHANGED = {15, 27, 31, 32, 38, 41, 44, 47};

    private static int interchanged(long index) {
        OracleCase c = KernelGenerator.generate(SEED, index, Profile.parse(PROFILE)).toCase("k" + index + "_");
        TranslationUnit m = FrontEnd.compile(c.source(), "t.cu");
        return KernelCompiler.interchangedLoops(KernelCompiler.compile(m.kernel(c.kernel()),
                ModuleMemory.allocate(m.globals(), "t.cu")));
    }

    @Test
    void generatedStridedLoopsAreInterchanged() {
        int kernels = 0;
        for (long i = 0; i < 60; i++) {
            kernels += interchanged(i) > 0 ? 1 : 0;
        }
        assertTrue(kernels >= 5, "seed " + SEED + ", profile " + PROFILE + ": only " + kernels
                + " of 60 kernels have a loop the engine runs iteration-major");
        for (long i : INTERCHANGED) {
            assertTrue(interchanged(i) > 0, "seed " + SEED + " case " + i + " has no interchanged loop");
        }
    }

    @Test
    void kernelsWithInterchangedLoopsAgreeWithNvccsPtx() {
        GeneratedOracleChecks.assertAgree(SEED, PROFILE, INTERCHANGED);
    }
}
